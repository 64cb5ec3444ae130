"""What the site may read of EMA besides a seat's view: the static components and their names.

The site's board and rules pages import this module only, never a rule module, so rule modules
stay free to change shape (ARCHITECTURE §1: the engine's public surface is the contract,
its view and this metadata).
"""

from __future__ import annotations

from pathlib import Path

from rules.ema.components import DATA, EmaData, load
from rules.ema.holding import NAMES
from rules.ema.parley import TITLES
from rules.ema.windows import WHY

__all__ = [
    "HOLDING_NAMES",
    "PARLEY_TITLES",
    "RULE_SUMMARIES",
    "WINDOW_REASONS",
    "EmaData",
    "components",
]

# Our one-line summary of each rule unit, by id (read by the site's rules page, never by the engine).
RULE_SUMMARIES: Path = DATA / "rule_summaries.json"
# A Holding card's kind → its printed name, in the order of the card list (19.2).
HOLDING_NAMES: dict[str, str] = dict(NAMES)
# A Parley's type (its frame's "type") → what it decides, as players say it (20.4).
PARLEY_TITLES: dict[str, str] = dict(TITLES)
# Why a Holding-card window is open (its frame's "why") → when, as players say it (19.2).
WINDOW_REASONS: dict[str, str] = dict(WHY)


def components() -> EmaData:
    """The validated static data: Areas, Seas and their lines, Year and Event cards, Languages."""
    return load()
