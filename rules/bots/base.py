"""The bot interface: budgets, bot kinds and the signature every bot's chooser has."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.core.canonical import canonical_json
from rules.core.engine import Engine, Option, State


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: iterations (deterministic for a seed) and/or wall-clock ms."""

    iterations: int | None = None
    ms: int | None = None


@dataclass(frozen=True)
class BotKind:
    """One kind of bot the site and the command line offer."""

    slug: str
    name: str
    level: str
    description: str
    strength: int
    budget: Budget


# A bot's decision: (engine, state, seat, options offered, seed, budget) -> the chosen option.
# `options` is the seat's prompt, never empty; the chooser must not change `state`.
Chooser = Callable[[Engine, State, int, list[Option], int, Budget], Option]


@dataclass(frozen=True)
class Bot:
    """A registered bot: its kind (what the site shows) and how it decides."""

    kind: BotKind
    choose: Chooser


def mix(seed: int, *parts: int) -> int:
    """A seed derived from a seed and some numbers (same inputs, same seed)."""
    value = seed & 0xFFFFFFFFFFFFFFFF
    for part in parts:
        value = (value * 0x100000001B3 ^ (part & 0xFFFFFFFFFFFFFFFF)) & 0xFFFFFFFFFFFFFFFF
    return value


def action_key(action: Any) -> str:
    """A stable text key of an action (for search trees)."""
    return canonical_json(action)
