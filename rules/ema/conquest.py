"""Conquest (10.0) and Multiple Conquest (10.3x), and the Conversion it carries (22.2)."""

from __future__ import annotations

from typing import Any

from rules.ema import endeavors, rebellion, religion
from rules.ema.state import OWNER, PARTIAL, UNREST, Ctx, change_ss
from rules.ema.territory import transfer


def resolve(ctx: Ctx, en: dict[str, Any], card: dict[str, Any], value: int) -> None:
    """Apply a Conquest card: C, Target −1 and Base −1 results (10.2)."""
    seat, base, target = en["seat"], en["base"], en["target"]
    base_unrest = ctx.area(base)[UNREST]
    target_unrest = ctx.area(target)[UNREST]
    for result in endeavors.applying(card, en["kind"], value):
        if result["e"] == "C":
            if en["kind"] == "convert":
                religion.progress(ctx, seat, target)
            else:
                c_result(ctx, seat, base, target)
        elif result["e"] == "-1" and result["col"] == "base":
            if change_ss(ctx, base, -1):
                ctx.log("EMA-10.2", f"{ctx.aname(base)} (Base) loses 1 SS.")
                rebellion.failed_endeavor(ctx, base, base_unrest)
        elif result["e"] == "-1" and change_ss(ctx, target, -1):
            ctx.log("EMA-10.2", f"{ctx.aname(target)} (Target) loses 1 SS.")
            if en["kind"] == "convert":
                religion.conversion_unrest(ctx, target, target_unrest)


def c_result(ctx: Ctx, seat: int, base: str, target: str) -> None:
    """One C: clear an enemy C (10.36), or add a partial result and conquer at Population (10.3)."""
    here = ctx.area(target)
    owner = here[OWNER]
    mine = ctx.area(base)
    clearing = [
        p for p in mine[PARTIAL] if owner is not None and p["seat"] == owner and p["base"] == target
    ]
    if clearing:
        clearing[0]["n"] -= 1
        mine[PARTIAL] = [p for p in mine[PARTIAL] if p["n"] > 0]
        ctx.log(
            "EMA-10.36",
            f"{ctx.name(seat)} removes one enemy C result of {ctx.aname(target)} "
            f"against {ctx.aname(base)}.",
        )
        return
    entry = next((p for p in here[PARTIAL] if p["seat"] == seat and p["base"] == base), None)
    if entry is None:
        entry = {"seat": seat, "base": base, "n": 0}
        here[PARTIAL].append(entry)
    entry["n"] += 1
    need = max(1, ctx.d.areas[target]["population"])
    total = sum(p["n"] for p in here[PARTIAL] if p["seat"] == seat)
    if total < need:
        ctx.log("EMA-10.3", f"C result against {ctx.aname(target)}: {total} of {need} needed.")
        return
    ctx.log("EMA-10.2", f"{ctx.name(seat)} conquers {ctx.aname(target)} from {ctx.name(owner)}.")
    transfer(ctx, target, seat, "conquest")  # the automatic Claim follows in transfer


endeavors.RESOLVERS["conquest"] = resolve
endeavors.RESOLVERS["convert"] = resolve
