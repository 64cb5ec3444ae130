"""What the site may read of Feudal Lords besides a seat's view: cards, deck rules and names.

The site's table, deck builder and rules pages import this module only, never a rule module, so
rule modules stay free to change shape (ARCHITECTURE §1: the engine's public surface is the
contract, its view and this metadata).
"""

from __future__ import annotations

# RULE_SUMMARIES: our one-line summary of each rule unit, by id (read by the site's rules page,
# never by the engine). components(): the validated card database and starter decks.
from rules.feudal.components import (
    GROUPS,
    MAX_ARTIFACTS,
    MAX_COPIES,
    MIN_STOCKPILE,
    NOT_IN_STOCKPILE,
    RULE_SUMMARIES,
    FeudalData,
    validate_deck,
)
from rules.feudal.components import load as components

# An Instant window's stop (its frame's "stop") → the moment it opens, as players say it (FL-INST-04).
from rules.feudal.instants import STOP_NAMES as INSTANT_STOPS
from rules.feudal.scoring import BASE_TARGET, TEAM_TARGET

__all__ = [
    "GROUPS",
    "INSTANT_STOPS",
    "MAX_ARTIFACTS",
    "MAX_COPIES",
    "MIN_STOCKPILE",
    "NOT_IN_STOCKPILE",
    "RULE_SUMMARIES",
    "FeudalData",
    "components",
    "validate_deck",
    "vp_target",
]


def vp_target(mode: str, artifacts: list[str]) -> int:
    """A seat's VP target: 10, or 16 for a team, plus its Artifacts' figures (FL-WIN-03, FL-TEAM-02)."""
    base = TEAM_TARGET if mode == "teams" else BASE_TARGET
    return base + sum(int(components().cards[a]["vp_target"]) for a in artifacts)
