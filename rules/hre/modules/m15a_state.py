"""Module 15A's shared readers (HRE L855-892; reference §1.37): its data and its state.

`m15a_poland.py` (aid, flips, Levies, benefits) and `m15a_chrobry.py` (the Chrobry card and
events) both read them, so neither needs the other's internals.
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import State
from rules.hre.modules import files, part

CATEGORIES = ("veleti", "santok", "church")
MIESZKO, CHROBRY = "CR01", "CR02"


def book() -> dict[str, Any]:
    return files.load("m15a_poland.json")


def spec(cat: str) -> dict[str, Any]:
    found: dict[str, Any] = book()["poland"][cat]
    return found


m15a = part("m15a")


def card(state: State, seat: int, cat: str) -> dict[str, Any]:
    found: dict[str, Any] = m15a(state)["cards"][seat][cat]
    return found


def flipped(state: State, seat: int) -> int:
    return sum(1 for c in CATEGORIES if card(state, seat, c)["side"] == "flipped")
