"""The Research action (HRE-BASE-RESEARCH) and Technology effects revealed on the board."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.hre import handlers
from rules.hre.economy import gain
from rules.hre.handlers import option
from rules.hre.state import Ctx, Frame, capital, in_supply, unit_level

MAX_COMMON = 4


def immediate(ctx: Ctx, seat: int, effects: list[dict[str, Any]], rule: str) -> None:
    """Resolve 'Immediate!' effects once, as the level is revealed (RESEARCH-04)."""
    for effect in effects:
        if "gain" in effect:
            gain(ctx, seat, effect["gain"], rule, " (Immediate!)")
        elif "remove_farm" in effect:
            me = ctx.seat(seat)
            moved = min(int(effect["remove_farm"]), me["farms_track"])
            me["farms_track"] -= moved
            me["farms_boxed"] += moved
            ctx.log(
                "HRE-BASE-SETTLE-09",
                f"{ctx.name(seat)} removes {moved} Farm from the board "
                "to the box, raising the Army limit.",
            )
        elif "free_unit" in effect:
            place_free_unit(ctx, seat, effect["free_unit"], rule)


def place_free_unit(ctx: Ctx, seat: int, unit: str, rule: str) -> None:
    """Place one unit from supply in the Capital, if any is left."""
    home = capital(ctx.s, seat)
    if home is None or in_supply(ctx.s, seat, unit) <= 0:
        return
    ctx.s["prov"][home]["units"][unit] += 1
    ctx.log(rule, f"{ctx.name(seat)} places a free {unit} in {ctx.d.provinces[home]['name']}.")


def military_plays(ctx: Ctx, seat: int) -> list[tuple[str, int]]:
    """Military Technology halves exactly one level above the current one (RESEARCH-07)."""
    plays = []
    for card in ctx.seat(seat)["hand"]:
        spec = ctx.d.cards[card]
        if spec["type"] != "military_tech":
            continue
        for i, half in enumerate(spec["halves"]):
            if half["level"] == unit_level(ctx.s, seat, half["unit"]) + 1:
                plays.append((card, i))
    return plays


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat = frame["seat"]
    me = ctx.seat(seat)
    opts: list[Option] = []
    if len(me["techs"]) < MAX_COMMON:
        for card in me["hand"]:
            if ctx.d.cards[card]["type"] == "common_tech":
                opts.append(
                    option(
                        {"research": "common", "card": card},
                        f"Research {ctx.d.cards[card]['name']} (level 1)",
                    )
                )
    if me["gold"] >= 1:
        for tech in me["techs"]:
            if tech["level"] < 3:
                opts.append(
                    option(
                        {"research": "upgrade", "card": tech["card"]},
                        f"Pay 1 Gold: raise {ctx.d.cards[tech['card']]['name']} "
                        f"to level {tech['level'] + 1}",
                    )
                )
        for card, i in military_plays(ctx, seat):
            half = ctx.d.cards[card]["halves"][i]
            opts.append(
                option(
                    {"research": "military", "card": card, "half": i},
                    f"Pay 1 Gold: {ctx.d.cards[card]['name']} as level {half['level']} "
                    f"{half['unit']}",
                )
            )
    return opts or [
        option({"research": None}, "Nothing can be researched: the action has no effect")
    ]


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    seat, kind = frame["seat"], action["research"]
    me = ctx.seat(seat)
    if kind is None:
        ctx.nothing_done()
        return
    card = action["card"]
    spec = ctx.d.cards[card]
    if kind == "common":
        me["hand"].remove(card)
        me["techs"].append({"card": card, "level": 1})
        ctx.log("HRE-BASE-RESEARCH-02", f"{ctx.name(seat)} researches {spec['name']}.")
        immediate(ctx, seat, spec["levels"][0].get("immediate", []), "HRE-BASE-RESEARCH-04")
    elif kind == "upgrade":
        me["gold"] -= 1
        tech = next(t for t in me["techs"] if t["card"] == card)
        tech["level"] += 1
        ctx.log(
            "HRE-BASE-RESEARCH-05",
            f"{ctx.name(seat)} pays 1 Gold to raise {spec['name']} to level {tech['level']}.",
        )
        immediate(
            ctx,
            seat,
            spec["levels"][tech["level"] - 1].get("immediate", []),
            "HRE-BASE-RESEARCH-04",
        )
    else:
        half = spec["halves"][action["half"]]
        me["gold"] -= 1
        me["hand"].remove(card)
        old = me["mil"][half["unit"]]
        if old is not None:
            me["mil_under"].append(old["card"])
        me["mil"][half["unit"]] = {"card": card, "half": action["half"]}
        ctx.log(
            "HRE-BASE-RESEARCH-07",
            f"{ctx.name(seat)} pays 1 Gold for {spec['name']}: "
            f"{half['unit']} now level {half['level']}.",
        )


handlers.decision(
    "research",
    "HRE-BASE-RESEARCH-01",
    lambda ctx, f: "Research: play or upgrade a Technology",
    _options,
    _choose,
)
