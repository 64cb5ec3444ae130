"""The Feudal Lords rules page's sections: ids are FL-<AREA>-nn (FL-COMBAT-<STEP>-nn for combat),
headed as the reference's sections, in its order."""

from __future__ import annotations

HEADINGS = {
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
# The Action phase's four areas share one heading, as they share a section.
SAME_SECTION = {"ARM": "ACT", "SUPPLY": "ACT", "ART": "ACT", "CONST": "ACT"}


def area(rule: str) -> str:
    """The area code of a rule id (FL-COMBAT-DF-03 → COMBAT-DF, FL-SUPPLY-02 → ACT)."""
    parts = rule.split("-")
    if len(parts) < 3:
        return ""
    code = "-".join(parts[1:-1])
    return SAME_SECTION.get(code, code)
