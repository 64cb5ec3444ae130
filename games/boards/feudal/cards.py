"""Feudal Lords cards as players read them: name, type, the stats of their type, and their text.

Everything comes from the card database (rules/feudal/data/cards.json), whose text is our own
wording; nothing here knows a card by name.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from django.urls import reverse
from django.utils.html import escape

from rules.feudal.metadata import GROUPS, components
from rules.feudal.metadata import INSTANT_STOPS as STOP_NAMES

TYPE_NAMES = {
    "character": "Character",
    "leader": "Leader",
    "locations": "Controlled Locations",
    "skill": "Skill",
    "weapon": "Weapon",
    "supply": "Supply",
    "instant": "Instant",
    "victory": "Victory",
    "constant": "Constant",
    "artifact": "Artifact",
}
# The order cards are listed in: people first, then what arms them, then the rest.
TYPE_ORDER = (
    "character",
    "skill",
    "weapon",
    "supply",
    "instant",
    "victory",
    "constant",
    "leader",
    "locations",
    "artifact",
)
GROUP_NAMES = {"under": "Under-City", "outer": "Outer-City", "over": "Over-City"}


def class_name(code: str | None) -> str:
    """A class limit for people: "SG" → "SG", "XX-under" → "any Under-City class"."""
    if code is None:
        return ""
    if code.startswith("XX-"):
        return f"any {GROUP_NAMES.get(code[3:], code[3:])} class"
    return code


def class_group(code: str | None) -> str | None:
    """The city group of a class or class limit (for filters)."""
    if code is None:
        return None
    if code.startswith("XX-"):
        return code[3:]
    return next((g for g, codes in GROUPS.items() if code in codes), None)


def string(thresholds: list[int]) -> str:
    """A combat string as its thresholds: [8, 11] → "8/11"; empty → "–"."""
    return "/".join(str(t) for t in thresholds) if thresholds else "–"


def cost(spec: dict[str, Any]) -> str:
    """ "2 Sup + 1 Ld", "free"."""
    parts = [f"{spec[k]} {n}" for k, n in (("cost_sup", "Sup"), ("cost_ld", "Ld")) if spec.get(k)]
    return " + ".join(parts) or "free"


def _stats(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Short labelled figures of a card, by type."""
    kind = spec["type"]
    if kind == "character":
        return [
            {"k": "Life", "v": str(spec["life"])},
            {"k": "Control", "v": str(spec["control"])},
            {"k": "DF", "v": string(spec["df"])},
            {"k": "CC hit", "v": string(spec["cc"])},
            {"k": "Block", "v": string(spec["block"])},
            {"k": "Slots", "v": f"{spec['skills']} skill · {spec['weapons']} weapon", "wide": True},
        ]
    if kind == "leader":
        return [
            {"k": "Draft", "v": str(spec["max_draft"]), "help": "Max. draft modifier"},
            {"k": "Hand", "v": str(spec["min_hand"]), "help": "Minimum hand size"},
            {"k": "Att. send", "v": str(spec["attack_send"]), "help": "Attack Send"},
            {"k": "Def. send", "v": str(spec["defend_send"]), "help": "Defend Send"},
            *[
                {"k": short, "v": f"{spec[key]:+d}", "help": f"{long} modifier"}
                for key, short, long in (
                    ("supply_die", "Sup die", "Supply die"),
                    ("leadership_die", "Ld die", "Leadership die"),
                )
                if spec.get(key)
            ],
        ]
    if kind == "artifact":
        return [{"k": "VP to win", "v": f"{spec['vp_target']:+d}"}]
    if kind == "victory":
        return [{"k": "VP", "v": f"+{spec['vp']}"}]
    if kind in ("skill", "weapon", "supply", "instant", "constant"):
        found: list[dict[str, Any]] = [{"k": "Cost", "v": cost(spec)}]
        if spec.get("class"):
            found.append(
                {
                    "k": "Only",
                    "v": class_name(spec["class"]),
                    "wide": spec["class"].startswith("XX-"),
                }
            )
        if kind == "weapon" and spec["weight"]:
            found.append({"k": "Weight", "v": spec["weight"].capitalize()})
        if kind == "weapon" and spec["armor"]:
            found.append({"k": "Armor", "v": "yes"})
        if kind == "instant":
            found.append(
                {
                    "k": "When",
                    "v": "; ".join(STOP_NAMES.get(t, t) for t in spec["timing"]),
                    "wide": True,
                }
            )
        return found
    return []


