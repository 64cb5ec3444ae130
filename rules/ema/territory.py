"""Changes of possession: conquest, rebellion, Court loss and relocation, exile return (7.5, 10.3x, 17.15)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.ema import claims, handlers
from rules.ema.empire import court_costs
from rules.ema.handlers import option
from rules.ema.mapindex import set_owner
from rules.ema.state import (
    CHRISTIAN,
    CONV,
    FORT,
    LANG,
    OWNER,
    PARTIAL,
    REL,
    UNREST,
    Ctx,
    Frame,
    owned,
    owned_all,
)


def transfer(ctx: Ctx, aid: str, seat: int | None, how: str) -> None:
    """Give an Area to a seat or make it Independent; `how` is conquest, diplomacy, rebellion, trade."""
    here = ctx.area(aid)
    old = here[OWNER]
    set_owner(ctx.s, aid, seat)
    if how == "conquest":
        here[PARTIAL] = []  # 10.38: the other conquerors' C results are removed
        here[FORT] = 2 if here[FORT] == 3 else 0  # 14.41
        here[UNREST] = True  # 17.0 Conquered
        if here[CONV] and here[CONV]["seat"] != seat:
            here[CONV] = None  # 22.21: another Player's conquest loses the progress
        if (
            seat is not None
            and here[REL] == "moslem_iberian"
            and ctx.seat(seat)["rel"] in CHRISTIAN
        ):
            here[REL] = "RC"  # 22.27
            ctx.log("EMA-22.27", f"{ctx.aname(aid)} becomes Roman Catholic on its conquest.")
    elif how == "rebellion":
        here[UNREST] = False
        here[FORT] = 2 if here[FORT] == 3 else 0  # 17.15
    here[PARTIAL] = [p for p in here[PARTIAL] if p["seat"] != seat]
    clean_partials(ctx)
    if old is not None and ctx.seat(old)["court"] == aid:
        lose_court(ctx, old)
    if seat is not None:
        check_return(ctx, seat, aid)
        claims.auto_claim(ctx, seat, aid)  # possession plus a Tie, however it was acquired
        if ctx.seat(seat)["orig_court"] == aid and ctx.seat(seat)["court"] not in (None, aid):
            ctx.push({"kind": "court_return", "seat": seat, "area": aid})
    refresh_connections(ctx)


def clean_partials(ctx: Ctx) -> None:
    """Drop C results whose Base no longer belongs to their conqueror (10.37, A-16)."""
    areas = ctx.s["areas"]
    for here in areas.values():
        if here[PARTIAL]:
            here[PARTIAL] = [
                p
                for p in here[PARTIAL]
                if areas[p["base"]][OWNER] == p["seat"] and here[OWNER] != p["seat"]
            ]


def court_candidates(ctx: Ctx, seat: int, language_only: bool = False) -> list[str]:
    """Areas that may become the new Court: the Leader's Language, and Religion unless relaxed (A-26).

    The voluntary move after an Heirless draw asks the Language only (19.1 (f)).
    """
    me = ctx.seat(seat)
    strict = ctx.s["options"]["court_rule"] == "language_and_religion" and not language_only
    return [
        a
        for a in owned(ctx.s, seat)
        if ctx.area(a)[LANG] == me["lang"] and (not strict or ctx.area(a)[REL] == me["rel"])
    ]


def lose_court(ctx: Ctx, seat: int) -> None:
    """The Court is lost: choose a new one at once, or go into Exile (7.52, 7.53)."""
    me = ctx.seat(seat)
    me["court"] = None
    if court_candidates(ctx, seat):
        ctx.push({"kind": "court_move", "seat": seat, "why": "lost"})
        return
    me["exile"] = True
    ctx.log(
        "EMA-7.53",
        f"{ctx.name(seat)} has no Area of his Leader's Language and Religion: the "
        "Leader goes into Exile.",
    )


def check_return(ctx: Ctx, seat: int, aid: str) -> None:
    """An exile returns on acquiring an Area of exactly his Language and Religion (21.3)."""
    me = ctx.seat(seat)
    here = ctx.area(aid)
    if me["exile"] and here[LANG] == me["lang"] and here[REL] == me["rel"]:
        me["exile"], me["asylum"], me["court"] = False, None, aid
        ctx.log(
            "EMA-21.3", f"{ctx.name(seat)} returns from Exile with a Court in {ctx.aname(aid)}."
        )


def refresh_connections(ctx: Ctx) -> None:
    """Owned Areas cut off from their Court fall into Unrest (17.0 Not Connected, A-28).

    An exile has no Court, so none of his Areas is connected (7.51): all of them enter Unrest
    (A-28: checked after every change). A seat still choosing its new Court (7.52) is skipped
    until it has chosen.
    """
    by_seat = owned_all(ctx.s)  # one pass over the map for every seat
    for seat, me in enumerate(ctx.s["seats"]):
        if me["court"] is None and not me["exile"]:
            continue
        mine = by_seat.get(seat, [])
        linked = court_costs(ctx.s, seat)
        for aid in mine:
            here = ctx.area(aid)
            if aid not in linked and not here[UNREST]:
                here[UNREST] = True
                ctx.log(
                    "EMA-17.0.Trig-Disconnected",
                    f"{ctx.aname(aid)} is cut off from the Court "
                    f"of {ctx.name(seat)} and falls into Unrest."
                    if me["court"] is not None
                    else f"{ctx.aname(aid)} has no Court to be connected to while "
                    f"{ctx.name(seat)} is in Exile, and falls into Unrest.",
                )


def _move_options(ctx: Ctx, frame: Frame) -> list[Option]:
    heirless = frame["why"] == "heirless"
    court = ctx.seat(frame["seat"])["court"]
    opts = [
        option({"court": a}, f"Court to {ctx.aname(a)}")
        for a in court_candidates(ctx, frame["seat"], heirless)
        if a != court
    ]
    if heirless and court is not None:
        opts.insert(0, option({"court": None}, "Keep the Court where it is"))
    if not opts:
        opts.append(option({"court": None}, "Go into Exile"))
    return handlers.paged(ctx, frame, opts)


def _move_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    if handlers.turn_page(frame, action):
        return
    ctx.pop()
    me = ctx.seat(frame["seat"])
    if action["court"] is None:
        if me["court"] is None:
            me["exile"] = True
            ctx.log("EMA-7.53", f"{ctx.name(frame['seat'])} goes into Exile.")
            refresh_connections(ctx)  # 17.0, A-28: his Areas are connected to no Court
        return
    me["court"] = action["court"]
    ctx.log(
        "EMA-7.52", f"{ctx.name(frame['seat'])} moves the Court to {ctx.aname(action['court'])}."
    )
    refresh_connections(ctx)


def _return_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    if action["back"] and ctx.area(frame["area"])[OWNER] == frame["seat"]:
        ctx.seat(frame["seat"])["court"] = frame["area"]
        ctx.log(
            "EMA-7.54",
            f"{ctx.name(frame['seat'])} moves the Court back to {ctx.aname(frame['area'])}.",
        )
        refresh_connections(ctx)


handlers.decision(
    "court_move",
    "EMA-7.52",
    lambda ctx, f: "Choose the new Court Area",
    _move_options,
    _move_choose,
)
handlers.decision(
    "court_return",
    "EMA-7.54",
    lambda ctx, f: (
        f"You reconquered your original Court {ctx.aname(f['area'])}: move the Court back?"
    ),
    lambda ctx, f: [
        option({"back": True}, "Move the Court back"),
        option({"back": False}, "Keep the present Court"),
    ],
    _return_choose,
)
