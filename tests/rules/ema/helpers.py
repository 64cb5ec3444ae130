"""Helpers for EMA rule tests: a set-up state and a context over it."""

from __future__ import annotations

from typing import Any

from rules.core.registry import get_engine
from rules.ema.state import Ctx

ENGINE = get_engine("ema")


def new(slug: str = "28-millenium", players: int = 2, seed: int = 1, **options: Any) -> dict[str, Any]:
    """A fresh game state."""
    return ENGINE.setup(seed, {"scenario": slug, "options": options}, players)


def ctx(state: dict[str, Any]) -> Ctx:
    """A context over a state, collecting events."""
    return Ctx(state)
