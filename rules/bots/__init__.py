"""TEMPORARY stand-in for the bot package (branch `bots` writes the real one; drop this file then).

It offers exactly the agreed public surface (/work/brief/BOTS-INTERFACE.md): the registry `BOTS`,
`get_bot` and `choose`, over the random and one-step greedy logic the site had in games/bots.py,
so the site can be built and tested against the interface. "search" and "search-strong" play
the greedy logic here; the real package replaces them with the information-set search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import rng
from rules.core.canonical import clone
from rules.core.engine import Engine, Option, State

LOOKAHEAD_OPTIONS = 40


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


BOTS: list[BotKind] = [
    BotKind("random", "Random", "a beginner", "Picks any legal choice at random.", 0, Budget()),
    BotKind("greedy", "Greedy", "easy", "Takes the choice that looks best right now.", 1, Budget()),
    BotKind(
        "search",
        "Search",
        "normal",
        "Thinks a few moves ahead, about a second a decision.",
        2,
        Budget(ms=1000),
    ),
    BotKind(
        "search-strong",
        "Search",
        "strong",
        "Thinks further ahead, about three seconds a decision.",
        3,
        Budget(ms=3000),
    ),
]


def get_bot(slug: str) -> BotKind:
    """The bot kind with this slug; KeyError with a readable message when there is none."""
    for kind in BOTS:
        if kind.slug == slug:
            return kind
    known = ", ".join(k.slug for k in BOTS)
    raise KeyError(f"There is no bot called {slug!r} (known: {known}).")


def choose(
    slug: str, engine: Engine, state: State, seat: int, seed: int, budget: Budget | None = None
) -> Any:
    """The action (one of the seat's prompt options) a bot of this kind picks."""
    kind = get_bot(slug)
    prompt = engine.prompt_for(state, seat)
    if prompt is None:
        raise ValueError("the bot's seat has nothing to decide")
    options = prompt["options"]
    picker = {"rng": rng.seed_state(seed)}
    if kind.strength == 0 or len(options) == 1:
        return rng.choice(picker, options)["action"]
    return _greedy(engine, state, seat, options, seed, picker)


def _greedy(
    engine: Engine,
    state: State,
    seat: int,
    options: list[Option],
    seed: int,
    picker: dict[str, Any],
) -> Any:
    """The option whose result the engine's evaluate likes best, on a determinized state."""
    sample = list(options)
    if len(sample) > LOOKAHEAD_OPTIONS:
        rng.shuffle(picker, sample)
        sample = sample[:LOOKAHEAD_OPTIONS]
    world = engine.determinize(state, seat, seed)
    best, best_value = sample[0]["action"], None
    for option in sample:
        trial = clone(world)
        engine.apply_trusted(trial, seat, option["action"])
        value = engine.evaluate(trial, seat)
        if best_value is None or value > best_value:
            best, best_value = option["action"], value
    return best
