"""What Raiders and Magnates share (24.0): their Year Cards, their Combat Endeavors and the
Defense a Player may make against them. No seat controls them; the engine plays them.

An *actor* is a dict describing the Raider or Magnate for one Endeavor: `name`, `stature`
(its Combat Stature), `base` (an Area or None), `base_ss`, `lang`, `rel`, `mods` (whether the
Religion/Language matrix applies, 24.7, 24.8) and `key` (where its partial conquests are kept).
"""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.ema import cards, endeavors, handlers, leaders
from rules.ema.defense import choices as defense_choices
from rules.ema.empire import court_costs
from rules.ema.state import Ctx, Frame, change_ss, lang_relation, rel_relation, tech_bonus
from rules.ema.territory import transfer


def draw(ctx: Ctx) -> int | None:
    """A Year Card for a Raider or Magnate from what the Players' deal left (A-47); when none is
    left, the cards the Raiders and Magnates played this Round are reshuffled."""
    deck = ctx.s["year_deck"]
    if not deck:
        played = ctx.s.setdefault("npc_played", [])
        deck += played
        played.clear()
        rng.shuffle(ctx.s, deck)
    return int(deck.pop(0)) if deck else None


def discard(ctx: Ctx, number: int) -> None:
    """A played Raider or Magnate card, face up until the Round ends (A-47)."""
    ctx.s.setdefault("npc_played", []).append(number)


def round_end(ctx: Ctx) -> None:
    """Every Raider and Magnate card goes back to the Year deck for the next deal."""
    ctx.s["year_deck"] += ctx.s.pop("npc_played", [])
    for mag in ctx.s.get("magnates", []):
        if mag.get("defense_card") is not None:
            ctx.s["year_deck"].append(mag["defense_card"])
            mag["defense_card"] = None


def modifier(ctx: Ctx, actor: dict[str, Any], target: str, kind: str) -> int:
    """The Religion/Language matrix between the actor and the Target (9.34; none for 24.7, 24.8)."""
    if not actor["mods"]:
        return 0
    here = ctx.area(target)
    lang = lang_relation(actor["lang"], here["lang"])
    rel = rel_relation(actor["rel"], here["rel"])
    table = ctx.d.tables["modifiers"][kind]
    return int(table["lang"][lang] + table["rel"][rel])


def rating(ctx: Ctx, actor: dict[str, Any], kind: str, target: str) -> int:
    """Conquest or Pillage ER of a Raider or Magnate before any Defense (9.35, 24.0 Procedure)."""
    here = ctx.area(target)
    a_side = actor["stature"] + actor["base_ss"]
    if kind == "pillage":
        a_side += ctx.d.areas[target]["population"]
    return int(a_side - (here["ss"] + here["fort"] + modifier(ctx, actor, target, kind)))


def offer_defense(ctx: Ctx, frame: Frame, actor: dict[str, Any], kind: str, target: str) -> bool:
    """Note the attack in `frame["pending"]` and ask the owner about a Defense; True if asked."""
    owner = ctx.area(target)["owner"]
    frame["pending"] = {"kind": kind, "target": target, "defender": None, "asked": False}
    # A Player may Defend his Area as against another Player (13.1x, 24.0 Procedure).
    if owner is None or not endeavors.may_defend(ctx, owner, target):
        return False
    frame["pending"]["asked"] = True
    ctx.push(
        {
            "kind": "npc_defend",
            "seat": owner,
            "actor": actor["name"],
            "target": target,
            "what": kind,
        }
    )
    return True


def _defend_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    if action["defend"]:
        ctx.s["stack"][-1]["pending"]["defender"] = frame["seat"]
        ctx.log(
            "EMA-13.0.P1",
            f"{ctx.name(frame['seat'])} defends {ctx.aname(frame['target'])} against "
            f"{frame['actor']}.",
        )


