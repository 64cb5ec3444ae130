"""The Grand Scenario (32.0): 771 to 1470, from Charlemagne's Empire to its successor kingdoms.

The game opens as the two-player Charlemagne scenario (27.0 in full, Longevity included, A-58),
played by the first two Players, until the end of the Round in which the Frankish Player makes his
second Stature Check. Then the Frankish Empire is split into three kingdoms (32.0 Steps 1-4), every
Player rolls for a kingdom number (Step 5), and those who draw 5 and 6 wait for an Independent
group of their own to appear (Step 6). The state keeps `grand`: the phase (`prelude` or
`kingdoms`), each Player's number and the Players still waiting.
"""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import State
from rules.ema import handlers, leaders, setup
from rules.ema.state import (
    CHRISTIAN,
    CLAIMS,
    CONV,
    LANG,
    OWNER,
    PARTIAL,
    REL,
    SS,
    TIES,
    UNREST,
    Ctx,
    has,
    mask_of,
    owned,
    seats_in,
)
from rules.ema.territory import refresh_connections

SLUG = "32-grand"
TITLE = "The Grand Scenario"
ROUNDS = 140  # 32.1, A-58: 771 to 1470
KINGDOM_GOLD = 10  # 32.0 Step 3, Step 6
BYZANTINE = 4
LATE = (5, 6)


def config_errors(config: dict[str, Any]) -> list[str]:
    """The Grand Scenario's own checks: no choice of Empires (32.0 Step 5 deals them by die)."""
    if "empires" in config:
        return [
            "The Grand Scenario gives out its kingdoms by die roll (32.0): empires cannot be chosen."
        ]
    return []


def new_state(seed: int, players: int, options: dict[str, Any]) -> State:
    """Set up the prelude: scenario 27 for its two Players, the others waiting, the Grand
    Scenario's length and no handicaps (32.0, 32.1, 32.2, A-58)."""
    state = setup.new_state(seed, SLUG, "27", 2, options, ["FRA", "BYZ"])
    state["players"] = players
    state["rounds"] = options.get("rounds") or ROUNDS
    state["grand"] = {"phase": "prelude", "numbers": {}, "waiting": list(range(2, players))}
    ctx = Ctx(state)
    for me in state["seats"]:
        me["handicap"] = 0
    for seat in range(2, players):
        me = _seat(ctx, 0, None, state["seats"][0])
        me.update(empire="WAIT", empire_name=f"Player {seat + 1} (waiting for the division)")
        state["seats"].append(me)
    return state


def is_grand(state: State) -> bool:
    """Is this game the Grand Scenario?"""
    return "grand" in state


def waiting(state: State, seat: int) -> bool:
    """A Player who drew 5 or 6 and has no kingdom yet takes no part in the Rounds (32.0 Step 6)."""
    return bool(state["seats"][seat].get("waiting"))


def _christian_groups(ctx: Ctx, areas: list[str], min_size: int) -> list[list[str]]:
    """Overland-connected groups of RC or EO Areas of one Language among `areas` (32.0 Step 1)."""
    pool = {a for a in areas if ctx.area(a)[REL] in CHRISTIAN}
    seen: set[str] = set()
    groups = []
    for start in sorted(pool):
        if start in seen:
            continue
        lang = ctx.area(start)[LANG]
        group, todo = {start}, [start]
        while todo:
            for b in ctx.d.land_adj[todo.pop()]:
                if b in pool and b not in group and ctx.area(b)[LANG] == lang:
                    group.add(b)
                    todo.append(b)
        seen |= group
        if len(group) >= min_size:
            groups.append(sorted(group))
    return sorted(groups, key=lambda g: (-len(g), -sum(ctx.area(a)[SS] for a in g), g[0]))


def cores(ctx: Ctx, areas: list[str]) -> list[list[str]]:
    """Up to three groups of three (else two) Areas, each of a Language of its own (32.0 Steps 1-2).

    The book lets the Frankish Player choose among more than three; the engine takes the
    largest, then the richest in SS (authored, README).
    """
    picked: list[list[str]] = []
    langs: set[str] = set()
    for size in (3, 2):
        for group in _christian_groups(ctx, areas, size):
            lang = ctx.area(group[0])[LANG]
            if (
                len(picked) < 3
                and lang not in langs
                and not set(group) & {a for g in picked for a in g}
            ):
                picked.append(group)
                langs.add(lang)
    return picked


def _distances(ctx: Ctx, sources: list[str], inside: set[str] | None) -> dict[str, int]:
    """Steps from the sources overland (within `inside` if given), then across one Sea per step."""
    dist = {a: 0 for a in sources}
    frontier = list(sources)
    while frontier:
        nxt = []
        for a in frontier:
            near = list(ctx.d.land_adj[a])
            if inside is None:
                near += [b for s in ctx.d.area_seas[a] for b in ctx.d.sea_lands[s]]
            for b in near:
                if b not in dist and (inside is None or b in inside):
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    return dist


