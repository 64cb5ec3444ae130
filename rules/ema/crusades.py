"""The Crusades (23.0 Procedure, 23.3x; optional with the Schism, option `schism_crusades`).

A Crusade needs a Round of the 1001-1276 Game-Turns, the Churches in Schism and Syria and
Jerusalem held by a Magnate based in Syria (so the Magnates of 24.0 must be in play too). The
Byzantine Player may call one outright, or a Roman Catholic Player a Crusade Parley. In the
Crusader Phase every Roman Catholic Player takes part (A-45): in order of Combat Stature each
plays one Year Card per pass, a Conquest of the next Area the route needs, until Syria and
Jerusalem have fallen or the Crusaders' cards are spent. The state keeps `crusade` (this
Round's Crusade, or None) and `crusade_gt` (the Game-Turn of the last one, 23.31).
"""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import Option
from rules.ema import cards, handlers, leaders, magnates, nonplayer, parley, raiders, schism
from rules.ema.handlers import option
from rules.ema.state import OWNER, REL, SS, Ctx, Frame, change_ss, in_play

GOALS = ("syria", "jerusalem")
CHRISTIAN = ("RC", "EO")


def _rc_players(ctx: Ctx) -> list[int]:
    """Roman Catholic Leaders, not excommunicated and not in exile: the Crusaders (A-45)."""
    return [
        i
        for i in in_play(ctx.s)
        if ctx.seat(i)["rel"] == "RC" and not ctx.seat(i)["excom"] and ctx.seat(i)["court"]
    ]


def possible(ctx: Ctx) -> bool:
    """23.0 GR: the 1001-1276 Game-Turns, Schism, Syria and Jerusalem a Syrian Magnate's, none yet
    this Game-Turn, and some Roman Catholic Player to go."""
    s = ctx.s
    gt = raiders.game_turn_of(s["year"])
    if not schism.active(ctx) or not 1001 <= gt <= 1276 or s.get("schism") != "schism":
        return False
    if s.get("crusade_gt") == gt or not _rc_players(ctx):
        return False
    return _goals_held_by_infidels(ctx)


def _goals_held_by_infidels(ctx: Ctx) -> bool:
    """23.0 GR condition 3: Syria and Jerusalem held by a Magnate based in Syria (24.7).

    Authored, without the Magnates (24.0 off, where no Magnate can exist): the condition reads
    as the one the Syrian Magnate stands for, Syria and Jerusalem both Independent (no Player's,
    no Crusader State) and neither Christian."""
    s = ctx.s
    held = s.get("npc_areas", {})
    if not raiders.active(ctx):
        return all(
            ctx.area(a)[OWNER] is None and a not in held and ctx.area(a)[REL] not in CHRISTIAN
            for a in GOALS
        )
    court = next((m["key"] for m in s.get("magnates", []) if m["court"] == "syria"), None)
    return court is not None and all(held.get(a) == court for a in GOALS)


def phase(ctx: Ctx) -> None:
    """The Crusade Determination Phase (6.0 III.2)."""
    if not schism.active(ctx):
        return
    ctx.s["crusade"] = None
    if possible(ctx):
        byz = schism.byzantine(ctx)
        queue = ([byz] if byz is not None and byz in in_play(ctx.s) else []) + _rc_players(ctx)
        ctx.push({"kind": "crusade_call", "seat": queue[0], "queue": queue})


def _call_options(ctx: Ctx, frame: Frame) -> list[Option]:
    if ctx.seat(frame["seat"])["empire"] == "BYZ":
        return [
            option({"call": False}, "No Crusade"),
            option({"call": True}, "Call a Crusade (no Parley needed)"),
        ]
    return [
        option({"call": False}, "No Crusade Parley"),
        option({"call": True}, "Call a Crusade Parley"),
    ]


def _call_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    seat = frame["seat"]
    if not action["call"]:
        frame["queue"] = frame["queue"][1:]
        if frame["queue"]:
            frame["seat"] = frame["queue"][0]
        else:
            ctx.pop()
        return
    ctx.pop()
    if ctx.seat(seat)["empire"] == "BYZ":
        ctx.log("EMA-23.0.GR-Crusade", f"{ctx.name(seat)} calls a Crusade.")
        begin(ctx, None)
    else:
        parley.call(ctx, "crusade", seat, None, [])