def card(cid: str) -> dict[str, Any]:
    """A card for display: id, name, type, class, figures, text (and a location card's sites)."""
    spec = components().cards[cid]
    kind = spec["type"]
    shown: dict[str, Any] = {
        "id": cid,
        "name": spec["name"],
        "type": kind,
        "type_name": TYPE_NAMES[kind],
        "class": spec.get("class"),
        "class_name": class_name(spec.get("class")),
        "class_chip": (
            f"XX {GROUP_NAMES[spec['class'][3:]]}"
            if str(spec.get("class") or "").startswith("XX-")
            else spec.get("class")
        ),
        "group": class_group(spec.get("class")),
        "stats": _stats(spec),
        "text": spec["text"],
        "named": kind == "character" and not spec["generic"],
        "sites": [{"name": s["name"], "text": s["text"]} for s in spec.get("sites", [])],
    }
    shown["title"] = f"{spec['name']} ({TYPE_NAMES[kind]}): " + "; ".join(
        [f"{s['k']} {s['v']}" for s in shown["stats"]] + [spec["text"]]
    )
    return shown


def sort_key(cid: str) -> tuple[int, str]:
    """Cards by type in TYPE_ORDER, then by name."""
    spec = components().cards[cid]
    return TYPE_ORDER.index(spec["type"]), spec["name"]


def starters_with(cid: str) -> list[dict[str, Any]]:
    """The starter decks that use a card, with how many copies (a leader or artifact counts 1)."""
    found = []
    for did, deck in sorted(components().decks.items()):
        count = deck["stockpile"].get(cid, 0)
        if cid in (deck["leader"], deck["locations"], *deck.get("artifacts", [])):
            count = 1
        if count:
            found.append({"id": did, "name": deck["name"], "count": count})
    return found


def hover(cid: str) -> str:
    """A small card face shown over a card's name (the log's hover card), already escaped."""
    shown = card(cid)
    kind = escape(shown["type_name"] + (f" · {shown['class_name']}" if shown["class"] else ""))
    stats = "; ".join(f"{s['k']} {s['v']}" for s in shown["stats"])
    sites = " ".join(f"{s['name']}: {s['text']}" for s in shown["sites"])
    parts = [
        f'<strong class="hc-name">{escape(shown["name"])}</strong>',
        f'<span class="hc-type">{kind}</span>',
        f'<span class="hc-stats">{escape(stats)}</span>' if stats else "",
        f'<span class="hc-text">{escape(shown["text"])} {escape(sites)}</span>',
    ]
    return f'<span class="hovercard" role="tooltip">{"".join(p for p in parts if p)}</span>'


def card_link(cid: str) -> str:
    """A card's name linking to its page, with its hover card (escaped HTML)."""
    url = reverse("feudal_card", args=[cid])
    name = escape(components().cards[cid]["name"])
    return f'<a class="card-link" href="{url}" target="chancery-cards">{name}{hover(cid)}</a>'


@cache
def _names() -> tuple[re.Pattern[str], dict[str, str]]:
    """Card names, longest first, and their ids."""
    ids = {spec["name"]: cid for cid, spec in components().cards.items()}
    alternatives = "|".join(re.escape(n) for n in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])({alternatives})(?![\w-])"), ids


def mark_names(text: str) -> tuple[str, list[str]]:
    """Replace card names in plain text by numbered placeholders; the ids in order.

    The placeholders (NUL, a number, NUL) survive escaping and the glossary's abbreviation pass;
    `put_links` then puts each card's link in its place."""
    pattern, ids = _names()
    found: list[str] = []

    def mark(match: re.Match[str]) -> str:
        found.append(ids[match.group(1)])
        return f"\x00{len(found) - 1}\x00"

    return pattern.sub(mark, text), found


def put_links(text: str, found: list[str]) -> str:
    """Put the links of `mark_names` in place of its placeholders."""
    return re.sub("\x00(\\d+)\x00", lambda m: card_link(found[int(m.group(1))]), text)
