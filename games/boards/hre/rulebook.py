"""The HRE rules page's sections: rule ids are HRE-BASE-<AREA>-nn, headed in rulebook order."""

from __future__ import annotations

HEADINGS = {
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
    "M01": "Solo: the Lordlings and the Raiders (Module 1)",
    "M02": "Module 2: The Great Domain",
    "M03": "Module 3: Grand Buildings",
    "M04": "Module 4: Alchemists",
    "M05": "Module 5: Alliances",
    "M06": "Module 6: Commanders",
    "M07": "Module 7: Skirmishers",
    "M08": "Module 8: The Wyrd",
    "M09": "Module 9: The Ages of War",
    "M10": "Module 10: Distant Campaigns",
    "M11": "Module 11: Tribute",
    "M12A": "Module 12A: The Pope",
    "M13A": "Module 13A: Travels of Benjamin",
    "M14A": "Module 14A: Crusades",
    "M15A": "Module 15A: Rise of Poland",
}


def area(rule: str) -> str:
    """The area code of a rule id (HRE-BASE-PASS-11 → PASS)."""
    if rule.startswith("HRE-M"):
        return rule.split("-")[1]  # each module's rules stand together, after the base game's
    parts = rule.split("-")
    return parts[-2] if len(parts) >= 3 else ""


def intro(area: str) -> str:
    """The id of an expansion module's paragraph, which opens its section (HRE-M12A for M12A)."""
    return f"HRE-{area}" if area.startswith("M") else ""