def partition(ctx: Ctx, areas: list[str]) -> list[dict[str, Any]]:
    """The three kingdoms: each core with its Court, and every other Area to the nearest core,
    overland through the Empire if it can, else by the shortest way (32.0 Step 1)."""
    found = cores(ctx, areas)
    if not found:
        found = [sorted(areas)]
    members = [list(group) for group in found]
    taken = {a for group in members for a in group}
    land = [_distances(ctx, group, set(areas)) for group in members]
    sea = [_distances(ctx, group, None) for group in members]
    for aid in sorted(set(areas) - taken):
        by_land = [(d.get(aid, 999), i) for i, d in enumerate(land)]
        by_sea = [(d.get(aid, 999), i) for i, d in enumerate(sea)]
        best = min(by_land) if min(by_land)[0] < 999 else min(by_sea)
        members[best[1]].append(aid)
    kingdoms: list[dict[str, Any]] = []
    for group, core in zip(members, found, strict=True):
        court = max(core, key=lambda a: (ctx.area(a)[SS], ctx.d.areas[a]["population"], a))
        kingdoms.append({"areas": sorted(group), "court": court})
    return kingdoms


def _statures(ctx: Ctx) -> dict[str, int]:
    """Three rolls on the column of Stature 3 (32.0 Step 4; Step 6 "Step 3", A-58)."""
    return {key: leaders.new_stature(ctx, 3, ctx.roll2()) for key in leaders.STATURES}


def _seat(ctx: Ctx, number: int, court: str | None, base: dict[str, Any]) -> dict[str, Any]:
    """A Player's seat for a new kingdom (or a waiting one), shaped like the set-up's (4.0)."""
    me = dict(base)
    me.update(
        empire=f"K{number}",
        empire_name=f"Kingdom of {ctx.aname(court)}" if court else f"Kingdom {number} (waiting)",
        leader=f"King {number}",
        st=_statures(ctx) if court else {"c": 3, "a": 3, "d": 3},
        court=court,
        orig_court=court,
        lang=ctx.area(court)[LANG] if court else "",
        rel=ctx.area(court)[REL] if court else "",
        gold=KINGDOM_GOLD if court else 0,
        hand=[], inplay=[], years=[], revealed=[], card_uses=[], waive=[],
        defenses=0, excom=False, exile=False, asylum=None, vp_conv=0, checks=0,
        taxed=False, endeavors=0, heirless_guard=False, handicap=0, waiting=court is None,
    )  # fmt: skip
    return me


def _numbers(ctx: Ctx) -> dict[int, int]:
    """Each Player rolls a die, again while the number is taken (32.0 Step 5): seat -> number."""
    taken: dict[int, int] = {}
    for seat in range(ctx.s["players"]):
        die = rng.die(ctx.s)
        while die in taken.values():
            die = rng.die(ctx.s)
        taken[seat] = die
    return taken


def divide(ctx: Ctx) -> None:
    """Steps 1-5: split the Frankish Empire, give out the numbers, rebuild the seats (32.0)."""
    s = ctx.s
    old = s["seats"]
    kingdoms = partition(ctx, owned(s, 0))
    for i, k in enumerate(kingdoms):
        names = ", ".join(ctx.aname(a) for a in k["areas"])
        ctx.log(
            "EMA-32.0.P1", f"Kingdom {i + 1}: {names}; Court {ctx.aname(k['court'])} (EMA-32.0.P2)."
        )
    numbers = _numbers(ctx)
    seat_of = {n: seat for seat, n in numbers.items()}
    new = []
    for seat in range(s["players"]):
        n = numbers[seat]
        if n == BYZANTINE:
            new.append(dict(old[1]))
        elif n <= len(kingdoms):
            new.append(_seat(ctx, n, kingdoms[n - 1]["court"], old[0]))
        else:
            new.append(_seat(ctx, n, None, old[0]))
        ctx.log("EMA-32.0.P5", f"Player {seat + 1} rolls number {n}: {new[-1]['empire_name']}.")
    area_to = {a: seat_of.get(i + 1) for i, k in enumerate(kingdoms) for a in k["areas"]}
    _remap(ctx, area_to, seat_of.get(BYZANTINE))
    s["event_discard"] += old[0]["hand"] + old[0]["inplay"]  # the Frankish cards leave play
    for i, me in enumerate(old):
        if i != 1:  # the Byzantine keeps his seat as it is; the others' Year Cards go back
            s["year_deck"] += me["years"] + me["revealed"]
    s["seats"] = new
    s["grand"] = {
        "phase": "kingdoms",
        "numbers": {str(k): v for k, v in numbers.items()},
        "waiting": sorted(seat for seat, n in numbers.items() if new[seat]["court"] is None),
        "kingdoms": [dict(k, number=i + 1) for i, k in enumerate(kingdoms)],
    }
    ctx.log("EMA-32.0.P3", "The Frankish Ties are removed and its treasury emptied; each kingdom "
            f"holds {KINGDOM_GOLD} gold and the Claims and forts of its Areas.")  # fmt: skip
    for seat, me in enumerate(new):
        if me["empire"].startswith("K") and me["court"]:
            st = me["st"]
            ctx.log("EMA-32.0.P4", f"{ctx.name(seat)}: Statures {st['c']}-{st['a']}-{st['d']}.")
    refresh_connections(ctx)


