"""The Grand Scenario (32.0): 771 to 1470, from Charlemagne's Empire to its successor kingdoms.

The game opens as the two-player Charlemagne scenario (27.0 in full, Longevity included, A-58),
played by the first two Players, until the end of the Round in which the Frankish Player makes his
second Stature Check. Then the Frankish Empire is split into three kingdoms (32.0 Steps 1-4), every
Player rolls for a kingdom number (Step 5), and those who draw 5 and 6 wait for an Independent
group of their own to appear (Step 6). The state keeps `grand`: the phase (`prelude` or
`kingdoms`), each Player's number and the Players still waiting.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rules.core import rng
from rules.core.engine import State
from rules.ema import handlers, leaders, setup
from rules.ema.handlers import option
from rules.ema.mapindex import forget, set_owner
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
    Frame,
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


def core_choices(ctx: Ctx, areas: list[str], taken: list[list[str]]) -> list[list[str]]:
    """The groups the Frankish Player may still take as a kingdom's core (32.0 Steps 1-2): joined
    groups of three or more RC or EO Areas of one Language, each kingdom of a Language of its
    own; groups of two only when fewer than three Languages have a group of three."""
    langs = {ctx.area(g[0])[LANG] for g in taken}
    used = {a for g in taken for a in g}
    big = _christian_groups(ctx, areas, 3)
    size = 3 if len({ctx.area(g[0])[LANG] for g in big}) >= 3 else 2
    return [
        g
        for g in _christian_groups(ctx, areas, size)
        if ctx.area(g[0])[LANG] not in langs and not set(g) & used
    ]


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


def frontier(ctx: Ctx, division: dict[str, Any]) -> list[tuple[str, int]]:
    """(Area, kingdom) pairs the Frankish Player may assign next: an Area of the Empire not yet
    given, joined overland to an Area of that kingdom (32.0 Step 1)."""
    owner = {a: i for i, k in enumerate(division["kingdoms"]) for a in k["areas"]}
    pairs = set()
    for aid in division["areas"]:
        if aid not in owner:
            for b in ctx.d.land_adj[aid]:
                if b in owner:
                    pairs.add((aid, owner[b]))
    return sorted(pairs)


def _by_sea(ctx: Ctx, division: dict[str, Any]) -> None:
    """The Areas no kingdom reaches overland through the Empire go to the nearest kingdom by
    land and sea steps, the lowest-numbered on a tie (32.0 Step 1)."""
    kingdoms = division["kingdoms"]
    given = {a for k in kingdoms for a in k["areas"]}
    dist = [_distances(ctx, k["areas"], None) for k in kingdoms]
    for aid in division["areas"]:
        if aid not in given:
            best = min(range(len(kingdoms)), key=lambda i: (dist[i].get(aid, 999), i))
            kingdoms[best]["areas"].append(aid)
            ctx.log("EMA-32.0.P1", f"{ctx.aname(aid)}, joined to no kingdom overland, goes to "
                    f"the nearest, Kingdom {best + 1}.")  # fmt: skip


def begin_division(ctx: Ctx) -> None:
    """The Frankish Player divides his Empire (32.0 Steps 1-2): the engine asks him for the cores,
    the Courts and each Area's kingdom, in the step below."""
    ctx.s["grand"]["division"] = {"areas": sorted(owned(ctx.s, 0)), "kingdoms": [], "done": False}
    ctx.push({"kind": "grand_division"})


