"""Short arena runs end without error: every bot kind, every shipped scenario (small budgets)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.bots import arena
from rules.bots.base import Budget
from rules.core.engine import Engine
from rules.core.registry import get_engine
from tests.rules.tables import distinct_tables

KINDS = ["search", "greedy", "random", "search-strong"]


# The Grand Scenario's 140 Rounds take some 20,000 actions (the arena's guard follows the
# scenario's length, test_arena.py); with search bots that is hours, so here it is played at 10
# Rounds, a length its players may agree on (32.0), which still holds the Charlemagne prelude.
SHORTER = {"32-grand": {"rounds": 10}}


def _one_game(engine: Engine, scenario: dict[str, Any], players: int, iterations: int) -> None:
    names = [KINDS[i % len(KINDS)] for i in range(players)]
    config = dict(scenario["config"])
    if scenario["slug"] in SHORTER:
        config["options"] = {**config.get("options", {}), **SHORTER[scenario["slug"]]}
    figures = arena.run(engine, config, players, names, 1, 1, Budget(iterations=iterations))
    assert figures["errors"] == 0, figures["error_messages"]
    assert figures["unfinished"] == 0


@pytest.mark.parametrize(("slug", "players"), [("duel", 2), ("solitaire", 1)])
def test_search_plays_feudal_lords_to_the_end(slug: str, players: int) -> None:
    engine = get_engine("feudal")
    scenario = next(s for s in engine.scenarios() if s["slug"] == slug)
    _one_game(engine, scenario, players, 3)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("engine", "scenario", "players"),
    distinct_tables(every_count=False),
    ids=lambda v: v if isinstance(v, int) else getattr(v, "game_id", None) or v["slug"],
)
def test_every_scenario_plays_to_the_end_with_every_bot_kind(
    engine: Engine, scenario: dict[str, Any], players: int
) -> None:
    _one_game(engine, scenario, players, 3)