handlers.decision(
    "crusade_call",
    "EMA-SOP-III.2",
    lambda ctx, f: "A Crusade may be called this Round: call one?",
    _call_options,
    _call_choose,
)


def _tallied(ctx: Ctx, frame: dict[str, Any], won: bool) -> None:
    """A-45: a simple majority of the votes cast; a tie fails."""
    if won:
        begin(ctx, frame["caller"])


def leader_of(ctx: Ctx, caller: int | None) -> int:
    """The Parley's caller, or the RC Player of highest Combat, then total Stature (23.0 P-Cru1)."""
    if caller is not None:
        return caller
    return min(_rc_players(ctx), key=lambda i: (-ctx.seat(i)["st"]["c"], -leaders.total(ctx, i), i))


def begin(ctx: Ctx, caller: int | None) -> None:
    """The Crusade is on for this Round: its Leader, its Crusaders and their order (23.0 P-Cru1, P-Cru2)."""
    crusaders = _rc_players(ctx)
    flips = {i: rng.die(ctx.s) for i in crusaders}  # the coin flip for equal Combat
    order = sorted(crusaders, key=lambda i: (-ctx.seat(i)["st"]["c"], -flips[i], i))
    lead = leader_of(ctx, caller)
    ctx.s["crusade"] = {"leader": lead, "order": order, "out": [], "passage": [], "passed": []}
    ctx.s["crusade_gt"] = raiders.game_turn_of(ctx.s["year"])
    ctx.log("EMA-23.0.P-Cru1", f"The Crusade is called, led by {ctx.name(lead)}; in order: "
            f"{', '.join(ctx.name(i) for i in order)} (EMA-23.0.P-Cru2).")  # fmt: skip
    choices = routes(ctx)
    if len(choices) > 1:
        ctx.push({"kind": "crusade_route", "seat": lead, "routes": choices})
    elif choices:
        ctx.s["crusade"]["route"] = choices[0]


def friendly(ctx: Ctx, aid: str) -> bool:
    """Areas a Crusade may use as Bases and pass freely (23.0 P-Cru3, 23.32, A-61): the
    Crusaders', Independent RC Areas, Crusader States and Byzantine Areas granted passage."""
    here, crusade = ctx.area(aid), ctx.s["crusade"]
    if here[OWNER] is not None:
        return here[OWNER] in crusade["order"] or aid in crusade["passage"]
    held = ctx.s.get("npc_areas", {}).get(aid)
    return held == "crusade" or (held is None and here[REL] == "RC")


def route(ctx: Ctx, launch: list[str] | None = None) -> list[str] | None:
    """The way to Syria the Leader chose, or else the best from a friendly Area (23.0 P-Cru3)."""
    chosen = (ctx.s.get("crusade") or {}).get("route")
    if launch is None and chosen:
        return list(chosen)
    return _best_path(ctx, launch)


def _best_path(ctx: Ctx, launch: list[str] | None) -> list[str] | None:
    """From the launch Areas (all friendly ones by default) to Syria by the fewest Areas to
    conquer, then the fewest steps, overland or across one Sea a step (23.0 P-Cru3, P-Cru4)."""
    d = ctx.d
    start = (
        launch if launch is not None else [a for a in sorted(ctx.s["areas"]) if friendly(ctx, a)]
    )
    best: dict[str, tuple[int, int]] = {a: (0, 0) for a in start}
    prev: dict[str, str | None] = {a: None for a in start}
    frontier = list(start)
    while frontier:
        frontier.sort(key=lambda a: (best[a], a))
        a = frontier.pop(0)
        near = list(d.land_adj[a]) + [b for s in d.area_seas[a] for b in d.sea_lands[s]]
        for b in sorted(set(near)):
            cost = (best[a][0] + (0 if friendly(ctx, b) else 1), best[a][1] + 1)
            if b not in best or cost < best[b]:
                best[b], prev[b] = cost, a
                frontier.append(b)
    if "syria" not in best:
        return None
    path: list[str] = []
    at: str | None = "syria"
    while at is not None:
        path.append(at)
        at = prev[at]
    return list(reversed(path))


ROUTES = 6  # the routes offered to the Crusade Leader


