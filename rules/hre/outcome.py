"""What a battle's result does: Barbarians (HRE-BASE-BARB) and opponents (HRE-BASE-PVP)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.core.words import counted
from rules.hre import handlers, modules
from rules.hre.economy import gain
from rules.hre.handlers import option
from rules.hre.state import (
    RESOURCES,
    UNITS,
    Ctx,
    Frame,
    army_limit,
    capital,
    in_supply,
    modifier_total,
    neighbours,
    refresh_owner,
    unit_count,
    unit_level,
)


def survivors(frame: Frame, side: int) -> dict[str, int]:
    """Non-Transient survivors of a side by type; Transient units all go back (BARB-11, PVP-13)."""
    found = dict.fromkeys(UNITS, 0)
    for unit in frame["sides"][side]:
        if not unit["dead"] and not unit["tr"]:
            found[unit["t"]] += 1
    return found


def _place(ctx: Ctx, seat: int, prov: str, units: dict[str, int]) -> None:
    here = ctx.s["prov"][prov]
    for unit, n in units.items():
        here["units"][unit] += n
    if sum(units.values()):
        here["owner"] = seat


def level(ctx: Ctx, unit: dict[str, Any]) -> int:
    """A unit's level for the Battle Result; Barbarians count 1 (AMB-20, BSEQ-12)."""
    if unit["own"] is None:
        return int(unit.get("lv", 1))  # Barbarians 1; a module's Raiders their level (AMB-46)
    return unit_level(ctx.s, unit["own"], unit["t"])


def battle_result(ctx: Ctx, frame: Frame, side: int) -> int:
    """Levels of survivors, the defender's Keep, Technology bonuses and reductions (BSEQ-11)."""
    who = frame["att"] if side == 0 else frame["def"]
    foe = frame["def"] if side == 0 else frame["att"]
    total = sum(level(ctx, u) for u in frame["sides"][side] if not u["dead"])
    if side == 1 and who is not None:
        total += int(ctx.s["prov"][frame["prov"]]["keep"])
    if who is not None:
        total += modifier_total(ctx.s, who, "bonus_result")
    if foe is not None:
        total -= modifier_total(ctx.s, foe, "reduce_enemy_result")
    if "bonus" in frame:  # a module's battle bonus, e.g. a Combat card (HRE-M09-PLAY-02)
        total += int(frame["bonus"][side])
    return max(0, total)


def resolve(ctx: Ctx, frame: Frame) -> None:
    """Compare Battle Results; the attacker wins only when strictly higher (BARB-07, PVP-04)."""
    mine, theirs = battle_result(ctx, frame, 0), battle_result(ctx, frame, 1)
    won = mine > theirs or (mine == theirs and modules.attacker_wins_tie(ctx, frame))
    ctx.log(
        "HRE-BASE-BSEQ-11",
        f"Battle Result: attacker {mine}, defender {theirs}: the attacker "
        + ("wins." if won else "loses."),
    )
    if frame["def"] is None:
        _barbarian_outcome(ctx, frame, won)
        if won:
            modules.battle_won(ctx, frame)
    elif won:
        _pvp_win(ctx, frame)
        modules.battle_won(ctx, frame)
    else:
        _place(ctx, frame["def"], frame["prov"], survivors(frame, 1))
        refresh_owner(ctx.s, frame["prov"])
        _retreat_attacker(ctx, frame, "HRE-BASE-PVP-12")


def _retreat_attacker(ctx: Ctx, frame: Frame, rule: str) -> None:
    back = survivors(frame, 0)
    lost = rule != "HRE-BASE-PVP-11"  # not the way home after plundering a Capital
    if lost and modules.attacker_retreats(ctx, frame, back):
        return
    _place(ctx, frame["att"], frame["origin"], back)
    if sum(back.values()):
        ctx.log(
            rule,
            f"{ctx.name(frame['att'])}'s surviving units go back to "
            f"{ctx.d.provinces[frame['origin']]['name']}.",
        )


