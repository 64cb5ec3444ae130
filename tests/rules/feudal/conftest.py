"""Fixtures for Feudal Lords rules tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rules.feudal import dice


@pytest.fixture
def rig(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Rig the dice: d6 rolls and 2d6 totals are taken in order from the yielded list.

    While the list is empty the real dice roll (so set-up helpers work); tests append the
    values just before the rolls they rig and check the list is used up.
    """
    values: list[int] = []
    real_d6, real_roll2 = dice.d6, dice.roll2

    def rigged(real: Any) -> Any:
        def fixed(state: dict[str, Any]) -> int:
            return values.pop(0) if values else int(real(state))

        return fixed

    monkeypatch.setattr(dice, "d6", rigged(real_d6))
    monkeypatch.setattr(dice, "roll2", rigged(real_roll2))
    yield values
