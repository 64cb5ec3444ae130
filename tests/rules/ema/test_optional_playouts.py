"""Random playouts with the optional rules 23.0–25.0 on, in every shipped scenario, replayed exactly."""

from __future__ import annotations

import pytest

from rules.core.playout import play_and_replay
from tests.rules.ema.helpers import ENGINE
from tests.rules.ema.test_playouts import SCENARIOS as SHIPPED

SCENARIOS = [*SHIPPED, ("32-grand", 4)]

OPTIONAL = {"colonization": True, "schism_crusades": True, "raiders_magnates": True}


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "players"), SCENARIOS)
def test_fifty_games_with_the_optional_rules_EMA_23_0_GR_Schism_EMA_25_0_GR(slug, players):
    """EMA-23.0.GR-Schism EMA-24.0.GR EMA-25.0.GR: 50 one-Round games of each scenario with every optional rule on."""
    for seed in range(50):
        config = {"scenario": slug, "options": {**OPTIONAL, "rounds": 1}}
        playout = play_and_replay(ENGINE, seed, config, players)
        assert playout.over and playout.replay is not None and playout.replay.ok, (slug, seed)


@pytest.mark.parametrize(("slug", "players"), SCENARIOS)
def test_a_short_game_with_the_optional_rules_EMA_23_0_GR_Schism_EMA_25_0_GR(slug, players):
    """EMA-23.0.GR-Schism EMA-24.0.GR EMA-25.0.GR: one three-Round game of each scenario with every optional rule on."""
    config = {"scenario": slug, "options": {**OPTIONAL, "rounds": 3}}
    playout = play_and_replay(ENGINE, 11, config, players)
    assert playout.over and playout.replay is not None and playout.replay.ok


@pytest.mark.parametrize("option", sorted(OPTIONAL))
def test_each_optional_rule_alone_EMA_23_0_GR_Crusade_EMA_24_0_GR_EMA_25_0_GR(option):
    """EMA-23.0.GR-Crusade EMA-24.0.GR EMA-25.0.GR: each optional rule alone, in the Crusades'
    own scenario at five Players, plays three Rounds and replays exactly (the Schism and
    Crusades without the Magnates included)."""
    config = {"scenario": "29-crusades", "options": {option: True, "rounds": 3}}
    playout = play_and_replay(ENGINE, 5, config, 5)
    assert playout.over and playout.replay is not None and playout.replay.ok
