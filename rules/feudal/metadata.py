"""What the site may read of Feudal Lords besides a seat's view: cards, deck rules and names.

The site's table, deck builder and rules pages import this module only, never a rule module, so
rule modules stay free to change shape (ARCHITECTURE §1: the engine's public surface is the
contract, its view and this metadata).
"""

from __future__ import annotations

from pathlib import Path

from rules.feudal.components import (
    DATA_DIR,
    GROUPS,
    MAX_ARTIFACTS,
    MAX_COPIES,
    MIN_STOCKPILE,
    NOT_IN_STOCKPILE,
    FeudalData,
    load,
    validate_deck,
)
from rules.feudal.instants import STOP_NAMES
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

# Our one-line summary of each rule unit, by id (read by the site's rules page, never by the engine).
RULE_SUMMARIES: Path = DATA_DIR / "rule_summaries.json"
# An Instant window's stop (its frame's "stop") → the moment it opens, as players say it (FL-INST-04).
INSTANT_STOPS: dict[str, str] = dict(STOP_NAMES)


def components() -> FeudalData:
    """The validated card database and starter decks."""
    return load()


def vp_target(mode: str, artifacts: list[str]) -> int:
    """A seat's VP target: 10, or 16 for a team, plus its Artifacts' figures (FL-WIN-03, FL-TEAM-02)."""
    base = TEAM_TARGET if mode == "teams" else BASE_TARGET
    return base + sum(int(load().cards[a]["vp_target"]) for a in artifacts)
