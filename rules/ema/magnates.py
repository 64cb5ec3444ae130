"""Magnates (24.0, 24.5-24.9, optional): strong minor rulers who appear and conquer on their own.

The state keeps `magnates`, one entry per Magnate on the map (`key`, `court`, `stature`, `kind`
normal/syrian/mongol, `lang`, `rel`, the `defense_card` held back, `since`), and `npc_areas`,
which Magnate or Raider holds each of their Areas. Magnate Areas have no owner: to the Players
they are Independent (24.5x).
"""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.ema import handlers, nonplayer, raiders
from rules.ema.optional_data import tables
from rules.ema.state import (
    LANG,
    OWNER,
    REL,
    SS,
    UNREST,
    Area,
    Ctx,
    Frame,
    lang_relation,
    norm,
    rel_relation,
)

MAX_MAGNATES = 3  # 24.0 Procedure
ATTACKS = {"normal": 4, "syrian": 4, "mongol": 10}  # 24.53, 24.8
RULE_OF = {"normal": "EMA-24.6", "syrian": "EMA-24.7", "mongol": "EMA-24.8"}


def magnates(ctx: Ctx) -> list[dict[str, Any]]:
    """The Magnates on the map, in order of appearance."""
    found: list[dict[str, Any]] = ctx.s.setdefault("magnates", [])
    return found


def areas_of(ctx: Ctx, key: str) -> list[str]:
    """A Magnate's Areas."""
    return sorted(a for a, k in ctx.s.get("npc_areas", {}).items() if k == key)


def held_by_magnate(ctx: Ctx, aid: str) -> bool:
    """Is there a Magnate in this Area (A-49: any Magnate's Area counts)?"""
    key = ctx.s.get("npc_areas", {}).get(aid)
    return key is not None and key.startswith("magnate")


def appearance(ctx: Ctx, year: int) -> tuple[str, int, str] | None:
    """Roll on the Appearance Table and what follows: (Area, Stature, kind) or None (24.91-24.93)."""
    die = rng.die(ctx.s)
    entry = tables()["magnate_appearance"][die - 1]
    gt = raiders.game_turn_of(year)
    if entry in ("matrix_1", "matrix_2"):
        column, row = rng.die(ctx.s), rng.die(ctx.s)
        aid = tables()[f"magnate_{entry}"][row - 1][column - 1]
        ctx.log("EMA-24.92", f"Magnate Appearance die {die}: Matrix {entry[-1]}, column "
                f"{column}, row {row}: {ctx.aname(aid)}.")  # fmt: skip
        return aid, 5, "normal"
    if entry == "syrian" and gt >= 1001:  # 24.7: from the 1001 Game-Turn on
        second = rng.die(ctx.s)
        stature = tables()["syrian_table"][second - 1]
        ctx.log("EMA-24.93", f"Magnate Appearance die {die}: Syrian table die {second}.")
        return ("syria", stature, "syrian") if stature else None
    if entry == "mongol" and 1201 <= gt <= 1276:  # 24.8, A-50: the 1201-1276 Game-Turns only
        ctx.log("EMA-24.8", f"Magnate Appearance die {die}: the Mongols.")
        return "the_steppes", 9, "mongol"
    ctx.log("EMA-24.91", f"Magnate Appearance die {die}: no Magnate appears.")
    return None


def may_appear(ctx: Ctx, aid: str, kind: str) -> bool:
    """Independent, or a Player's in Unrest; Syrians and Mongols anywhere; never where a Magnate
    already is (24.0 Procedure, 24.6, 24.7, 24.8, A-62)."""
    if held_by_magnate(ctx, aid):
        return False
    here = ctx.area(aid)
    if kind != "normal":
        return True
    if aid in ctx.s.get("npc_areas", {}):
        return True  # a Viking Area is Independent
    return here[OWNER] is None or bool(here[UNREST])


def _rising(ctx: Ctx, aid: str) -> Area:
    """The Area rises (24.0 P4): a Player's leaves him as in a Rebellion, out of Unrest, its SS up
    to its Norm. Returns the Area's row."""
    from rules.ema.territory import transfer  # the Area leaves its Player

    here = ctx.area(aid)
    if here[OWNER] is not None:
        transfer(ctx, aid, None, "rebellion")
    here[UNREST] = False
    if here[SS] < norm(aid):
        here[SS] = norm(aid)
    return here


def appear(ctx: Ctx, aid: str, stature: int, kind: str) -> dict[str, Any]:
    """Put a Magnate in the Area: his Court, SS up to its Norm, his Religion and Language (24.0 P4, 24.5)."""
    here = _rising(ctx, aid)
    count = int(ctx.s.get("magnates_made", 0)) + 1
    ctx.s["magnates_made"] = count
    mag = {
        "key": f"magnate{count}",
        "court": aid,
        "stature": stature,
        "kind": kind,
        "lang": here[LANG],
        "rel": here[REL],
        "defense_card": None,
        "since": ctx.s["year"],
    }
    magnates(ctx).append(mag)
    ctx.s.setdefault("npc_areas", {})[aid] = mag["key"]
    ctx.log(RULE_OF[kind], f"A {kind} Magnate of Stature {stature} appears in {ctx.aname(aid)} "
            "(EMA-24.0.P-Mag4).")  # fmt: skip
    return mag


