"""Module 14A, resolving a Crusade (HRE L839-854; reference §1.36, HRE-M14A-RESOLVE-01..11).

A resolution is one step frame, "m14a_resolve": the card, the units sent to it (`pool`), the
seats in order from the current player clockwise (at the end, from the last to Pass), and its
phase, one per step of the book: the special effect, the Defence Value, the dice, victory or
defeat, the units brought home, the card back to the box. A Crusade resolved at final scoring
brings nobody home: its units are simply removed (AMB-68), and scoring goes on.
"""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import Option
from rules.hre import endgame, handlers
from rules.hre.economy import gain, lose
from rules.hre.handlers import option
from rules.hre.modules import majority
from rules.hre.modules.m14a_crusades import NAMES, cards, m14a, no_units
from rules.hre.state import UNITS, Ctx, Frame, controlled, unit_count, unit_stats

SKILLS = ("volley", "charge", "melee")


def best(ctx: Ctx, seat: int, unit: str) -> int:
    """A unit's best skill, the lowest die that hits in any phase (RESOLVE-05)."""
    stats = unit_stats(ctx.s, seat, unit)
    return min(int(stats[k]) for k in SKILLS if stats.get(k) is not None)


def _concerned(ctx: Ctx, frame: Frame, seat: int, who: str) -> bool:
    sent = unit_count(frame["pool"][seat]) > 0
    churches = any(h["church"] and h["owner"] == seat for h in ctx.s["prov"].values())
    return {"everyone": True, "contributors": sent, "others": not sent, "church": churches}[who]


def _effect(ctx: Ctx, frame: Frame) -> None:
    """Step 1: the special effect, player by player (RESOLVE-02); nobody sent: done (-03)."""
    card = cards()[frame["card"]]
    effect = card["effect"]
    ctx.log(
        "HRE-M14A-RESOLVE-01",
        f"The {NAMES[card['crusade']]} Crusade, {card['name']}, is resolved, "
        f"starting with {ctx.name(frame['order'][0])}.",
    )
    for seat in frame["order"]:
        if not _concerned(ctx, frame, seat, effect["who"]):
            continue
        if "gain" in effect:
            gain(ctx, seat, effect["gain"], "HRE-M14A-RESOLVE-02", f" from {card['name']}")
            _score(ctx, seat, int(effect["gain"].get("vp", 0)))
        else:
            lost = lose(ctx, seat, effect["lose"], "HRE-M14A-RESOLVE-02", f" to {card['name']}")
            _score(ctx, seat, -lost.get("vp", 0))
    if any(unit_count(units) for units in frame["pool"]):
        frame["phase"] = "defence"
        return
    ctx.log("HRE-M14A-RESOLVE-03", "Nobody sent units: the Crusade goes straight back to the box.")
    frame["phase"] = "done"


def _defence(ctx: Ctx, frame: Frame) -> None:
    """Step 3: the Defence Value, printed or rolled (RESOLVE-04)."""
    dv = cards()[frame["card"]]["defence"]
    if "fixed" in dv:
        frame["dv"] = int(dv["fixed"])
        how = "printed"
    else:
        die = rng.die(ctx.s, int(dv["die"]))
        frame["dv"] = die + int(dv["plus"])
        how = f"rolled {die} + {dv['plus']}"
    ctx.log("HRE-M14A-RESOLVE-04", f"The Crusade's Defence Value is {frame['dv']} ({how}).")
    frame["phase"] = "roll"


def _roll(ctx: Ctx, frame: Frame) -> None:
    """Step 4: a die for each unit sent, against its best skill; a hit is a marker (RESOLVE-05)."""
    markers = [0] * len(frame["pool"])
    for seat in frame["order"]:
        units = frame["pool"][seat]
        if not unit_count(units):
            continue
        rolls = []
        for u in UNITS:
            for _ in range(units[u]):
                die = rng.die(ctx.s)
                rolls.append(f"{die} ({u}, {best(ctx, seat, u)}+)")
                markers[seat] += die >= best(ctx, seat, u)
        ctx.log(
            "HRE-M14A-RESOLVE-05",
            f"{ctx.name(seat)} rolls {', '.join(rolls)}: {markers[seat]} marker(s) on the card.",
        )
    frame["markers"] = markers
    frame["phase"] = "outcome"


def _outcome(ctx: Ctx, frame: Frame) -> None:
    """Steps 5-6: victory shares the ladder by markers; the penalty for those who stayed home is
    a loss in victory and a gain in defeat (RESOLVE-06, -07, -09)."""
    card, markers = cards()[frame["card"]], frame["markers"]
    sent = [unit_count(units) > 0 for units in frame["pool"]]
    frame["victory"] = sum(markers) >= frame["dv"]
    frame["vp"] = vp = [0] * len(markers)
    if frame["victory"]:
        # Most markers first, ties take the higher value and skip the next, no marker no VP
        # (RESOLVE-06, TC-39); those who stayed home have no marker.
        ladder = majority(markers, card["ladder"])
        ctx.log("HRE-M14A-RESOLVE-06", f"{sum(markers)} markers reach {frame['dv']}: victory.")
        for seat in frame["order"]:
            if sent[seat]:
                vp[seat] = ladder[seat]
                ctx.seat(seat)["vp"] += vp[seat]
                ctx.log("HRE-M14A-RESOLVE-06", f"{ctx.name(seat)} scores {vp[seat]} VP.")
            elif card["penalty"]:
                why = " for staying at home (the Defeat Penalty)"
                vp[seat] = -lose(ctx, seat, {"vp": card["penalty"]}, "HRE-M14A-RESOLVE-07", why)[
                    "vp"
                ]
    else:
        ctx.log(
            "HRE-M14A-RESOLVE-09", f"{sum(markers)} markers fall short of {frame['dv']}: defeat."
        )
        for seat in frame["order"]:
            if not sent[seat] and card["penalty"]:
                vp[seat] = int(card["penalty"])
                gain(ctx, seat, {"vp": vp[seat]}, "HRE-M14A-RESOLVE-09", " for staying at home")
    for seat, n in enumerate(vp):
        _score(ctx, seat, n)
    frame["phase"] = "done" if frame["final"] else "redeploy"
    frame["home"] = [s for s in frame["order"] if sent[s]]  # who brings units home, in turn


