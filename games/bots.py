"""Bots: a random bot and a greedy one-step look-ahead bot, for every registered engine.

A bot sees only its own seat's prompt and, for look-ahead, a determinized state: a full state
consistent with its seat's view, hidden things re-dealt (ARCHITECTURE §2.10).
"""

from __future__ import annotations

import random
from typing import Any

from rules.core.canonical import clone
from rules.core.engine import Engine

LOOKAHEAD_OPTIONS = 40


def choose(kind: str, engine: Engine, state: dict[str, Any], seat: int, seed: int) -> Any:
    """The action a bot of this kind takes for its seat."""
    prompt = engine.prompt_for(state, seat)
    if prompt is None:
        raise ValueError("the bot's seat has nothing to decide")
    options = prompt["options"]
    picker = random.Random(seed)
    if kind == "greedy" and len(options) > 1:
        return _greedy(engine, state, seat, options, seed, picker)
    return picker.choice(options)["action"]


def _greedy(
    engine: Engine,
    state: dict[str, Any],
    seat: int,
    options: list[Any],
    seed: int,
    picker: random.Random,
) -> Any:
    """The option whose result the engine's evaluate likes best, on a determinized state."""
    sample = (
        options if len(options) <= LOOKAHEAD_OPTIONS else picker.sample(options, LOOKAHEAD_OPTIONS)
    )
    world = engine.determinize(state, seat, seed)
    best, best_value = sample[0]["action"], None
    for option in sample:
        trial = clone(world)
        engine.apply_trusted(trial, seat, option["action"])
        value = engine.evaluate(trial, seat)
        if best_value is None or value > best_value:
            best, best_value = option["action"], value
    return best