def _barbarian_outcome(ctx: Ctx, frame: Frame, won: bool) -> None:
    """Win: trophy, its VP and the reward; loss: retreat, token back unit side up (AMB-16)."""
    seat, token = frame["att"], frame["token"]
    if not won:
        ctx.s["prov"][frame["prov"]]["barb"] = {"token": token, "face": "units"}
        _retreat_attacker(ctx, frame, "HRE-BASE-BARB-10")
        return
    me = ctx.seat(seat)
    track = ctx.d.board["trophy_track"]
    vp = int(track[min(len(me["trophies"]), len(track) - 1)]["vp"])
    vp += modifier_total(ctx.s, seat, "barbarian_vp")
    me["trophies"].append(token)
    _place(ctx, seat, frame["prov"], survivors(frame, 0))
    me["vp"] += vp
    ctx.log(
        "HRE-BASE-BARB-08",
        f"{ctx.name(seat)} beats the Barbarians in "
        f"{ctx.d.provinces[frame['prov']]['name']}, takes the trophy and scores {vp} VP.",
    )
    reward = ctx.d.token_specs[token]["reward"]
    if reward.get("extra_turn"):
        turn = next(f for f in reversed(ctx.s["stack"]) if f["kind"] in ("turn", "turn_end"))
        turn["extra"] += 1
        ctx.log("HRE-BASE-BARB-09", f"{ctx.name(seat)} will take another turn.")
    else:
        gain(ctx, seat, reward["gain"], "HRE-BASE-BARB-08", " as the Barbarians' reward")


def _pvp_win(ctx: Ctx, frame: Frame) -> None:
    """An opponent's province taken, or their Capital plundered (PVP-05..11)."""
    att, dfn, prov = frame["att"], frame["def"], frame["prov"]
    if capital(ctx.s, dfn) == prov:
        vp = army_limit(ctx.s, dfn)
        ctx.seat(att)["vp"] += vp
        ctx.log("HRE-BASE-PVP-10", f"{ctx.name(att)} wins at {ctx.name(dfn)}'s Capital: +{vp} VP.")
        _place(ctx, dfn, prov, survivors(frame, 1))
        _retreat_attacker(ctx, frame, "HRE-BASE-PVP-11")
        if loot_options(ctx, dfn):
            ctx.push({"kind": "loot", "seat": att, "from": dfn})
        return
    here = ctx.s["prov"][prov]
    farms, here["farms"] = here["farms"], 0
    ctx.seat(dfn)["farms_track"] += farms
    here["owner"] = None
    _place(ctx, att, prov, survivors(frame, 0))
    ctx.log("HRE-BASE-PVP-08", f"{ctx.name(att)} takes {ctx.d.provinces[prov]['name']}.")
    if farms:
        owner = ctx.name(dfn)
        ctx.log(
            "HRE-BASE-PVP-06",
            f"{counted(farms, 'Farm')} {'goes' if farms == 1 else 'go'} back to "
            f"{owner}{chr(39) if owner.endswith('s') else chr(39) + 's'} Farm track.",
        )
    retreating = survivors(frame, 1)
    if sum(retreating.values()):
        _retreat_defender(ctx, dfn, prov, retreating)
    # Only after the survivors are placed (or carried by a pending retreat) does the supply show
    # how many infantry Revanchism can really offer (AMB-27). The book retreats first, so a
    # pending retreat stays on top and is decided before Revanchism (PVP-05, PVP-07).
    if farms and in_supply(ctx.s, dfn, "infantry") > 0:
        stack = ctx.s["stack"]
        at = len(stack) - 1 if stack and stack[-1]["kind"] == "retreat" else len(stack)
        stack.insert(at, {"kind": "revanchism", "seat": dfn, "farms": farms})