def remove(ctx: Ctx, mag: dict[str, Any], rule: str, why: str) -> None:
    """The Magnate is gone: his Areas are Independent again (24.54)."""
    for aid in areas_of(ctx, mag["key"]):
        del ctx.s["npc_areas"][aid]
    if mag.get("defense_card") is not None:
        nonplayer.discard(ctx, mag["defense_card"])
    ctx.s["magnates"] = [m for m in magnates(ctx) if m is not mag]
    ctx.log(rule, f"The Magnate of {ctx.aname(mag['court'])} is removed ({why}); his Areas "
            "are Independent again.")  # fmt: skip


def actor(ctx: Ctx, mag: dict[str, Any], base: str) -> dict[str, Any]:
    """The Magnate as he attacks from a Base (24.5, 24.7, 24.8)."""
    return {
        "name": f"the Magnate of {ctx.aname(mag['court'])}", "key": mag["key"],
        "stature": mag["stature"], "base": base, "base_ss": int(ctx.area(base)[SS]),
        "lang": mag["lang"], "rel": mag["rel"], "mods": mag["kind"] == "normal",
    }  # fmt: skip


def _reach(ctx: Ctx, mag: dict[str, Any]) -> list[str]:
    """The Magnate's Areas joined overland to his Court (24.51)."""
    mine = set(areas_of(ctx, mag["key"]))
    seen, todo = {mag["court"]}, [mag["court"]]
    while todo:
        for b in ctx.d.land_adj[todo.pop()]:
            if b in mine and b not in seen:
                seen.add(b)
                todo.append(b)
    return sorted(seen)


def choose(ctx: Ctx, mag: dict[str, Any]) -> tuple[str, str, dict[str, Any]] | None:
    """The next Endeavor: the highest-SS Area next to his joined Areas, ties to the closest in
    Religion and Language, then a die; Conquest, or Pillage when only that is possible (24.51,
    24.52, A-49). None when neither is."""
    reach = _reach(ctx, mag)
    mine = set(areas_of(ctx, mag["key"]))
    found = sorted({b for a in reach for b in ctx.d.land_adj[a]} - mine)
    if not found:
        return None

    def closeness(aid: str) -> int:
        here = ctx.area(aid)
        return lang_relation(mag["lang"], here[LANG]) + rel_relation(mag["rel"], here[REL])

    rolls = {a: rng.die(ctx.s) for a in found} if len(found) > 1 else {found[0]: 0}
    target = min(found, key=lambda a: (-ctx.area(a)[SS], closeness(a), -rolls[a], a))
    bases = [a for a in reach if target in ctx.d.land_adj[a]]
    base = max(bases, key=lambda a: (ctx.area(a)[SS], a))  # his best-SS Base next to it
    who = actor(ctx, mag, base)
    if nonplayer.rating(ctx, who, "conquest", target) >= 0:
        return "conquest", target, who
    if nonplayer.rating(ctx, who, "pillage", target) >= 0:  # ≥ 0, as 9.18
        return "pillage", target, who
    return None


def phase(ctx: Ctx) -> None:
    """Push the Magnate Phase of this Round when the rule is on (6.0 III.4)."""
    if raiders.active(ctx):
        ctx.push({"kind": "magnates", "started": False, "queue": [], "left": 0})


@handlers.step("magnates")
def _magnates(ctx: Ctx, frame: Frame) -> None:
    """Roll for a new Magnate, then each Magnate in order of appearance plays his cards (24.0)."""
    if not frame["started"]:
        frame["started"] = True
        _roll_for_one(ctx)
        frame["queue"] = [m["key"] for m in magnates(ctx)]
        frame["left"] = -1
        return
    mag = next((m for m in magnates(ctx) if frame["queue"] and m["key"] == frame["queue"][0]), None)
    if mag is None:
        if not frame["queue"]:
            ctx.pop()
        else:
            frame["queue"], frame["left"] = frame["queue"][1:], -1
        return
    if frame["left"] < 0:
        frame["left"] = ATTACKS[mag["kind"]]
        if mag["kind"] != "mongol" and mag.get("defense_card") is None:
            mag["defense_card"] = nonplayer.draw(ctx)  # 24.53: the fifth card, held for Defense
    pending = frame.get("pending")
    if pending is not None:
        frame["pending"] = None
        _play(ctx, frame, mag, pending)
    elif frame["left"] == 0 or (picked := choose(ctx, mag)) is None:
        if frame["left"] > 0:
            ctx.log("EMA-24.51", f"The Magnate of {ctx.aname(mag['court'])} has no Target he can "
                    "attack: his cards go unused (A-49).")  # fmt: skip
        frame["queue"], frame["left"] = frame["queue"][1:], -1
    else:
        kind, target, who = picked
        frame["who"] = who
        nonplayer.offer_defense(ctx, frame, who, kind, target)


