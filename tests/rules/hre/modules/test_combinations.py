"""Modules played together (issue 17): the combined scenario, and combinations the book refuses."""

from __future__ import annotations

import pytest

from rules.core.errors import ScenarioError
from rules.core.playout import play_and_replay
from rules.hre import ENGINE
from rules.hre.modules import CATALOGUE, combined_scenario, combined_scenarios, config_errors
from rules.hre.state import data


def test_the_combined_scenario_plays_every_multiplayer_module() -> None:
    combined = combined_scenario()
    assert combined is not None
    assert {"M04", "M07", "M10", "M11"} <= set(combined["config"]["modules"])
    assert "M01" not in combined["config"]["modules"]
    assert combined in ENGINE.scenarios()


def test_two_players_get_every_module_they_may_play() -> None:
    """Modules printed for 3 players and more (M05, M09, M14A) leave the 2-player combination."""
    slugs = {s["slug"]: s for s in combined_scenarios()}
    assert set(slugs) == {"all-modules", "all-modules-2p"}
    assert slugs["all-modules"]["min_players"] == 3
    two = slugs["all-modules-2p"]
    assert (two["min_players"], two["max_players"]) == (2, 4)
    assert all(CATALOGUE[m].min_players <= 2 for m in two["config"]["modules"])
    assert set(slugs["all-modules"]["config"]["modules"]) - set(two["config"]["modules"])


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4)])
def test_HRE_M07_SETUP_01_HRE_M04_SETUP_01_HRE_M10_SETUP_01_HRE_M11_SETUP_01_all_together(
    seed: int, players: int
) -> None:
    """HRE-M04-SETUP-01, HRE-M07-SETUP-01, HRE-M10-SETUP-01, HRE-M11-SETUP-01: one game holds
    every module's pieces, and random games of them all end and replay (invariants checked)."""
    config = next(s for s in combined_scenarios() if s["min_players"] <= players)
    playout = play_and_replay(ENGINE, seed, config["config"], players)
    assert playout.over
    state = playout.state
    assert {"m04", "m10", "m11"} <= set(state)
    assert state["token_sets"] == ["skirmisher"]
    assert all(
        h["barb"]["token"] in data().token_sets["skirmisher"]
        for h in state["prov"].values()
        if h["barb"]
    )


def test_modules_beyond_the_solo_table_are_refused_with_a_reason() -> None:
    """Tribute and Distant Campaigns have no solo rules (2 players and up)."""
    errors = config_errors(["M01", "M11"], players=1)
    assert errors == ["Module M11 (Tribute) is played by 2 to 8 player(s), not 1."]
    with pytest.raises(ScenarioError, match="No number of players"):
        ENGINE.player_range({"modules": ["M01", "M10"], "options": {}})
    assert config_errors(["M01", "M04", "M07"], players=1) == []


def test_HRE_M05_SETUP_01_HRE_M08_SETUP_01_HRE_M09_SETUP_01_no_solo_and_no_two_player_table() -> (
    None
):
    """HRE-M05-SETUP-01, HRE-M08-SETUP-01, HRE-M09-SETUP-01: Alliances and the Ages of War are
    printed for 3 players and more, the Wyrd for 2 and more: the engine says so; Grand Buildings
    and Commanders have solo rules and join Module 1."""
    assert config_errors(["M05"], players=2) == [
        "Module M05 (Alliances) is played by 3 to 8 player(s), not 2."
    ]
    assert config_errors(["M01", "M08"], players=1) == [
        "Module M08 (The Wyrd) is played by 2 to 8 player(s), not 1."
    ]
    for module in ("M05", "M09"):
        with pytest.raises(ScenarioError, match="No number of players"):
            ENGINE.player_range({"modules": ["M01", module], "options": {}})
    assert ENGINE.player_range({"modules": ["M01", "M03", "M06"], "options": {}}) == (1, 1)
    assert ENGINE.player_range({"modules": ["M05", "M09"], "options": {}}) == (3, 4)


def test_HRE_M03_SETUP_01_HRE_M06_SETUP_01_every_module_in_one_game() -> None:
    """HRE-M03-SETUP-01, HRE-M06-SETUP-01: the widest combination holds every module's pieces."""
    config = combined_scenario()
    assert config is not None
    playout = play_and_replay(ENGINE, 4, config["config"], 3)
    assert playout.over and playout.replay is not None and playout.replay.ok
    assert {"m03", "m04", "m05", "m06", "m08", "m09", "m10", "m11"} <= set(playout.state)