@handlers.step("grand_division")
def _division(ctx: Ctx, frame: Frame) -> None:
    """32.0 Steps 1-2, one question at a time: the cores (up to three), each kingdom's Court in
    its core, then every other Area to a kingdom it joins overland; the rest by sea."""
    div = ctx.s["grand"]["division"]
    kingdoms = div["kingdoms"]
    if not div["done"]:
        choices = core_choices(ctx, div["areas"], [k["core"] for k in kingdoms])
        if len(kingdoms) < 3 and choices:
            ask = {"kind": "grand_core", "seat": 0, "choices": choices}
            ctx.only_or_ask(choices, partial(_add_core, ctx), ask)
            return
        div["done"] = True
        if not kingdoms:  # no Christian group at all: the Empire stays one kingdom (authored)
            kingdoms.append(
                {"core": list(div["areas"]), "areas": list(div["areas"]), "court": None}
            )
    for i, k in enumerate(kingdoms):
        if k["court"] is None:
            ctx.only_or_ask(
                k["core"], partial(_court, ctx, i), {"kind": "grand_court", "seat": 0, "kingdom": i}
            )
            return
    pairs = frontier(ctx, div)
    if pairs:
        if len({a for a, _ in pairs}) == len(pairs):  # each Area joins one kingdom only
            for aid, i in pairs:
                kingdoms[i]["areas"].append(aid)
            return
        ctx.push({"kind": "grand_assign", "seat": 0, "pairs": [list(p) for p in pairs]})
        return
    ctx.pop()
    _by_sea(ctx, div)
    del ctx.s["grand"]["division"]
    found(ctx, [{"areas": sorted(k["areas"]), "court": k["court"]} for k in kingdoms])


def _court(ctx: Ctx, i: int, aid: str) -> None:
    ctx.s["grand"]["division"]["kingdoms"][i]["court"] = aid


def _kingdom_label(ctx: Ctx, i: int) -> str:
    k = ctx.s["grand"]["division"]["kingdoms"][i]
    court = f", Court {ctx.aname(k['court'])}" if k["court"] else ""
    return f"Kingdom {i + 1} ({ctx.aname(k['core'][0])}…{court})"


def _add_core(ctx: Ctx, group: list[str]) -> None:
    ctx.s["grand"]["division"]["kingdoms"].append(
        {"core": list(group), "areas": list(group), "court": None}
    )


def _core_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    _add_core(ctx, frame["choices"][action["group"]])


def _group_label(ctx: Ctx, group: list[str]) -> str:
    lang = ctx.area(group[0])[LANG]
    named = ctx.d.languages.get(lang, {}).get("name", lang)
    return ", ".join(ctx.aname(a) for a in group) + f" ({named})"


def _court_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    _court(ctx, frame["kingdom"], action["court"])


def _assign_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    aid, i = frame["pairs"][action["pair"]]
    ctx.s["grand"]["division"]["kingdoms"][i]["areas"].append(aid)


handlers.decision(
    "grand_core",
    "EMA-32.0.P1",
    lambda ctx, f: (
        f"Divide the Frankish Empire: choose the core of Kingdom "
        f"{len(ctx.s['grand']['division']['kingdoms']) + 1} (a joined group of one Language)"
    ),
    lambda ctx, f: [option({"group": i}, _group_label(ctx, g)) for i, g in enumerate(f["choices"])],
    _core_choose,
)
handlers.decision(
    "grand_court",
    "EMA-32.0.P2",
    lambda ctx, f: f"Divide the Frankish Empire: name the Court of Kingdom {f['kingdom'] + 1}",
    lambda ctx, f: [
        option({"court": a}, f"Court in {ctx.aname(a)}")
        for a in ctx.s["grand"]["division"]["kingdoms"][f["kingdom"]]["core"]
    ],
    _court_choose,
)
handlers.decision(
    "grand_assign",
    "EMA-32.0.P1",
    lambda ctx, f: "Divide the Frankish Empire: give an Area to a kingdom it joins overland",
    lambda ctx, f: [
        option({"pair": n}, f"{ctx.aname(a)} to {_kingdom_label(ctx, i)}")
        for n, (a, i) in enumerate(f["pairs"])
    ],
    _assign_choose,
)


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


def found(ctx: Ctx, kingdoms: list[dict[str, Any]]) -> None:
    """Steps 3-5 once the Empire is divided: the numbers, the seats rebuilt (32.0)."""
    s = ctx.s
    old = s["seats"]
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
    kept = 1 if BYZANTINE in seat_of else None  # the Byzantine seat, if a Player drew it
    for i, me in enumerate(old):
        if i != kept:  # the others' cards leave play: Holding cards discarded, Year Cards back
            s["event_discard"] += me["hand"] + me["inplay"] if i < 2 else []
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
    late_kingdoms(ctx)


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
    forget(ctx.s)  # owners and Ties rewritten row by row: the map's index is rebuilt
    ctx.s["agreements"] = []  # every agreement had the Frankish Player as a party, or no one left
    ctx.s["heresy"] = None
    ctx.s["order"] = []


