"""Random playouts of one engine, from any checkout, for before/after comparisons.

`python bench/playouts.py GAME GAMES [--root DIR] [--scenario SLUG] [--players N] [--options JSON]`
plays one
warm-up game, then GAMES random playouts (seeds 1..GAMES, by default the first scenario at its
largest table, no hashing or invariants) with
the `rules` package of DIR (default: this checkout), and prints the actions and the actions per
CPU-second. On a shared machine CPU time still moves with the load; under
`valgrind --tool=callgrind` the difference between GAMES=N and GAMES=0 is the instruction count
of N games, which does not (with PYTHONHASHSEED=0 and `setarch -R`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def main() -> int:
    """Play and print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("games", type=int)
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--scenario", default=None, help="a shipped scenario's slug")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the most)")
    parser.add_argument("--options", default=None, help="scenario options, a JSON object")
    args = parser.parse_args()
    sys.path.insert(0, args.root)
    import rules
    from rules.core.playout import play_random
    from rules.core.registry import get_engine

    if not Path(rules.__file__).resolve().is_relative_to(Path(args.root).resolve()):
        parser.error(f"rules was imported from {rules.__file__}, not from {args.root}")

    engine = get_engine(args.game)
    scenarios = engine.scenarios()
    scenario = next((s for s in scenarios if s["slug"] == args.scenario), scenarios[0])
    config = scenario["config"]
    if args.options:
        config = {**config, "options": {**config.get("options", {}), **json.loads(args.options)}}
    players = args.players or int(scenario["max_players"])
    play_random(engine, 999, config, players, invariants=False, hashes=False)
    start, actions = time.process_time(), 0
    for seed in range(1, args.games + 1):
        actions += play_random(
            engine, seed, config, players, invariants=False, hashes=False
        ).actions
    spent = time.process_time() - start
    rate = round(actions / spent) if actions else 0
    print(f'{{"game": "{args.game}", "actions": {actions}, "actions_per_cpu_second": {rate}}}')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
