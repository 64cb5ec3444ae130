"""The arena: bots play whole games against each other, rotating through the seats.

`python -m rules arena GAME --bots A,B --games N --seed S [--iterations K | --ms M] [--json]`
prints per bot its games, wins (ties split), win rate with a 95% Wilson interval, mean score
and think time per decision (CPU time of this process, so a busy machine does not inflate it).
A crash, a loop (a position recurring within one seat's turn) or a game that does not end is
an error: the command then exits 1.
"""

from __future__ import annotations

import argparse
import math
import resource
import sys
from dataclasses import dataclass, field
from typing import Any

import rules.bots as bots
from rules.bots import heuristics
from rules.bots.base import Budget, mix
from rules.core.canonical import state_hash
from rules.core.cli import show
from rules.core.engine import Engine, State
from rules.core.errors import ScenarioError
from rules.core.playout import LoopWatch, PlayoutError, next_prompts

# A game longer than CAP_FACTOR times its engine's expected length (and at least CAP_FLOOR
# actions) does not end: an error. The Grand Scenario's 140 Rounds take some 20,000 actions.
CAP_FACTOR = 10
CAP_FLOOR = 20_000
Z95 = 1.959963984540054


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (ties counted as half wins)."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of the values; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100.0 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Tally:
    """One bot's figures over the games it played (a bot in several seats counts each)."""

    games: int = 0
    wins: float = 0.0
    score: float = 0.0
    think: list[float] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.games)
        return {
            "games": self.games,
            "wins": round(self.wins, 3),
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "mean_score": round(self.score / self.games, 2) if self.games else 0.0,
            "think_ms": {
                "p50": round(percentile(self.think, 50), 1),
                "p95": round(percentile(self.think, 95), 1),
                "max": round(max(self.think, default=0.0), 1),
            },
        }


class GameFailed(PlayoutError):
    """A game crashed, looped or did not end; the message says which and where."""


def cpu_seconds() -> float:
    """CPU time this process has used (user + system): what a decision costs on one core.

    Only the arena's figures read it, as `bench` reads the wall clock; no bot decides by it."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def action_cap(engine: Engine, state: State) -> int:
    """How many actions a game from this setup may take before it counts as never ending."""
    return max(CAP_FLOOR, CAP_FACTOR * engine.expected_length(state))


def play_game(
    engine: Engine,
    config: dict[str, Any],
    players: int,
    seats: list[str],
    seed: int,
    budget: Budget | None,
    tallies: dict[str, Tally],
) -> None:
    """Play one game with these bots in these seats, adding to their tallies."""
    state = engine.setup(seed, config, players)
    cap = action_cap(engine, state)
    watch = LoopWatch()
    actions = 0
    think: list[list[float]] = [[] for _ in seats]
    while not engine.is_over(state):
        seat = next_prompts(engine, state, seed, actions, cap)[0]["seat"]
        try:
            start = cpu_seconds()
            action = bots.choose(seats[seat], engine, state, seat, mix(seed, actions), budget)
            think[seat].append((cpu_seconds() - start) * 1000.0)
            engine.apply_trusted(state, seat, action)
        except Exception as error:
            raise GameFailed(f"seed {seed} action {actions + 1}: crash: {error!r}") from error
        actions += 1
        loop = watch.see(engine, state, state_hash(state))
        if loop:
            raise GameFailed(f"seed {seed} action {actions}: {loop} ({seats[seat]} bot)")
    rows = engine.result(state)["seats"]
    if players == 1:
        shares = [1.0 if heuristics.solo_won(engine, state) else 0.0]
    else:
        shares = engine.returns(state)
    for seat, name in enumerate(seats):
        tally = tallies[name]
        tally.games += 1
        tally.wins += shares[seat]
        tally.score += rows[seat]["score"]
        tally.think += think[seat]


def seating(names: list[str], index: int) -> list[str]:
    """The bots by seat in game `index`: the list turned by one seat a game."""
    players = len(names)
    return [names[(i + index) % players] for i in range(players)]


def run(
    engine: Engine,
    config: dict[str, Any],
    players: int,
    names: list[str],
    games: int,
    seed: int,
    budget: Budget | None,
    progress: Any = None,
) -> dict[str, Any]:
    """Play the games, rotating the bots through the seats; the figures as one object."""
    tallies = {name: Tally() for name in names}
    unfinished = 0
    errors: list[str] = []
    for index in range(games):
        seats = seating(names, index)
        try:
            play_game(engine, config, players, seats, seed + index, budget, tallies)
        except PlayoutError as failure:
            errors.append(str(failure))
            if "no end" in str(failure):
                unfinished += 1
        if progress:
            progress(index + 1, games)
    return {
        "unfinished": unfinished,
        "errors": len(errors),
        "error_messages": errors,
        "bots": {name: tallies[name].figures() for name in names},
    }


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        bots.get_bot(name)
    if not names:
        raise ScenarioError("--bots needs at least one bot, e.g. --bots greedy,random")
    return names


def command(
    args: argparse.Namespace, engine: Engine, scenario: dict[str, Any], config: dict[str, Any]
) -> int:
    """The `arena` subcommand (input already checked for the game and scenario)."""
    names = _names(args.bots)
    players = args.players or len(names)
    if not scenario["min_players"] <= players <= scenario["max_players"]:
        raise ScenarioError(
            f"{scenario['slug']} takes {scenario['min_players']}–{scenario['max_players']} players"
        )
    if len(names) != players:
        raise ScenarioError(f"--bots needs one bot per seat: {players} names for {players} players")
    if args.games < 1:
        raise ScenarioError("--games must be at least 1")
    if args.iterations is not None and args.ms is not None:
        raise ScenarioError("give --iterations or --ms, not both")
    if (args.iterations is not None and args.iterations < 1) or (
        args.ms is not None and args.ms < 1
    ):
        raise ScenarioError("--iterations and --ms must be positive")
    budget = None
    if args.iterations is not None or args.ms is not None:
        budget = Budget(iterations=args.iterations, ms=args.ms)
    figures = run(engine, config, players, names, args.games, args.seed, budget)
    out = {
        "game": engine.game_id,
        "scenario": scenario["slug"],
        "players": players,
        "games": args.games,
        "unfinished": figures["unfinished"],
        "errors": figures["errors"],
        "bots": figures["bots"],
    }
    show(args, out, _table(out, args))
    for message in figures["error_messages"]:
        print(f"error: {message}", file=sys.stderr)
    return 1 if figures["errors"] else 0


def _table(out: dict[str, Any], args: argparse.Namespace) -> str:
    budget = (
        f"{args.iterations} iterations"
        if args.iterations
        else (f"{args.ms} ms" if args.ms else "each bot's own budget")
    )
    lines = [
        f"{out['game']} {out['scenario']}, {out['players']} players, {out['games']} games, "
        f"seed {args.seed}, {budget}: {out['unfinished']} unfinished, {out['errors']} errors",
        f"{'bot':<14} {'games':>5} {'wins':>7} {'rate':>6} {'95% CI':>15} {'score':>7} "
        f"{'think p50/p95/max CPU ms':>26}",
    ]
    for name, row in out["bots"].items():
        lo, hi = row["ci95"]
        t = row["think_ms"]
        lines.append(
            f"{name:<14} {row['games']:>5} {row['wins']:>7} {row['win_rate']:>6.1%} "
            f"{f'[{lo:.1%}, {hi:.1%}]':>15} {row['mean_score']:>7} "
            f"{t['p50']:>8}/{t['p95']}/{t['max']}"
        )
    return "\n".join(lines)
