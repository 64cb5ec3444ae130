"""Module 3, Grand Buildings (rules-hre.md §1.25): wonders built from Culture cards."""

from __future__ import annotations

from typing import Any

from rules.core.playout import play_and_replay
from rules.hre import ENGINE, handlers
from rules.hre.modules import m01_lordlings as m01
from rules.hre.modules import m03_grand_buildings as m03
from rules.hre.state import Ctx
from tests.rules.hre.helpers import (
    act,
    actions,
    clear_barbarians,
    dice,
    give,
    hand,
    top,
    turn_of,
    units,
)
from tests.rules.hre.modules.solo import events_text
from tests.rules.hre.test_battle import attack, won

__all__ = ["dice"]  # the rigged-dice fixture

GRAND = {"modules": ["M03"], "options": {}}
State = dict[str, Any]


def grand_game(rulers: tuple[str, str] = ("marozia", "arnulf")) -> State:
    state = ENGINE.setup(1, GRAND, 2)
    while top(state)["kind"] == "draft":
        state, _ = act(state, {"ruler": rulers[top(state)["seat"]]})
    clear_barbarians(state)
    return state


def build_one(state: State, card: str, prov: str, seat: int = 0) -> tuple[State, list[Any]]:
    turn_of(state, seat)
    if state["prov"][prov]["owner"] != seat:
        units(state, prov, seat, infantry=1)
    hand(state, seat, [card])
    give(state, seat, wood=3, leather=3, stone=3, iron=3, gold=0)
    state, events = act(state, {"do": "m03_build", "card": card, "prov": prov})
    while top(state)["kind"] == "pay":
        state, more = act(state, actions(state)[0])
        events += more
    return state, events


def test_HRE_M03_COMP_01_six_grand_buildings_two_of_them_for_the_new_rulers() -> None:
    """HRE-M03-COMP-01: C049-C054, four common and one each for Marozia and Henry the Fowler."""
    m03.validate()
    assert m03.commons() == ["C049", "C050", "C051", "C052"]
    starting = {c: ENGINE_card["starting"] for c, ENGINE_card in _cards().items()}
    assert starting["C053"] == "marozia" and starting["C054"] == "henry_the_fowler"


def _cards() -> dict[str, Any]:
    from rules.hre.state import data

    return {c: data().cards[c] for c in m03.specs()}


def test_HRE_M03_SETUP_01_02_03_the_rulers_the_miniatures_and_the_deck() -> None:
    """HRE-M03-SETUP-01, HRE-M03-SETUP-02, HRE-M03-SETUP-03: Marozia and Henry may be drafted;
    six miniatures wait; the four common cards lie in the top half of the Culture deck."""
    fresh = ENGINE.setup(1, GRAND, 2)
    assert {"marozia", "henry_the_fowler"} <= set(fresh["rulers_open"])
    assert "marozia" not in ENGINE.setup(1, {"modules": [], "options": {}}, 2)["rulers_open"]
    state = grand_game()
    assert state["seats"][0]["hand"] == ["C053", "C055"]  # Marozia's starting cards
    assert state["m03"]["supply"] == sorted(m03.specs()) and state["m03"]["built"] == {}
    deck = state["deck"]
    half = (len(deck) - 4) // 2
    assert all(c in state["offer"] or deck.index(c) >= half for c in m03.commons())
    ENGINE.check_invariants(state)


def test_HRE_M03_PLAY_02_03_04_06_building_is_the_turns_choice() -> None:
    """HRE-M03-PLAY-02, HRE-M03-PLAY-03, HRE-M03-PLAY-04, HRE-M03-PLAY-06: pay the cost, the
    miniature in a province you control, the card face up with its immediate effect; the turn
    then ends with no Title repeat, and the province takes no second one."""
    state = grand_game()
    state["seats"][0]["discs"], state["seats"][0]["exhausted"] = 0, state["seats"][0]["total_discs"]
    state, events = build_one(state, "C053", "latium")  # Castel Sant'Angelo: 2 Gold now
    t = state["m03"]
    assert t["built"] == {"C053": {"prov": "latium", "holder": 0}}
    assert "C053" not in state["seats"][0]["hand"] and "C053" not in t["supply"]
    assert state["seats"][0]["gold"] == 2
    assert state["seats"][0]["res"]["stone"] == 1 and state["seats"][0]["res"]["iron"] == 2
    assert top(state)["seat"] == 1  # no Title repeat: the turn is over (PLAY-06)
    assert {"HRE-M03-PLAY-02", "HRE-M03-PLAY-04"} <= set(events_text(events).split())
    turn_of(state, 0)
    units(state, "tuscany", 0, infantry=1)
    hand(state, 0, ["C049"])
    options = [a for a in actions(state) if a.get("do") == "m03_build"]
    assert [a["prov"] for a in options] == ["tuscany"]  # one a province
    ENGINE.check_invariants(state)


