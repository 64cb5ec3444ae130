"""What the HRE expansion modules add beside the map, from a seat's view only.

Each part is None when its module is not in play, so a base game's page is unchanged. Hidden
cards stay hidden: the view carries only the viewer's own Alliance and Combat cards, counts of
the others', and no face-down Wyrd or Commander.
"""

from __future__ import annotations

from typing import Any

from games.boards.common import Mark
from rules.hre.metadata import components, module_cards


def _province(pid: str | None) -> str:
    return components().provinces[pid]["name"] if pid else "—"


def grand_buildings(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """Module 3: each built Grand Building, its province and who holds its card; the supply."""
    found = view.get("grand_buildings")
    if found is None:
        return None
    cards = components().cards
    return {
        "built": [
            {
                "name": cards[c]["name"],
                "text": cards[c]["text"],
                "prov": _province(b["prov"]),
                "holder": mark(b["holder"]),
            }
            for c, b in sorted(found["built"].items())
        ],
        "supply": [cards[c]["name"] for c in found["supply"]],
    }


def alliances(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """Module 5: Alliances in play (holder, card, whose marker), and the viewer's own hand."""
    found = view.get("alliances")
    if found is None:
        return None
    names = module_cards("M05")
    return {
        "allies": [
            {"holder": mark(a["holder"]), "card": names[a["card"]], "marker": mark(a["marker"])}
            for a in found["allies"]
        ],
        "mine": [names[c] for c in found["mine"]],
    }


def commanders(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """Module 6: the Commanders laid out (face down in solo) and each seat's, with its place."""
    found = view.get("commanders")
    if found is None:
        return None
    names = module_cards("M06")
    return {
        "available": [names[c] for c in found["available"]],
        "face_down": found["face_down"],
        "hired": [
            {
                "who": mark(i),
                "card": names[h["card"]],
                "prov": _province(h["at"]),
                "ready": h["ready"],
            }
            for i, h in enumerate(found["hired"])
            if h
        ],
    }


def wyrd(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """Module 8: the face-down deck, the offer cards carrying one, each seat's Wyrds."""
    found = view.get("wyrd")
    if found is None:
        return None
    names = module_cards("M08")
    cards = components().cards
    return {
        "deck": found["deck_count"],
        "under": [cards[c]["name"] for c in found["under"]],
        "removed": found["removed_count"],
        "seats": [
            {
                "who": mark(i),
                "active": [f"{names[e['card']]} ({e['markers']} left)" for e in active],
                "fulfilled": [names[c] for c in found["fulfilled"][i]],
            }
            for i, active in enumerate(found["active"])
            if active or found["fulfilled"][i]
        ],
    }


def ages_of_war(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """Module 9: War tokens left and won, Combat cards on Titles, discards, the viewer's hand."""
    found = view.get("ages_of_war")
    if found is None:
        return None
    names = module_cards("M09")
    titles = components().titles
    return {
        "tokens": found["tokens"],
        "seats": [
            {
                "who": mark(i),
                "won": found["won"][i],
                "hand": found["hand_counts"][i],
                "discard": [names[c] for c in found["discards"][i]],
            }
            for i in range(len(found["won"]))
        ],
        "titles": [
            {"title": titles[t]["name"], "card": names[c]}
            for t, c in sorted(found["titles"].items())
        ],
        "mine": [names[c] for c in found["mine"]],
        "playing": names[found["playing"]] if found.get("playing") else None,
    }


def modules(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """Every module part of the board, or None when the game plays none of them."""
    found = {
        "grand_buildings": grand_buildings(view, mark),
        "alliances": alliances(view, mark),
        "commanders": commanders(view, mark),
        "wyrd": wyrd(view, mark),
        "war": ages_of_war(view, mark),
    }
    return found if any(v is not None for v in found.values()) else None


def map_pieces(view: dict[str, Any], mark: Mark) -> dict[str, list[dict[str, Any]]]:
    """Grand Buildings (Module 3) and Commanders (Module 6) as map icons, by province."""
    found: dict[str, list[dict[str, Any]]] = {}
    cards = components().cards
    for c, b in sorted(view.get("grand_buildings", {}).get("built", {}).items()):
        found.setdefault(b["prov"], []).append(
            {"icon": "grand", "n": None, "label": f"Grand Building: {cards[c]['name']}"}
        )
    names = module_cards("M06") if "commanders" in view else {}
    for i, h in enumerate(view.get("commanders", {}).get("hired", [])):
        if h:
            who = mark(i)
            found.setdefault(h["at"], []).append(
                {
                    "icon": "commander",
                    "n": None,
                    "label": f"Commander {names[h['card']]} (seat {i + 1})",
                    "colour": who["colour"] if who else None,
                }
            )
    return found
