"""What the site may read of EMA besides a seat's view: the static components and their names.

The board and the rules pages take EMA from here alone (ARCHITECTURE §1), so the rule modules
behind these names may change shape freely.
"""

from __future__ import annotations

# RULE_SUMMARIES: our one-line summary of each rule unit, by id (read by the site's rules page,
# never by the engine). components(): the validated static data: Areas, Seas and their lines,
# Year and Event cards, Languages.
from rules.ema.components import RULE_SUMMARIES, EmaData
from rules.ema.components import load as components

# A Holding card's kind → its printed name, in the order of the card list (19.2).
from rules.ema.holding import NAMES as HOLDING_NAMES

# A Parley's type (its frame's "type") → what it decides, as players say it (20.4).
from rules.ema.parley import TITLES as PARLEY_TITLES

# Why a Holding-card window is open (its frame's "why") → when, as players say it (19.2).
from rules.ema.windows import WHY as WINDOW_REASONS

__all__ = [
    "HOLDING_NAMES",
    "PARLEY_TITLES",
    "RULE_SUMMARIES",
    "WINDOW_REASONS",
    "EmaData",
    "components",
]