def routes(ctx: Ctx) -> list[list[str]]:
    """The Leader's choices: the best way from each friendly Area, best first, one per way of
    going (the Areas to conquer and where the Crusade sets out), at most six (23.0 P-Cru3)."""
    found: dict[tuple[str, ...], list[str]] = {}
    for aid in sorted(ctx.s["areas"]):
        if friendly(ctx, aid):
            path = _best_path(ctx, [aid])
            if path is not None:
                key = (path[0], *(a for a in path if not friendly(ctx, a)))
                if key not in found or len(path) < len(found[key]):
                    found[key] = path

    def cost(path: list[str]) -> tuple[int, int, list[str]]:
        return (sum(1 for a in path if not friendly(ctx, a)), len(path), path)

    return sorted(found.values(), key=cost)[:ROUTES]


def _route_options(ctx: Ctx, frame: Frame) -> list[Option]:
    return [
        option({"route": i}, "From " + " → ".join(ctx.aname(a) for a in path))
        for i, path in enumerate(frame["routes"])
    ]


def _route_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    path = frame["routes"][action["route"]]
    ctx.s["crusade"]["route"] = list(path)
    ctx.log("EMA-23.0.P-Cru3", f"{ctx.name(frame['seat'])} leads the Crusade by "
            f"{' → '.join(ctx.aname(a) for a in path)}.")  # fmt: skip


handlers.decision(
    "crusade_route",
    "EMA-23.0.P-Cru3",
    lambda ctx, f: "You lead the Crusade: choose its route to Syria",
    _route_options,
    _route_choose,
)


def objective(ctx: Ctx) -> tuple[str, str] | None:
    """The next Conquest: the first Area on the route not friendly, with the Area before it as
    Base; Jerusalem once Syria has fallen (23.0 P-Cru4, P-Cru5)."""
    path = route(ctx)
    if path is None or (path and not friendly(ctx, path[0])):
        path = _best_path(ctx, None)  # the chosen way was cut behind the Crusade: the best left
    if path is None:
        return None
    if friendly(ctx, "syria"):
        return ("syria", "jerusalem") if not friendly(ctx, "jerusalem") else None
    for before, here in zip(path, path[1:], strict=False):
        if not friendly(ctx, here):
            return before, here
    return None


def crusader_phase(ctx: Ctx) -> None:
    """The Crusader Phase (6.0 III.5), pushed at the Round's start below the Crusade call, the
    Raiders and the Magnates whenever a Crusade may be called: its step runs after them and
    finds whether one was (a Round where none may be called gets no frame)."""
    if schism.active(ctx) and possible(ctx):
        ctx.push({"kind": "crusade", "i": 0, "pending": None})


def _done(ctx: Ctx) -> bool:
    return all(ctx.s.get("npc_areas", {}).get(a) == "crusade" for a in GOALS)


@handlers.step("crusade")
def _crusade(ctx: Ctx, frame: Frame) -> None:
    """One Crusader's card a step: Conquest of the objective, asking passage of the Byzantine
    first (23.0 P-Cru2, P-Cru4, 23.31)."""
    crusade = ctx.s.get("crusade")
    if crusade is None:  # no Crusade was called this Round
        ctx.pop()
        return
    if _done(ctx) or len(crusade["out"]) >= len(crusade["order"]):
        ctx.pop()
        _end(ctx)
        return
    seat = crusade["order"][frame["i"] % len(crusade["order"])]
    if frame["pending"] is not None:
        _play(ctx, frame, seat)
        return
    me = ctx.seat(seat)
    cost = ctx.d.tables["costs"]["conquest"]
    aim = objective(ctx)
    if seat in crusade["out"] or not me["years"] or me["gold"] < cost or aim is None:
        if seat not in crusade["out"]:
            crusade["out"].append(seat)
        frame["i"] += 1
        return
    base, target = aim
    owner = ctx.area(target)[OWNER]
    byz = schism.byzantine(ctx)
    if (
        owner is not None
        and owner == byz
        and target not in crusade["passage"] + crusade.get("refused", [])
    ):
        ctx.push({"kind": "crusade_passage", "seat": byz, "area": target})
        return
    who = _actor(ctx, seat, base)
    cut = magnates.defend(ctx, {"kind": "conquest", "target": target})  # 24.53
    nonplayer.offer_defense(ctx, frame, who, "conquest", target)
    attack: dict[str, Any] = frame.get("pending") or {}
    attack.update(base=base, cut=cut)


