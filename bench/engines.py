"""Engine benchmarks: random-playout speed and the cost of clone, view and serialization.

Run with `make bench` (or `python bench/engines.py`); figures go to stdout as JSON lines and
are written down, with the machine they came from, in bench/README.md. Nothing here asserts
a time: the machines are shared and noisy.
"""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.core.cli import main as rules_main  # noqa: E402
from rules.core.playout import play_random  # noqa: E402
from rules.core.registry import all_engines  # noqa: E402


def peak_memory_kib(game: str, scenario: dict[str, object], players: int) -> int:
    """Peak Python memory of one random playout, in KiB."""
    engine = next(e for e in all_engines() if e.game_id == game)
    tracemalloc.start()
    play_random(engine, 1, scenario["config"], players, invariants=False, hashes=False)  # type: ignore[arg-type]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak // 1024


def main() -> int:
    """Benchmark every registered engine at each seat count of its first scenario."""
    for engine in all_engines():
        scenario = engine.scenarios()[0]
        for players in range(int(scenario["min_players"]), int(scenario["max_players"]) + 1):
            rules_main(
                ["bench", engine.game_id, "--players", str(players), "--games", "50", "--json"]
            )
            print(
                f'{{"game": "{engine.game_id}", "players": {players}, '
                f'"playout_peak_kib": {peak_memory_kib(engine.game_id, scenario, players)}}}'
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
