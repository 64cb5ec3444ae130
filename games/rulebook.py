"""Our one-line summaries of each game's rules, keyed by the rule ids that logs and prompts cite.

The summaries live beside the engine's data (rules/<game>/data/rule_summaries.json) so they change
with the rules, but only the site reads them: engines never need prose.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from django.urls import reverse

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
GAME_SLUG = re.compile(r"[a-z][a-z0-9_]*")

# Readable headings for the area part of an id (HRE-BASE-<AREA>-nn), in rulebook order.
AREAS = {
    "SETUP": "Setting up", "TURN": "Your turn", "TITLE": "Titles", "REACT": "Reactions",
    "COG": "Cognomens", "GEN": "General", "BUILD": "Build", "DEV": "Development of Culture",
    "RESEARCH": "Research", "RECRUIT": "Recruit", "MANOEUVRE": "Manoeuvre", "REGROUP": "Regroup",
    "RECV": "Receive resources", "SELL": "Sell Goods", "CULTEX": "Cultural Exchange",
    "SETTLE": "Settling", "BARB": "Barbarians", "BSEQ": "Battle sequence",
    "PVP": "Battles between players", "PASS": "Passing", "END": "End of the game", "SCORE": "Final scoring",
}


@functools.cache
def summaries(game: str) -> dict[str, str]:
    """Rule id → our summary for a game; empty when the game ships none."""
    if not GAME_SLUG.fullmatch(game):
        return {}
    path = RULES_DIR / game / "data" / "rule_summaries.json"
    if not path.is_file():
        return {}
    loaded = json.loads(path.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in loaded.items()}


def area(rule: str) -> str:
    """The area code of a rule id (HRE-BASE-PASS-11 → PASS)."""
    parts = rule.split("-")
    return parts[-2] if len(parts) >= 3 else ""


def sections(game: str) -> list[dict[str, Any]]:
    """Summaries grouped by rulebook area, areas in rulebook order, rules in id order."""
    groups: dict[str, list[dict[str, str]]] = {}
    for rule, text in sorted(summaries(game).items()):
        groups.setdefault(area(rule), []).append({"id": rule, "text": text})
    order = list(AREAS)
    keys = sorted(groups, key=lambda a: (order.index(a) if a in order else len(order), a))
    return [{"area": a, "title": AREAS.get(a, a.title()), "rules": groups[a]} for a in keys]


def link(game: str, rule: str) -> dict[str, str] | None:
    """A rule reference for the page: id, link to our summary, and the summary as a tooltip."""
    if not rule:
        return None
    text = summaries(game).get(rule, "")
    return {"id": rule, "url": f"{reverse('rules', args=[game])}#{rule}", "summary": text}
