"""Ruling (15.0) and Fortification (14.0): the Domestic Endeavors of the active Player."""

from __future__ import annotations

from typing import Any

from rules.ema import endeavors, rebellion
from rules.ema.state import FORT, UNREST, Ctx, change_ss


def rule(ctx: Ctx, en: dict[str, Any], card: dict[str, Any], value: int) -> None:
    """Ruling: ±1 to the ruled Area in either column (A-15); Unrest quelled unless −1 (15.3)."""
    target = en["target"]
    here = ctx.area(target)
    was_unrest = here[UNREST]
    found = endeavors.applying(card, "ruling", value)
    lowered = False
    for result in found:
        if result["e"] == "+1":
            made = change_ss(ctx, target, 1)
            ctx.log(
                "EMA-15.2",
                f"{ctx.aname(target)} gains 1 SS."
                if made
                else f"{ctx.aname(target)} is at Norm+2: the +1 is ignored (7.12).",
            )
        elif result["e"] == "-1" and change_ss(ctx, target, -1):
            lowered = True
            ctx.log("EMA-15.2", f"{ctx.aname(target)} loses 1 SS.")
    if was_unrest and not any(r["e"] == "-1" for r in found):
        here[UNREST] = False
        ctx.log("EMA-15.3", f"The Unrest in {ctx.aname(target)} is quelled.")
    if lowered:
        rebellion.failed_endeavor(ctx, target, was_unrest)


def fortify(ctx: Ctx, en: dict[str, Any], card: dict[str, Any], value: int) -> None:
    """Fortification: F builds 2, then 3 (14.2); −1 lowers the Area's SS."""
    target = en["target"]
    here = ctx.area(target)
    was_unrest = here[UNREST]
    for result in endeavors.applying(card, "fortification", value):
        if result["e"] == "F":
            before = here[FORT]
            here[FORT] = 2 if before == 0 else 3
            ctx.log("EMA-14.2", f"{ctx.aname(target)} fortified: strength {here[FORT]}.")
        elif result["e"] == "-1" and change_ss(ctx, target, -1):
            ctx.log("EMA-14.2", f"{ctx.aname(target)} loses 1 SS.")
            rebellion.failed_endeavor(ctx, target, was_unrest)


endeavors.RESOLVERS["ruling"] = rule
endeavors.RESOLVERS["fortification"] = fortify
