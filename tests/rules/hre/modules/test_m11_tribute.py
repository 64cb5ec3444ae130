"""Module 11, Tribute (rules-hre.md §1.33): beaten Capitals pay their suzerain."""

from __future__ import annotations

from typing import Any

from rules.core.playout import play_and_replay
from rules.hre import ENGINE, handlers
from rules.hre.modules import m11_tribute as m11
from rules.hre.state import Ctx, army_limit, capital
from tests.rules.hre.helpers import act, actions, dice, draft_all, give, top, turn_of, units
from tests.rules.hre.modules.solo import events_text
from tests.rules.hre.test_battle import arena, assign_all, attack, won

__all__ = ["dice"]  # the rigged-dice fixture

TRIBUTE = {"modules": ["M11"], "options": {}}
State = dict[str, Any]


def with_tribute(state: State) -> State:
    """A base test position played with Module 11 from here on."""
    state["modules"] = ["M11"]
    state["m11"] = {"free": [m11.MARKERS] * len(state["seats"]), "at": {}}
    return state


def test_HRE_M11_SETUP_01_three_markers_on_every_ruler_card() -> None:
    """HRE-M11-SETUP-01: each player starts with 3 markers on their Ruler card."""
    state = ENGINE.setup(1, TRIBUTE, 3)
    assert state["m11"] == {"free": [3, 3, 3], "at": {}}
    state, events = draft_all(state)
    assert "HRE-M11-SETUP-01" in events_text(events)
    assert ENGINE.view(state, None)["tribute"] == {"free": [3, 3, 3], "tributaries": []}


def test_HRE_M11_PLAY_01_a_win_in_a_capital_makes_its_owner_a_tributary(dice: list[int]) -> None:
    """HRE-M11-PLAY-01: the base Capital assault (TC-31) also places the winner's marker."""
    state = with_tribute(arena())
    units(state, "lombardy", 0, infantry=4)
    state["seats"][1].update(farms_track=5, farms_boxed=6)
    assert army_limit(state, 1) == 6
    dice.extend([1, 6, 6, 1, 1, 1, 1, 1, 1])
    state, events = attack(state, "lombardy", "ivrea")
    state = assign_all(state, events, prefer=["archer", "infantry"])
    assert won(events)
    assert state["m11"] == {"free": [2, 3], "at": {"ivrea": 0}}
    assert m11.suzerain(state, 1) == 0 and m11.suzerain(state, 0) is None
    assert "HRE-M11-PLAY-01" in events_text(events)
    ENGINE.check_invariants(state)


def test_HRE_M11_PLAY_01_a_new_conqueror_sends_the_old_marker_home() -> None:
    """HRE-M11-PLAY-01 (AMB-62): one marker a Capital; none left, no tribute."""
    state, _ = draft_all(ENGINE.setup(1, TRIBUTE, 3))
    home1 = capital(state, 1)
    ctx = Ctx(state)
    m11._battle_won(ctx, {"att": 0, "def": 1, "prov": home1})
    m11._battle_won(ctx, {"att": 2, "def": 1, "prov": home1})
    assert state["m11"]["at"] == {home1: 2} and state["m11"]["free"] == [3, 3, 2]
    state["m11"]["free"][0] = 0  # AMB-62: all three already placed elsewhere (pretend)
    m11._battle_won(ctx, {"att": 0, "def": 1, "prov": home1})
    assert state["m11"]["at"] == {home1: 2}
    assert "no marker left: no tribute." in events_text(ctx.events)


def test_HRE_M11_PLAY_02_winning_in_the_suzerains_capital_reverses_the_roles() -> None:
    """HRE-M11-PLAY-02: the tributary wins at its suzerain's Capital: freed, and now suzerain."""
    state = with_tribute(arena())
    ctx = Ctx(state)
    m11._battle_won(ctx, {"att": 0, "def": 1, "prov": "ivrea"})
    m11._battle_won(ctx, {"att": 1, "def": 0, "prov": "bavaria"})
    assert state["m11"] == {"free": [3, 2], "at": {"bavaria": 1}}
    assert m11.suzerain(state, 0) == 1 and m11.suzerain(state, 1) is None
    assert "HRE-M11-PLAY-02" in events_text(ctx.events)
    ENGINE.check_invariants(state)


def test_HRE_M11_PLAY_02_a_tributary_pays_two_gold_as_a_free_action() -> None:
    """HRE-M11-PLAY-02: 2 Gold to the suzerain, on the tributary's turn, ends the tribute."""
    state = with_tribute(arena())
    m11._battle_won(Ctx(state), {"att": 0, "def": 1, "prov": "ivrea"})
    turn_of(state, 1)
    give(state, 1, gold=1)
    assert {"do": "m11_pay"} not in actions(state)  # not enough Gold
    give(state, 1, gold=3)
    give(state, 0, gold=0)
    assert {"do": "m11_pay"} in actions(state)
    state, events = act(state, {"do": "m11_pay"})
    assert (state["seats"][1]["gold"], state["seats"][0]["gold"]) == (1, 2)
    assert state["m11"] == {"free": [3, 3], "at": {}}
    assert "HRE-M11-PLAY-02" in events_text(events)
    assert top(state)["kind"] == "turn"  # a free action: the turn goes on
    turn_of(state, 0)
    assert {"do": "m11_pay"} not in actions(state)  # the suzerain owes nothing


def test_HRE_M11_PLAY_03_a_passing_tributary_gives_one_produced_resource() -> None:
    """HRE-M11-PLAY-03: after its production step, one resource of that production goes over."""
    state = with_tribute(arena())
    m11._battle_won(Ctx(state), {"att": 0, "def": 1, "prov": "ivrea"})
    state["stack"].append(
        {"kind": "pass", "seat": 1, "mode": "normal", "next": 7, "all_available": False}
    )
    ctx = Ctx(state)
    handlers.MACHINE.advance(ctx)
    made = [r for r, n in state["seats"][1]["res"].items() if n]
    assert made and top(state)["kind"] == "m11_tribute"
    assert sorted(a["tribute"] for a in actions(state)) == sorted(made)
    before = dict(state["seats"][0]["res"])
    state, events = act(state, {"tribute": made[0]}, seat=1)
    assert state["seats"][0]["res"][made[0]] == before[made[0]] + 1
    assert "HRE-M11-PLAY-03" in events_text(events)


def test_HRE_M11_PLAY_03_no_tribute_from_a_pass_that_produced_nothing() -> None:
    """HRE-M11-PLAY-03 (AMB-62): nothing produced, nothing given."""
    state = with_tribute(arena())
    m11._battle_won(Ctx(state), {"att": 0, "def": 1, "prov": "ivrea"})
    state["prov"]["ivrea"]["owner"] = None  # no province of its own produces
    state["stack"].append(
        {"kind": "pass", "seat": 1, "mode": "normal", "next": 7, "all_available": False}
    )
    ctx = Ctx(state)
    handlers.MACHINE.advance(ctx)
    assert top(state)["kind"] != "m11_tribute"
    assert "produced nothing: no tribute." in events_text(ctx.events)


def test_HRE_M11_PLAY_01_games_with_tribute_end_and_replay() -> None:
    """HRE-M11-PLAY-01: random games with Tribute end and replay identically."""
    for seed, players in ((1, 2), (2, 4)):
        assert play_and_replay(ENGINE, seed, TRIBUTE, players).over
