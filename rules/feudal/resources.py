"""Resource dice (FL-RES, FL-GEN-15): rolling both dice, the Leadership 1 Rule, the hand check."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.feudal import dice, handlers
from rules.feudal.handlers import option
from rules.feudal.state import Ctx, Frame, card, draw, min_hand


def die_value(rolled: int, modifier: int | None) -> int:
    """A Resource die after the leader's die modifier, kept on the die's faces 1..6 (A-14)."""
    return max(1, min(6, rolled + (modifier or 0)))


def roll_resources(ctx: Ctx, seat: int, rule: str) -> None:
    """Roll Sup and Ld together; a 1 rolled on the Ld die draws a card at once (FL-GEN-15).

    A-14: the book prints a Supply Die and a Leadership Die on the Leader but gives them no rule.
    Our leaders carry them as modifiers to the Resource dice (null = none); the Leadership 1
    Rule looks at the die as rolled, before the modifier.
    """
    me = ctx.seat(seat)
    leader = card(me["leader"])
    sup, ld = dice.d6(ctx.s), dice.d6(ctx.s)
    me["sup"] = die_value(sup, leader["supply_die"])
    me["ld"] = die_value(ld, leader["leadership_die"])
    shown = f"Sup {me['sup']}, Ld {me['ld']}"
    if (me["sup"], me["ld"]) != (sup, ld):
        shown += f" (rolled {sup} and {ld}; {leader['name']} modifies the dice)"
    ctx.log(rule, f"{ctx.name(seat)} rolls the Resource dice: {shown}.")
    if ld == 1:
        draw(ctx, seat, 1, "FL-GEN-15")


def hand_check(ctx: Ctx, seat: int) -> None:
    """Draw up to the leader's Minimum Hand Size (FL-RES-01)."""
    short = min_hand(ctx, seat) - len(ctx.seat(seat)["hand"])
    if short > 0:
        draw(ctx, seat, short, "FL-RES-01")


def _options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    me = ctx.seat(seat)
    return [
        option({"do": "keep"}, f"Keep Sup {me['sup']} and Ld {me['ld']} for next turn"),
        option({"do": "reroll"}, "Reroll both Resource dice"),
    ]


def _choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    ctx.pop()
    if action["do"] == "reroll":
        roll_resources(ctx, seat, "FL-RES-03")
    else:
        ctx.log("FL-RES-02", f"{ctx.name(seat)} keeps the Resource dice.")


handlers.decision(
    "resource",
    "FL-RES-02",
    lambda ctx, f, s: "Keep your Resource dice, or reroll both",
    _options,
    _choose,
)
