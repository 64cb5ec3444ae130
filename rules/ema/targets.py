"""Legal Bases and Targets of Endeavors (9.1x): connection, reach by sea, gold, ER ≥ 0."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache

from rules.core.engine import State
from rules.ema import er
from rules.ema.empire import court_costs, halve, leg_targets
from rules.ema.state import OWNER, REL, SS, Ctx, area_ids, data, memo, owned, seafaring

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
    return _costs()[kind]


@cache
def _costs() -> dict[str, int]:
    """Each kind's cost from the tables, read once (a Conversion costs what a Conquest does)."""
    costs = data().tables["costs"]
    return {k: int(costs["conquest" if k == "convert" else k]) for k in STATURE_OF}


def targets_part(ctx: Ctx, seat: int, kind: str) -> dict[str, int]:
    """Where the Targets' parts of the ER (`er.side_b`) are kept: for the whole listing of the
    prompts (a Target is reached from many Bases), else for one search."""
    remembered = memo(ctx.s)
    if remembered is None:
        return {}
    key = ("side_b", seat, "conquest" if kind == "convert" else kind)
    found: dict[str, int] | None = remembered.get(key)
    if found is None:
        found = remembered[key] = {}
    return found


def target_part(ctx: Ctx, seat: int, kind: str, target: str, known: dict[str, int]) -> int:
    """`er.side_b` of a Target, from `known` or worked out and kept there."""
    found = known.get(target)
    if found is None:
        found = known[target] = er.side_b(ctx, seat, kind, target)
    return found


def affordable(state: State, rating: int, seas: int, left: int) -> bool:
    """Whether the gold `left` after the Endeavor's cost pays the Seas and then raises the ER
    (`rating`, halved across two Seas) to 0 or more (9.17, 9.18)."""
    return (halve(state, rating) if seas == 2 else rating) + left - seas >= 0


def rated(ctx: Ctx, seat: int, kind: str, base: str | None, target: str) -> int:
    """`er.raw`, from the parts remembered while the prompts are listed."""
    side_a = (
        _combat_side_a(ctx, seat, str(base)) if kind in COMBAT else er.side_a(ctx, seat, kind, base)
    )
    return side_a - target_part(ctx, seat, kind, target, targets_part(ctx, seat, kind))


def convertible(ctx: Ctx, seat: int, aid: str) -> bool:
    """An own Area of another Religion that the Leader's Religion can convert (22.2, 22.3)."""
    me = ctx.seat(seat)
    chart = ctx.d.tables["conversion"]
    rel = ctx.area(aid)[REL]
    return rel != me["rel"] and chart[me["rel"]][0] > 0 and not me["excom"]


