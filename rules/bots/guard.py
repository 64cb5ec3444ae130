"""No bot hangs a game: the options a bot may take without going round in circles in its turn.

A bot is pure (it remembers nothing between decisions), so it cannot know the positions it has
already been in. What it can see is the shape of a circle: an option that takes it back to a
position from which one step returns here (a "Cancel" after "Conquest"), or an option that
leads only back here. Those are left out whenever anything else is offered, so a bot that
started something finishes it, and never starts what it can only cancel.
"""

from __future__ import annotations

from rules.bots import heuristics
from rules.core.canonical import canonical_bytes, clone
from rules.core.engine import Engine, Option, State

# A dead end is checked only where few options follow (a "Cancel" alone, or two).
DEAD_END_OPTIONS = 2


def _depth(state: State) -> int:
    return len(state.get("stack") or ())


def _returns_to(engine: Engine, after: State, seat: int, here: bytes, depth: int) -> bool:
    """Whether some option of the seat at `after` leads back to the position `here`."""
    prompt = engine.prompt_for(after, seat)
    if prompt is None:
        return False
    for option in prompt["options"]:
        trial = clone(after)
        engine.apply_trusted(trial, seat, option["action"])
        if _depth(trial) == depth and canonical_bytes(trial) == here:
            return True
    return False


def _dead_end(engine: Engine, after: State, seat: int, here: bytes, depth: int) -> bool:
    """Whether every option of the seat at `after` leads straight back to `here`."""
    prompt = engine.prompt_for(after, seat)
    if prompt is None or len(prompt["options"]) > DEAD_END_OPTIONS:
        return False
    for option in prompt["options"]:
        trial = clone(after)
        engine.apply_trusted(trial, seat, option["action"])
        if _depth(trial) != depth or canonical_bytes(trial) != here:
            return False
    return True


def safe(
    engine: Engine, world: State, seat: int, options: list[Option]
) -> list[tuple[Option, State]]:
    """The options that keep the turn going forward, each with the position it leads to.

    `world` is the bot's own (determinized) position. Never empty: when every option turns
    back, all are returned. A game's own futile repeats (`heuristics.restrain`) go first.
    """
    options = heuristics.restrain(engine, world, seat, options)
    results = []
    for option in options:
        after = clone(world)
        engine.apply_trusted(after, seat, option["action"])
        results.append((option, after))
    if engine.is_over(world) or len(results) < 2:
        return results
    depth = _depth(world)
    here: bytes | None = None
    kept = []
    for option, after in results:
        if engine.is_over(after) or after.get("rng") != world.get("rng"):
            kept.append((option, after))  # a roll or a shuffle moves on by itself
            continue
        if _depth(after) < depth:
            here = here or canonical_bytes(world)
            if _returns_to(engine, after, seat, here, depth):
                continue
        elif _depth(after) > depth:
            here = here or canonical_bytes(world)
            if _dead_end(engine, after, seat, here, depth):
                continue
        kept.append((option, after))
    return kept or results
