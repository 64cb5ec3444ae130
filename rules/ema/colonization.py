"""Colonization (25.0, optional): Bases build points each Round until an Area takes their Language.

The state keeps `colonies`, one entry per colonization under way: the seat, the colonized Area,
its Bases, the running total and the Round it began. A seat's completed colonizations are
counted in `vp_colony` (5 VP each, 25.3), kept whatever happens to the Area afterwards.
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.ema import handlers
from rules.ema.handlers import option
from rules.ema.state import LANG, OWNER, SS, UNREST, Ctx, Frame, owned

MAX_COLONIES = 2  # 25.15
VP = 5  # 25.3


def active(ctx: Ctx) -> bool:
    """Is the optional rule in use in this game?"""
    return bool(ctx.s["options"].get("colonization"))


def colonies(ctx: Ctx) -> list[dict[str, Any]]:
    """The colonizations under way (empty in a game without the rule)."""
    found: list[dict[str, Any]] = ctx.s.setdefault("colonies", [])
    return found


def cv(ctx: Ctx, aid: str) -> int:
    """Colonization Value: Population plus SS (25.0 P3)."""
    return int(ctx.d.areas[aid]["population"] + ctx.area(aid)[SS])


def threshold(population: int) -> int:
    """Points needed by the colonized Area's Population (25.24; Population 1 as below 1, A-53)."""
    if population <= 1:
        return 100
    return {2: 150, 3: 175}.get(population, 200)


def _in_use(ctx: Ctx) -> set[str]:
    """Areas already colonized or serving as a Base (25.14: one colonization per Base)."""
    used: set[str] = set()
    for col in colonies(ctx):
        used.add(col["area"])
        used.update(col["bases"])
    return used


def bases_for(ctx: Ctx, seat: int, area: str, chosen: list[str]) -> list[str]:
    """Bases a seat may add to the colonization of `area` (25.11, 25.12, 25.14).

    Each is his own, overland-adjacent to the Area, free of other colonizations, and of the
    chosen Bases' Language; that Language must differ from the Area's, or nothing would change.
    """
    lang = ctx.area(chosen[0])[LANG] if chosen else None
    used = _in_use(ctx)
    out = []
    for b in ctx.d.land_adj[area]:
        here = ctx.area(b)
        if here[OWNER] != seat or b in used or b in chosen:
            continue
        if here[LANG] == ctx.area(area)[LANG] or (lang is not None and here[LANG] != lang):
            continue
        out.append(b)
    return sorted(out)


def targets(ctx: Ctx, seat: int) -> list[str]:
    """Areas of his Empire a seat may start to colonize now (25.0 P1, 25.11, 25.15)."""
    if sum(1 for c in colonies(ctx) if c["seat"] == seat) >= MAX_COLONIES:
        return []
    used = _in_use(ctx)
    return [a for a in owned(ctx.s, seat) if a not in used and bases_for(ctx, seat, a, [])]


ASKS = 4  # colonization menus opened in one Player-Turn: no endless open-and-cancel


def _menu(ctx: Ctx, seat: int) -> list[Option]:
    if not active(ctx) or ctx.seat(seat)["court"] is None:
        return []
    if int(ctx.s.get("turn_asks", {}).get("colonize", 0)) >= ASKS:
        return []
    opts = []
    if targets(ctx, seat):
        opts.append(option({"do": "colonize"}, "Begin a Colonization"))
    mine = [c for c in colonies(ctx) if c["seat"] == seat]
    if any(bases_for(ctx, seat, c["area"], c["bases"]) for c in mine):
        opts.append(option({"do": "colony_base"}, "Add a Base to a Colonization"))
    if mine:
        opts.append(option({"do": "colony_abandon"}, "Abandon a Colonization"))
    return opts


