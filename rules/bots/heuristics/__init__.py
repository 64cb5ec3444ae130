"""Per-game heuristics for the bots: how promising a position is for each seat.

Each game's module gives `potentials(engine, state)`: per seat, the score the seat would have if
the game ended now plus what is on its way to becoming score (resources, units, cards), in VP.
A seat's value is its potential less the best rival's (in a solitaire game, its potential).
`SCALE` says how many VP make a clear lead; search bots turn values into rewards with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType

from rules.bots.heuristics import ema, feudal, hre
from rules.core.engine import Engine, Option, State

GAMES: dict[str, ModuleType] = {"hre": hre, "ema": ema, "feudal": feudal}
Potentials = Callable[[Engine, State], list[float]]


def _default(engine: Engine, state: State) -> list[float]:
    return [float(row["score"]) for row in engine.result(state)["seats"]]


def potentials(engine: Engine, state: State) -> list[float]:
    """Each seat's potential in VP (a game without its own module: the score if it ended now)."""
    module = GAMES.get(engine.game_id)
    fn: Potentials = module.potentials if module else _default
    return fn(engine, state)


def restrain(engine: Engine, state: State, seat: int, options: list[Option]) -> list[Option]:
    """The options a bot may take here, less those its game's module calls futile repeats.

    A game whose rules let a seat undo something for free and start it again (Feudal Lords'
    called-off attack) can cycle in ways the guard's exact-position check does not see, because
    a counter or a die roll changes on the way round. Such a game's module gives
    `restrain(state, seat, options)`; it never returns an empty list.
    """
    module = GAMES.get(engine.game_id)
    fn = getattr(module, "restrain", None)
    if fn is None:
        return options
    kept: list[Option] = fn(state, seat, options)
    return kept or options


def relative(values: list[float]) -> list[float]:
    """Each seat's potential less the best rival's; alone, the potential itself."""
    if len(values) == 1:
        return list(values)
    out = []
    for i, mine in enumerate(values):
        out.append(mine - max(v for j, v in enumerate(values) if j != i))
    return out


def value(engine: Engine, state: State, seat: int) -> float:
    """How good the position is for the seat: its lead (or deficit) in potential VP."""
    if engine.is_over(state):
        won = solo_won(engine, state) if engine.seats(state) == 1 else engine.returns(state)[seat]
        return 1000.0 * float(won) + relative(_default(engine, state))[seat]
    return relative(potentials(engine, state))[seat]


def scale(engine: Engine, state: State) -> float:
    """How many VP of lead make a position nearly won, for this game."""
    module = GAMES.get(engine.game_id)
    return float(module.SCALE) if module else 10.0


def rewards(engine: Engine, state: State) -> list[float]:
    """A reward in [0, 1] per seat: `returns` once over, else the heuristic lead squashed."""
    module = GAMES.get(engine.game_id)
    if engine.seats(state) == 1 and module is not None:
        return [float(module.solo_reward(engine, state))]
    if engine.is_over(state):
        return [float(r) for r in engine.returns(state)]
    size = scale(engine, state)
    return [1.0 / (1.0 + math.exp(-v / size)) for v in relative(potentials(engine, state))]


def solo_won(engine: Engine, state: State) -> bool:
    """Whether a finished one-seat game is a victory under the scenario's own conditions."""
    module = GAMES.get(engine.game_id)
    if module is None:
        return engine.returns(state)[0] > 0
    return bool(module.solo_won(engine, state))
