"""Battles (HRE-BASE-BSEQ): Volley, Charge, Melee, damage and the Battle Result.

Side 0 is the attacker, side 1 the defender (a player, or the Barbarians with seat None).
Each unit in a battle is {"t": type, "tr": Transient, "own": seat or None, "d": damage,
"p": damage assigned this phase, "dead": bool}. Deaths within a phase are applied together.
"""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import Option
from rules.hre import handlers, outcome
from rules.hre.handlers import option
from rules.hre.outcome import level
from rules.hre.state import (
    UNITS,
    Ctx,
    Frame,
    modifier_total,
    modifiers,
    neighbours,
    unit_stats,
)

PHASES = ("volley", "charge", "melee")
NEXT_AFTER_CANCEL = {"cancel0": "cancel1", "cancel1": "apply"}
TYPE_RANK = {"cavalry": 0, "archer": 1, "infantry": 2}


def start(ctx: Ctx, seat: int, src: str, dest: str, group: dict[str, int]) -> None:
    """Set up the two armies and begin with the Volley (BARB-02..04, PVP-02)."""
    here = ctx.s["prov"][dest]
    attackers = [_unit(u, False, seat) for u in UNITS for _ in range(group.get(u, 0))]
    frame = new_frame(seat, seat, here["owner"], dest, src)
    if here["barb"] is not None:
        frame["def"] = None
        frame["token"] = here["barb"]["token"]
        defenders = _barbarians(ctx, seat, here)
    else:
        defenders = [_unit(u, False, here["owner"]) for u in UNITS for _ in range(here["units"][u])]
        defenders += [_unit("infantry", True, here["owner"]) for _ in range(here["farms"])]
        if here["city"]:
            defenders.append(_unit("archer", True, here["owner"]))
        here["units"] = dict.fromkeys(UNITS, 0)
        ctx.log(
            "HRE-BASE-PVP-02",
            f"The defender adds {here['farms']} Transient infantry for Farms"
            + (" and a Transient archer for the City." if here["city"] else "."),
        )
    frame["sides"] = [attackers, defenders]
    for i, who in enumerate((frame["att"], frame["def"])):
        frame["cancel"][i] = modifier_total(ctx.s, who, "cancel_damage") if who is not None else 0
    ctx.push(frame)


def new_frame(seat: int, att: int | None, dfn: int | None, prov: str, origin: str) -> Frame:
    """A battle frame before its armies are set, in the order its keys are stored."""
    return {
        "kind": "battle",
        "seat": seat,
        "att": att,
        "def": dfn,
        "prov": prov,
        "origin": origin,
        "token": None,
        "phase": 0,
        "stage": "roll",
        "hits": [0, 0],
        "cancel": [0, 0],
        "rolls": [[], []],
    }


def _unit(kind: str, transient: bool, own: int | None) -> dict[str, Any]:
    return {"t": kind, "tr": transient, "own": own, "d": 0, "p": 0, "dead": False}


def _barbarians(ctx: Ctx, seat: int, here: dict[str, Any]) -> list[dict[str, Any]]:
    """The token's units plus one escalating extra by trophies held (BARB-02..04)."""
    token = ctx.d.token_specs[here["barb"]["token"]]
    if here["barb"]["face"] == "reward":
        ctx.log("HRE-BASE-BARB-02", "The Barbarian token is flipped to show its units.")
    here["barb"] = None
    army = [_unit(u, True, None) for u in UNITS for _ in range(token["units"].get(u, 0))]
    track = ctx.d.board["trophy_track"]
    extra = track[min(len(ctx.seat(seat)["trophies"]), len(track) - 1)]["extra"]
    if extra:
        army.append(_unit(extra, True, None))
    desc = ", ".join(f"{token['units'][u]} {u}" for u in UNITS if token["units"].get(u))
    ctx.log(
        "HRE-BASE-BARB-04",
        f"The Barbarians fight with {desc}" + (f" and an extra {extra}." if extra else "."),
    )
    return army


def stats(ctx: Ctx, unit: dict[str, Any]) -> dict[str, Any]:
    """A battle unit's combat values: its owner's top level, or the Barbarian card (BARB-03)."""
    if unit["own"] is None:
        if "st" in unit:
            carried: dict[str, Any] = unit["st"]  # a module's units with levels (M01 Raiders)
            return carried
        found: dict[str, Any] = ctx.d.barbarian_units[unit["t"]]
        return found
    return unit_stats(ctx.s, unit["own"], unit["t"])


@handlers.step("battle")
def _battle(ctx: Ctx, frame: Frame) -> None:
    stage = frame["stage"]
    if stage == "roll":
        _roll_phase(ctx, frame)
        frame["stage"] = "assign0"
    elif stage in ("assign0", "assign1"):
        side = int(stage[-1])
        if not _assign_step(ctx, frame, side):
            frame["stage"] = "assign1" if side == 0 else "cancel0"
    elif stage in ("cancel0", "cancel1"):
        side = int(stage[-1])
        if not _cancel_step(ctx, frame, side):
            frame["stage"] = NEXT_AFTER_CANCEL[stage]
    elif stage == "apply":
        _apply_damage(ctx, frame)
        frame["phase"] += 1
        frame["stage"] = "roll" if frame["phase"] < len(PHASES) else "result"
    else:
        ctx.s["stack"].pop()
        outcome.resolve(ctx, frame)


