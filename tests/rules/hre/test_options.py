"""The ambiguity options of the HRE engine, and review fixes around them (reference §4)."""

from __future__ import annotations

from rules.hre import ENGINE
from rules.hre.components import load
from rules.hre.state import Ctx
from rules.hre.titles import eligible
from tests.rules.hre.helpers import act, actions, clear_barbarians, game, give, top, turn_of, units
from tests.rules.hre.test_battle import attack, barbarian


def test_HRE_BASE_BARB_13_left_neighbour_assigns_barbarian_hits(dice: list[int]) -> None:
    """HRE-BASE-BARB-13 / AMB-17 option: with barbarian_hits=left_neighbour the next seat assigns."""
    state = game(
        3, rulers=["arnulf", "berengar", "otto"], options={"barbarian_hits": "left_neighbour"}
    )
    clear_barbarians(state)
    units(state, "bavaria", 0, infantry=1, cavalry=1)
    barbarian(state, "swabia", "B04")  # 2 infantry
    dice.extend([1, 1, 1, 6, 6])  # charge: my cavalry 1; melee: mine 1, 1; the Barbarians 6, 6
    state, _ = attack(state, "bavaria", "swabia")
    assert top(state)["kind"] == "assign" and top(state)["seat"] == 1


def test_HRE_BASE_PASS_04_blocked_provinces_count_with_the_AMB_21_option() -> None:
    """HRE-BASE-PASS-04 / AMB-21: by default the blocked Alsace is out of its Region at 2 players;
    with blocked_in_regions the Region has 4 provinces and needs 2 more discs."""
    for option, expected in ((False, True), (True, False)):
        state = game(2, rulers=["arnulf", "berengar"], options={"blocked_in_regions": option})
        clear_barbarians(state)
        units(state, "swabia", 0, infantry=1)
        state["seats"][0]["discs"] = 1
        assert ("duchy_of_swabia_and_bavaria" in eligible(Ctx(state), 0)) is expected


def test_HRE_BASE_BUILD_08_blocked_neighbours_resources_with_the_AMB_10_option() -> None:
    """HRE-BASE-BUILD-08 / AMB-10: stone is depicted next to Swabia only in the blocked Alsace."""
    for option, offered in ((False, False), (True, True)):
        state = game(2, rulers=["arnulf", "berengar"], options={"blocked_resources": option})
        clear_barbarians(state)
        units(state, "swabia", 0, infantry=1)
        here = state["prov"]["swabia"]
        here["city"] = True
        state["cities"] -= 1
        give(state, 0, wood=3, stone=3)
        turn_of(state, 0)
        slot = next(i for i, s in enumerate(state["slots"]) if s["action"] == "build")
        state, _ = act(state, {"do": "noble", "slot": slot})
        build = {"build": "production", "prov": "swabia", "res": "stone"}
        assert (build in actions(state)) is offered


def test_HRE_BASE_TITLE_03_a_void_action_triggers_no_whenever_bonus() -> None:
    """HRE-BASE-TITLE-03: 'whenever you resolve Build' pays only when the Build did something."""
    state = game(2, rulers=["arnulf", "berengar"])
    tech = next(
        c
        for c, spec in load().cards.items()
        if spec["type"] == "common_tech"
        and any(
            m.get("kind") == "on_action" and m.get("action") == "build"
            for m in spec["levels"][0].get("ongoing", [])
        )
    )
    state["seats"][0]["techs"] = [{"card": tech, "level": 1}]
    give(state, 0, wood=0, leather=0, stone=0, iron=0, gold=0)
    culture = state["seats"][0]["culture"]
    turn_of(state, 0)
    slot = next(i for i, s in enumerate(state["slots"]) if s["action"] == "build")
    state, _ = act(state, {"do": "noble", "slot": slot})
    assert actions(state) == [{"build": None}]
    state, _ = act(state, {"build": None})
    assert state["seats"][0]["culture"] == culture


def test_determinize_redeals_hidden_tokens_among_same_looking_slots() -> None:
    """GEN-16: two tokens showing the same units swap places in some determinizations."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    twins = [
        t
        for t, spec in load().tokens.items()
        if spec["units"] == {"infantry": 2, "archer": 2, "cavalry": 0}
    ]
    assert len(twins) == 2
    barbarian(state, "swabia", twins[0])
    barbarian(state, "ostmark", twins[1])
    seen = {
        ENGINE.determinize(state, 0, seed)["prov"]["swabia"]["barb"]["token"] for seed in range(40)
    }
    assert seen == set(twins)