handlers.decision(
    "npc_defend",
    "EMA-24.0.P-Raid",
    lambda ctx, f: f"{f['actor']} attacks {ctx.aname(f['target'])} ({f['what']}): defend it?",
    lambda ctx, f: defense_choices(ctx, f["seat"], f["target"]),
    _defend_choose,
)


def defense(ctx: Ctx, seat: int, target: str) -> int:
    """Pay for and turn up the Defender's card; return what it takes off the ER (13.2x)."""
    me = ctx.seat(seat)
    me["gold"] -= ctx.d.tables["costs"]["defense"] + court_costs(ctx.s, seat)[target]
    me["defenses"] += 1
    card = cards.turn_up(ctx, seat, {"use": "defense", "endeavor": None, "target": target})
    ctx.log("EMA-13.22", f"{ctx.name(seat)} turns up Year Card {card['number']} for the Defense.")
    if leaders.card_calls_check(card, me["st"]["c"]):
        leaders.stature_check(ctx, seat, "EMA-9.0.P9")
    return int(me["st"]["c"] + tech_bonus(ctx, seat))


def resolve(
    ctx: Ctx, actor: dict[str, Any], pending: dict[str, Any], number: int, rule: str
) -> dict[str, Any]:
    """Play one card of a Raider or Magnate against the pending Target and apply it.

    Returns the card; Raiders and Magnates never take gold (24.0 Procedure, 24.5).
    """
    kind, target = pending["kind"], pending["target"]
    value = rating(ctx, actor, kind, target)
    if pending["defender"] is not None:
        value -= defense(ctx, pending["defender"], target)
    value -= int(pending.get("cut", 0))  # a Magnate's held card against a Crusader (24.53)
    card: dict[str, Any] = ctx.d.year_cards[number]
    ctx.log(
        rule,
        f"{actor['name']} ({'Conquest' if kind == 'conquest' else 'Pillage'}) against "
        f"{ctx.aname(target)}: {cards.describe(card, kind)}, ER {value}.",
    )
    for result in endeavors.applying(card, kind, value):
        if result["e"] == "C":
            _c_result(ctx, actor, target, rule)
        elif result["e"] == "-1" and result["col"] == "base":
            if actor["base"] is not None and change_ss(ctx, actor["base"], -1):
                ctx.log(rule, f"{ctx.aname(actor['base'])} ({actor['name']}'s Base) loses 1 SS.")
        elif result["e"] == "-1" and change_ss(ctx, target, -1):
            ctx.log(rule, f"{ctx.aname(target)} loses 1 SS to {actor['name']}.")
    return card


def _c_result(ctx: Ctx, actor: dict[str, Any], target: str, rule: str) -> None:
    """A C result of a Raider or Magnate: conquered at its Population (10.3) by the actor."""
    partial = ctx.s.setdefault("npc_partial", {})
    key = f"{actor['key']}:{target}"
    partial[key] = int(partial.get(key, 0)) + 1
    need = max(1, int(ctx.d.areas[target]["population"]))
    if partial[key] < need:
        ctx.log(
            rule,
            f"{actor['name']}: C result against {ctx.aname(target)}, {partial[key]} of {need}.",
        )
        return
    for k in [k for k in partial if k.endswith(f":{target}")]:
        del partial[k]
    owner = ctx.area(target)["owner"]
    if owner is not None:
        transfer(ctx, target, None, "conquest")
    else:
        here = ctx.area(target)
        here["fort"] = 2 if here["fort"] == 3 else 0  # 14.41
        here["partial"] = []
    ctx.area(target)["unrest"] = False  # no Unrest where no Player taxes
    ctx.s.setdefault("npc_areas", {})[target] = actor["key"]
    ctx.log(rule, f"{actor['name']} conquers {ctx.aname(target)} from {ctx.name(owner)}.")


def forget_taken(ctx: Ctx) -> None:
    """An Area a Player has taken is no longer a Raider's or Magnate's (23.32, 24.5x)."""
    held = ctx.s.get("npc_areas")
    if held:
        for aid in [a for a in held if ctx.area(a)["owner"] is not None]:
            del held[aid]
