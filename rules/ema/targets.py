"""Legal Bases and Targets of Endeavors (9.1x): connection, reach by sea, gold, ER ≥ 0."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from rules.ema import er
from rules.ema.empire import court_costs, halve, leg_targets
from rules.ema.state import Ctx, area_ids, seafaring

COMBAT = ("conquest", "pillage", "convert")
STATURE_OF = {
    "conquest": "c",
    "pillage": "c",
    "convert": "c",
    "ruling": "a",
    "fortification": "a",
    "diplomacy": "d",
}


def base_cost(ctx: Ctx, kind: str) -> int:
    """The gold cost before Seas and extra gold (10.1, 11.1, 12.2, 14.1, 15.1)."""
    return int(ctx.d.tables["costs"]["conquest" if kind == "convert" else kind])


def affordable(ctx: Ctx, seat: int, kind: str, side_a: int, target: str, seas: int) -> bool:
    """Enough gold for the cost, and an ER that extra gold can bring to 0 or more (9.17, 9.18).

    `side_a` is the Base's part of the ER (`er.side_a`), worked out once for all Targets.
    """
    spare = ctx.seat(seat)["gold"] - base_cost(ctx, kind) - seas
    if spare < 0:
        return False
    value = side_a - er.side_b(ctx, seat, kind, target)
    return bool((halve(ctx.s, value) if seas == 2 else value) + spare >= 0)


def convertible(ctx: Ctx, seat: int, aid: str) -> bool:
    """An own Area of another Religion that the Leader's Religion can convert (22.2, 22.3)."""
    me = ctx.seat(seat)
    chart = ctx.d.tables["conversion"]
    rel = ctx.area(aid)["rel"]
    return rel != me["rel"] and chart[me["rel"]][0] > 0 and not me["excom"]


@lru_cache(maxsize=4096)
def _sorted_legs(base: str, sf: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """`leg_targets` in id order, sorted once per Base and set of seafaring Areas."""
    return tuple(sorted(leg_targets(base, sf).items()))


def _iter_foreign_targets(ctx: Ctx, seat: int, kind: str, base: str, inner: int) -> Iterator[str]:
    """Targets of a Conquest, Pillage or Conversion from a Base, lazily, in id order."""
    if ctx.seat(seat)["gold"] < base_cost(ctx, kind) + inner:
        return  # every Target costs at least this much (9.17): none is affordable
    side_a = er.side_a(ctx, seat, kind, base)
    for target, leg in _sorted_legs(base, seafaring(ctx.s)):
        here = ctx.area(target)
        if kind == "convert":
            if here["owner"] != seat or not convertible(ctx, seat, target):
                continue
        elif here["owner"] == seat or (kind == "pillage" and here["ss"] <= -3):
            continue
        seas = inner + leg
        if seas <= 2 and affordable(ctx, seat, kind, side_a, target, seas):
            yield target


def foreign_targets(ctx: Ctx, seat: int, kind: str, base: str) -> list[str]:
    """Targets of a Conquest, Pillage or Conversion from a Base (9.16, 11.0, 22.2)."""
    inner = court_costs(ctx.s, seat).get(base)
    if inner is None:
        return []
    return list(_iter_foreign_targets(ctx, seat, kind, base, inner))


def _has_target(ctx: Ctx, seat: int, kind: str, base: str, inner: int) -> bool:
    return next(_iter_foreign_targets(ctx, seat, kind, base, inner), None) is not None


def foreign_bases(ctx: Ctx, seat: int, kind: str) -> list[str]:
    """Connected own Areas from which some Target is in reach (9.14, 9.15)."""
    if ctx.seat(seat)["exile"]:
        return []
    costs = court_costs(ctx.s, seat)
    return [b for b in sorted(costs) if _has_target(ctx, seat, kind, b, costs[b])]


def domestic_targets(ctx: Ctx, seat: int, kind: str) -> list[str]:
    """Connected own Areas for Ruling or Fortification (9.14, 9.15)."""
    costs = court_costs(ctx.s, seat)
    side_a = er.side_a(ctx, seat, kind, None)
    return [t for t in sorted(costs) if affordable(ctx, seat, kind, side_a, t, costs[t])]


def diplomacy_base(ctx: Ctx, seat: int) -> str | None:
    """The Court, or the host's Court for an exile with asylum (12.11, 21.2)."""
    me = ctx.seat(seat)
    if me["exile"]:
        host = me["asylum"]
        return None if host is None else ctx.seat(host)["court"]
    court: str | None = me["court"]
    return court


def _iter_diplomacy_targets(ctx: Ctx, seat: int) -> Iterator[str]:
    base = diplomacy_base(ctx, seat)
    if base is None:
        return
    if ctx.seat(seat)["gold"] < base_cost(ctx, "diplomacy"):
        return  # 9.17: the cost cannot be paid for any Target
    courts = {m["court"] for m in ctx.s["seats"]}
    areas = ctx.s["areas"]
    ids = area_ids() if len(areas) == len(area_ids()) else tuple(sorted(areas))
    side_a = er.side_a(ctx, seat, "diplomacy", base)
    for t in ids:
        if t not in courts and affordable(ctx, seat, "diplomacy", side_a, t, 0):
            yield t


def diplomacy_targets(ctx: Ctx, seat: int) -> list[str]:
    """Any Area but a Court, at any distance (12.12, 12.16, A-17)."""
    return list(_iter_diplomacy_targets(ctx, seat))


def any_endeavor(ctx: Ctx, seat: int, kind: str) -> bool:
    """Is there at least one legal Endeavor of this kind now? (Stops at the first one found.)"""
    if kind == "diplomacy":
        return next(_iter_diplomacy_targets(ctx, seat), None) is not None
    if ctx.seat(seat)["exile"]:
        return False
    costs = court_costs(ctx.s, seat)
    if ctx.seat(seat)["gold"] < base_cost(ctx, kind):
        return False  # 9.17: not even the cost without Seas can be paid
    if kind in COMBAT:
        return any(_has_target(ctx, seat, kind, b, costs[b]) for b in sorted(costs))
    side_a = er.side_a(ctx, seat, kind, None)
    return any(affordable(ctx, seat, kind, side_a, t, costs[t]) for t in sorted(costs))


def domestic_seas(ctx: Ctx, seat: int, target: str) -> int:
    """Seas between the Court and a Domestic Target (9.32)."""
    return int(court_costs(ctx.s, seat).get(target, 0))
