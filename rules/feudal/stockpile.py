"""Stockpile phase (FL-STOCK): discard up to two cards, then draw that many plus one."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.core.words import counted
from rules.feudal import handlers
from rules.feudal.handlers import option
from rules.feudal.state import Ctx, Frame, card, draw

MAX_DISCARD = 2


def _options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    opts = [option({"do": "draw"}, f"Draw {counted(frame['discarded'] + 1, 'card')}")]
    if frame["discarded"] < MAX_DISCARD:
        hand = ctx.seat(seat)["hand"]
        opts += [
            option({"do": "discard", "card": c}, f"Discard {card(c)['name']}")
            for c in sorted(set(hand))
        ]
    return opts


def _choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    me = ctx.seat(seat)
    if action["do"] == "discard":
        me["hand"].remove(action["card"])
        me["discard"].append(action["card"])
        frame["discarded"] += 1
        ctx.log("FL-STOCK-01", f"{ctx.name(seat)} discards {card(action['card'])['name']}.")
        return
    ctx.pop()
    draw(ctx, seat, frame["discarded"] + 1, "FL-STOCK-02")


handlers.decision(
    "stock",
    "FL-STOCK-01",
    lambda ctx, f, s: "Stockpile phase: discard up to 2 cards, then draw",
    _options,
    _choose,
)
