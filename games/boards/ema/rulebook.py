"""The EMA rules page's sections: ids are EMA-<case>.<rule>… (EMA-16.0.Tax, EMA-19.1.BD-4) or
EMA-SOP-<step>, one heading per case of the rulebook, in case order; the sequence of play
(cases 5 and 6) comes first."""

from __future__ import annotations

HEADINGS = {
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
SAME_CASE = {
    "2": "1",
    "3": "1",
    "5": "SOP",
    "6": "SOP",
    **{str(n): "27" for n in range(28, 33)},
}


def area(rule: str) -> str:
    """The case of a rule id (EMA-16.2 → 16, EMA-SOP-III.6 → SOP, EMA-6.0.GR-b → SOP)."""
    parts = rule.split("-")
    if len(parts) < 2:
        return ""
    case = parts[1].split(".")[0]
    return SAME_CASE.get(case, case)