def test_HRE_M03_SETUP_01_a_rulers_own_building_is_theirs_alone() -> None:
    """HRE-M03-SETUP-01: only Marozia builds Castel Sant'Angelo."""
    state = grand_game()
    turn_of(state, 1)
    hand(state, 1, ["C053", "C050"])
    give(state, 1, wood=3, stone=3, iron=3)
    built = {a["card"] for a in actions(state) if a.get("do") == "m03_build"}
    assert built == {"C050"}


def test_HRE_M03_PLAY_01_a_card_in_hand_counts_toward_the_hand_limit() -> None:
    """HRE-M03-PLAY-01: a Grand Building in hand is a card like the others for the limit."""
    state = grand_game()
    hand(state, 0, m03.commons() + [c for c in state["deck"][:6]])
    assert len(state["seats"][0]["hand"]) == 12
    state["stack"] = [{"kind": "turn_end", "seat": 0, "phase": "hand", "extra": 0}]
    handlers.MACHINE.advance(Ctx(state))
    assert top(state)["kind"] == "hand_limit"


def test_HRE_M03_PLAY_04_ongoing_effects_at_passes_and_in_defence(dice: list[int]) -> None:
    """HRE-M03-PLAY-04: a pass_vp building pays at each Pass; a defence one adds to the
    defenders' Battle Result in its province."""
    state = grand_game(("henry_the_fowler", "arnulf"))
    state, _ = build_one(state, "C054", "thuringia")  # Quedlinburg: 1 VP at each Pass
    vp = state["seats"][0]["vp"]
    m03._push_pass(Ctx(state), 0, "normal")
    assert state["seats"][0]["vp"] == vp + 1
    state["m03"]["supply"].remove("C052")
    state["m03"]["built"]["C052"] = {"prov": "saxony", "holder": 1}  # Gernrode: +2 defending
    units(state, "saxony", 1, infantry=1)
    units(state, "thuringia", 0, infantry=3)
    state["seats"][0].update(farms_track=1, farms_boxed=10)
    dice.extend([1, 1, 1, 1])  # nobody hits: 3 against 1 + 2
    state, events = attack(state, "thuringia", "saxony")
    if top(state)["kind"] == "move_count":
        state, more = act(state, {"count": 3})
        events += more
    assert not won(events) and "strengthens" in events_text(events)


def test_HRE_M03_PLAY_05_the_card_follows_control_of_its_province() -> None:
    """HRE-M03-PLAY-05: lost, the card goes beside the Titles; the next controller takes it and
    its ongoing effect, not the immediate one again."""
    state = grand_game()
    state, _ = build_one(state, "C050", "tuscany")
    units(state, "tuscany", None)
    state["prov"]["tuscany"]["farms"] = 0
    ctx = Ctx(state)
    m03._auto(ctx)
    assert state["m03"]["built"]["C050"]["holder"] is None
    units(state, "tuscany", 1, infantry=1)
    culture = state["seats"][1]["culture"]
    m03._auto(ctx)
    assert state["m03"]["built"]["C050"]["holder"] == 1
    assert state["seats"][1]["culture"] == culture  # no immediate effect again
    assert "HRE-M03-PLAY-05" in events_text(ctx.events)


def test_HRE_M03_SOLO_01_the_lordlings_score_a_grand_building_they_take() -> None:
    """HRE-M03-SOLO-01: in solo you build them as usual; the Lordlings score 5 VP for one."""
    state = ENGINE.setup(1, {"modules": ["M01", "M03"], "options": {}}, 1)
    assert "marozia" in state["rulers_open"]
    state, _ = ENGINE.apply(state, 0, {"ruler": "arnulf"})
    assert set(m03.commons()) <= set(state["deck"] + state["offer"] + state["m01"]["deck"])
    ctx = Ctx(state)
    state["offer"][0] = next(c for c in m03.commons() if c in state["deck"] or True)
    for pile in (state["deck"], state["m01"]["deck"]):
        if state["offer"][0] in pile:
            pile.remove(state["offer"][0])
    vp = state["seats"][1]["vp"]
    m01.take_card(ctx, 0, "HRE-M01-LORDLING-DEV-01")
    assert state["seats"][1]["vp"] == vp + 5


def test_HRE_M03_PLAY_02_random_games_end_and_replay() -> None:
    """HRE-M03-PLAY-02: random games with Grand Buildings end and replay, solo too."""
    for seed, players, config in ((1, 2, GRAND), (2, 4, GRAND)):
        playout = play_and_replay(ENGINE, seed, config, players)
        assert playout.over and playout.replay is not None and playout.replay.ok
    solo = play_and_replay(ENGINE, 3, {"modules": ["M01", "M03"], "options": {}}, 1)
    assert solo.over and solo.replay is not None and solo.replay.ok
