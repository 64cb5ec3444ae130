"""Effectiveness Ratings as players read them: each term of Section A and B, from the engine's own functions.

The engine's view does not carry the ER or its terms, so this module rebuilds, from the view and the
scenario's static data, the few state fields the engine's rating functions read (areas, seats,
options, the scenario's special rules and seafaring additions), and asks rules.ema.er for every
term. The sum of the terms is checked against er.raw, so a change in the engine shows as a missing
breakdown, never as a wrong one.
"""

from __future__ import annotations

from typing import Any

from rules.ema import er
from rules.ema.empire import court_costs, foreign_cost, halve
from rules.ema.engine import SLUGS
from rules.ema.state import Ctx, data, tech_bonus

STATURE_NAMES = {"c": "Combat", "a": "Administrative", "d": "Diplomacy"}
STATURE_OF = {"conquest": "c", "convert": "c", "pillage": "c", "ruling": "a", "fortification": "a",
              "diplomacy": "d"}
KIND_NAMES = {"conquest": "Conquest", "pillage": "Pillage", "convert": "Conversion", "ruling": "Ruling",
              "fortification": "Fortification", "diplomacy": "Diplomacy"}


def public_state(view: dict[str, Any]) -> dict[str, Any]:
    """The state fields the rating and connection functions read, all public, from a view."""
    scen = data().scenarios[SLUGS[view["scenario"]][0]]
    return {"areas": view["areas"], "seats": view["seats"], "options": view["options"],
            "special": list(scen["special"]), "seafaring_extra": list(scen["seafaring_extra"]),
            "scenario": SLUGS[view["scenario"]][0], "players": view["players"], "round": view["round"],
            "year": view["year"]}


def _terms(ctx: Ctx, seat: int, kind: str, base: str | None, target: str) -> list[tuple[str, int]]:
    """Section A terms as positive numbers, Section B terms as negative ones (9.35)."""
    me, t = ctx.seat(seat), ctx.area(target)
    row = "conquest" if kind == "convert" else kind
    stature = (f"{STATURE_NAMES[STATURE_OF[kind]]} Stature", int(me["st"][STATURE_OF[kind]]))
    mod = ("Language and Religion", -er.modifier(ctx, seat, target, row))
    if kind in ("conquest", "convert", "pillage") and base is not None:
        terms = [stature, ("Base SS", int(ctx.area(base)["ss"]))]
        if kind == "pillage":
            terms.append(("Target Population", int(ctx.d.areas[target]["population"])))
        terms += [("Weapons and Tactics", tech_bonus(ctx, seat)), ("Target SS", -int(t["ss"])),
                  ("Fortification", -int(t["fort"])), mod, ("Enemy C results on the Base", -er.enemy_c(ctx, seat, base))]
    elif kind == "ruling":
        terms = [stature, ("Target SS (always against)", -abs(int(t["ss"]))), mod,
                 ("Enemy C results", -er.enemy_c(ctx, seat, target))]
    elif kind == "fortification":
        ss = int(t["ss"]) if ctx.s["options"]["fortification_ss"] == "add" else -abs(int(t["ss"]))
        terms = [stature, ("Area SS", ss), ("Population", int(ctx.d.areas[target]["population"])), mod,
                 ("Enemy C results", -er.enemy_c(ctx, seat, target))]
    elif kind == "diplomacy" and base is not None:
        terms = [stature, ("Court SS", int(ctx.area(base)["ss"])), ("Target SS", -int(t["ss"])),
                 ("Opposing Diplomacy", -er.target_diplomacy(ctx, seat, target)), mod]
    else:
        terms = []
    return [(label, value) for label, value in terms if value or label == stature[0]]


def rating(view: dict[str, Any], seat: int, kind: str, base: str | None, target: str,
           seas: int | None = None) -> dict[str, Any] | None:
    """ER before gold and Defense, with its terms and whether two Seas halve it (9.3, 9.32)."""
    ctx = Ctx(public_state(view))
    if kind in ("conquest", "convert", "pillage", "diplomacy") and base is None:
        return None
    try:
        raw = er.raw(ctx, seat, kind, base, target)
        terms = _terms(ctx, seat, kind, base, target)
        if seas is None:
            seas = _seas(ctx, seat, kind, base, target)
    except (KeyError, TypeError, ValueError):
        return None  # the engine changed what it reads: show no breakdown rather than a wrong one
    shown = terms if sum(v for _, v in terms) == raw else []
    halved = seas == 2
    return {"kind": KIND_NAMES.get(kind, kind), "raw": raw, "seas": seas, "halved": halved,
            "value": halve(ctx.s, raw) if halved else raw,
            "terms": [{"label": label, "value": value, "abs": abs(value),
                       "op": ("−" if value < 0 else "") if i == 0 else ("−" if value < 0 else "+")}
                      for i, (label, value) in enumerate(shown)]}


def _seas(ctx: Ctx, seat: int, kind: str, base: str | None, target: str) -> int:
    """Effective Seas of the chain (9.5); none for Diplomacy."""
    if kind == "diplomacy":
        return 0
    if kind in ("conquest", "convert", "pillage"):
        return int(foreign_cost(ctx.s, seat, str(base), target) or 0)
    return int(court_costs(ctx.s, seat).get(target, 0))


def announced(view: dict[str, Any]) -> dict[str, Any] | None:
    """The Endeavor announced and not yet resolved: its ER step by step, Defense and gold included."""
    en = view.get("endeavor")
    if not en:
        return None
    found = rating(view, en["seat"], en["kind"], en["base"], en["target"], en["seas"])
    if found is None:
        return None
    ctx = Ctx(public_state(view))
    defense = er.defense(ctx, en["defender"]) if en["defender"] is not None else 0
    value = found["raw"] - defense
    if found["halved"]:
        value = halve(ctx.s, value)
    found.update(defense=defense, gold=en["gold"], dgold=en["dgold"], final=value + en["gold"] - en["dgold"])
    return found
