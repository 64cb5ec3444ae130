"""Positions for bot tests: random games stopped part-way, in every shipped scenario."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import Engine, State
from tests.rules.tables import distinct_tables


def scenario_seats() -> list[tuple[Engine, dict[str, Any], int]]:
    """Every shipped scenario at its smallest and largest seat count."""
    return distinct_tables(every_count=False)


def advance(engine: Engine, state: State, steps: int, seed: int) -> State:
    """Play up to `steps` random actions (stopping at the end of the game)."""
    chooser = {"rng": rng.seed_state(seed)}
    for _ in range(steps):
        if engine.is_over(state):
            break
        prompt = rng.choice(chooser, engine.prompts(state))
        engine.apply_trusted(
            state, prompt["seat"], rng.choice(chooser, prompt["options"])["action"]
        )
    return state


def position(engine: Engine, slug: str, players: int, steps: int, seed: int = 1) -> State:
    """A position `steps` random actions into a game of this scenario."""
    scenario = next(s for s in engine.scenarios() if s["slug"] == slug)
    return advance(engine, engine.setup(seed, scenario["config"], players), steps, seed)


def deciding(engine: Engine, state: State) -> int:
    """The first seat prompted now."""
    return int(engine.prompts(state)[0]["seat"])
