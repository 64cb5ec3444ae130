"""How many iterations the search bot runs per CPU second, per game: the count an iteration
budget must have to stand for the site's normal bot (1,000 ms a decision on one free core).

`python bench/search_rate.py GAME [--scenario S] [--games G] [--seed S] [--iterations K]
[--style name=value,...]`
plays G games of the normal search bot against greedy (seats rotated as the arena does) with
an iteration budget of K, and times every decision in which the search iterated (CPU time of
this process, as the arena's think times). It prints one JSON object: decisions, iterations,
iterations per CPU second over all of them, and the 10th, 50th and 90th percentiles per
decision. A decision that stops early (the leading option settled) counts the iterations it ran.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rules.bots import arena, search
from rules.bots.base import Budget
from rules.core.registry import get_engine


def measure(game: str, slug: str, games: int, seed: int, iterations: int) -> dict[str, Any]:
    """Play the games with the search bot's iterations counted; the figures as one object."""
    engine = get_engine(game)
    scenario = next(s for s in engine.scenarios() if s["slug"] == slug)
    players = scenario["min_players"]
    rates: list[float] = []
    totals = {"iterations": 0, "seconds": 0.0}
    count = [0]
    original_iterate = search.Search.iterate
    original_decide = search._decide

    def iterate(self: search.Search, index: int, options: list[Any]) -> None:
        count[0] += 1
        original_iterate(self, index, options)

    def decide(*args: Any) -> Any:
        count[0] = 0
        start = arena.cpu_seconds()
        chosen = original_decide(*args)
        spent = arena.cpu_seconds() - start
        if count[0] and spent > 0:
            rates.append(count[0] / spent)
            totals["iterations"] += count[0]
            totals["seconds"] += spent
        return chosen

    search.Search.iterate = iterate
    search._decide = decide
    try:
        names = ["search"] + ["greedy"] * (players - 1)
        arena.run(
            engine, scenario["config"], players, names, games, seed, Budget(iterations=iterations)
        )
    finally:
        search.Search.iterate = original_iterate
        search._decide = original_decide
    rates.sort()
    return {
        "game": game,
        "scenario": slug,
        "games": games,
        "iterations_budget": iterations,
        "decisions": len(rates),
        "iterations": totals["iterations"],
        "per_cpu_second": round(totals["iterations"] / max(totals["seconds"], 1e-9), 1),
        "per_decision": {
            q: round(arena.percentile(rates, p), 1)
            for q, p in (("p10", 10), ("p50", 50), ("p90", 90))
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--scenario", default="base")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--style", default="", help="as bench/search_tune.py's --style")
    args = parser.parse_args()
    if args.style:
        from search_tune import style  # bench/ is the script's own directory

        search.STYLES[2] = style(args.style, args.game)
        search.GAME_STYLES.pop(args.game, None)
    figures = measure(args.game, args.scenario, args.games, args.seed, args.iterations)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
