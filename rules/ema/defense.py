"""Defense (13.0): the attacked Player's decision during the attacker's turn."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.ema import handlers, holding
from rules.ema.empire import court_costs
from rules.ema.handlers import option
from rules.ema.state import Ctx, Frame

OUT_OF_TURN = ("weapons", "tactics")  # the Holding cards that matter when asked to defend


def _defend_text(ctx: Ctx, frame: Frame) -> str:
    en = ctx.s["endeavor"]
    return (
        f"{ctx.name(en['seat'])} announces {en['kind'].title()} against {ctx.aname(en['target'])}: "
        "defend it?"
    )


def choices(ctx: Ctx, seat: int, target: str) -> list[Option]:
    """Defend or not, the cost shown: the Defense and a sea per crossing to the Area (13.1x)."""
    cost = ctx.d.tables["costs"]["defense"] + court_costs(ctx.s, seat)[target]
    return [
        option({"defend": False}, "No Defense"),
        option({"defend": True}, f"Defend (cost {cost} gold, one Year Card)"),
    ]


def _defend_options(ctx: Ctx, frame: Frame) -> list[Option]:
    opts = choices(ctx, frame["seat"], ctx.s["endeavor"]["target"])
    return opts + [
        option({"holding": c}, f"First play {holding.NAMES[holding.kind_of(ctx, c)]}")
        for c in sorted(ctx.seat(frame["seat"])["hand"])
        if holding.kind_of(ctx, c) in OUT_OF_TURN
    ]


def _defend_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    if "holding" in action:
        holding.play(ctx, frame["seat"], action["holding"])  # 19.2: Holding cards at any time
        return
    ctx.pop()
    en = ctx.s["endeavor"]
    if action["defend"]:
        en["defender"] = frame["seat"]
        en["dseas"] = court_costs(ctx.s, frame["seat"])[en["target"]]
        ctx.log(
            "EMA-13.0.P1",
            f"{ctx.name(frame['seat'])} announces a Defense of {ctx.aname(en['target'])}.",
        )
    else:
        ctx.log("EMA-13.0.GR", f"{ctx.name(frame['seat'])} does not defend.")


def _dgold_options(ctx: Ctx, frame: Frame) -> list[Option]:
    en = ctx.s["endeavor"]
    spare = ctx.seat(frame["seat"])["gold"] - ctx.d.tables["costs"]["defense"] - en["dseas"]
    return [
        option({"gold": g}, f"Spend {g} extra gold (attacker's ER −{g})")
        for g in range(0, min(spare, 20) + 1)
    ]


def _dgold_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    ctx.s["endeavor"]["dgold"] = action["gold"]


handlers.decision("defend", "EMA-13.0.P1", _defend_text, _defend_options, _defend_choose)
handlers.decision(
    "def_gold",
    "EMA-13.0.P3",
    lambda ctx, f: "Extra gold for your Defense",
    _dgold_options,
    _dgold_choose,
)
