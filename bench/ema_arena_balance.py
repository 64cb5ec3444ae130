"""Self-play of an EMA scenario by one of the site's bots, for the Year-card calibration.

`python bench/ema_arena_balance.py SLUG PLAYERS GAMES [--bot greedy] [--iterations K]
[--seed N] [--options JSON]` plays GAMES games of one scenario, every seat the same bot (the
arena's bots, `rules.bots.choose`, with an iteration budget so a run is deterministic), and
prints one JSON line per Empire: its win rate (a shared first place split, `Engine.returns`),
its mean Area points (26.0: 3 + SS per connected Area) at the start and at the end, and a last
line with the winner's mean Area points at the start and end. Seeds are N … N + GAMES − 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules.bots as bots  # noqa: E402
from rules.bots.base import Budget, mix  # noqa: E402
from rules.core.registry import get_engine  # noqa: E402
from rules.ema.victory import breakdown  # noqa: E402

ENGINE = get_engine("ema")


def play(slug: str, players: int, seed: int, bot: str, budget: Budget | None, options: dict):
    """One game: per seat (empire, share of the win, Area points at start, at end)."""
    state = ENGINE.setup(seed, {"scenario": slug, "options": options}, players)
    start = [breakdown(state, i)["areas"] for i in range(players)]
    empires = [me["empire"] for me in state["seats"]]
    actions = 0
    while not ENGINE.is_over(state):
        seat = ENGINE.prompts(state)[0]["seat"]
        action = bots.choose(bot, ENGINE, state, seat, mix(seed, actions), budget)
        ENGINE.apply_trusted(state, seat, action)
        actions += 1
    shares = ENGINE.returns(state)
    end = [breakdown(state, i)["areas"] for i in range(players)]
    return empires, shares, start, end


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("slug")
    parser.add_argument("players", type=int)
    parser.add_argument("games", type=int)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}")
    args = parser.parse_args()
    budget = Budget(iterations=args.iterations) if args.iterations else None
    wins: dict[str, float] = defaultdict(float)
    first: dict[str, float] = defaultdict(float)
    last: dict[str, float] = defaultdict(float)
    won = [0.0, 0.0]
    order: list[str] = []
    for seed in range(args.seed, args.seed + args.games):
        empires, shares, start, end = play(
            args.slug, args.players, seed, args.bot, budget, json.loads(args.options)
        )
        order = empires
        for e, share, a, b in zip(empires, shares, start, end, strict=True):
            wins[e] += share
            first[e] += a
            last[e] += b
            won[0] += share * a
            won[1] += share * b
        print(json.dumps({"seed": seed, "shares": shares, "end": end}), file=sys.stderr, flush=True)
    n = args.games
    for e in order:
        row = {"empire": e, "win_rate": round(wins[e] / n, 3), "area_start": round(first[e] / n, 1),
               "area_end": round(last[e] / n, 1)}  # fmt: skip
        print(json.dumps(row))
    print(
        json.dumps(
            {"winner_area_start": round(won[0] / n, 1), "winner_area_end": round(won[1] / n, 1)}
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
