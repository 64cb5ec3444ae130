"""Manoeuvre with its Army limit check (HRE-BASE-MANOEUVRE) and the Regroup reaction (REGROUP)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.hre import battle, handlers
from rules.hre.handlers import option
from rules.hre.state import (
    UNITS,
    Ctx,
    Frame,
    army_limit,
    army_size,
    neighbours,
    refresh_owner,
    unit_count,
)


@handlers.step("manoeuvre")
def _manoeuvre(ctx: Ctx, frame: Frame) -> None:
    """Army limit check first, then the move (MANOEUVRE-01)."""
    ctx.s["stack"].pop()
    seat = frame["seat"]
    ctx.push({"kind": "move", "seat": seat, "regroup": False})
    excess = army_size(ctx.s, seat) - army_limit(ctx.s, seat)
    if excess > 0:
        ctx.log("HRE-BASE-MANOEUVRE-01", f"{ctx.name(seat)} is {excess} over the Army limit.")
        ctx.push({"kind": "army", "seat": seat, "paid": 0})


def _excess(ctx: Ctx, frame: Frame) -> int:
    seat = frame["seat"]
    return army_size(ctx.s, seat) - army_limit(ctx.s, seat) - int(frame["paid"])


def _army_options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat = frame["seat"]
    opts = []
    if ctx.seat(seat)["gold"] >= 1:
        opts.append(option({"army": "gold"}, "Pay 1 Gold to keep a unit"))
    for prov in sorted(ctx.s["prov"]):
        here = ctx.s["prov"][prov]
        if here["owner"] == seat:
            for unit in UNITS:
                if here["units"][unit]:
                    opts.append(
                        option(
                            {"army": "return", "prov": prov, "unit": unit},
                            f"Return a {unit} from {ctx.d.provinces[prov]['name']}",
                        )
                    )
    return opts


def _army_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    """Each unit over the limit is returned or paid for with 1 Gold (MANOEUVRE-02)."""
    seat = frame["seat"]
    if action["army"] == "gold":
        ctx.seat(seat)["gold"] -= 1
        frame["paid"] += 1
        ctx.log("HRE-BASE-MANOEUVRE-02", f"{ctx.name(seat)} pays 1 Gold for a unit over the limit.")
    else:
        ctx.s["prov"][action["prov"]]["units"][action["unit"]] -= 1
        refresh_owner(ctx.s, action["prov"])
        ctx.log(
            "HRE-BASE-MANOEUVRE-02",
            f"{ctx.name(seat)} returns a {action['unit']} from "
            f"{ctx.d.provinces[action['prov']]['name']} over the Army limit.",
        )


handlers.decision(
    "army",
    "HRE-BASE-MANOEUVRE-02",
    lambda ctx, f: f"Over the Army limit by {_excess(ctx, f)}: return units or pay Gold",
    _army_options,
    _army_choose,
    until=lambda ctx, f: _excess(ctx, f) <= 0,
)


def hostile(ctx: Ctx, seat: int, prov: str) -> bool:
    """Whether entering would start a battle: an opponent's or a Barbarian province."""
    here = ctx.s["prov"][prov]
    return here["barb"] is not None or (here["owner"] is not None and here["owner"] != seat)


def _move_options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat = frame["seat"]
    opts = []
    for prov in sorted(ctx.s["prov"]):
        here = ctx.s["prov"][prov]
        if here["owner"] != seat or not unit_count(here["units"]):
            continue
        for dest in neighbours(ctx.s, prov):
            if frame["regroup"] and hostile(ctx, seat, dest):
                continue
            verb = "attack" if hostile(ctx, seat, dest) else "move to"
            opts.append(
                option(
                    {"from": prov, "to": dest},
                    f"From {ctx.d.provinces[prov]['name']}, {verb} {ctx.d.provinces[dest]['name']}",
                )
            )
    return opts or [option({"from": None}, "No units can move: no effect")]


def _move_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    if action["from"] is None:
        ctx.nothing_done()
        return
    units = ctx.s["prov"][action["from"]]["units"]
    if unit_count(units) == 1:
        group = {u: n for u, n in units.items() if n}
        resolve_move(ctx, frame["seat"], action["from"], action["to"], group, frame["regroup"])
        return
    ctx.push(
        {
            "kind": "move_count",
            "seat": frame["seat"],
            "from": action["from"],
            "to": action["to"],
            "regroup": frame["regroup"],
            "group": {},
        }
    )


move_choose = _move_choose  # a module's own way of choosing the move (Module 10's Campaigns)

handlers.decision(
    "move",
    "HRE-BASE-MANOEUVRE-03",
    lambda ctx, f: "Manoeuvre: move one group to a neighbouring province",
    _move_options,
    _move_choose,
)
# The same step as a Regroup reaction: no battle may follow (REGROUP-01, -02).
handlers.decision(
    "regroup",
    "HRE-BASE-REGROUP-01",
    lambda ctx, f: "Regroup: move one group to a neighbouring province you may enter",
    _move_options,
    _move_choose,
)


def _next_type(ctx: Ctx, frame: Frame) -> str | None:
    units = ctx.s["prov"][frame["from"]]["units"]
    return next((u for u in UNITS if units[u] and u not in frame["group"]), None)


def _count_options(ctx: Ctx, frame: Frame) -> list[Option]:
    unit = _next_type(ctx, frame)
    assert unit is not None
    have = ctx.s["prov"][frame["from"]]["units"][unit]
    later = any(
        u != unit and n and u not in frame["group"]
        for u, n in ctx.s["prov"][frame["from"]]["units"].items()
    )
    low = 0 if later or sum(frame["group"].values()) else 1
    return [option({"count": n}, f"Move {n} {unit}") for n in range(low, have + 1)]


def _count_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    unit = _next_type(ctx, frame)
    assert unit is not None
    frame["group"][unit] = action["count"]
    if _next_type(ctx, frame) is None:
        ctx.s["stack"].pop()
        group = {u: n for u, n in frame["group"].items() if n}
        resolve_move(ctx, frame["seat"], frame["from"], frame["to"], group, frame["regroup"])


handlers.decision(
    "move_count",
    "HRE-BASE-MANOEUVRE-03",
    lambda ctx, f: f"How many {_next_type(ctx, f)} move?",
    _count_options,
    _count_choose,
)


def resolve_move(
    ctx: Ctx, seat: int, src: str, dest: str, group: dict[str, int], regroup: bool
) -> None:
    """Move the group; entering a hostile province starts a battle (MANOEUVRE-04, -05)."""
    here = ctx.s["prov"][src]
    for unit, n in group.items():
        here["units"][unit] -= n
    refresh_owner(ctx.s, src)
    what = ", ".join(f"{n} {u}" for u, n in sorted(group.items()))
    names = ctx.d.provinces
    rule = "HRE-BASE-REGROUP-01" if regroup else "HRE-BASE-MANOEUVRE-03"
    if hostile(ctx, seat, dest):
        ctx.log(
            "HRE-BASE-MANOEUVRE-04",
            f"{ctx.name(seat)} attacks {names[dest]['name']} "
            f"from {names[src]['name']} with {what}.",
        )
        turn = next(f for f in reversed(ctx.s["stack"]) if f["kind"] == "turn")
        turn["battle"] = True
        battle.start(ctx, seat, src, dest, group)
        return
    there = ctx.s["prov"][dest]
    for unit, n in group.items():
        there["units"][unit] += n
    there["owner"] = seat
    ctx.log(
        rule, f"{ctx.name(seat)} moves {what} from {names[src]['name']} to {names[dest]['name']}."
    )
