"""Every shipped scenario's tables, each game once: Module 2's per-count scenarios
(`great-domain-5` .. `-8`) narrow `great-domain` (5 to 8) to one seat count with the same
config, so they set up the very same games and testing them again would only cost time."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.core import canonical_json
from rules.core.engine import Engine
from rules.core.registry import all_engines


def distinct_tables(
    every_count: bool = True, engines: Iterable[Engine] | None = None
) -> list[tuple[Engine, dict[str, Any], int]]:
    """(engine, scenario, players) for every shipped scenario at every seat count of its range
    (or only its smallest and largest), leaving out a table an earlier scenario already sets up."""
    seen: set[tuple[str, str, int]] = set()
    found = []
    for engine in all_engines() if engines is None else engines:
        for scenario in engine.scenarios():
            low, high = scenario["min_players"], scenario["max_players"]
            counts = range(low, high + 1) if every_count else sorted({low, high})
            for players in counts:
                key = (engine.game_id, canonical_json(scenario["config"]), players)
                if key not in seen:
                    seen.add(key)
                    found.append((engine, scenario, players))
    return found