def _retreat_defender(ctx: Ctx, seat: int, prov: str, units: dict[str, int]) -> None:
    """To a neighbouring province the defender controls, their choice; else killed (PVP-05)."""
    places = [q for q in neighbours(ctx.s, prov) if ctx.s["prov"][q]["owner"] == seat]
    if not places:
        ctx.log(
            "HRE-BASE-PVP-05",
            f"{ctx.name(seat)}'s surviving units have nowhere to retreat and are killed.",
        )
    elif len(places) == 1:
        _place(ctx, seat, places[0], units)
        ctx.log(
            "HRE-BASE-PVP-05",
            f"{ctx.name(seat)}'s survivors retreat to {ctx.d.provinces[places[0]]['name']}.",
        )
    else:
        ctx.push({"kind": "retreat", "seat": seat, "prov": prov, "carry": units})


def retreat_label(name: str, there: int) -> str:
    """A retreat option's label; it counts the units already there (standing answers read it)."""
    return f"Retreat to {name} ({there} unit{'' if there == 1 else 's'} there)"


def _retreat_options(ctx: Ctx, frame: Frame) -> list[Option]:
    return [
        option(
            {"to": q},
            retreat_label(ctx.d.provinces[q]["name"], unit_count(ctx.s["prov"][q]["units"])),
        )
        for q in neighbours(ctx.s, frame["prov"])
        if ctx.s["prov"][q]["owner"] == frame["seat"]
    ]


def _retreat_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    _place(ctx, frame["seat"], action["to"], frame["carry"])
    ctx.log(
        "HRE-BASE-PVP-05",
        f"{ctx.name(frame['seat'])}'s survivors retreat to "
        f"{ctx.d.provinces[action['to']]['name']}.",
    )


def _revanchism_options(ctx: Ctx, frame: Frame) -> list[Option]:
    most = min(frame["farms"], in_supply(ctx.s, frame["seat"], "infantry"))
    return [
        option({"infantry": n}, f"Place {n} free infantry in your Capital") for n in range(most + 1)
    ]


def _revanchism_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    """Up to one free Infantry in the Capital per returned Farm; not a Recruit (PVP-07, AMB-27)."""
    ctx.s["stack"].pop()
    home = capital(ctx.s, frame["seat"])
    if action["infantry"] and home is not None:
        ctx.s["prov"][home]["units"]["infantry"] += action["infantry"]
        ctx.log(
            "HRE-BASE-PVP-07",
            f"Revanchism: {ctx.name(frame['seat'])} places "
            f"{action['infantry']} infantry in {ctx.d.provinces[home]['name']}.",
        )


def loot_options(ctx: Ctx, seat: int) -> list[str]:
    """What can be taken from a plundered Capital's owner (PVP-09, AMB-28)."""
    me = ctx.seat(seat)
    return (["gold"] if me["gold"] else []) + [r for r in RESOURCES if me["res"][r]]


def _loot_options(ctx: Ctx, frame: Frame) -> list[Option]:
    return [option({"take": k}, f"Take 1 {k}") for k in loot_options(ctx, frame["from"])]


def _loot_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    victim, thief, what = ctx.seat(frame["from"]), ctx.seat(frame["seat"]), action["take"]
    if what == "gold":
        victim["gold"] -= 1
        thief["gold"] += 1
    else:
        victim["res"][what] -= 1
        thief["res"][what] += 1
    ctx.log(
        "HRE-BASE-PVP-09",
        f"{ctx.name(frame['seat'])} takes 1 {what} from {ctx.name(frame['from'])}.",
    )


handlers.decision(
    "retreat",
    "HRE-BASE-PVP-05",
    lambda ctx, f: "Choose where your survivors retreat",
    _retreat_options,
    _retreat_choose,
)
handlers.decision(
    "revanchism",
    "HRE-BASE-PVP-07",
    lambda ctx, f: "Revanchism: place free infantry in your Capital",
    _revanchism_options,
    _revanchism_choose,
)
handlers.decision(
    "loot",
    "HRE-BASE-PVP-09",
    lambda ctx, f: "Take 1 Gold or 1 resource from the defender",
    _loot_options,
    _loot_choose,
)
