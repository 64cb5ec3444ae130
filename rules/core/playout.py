"""Random playouts: whole games where every prompted seat picks uniformly among its options."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.core import rng
from rules.core.engine import Engine, Prompt, Result, State
from rules.core.errors import InvariantError
from rules.core.replay import ReplayReport, new_record, record_move, replay

ACTION_CAP = 50_000
# A position seen more than this many times within one seat's turn is a loop (a bot or a rule
# going round in circles), reported as an error by `simulate` and `arena`.
LOOP_LIMIT = 4
# Uniform random playouts (not bots: they have no guard) may wander back now and then, e.g.
# declare and cancel twice in a row; only a position back this often is reported as a loop.
RANDOM_LOOP_LIMIT = 12
# A turn of more actions than this is a loop too, though no position need recur: a cycle that
# moves a counter or rolls a die on each round (Feudal Lords' called-off attack, heuristics.feudal)
# makes every position new. The longest turn of random play over three games of every shipped
# scenario was 220 actions (EMA 27 solo; HRE 11-149, FL 32-95; 2026-12-06).
TURN_LIMIT = 1_000


class PlayoutError(Exception):
    """A playout that could not finish: the message says which check failed and where."""


class LoopWatch:
    """Counts positions within the current turn; reports one that recurs too often."""

    def __init__(self, limit: int = LOOP_LIMIT, turn_limit: int = TURN_LIMIT) -> None:
        self.limit = limit
        self.turn_limit = turn_limit
        self.turn: object = None
        self.seen: dict[str, int] = {}
        self.length = 0

    def see(self, engine: Engine, state: State, digest: str) -> str | None:
        """Note a position (by its hash); a message when it has recurred past the limit, or
        when the turn has gone on for more than `turn_limit` actions."""
        turn = engine.active_seat(state)
        if turn != self.turn:
            self.turn, self.seen, self.length = turn, {}, 0
        count = self.seen.get(digest, 0) + 1
        self.seen[digest] = count
        self.length += 1
        who = "between turns" if turn is None else f"in seat {turn + 1}'s turn"
        if count > self.limit:
            return f"loop: the same position came back {count} times {who}"
        if self.length > self.turn_limit:
            return f"loop: {self.length} actions {who} without the turn passing"
        return None


@dataclass
class Playout:
    """A finished playout: its record, final state and result."""

    record: dict[str, Any]
    state: State
    actions: int
    over: bool
    result: Result | None
    replay: ReplayReport | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def next_prompts(engine: Engine, state: State, seed: int, actions: int, cap: int) -> list[Prompt]:
    """The prompts of a game not yet over; PlayoutError past the cap or when nobody is prompted."""
    if actions >= cap:
        raise PlayoutError(f"seed {seed}: no end within {cap} actions")
    prompts = engine.prompts(state)
    if not prompts:
        raise PlayoutError(f"seed {seed}: nobody is prompted but the game is not over")
    return prompts


def play_random(
    engine: Engine,
    seed: int,
    config: dict[str, Any],
    players: int,
    *,
    invariants: bool = True,
    hashes: bool = True,
    cap: int = ACTION_CAP,
) -> Playout:
    """Play one whole game choosing uniformly; raise PlayoutError on any failed check.

    Without `hashes` the record keeps no set-up or per-move hashes (for benchmarks: hashing
    costs more than the rules themselves).
    """
    state = engine.setup(seed, config, players)
    chooser = {"rng": rng.seed_state(seed ^ 0x5DEECE66D)}
    record = new_record(engine, seed, config, players, state, hashed=hashes)
    watch = LoopWatch(RANDOM_LOOP_LIMIT)
    actions = 0
    while not engine.is_over(state):
        prompt = rng.choice(chooser, next_prompts(engine, state, seed, actions, cap))
        if not prompt["options"]:
            raise PlayoutError(f"seed {seed}: seat {prompt['seat']} prompted with no options")
        action = rng.choice(chooser, prompt["options"])["action"]
        try:
            engine.apply_trusted(state, prompt["seat"], action)
            if invariants:
                engine.check_invariants(state)
        except InvariantError as error:
            raise PlayoutError(f"seed {seed} action {actions + 1}: invariant: {error}") from error
        except Exception as error:
            raise PlayoutError(f"seed {seed} action {actions + 1}: crash: {error!r}") from error
        if hashes:
            record_move(record, prompt["seat"], action, state)
            loop = watch.see(engine, state, record["moves"][-1]["hash"])
            if loop:
                raise PlayoutError(f"seed {seed} action {actions + 1}: {loop}")
        else:
            record["moves"].append({"seat": prompt["seat"], "action": action})
        actions += 1
    return Playout(record, state, actions, True, engine.result(state))


def play_and_replay(engine: Engine, seed: int, config: dict[str, Any], players: int) -> Playout:
    """A random playout followed by a checked replay of its record."""
    playout = play_random(engine, seed, config, players)
    playout.replay = replay(engine, playout.record)
    return playout