@lru_cache(maxsize=4096)
def _sorted_legs(base: str, sf: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """`leg_targets` in id order, sorted once per Base and set of seafaring Areas."""
    return tuple(sorted(leg_targets(base, sf).items()))


def _convertible_areas(ctx: Ctx, seat: int) -> frozenset[str]:
    """The own Areas the seat could convert (`convertible`, 22.2, 22.3). Remembered while listing."""
    me = ctx.seat(seat)
    if me["excom"] or ctx.d.tables["conversion"][me["rel"]][0] <= 0:
        return frozenset()
    remembered = memo(ctx.s)
    found: frozenset[str] | None = (
        None if remembered is None else remembered.get(("convertible", seat))
    )
    if found is None:
        areas, rel = ctx.s["areas"], me["rel"]
        found = frozenset(a for a in owned(ctx.s, seat) if areas[a][REL] != rel)
        if remembered is not None:
            remembered[("convertible", seat)] = found
    return found


def _any_convertible(ctx: Ctx, seat: int) -> bool:
    """Does the seat own any Area it could convert (22.2, 22.3)?"""
    return bool(_convertible_areas(ctx, seat))


def _combat_side_a(ctx: Ctx, seat: int, base: str) -> int:
    """`er.side_a` of a Conquest, Pillage or Conversion from a Base (the same for all three),
    remembered while the prompts are listed."""
    remembered = memo(ctx.s)
    if remembered is None:
        return er.side_a(ctx, seat, "conquest", base)
    found: int | None = remembered.get(("combat_side_a", seat, base))
    if found is None:
        found = remembered[("combat_side_a", seat, base)] = er.side_a(ctx, seat, "conquest", base)
    return found


# What a search for Targets of one seat and kind needs from any Base: the gold left after the
# cost (before Seas), where the Targets' ER parts are kept, and the seafaring Areas.
Search = tuple[int, dict[str, int], tuple[str, ...]]


def _foreign_search(ctx: Ctx, seat: int, kind: str) -> Search | None:
    """`Search` of a Conquest, Pillage or Conversion, worked out once for all Bases; None when
    no Base can have a Target (nothing to convert)."""
    if kind == "convert" and not _any_convertible(ctx, seat):
        return None
    left = ctx.seat(seat)["gold"] - base_cost(ctx, kind)
    return left, targets_part(ctx, seat, kind), seafaring(ctx.s)


def _iter_foreign_targets(
    ctx: Ctx, seat: int, kind: str, base: str, inner: int, search: Search
) -> Iterator[tuple[str, int, int]]:
    """Targets of a Conquest, Pillage or Conversion from a Base, lazily, in id order, each with
    its Seas and its `rated` ER."""
    left, known, sf = search
    if left < inner:
        return  # every Target costs at least this much (9.17): none is affordable
    side_a = _combat_side_a(ctx, seat, base)
    # `target_part` and `affordable`, inline: this is the hottest loop of the prompts
    areas, state = ctx.s["areas"], ctx.s
    # a Conversion's Targets: the own Areas `convertible` allows, found once
    mine = _convertible_areas(ctx, seat) if kind == "convert" else frozenset()
    for target, leg in _sorted_legs(base, sf):
        seas = inner + leg
        if seas > 2 or left < seas:
            continue
        here = areas[target]
        if kind == "convert":
            if target not in mine:
                continue
        elif here[OWNER] == seat or (kind == "pillage" and here[SS] <= -3):
            continue
        part = known.get(target)
        if part is None:
            part = known[target] = er.side_b(ctx, seat, kind, target)
        value = side_a - part
        if (halve(state, value) if seas == 2 else value) + left - seas >= 0:
            yield target, seas, value


def foreign_targets(ctx: Ctx, seat: int, kind: str, base: str) -> list[str]:
    """Targets of a Conquest, Pillage or Conversion from a Base (9.16, 11.0, 22.2)."""
    inner = court_costs(ctx.s, seat).get(base)
    search = None if inner is None else _foreign_search(ctx, seat, kind)
    if inner is None or search is None:
        return []
    return [t for t, _, _ in _iter_foreign_targets(ctx, seat, kind, base, inner, search)]


def foreign_rated(ctx: Ctx, seat: int, kind: str, base: str) -> list[tuple[str, int]]:
    """`foreign_targets` with the ER each shows: `rated`, halved across two Seas (9.32)."""
    inner = court_costs(ctx.s, seat).get(base)
    search = None if inner is None else _foreign_search(ctx, seat, kind)
    if inner is None or search is None:
        return []
    return [
        (t, halve(ctx.s, value) if seas == 2 else value)
        for t, seas, value in _iter_foreign_targets(ctx, seat, kind, base, inner, search)
    ]


def _with_target(ctx: Ctx, seat: int, kind: str, first: bool) -> list[str]:
    """The connected own Areas from which some Target is in reach; only the first if `first`."""
    search = _foreign_search(ctx, seat, kind)
    if search is None:
        return []
    found = []
    for base, inner in court_costs(ctx.s, seat).items():
        for _ in _iter_foreign_targets(ctx, seat, kind, base, inner, search):
            found.append(base)
            if first:
                return found
            break
    return found


def foreign_bases(ctx: Ctx, seat: int, kind: str) -> list[str]:
    """Connected own Areas from which some Target is in reach (9.14, 9.15)."""
    if ctx.seat(seat)["exile"]:
        return []
    return _with_target(ctx, seat, kind, first=False)


def _iter_domestic_targets(ctx: Ctx, seat: int, kind: str) -> Iterator[tuple[str, int, int]]:
    """Connected own Areas for Ruling or Fortification, lazily, in id order, each with its Seas
    and its `rated` ER."""
    costs = court_costs(ctx.s, seat)
    if not costs:
        return
    side_a, known = er.side_a(ctx, seat, kind, None), targets_part(ctx, seat, kind)
    left = ctx.seat(seat)["gold"] - base_cost(ctx, kind)
    for target, seas in costs.items():
        if left >= seas:
            value = side_a - target_part(ctx, seat, kind, target, known)
            if affordable(ctx.s, value, seas, left):
                yield target, seas, value


def domestic_targets(ctx: Ctx, seat: int, kind: str) -> list[str]:
    """Connected own Areas for Ruling or Fortification (9.14, 9.15)."""
    return [t for t, _, _ in _iter_domestic_targets(ctx, seat, kind)]


def domestic_rated(ctx: Ctx, seat: int, kind: str) -> list[tuple[str, int]]:
    """`domestic_targets` with the ER each shows: `rated`, halved across two Seas (9.32)."""
    return [
        (t, halve(ctx.s, value) if seas == 2 else value)
        for t, seas, value in _iter_domestic_targets(ctx, seat, kind)
    ]


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
    known = targets_part(ctx, seat, "diplomacy")
    # affordable (9.17, 9.18) inline, as above (no Seas): the gold left raises the ER
    reach = side_a + ctx.seat(seat)["gold"] - base_cost(ctx, "diplomacy")
    for t in ids:
        if t in courts:
            continue
        part = known.get(t)
        if part is None:
            part = known[t] = er.side_b(ctx, seat, "diplomacy", t)
        if reach - part >= 0:
            yield t


def diplomacy_targets(ctx: Ctx, seat: int) -> list[str]:
    """Any Area but a Court, at any distance (12.12, 12.16, A-17)."""
    return list(_iter_diplomacy_targets(ctx, seat))


def any_endeavor(ctx: Ctx, seat: int, kind: str) -> bool:
    """Is there at least one legal Endeavor of this kind now? (Stops at the first one found.)"""
    if kind == "diplomacy":
        return next(_iter_diplomacy_targets(ctx, seat), None) is not None
    me = ctx.seat(seat)
    if me["exile"] or me["gold"] < base_cost(ctx, kind):
        return False  # exiled, or 9.17: not even the cost without Seas can be paid
    if kind in COMBAT:
        return bool(_with_target(ctx, seat, kind, first=True))
    return next(_iter_domestic_targets(ctx, seat, kind), None) is not None


def domestic_seas(ctx: Ctx, seat: int, target: str) -> int:
    """Seas between the Court and a Domestic Target (9.32)."""
    return int(court_costs(ctx.s, seat).get(target, 0))
