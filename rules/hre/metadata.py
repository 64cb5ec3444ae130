"""What the site may read of HRE besides a seat's view: the static components and their names.

The site's board and rules pages import this module only, never a rule module, so rule modules
stay free to change shape (ARCHITECTURE §1: the engine's public surface is the contract,
its view and this metadata).
"""

from __future__ import annotations

import json
from functools import cache

# RULE_SUMMARIES: our one-line summary of each rule unit, by id (read by the site's rules page,
# never by the engine). components(): the validated static data: map, rulers, Titles, Culture
# cards, the board's tracks.
from rules.hre.components import DATA_DIR, RESOURCES, RULE_SUMMARIES, HreData, load
from rules.hre.components import load as components
from rules.hre.modules import CATALOGUE, REGISTRY

__all__ = [
    "RESOURCES",
    "RULE_SUMMARIES",
    "HreData",
    "components",
    "module_cards",
    "module_names",
    "offer_reach",
    "playable",
]

# The module data files whose cards have names the site shows (Alliances, Commanders, Wyrd, War).
MODULE_CARD_FILES = {
    "M05": "m05_alliances.json",
    "M06": "m06_commanders.json",
    "M08": "m08_wyrd.json",
    "M09": "m09_ages_of_war.json",
}


def offer_reach(culture: int) -> int:
    """How many offer cards from the left a Culture position reaches (HRE-BASE-DEV-02)."""
    board = load().board
    track = board["culture_track"]
    last = min(culture, len(track) - 1)
    return int(board["base_access"]) + sum(1 for i in range(last + 1) if track[i]["red"])


def module_names() -> dict[str, str]:
    """Every module of the book by id, with its name (the engine's catalogue)."""
    return {m: entry.name for m, entry in CATALOGUE.items()}


@cache
def module_cards(module: str) -> dict[str, str]:
    """A module's own cards, id to name (Alliance, Commander, Wyrd and Combat cards)."""
    raw = json.loads((DATA_DIR / MODULE_CARD_FILES[module]).read_text("utf-8"))
    return {c["id"]: c["name"] for c in raw["cards"]}


def playable() -> list[str]:
    """The modules the engine can play (built), in the book's order."""
    return [m for m in CATALOGUE if m in REGISTRY]
