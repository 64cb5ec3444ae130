"""Screen variants of the search bot against another bot, one game at a time.

`python bench/search_tune.py GAME [--scenario S] [--players N] [--against greedy] --games G
[--seed S] --iterations K [--style rollout=0,policy=greedy,prior_visits=8,...]`

plays G games of the normal search bot, with its `Style` changed as given, against the other
bot in every other seat, the seats rotated and seeded as `python -m rules arena` does (game g
has seed S + g and puts the search bot in seat g mod N), so a screen of games 0..G-1 is the
arena's run with the same seed. Each game prints one JSON line as it ends (the arena prints
only at the end): the search bot's win share, the scores, the CPU seconds of the game and the
search bot's think time per decision. The last line sums the wins.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from rules.bots import arena, search
from rules.bots.base import Budget
from rules.core.playout import PlayoutError
from rules.core.registry import get_engine


def style(text: str, game: str) -> search.Style:
    """A Style from `name=value,...` over the normal bot's own in this game."""
    base = search.style_for(get_engine(game), 2)
    fields = {f.name: f.type for f in dataclasses.fields(base)}
    changes: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, raw = part.partition("=")
        if name not in fields:
            sys.exit(f"no style field {name!r} (known: {', '.join(fields)})")
        kind = str(fields[name])
        if "bool" in kind:
            changes[name] = raw.lower() in ("1", "true", "yes")
        elif "float" in kind:
            changes[name] = float(raw)
        elif "int" in kind:
            changes[name] = int(raw)
        else:
            changes[name] = raw
    return dataclasses.replace(base, **changes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--scenario", default="base")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="the first game index to play")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--style", default="")
    args = parser.parse_args()
    engine = get_engine(args.game)
    scenario = next(s for s in engine.scenarios() if s["slug"] == args.scenario)
    search.STYLES[2] = style(args.style, args.game)
    search.GAME_STYLES.pop(args.game, None)  # the game's own style is in STYLES[2] now
    names = ["search"] + [args.against] * (args.players - 1)
    budget = Budget(iterations=args.iterations)
    wins = 0.0
    for index in range(args.first, args.first + args.games):
        seats = arena.seating(names, index)
        mine = seats.index("search")
        tallies = {name: arena.Tally() for name in names}
        start = arena.cpu_seconds()
        error = None
        try:
            arena.play_game(
                engine, scenario["config"], args.players, seats, args.seed + index, budget, tallies
            )
        except PlayoutError as failure:  # a crash, a loop, or no end within the cap
            error = str(failure)
        spent = arena.cpu_seconds() - start
        mine_tally = tallies["search"]
        share = mine_tally.wins
        wins += share
        line = {
            "game": index,
            "seed": args.seed + index,
            "seat": mine,
            "win": share,
            "score": mine_tally.score,
            "rival_score": tallies[args.against].score / max(1, tallies[args.against].games),
            "cpu_s": round(spent, 1),
            "decisions": len(mine_tally.think),
            "think_p50_ms": round(arena.percentile(mine_tally.think, 50), 1),
            "think_p95_ms": round(arena.percentile(mine_tally.think, 95), 1),
            "error": error,
        }
        print(json.dumps(line), flush=True)
    print(
        json.dumps(
            {
                "style": dataclasses.asdict(search.STYLES[2]),
                "iterations": args.iterations,
                "games": args.games,
                "wins": wins,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
