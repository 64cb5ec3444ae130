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
    "SETUP": "Setting up",
    "TURN": "Your turn",
    "TITLE": "Titles",
    "REACT": "Reactions",
    "COG": "Cognomens",
    "GEN": "General",
    "BUILD": "Build",
    "DEV": "Development of Culture",
    "RESEARCH": "Research",
    "RECRUIT": "Recruit",
    "MANOEUVRE": "Manoeuvre",
    "REGROUP": "Regroup",
    "RECV": "Receive resources",
    "SELL": "Sell Goods",
    "CULTEX": "Cultural Exchange",
    "SETTLE": "Settling",
    "BARB": "Barbarians",
    "BSEQ": "Battle sequence",
    "PVP": "Battles between players",
    "PASS": "Passing",
    "END": "End of the game",
    "SCORE": "Final scoring",
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


# Feudal Lords ids are FL-<AREA>-nn (FL-COMBAT-<STEP>-nn for combat), headed as the reference's
# sections, in its order; the Action phase's four areas share one heading, as they share a section.
FL_AREAS = {
    "DECK": "Deck",
    "SETUP": "Setup",
    "GEN": "General rules",
    "TURN": "Turn structure",
    "STOCK": "Stockpile phase",
    "DRAFT": "Draft phase",
    "ACT": "Action phase: arming and Supply",
    "RES": "Resource phase",
    "INST": "Instants",
    "MARK": "+1 markers",
    "COMBAT-PRE": "Combat: before the fight",
    "COMBAT-SEND": "Combat: sending combatants",
    "COMBAT-VC": "Combat: Victory cards and bluffs",
    "COMBAT-DF": "Combat: Distance Fire",
    "COMBAT-MU": "Combat: Close Combat match-ups",
    "COMBAT-CC": "Combat: Close Combat rounds",
    "COMBAT-END": "Combat: the end, sacking and VP",
    "WIN": "Winning and ties",
    "OOC": "Out of cards",
    "MP": "Multi-player",
    "TEAM": "Team play",
    "SOLO": "Solitaire",
    "STR": "Combat strings and symbols",
}
FL_SAME_SECTION = {"ARM": "ACT", "SUPPLY": "ACT", "ART": "ACT", "CONST": "ACT"}

# EMA ids are EMA-<case>.<rule>… (EMA-16.0.Tax, EMA-19.1.BD-4) or EMA-SOP-<step>; one heading per
# case of the rulebook, in case order; the sequence of play (cases 5 and 6) comes first.
EMA_CASES = {
    "SOP": "Sequence of play",
    "1": "Introduction and terms",
    "4": "Preparing for play",
    "7": "Empires",
    "8": "Leaders",
    "9": "Endeavors",
    "10": "Conquest",
    "11": "Pillage",
    "12": "Diplomacy",
    "13": "Defense",
    "14": "Fortification",
    "15": "Ruling",
    "16": "Gold, taxes and plunder",
    "17": "Unrest and rebellion",
    "18": "Claims",
    "19": "Event and Holding cards",
    "20": "Grand Diplomacy",
    "21": "Exile",
    "22": "Excommunication and conversion",
    "23": "Schism and Crusades",
    "24": "Raiders and Magnates",
    "25": "Colonization",
    "26": "Victory",
    "27": "Scenarios",
}
EMA_SAME_CASE = {
    "2": "1",
    "3": "1",
    "5": "SOP",
    "6": "SOP",
    **{str(n): "27" for n in range(28, 33)},
}


def area(rule: str) -> str:
    """The area code of a rule id (HRE-BASE-PASS-11 → PASS, FL-COMBAT-DF-03 → COMBAT-DF, EMA-16.2 → 16)."""
    parts = rule.split("-")
    if parts[0] == "FL" and len(parts) >= 3:
        code = "-".join(parts[1:-1])
        return FL_SAME_SECTION.get(code, code)
    if parts[0] == "EMA" and len(parts) >= 2:
        case = parts[1].split(".")[0]
        return EMA_SAME_CASE.get(case, case)
    return parts[-2] if len(parts) >= 3 else ""


def _headings(game: str) -> dict[str, str]:
    """The game's area code → heading, in rulebook order."""
    return {"feudal": FL_AREAS, "ema": EMA_CASES}.get(game, AREAS)


def sections(game: str) -> list[dict[str, Any]]:
    """Summaries grouped by rulebook area, areas in rulebook order, rules in id order."""
    groups: dict[str, list[dict[str, str]]] = {}
    for rule, text in sorted(summaries(game).items()):
        groups.setdefault(area(rule), []).append({"id": rule, "text": text})
    headings = _headings(game)
    order = list(headings)
    keys = sorted(groups, key=lambda a: (order.index(a) if a in order else len(order), a))
    return [
        {"area": a or "other", "title": headings.get(a) or a.title() or "Other", "rules": groups[a]}
        for a in keys
    ]


def link(game: str, rule: str) -> dict[str, str] | None:
    """A rule reference for the page: id, link to our summary, and the summary as a tooltip."""
    if not rule:
        return None
    text = summaries(game).get(rule, "")
    return {"id": rule, "url": f"{reverse('rules', args=[game])}#{rule}", "summary": text}