LATE_KINDS = ("grand_late", "grand_late_court")


def late_groups(ctx: Ctx) -> list[list[str]]:
    """Joined groups of two or more Independent RC or EO Areas of one Language, Magnates' and
    Vikings' Areas aside (32.0 Step 6), largest first."""
    held = ctx.s.get("npc_areas", {})
    free = [a for a, here in ctx.s["areas"].items() if here[OWNER] is None and a not in held]
    return _christian_groups(ctx, free, 2)


def late_kingdoms(ctx: Ctx) -> None:
    """Step 6 (A-58): as soon as a group of two or more joined Independent RC or EO Areas of one
    Language exists, the waiting Player with 5, then 6, is asked to take one (choosing among
    several) and to name its Court. Checked after every answered prompt and every Round."""
    grand = ctx.s.get("grand")
    if not grand or grand["phase"] != "kingdoms" or not grand["waiting"] or ctx.s["over"]:
        return
    if any(f["kind"] in LATE_KINDS for f in ctx.s["stack"]):
        return
    groups = late_groups(ctx)
    if not groups:
        return
    numbers = {int(k): v for k, v in grand["numbers"].items()}
    seat = min(grand["waiting"], key=lambda p: numbers[p])
    if len(groups) == 1:
        ctx.push({"kind": "grand_late_court", "seat": seat, "group": groups[0]})
    else:
        ctx.push({"kind": "grand_late", "seat": seat, "groups": groups[:PAGE]})


PAGE = 12  # the largest groups offered to a late kingdom's Player


def _late_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    group = frame["groups"][action["group"]]
    ctx.push({"kind": "grand_late_court", "seat": frame["seat"], "group": group})


def _late_court_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    seat, group, court = frame["seat"], frame["group"], action["court"]
    grand = ctx.s["grand"]
    number = int(grand["numbers"][str(seat)])
    waiting = ctx.seat(seat)
    me = _seat(ctx, number, court, waiting)
    # The cards a waiting Player already holds this Game-Turn stay his: rebuilding the seat
    # must not drop them (the Year Cards and Holding cards are conserved, EMA 32.0 Step 6).
    for key in ("years", "revealed", "hand", "inplay"):
        me[key] = list(waiting[key])
    ctx.s["seats"][seat] = me
    for aid in group:
        set_owner(ctx.s, aid, seat)
        ctx.area(aid)[UNREST] = False
    grand["waiting"] = [p for p in grand["waiting"] if p != seat]
    st = me["st"]
    ctx.log("EMA-32.0.P6", f"Player {seat + 1} founds the {me['empire_name']}: "
            f"{', '.join(ctx.aname(a) for a in group)}; Statures {st['c']}-{st['a']}-{st['d']}, "
            f"{KINGDOM_GOLD} gold.")  # fmt: skip
    refresh_connections(ctx)
    late_kingdoms(ctx)  # the Player with 6 may take the next group at once


handlers.decision(
    "grand_late",
    "EMA-32.0.P6",
    lambda ctx, f: "Found your kingdom: choose a group of Independent Areas",
    lambda ctx, f: [option({"group": i}, _group_label(ctx, g)) for i, g in enumerate(f["groups"])],
    _late_choose,
)
handlers.decision(
    "grand_late_court",
    "EMA-32.0.P6",
    lambda ctx, f: "Found your kingdom: name its Court",
    lambda ctx, f: [option({"court": a}, f"Court in {ctx.aname(a)}") for a in f["group"]],
    _late_court_choose,
)


def round_end(ctx: Ctx) -> None:
    """The prelude ends with the Round of the Frankish Player's second Stature Check (32.0). The
    game's last Round asks nothing more (the game ends with it)."""
    grand = ctx.s.get("grand")
    if not grand or ctx.s["round"] >= ctx.s["rounds"]:
        return
    if grand["phase"] == "prelude" and "division" not in grand and ctx.seat(0)["checks"] >= 2:
        ctx.log("EMA-32.0", "The Frankish Player has made his second Stature Check: the Empire "
                "divides.")  # fmt: skip
        begin_division(ctx)
        return
    late_kingdoms(ctx)


handlers.ROUND_END.append(round_end)
handlers.AFTER_ACTION.append(late_kingdoms)
