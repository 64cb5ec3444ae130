"""Effectiveness Ratings (9.3, 9.35): Section A minus Section B, per Endeavor."""

from __future__ import annotations

from functools import cache

from rules.ema.state import (
    FORT,
    LANG,
    OWNER,
    PARTIAL,
    REL,
    SS,
    Ctx,
    data,
    relation_pair,
    tech_bonus,
)


def modifier(ctx: Ctx, seat: int, aid: str, endeavor: str) -> int:
    """Language plus Religion modifier of the matrix (9.34), added to Section B."""
    me = ctx.s["seats"][seat]
    if endeavor == "conquest" and me["empire"] == "TUR" and "zeal_of_the_turks" in ctx.s["special"]:
        return 0  # 31.7 Zeal of the Turks
    here = ctx.s["areas"][aid]  # `ctx.area`, inline: this runs for every Target searched
    union = ctx.s.get("schism") == "union"
    return _matrix(endeavor, me["lang"], me["rel"], me["excom"], union, here[LANG], here[REL])


@cache
def _matrix(
    endeavor: str, lang: str, rel: str, excom: bool, union: bool, area_lang: str, area_rel: str
) -> int:
    """The matrix's modifier for a Leader's and an Area's Language and Religion (9.34)."""
    lang_found, rel_found = relation_pair(lang, rel, excom, union, area_lang, area_rel)
    table = data().tables["modifiers"][endeavor]
    return int(table["lang"][lang_found] + table["rel"][rel_found])


def enemy_c(ctx: Ctx, seat: int, aid: str) -> int:
    """Enemy C results against the owner's own Area (10.33)."""
    partial = ctx.s["areas"][aid][PARTIAL]
    return sum(p["n"] for p in partial if p["seat"] != seat) if partial else 0


def side_a(ctx: Ctx, seat: int, kind: str, base: str | None) -> int:
    """What an Endeavor's ER gains from the seat and its Base alone (9.35, 10.33).

    `raw` is `side_a` less `side_b`, so a search over many Targets from one Base works the
    first out once.
    """
    me = ctx.seat(seat)
    if kind in ("conquest", "convert", "pillage"):
        # Combat + Base SS + weapons, less the enemy C results on the Base (10.33)
        b = str(base)
        here = ctx.s["areas"][b]
        return int(me["st"]["c"] + here[SS] + tech_bonus(ctx, seat) - enemy_c(ctx, seat, b))
    if kind == "diplomacy":
        b = str(base)
        here = ctx.s["areas"][b]
        # 10.33 penalises the owner of the Base; an exile's host Court is not his
        enemy = enemy_c(ctx, seat, b) if here[OWNER] == seat else 0
        return int(me["st"]["d"] + here[SS] - enemy)
    return int(me["st"]["a"])  # Ruling and Fortification: Administration


def side_b(ctx: Ctx, seat: int, kind: str, target: str) -> int:
    """What an Endeavor's ER loses to its Target (9.35, 7.41, 7.42, 12.17; A-07)."""
    t = ctx.s["areas"][target]
    if kind in ("conquest", "convert"):
        # Target SS + forts + modifiers
        return int(t[SS] + t[FORT] + modifier(ctx, seat, target, "conquest"))
    if kind == "pillage":
        # the Target's Population counts for the Pillager
        pop = ctx.d.areas[target]["population"]
        return int(t[SS] + t[FORT] + modifier(ctx, seat, target, "pillage") - pop)
    if kind == "diplomacy":
        return int(
            t[SS] + target_diplomacy(ctx, seat, target) + modifier(ctx, seat, target, "diplomacy")
        )
    if kind == "ruling":
        # |SS| always counts against Ruling (7.17 read as Ruling, A-07)
        return int(abs(t[SS]) + modifier(ctx, seat, target, "ruling") + enemy_c(ctx, seat, target))
    # Fortification: SS added (the literal 7.17 by option, A-07) and Population
    ss = t[SS]
    sign = ss if ctx.s["options"]["fortification_ss"] == "add" else -abs(ss)
    pop = ctx.d.areas[target]["population"]
    mod = modifier(ctx, seat, target, "fortification")
    return int(mod + enemy_c(ctx, seat, target) - sign - pop)


def target_diplomacy(ctx: Ctx, seat: int, target: str) -> int:
    """What the Target's side opposes: its owner's Diplomacy, 3 if Independent, 5 for Venice (12.17, A-18)."""
    owner = ctx.s["areas"][target][OWNER]
    if owner is None:
        return 5 if target == "venice" else 3
    if owner == seat:
        return 0
    return int(ctx.seat(owner)["st"]["d"])


def defense(ctx: Ctx, defender: int) -> int:
    """A Defense lowers the attacker's ER by Combat, and 3 per weapons card (13.21)."""
    return int(ctx.seat(defender)["st"]["c"] + tech_bonus(ctx, defender))


def raw(ctx: Ctx, seat: int, kind: str, base: str | None, target: str) -> int:
    """The ER of an Endeavor before halving, gold and Defense: Section A less Section B."""
    return side_a(ctx, seat, kind, base) - side_b(ctx, seat, kind, target)


def conquest(ctx: Ctx, seat: int, base: str, target: str) -> int:
    """Combat + Base SS − (Target SS + forts + modifiers), plus weapons, minus partial penalty."""
    return raw(ctx, seat, "conquest", base, target)


def pillage(ctx: Ctx, seat: int, base: str, target: str) -> int:
    """Combat + Base SS + Target Population − (Target SS + forts + modifiers) (7.41)."""
    return raw(ctx, seat, "pillage", base, target)


def ruling(ctx: Ctx, seat: int, target: str) -> int:
    """Administration − |SS| − modifiers (9.35; 7.17 read as Ruling, A-07)."""
    return raw(ctx, seat, "ruling", None, target)


def fortification(ctx: Ctx, seat: int, target: str) -> int:
    """Administration + SS + Population − modifiers (9.35, 7.42); literal 7.17 by option (A-07)."""
    return raw(ctx, seat, "fortification", None, target)


def diplomacy(ctx: Ctx, seat: int, base: str, target: str) -> int:
    """Diplomacy + Base (Court) SS − (Target SS + opposing Diplomacy + modifiers + enemy C) (9.35, 10.33)."""
    return raw(ctx, seat, "diplomacy", base, target)


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
        found = [stature, ("Base SS", int(ctx.area(str(base))[SS]))]
        if kind == "pillage":
            found.append(("Target Population", int(ctx.d.areas[target]["population"])))
        found += [
            ("Weapons and Tactics", tech_bonus(ctx, seat)),
            ("Target SS", -int(t[SS])),
            ("Fortification", -int(t[FORT])),
            mod,
            ("Enemy C results on the Base", -enemy_c(ctx, seat, str(base))),
        ]
    elif kind == "ruling":
        found = [
            stature,
            ("Target SS (always against)", -abs(int(t[SS]))),
            mod,
            ("Enemy C results", -enemy_c(ctx, seat, target)),
        ]
    elif kind == "fortification":
        ss = int(t[SS]) if ctx.s["options"]["fortification_ss"] == "add" else -abs(int(t[SS]))
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
            ("Court SS", int(ctx.area(str(base))[SS])),
            ("Target SS", -int(t[SS])),
            ("Opposing Diplomacy", -target_diplomacy(ctx, seat, target)),
            mod,
        ]
        if ctx.area(str(base))[OWNER] == seat:
            found.append(("Enemy C results on the Court", -enemy_c(ctx, seat, str(base))))
    return [(label, value) for label, value in found if value or label == stature[0]]