def _keep_bonus(ctx: Ctx, frame: Frame, side: int) -> int:
    """+1 per Keep level the side controls in the contested or a neighbouring province (BSEQ-05)."""
    who = frame["att"] if side == 0 else frame["def"]
    if who is None:
        return 0
    provs = ctx.s["prov"]
    places = [frame["prov"], *neighbours(ctx.s, frame["prov"])]
    own = [p for p in places if provs[p]["owner"] == who]
    return int(sum(provs[p]["keep"] for p in own))


def _dice_for(ctx: Ctx, frame: Frame, side: int, phase: str) -> list[int]:
    """The thresholds of every die a side rolls this phase, extra Technology dice included."""
    alive = [u for u in frame["sides"][side] if not u["dead"]]
    shown = [stats(ctx, u).get(phase) for u in alive]
    dice = [t for t in shown if t is not None]
    who = frame["att"] if side == 0 else frame["def"]
    if who is not None:
        for mod in modifiers(ctx.s, who, "extra_die"):
            carrier = next((u for u in alive if u["t"] == mod["unit"]), None)
            if mod["phase"] == phase and carrier and stats(ctx, carrier).get(phase) is not None:
                dice.append(stats(ctx, carrier)[phase])
    return [int(t) for t in dice]


def count_hits(rolls: list[int], needs: list[int], bonus: int, natural_one: bool) -> int:
    """Hits from rolls against thresholds, spending +1s greedily where they turn a miss (BSEQ-05, -06).

    A final value of 1 always misses (AMB-15); with the natural-1 option a rolled 1 misses
    whatever is added to it.
    """
    hits, gaps = 0, []
    for roll, need in zip(rolls, needs, strict=True):
        if roll >= need and roll != 1:
            hits += 1
        elif not (natural_one and roll == 1):
            gaps.append(max(need - roll, 2 - roll))
    for gap in sorted(gaps):
        if gap > bonus:
            break
        bonus -= gap
        hits += 1
    return hits


def _roll_phase(ctx: Ctx, frame: Frame) -> None:
    """Both sides roll at once for every eligible unit (BSEQ-02..05, -09)."""
    phase = PHASES[frame["phase"]]
    natural = ctx.s["options"].get("natural_one") == "natural"
    for side in (0, 1):
        needs = _dice_for(ctx, frame, side, phase)
        rolls = [rng.die(ctx.s) for _ in needs]
        bonus = _keep_bonus(ctx, frame, side) if phase == "melee" else 0
        if "boost" in frame:  # a module's +1s for this phase, e.g. a Combat card (HRE-M09-PLAY-02)
            bonus += int(frame["boost"][side].get(phase, 0))
        hits = count_hits(rolls, needs, bonus, natural)
        frame["hits"][side] = hits
        frame["rolls"][side] = rolls
        who = ctx.name(frame["att"] if side == 0 else frame["def"])
        shown = " ".join(f"{r}(≥{n})" for r, n in zip(rolls, needs, strict=True)) or "no dice"
        extra = f", +{bonus} from Keeps" if bonus else ""
        if bonus and "boost" in frame:
            extra = f", +{bonus} from Keeps and cards"
        ctx.log(
            f"HRE-BASE-BSEQ-0{3 + frame['phase']}",
            f"{phase.capitalize()}: {who} rolls {shown}{extra}: {hits} hits.",
        )


def _armour_left(ctx: Ctx, unit: dict[str, Any]) -> int:
    return int(stats(ctx, unit)["armour"]) - int(unit["d"]) - int(unit["p"])


def targets(ctx: Ctx, units: list[dict[str, Any]]) -> list[int]:
    """Indexes of units that can still take damage: alive and not already doomed (AMB-22)."""
    return [i for i, u in enumerate(units) if not u["dead"] and _armour_left(ctx, u) > 0]


def _classes(ctx: Ctx, units: list[dict[str, Any]]) -> dict[tuple[str, bool, int], int]:
    """Targets grouped by what tells them apart: type, Transient, damage so far."""
    found: dict[tuple[str, bool, int], int] = {}
    for i in targets(ctx, units):
        u = units[i]
        found.setdefault((u["t"], u["tr"], u["d"] + u["p"]), i)
    return found


