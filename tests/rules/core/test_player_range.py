"""engine.player_range(config): the seat counts each engine can deal, the same limits setup uses."""

from __future__ import annotations

import pytest

from rules.core import all_engines, get_engine
from rules.core.errors import ScenarioError


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.game_id)
def test_shipped_scenarios_state_the_engines_own_range(engine) -> None:  # type: ignore[no-untyped-def]
    """Each shipped scenario seats the engine's range for its config, or one count of it (HRE's
    great-domain-5 .. -8 narrow Module 2's 5 to 8 so that the new-game form offers each table)."""
    for scenario in engine.scenarios():
        low, high = engine.player_range(scenario["config"])
        stated = (scenario["min_players"], scenario["max_players"])
        one = scenario["min_players"] == scenario["max_players"]
        assert stated == (low, high) or (one and low <= stated[0] <= high), scenario["slug"]


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.game_id)
def test_setup_refuses_every_count_outside_the_range(engine) -> None:  # type: ignore[no-untyped-def]
    for scenario in engine.scenarios():
        low, high = engine.player_range(scenario["config"])
        for players in (0, low - 1, high + 1, 7):
            if low <= players <= high:
                continue
            with pytest.raises(ScenarioError, match="takes"):
                engine.setup(1, scenario["config"], players)
        assert engine.seats(engine.setup(1, scenario["config"], low)) == low


def test_hre_base_game_takes_two_to_four() -> None:
    """HRE Setup: the base game is for 2–4 players; the solo module M01 for one, the Great
    Domain (M02) for 5 to 8."""
    hre = get_engine("hre")
    assert hre.player_range({"modules": [], "options": {}}) == (2, 4)
    assert hre.player_range({"modules": ["M01"], "options": {}}) == (1, 1)
    assert hre.player_range({"modules": ["M02"], "options": {}}) == (5, 8)
    with pytest.raises(ScenarioError, match="cannot be played together"):
        hre.player_range({"modules": ["M01", "M02"], "options": {}})
    with pytest.raises(ScenarioError, match="takes 2–4 players, not 6"):
        hre.setup(1, {"modules": [], "options": {}}, 6)


def test_ema_empires_fix_the_count() -> None:
    ema = get_engine("ema")
    assert ema.player_range({"scenario": "27-charlemagne", "options": {}}) == (2, 2)
    assert ema.player_range({"scenario": "28-millenium", "options": {}}) == (2, 6)
    config = {"scenario": "28-millenium", "options": {}, "empires": ["GER", "FRA", "BYZ"]}
    assert ema.player_range(config) == (3, 3)
    with pytest.raises(ScenarioError, match="takes 3 players, not 4"):
        ema.setup(1, config, 4)
    assert ema.setup(1, config, 3)["players"] == 3
    with pytest.raises(ScenarioError):
        ema.player_range({"scenario": "99-nowhere"})


def test_feudal_modes_and_decks() -> None:
    """FL modes: duel 2, melee 3–4, teams 4, solitaire 1; one deck per seat fixes the count."""
    fl = get_engine("feudal")
    assert [fl.player_range({"mode": m}) for m in ("duel", "melee", "teams", "solitaire")] == [
        (2, 2),
        (3, 4),
        (4, 4),
        (1, 1),
    ]
    assert fl.player_range({"mode": "melee", "decks": ["under_city"] * 3}) == (3, 3)
    with pytest.raises(ScenarioError, match="takes 3–4 decks, not 2"):
        fl.player_range({"mode": "melee", "decks": ["under_city", "outer_city"]})
    with pytest.raises(ScenarioError, match="mode must be one of"):
        fl.player_range({"mode": "chaos"})
