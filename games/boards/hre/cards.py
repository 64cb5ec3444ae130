"""Culture cards as players read them: name, type and a short text generated from the card data.

The card data holds effects in a small vocabulary (rules/hre/components.py); these functions turn
that vocabulary into short phrases, so the cards need no separately maintained prose.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.hre.metadata import components

TYPE_NAMES = {
    "common_tech": "Technology",
    "military_tech": "Military Technology",
    "relic": "Relic",
    "cognomen": "Cognomen",
    "grand_building": "Grand Building",
    "benjamin": "Travels of Benjamin",
    "chrobry": "Chrobry",
}
ROMAN = {1: "I", 2: "II", 3: "III"}
GAIN_NAMES = {"gold": "Gold", "cp": "CP", "vp": "VP"}
PER_NAMES = {
    "city": "City",
    "church": "Church",
    "keep_level": "Keep level",
    "title": "Title",
    "trophy": "trophy",
    "farm": "Farm",
    "province": "province",
    "common_tech": "Technology",
    "military_tech": "Military Technology",
    "gold": "Gold",
    "region_presence": "Region you are in",
}


def amounts(values: dict[str, int]) -> str:
    """{"wood": 1, "cp": 2} → "1 wood, 2 CP"."""
    return ", ".join(f"{n} {GAIN_NAMES.get(k, k)}" for k, n in values.items())


def _modifier(mod: dict[str, Any]) -> str:
    """One ongoing effect as a phrase."""
    kind = mod["kind"]
    phrases = {
        "on_action": lambda: f"each {mod.get('action', '')}: +{amounts(mod.get('gain', {}))}",
        "after_pass": lambda: f"after passing: +{amounts(mod.get('gain', {}))}",
        "on_recruit": lambda: (
            f"on recruit: +{amounts(mod['gain'])}"
            if "gain" in mod
            else f"on recruit: a free {mod.get('free_unit')}"
        ),
        "extra_die": lambda: f"+1 {mod['unit']} die in {mod['phase']}",
        "cancel_damage": lambda: f"cancel {mod['amount']} damage per battle",
        "reduce_enemy_result": lambda: f"enemy battle result −{mod['amount']}",
        "bonus_result": lambda: f"battle result +{mod['amount']}",
        "discount": lambda: f"{mod['target']} costs {amounts(mod['cost'])} less",
        "sell_bonus": lambda: f"sell {mod['amount']} more when passing",
        "hold_bonus": lambda: f"hold {mod['amount']} more resources",
        "barbarian_vp": lambda: f"+{mod['amount']} VP per Barbarian win",
    }
    return phrases[kind]() if kind in phrases else kind.replace("_", " ")


def _immediate(effect: dict[str, Any]) -> str:
    """One "Immediate!" effect as a phrase."""
    key, arg = next(iter(effect.items()))
    if key == "gain":
        return f"now +{amounts(arg)}"
    if key == "free_unit":
        return f"now a free {arg}"
    return "now retire a Farm (Army limit up)"


def _levels(card: dict[str, Any]) -> list[str]:
    """Each Common Technology level: its VP and what it does."""
    lines = []
    for n, level in enumerate(card["levels"], start=1):
        effects = [_immediate(e) for e in level.get("immediate", [])]
        effects += [_modifier(m) for m in level.get("ongoing", [])]
        lines.append(
            f"{ROMAN[n]}: {level['vp']} VP" + (f" — {'; '.join(effects)}" if effects else "")
        )
    return lines


def half_text(half: dict[str, Any]) -> str:
    """A Military Technology half: unit, level, battle values and recruit cost."""
    stats = [f"{k} {half[k]}+" for k in ("volley", "charge", "melee") if half.get(k) is not None]
    return (
        f"{half['unit'].capitalize()} {ROMAN[half['level']]}: {', '.join(stats)}, armour {half['armour']}; "
        f"costs {amounts(half['cost'])}"
    )


def _scoring(card: dict[str, Any]) -> list[str]:
    """Cognomen-style scoring lines."""
    return [
        f"{s['vp']} VP per {PER_NAMES.get(s['per'], s['per'])}"
        + (f" (max {s['max']})" if "max" in s else "")
        for s in card.get("scoring", [])
    ]


def _relic(card: dict[str, Any]) -> list[str]:
    """What a Relic does when played with a Church."""
    relic = card["relic"]
    parts = []
    if "discount" in relic:
        parts.append(f"Church costs {amounts(relic['discount'])} less")
    if "gain" in relic:
        parts.append(f"gain {amounts(relic['gain'])}")
    return [f"With a Church: {'; '.join(parts)}"]


def lines(card: dict[str, Any]) -> list[str]:
    """The short text of any card, one line per level, half or effect."""
    kind = card["type"]
    if kind == "common_tech":
        return _levels(card) + _scoring(card)
    if kind == "military_tech":
        return [half_text(h) for h in card["halves"]]
    if kind == "relic":
        return _relic(card)
    if kind == "cognomen":
        return ["On pass: " + "; ".join(_scoring(card))]
    return [str(card.get("text", ""))]


def card(card_id: str) -> dict[str, Any]:
    """A card for display: id, name, type name, type slug and text lines."""
    name, kind, type_name, text = _card(card_id)
    return {"id": card_id, "name": name, "type": kind, "type_name": type_name, "lines": list(text)}


@cache
def _card(card_id: str) -> tuple[str, str, str, tuple[str, ...]]:
    """What card() shows, worked out once per card: the card data never changes while the site
    runs, and every board drawn shows the offer's cards (a fifth of the board context's cost)."""
    spec = components().cards[card_id]
    kind = spec["type"]
    return spec["name"], kind, TYPE_NAMES.get(kind, kind), tuple(lines(spec))
