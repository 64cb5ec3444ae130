"""Raiders (24.0-24.4, optional): Vikings, Magyars and Saracen Pirates pillage on their schedules.

In each Round's Raider Phase every Raider active in the current Game-Turn plays five Year Cards,
each a Pillage of the legal Target with the highest SS + Population against which its ER is at
least 0 (24.0 Procedure). The state keeps `raiders_stopped` (Raiders gone for good, 24.14,
24.23) and, for the Vikings' Conquests (24.13), their Areas in `npc_areas`.
"""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.ema import handlers, nonplayer
from rules.ema.optional_data import tables
from rules.ema.state import CHRISTIAN, LANG, OWNER, REL, SS, Ctx, Frame

ORDER = ("vikings", "magyars", "saracens")
NAMES = {"vikings": "the Vikings", "magyars": "the Magyars", "saracens": "the Saracen Pirates"}
VIKING_SEAS = ("north_sea", "north_atlantic", "english_channel", "bay_of_biscay")  # 24.12
SARACEN_SEAS = ("western_mediterranean", "tyrrhenian_sea")  # 24.32
VIKING_HOMES = ("norway", "denmark")  # 24.11
CARDS = 5


def active(ctx: Ctx) -> bool:
    """Is the optional rule in use in this game?"""
    return bool(ctx.s["options"].get("raiders_magnates"))


def game_turn_of(year: int) -> int:
    """The first year of the Game-Turn a Round belongs to (6.0)."""
    return year - (year - 1) % 25


def scheduled(year: int) -> dict[str, int]:
    """Each Raider's Stature in the Game-Turn of this Round, if it is on its schedule (24.4)."""
    gt = str(game_turn_of(year))
    found = {}
    for name in ORDER:
        stature = tables()["raider_schedules"][name].get(gt)
        if stature is not None and year <= 1100:  # 24.0 Procedure: none after 1100
            found[name] = int(stature)
    return found


def _stopped(ctx: Ctx, name: str) -> bool:
    """Gone for good once a Norse Area (Vikings) or Hungary (Magyars) is Christian (24.14, 24.23)."""
    stopped: list[str] = ctx.s.setdefault("raiders_stopped", [])
    if name in stopped:
        return True
    if name == "vikings":
        gone = any(
            ctx.area(a)[REL] in CHRISTIAN and ctx.area(a)[LANG] == "old_norse"
            for a in ctx.s.get("norse_pagan", [])
        )
    elif name == "magyars":
        gone = "hungary" in ctx.s.get("magyar_pagan", []) and ctx.area("hungary")[REL] in CHRISTIAN
    else:
        gone = False
    if gone:
        stopped.append(name)
    return gone


def remember_pagans(ctx: Ctx) -> None:
    """At the first Raider Phase, note which Norse Areas and whether Hungary are Pagan (24.14, 24.23)."""
    if "norse_pagan" not in ctx.s:
        ctx.s["norse_pagan"] = sorted(
            a for a, here in ctx.s["areas"].items() if here[REL] == "pagan_norse"
        )
        ctx.s["magyar_pagan"] = ["hungary"] if ctx.area("hungary")[REL] not in CHRISTIAN else []


def base_of(ctx: Ctx, name: str) -> str | None:
    """The Raider's Base for its next Pillage, or None when it cannot raid (24.11, 24.14, 24.21, 24.23)."""
    if name == "vikings":
        free = [a for a in VIKING_HOMES if ctx.area(a)[OWNER] is None]
        return max(free, key=lambda a: (ctx.area(a)[SS], a == "norway")) if free else None
    if name == "magyars":
        return "hungary" if ctx.area("hungary")[OWNER] is None else None
    return None


def actor(ctx: Ctx, name: str, stature: int) -> dict[str, Any]:
    """The Raider as it attacks: Stature as Combat, its Base's SS, Language and Religion (24.0, 24.31)."""
    base = base_of(ctx, name)
    if base is None:  # the Saracens: Base SS 0, Moslem, a non-Indo-European Language (24.31)
        return {
            "name": NAMES[name], "key": name, "stature": stature, "base": None, "base_ss": 0,
            "lang": "nonie:saracen", "rel": "moslem_east", "mods": True,
        }  # fmt: skip
    here = ctx.area(base)
    return {
        "name": NAMES[name], "key": name, "stature": stature, "base": base,
        "base_ss": int(here[SS]), "lang": here[LANG], "rel": here[REL], "mods": True,
    }  # fmt: skip