def _actor(ctx: Ctx, seat: int, base: str) -> dict[str, Any]:
    me = ctx.seat(seat)
    return {
        "name": f"{ctx.name(seat)} (Crusader)", "key": "crusade", "stature": me["st"]["c"],
        "base": base, "base_ss": int(ctx.area(base)[SS]), "lang": me["lang"], "rel": me["rel"],
        "mods": True,
    }  # fmt: skip


def _play(ctx: Ctx, frame: Frame, seat: int) -> None:
    """Pay, turn up the Crusader's card and apply it; C results pool across Crusaders (A-45)."""
    pending, frame["pending"] = frame["pending"], None
    me = ctx.seat(seat)
    me["gold"] -= ctx.d.tables["costs"]["conquest"]
    card = cards.turn_up(
        ctx, seat, {"use": "endeavor", "endeavor": "conquest", "target": pending["target"]}
    )
    before = ctx.s.get("npc_areas", {}).get(pending["target"])
    nonplayer.resolve(
        ctx, _actor(ctx, seat, pending["base"]), pending, int(card["number"]), "EMA-23.0.P-Cru4"
    )
    if ctx.s.get("npc_areas", {}).get(pending["target"]) == "crusade" and before != "crusade":
        ctx.log(
            "EMA-23.32", f"{ctx.aname(pending['target'])} becomes an Independent Crusader State."
        )
        _passed(ctx)
    if leaders.card_calls_check(card, me["st"]["c"]):
        leaders.stature_check(ctx, seat, "EMA-8.2")
    frame["i"] += 1


def _passed(ctx: Ctx) -> None:
    """23.33: each Area the Crusade has passed through that is neither RC nor RC-held loses 1 SS, once."""
    path = route(ctx) or []
    crusade = ctx.s["crusade"]
    for aid in path:
        here = ctx.area(aid)
        rc_held = here[OWNER] is not None and ctx.seat(here[OWNER])["rel"] == "RC"
        if not friendly(ctx, aid) or aid in crusade["passed"] or here[REL] == "RC" or rc_held:
            continue
        crusade["passed"].append(aid)
        if change_ss(ctx, aid, -1):
            ctx.log("EMA-23.33", f"The Crusade passes through {ctx.aname(aid)}: SS −1.")


def _end(ctx: Ctx) -> None:
    """23.31: success when Syria and Jerusalem have fallen; otherwise a failure. One Round at most."""
    if _done(ctx):
        ctx.log("EMA-23.31", "Syria and Jerusalem have fallen: the Crusade ends in victory "
                "(EMA-23.0.P-Cru5).")  # fmt: skip
    else:
        ctx.log("EMA-23.31", "The Crusaders' cards are spent: the Crusade has failed.")
    ctx.s["crusade"] = None
    ctx.log("EMA-23.0.P-Cru6", "The Round goes on: initiative, then every Player-Turn.")


def _passage_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    crusade = ctx.s["crusade"]
    if action["grant"]:
        crusade["passage"].append(frame["area"])
    else:
        crusade.setdefault("refused", []).append(frame["area"])
    ctx.log("EMA-23.0.P-Cru4", f"{ctx.name(frame['seat'])} "
            f"{'grants' if action['grant'] else 'refuses'} the Crusade passage through "
            f"{ctx.aname(frame['area'])}.")  # fmt: skip


handlers.decision(
    "crusade_passage",
    "EMA-23.0.P-Cru4",
    lambda ctx, f: f"The Crusade asks passage through {ctx.aname(f['area'])}",
    lambda ctx, f: [
        option({"grant": True}, "Grant passage"),
        option({"grant": False}, "Refuse: they must conquer it"),
    ],
    _passage_choose,
)

parley.TITLES["crusade"] = "Crusade Parley"
parley.RULES["crusade"] = "EMA-23.0.GR-Crusade"
parley.EXTRA["crusade"] = _tallied
handlers.ROUND_PHASES[2] = phase  # 6.0 III.2
handlers.ROUND_PHASES[5] = crusader_phase  # 6.0 III.5
