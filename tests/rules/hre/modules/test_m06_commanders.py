"""Module 6, Commanders (rules-hre.md §1.28): captains hired with a Recruit, beside the armies."""

from __future__ import annotations

from typing import Any

from rules.core.playout import play_and_replay
from rules.hre import ENGINE
from rules.hre.modules import m06_commanders as m06
from rules.hre.state import Ctx, army_size
from tests.rules.hre.helpers import act, actions, dice, give, top, turn_of, units
from tests.rules.hre.modules.solo import events_text
from tests.rules.hre.test_battle import arena, assign_all, won

__all__ = ["dice"]  # the rigged-dice fixture

CAPTAINS = {"modules": ["M06"], "options": {}}
State = dict[str, Any]


def with_commanders(state: State, hired: str | None = None, at: str = "bavaria") -> State:
    """A base test position (Arnulf against Berengar) played with Module 6 from here on."""
    state["modules"] = ["M06"]
    state["m06"] = {
        "available": ["CG01", "CG02", "CG03"],
        "returned": ["CG04", "CG05"],
        "hired": [None, None],
        "riding": None,
        "hidden": False,
    }
    if hired is not None:
        state["m06"]["available"].remove(hired)
        state["m06"]["hired"][0] = {"card": hired, "at": at, "ready": True}
    return state


def manoeuvre(state: State, seat: int = 0) -> State:
    turn_of(state, seat)
    slot = next(i for i, s in enumerate(state["slots"]) if s["action"] == "manoeuvre")
    state, _ = act(state, {"do": "noble", "slot": slot})
    return state


def test_HRE_M06_SETUP_01_one_more_commander_than_players() -> None:
    """HRE-M06-SETUP-01: N+1 Commanders laid out at random, the rest back in the box."""
    state = ENGINE.setup(1, CAPTAINS, 3)
    t = state["m06"]
    assert len(t["available"]) == 4 and len(t["returned"]) == 1
    assert ENGINE.view(state, None)["commanders"]["available"] == t["available"]


def test_HRE_M06_SOLO_01_one_face_down_commander_in_solo() -> None:
    """HRE-M06-SOLO-01: in solo one Commander is drawn face down for you, hidden from view."""
    state = ENGINE.setup(1, {"modules": ["M01", "M06"], "options": {}}, 1)
    t = state["m06"]
    assert len(t["available"]) == 1 and t["hidden"]
    view = ENGINE.view(state, 0)["commanders"]
    assert view == {"available": [], "face_down": 1, "hired": [None, None]}
    assert t["available"][0] not in str(ENGINE.view(state, 0))


def test_HRE_M06_PLAY_01_02_two_gold_with_a_recruit_once_a_game() -> None:
    """HRE-M06-PLAY-01, HRE-M06-PLAY-02: a Recruit may take a Commander for 2 Gold into a
    province with a City of yours; the Recruit goes on; one Commander a player, for good."""
    state = with_commanders(arena())
    turn_of(state, 0)
    give(state, 0, gold=3)
    slot = next(i for i, s in enumerate(state["slots"]) if s["action"] == "recruit")
    state, _ = act(state, {"do": "noble", "slot": slot})
    hire = {"do": "m06_hire", "cmd": "CG03", "prov": "bavaria"}
    assert hire in actions(state)
    state, events = act(state, hire)
    assert state["m06"]["hired"][0] == {"card": "CG03", "at": "bavaria", "ready": True}
    assert state["seats"][0]["gold"] == 1 and "CG03" not in state["m06"]["available"]
    assert top(state)["kind"] == "recruit"  # the normal recruit may follow
    assert not any(a.get("do") == "m06_hire" for a in actions(state))
    assert {"HRE-M06-PLAY-01", "HRE-M06-PLAY-02"} <= set(events_text(events).split())
    ENGINE.check_invariants(state)


def test_HRE_M06_PLAY_03_AMB_69_alone_only_to_a_place_of_its_own() -> None:
    """HRE-M06-PLAY-03 (AMB-69): alone, a Commander moves only where its player has a unit or a
    Farm, never into a rival's or a Barbarian province; with a group it may go anywhere."""
    state = with_commanders(arena(), hired="CG01")
    units(state, "bavaria", 0, infantry=2)
    units(state, "lombardy", 0, infantry=1)
    units(state, "verona", 1, infantry=1)
    state = manoeuvre(state)
    alone = [a["to"] for a in actions(state) if a.get("do") == "m06_move"]
    assert alone == ["lombardy"]
    riding = [a["to"] for a in actions(state) if a.get("do") == "m06_ride"]
    assert "verona" in riding and "lombardy" in riding
    state, events = act(state, {"do": "m06_move", "to": "lombardy"})
    assert state["m06"]["hired"][0]["at"] == "lombardy"
    assert "HRE-M06-PLAY-03" in events_text(events)


