"""Module 5, Alliances (rules-hre.md §1.27): pacts traded when two realms first share a border."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.errors import ScenarioError
from rules.core.playout import play_and_replay
from rules.hre import ENGINE, handlers
from rules.hre.modules import m05_alliances as m05
from rules.hre.state import Ctx
from tests.rules.hre.helpers import act, actions, clear_barbarians, dice, top, turn_of, units
from tests.rules.hre.modules.solo import events_text
from tests.rules.hre.test_battle import attack

__all__ = ["dice"]  # the rigged-dice fixture

ALLIANCES = {"modules": ["M05"], "options": {}}
State = dict[str, Any]


def pact_game(players: int = 3) -> State:
    """Arnulf (Bavaria), Berengar (Ivrea), Otto (Lower Lotharingia): nobody shares a border yet;
    seat 0 holds CA01 and CA05, seat 1 CA02 and CA06, seat 2 CA03 and CA07."""
    rulers = ["arnulf", "berengar", "otto", "boleslaus"]
    state = ENGINE.setup(1, ALLIANCES, players)
    while top(state)["kind"] == "draft":
        state, _ = act(state, {"ruler": rulers[top(state)["seat"]]})
    clear_barbarians(state)
    t = state["m05"]
    t["hands"] = [["CA01", "CA05"], ["CA02", "CA06"], ["CA03", "CA07"], ["CA04", "CA08"]][:players]
    t["unseen"] = sorted(c for c in m05.cards() if c not in sum(t["hands"], []))
    return turn_of(state, 0)


def test_HRE_M05_SETUP_01_two_hidden_cards_and_two_markers_each() -> None:
    """HRE-M05-SETUP-01: 2 Alliance cards dealt face down to each player, 2 markers each."""
    state = ENGINE.setup(4, ALLIANCES, 3)
    t = state["m05"]
    assert [len(h) for h in t["hands"]] == [2, 2, 2] and t["markers"] == [2, 2, 2]
    assert len(t["unseen"]) == 2 and t["allies"] == [] and t["met"] == []
    view = ENGINE.view(state, 0)["alliances"]
    assert view["mine"] == t["hands"][0] and view["hand_counts"] == [2, 2, 2]
    assert not any(c in str(ENGINE.view(state, 0)) for c in t["hands"][1] + t["hands"][2])
    ENGINE.check_invariants(state)


def test_HRE_M05_PLAY_01_a_first_border_opens_a_negotiation() -> None:
    """HRE-M05-PLAY-01 (AMB-67): a Manoeuvre next to a rival's province is a first border: the
    mover may offer an Alliance, and the pair is marked so it never happens again."""
    state = pact_game()
    units(state, "bavaria", 0, infantry=1)
    slot = next(i for i, s in enumerate(state["slots"]) if s["action"] == "manoeuvre")
    state, _ = act(state, {"do": "noble", "slot": slot})
    state, events = act(state, {"from": "bavaria", "to": "lombardy"})
    assert top(state) == {"kind": "m05_offer", "seat": 0, "with": 1}
    assert state["m05"]["met"] == ["0-1"]
    assert "HRE-M05-PLAY-01" in events_text(events)
    state, _ = act(state, {"m05_offer": None})
    assert not m05._auto(Ctx(state))  # only the first time
    assert top(state)["kind"] == "turn"


def test_HRE_M05_PLAY_01_no_negotiation_without_cards() -> None:
    """HRE-M05-PLAY-01: both players must still hold an Alliance card; the border still counts."""
    state = pact_game()
    state["m05"]["unseen"] += state["m05"]["hands"][1]
    state["m05"]["hands"][1] = []
    units(state, "lombardy", 0, infantry=1)
    assert not m05._auto(Ctx(state))
    assert state["m05"]["met"] == ["0-1"]


def test_HRE_M05_PLAY_02_several_first_borders_at_once_in_the_movers_order() -> None:
    """HRE-M05-PLAY-02: meeting two rivals with one move gives two negotiations, the mover's own
    first; declining one is not choosing it."""
    state = pact_game()
    units(state, "lombardy", 0, infantry=1)
    units(state, "franconia", 0, infantry=1)  # next to Lower Lotharingia (seat 2)
    assert m05._auto(Ctx(state))
    offers = [f for f in state["stack"] if f["kind"] == "m05_offer"]
    assert offers == [
        {"kind": "m05_offer", "seat": 0, "with": 2},
        {"kind": "m05_offer", "seat": 0, "with": 1},
    ]  # the top of the stack (the last) is decided first
    state, _ = act(state, {"m05_offer": None})
    assert top(state) == {"kind": "m05_offer", "seat": 0, "with": 2}


def test_HRE_M05_PLAY_03_04_a_binding_exchange_and_its_benefits() -> None:
    """HRE-M05-PLAY-03, HRE-M05-PLAY-04: offer, answer, agree; each holds the other's card with
    the giver's marker, a 'received' benefit pays at once; only the pair saw the offers."""
    state = pact_game()
    units(state, "lombardy", 0, infantry=1)
    handlers.MACHINE.advance(Ctx(state))
    state, events = act(state, {"m05_offer": "CA05"})
    assert top(state)["kind"] == "m05_answer" and top(state)["seat"] == 1
    offered = next(e for e in events if e["rule"] == "HRE-M05-PLAY-03")
    assert "Trade Agreement" in offered["private"]["1"]
    assert "Trade Agreement" not in offered["public"] and "2" not in offered["private"]
    assert {"m05_answer": None} in actions(state)
    state, _ = act(state, {"m05_answer": "CA02"})
    vp = state["seats"][0]["vp"]
    state, events = act(state, {"m05_agree": True})
    t = state["m05"]
    assert {"holder": 1, "card": "CA05", "marker": 0} in t["allies"]
    assert {"holder": 0, "card": "CA02", "marker": 1} in t["allies"]
    assert t["hands"][:2] == [["CA01"], ["CA06"]] and t["markers"][:2] == [1, 1]
    assert state["seats"][0]["vp"] == vp + 3  # CA02, Exchange of Hostages, when received
    assert "HRE-M05-PLAY-04" in events_text(events)
    ctx = Ctx(state)
    gold = state["seats"][1]["gold"]
    m05._push_pass(ctx, 1, "normal")  # CA05, Trade Agreement: 1 Gold at each Pass
    assert state["seats"][1]["gold"] == gold + 1
    ENGINE.check_invariants(state)


