"""EMA cards as players read them: Year Cards in the book's notation, Holding and Event cards in our words.

Only cards the view shows face up are ever looked up here: played Year Cards (a seat's `revealed`),
the viewer's own Holding cards, Holdings in play and the discard pile.
"""

from __future__ import annotations

from typing import Any

from rules.ema.metadata import HOLDING_NAMES, components

ROWS = (
    ("conquest", "Conquest"),
    ("pillage", "Pillage"),
    ("ruling", "Ruling"),
    ("fortification", "Fortification"),
    ("diplomacy", "Diplomacy"),
)
NAMES = {
    "plenty": "Year of Plenty",
    "famine": "Year of Famine",
    "epidemic": "Epidemic",
    "heresy": "Outbreak of Heresy",
    "heirless": "Leader Dies Heirless",
    **HOLDING_NAMES,
}
TEXTS = {
    "plenty": "Good harvests: each Area listed gains 1 SS, never above Norm + 2.",
    "famine": "Hunger: each Area listed loses 1 SS, never below −3.",
    "epidemic": "Sickness: every Area of the drawer with Population above 0 loses 1 SS "
    "(from about 1200 it may become the Black Death).",
    "heresy": "A Christian Area of the drawer in Unrest turns heretical and breaks away; unless retaken "
    "this turn, the heresy spreads once to neighbours of its Language.",
    "heirless": "The drawer's Leader dies without an heir: Stature Check, Ties and bare Claims lost, "
    "Unrest and Rebellion Checks, and a new Court may be chosen.",
    "recognition": "Gives you a Claim to one Area you possess, if the Claim rules allow it. "
    "Discarded after use.",
    "dynastic": "Where you hold a Tie you gain the Claim; where you hold a Claim you take the Area. "
    "A Christian owner may contest by Parley. Discarded after use.",
    "influence": "Play it in a Parley for 5 more votes; several may be played. Discarded after use.",
    "coup": "Removes the other Players' Diplomatic Ties from one Area of your Empire. Discarded after use.",
    "demesne": "Once in play: 1 more gold each time you tax. Lost if your Leader dies heirless.",
    "weapons": "Once in play: +3 to your Conquest and Pillage ER, and −3 more to an attacker's ER when you defend.",
    "tactics": "Once in play: +3 to your Conquest and Pillage ER, and −3 more to an attacker's ER when you defend.",
    "fervor": "Once in play: halves (rounding down) the C results you need to convert an Area.",
}
HOLDINGS = tuple(HOLDING_NAMES)


def event_card(card_id: str) -> dict[str, Any]:
    """An Event or Holding card face up: id, name, kind, whether it is a Holding, and our text."""
    spec = components().events[card_id]
    kind = str(spec["kind"])
    text = TEXTS.get(kind, "")
    if spec.get("variant") == "group" and kind == "dynastic":
        text = "For a group of Areas joined overland: " + text[0].lower() + text[1:]
    areas = [components().areas[a]["name"] for a in spec.get("areas", [])]
    return {
        "id": card_id,
        "kind": kind,
        "name": NAMES.get(kind, kind.title()),
        "holding": kind in HOLDINGS,
        "text": text,
        "areas": areas,
    }


def year_card(number: int, highlight: str | None = None) -> dict[str, Any]:
    """A played Year Card: its number, Leader checks and the five rows in book notation (9.4)."""
    spec = components().year_cards[number]["text"]
    rows = [
        {
            "name": name,
            "key": key,
            "result": spec[key]["result"],
            "target": spec[key]["target"],
            "base": spec[key]["base"],
            "current": key == highlight,
        }
        for key, name in ROWS
    ]
    return {"number": number, "checks": list(spec["leader_checks"]), "rows": rows}


def discard_summary(card_ids: list[str]) -> list[dict[str, Any]]:
    """The face-up discard pile as kinds and counts, in a fixed order that reveals nothing more."""
    counts: dict[str, int] = {}
    for cid in card_ids:
        kind = str(components().events[cid]["kind"])
        counts[kind] = counts.get(kind, 0) + 1
    return [
        {"name": NAMES.get(k, k), "n": n}
        for k, n in sorted(counts.items(), key=lambda kv: NAMES.get(kv[0], kv[0]))
    ]
