"""Standing answers for HRE's off-turn prompts (ARCHITECTURE §2: standing_options/standing_answer).

A seat may answer these without being asked: a preferred Reaction, Revanchism's infantry, where
survivors retreat, and Title claims while passing. Hit assignment is always asked: the best hit
depends on the whole battle. A named answer that fits none of the options offered asks the player.
"""

from __future__ import annotations

import re

from rules.core.engine import Option, StandingChoice
from rules.hre.reactions import NAMES as REACTIONS

PREFER = "prefer_"
UNITS_THERE = re.compile(r"\((\d+) units? there\)$")  # rules.hre.outcome.retreat_label

CHOICES: dict[str, list[StandingChoice]] = {
    "reaction": [
        {"name": f"{PREFER}{r}", "label": f"Always {name} when it is one of the two"}
        for r, name in REACTIONS.items()
    ],
    "revanchism": [
        {"name": "all", "label": "Always place all the free infantry I may"},
        {"name": "pass", "label": "Never place any"},
    ],
    "retreat": [{"name": "most_units", "label": "To the province where I have the most units"}],
    "claim": [
        {"name": "first", "label": "Always claim the first eligible Title"},
        {"name": "pass", "label": "Never claim a Title"},
    ],
    "assign": [],
}


def options(kind: str) -> list[StandingChoice] | None:
    """HRE's named answers for a kind; None for kinds HRE leaves to the engine's defaults."""
    return CHOICES.get(kind)


def answer(kind: str, name: str, offered: list[Option]) -> Option | None:
    """The option a named answer gives, or None to ask the player."""
    if kind == "reaction" and name.startswith(PREFER):
        wanted = name[len(PREFER) :]
        return next((o for o in offered if o["action"].get("react") == wanted), None)
    if kind == "revanchism" and name in ("all", "pass"):
        counts = [o for o in offered if isinstance(o["action"].get("infantry"), int)]
        if not counts:
            return None
        pick = max if name == "all" else min
        return pick(counts, key=lambda o: int(o["action"]["infantry"]))
    if kind == "retreat" and name == "most_units":
        return max(offered, key=_units_there, default=None)  # the first of equals: max keeps it
    if kind == "claim" and name == "first":
        return offered[0] if offered else None
    if kind == "claim" and name == "pass":
        return next((o for o in offered if o["action"].get("claim") is None), None)
    return None


def _units_there(option: Option) -> int:
    found = UNITS_THERE.search(option["label"])
    return int(found.group(1)) if found else 0
