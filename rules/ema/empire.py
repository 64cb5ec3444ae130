"""The nature of Empire (7.5): connection to the Court through friendly Areas and Seas."""

from __future__ import annotations

from functools import lru_cache

from rules.core.engine import State
from rules.ema.mapindex import index
from rules.ema.state import data, seafaring

MAX_SEAS = 2


def _leg_step(run: int, from_sf: bool) -> int | None:
    """Extra cost of the next Sea in a leg of `run` Seas so far (9.51, 9.54), None if illegal."""
    if from_sf:
        return None if run >= 3 else (0 if run == 0 else 1)
    return None if run >= 2 else 1


@lru_cache(maxsize=8192)
def _court_costs(own: tuple[str, ...], court: str, sf: tuple[str, ...]) -> dict[str, int]:
    """Cheapest effective Sea count from the Court to each connected own Area (7.51, A-11).

    Every step costs 0 or 1 and no chain more than MAX_SEAS, so the search takes its places
    cost by cost from one list per cost (a shortest-path search without a heap).
    """
    d = data()
    mine = set(own)
    best: dict[str, int] = {}
    if court not in mine:
        return best
    # a place: (node, Seas in the current leg, whether that leg set out from a seafaring Area)
    todo: list[list[tuple[str, int, bool]]] = [[(court, 0, False)]] + [[] for _ in range(MAX_SEAS)]
    seen: set[tuple[str, int, bool]] = set()
    for cost, places in enumerate(todo):
        while places:
            place = places.pop()
            if place in seen:
                continue
            seen.add(place)
            node, run, from_sf = place
            if node in mine:
                if node in best:
                    continue
                best[node] = cost
                places.extend(
                    (n, 0, False) for n in d.land_adj[node] if n in mine and n not in best
                )
                extra = _leg_step(0, node in sf)
                if extra is not None and cost + extra <= MAX_SEAS:
                    todo[cost + extra].extend((sea, 1, node in sf) for sea in d.area_seas[node])
                continue
            places.extend((n, 0, False) for n in d.sea_lands[node] if n in mine and n not in best)
            extra = _leg_step(run, from_sf)
            if extra is not None and cost + extra <= MAX_SEAS:
                todo[cost + extra].extend((nxt, run + 1, from_sf) for nxt in d.sea_adj[node])
    return {a: best[a] for a in sorted(best)}  # in id order, so searches need not sort it


@lru_cache(maxsize=4096)
def leg_targets(base: str, sf: tuple[str, ...]) -> dict[str, int]:
    """Land Areas reachable from a Base overland (0) or by a chain of Seas, with their cost (9.16)."""
    d = data()
    out: dict[str, int] = {n: 0 for n in d.land_adj[base]}
    from_sf = base in sf
    frontier = [(s, 1, 0 if from_sf else 1) for s in d.area_seas[base]]
    seen: dict[str, int] = {}
    while frontier:
        sea, run, cost = frontier.pop()
        if seen.get(sea, 99) <= cost:
            continue
        seen[sea] = cost
        for land in d.sea_lands[sea]:
            if land != base and out.get(land, 99) > cost:
                out[land] = cost
        extra = _leg_step(run, from_sf)
        if extra is not None and cost + extra <= MAX_SEAS:
            frontier.extend((n, run + 1, cost + extra) for n in d.sea_adj[sea])
    return out


def court_costs(state: State, seat: int) -> dict[str, int]:
    """Connected own Areas of a seat, in id order, with the Sea cost from its Court; empty
    without a Court (shared: the caller must not change it). Kept beside the map's index until
    the seat's Areas, its Court or the seafaring Areas change."""
    court = state["seats"][seat]["court"]
    if court is None:
        return {}
    sf = seafaring(state)
    found = index(state)
    mine = found.owned.get(seat)
    kept = found.courts.get(seat)
    if kept is not None and kept[0] is mine and kept[1] == court and kept[2] is sf:
        return kept[3]
    costs = _court_costs(tuple(mine) if mine else (), court, sf)
    found.courts[seat] = (mine, court, sf, costs)
    return costs


def connected(state: State, seat: int, aid: str) -> bool:
    """Is the Area in the seat's Empire and connected to its Court (7.51)?"""
    return aid in court_costs(state, seat)


def foreign_cost(state: State, seat: int, base: str, target: str) -> int | None:
    """Sea cost of the chain Court → Base → Target, None when out of reach (9.16, 9.5)."""
    inner = court_costs(state, seat).get(base)
    leg = leg_targets(base, seafaring(state)).get(target)
    if inner is None or leg is None or inner + leg > MAX_SEAS:
        return None
    return inner + leg


def halve_up(value: int) -> int:
    """Halve, rounding fractions up (9.32)."""
    return -((-value) // 2)


def halve(state: State, value: int) -> int:
    """Overseas halving (9.32): rounded up; a negative ER is never rounded up to 0, or ×1.5 by option (A-12)."""
    if value < 0 and state["options"].get("negative_halving") == "times_one_and_half":
        return -((3 * -value + 1) // 2)  # ×1.5, fractions rounded away from zero
    if value < 0:
        return (
            value // 2
        )  # rounding "up" must not make a failing ER better: −1 stays −1, −3 → −2
    return halve_up(value)