def _play(ctx: Ctx, frame: Frame, mag: dict[str, Any], pending: dict[str, Any]) -> None:
    number = nonplayer.draw(ctx)
    if number is None:
        frame["left"] = 0
        return
    card = nonplayer.resolve(ctx, frame["who"], pending, number, "EMA-24.53")
    nonplayer.discard(ctx, number)
    frame["left"] -= 1
    if 5 in card["checks"]:
        remove(ctx, mag, "EMA-24.54", f"Year Card {number} lists a Stature Check for 5")
        frame["left"] = 0


def _roll_for_one(ctx: Ctx) -> None:
    """24.0 P-Mag1-P-Mag3: no roll with three on the map; no Magnate if the Area will not take one."""
    if len(magnates(ctx)) >= MAX_MAGNATES:
        ctx.log("EMA-24.0.P-Mag1", "Three Magnates are on the map: no appearance roll.")
        return
    found = appearance(ctx, ctx.s["year"])
    if found is None:
        return
    aid, stature, kind = found
    if not may_appear(ctx, aid, kind):
        ctx.log("EMA-24.0.P-Mag3", f"No Magnate appears in {ctx.aname(aid)} this Round.")
        return
    exile = returning_exile(ctx, aid)
    if exile is not None:
        exile_returns(ctx, exile, aid)
        return
    appear(ctx, aid, stature, kind)


def returning_exile(ctx: Ctx, aid: str) -> int | None:
    """The exile of exactly the Area's Language and Religion, if any (21.3 (d), A-40); with
    several, the lowest-numbered seat (authored)."""
    here = ctx.area(aid)
    for seat, me in enumerate(ctx.s["seats"]):
        if me["exile"] and me["lang"] == here[LANG] and me["rel"] == here[REL]:
            return seat
    return None


def exile_returns(ctx: Ctx, seat: int, aid: str) -> None:
    """21.3 (d), A-40: where a Magnate would appear in an Area of an exile's Language and
    Religion, the exile takes the Area instead and returns with his Court there. The rising is
    the Magnate's would have been: a Player's Area in Unrest leaves him as in a Rebellion, and
    the SS comes up to its Norm (24.0 P4)."""
    from rules.ema.territory import transfer

    _rising(ctx, aid)
    ctx.log("EMA-21.3", f"Instead of a Magnate, {ctx.name(seat)} rises in {ctx.aname(aid)} "
            "(A-40).")  # fmt: skip
    transfer(ctx, aid, seat, "trade")


def defend(ctx: Ctx, en: dict[str, Any]) -> int:
    """24.53: a Magnate's held card is played at once against the first Conquest or Pillage aimed
    at any of his Areas; it lowers that ER by his Combat Stature. Returns the reduction."""
    key = ctx.s.get("npc_areas", {}).get(en["target"])
    mag = next((m for m in magnates(ctx) if m["key"] == key), None)
    if en["kind"] not in ("conquest", "pillage") or mag is None or mag["defense_card"] is None:
        return 0
    number = mag["defense_card"]
    mag["defense_card"] = None
    nonplayer.discard(ctx, number)
    ctx.log("EMA-24.53", f"The Magnate of {ctx.aname(mag['court'])} defends "
            f"{ctx.aname(en['target'])} with Year Card {number}: ER −{mag['stature']}.")  # fmt: skip
    if 5 in ctx.d.year_cards[number]["checks"]:
        remove(ctx, mag, "EMA-24.54", f"Year Card {number} lists a Stature Check for 5")
    return int(mag["stature"])


def tidy(ctx: Ctx) -> None:
    """After any change: Areas Players took leave their Magnate; a Magnate without his Court is
    gone (authored, A-49)."""
    if not raiders.active(ctx):
        return
    nonplayer.forget_taken(ctx)
    held = ctx.s.get("npc_areas", {})
    for mag in list(magnates(ctx)):
        if held.get(mag["court"]) != mag["key"]:
            remove(ctx, mag, "EMA-24.5", "his Court has fallen")


handlers.ROUND_PHASES[4] = phase  # 6.0 III.4
handlers.AFTER_ACTION.append(tidy)
handlers.ANNOUNCE.append(lambda ctx, en: _announce(ctx, en))


def _announce(ctx: Ctx, en: dict[str, Any]) -> None:
    if raiders.active(ctx):
        cut = defend(ctx, en)
        if cut:
            en["npc_defense"] = cut