def test_HRE_M05_PLAY_03_a_refusal_changes_nothing() -> None:
    """HRE-M05-PLAY-03: nothing changes hands unless both agree."""
    state = pact_game()
    units(state, "lombardy", 0, infantry=1)
    handlers.MACHINE.advance(Ctx(state))
    state, _ = act(state, {"m05_offer": "CA01"})
    state, _ = act(state, {"m05_answer": "CA06"})
    state, _ = act(state, {"m05_agree": False})
    assert state["m05"]["allies"] == [] and state["m05"]["hands"][0] == ["CA01", "CA05"]


def test_HRE_M05_PLAY_05_tc18_attacking_an_ally_breaks_the_alliance(dice: list[int]) -> None:
    """HRE-M05-PLAY-05, TC-18: white holds a card with purple's marker and attacks purple: white
    loses 5 VP and exhausts its unused Nobles, and both cards and markers leave play."""
    state = pact_game()
    t = state["m05"]
    t["hands"] = [["CA01"], ["CA06"], ["CA03", "CA07"]]
    t["allies"] = [
        {"holder": 0, "card": "CA02", "marker": 1},
        {"holder": 1, "card": "CA05", "marker": 0},
    ]
    t["markers"], t["met"] = [1, 1, 2], ["0-1"]
    state["seats"][0]["vp"] = 7
    units(state, "bavaria", 0)
    units(state, "lombardy", 0, infantry=2)
    units(state, "tuscany", 1, infantry=1)
    discs = state["seats"][0]["discs"]
    dice.extend([6, 6, 1])
    state, events = attack(state, "lombardy", "tuscany")
    me = state["seats"][0]
    assert me["vp"] == 2 and me["discs"] == 0
    assert me["exhausted"] == discs - 1 + (state["seats"][0]["total_discs"] - discs)
    assert t is not state["m05"] and state["m05"]["allies"] == []
    assert state["m05"]["out"] == ["CA02", "CA05"]
    assert "HRE-M05-PLAY-05" in events_text(events)
    ENGINE.check_invariants(state)


def test_HRE_M05_the_module_needs_three_players() -> None:
    """The book prints 3–8 players for Module 5: two are refused with the reason."""
    with pytest.raises(ScenarioError, match="3–4 players, not 2"):
        ENGINE.setup(1, ALLIANCES, 2)


def test_HRE_M05_PLAY_01_random_games_end_and_replay() -> None:
    """HRE-M05-PLAY-01: random games with Alliances end and replay (invariants checked)."""
    for seed, players in ((1, 3), (2, 4)):
        playout = play_and_replay(ENGINE, seed, ALLIANCES, players)
        assert playout.over and playout.replay is not None and playout.replay.ok


def test_HRE_M05_PLAY_03_a_card_on_the_table_stays_put_when_a_bot_re_deals() -> None:
    """HRE-M05-PLAY-03 [HIDDEN]: while a negotiation is under way, the cards offered are known to
    both parties: a re-deal of the unseen cards (for a search bot) leaves them where they are."""
    state = pact_game()
    units(state, "lombardy", 0, infantry=1)
    handlers.MACHINE.advance(Ctx(state))
    state, _ = act(state, {"m05_offer": "CA05"})
    for seed in range(6):
        seen = ENGINE.determinize(state, 1, seed)
        assert "CA05" in seen["m05"]["hands"][0]
        ENGINE.check_invariants(seen)
        after, _ = ENGINE.apply(seen, 1, {"m05_answer": seen["m05"]["hands"][1][0]})
        after, _ = ENGINE.apply(after, 0, {"m05_agree": True})
        assert len(after["m05"]["allies"]) == 2
