"""Engines are pure: no Django, clock or global randomness in rules/ (ARCHITECTURE §2.4)."""

from __future__ import annotations

import re
from pathlib import Path

RULES = Path(__file__).resolve().parents[3] / "rules"
BANNED = re.compile(r"^\s*(import|from)\s+(django|random|secrets|time|uuid)\b", re.MULTILINE)


def test_rules_imports_nothing_nondeterministic() -> None:
    offenders = [
        str(p) for p in RULES.rglob("*.py") if BANNED.search(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_rules_state_has_no_floats_sets_or_tuples() -> None:
    from rules.core.playout import play_random
    from rules.hre import ENGINE

    playout = play_random(ENGINE, 3, {"modules": [], "options": {}}, 3)

    def walk(value: object) -> None:
        assert not isinstance(value, (float, set, tuple)), value
        if isinstance(value, dict):
            assert all(isinstance(k, str) for k in value)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(playout.state)