def _score(ctx: Ctx, seat: int, vp: int) -> None:
    m14a(ctx.s)["scored"][seat] += vp


def _redeploy(ctx: Ctx, frame: Frame) -> None:
    """Each contributor in turn brings units home (RESOLVE-08, -10)."""
    if not frame["home"]:
        frame["phase"] = "done"
        return
    seat = frame["home"].pop(0)
    mode = "victory" if frame["victory"] else "defeat"
    units = frame["pool"][seat]
    frame["pool"][seat] = no_units()
    home = {
        "kind": "m14a_redeploy" if mode == "victory" else "m14a_return",
        "seat": seat,
        "units": units,
        "mode": mode,
        "stage": "lose" if mode == "victory" else "return",
    }
    ctx.push(home)
    _forced(ctx, home)


def _done(ctx: Ctx, frame: Frame) -> None:
    """The card goes back to the box (RESOLVE-11); at the end, scoring goes on."""
    t = m14a(ctx.s)
    t["resolved"].append(frame["card"])
    t["last"] = {
        "card": frame["card"],
        "dv": frame.get("dv"),
        "markers": frame.get("markers"),
        "victory": frame.get("victory"),
        "vp": frame.get("vp"),
    }
    ctx.s["stack"].remove(frame)
    ctx.log("HRE-M14A-RESOLVE-11", f"{cards()[frame['card']]['name']} goes back to the box.")
    if frame["final"]:
        gone = sum(unit_count(units) for units in frame["pool"])
        if gone:
            ctx.log("HRE-M14A-RESOLVE-01", f"The {gone} unit(s) still crusading leave the game.")
        endgame.finish(ctx)


PHASES = {
    "effect": _effect,
    "defence": _defence,
    "roll": _roll,
    "outcome": _outcome,
    "redeploy": _redeploy,
    "done": _done,
}


@handlers.step("m14a_resolve")
def _resolve(ctx: Ctx, frame: Frame) -> None:
    PHASES[frame["phase"]](ctx, frame)


# ---------------------------------------------------------------- bringing units home


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    units, seat = frame["units"], frame["seat"]
    names = ctx.d.provinces
    here = [u for u in UNITS if units[u]]
    if frame["stage"] == "lose":
        return [option({"m14a_lose": u}, f"Lose 1 {u} to your supply") for u in here]
    if frame["stage"] == "place":
        return [
            option({"m14a_place": here[0], "prov": p}, f"Place 1 {here[0]} in {names[p]['name']}")
            for p in controlled(ctx.s, seat)
        ]
    return [
        option({"m14a_home": u, "prov": p}, f"Bring 1 {u} home to {names[p]['name']}")
        for u in here
        for p in controlled(ctx.s, seat)
    ]


def _apply(ctx: Ctx, frame: Frame, action: Any) -> None:
    units, seat = frame["units"], frame["seat"]
    if "m14a_lose" in action:
        units[action["m14a_lose"]] -= 1
        frame["stage"] = "place"
        ctx.log("HRE-M14A-RESOLVE-08", f"{ctx.name(seat)} loses 1 {action['m14a_lose']}.")
        return
    prov = action["prov"]
    unit = action.get("m14a_place", action.get("m14a_home"))
    units[unit] -= 1
    ctx.s["prov"][prov]["units"][unit] += 1
    where = ctx.d.provinces[prov]["name"]
    if "m14a_home" in action:
        lost = unit_count(units)
        frame["units"] = no_units()
        ctx.log(
            "HRE-M14A-RESOLVE-10",
            f"{ctx.name(seat)} brings 1 {unit} home to {where}; {lost} other unit(s) are lost.",
        )
    else:
        ctx.log("HRE-M14A-RESOLVE-08", f"{ctx.name(seat)} places 1 {unit} in {where}.")


def _forced(ctx: Ctx, frame: Frame) -> None:
    """Answer while there is one way only; pop once every unit is home or lost."""
    while unit_count(frame["units"]):
        opts = _options(ctx, frame)
        if len(opts) > 1:
            return
        _apply(ctx, frame, opts[0]["action"])
    ctx.s["stack"].remove(frame)


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    _apply(ctx, frame, action)
    _forced(ctx, frame)


def _text(ctx: Ctx, frame: Frame) -> str:
    n = unit_count(frame["units"])
    if frame["stage"] == "lose":
        return f"The Crusade won: one of your {n} crusading units is lost; choose which"
    if frame["stage"] == "place":
        return f"The Crusade won: place your {n} crusading unit(s) in provinces you control"
    return "The Crusade lost: one of your units comes home, the others are lost; choose which"


handlers.decision("m14a_redeploy", "HRE-M14A-RESOLVE-08", _text, _options, _choose)
handlers.decision("m14a_return", "HRE-M14A-RESOLVE-10", _text, _options, _choose)