def test_HRE_M13A_PLAY_01_HRE_M08_PLAY_03_a_benjamin_card_carrying_a_wyrd() -> None:
    """HRE-M13A-PLAY-01, HRE-M08-PLAY-03: a Benjamin card goes beside its taker's board, not to
    the hand; the Wyrd under it still comes to its taker to remove or activate, and then the
    Benjamin reward is chosen."""
    from tests.rules.hre.helpers import act, draft_all, top, turn_of

    state, _ = draft_all(ENGINE.setup(2, {"modules": ["M08", "M13A"], "options": {}}, 2))
    t = state["m08"]
    wyrd = next(iter(t["under"].values()))
    page = next(c for c in state["deck"] if c.startswith("CB"))
    state["deck"].remove(page)
    state["deck"].append(state["offer"][0])
    state["offer"][0] = page
    t["under"] = {page: wyrd}
    turn_of(state, 0)
    slot = next(i for i, s in enumerate(state["slots"]) if s["action"] == "culture")
    state, _ = act(state, {"do": "noble", "slot": slot})
    state, _ = act(state, {"take": 0})
    assert state["m13a"]["stacks"][0] == [page] and page not in state["seats"][0]["hand"]
    assert top(state)["kind"] == "m08_fate" and top(state)["seat"] == 0
    state, _ = act(state, {"m08_fate": "activate"})
    assert state["m08"]["active"][0] == [{"card": wyrd, "markers": 2}]
    assert top(state)["kind"] == "m13a_reward"
    ENGINE.check_invariants(state)


# The book's printed player counts of each module (rules-hre.md, the line under the parameter
# table, and §5.7), written out here apart from the engine's catalogue.
BOOK_PLAYERS = {
    "M01": (1, 1),
    "M03": (1, 8),
    "M04": (1, 8),
    "M05": (3, 8),
    "M06": (1, 8),
    "M07": (1, 8),
    "M08": (2, 8),
    "M09": (3, 8),
    "M10": (2, 8),
    "M11": (2, 8),
    "M12A": (1, 8),
    "M13A": (1, 8),
    "M14A": (3, 8),
    "M15A": (2, 4),
}


@pytest.mark.parametrize("module", sorted(set(BOOK_PLAYERS) - {"M01"}))
def test_each_module_alone_and_with_the_solo_game_as_the_book_prints(module: str) -> None:
    """Alone, a module plays at the base game's 2-4 players narrowed to its print; with
    Module 1 (solo) only if the book gives it a solo table, else a readable refusal."""
    low, high = BOOK_PLAYERS[module]
    alone = {"modules": [module], "options": {}}
    assert ENGINE.player_range(alone) == (max(2, low), min(4, high))
    for players in (2, 3, 4):
        if not low <= players <= high:
            with pytest.raises(ScenarioError, match=rf"takes .*players, not {players}"):
                ENGINE.setup(1, alone, players)
    solo = {"modules": ["M01", module], "options": {}}
    if low <= 1:
        assert ENGINE.player_range(solo) == (1, 1)
        assert ENGINE.setup(1, solo, 1)["modules"] == ["M01", module]
    else:
        reason = (
            f"Module {module} ({CATALOGUE[module].name}) is played by {low} to {high} "
            f"player(s), not 1."
        )
        assert config_errors(["M01", module], players=1) == [reason]
        with pytest.raises(ScenarioError, match=r"No number of players can play these modules"):
            ENGINE.player_range(solo)


def test_every_pair_the_book_allows_plays_together_and_the_rest_say_why() -> None:
    """Any two multiplayer modules combine at the counts both are printed for; the book forbids
    no pair outright, so the only refusals are player counts, each naming both modules."""
    multi = sorted(set(BOOK_PLAYERS) - {"M01"})
    for i, a in enumerate(multi):
        for b in multi[i + 1 :]:
            low = max(2, BOOK_PLAYERS[a][0], BOOK_PLAYERS[b][0])
            high = min(4, BOOK_PLAYERS[a][1], BOOK_PLAYERS[b][1])
            config = {"modules": [a, b], "options": {}}
            assert ENGINE.validate_scenario(config) == [], (a, b)
            assert ENGINE.player_range(config) == (low, high), (a, b)
    with pytest.raises(ScenarioError) as refused:
        ENGINE.setup(1, {"modules": ["M05", "M15A"], "options": {}}, 2)
    assert str(refused.value) == (
        "This set-up takes 3–4 players, not 2. "
        "Module M05 (Alliances) is played by 3 to 8 player(s), not 2."
    )