def _menu_do(ctx: Ctx, seat: int, action: Any) -> None:
    asks = ctx.s.setdefault("turn_asks", {})
    asks["colonize"] = int(asks.get("colonize", 0)) + 1
    stage = {"colonize": "area", "colony_base": "add", "colony_abandon": "abandon"}[action["do"]]
    ctx.push({"kind": "colonize", "seat": seat, "stage": stage, "area": None, "bases": []})


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat, stage = frame["seat"], frame["stage"]
    if stage == "area":
        return [option({"cancel": True}, "Cancel")] + handlers.paged(
            ctx,
            frame,
            [option({"area": a}, f"Colonize {ctx.aname(a)}") for a in targets(ctx, seat)],
        )
    if stage == "bases":
        opts = [option({"cancel": True}, "Cancel")]
        if frame["bases"]:
            opts.append(option({"done": True}, "Place the Colonization marker"))
        return opts + [
            option({"base": b}, f"Base {ctx.aname(b)} (CV {cv(ctx, b)})")
            for b in bases_for(ctx, seat, frame["area"], frame["bases"])
        ]
    mine = [c for c in colonies(ctx) if c["seat"] == seat]
    if stage == "add":
        return [option({"cancel": True}, "Cancel")] + [
            option(
                {"area": c["area"], "base": b},
                f"{ctx.aname(b)} as a Base for {ctx.aname(c['area'])}",
            )
            for c in mine
            for b in bases_for(ctx, seat, c["area"], c["bases"])
        ]
    return [option({"cancel": True}, "Cancel")] + [
        option({"area": c["area"]}, f"Abandon the Colonization of {ctx.aname(c['area'])}")
        for c in mine
    ]


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    seat, stage = frame["seat"], frame["stage"]
    if "cancel" in action:
        ctx.pop()
    elif handlers.turn_page(frame, action):
        return
    elif stage == "area":
        frame["area"], frame["stage"] = action["area"], "bases"
    elif stage == "bases" and "base" in action:
        frame["bases"].append(action["base"])
    elif stage == "bases":
        ctx.pop()
        begin(ctx, seat, frame["area"], frame["bases"])
    elif stage == "add":
        ctx.pop()
        col = next(c for c in colonies(ctx) if c["area"] == action["area"])
        col["bases"].append(action["base"])
        ctx.log(
            "EMA-25.13",
            f"{ctx.name(seat)} adds {ctx.aname(action['base'])} as a Base for the Colonization "
            f"of {ctx.aname(action['area'])}; it counts at every Record Phase from now on.",
        )
    else:
        ctx.pop()
        ctx.s["colonies"] = [c for c in colonies(ctx) if c["area"] != action["area"]]
        ctx.log(
            "EMA-25.13",
            f"{ctx.name(seat)} abandons the Colonization of {ctx.aname(action['area'])}.",
        )


handlers.decision(
    "colonize",
    "EMA-25.0.P1",
    lambda ctx, f: "Colonization: choose the Area and its Bases",
    _options,
    _choose,
)


def begin(ctx: Ctx, seat: int, area: str, bases: list[str]) -> None:
    """Announce the colonized Area and its Bases and place the marker (25.0 P1)."""
    colonies(ctx).append(
        {
            "seat": seat,
            "area": area,
            "bases": sorted(bases),
            "points": 0,
            "lang": ctx.area(bases[0])[LANG],
            "since": ctx.s["year"],
        }
    )
    names = ", ".join(ctx.aname(b) for b in sorted(bases))
    ctx.log(
        "EMA-25.0.P1",
        f"{ctx.name(seat)} begins the Colonization of {ctx.aname(area)} from {names}.",
    )


def award(ctx: Ctx, col: dict[str, Any]) -> tuple[int, str, str]:
    """This Round's points for one colonization, with the rule and reason that set them (25.0 P4, 25.2x)."""
    area, seat = col["area"], col["seat"]
    if ctx.area(area)[UNREST]:
        return 0, "EMA-25.23", "the colonized Area is in Unrest"
    counted = [
        b for b in col["bases"] if ctx.area(b)[OWNER] == seat and not ctx.area(b)[UNREST]
    ]  # 25.22: a Base in Unrest counts nothing; one no longer his counts nothing either
    points = sum(cv(ctx, b) for b in counted) - cv(ctx, area)
    if ctx.area(area)[OWNER] != seat:
        return -(-points // 2), "EMA-25.21", "the colonized Area is not his: halved, rounding up"
    if len(counted) < len(col["bases"]):
        return points, "EMA-25.22", "a Base in Unrest or lost counts nothing"
    return points, "EMA-25.0.P4", "Bases' CV less the Area's CV"


def record(ctx: Ctx) -> None:
    """The Colonization Record Phase at the end of the Round (6.0 III.10, 25.0 P2, P5, 25.3)."""
    if not active(ctx):
        return
    for col in list(colonies(ctx)):
        points, rule, why = award(ctx, col)
        col["points"] = max(0, col["points"] + points)  # the total never goes below 0
        need = threshold(int(ctx.d.areas[col["area"]]["population"]))
        ctx.log(
            rule,
            f"Colonization of {ctx.aname(col['area'])}: {points:+d} ({why}); "
            f"{col['points']} of {need} (EMA-25.24).",
        )
        if col["points"] >= need:
            complete(ctx, col)


def complete(ctx: Ctx, col: dict[str, Any]) -> None:
    """The marker flips: the Area takes the Bases' Language and the colonizer 5 VP (25.0 P5, 25.3)."""
    ctx.area(col["area"])[LANG] = col["lang"]
    me = ctx.seat(col["seat"])
    me["vp_colony"] = int(me.get("vp_colony", 0)) + VP
    ctx.s["colonies"] = [c for c in colonies(ctx) if c is not col]
    ctx.log(
        "EMA-25.3",
        f"{ctx.aname(col['area'])} is colonized: its Language is now that of its Bases; "
        f"{ctx.name(col['seat'])} scores {VP} VP.",
    )


handlers.MENU.append(_menu)
for _do in ("colonize", "colony_base", "colony_abandon"):
    handlers.MENU_DO[_do] = _menu_do
handlers.ROUND_END.append(record)
