"""The modules' own data files under rules/hre/data/, each read once."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.hre.components import DATA_DIR


@cache
def load(name: str) -> dict[str, Any]:
    """One module data file, parsed (shared: treat it as read-only)."""
    found: dict[str, Any] = json.loads((DATA_DIR / name).read_text("utf-8"))
    return found


@cache
def cards(name: str) -> dict[str, dict[str, Any]]:
    """A module data file's "cards", by id (shared: treat it as read-only)."""
    return {c["id"]: c for c in load(name)["cards"]}


@dataclass(frozen=True)
class Book:
    """One module's data file: its values (`raw`), its cards by id (`cards`), and what `check`
    holds of them when the module registers: ids `prefix`01 to `prefix`NN (when `count` is
    set), and every card passing `card` (called with "file: id" and the card; it raises)."""

    name: str
    prefix: str = ""
    count: int = 0
    card: Callable[[str, dict[str, Any]], None] | None = None

    def raw(self) -> dict[str, Any]:
        return load(self.name)

    def cards(self) -> dict[str, dict[str, Any]]:
        return cards(self.name)

    def check(self) -> None:
        found = self.cards()
        ids = [f"{self.prefix}{i:02d}" for i in range(1, self.count + 1)]
        if self.count and sorted(found) != ids:
            raise ValueError(f"{self.name}: expected the cards {ids[0]} to {ids[-1]}")
        if self.card is not None:
            for cid, spec in found.items():
                self.card(f"{self.name}: {cid}", spec)