def auto_target(ctx: Ctx, units: list[dict[str, Any]], phase: int) -> int:
    """The automatic priority for hits against a player (HRE-M01-GEN-02/03, used by AMB-17).

    Between units alike so far, a non-Transient unit is hit before a Transient one and only then
    does the type order (Cavalry, Archers, Infantry) decide (AMB-77's reading)."""

    def key(i: int) -> tuple[int, int, int, int, int, int]:
        u = units[i]
        left = _armour_left(ctx, u)
        return (
            0 if left == 1 else 1,
            0 if u["d"] + u["p"] else 1,
            left,
            -level(ctx, u),
            1 if u["tr"] else 0,
            TYPE_RANK[u["t"]],
        )

    return min(targets(ctx, units), key=key)


def _assign_step(ctx: Ctx, frame: Frame, side: int) -> bool:
    """Assign one of the side's hits; push a decision when there is a real choice."""
    enemy = frame["sides"][1 - side]
    if frame["hits"][side] <= 0 or not targets(ctx, enemy):
        frame["hits"][side] = 0
        return False
    chooser = frame["att"] if side == 0 else frame["def"]
    if chooser is None and ctx.s["options"].get("barbarian_hits") == "left_neighbour":
        chooser = (frame["att"] + 1) % len(ctx.s["seats"])  # AMB-17 option
    classes = _classes(ctx, enemy)
    if chooser is None or len(classes) == 1:
        index = (
            auto_target(ctx, enemy, frame["phase"])
            if chooser is None
            else next(iter(classes.values()))
        )
        enemy[index]["p"] += 1
        frame["hits"][side] -= 1
        return True
    ctx.push({"kind": "assign", "seat": chooser, "side": side})
    return True


def _assign_options(ctx: Ctx, frame: Frame) -> list[Option]:
    battle = ctx.s["stack"][-2]
    enemy = battle["sides"][1 - frame["side"]]
    opts = []
    for (kind, transient, dmg), index in sorted(_classes(ctx, enemy).items()):
        label = f"Hit a {'Transient ' if transient else ''}{kind}" + (
            f" ({dmg} damage so far)" if dmg else ""
        )
        opts.append(option({"hit": index}, label))
    return opts


def _assign_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    battle = ctx.s["stack"][-1]
    battle["sides"][1 - frame["side"]][action["hit"]]["p"] += 1
    battle["hits"][frame["side"]] -= 1


handlers.decision(
    "assign",
    "HRE-BASE-BSEQ-07",
    lambda ctx, f: f"Assign your hits ({ctx.s['stack'][-2]['hits'][f['side']]} left)",
    _assign_options,
    _assign_choose,
)


def _cancel_step(ctx: Ctx, frame: Frame, side: int) -> bool:
    """After both sides assign, the owner of a cancel may remove assigned damage (BSEQ-10, AMB-23)."""
    owner = frame["att"] if side == 0 else frame["def"]
    hurt = [u for u in frame["sides"][side] if u["p"] > 0]
    if owner is None or frame["cancel"][side] <= 0 or not hurt:
        return False
    ctx.push({"kind": "cancel_damage", "seat": owner, "side": side})
    return True


def _cancel_options(ctx: Ctx, frame: Frame) -> list[Option]:
    battle = ctx.s["stack"][-2]
    units = battle["sides"][frame["side"]]
    seen: dict[tuple[str, bool, int, int], int] = {}
    for i, u in enumerate(units):
        if u["p"] > 0:
            seen.setdefault((u["t"], u["tr"], u["d"], u["p"]), i)
    opts = [
        option(
            {"cancel": i}, f"Cancel 1 damage on a {'Transient ' if tr else ''}{t} ({p} assigned)"
        )
        for (t, tr, _, p), i in sorted(seen.items())
    ]
    return [
        *opts,
        option({"cancel": None}, f"Keep the rest ({battle['cancel'][frame['side']]}) for later"),
    ]


def _cancel_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    battle = ctx.s["stack"][-1]
    side = frame["side"]
    if action["cancel"] is None:
        battle["stage"] = NEXT_AFTER_CANCEL[battle["stage"]]
        return
    unit = battle["sides"][side][action["cancel"]]
    unit["p"] -= 1
    battle["cancel"][side] -= 1
    ctx.log("HRE-BASE-BSEQ-10", f"{ctx.name(frame['seat'])} cancels 1 damage on a {unit['t']}.")


handlers.decision(
    "cancel_damage",
    "HRE-BASE-BSEQ-10",
    lambda ctx, f: "A Technology lets you cancel damage assigned to your units",
    _cancel_options,
    _cancel_choose,
)


def _apply_damage(ctx: Ctx, frame: Frame) -> None:
    """Units whose damage reaches their Armour die, all at once (BSEQ-07, -09)."""
    for side in frame["sides"]:
        for unit in side:
            unit["d"] += unit["p"]
            unit["p"] = 0
            if not unit["dead"] and unit["d"] >= stats(ctx, unit)["armour"]:
                unit["dead"] = True
    lost = [sum(1 for u in side if u["dead"]) for side in frame["sides"]]
    ctx.log(
        "HRE-BASE-BSEQ-07",
        f"After the {PHASES[frame['phase']]}: attacker has lost {lost[0]}, "
        f"defender {lost[1]} units.",
    )
