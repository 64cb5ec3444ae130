"""The random bot: any offered option, uniformly (a beginner)."""

from __future__ import annotations

from rules.bots.base import Bot, BotKind, Budget
from rules.core import rng
from rules.core.engine import Engine, Option, State

KIND = BotKind("random", "Random", "a beginner", "Picks any legal choice at random.", 0, Budget())


def choose(
    engine: Engine, state: State, seat: int, options: list[Option], seed: int, budget: Budget
) -> Option:
    """One of the options, uniformly for the seed."""
    picker = {"rng": rng.seed_state(seed)}
    return rng.choice(picker, options)


BOT = Bot(KIND, choose)
