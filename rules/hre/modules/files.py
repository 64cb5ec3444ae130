"""The modules' own data files under rules/hre/data/, each read once."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from rules.hre.components import DATA_DIR


@cache
def load(name: str) -> dict[str, Any]:
    """One module data file, parsed (shared: treat it as read-only)."""
    found: dict[str, Any] = json.loads((DATA_DIR / name).read_text("utf-8"))
    return found


def cards(name: str) -> dict[str, dict[str, Any]]:
    """A module data file's "cards", by id."""
    return {c["id"]: c for c in load(name)["cards"]}
