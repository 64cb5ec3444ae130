"""Random playouts of every scenario with invariants after every step and replay checks (EMA-27.0–31.0)."""

from __future__ import annotations

import pytest

from rules.core.playout import play_and_replay
from tests.rules.ema.helpers import ENGINE

SCENARIOS = [
    ("27-charlemagne-solo", 1),
    ("27-charlemagne", 2),
    ("28-millenium", 2),
    ("29-crusades", 2),
    ("30-defeat-in-the-east", 2),
    ("31-twilight", 2),
]


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "players"), SCENARIOS)
def test_fifty_short_games_replay_exactly(slug, players):
    """EMA-27.0 EMA-28.0 EMA-29.0 EMA-30.0 EMA-31.0: 50 games of one Round each (an agreed shorter game)."""
    for seed in range(50):
        playout = play_and_replay(
            ENGINE, seed, {"scenario": slug, "options": {"rounds": 1}}, players
        )
        assert playout.over and playout.replay is not None and playout.replay.ok, (slug, seed)


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "players"), SCENARIOS)
def test_a_whole_game_replays_exactly(slug, players):
    """EMA-27.8 EMA-28.7 EMA-29.6 EMA-30.6 EMA-31.8: a full-length game ends after the scenario's Rounds."""
    playout = play_and_replay(ENGINE, 7, {"scenario": slug, "options": {}}, players)
    assert playout.over and playout.replay is not None and playout.replay.ok


@pytest.mark.slow
def test_six_players_play_a_round_of_twilight():
    """EMA-31.1 EMA-31.7: six Empires, the Turk holding Tactical Systems Advance."""
    playout = play_and_replay(ENGINE, 3, {"scenario": "31-twilight", "options": {"rounds": 1}}, 6)
    assert playout.replay is not None and playout.replay.ok


@pytest.mark.parametrize(("slug", "players"), SCENARIOS)
def test_a_short_game_of_each_scenario_replays_exactly(slug, players):
    """EMA-27.0 EMA-28.0 EMA-29.0 EMA-30.0 EMA-31.0: the unit suite's sample of the playouts above."""
    playout = play_and_replay(ENGINE, 50, {"scenario": slug, "options": {"rounds": 1}}, players)
    assert playout.over and playout.replay is not None and playout.replay.ok
