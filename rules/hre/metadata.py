"""What the site may read of HRE besides a seat's view: the static components and their names,
the modules' cards included. No site code imports an HRE rule module (ARCHITECTURE §1)."""

from __future__ import annotations

from functools import cache
from typing import Any

# RULE_SUMMARIES: our one-line summary of each rule unit, by id (read by the site's rules page,
# never by the engine). components(): the validated static data: map, rulers, Titles, Culture
# cards, the board's tracks.
from rules.hre.components import RESOURCES, RULE_SUMMARIES, HreData, load
from rules.hre.components import load as components
from rules.hre.modules import files

__all__ = [
    "RESOURCES",
    "RULE_SUMMARIES",
    "HreData",
    "components",
    "module_cards",
    "module_data",
    "offer_reach",
]

# The module data files the site draws from, by module (each validated when its module
# registers): the Great Domain's western half, card names (Alliances, Commanders, Wyrd, War), the
# Pope's costs, Benjamin's route, the Crusade cards, the Poland cards and Chrobry events.
MODULE_FILES = {
    "M02": "m02_great_domain.json",
    "M05": "m05_alliances.json",
    "M06": "m06_commanders.json",
    "M08": "m08_wyrd.json",
    "M09": "m09_ages_of_war.json",
    "M12A": "m12a_pope.json",
    "M13A": "m13a_benjamin.json",
    "M14A": "m14a_crusades.json",
    "M15A": "m15a_poland.json",
}


def offer_reach(culture: int, table: dict[str, int] | None = None) -> int:
    """How many offer cards from the left a Culture position reaches (HRE-BASE-DEV-02); with
    Module 2's joined table (a view's "great_domain"), two more a red space (HRE-M02-PLAY-02)."""
    board = load().board
    track = board["culture_track"]
    last = min(culture, len(track) - 1)
    reds = sum(1 for i in range(last + 1) if track[i]["red"])
    if table is not None:
        return table["base_access"] + table["per_red"] * reds
    return int(board["base_access"]) + reds


def module_data(module: str) -> dict[str, Any]:
    """A module's data file as shipped (read-only, shared through the cache)."""
    return files.load(MODULE_FILES[module])


@cache
def module_cards(module: str) -> dict[str, str]:
    """A module's own cards, id to name (Alliance, Commander, Wyrd and Combat cards)."""
    return {c["id"]: c["name"] for c in module_data(module)["cards"]}
