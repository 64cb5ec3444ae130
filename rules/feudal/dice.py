"""Every die the engine rolls goes through here, so tests can rig rolls in one place."""

from __future__ import annotations

from typing import Any

from rules.core import rng


def d6(state: dict[str, Any]) -> int:
    """One d6: Draft, Lone, Control/VP, Task and resource rolls."""
    return rng.die(state, 6)


def roll2(state: dict[str, Any]) -> int:
    """The total of 2d6: DF, CC hit, block and armor rolls."""
    return rng.die(state, 6) + rng.die(state, 6)
