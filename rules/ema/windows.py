"""Windows for Holding cards out of turn (19.2 "at any time"; reference §6.1).

At the start and the end of every Endeavor, and after a Player's Heirless draw, every other
seat holding Holding cards is asked, in turn order, whether to play one. Every holder is asked,
playable card or not, so the question reveals nothing the hand count does not already show.
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.ema import handlers, holding
from rules.ema.handlers import option
from rules.ema.state import Ctx, Frame

WHY = {
    "start": "before the Endeavor is resolved",
    "end": "after the Endeavor",
    "heirless": "after a Leader died heirless",
}


def open_window(ctx: Ctx, why: str, skip: int) -> None:
    """Queue a window for every seat but `skip`, in turn order (the holders are found when asked)."""
    order = [s for s in ctx.s["order"] if s is not None] or list(range(len(ctx.s["seats"])))
    queue = [s for s in order if s != skip]
    if queue:
        ctx.push({"kind": "card_queue", "queue": queue, "why": why})


@handlers.step("card_queue")
def _queue(ctx: Ctx, frame: Frame) -> None:
    """Ask the next seat that holds any Holding card; the window closes when none is left."""
    queue = [s for s in frame["queue"] if ctx.seat(s)["hand"]]
    frame["queue"] = queue
    if not queue:
        ctx.pop()
        return
    ctx.push({"kind": "card_window", "seat": queue[0], "why": frame["why"]})


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    return [option({"play": None}, "Play no Holding card now")] + [
        option({"play": c}, f"Play {holding.NAMES[holding.kind_of(ctx, c)]}")
        for c in holding.playable(ctx, frame["seat"])
    ]


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    window = ctx.s["stack"][-1]
    if action["play"] is None:
        window["queue"] = window["queue"][1:]  # he passes: on to the next holder
        return
    holding.play(
        ctx, frame["seat"], action["play"]
    )  # he is asked again afterwards, for another card


handlers.decision(
    "card_window",
    "EMA-19.2",
    lambda ctx, f: f"Play a Holding card {WHY[f['why']]}?",
    _options,
    _choose,
)