def test_HRE_M06_PLAY_04_05_its_effect_first_and_it_is_no_unit(dice: list[int]) -> None:
    """HRE-M06-PLAY-04, HRE-M06-PLAY-05: marching into battle with its card ready, the attacker
    may use its effect and exhaust it; it takes no damage and counts for no limit or result."""
    state = with_commanders(arena(), hired="CG03")  # Gero: +2 Battle Result
    units(state, "bavaria", 0, infantry=1)
    units(state, "verona", 1, infantry=2)
    assert army_size(state, 0) == 1
    state = manoeuvre(state)
    state, _ = act(state, {"do": "m06_ride", "from": "bavaria", "to": "verona"})
    assert top(state)["kind"] == "m06_use" and top(state)["seat"] == 0
    dice.extend([1, 1, 1])  # nobody hits: 1 + 2 against 2
    state, events = act(state, {"m06_use": True})
    assert won(events)
    assert state["m06"]["hired"][0] == {"card": "CG03", "at": "verona", "ready": False}
    assert "HRE-M06-PLAY-04" in events_text(events)


def test_HRE_M06_PLAY_06_beaten_with_every_unit_dead_it_falls_back(dice: list[int]) -> None:
    """HRE-M06-PLAY-06: every unit dead, the Commander goes to the closest province its player
    holds units or Farms in."""
    state = with_commanders(arena(), hired="CG01")
    units(state, "bavaria", 0, infantry=1)
    units(state, "verona", 1, infantry=1)
    state = manoeuvre(state)
    state, _ = act(state, {"do": "m06_ride", "from": "bavaria", "to": "verona"})
    dice.extend([1, 6])
    state, events = act(state, {"m06_use": False})
    state = assign_all(state, events)
    assert not won(events)
    assert state["m06"]["hired"][0]["at"] == "bavaria"  # the Capital's Farm, the closest
    ENGINE.check_invariants(state)


def test_HRE_M06_PLAY_07_the_card_is_ready_again_after_a_pass() -> None:
    """HRE-M06-PLAY-07: an exhausted Commander card is refreshed when its player passes."""
    state = with_commanders(arena(), hired="CG02")
    state["m06"]["hired"][0]["ready"] = False
    ctx = Ctx(state)
    m06._push_pass(ctx, 0, "normal")
    assert state["m06"]["hired"][0]["ready"] and "HRE-M06-PLAY-07" in events_text(ctx.events)


def test_HRE_M06_PLAY_01_random_games_end_and_replay() -> None:
    """HRE-M06-PLAY-01: random games with Commanders end and replay, solo too."""
    for seed, players, config in ((1, 2, CAPTAINS), (2, 4, CAPTAINS)):
        playout = play_and_replay(ENGINE, seed, config, players)
        assert playout.over and playout.replay is not None and playout.replay.ok
    solo = play_and_replay(ENGINE, 3, {"modules": ["M01", "M06"], "options": {}}, 1)
    assert solo.over and solo.replay is not None and solo.replay.ok


def test_HRE_M06_SOLO_01_AMB_72_the_suggested_fourth_lordling_ruler() -> None:
    """HRE-M06-SOLO-01 (AMB-72): with the option, a fourth Lordling Ruler's province gets a
    Lordling Farm and an Archer, no City and no Barbarian token; games still end and replay."""
    config = {"modules": ["M01", "M06"], "options": {"solo_fourth_lordling": True}}
    assert ENGINE.validate_scenario(config) == []
    state = ENGINE.setup(2, config, 1)
    state, events = ENGINE.apply(state, 0, {"ruler": "arnulf"})
    lordling = sorted(p for p, h in state["prov"].items() if h["owner"] == 1)
    farm_only = [p for p in lordling if not state["prov"][p]["city"]]
    assert len(lordling) == 4 and len(farm_only) == 1
    here = state["prov"][farm_only[0]]
    assert here["farms"] == 1 and here["units"]["archer"] == 1 and here["barb"] is None
    assert "HRE-M06-SOLO-01" in events_text(events)
    ENGINE.check_invariants(state)
    plain = ENGINE.setup(2, {"modules": ["M01", "M06"], "options": {}}, 1)
    plain, _ = ENGINE.apply(plain, 0, {"ruler": "arnulf"})
    assert sum(1 for h in plain["prov"].values() if h["owner"] == 1) == 3
    playout = play_and_replay(ENGINE, 5, config, 1)
    assert playout.over and playout.replay is not None and playout.replay.ok
