"""The random bot: any offered option, uniformly (a beginner), but never one that only turns
back (the guard: no bot goes round in circles within its turn)."""

from __future__ import annotations

from rules.bots.base import Bot, BotKind, Budget, mix
from rules.bots.guard import safe
from rules.core import rng
from rules.core.engine import Engine, Option, State

KIND = BotKind("random", "Random", "a beginner", "Picks any legal choice at random.", 0, Budget())


def choose(
    engine: Engine, state: State, seat: int, options: list[Option], seed: int, budget: Budget
) -> Option:
    """One of the options that keep the turn going, uniformly for the seed."""
    picker = {"rng": rng.seed_state(seed)}
    world = engine.determinize(state, seat, mix(seed, 8))
    return rng.choice(picker, [option for option, _after in safe(engine, world, seat, options)])


BOT = Bot(KIND, choose)
