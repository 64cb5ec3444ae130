"""What the site may read of HRE besides a seat's view: the static components and their names.

The site's board and rules pages import this module only, never a rule module, so rule modules
stay free to change shape (ARCHITECTURE §1: the engine's public surface is the contract,
its view and this metadata).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from rules.hre.components import DATA_DIR, RESOURCES, HreData, load

__all__ = ["RESOURCES", "RULE_SUMMARIES", "HreData", "components", "module_data", "offer_reach"]

# Module data files the site draws from (each validated when its module registers).
MODULE_DATA = ("m12a_pope", "m13a_benjamin", "m14a_crusades", "m15a_poland")

# Our one-line summary of each rule unit, by id (read by the site's rules page, never by the engine).
RULE_SUMMARIES: Path = DATA_DIR / "rule_summaries.json"


def components() -> HreData:
    """The validated static data: map, rulers, Titles, Culture cards, the board's tracks."""
    return load()


def offer_reach(culture: int) -> int:
    """How many offer cards from the left a Culture position reaches (HRE-BASE-DEV-02)."""
    board = load().board
    track = board["culture_track"]
    last = min(culture, len(track) - 1)
    return int(board["base_access"]) + sum(1 for i in range(last + 1) if track[i]["red"])


@functools.cache
def module_data(stem: str) -> dict[str, Any]:
    """A module's data file as shipped: the Pope's costs, Benjamin's route, the Crusade cards,
    the Poland cards and Chrobry events (read-only, shared through the cache)."""
    if stem not in MODULE_DATA:
        raise KeyError(f"{stem} is not a module data file the site reads")
    found: dict[str, Any] = json.loads((DATA_DIR / f"{stem}.json").read_text("utf-8"))
    return found