def targets(ctx: Ctx, name: str) -> list[str]:
    """The Raider's possible Targets (24.12, 24.22, 24.32), its own Areas left out."""
    d = ctx.d
    if name == "magyars":  # up to two land steps from Hungary, through any Area
        near = set(d.land_adj["hungary"])
        found = near | {b for a in near for b in d.land_adj[a]}
        found.discard("hungary")
    else:
        seas = VIKING_SEAS if name == "vikings" else SARACEN_SEAS
        found = {a for s in seas for a in d.sea_lands[s]}
        if name == "vikings":
            found -= set(VIKING_HOMES)
            held = [a for a, k in ctx.s.get("npc_areas", {}).items() if k == "vikings"]
            found |= {b for a in held for b in d.land_adj[a]}  # 24.13
    mine = {a for a, k in ctx.s.get("npc_areas", {}).items() if k == name}
    return sorted(found - mine)


def value(ctx: Ctx, aid: str) -> int:
    """A Target's worth to a Raider: SS + Population (24.0 Procedure)."""
    return int(ctx.area(aid)[SS] + ctx.d.areas[aid]["population"])


def choose_target(ctx: Ctx, who: dict[str, Any], name: str) -> tuple[str, str] | None:
    """The Endeavor and Target of the Raider's next card, or None when none is legal (A-48).

    The best SS + Population first, ties by a die roll; the next best whenever the ER would be
    below 0. With no Target worth more than 0 the Vikings make Conquests instead (24.13).
    """
    found = targets(ctx, name)
    if not found:
        return None
    kind = "pillage"
    if name == "vikings" and all(value(ctx, a) <= 0 for a in found):
        kind = "conquest"
    rolls = {a: rng.die(ctx.s) for a in found} if len(found) > 1 else {found[0]: 0}
    ranked = sorted(found, key=lambda a: (-value(ctx, a), -rolls[a], a))
    for aid in ranked:
        if nonplayer.rating(ctx, who, kind, aid) >= 0:
            return kind, aid
    return None


def phase(ctx: Ctx) -> None:
    """Push the Raider Phase of this Round when the rule is on (6.0 III.3)."""
    if active(ctx):
        ctx.push({"kind": "raiders", "queue": [], "cards": 0, "started": False})


@handlers.step("raiders")
def _raiders(ctx: Ctx, frame: Frame) -> None:
    """Each active Raider in turn plays its five cards (24.0 Procedure, 24.33)."""
    if not frame["started"]:
        frame["started"] = True
        remember_pagans(ctx)
        frame["queue"] = _active_raiders(ctx)
        frame["cards"] = CARDS
        return
    if not frame["queue"]:
        ctx.pop()
        return
    name, stature = frame["queue"][0]
    who = actor(ctx, name, stature)
    pending = frame.get("pending")
    if pending is not None:
        frame["pending"] = None
        number = nonplayer.draw(ctx)
        if number is not None:
            nonplayer.resolve(ctx, who, pending, number, "EMA-24.0.P-Raid")
            nonplayer.discard(ctx, number)
        frame["cards"] -= 1 if number is not None else frame["cards"]
    elif frame["cards"] <= 0 or (picked := choose_target(ctx, who, name)) is None:
        if frame["cards"] > 0:
            ctx.log("EMA-24.0.P-Raid", f"{NAMES[name]} find no Target: their cards go unused.")
        frame["queue"], frame["cards"] = frame["queue"][1:], CARDS
    else:
        kind, target = picked
        nonplayer.offer_defense(ctx, frame, who, kind, target)


def _active_raiders(ctx: Ctx) -> list[tuple[str, int]]:
    """The Raiders that raid this Round, with their Statures (24.4, 24.14, 24.23, 24.33)."""
    found = []
    for name, stature in scheduled(ctx.s["year"]).items():
        if _stopped(ctx, name):
            continue
        if name != "saracens" and base_of(ctx, name) is None:
            ctx.log("EMA-24.14" if name == "vikings" else "EMA-24.23",
                    f"{NAMES[name]} do not raid: a Player holds their home.")  # fmt: skip
            continue
        if name == "saracens":
            die = rng.die(ctx.s)
            if die >= 5:
                ctx.log("EMA-24.33", f"The Saracen Pirates roll {die}: no raids this Round.")
                continue
        found.append((name, stature))
        ctx.log("EMA-24.4", f"{NAMES[name]} raid this Round with Stature {stature}.")
    return found


handlers.ROUND_PHASES[3] = phase  # 6.0 III.3
handlers.ROUND_END.append(nonplayer.round_end)
