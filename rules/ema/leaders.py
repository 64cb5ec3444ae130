"""Leaders (8.0): Statures and Stature Checks on the Leader Stature Change Table."""

from __future__ import annotations

from typing import Any

from rules.ema.state import Ctx

STATURE_NAMES = {"c": "Combat", "a": "Administrative", "d": "Diplomacy"}
STATURES = ("c", "a", "d")


def new_stature(ctx: Ctx, current: int, roll: int) -> int:
    """The Leader Stature Change Table (8.3): the new Stature for a 2d6 roll."""
    return int(ctx.d.tables["stature_change"][str(current)][roll - 2])


def exempt(ctx: Ctx, seat: int) -> bool:
    """Charlemagne's Longevity: no Stature Checks for the Franks in Rounds 1–7 (27.7)."""
    return (
        "charlemagne_longevity" in ctx.s["special"]
        and ctx.seat(seat)["empire"] == "FRA"
        and ctx.s["round"] <= 7
    )


def stature_check(ctx: Ctx, seat: int, rule: str = "EMA-8.0.P") -> None:
    """Roll three times, once per Stature on its own column (8.0 Procedure)."""
    if exempt(ctx, seat):
        ctx.log("EMA-27.7", f"{ctx.name(seat)} makes no Stature Check (Charlemagne's Longevity).")
        return
    st = ctx.seat(seat)["st"]
    parts = []
    for key in STATURES:
        roll = ctx.roll2()
        st[key] = new_stature(ctx, st[key], roll)
        parts.append(f"{STATURE_NAMES[key]} {roll}→{st[key]}")
    ctx.seat(seat)["checks"] += 1
    ctx.log(rule, f"Stature Check for {ctx.name(seat)}: {', '.join(parts)}.")


def card_calls_check(card: dict[str, Any], stature: int) -> bool:
    """A card calls for a check when the Stature in use is listed on it (8.2, 8.21)."""
    return stature in card["checks"]


def total(ctx: Ctx, seat: int) -> int:
    """The sum of the three Statures, for initiative (6.0 III.6)."""
    st = ctx.seat(seat)["st"]
    return int(st["c"] + st["a"] + st["d"])