def _remap(ctx: Ctx, area_to: dict[str, int | None], byz: int | None) -> None:
    """Owners, Claims, Ties and partial results follow the new seats; Frankish Ties go (Step 3);
    an unassigned kingdom's Areas are Independent (A-58)."""

    def moved(old: int) -> int | None:
        return byz if old == 1 else None

    for aid, here in ctx.s["areas"].items():
        if here[OWNER] == 0:
            here[OWNER] = area_to.get(aid)
        elif here[OWNER] == 1:
            here[OWNER] = byz
        claims = [moved(c) for c in seats_in(here[CLAIMS]) if c != 0]
        if has(here[CLAIMS], 0) and here[OWNER] is not None and here[OWNER] != byz:
            claims.append(here[OWNER])  # the Frankish Claim passes with the Area
        here[CLAIMS] = mask_of(c for c in claims if c is not None)
        here[TIES] = mask_of(
            t for t in (moved(t) for t in seats_in(here[TIES]) if t != 0) if t is not None
        )
        here[PARTIAL] = [
            dict(p, seat=moved(p["seat"])) for p in here[PARTIAL] if moved(p["seat"]) is not None
        ]
        here[PARTIAL] = [p for p in here[PARTIAL] if p["seat"] != here[OWNER]]
        if here[CONV] is not None:
            here[CONV] = None if moved(here[CONV]["seat"]) is None else dict(here[CONV], seat=byz)
    ctx.s["agreements"] = []  # every agreement had the Frankish Player as a party, or no one left
    ctx.s["heresy"] = None
    ctx.s["order"] = []


def late_kingdoms(ctx: Ctx) -> None:
    """Step 6 (A-58): as soon as a group of two or more joined Independent RC or EO Areas of one
    Language exists, the waiting Player with 5, then 6, takes the largest (the engine chooses)."""
    grand = ctx.s.get("grand")
    if not grand or grand["phase"] != "kingdoms" or not grand["waiting"]:
        return
    free = [
        a for a, here in ctx.s["areas"].items()
        if here[OWNER] is None and a not in ctx.s.get("npc_areas", {})
    ]  # fmt: skip
    groups = _christian_groups(ctx, free, 2)
    numbers = {int(k): v for k, v in grand["numbers"].items()}
    for seat in sorted(grand["waiting"], key=lambda p: numbers[p]):
        if not groups:
            return
        group = groups.pop(0)
        court = max(group, key=lambda a: (ctx.area(a)[SS], ctx.d.areas[a]["population"], a))
        me = _seat(ctx, numbers[seat], court, ctx.seat(seat))
        ctx.s["seats"][seat] = me
        for aid in group:
            here = ctx.area(aid)
            here[OWNER], here[UNREST] = seat, False
        grand["waiting"] = [p for p in grand["waiting"] if p != seat]
        st = me["st"]
        ctx.log("EMA-32.0.P6", f"Player {seat + 1} founds the {me['empire_name']}: "
                f"{', '.join(ctx.aname(a) for a in group)}; Statures {st['c']}-{st['a']}-{st['d']}, "
                f"{KINGDOM_GOLD} gold.")  # fmt: skip
    refresh_connections(ctx)


def round_end(ctx: Ctx) -> None:
    """The prelude ends with the Round of the Frankish Player's second Stature Check (32.0)."""
    grand = ctx.s.get("grand")
    if not grand:
        return
    if grand["phase"] == "prelude" and ctx.s["seats"][0]["checks"] >= 2:
        ctx.log("EMA-32.0", "The Frankish Player has made his second Stature Check: the Empire "
                "divides.")  # fmt: skip
        divide(ctx)
    late_kingdoms(ctx)


handlers.ROUND_END.append(round_end)
handlers.AFTER_ACTION.append(late_kingdoms)
