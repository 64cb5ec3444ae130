"""Effectiveness Ratings (9.3, 9.35): Section A minus Section B, per Endeavor."""

from __future__ import annotations

from rules.ema.state import Ctx, relations, tech_bonus


def modifier(ctx: Ctx, seat: int, aid: str, endeavor: str) -> int:
    """Language plus Religion modifier of the matrix (9.34), added to Section B."""
    if (
        endeavor == "conquest"
        and "zeal_of_the_turks" in ctx.s["special"]
        and ctx.seat(seat)["empire"] == "TUR"
    ):
        return 0  # 31.7 Zeal of the Turks
    lang, rel = relations(ctx, seat, aid)
    table = ctx.d.tables["modifiers"][endeavor]
    return int(table["lang"][lang] + table["rel"][rel])


def enemy_c(ctx: Ctx, seat: int, aid: str) -> int:
    """Enemy C results against the owner's own Area (10.33)."""
    return sum(p["n"] for p in ctx.area(aid)["partial"] if p["seat"] != seat)


def conquest(ctx: Ctx, seat: int, base: str, target: str) -> int:
    """Combat + Base SS − (Target SS + forts + modifiers), plus weapons, minus partial penalty."""
    me, b, t = ctx.seat(seat), ctx.area(base), ctx.area(target)
    a_side = me["st"]["c"] + b["ss"] + tech_bonus(ctx, seat)
    b_side = (
        t["ss"] + t["fort"] + modifier(ctx, seat, target, "conquest") + enemy_c(ctx, seat, base)
    )
    return int(a_side - b_side)


def pillage(ctx: Ctx, seat: int, base: str, target: str) -> int:
    """Combat + Base SS + Target Population − (Target SS + forts + modifiers) (7.41)."""
    me, b, t = ctx.seat(seat), ctx.area(base), ctx.area(target)
    pop = ctx.d.areas[target]["population"]
    a_side = me["st"]["c"] + b["ss"] + pop + tech_bonus(ctx, seat)
    b_side = t["ss"] + t["fort"] + modifier(ctx, seat, target, "pillage") + enemy_c(ctx, seat, base)
    return int(a_side - b_side)


def ruling(ctx: Ctx, seat: int, target: str) -> int:
    """Administration − |SS| − modifiers (9.35; 7.17 read as Ruling, A-07)."""
    ss = ctx.area(target)["ss"]
    value = ctx.seat(seat)["st"]["a"] - abs(ss) - modifier(ctx, seat, target, "ruling")
    return int(value - enemy_c(ctx, seat, target))


def fortification(ctx: Ctx, seat: int, target: str) -> int:
    """Administration + SS + Population − modifiers (9.35, 7.42); literal 7.17 by option (A-07)."""
    ss = ctx.area(target)["ss"]
    sign = ss if ctx.s["options"]["fortification_ss"] == "add" else -abs(ss)
    pop = ctx.d.areas[target]["population"]
    value = ctx.seat(seat)["st"]["a"] + sign + pop - modifier(ctx, seat, target, "fortification")
    return int(value - enemy_c(ctx, seat, target))


def target_diplomacy(ctx: Ctx, seat: int, target: str) -> int:
    """What the Target's side opposes: its owner's Diplomacy, 3 if Independent, 5 for Venice (12.17, A-18)."""
    owner = ctx.area(target)["owner"]
    if owner is None:
        return 5 if target == "venice" else 3
    if owner == seat:
        return 0
    return int(ctx.seat(owner)["st"]["d"])


def diplomacy(ctx: Ctx, seat: int, base: str, target: str) -> int:
    """Diplomacy + Base (Court) SS − (Target SS + opposing Diplomacy + modifiers + enemy C) (9.35, 10.33)."""
    me, t = ctx.seat(seat), ctx.area(target)
    a_side = me["st"]["d"] + ctx.area(base)["ss"]
    b_side = (
        t["ss"] + target_diplomacy(ctx, seat, target) + modifier(ctx, seat, target, "diplomacy")
    )
    if (
        ctx.area(base)["owner"] == seat
    ):  # 10.33 penalises the owner of the Base; an exile's host Court is not his
        b_side += enemy_c(ctx, seat, base)
    return int(a_side - b_side)


def defense(ctx: Ctx, defender: int) -> int:
    """A Defense lowers the attacker's ER by Combat, and 3 per weapons card (13.21)."""
    return int(ctx.seat(defender)["st"]["c"] + tech_bonus(ctx, defender))


def raw(ctx: Ctx, seat: int, kind: str, base: str | None, target: str) -> int:
    """The ER of an Endeavor before halving, gold and Defense."""
    if kind in ("conquest", "convert"):
        return conquest(ctx, seat, str(base), target)
    if kind == "pillage":
        return pillage(ctx, seat, str(base), target)
    if kind == "diplomacy":
        return diplomacy(ctx, seat, str(base), target)
    if kind == "ruling":
        return ruling(ctx, seat, target)
    return fortification(ctx, seat, target)


STATURE_LABELS = {"c": "Combat Stature", "a": "Administrative Stature", "d": "Diplomacy Stature"}
STATURE_OF = {
    "conquest": "c",
    "convert": "c",
    "pillage": "c",
    "ruling": "a",
    "fortification": "a",
    "diplomacy": "d",
}


def terms(ctx: Ctx, seat: int, kind: str, base: str | None, target: str) -> list[tuple[str, int]]:
    """The terms of `raw`, Section A positive and Section B negative; zero terms left out but the Stature (9.35)."""
    me, t = ctx.seat(seat), ctx.area(target)
    row = "conquest" if kind == "convert" else kind
    stature = (STATURE_LABELS[STATURE_OF[kind]], int(me["st"][STATURE_OF[kind]]))
    mod = ("Language and Religion", -modifier(ctx, seat, target, row))
    if kind in ("conquest", "convert", "pillage"):
        found = [stature, ("Base SS", int(ctx.area(str(base))["ss"]))]
        if kind == "pillage":
            found.append(("Target Population", int(ctx.d.areas[target]["population"])))
        found += [
            ("Weapons and Tactics", tech_bonus(ctx, seat)),
            ("Target SS", -int(t["ss"])),
            ("Fortification", -int(t["fort"])),
            mod,
            ("Enemy C results on the Base", -enemy_c(ctx, seat, str(base))),
        ]
    elif kind == "ruling":
        found = [
            stature,
            ("Target SS (always against)", -abs(int(t["ss"]))),
            mod,
            ("Enemy C results", -enemy_c(ctx, seat, target)),
        ]
    elif kind == "fortification":
        ss = int(t["ss"]) if ctx.s["options"]["fortification_ss"] == "add" else -abs(int(t["ss"]))
        found = [
            stature,
            ("Area SS", ss),
            ("Population", int(ctx.d.areas[target]["population"])),
            mod,
            ("Enemy C results", -enemy_c(ctx, seat, target)),
        ]
    else:
        found = [
            stature,
            ("Court SS", int(ctx.area(str(base))["ss"])),
            ("Target SS", -int(t["ss"])),
            ("Opposing Diplomacy", -target_diplomacy(ctx, seat, target)),
            mod,
        ]
        if ctx.area(str(base))["owner"] == seat:
            found.append(("Enemy C results on the Court", -enemy_c(ctx, seat, str(base))))
    return [(label, value) for label, value in found if value or label == stature[0]]
