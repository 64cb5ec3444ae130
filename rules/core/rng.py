"""A small seeded generator whose whole state is one int kept in the game state.

SplitMix64: tiny, fast in pure Python, and good enough for dice and shuffles. Engines call
these functions with the game state; nothing here keeps hidden module state.
"""

from __future__ import annotations

from typing import Any, TypeVar

MASK = (1 << 64) - 1
T = TypeVar("T")


def seed_state(seed: int) -> int:
    """Turn any int seed into a generator state."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK


def below(state: dict[str, Any], n: int) -> int:
    """A uniform int in [0, n), without modulo bias."""
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    limit = MASK - (MASK + 1) % n
    while True:
        # One SplitMix64 step, written out here: this runs for every die, shuffle and choice.
        z: int = (state["rng"] + 0x9E3779B97F4A7C15) & MASK
        state["rng"] = z
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        value = z ^ (z >> 31)
        if value <= limit:
            return value % n


def die(state: dict[str, Any], sides: int = 6) -> int:
    """Roll one die with faces 1..sides."""
    return below(state, sides) + 1


def shuffle(state: dict[str, Any], items: list[T]) -> None:
    """Fisher–Yates shuffle in place."""
    for i in range(len(items) - 1, 0, -1):
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]


def choice(state: dict[str, Any], items: list[T]) -> T:
    """One item picked uniformly."""
    return items[below(state, len(items))]
