"""Pillage (11.0): Target and Base SS results and gold from the Pillage/Plunder Table."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.ema import endeavors, rebellion
from rules.ema.state import UNREST, Ctx, change_ss


def plunder_gold(ctx: Ctx) -> tuple[int, int]:
    """Roll 1d6 on the Pillage/Plunder Table (11.3): the die and the gold."""
    die = rng.die(ctx.s)
    return die, int(ctx.d.tables["plunder"][die - 1])


def resolve(ctx: Ctx, en: dict[str, Any], card: dict[str, Any], value: int) -> None:
    """Apply a Pillage card (11.2)."""
    seat, base, target = en["seat"], en["base"], en["target"]
    base_unrest = ctx.area(base)[UNREST]
    for result in endeavors.applying(card, "pillage", value):
        if result["e"] == "G":
            die, gold = plunder_gold(ctx)
            ctx.seat(seat)["gold"] += gold
            ctx.log("EMA-11.3", f"Pillage of {ctx.aname(target)}: die {die}, {gold} gold.")
        elif result["col"] == "base" and change_ss(ctx, base, -1):
            ctx.log("EMA-11.2", f"{ctx.aname(base)} (Base) loses 1 SS.")
            rebellion.failed_endeavor(ctx, base, base_unrest)
        elif result["col"] == "target" and change_ss(ctx, target, -1):
            ctx.log("EMA-11.2", f"{ctx.aname(target)} loses 1 SS to the Pillage.")


endeavors.RESOLVERS["pillage"] = resolve
