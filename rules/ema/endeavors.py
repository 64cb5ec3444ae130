"""Endeavors (9.0): announce, offer a Defense, fix gold, pay, turn up the cards, apply, check."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.ema import cards, er, handlers, leaders, targets, windows
from rules.ema.empire import court_costs, foreign_cost, halve
from rules.ema.handlers import option
from rules.ema.state import OWNER, Ctx, Frame

NAMES = {
    "conquest": "Conquest",
    "pillage": "Pillage",
    "convert": "Conversion (Conquest of own Area)",
    "ruling": "Ruling",
    "fortification": "Fortification",
    "diplomacy": "Diplomacy",
}
GROUPS = handlers.GROUPS  # by printed (7.3) Language, so every Area falls in one of them
RESOLVERS: dict[str, Any] = {}
BACKS = 4  # Endeavors cancelled at their Base in one Player-Turn: then one is carried through


def count_back(ctx: Ctx) -> None:
    """Count a step back (a cancelled Endeavor, a declined Fortification reduction) in the Grand
    Scenario, whose 140 Rounds of random play would otherwise wander back too often; elsewhere a
    step back leaves the position as it was."""
    if "grand" in ctx.s:
        asks = ctx.s.setdefault("turn_asks", {})
        asks["back"] = int(asks.get("back", 0)) + 1


def group_of(ctx: Ctx, aid: str) -> str:
    """The language group of an Area, for splitting the Diplomacy target list."""
    return handlers.area_group(ctx, aid)


def begin(ctx: Ctx, seat: int, kind: str) -> None:
    """Start announcing an Endeavor: choose Base and Target step by step (9.0 P2)."""
    stage = "base" if kind in targets.COMBAT else ("group" if kind == "diplomacy" else "target")
    ctx.push(
        {
            "kind": "declare",
            "seat": seat,
            "endeavor": kind,
            "stage": stage,
            "base": None,
            "group": None,
        }
    )


def declare_targets(ctx: Ctx, frame: Frame) -> list[str]:
    """The Targets a declare frame at its target stage offers, in the order of its options."""
    seat, kind = frame["seat"], frame["endeavor"]
    if frame["stage"] != "target":
        return []
    if kind in targets.COMBAT:
        return targets.foreign_targets(ctx, seat, kind, frame["base"])
    if kind == "diplomacy":
        return [
            t for t in targets.diplomacy_targets(ctx, seat) if group_of(ctx, t) == frame["group"]
        ]
    return targets.domestic_targets(ctx, seat, kind)


def declare_base(ctx: Ctx, frame: Frame) -> str | None:
    """The Base the Endeavor being declared will use (the Court, or the host's, for Diplomacy)."""
    if frame["endeavor"] == "diplomacy":
        return targets.diplomacy_base(ctx, frame["seat"])
    base: str | None = frame["base"]
    return base


def rating(
    ctx: Ctx, seat: int, kind: str, base: str | None, target: str, seas: int | None = None
) -> dict[str, Any]:
    """An ER before gold and Defense: raw, its terms, the Seas and the halved value (9.3, 9.32, 9.35)."""
    if seas is None:
        seas = seas_of(ctx, seat, kind, base, target)
    raw = er.raw(ctx, seat, kind, base, target)
    halved = seas == 2
    return {
        "raw": raw,
        "terms": [
            {"label": label, "value": value}
            for label, value in er.terms(ctx, seat, kind, base, target)
        ],
        "seas": seas,
        "halved": halved,
        "value": halve(ctx.s, raw) if halved else raw,
    }


def announced_rating(ctx: Ctx, en: dict[str, Any]) -> dict[str, Any]:
    """The announced Endeavor's ER: `rating`, then Defense, gold on both sides and the final ER (9.32, 13.0)."""
    found = rating(ctx, en["seat"], en["kind"], en["base"], en["target"], en["seas"])
    defense = er.defense(ctx, en["defender"]) if en["defender"] is not None else 0
    found.update(defense=defense, gold=en["gold"], dgold=en["dgold"], final=final_er(ctx, en))
    return found


def _target_label(ctx: Ctx, frame: Frame, target: str) -> str:
    seat, kind, base = frame["seat"], frame["endeavor"], declare_base(ctx, frame)
    value = targets.rated(ctx, seat, kind, base, target)
    if seas_of(ctx, seat, kind, base, target) == 2:
        value = halve(ctx.s, value)
    name = (
        f"Target {ctx.aname(target)}"
        if kind in targets.COMBAT or kind == "diplomacy"
        else f"{NAMES[kind]} in {ctx.aname(target)}"
    )
    return f"{name} (ER {value})"


def _declare_options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat, kind = frame["seat"], frame["endeavor"]
    backs = int(ctx.s.get("turn_asks", {}).get("back", 0))
    cancel = frame["stage"] in ("base", "group") and backs < BACKS
    opts = [option({"cancel": True}, "Cancel")] if cancel else []
    if frame["stage"] == "base":
        opts += [
            option({"base": b}, f"Base {ctx.aname(b)}")
            for b in targets.foreign_bases(ctx, seat, kind)
        ]
    elif frame["stage"] == "group":
        found = {group_of(ctx, t) for t in targets.diplomacy_targets(ctx, seat)}
        opts += [option({"group": g}, f"Areas of the {g} languages") for g in GROUPS if g in found]
    elif kind in targets.COMBAT:
        # the search works out each Target's Seas and ER: the labels show them as `_target_label`
        opts += [
            option({"target": t}, f"Target {ctx.aname(t)} (ER {value})")
            for t, value in targets.foreign_rated(ctx, seat, kind, frame["base"])
        ]
    elif kind in ("ruling", "fortification"):
        # likewise for the Areas of a Ruling or Fortification (`_target_label`'s words)
        opts += [
            option({"target": t}, f"{NAMES[kind]} in {ctx.aname(t)} (ER {value})")
            for t, value in targets.domestic_rated(ctx, seat, kind)
        ]
    else:
        opts += [
            option({"target": t}, _target_label(ctx, frame, t)) for t in declare_targets(ctx, frame)
        ]
    return opts


def _declare_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    if "cancel" in action:
        ctx.pop()
        count_back(ctx)
    elif "base" in action:
        frame["base"], frame["stage"] = action["base"], "target"
    elif "group" in action:
        frame["group"], frame["stage"] = action["group"], "target"
    else:
        ctx.pop()
        announce(ctx, frame["seat"], frame["endeavor"], frame["base"], action["target"])


handlers.decision(
    "declare",
    "EMA-9.0.P2",
    lambda ctx, f: f"{NAMES[f['endeavor']]}: choose the {f['stage']}",
    _declare_options,
    _declare_choose,
)


def seas_of(ctx: Ctx, seat: int, kind: str, base: str | None, target: str) -> int:
    """Effective Seas of the chain (9.5); none for Diplomacy (12.12)."""
    if kind == "diplomacy":
        return 0
    if kind in targets.COMBAT:
        return int(foreign_cost(ctx.s, seat, str(base), target) or 0)
    return targets.domestic_seas(ctx, seat, target)


def announce(ctx: Ctx, seat: int, kind: str, base: str | None, target: str) -> None:
    """Fix the Endeavor, then offer a Defense to the owner of an attacked Area (9.0 P4, 13.0)."""
    if kind == "diplomacy":
        base = targets.diplomacy_base(ctx, seat)
    seas = seas_of(ctx, seat, kind, base, target)
    cost = targets.base_cost(ctx, kind) + seas
    owner = ctx.area(target)[OWNER]
    ctx.s["endeavor"] = {
        "seat": seat,
        "kind": kind,
        "base": base,
        "target": target,
        "seas": seas,
        "cost": cost,
        "gold": 0,
        "defender": None,
        "dseas": 0,
        "dgold": 0,
    }
    ctx.log(
        "EMA-9.0.P4",
        f"{ctx.name(seat)} announces {NAMES[kind]} against {ctx.aname(target)}"
        + (f" from {ctx.aname(base)}" if base and kind != "diplomacy" else "")
        + f" (ER {er.raw(ctx, seat, kind, base, target)} before gold, cost {cost}).",
    )
    for hook in handlers.ANNOUNCE:
        hook(ctx, ctx.s["endeavor"])  # 24.53: a Magnate's held card defends his Area at once
    ctx.push({"kind": "resolve", "seat": seat})
    windows.open_window(
        ctx, "start", seat
    )  # 19.2: others may play Holding cards before the cards turn up
    ctx.push({"kind": "att_gold", "seat": seat})
    if (
        kind in ("conquest", "pillage")
        and owner is not None
        and owner != seat
        and may_defend(ctx, owner, target)
    ):
        ctx.push({"kind": "defend", "seat": owner})


def may_defend(ctx: Ctx, seat: int, target: str) -> bool:
    """An unplayed card, fewer than four Defenses, a connected Area and the gold (13.1x, A-19)."""
    me = ctx.seat(seat)
    linked = court_costs(ctx.s, seat)
    if not me["years"] or me["defenses"] >= ctx.d.tables["max_defenses"] or target not in linked:
        return False
    return bool(me["gold"] >= ctx.d.tables["costs"]["defense"] + linked[target])


def er_before_defense(ctx: Ctx, en: dict[str, Any]) -> int:
    """The attacker's ER with halving but before gold and Defense (9.32)."""
    value = er.raw(ctx, en["seat"], en["kind"], en["base"], en["target"])
    return halve(ctx.s, value) if en["seas"] == 2 else value


def final_er(ctx: Ctx, en: dict[str, Any]) -> int:
    """ER after Defense, halving of the non-gold part, then gold on both sides (9.32, 13.0 P4)."""
    value = er.raw(ctx, en["seat"], en["kind"], en["base"], en["target"])
    if en["defender"] is not None:
        value -= er.defense(ctx, en["defender"])
    value -= en.get("npc_defense", 0)  # 24.53: a Magnate's Defense
    if en["seas"] == 2:
        value = halve(ctx.s, value)
    return int(value + en["gold"] - en["dgold"])


def _gold_options(ctx: Ctx, frame: Frame) -> list[Option]:
    en = ctx.s["endeavor"]
    spare = ctx.seat(frame["seat"])["gold"] - en["cost"]
    low = max(0, -er_before_defense(ctx, en))
    return [
        option({"gold": g}, f"Spend {g} extra gold (ER +{g})")
        for g in range(low, min(spare, low + 30) + 1)
    ]


def _gold_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    en = ctx.s["endeavor"]
    en["gold"] = action["gold"]
    if en["defender"] is not None:
        ctx.push({"kind": "def_gold", "seat": en["defender"]})


handlers.decision(
    "att_gold",
    "EMA-9.33",
    lambda ctx, f: "Extra gold for this Endeavor (fixed once announced)",
    _gold_options,
    _gold_choose,
)


@handlers.step("resolve")
def _resolve(ctx: Ctx, frame: Frame) -> None:
    """Pay, turn up the cards, apply the results and make Stature Checks (9.0 P5–P9)."""
    ctx.pop()
    en = ctx.s["endeavor"]
    windows.open_window(
        ctx, "end", en["seat"]
    )  # runs after whatever this Endeavor asks (contests, Courts)
    seat, defender = en["seat"], en["defender"]
    me = ctx.seat(seat)
    me["gold"] -= en["cost"] + en["gold"]
    card = cards.turn_up(
        ctx, seat, {"use": "endeavor", "endeavor": en["kind"], "target": en["target"]}
    )
    value = final_er(ctx, en)
    ctx.log(
        "EMA-9.0.P6",
        f"{ctx.name(seat)} turns up {cards.describe(card, row_of(en['kind']))}: ER {value}.",
    )
    dcard = None
    if defender is not None:
        ctx.seat(defender)["gold"] -= ctx.d.tables["costs"]["defense"] + en["dseas"] + en["dgold"]
        ctx.seat(defender)["defenses"] += 1
        dcard = cards.turn_up(
            ctx, defender, {"use": "defense", "endeavor": en["kind"], "target": en["target"]}
        )
        ctx.log(
            "EMA-13.22",
            f"{ctx.name(defender)} turns up Year Card {dcard['number']} for the Defense; "
            "its results are ignored.",
        )
    me["endeavors"] += 1
    me["heirless_guard"] = (
        False  # 19.2 Dynastic: his first Endeavor after the Heirless draw ends the shelter
    )
    RESOLVERS[en["kind"]](ctx, en, card, value)
    stature = me["st"][targets.STATURE_OF[en["kind"]]]
    if leaders.card_calls_check(card, stature):
        leaders.stature_check(ctx, seat, "EMA-8.2")
    if (
        dcard is not None
        and defender is not None
        and leaders.card_calls_check(dcard, ctx.seat(defender)["st"]["c"])
    ):
        leaders.stature_check(ctx, defender, "EMA-9.0.P9")
    ctx.s["endeavor"] = None


def row_of(kind: str) -> str:
    """The Year Card row an Endeavor reads (Conversion reads Conquest, 22.2)."""
    return "conquest" if kind == "convert" else kind


def applying(card: dict[str, Any], kind: str, value: int) -> list[dict[str, Any]]:
    """Results that apply; below ER 0 only the harm to the active Base (9.18, 13.22)."""
    found = cards.results(card, row_of(kind), value)
    if value < 0:
        return [r for r in found if r["e"] == "-1" and r["col"] == "base"]
    return found
