"""What the site may read of HRE besides a seat's view: the static components and their names.

The site's board and rules pages import this module only, never a rule module, so rule modules
stay free to change shape (ARCHITECTURE §1: the engine's public surface is the contract,
its view and this metadata).
"""

from __future__ import annotations

# RULE_SUMMARIES: our one-line summary of each rule unit, by id (read by the site's rules page,
# never by the engine). components(): the validated static data: map, rulers, Titles, Culture
# cards, the board's tracks.
from rules.hre.components import RESOURCES, RULE_SUMMARIES, HreData, load
from rules.hre.components import load as components

__all__ = ["RESOURCES", "RULE_SUMMARIES", "HreData", "components", "offer_reach"]


def offer_reach(culture: int) -> int:
    """How many offer cards from the left a Culture position reaches (HRE-BASE-DEV-02)."""
    board = load().board
    track = board["culture_track"]
    last = min(culture, len(track) - 1)
    return int(board["base_access"]) + sum(1 for i in range(last + 1) if track[i]["red"])
