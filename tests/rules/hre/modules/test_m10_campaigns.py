"""Module 10, Distant Campaigns (rules-hre.md §1.32)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.playout import play_and_replay
from rules.hre import ENGINE
from rules.hre.components import in_play
from rules.hre.freeacts import settle_cost
from rules.hre.modules import m10_campaigns as m10
from rules.hre.state import Ctx, data
from tests.rules.hre.helpers import (
    act,
    actions,
    clear_barbarians,
    dice,
    draft_all,
    game,
    top,
    turn_of,
    units,
)
from tests.rules.hre.modules.solo import events_text
from tests.rules.hre.test_battle import assign_all

__all__ = ["dice"]  # the rigged-dice fixture

CAMPAIGNS = {"modules": ["M10"], "options": {}}
State = dict[str, Any]


def test_HRE_M10_SETUP_01_marked_cards_dealt_three_each_one_removed_unseen() -> None:
    """HRE-M10-SETUP-01: cards for this player count only; 3 dealt, 1 removed, 2 kept apart."""
    for players in (2, 3, 4):
        state = ENGINE.setup(4, CAMPAIGNS, players)
        deck = m10.deck_for(players)
        assert all(data().provinces[m10.cards()[c]["target"]]["players"] <= players for c in deck)
        assert [len(h) for h in state["m10"]["hands"]] == [3] * players
        state, events = draft_all(state)
        for seat in range(players):
            assert top(state)["kind"] == "m10_drop" and top(state)["seat"] == seat
            mine = list(state["m10"]["hands"][seat])
            state, step = act(state, {"drop": mine[0]}, seat=seat)
            events += step
            assert state["m10"]["hands"][seat] == mine[1:]
            assert mine[0] in state["m10"]["unseen"]
            # Removed unseen: the public log never names the card, only its owner's line does.
            line = next(e for e in step if e["rule"] == "HRE-M10-SETUP-01")
            assert mine[0] not in (line["public"] or "")
            assert mine[0] in line["private"][str(seat)]
        assert top(state)["kind"] == "turn"
        assert all(len(h) == 2 for h in state["m10"]["hands"])
        assert all(len(s["hand"]) <= 10 for s in state["seats"])  # not in the hand
        view = ENGINE.view(state, 0)["campaigns"]
        assert [c["card"] for c in view["mine"]] == state["m10"]["hands"][0]
        assert view["hand_counts"] == [2] * players
        assert "hands" not in view and ENGINE.view(state, None)["campaigns"]["mine"] == []
        ENGINE.check_invariants(state)


def test_HRE_M10_SETUP_01_cards_marked_for_more_players_stay_out() -> None:
    """HRE-M10-SETUP-01 (AMB-66): 8 cards at 2 players, 11 at 3, all 15 at 4."""
    assert [len(m10.deck_for(n)) for n in (2, 3, 4)] == [8, 11, 15]


@pytest.mark.parametrize(("players", "cards"), [(5, 20), (6, 20), (7, 30), (8, 30)])
def test_HRE_M10_SETUP_01_AMB_66_thirty_cards_with_the_great_domain(
    players: int, cards: int
) -> None:
    """HRE-M10-SETUP-01 (AMB-66): with Module 2 the deck holds both halves' cards (30), those
    marked 4 out at 5 and 6 players; every dealt card names a province in play."""
    deck = m10.deck_for(players)
    assert len(deck) == cards and len(deck) >= 3 * players
    assert all(m10.cards()[c]["players"] != 4 for c in deck) == (players < 7)
    assert {m10.cards()[c].get("half") for c in deck} == {None, "western"}
    state = ENGINE.setup(4, {"modules": ["M02", "M10"], "options": {}}, players)
    hands = state["m10"]["hands"]
    assert [len(h) for h in hands] == [3] * players
    assert sorted([c for h in hands for c in h] + state["m10"]["unseen"]) == deck
    assert all(m10.cards()[c]["target"] in in_play(data().provinces, players) for c in deck)
    ENGINE.check_invariants(draft_all(state)[0])


def campaign_game(card: str) -> State:
    """Arnulf (seat 0) at the Manoeuvre's move, holding one Campaign card; no Barbarians."""
    state = game(2, rulers=["arnulf", "berengar"])
    state["modules"] = ["M10"]
    state["m10"] = {
        "hands": [[card], []],
        "unseen": [c for c in m10.deck_for(2) if c != card],
        "spent": [],
        "played": [None, None],
    }
    clear_barbarians(state)
    turn_of(state, 0)
    slot = next(i for i, s in enumerate(state["slots"]) if s["action"] == "manoeuvre")
    state, _ = act(state, {"do": "noble", "slot": slot})
    while top(state)["kind"] != "move":
        state, _ = act(state, actions(state)[0])
    return state


def card_to(target: str) -> str:
    return next(c for c, spec in m10.cards().items() if spec["target"] == target)


def test_HRE_M10_PLAY_01_a_campaign_moves_the_group_however_far() -> None:
    """HRE-M10-PLAY-01 and AMB-61: an empty far province is reached, no battle, card stays."""
    card = card_to("tuscany")  # far from Bavaria
    state = campaign_game(card)
    assert "tuscany" not in [a.get("to") for a in actions(state)]  # not a neighbour
    play = next(a for a in actions(state) if a.get("do") == "m10_campaign")
    assert play["from"] == "bavaria"
    state, events = act(state, play)
    while top(state)["kind"] == "move_count":
        state, step = act(state, actions(state)[-1])
        events += step
    assert state["prov"]["tuscany"]["owner"] == 0
    assert state["m10"]["played"][0]["won"] and state["m10"]["hands"][0] == []
    text = events_text(events)
    assert "HRE-M10-PLAY-01" in text and "cheap settle." in text  # the reading of AMB-61
    ENGINE.check_invariants(state)


def test_HRE_M10_PLAY_02_a_beaten_campaign_dies_far_from_home(dice: list[int]) -> None:
    """HRE-M10-PLAY-02: beaten with no province beside the target, the survivors die."""
    card = card_to("tuscany")
    state = campaign_game(card)
    units(state, "bavaria", 0, infantry=1)
    units(state, "tuscany", 1, infantry=3)
    state["prov"]["tuscany"]["owner"] = 1
    play = next(a for a in actions(state) if a.get("do") == "m10_campaign")
    assert play["fallback"] is None
    dice.extend([6, 1, 1, 1])
    state, events = act(state, play)
    state = assign_all(state, events)
    assert "HRE-M10-PLAY-02" in events_text(events)
    assert state["prov"]["bavaria"]["units"]["infantry"] == 0
    assert state["m10"]["played"][0] is None and card in state["m10"]["spent"]
    ENGINE.check_invariants(state)


def test_HRE_M10_PLAY_02_with_a_neighbour_held_the_survivors_retreat_there(
    dice: list[int],
) -> None:
    """HRE-M10-PLAY-02 (AMB-61): a controlled neighbour of the target takes the survivors."""
    card = card_to("tuscany")
    state = campaign_game(card)
    units(state, "bavaria", 0, infantry=3)
    units(state, "lombardy", 0, infantry=1)
    state["prov"]["lombardy"]["owner"] = 0
    units(state, "tuscany", 1, infantry=4)
    state["prov"]["tuscany"]["owner"] = 1
    play = next(
        a
        for a in actions(state)
        if a.get("do") == "m10_campaign" and a["fallback"] == "lombardy" and a["from"] == "bavaria"
    )
    dice.extend([1, 1, 1, 6, 1, 1, 1])  # the attackers miss, the defenders hit once
    state, events = act(state, play)
    while top(state)["kind"] == "move_count":
        state, step = act(state, actions(state)[-1])
        events += step
    state = assign_all(state, events)
    assert "the survivors retreat to Lombardy" in events_text(events)
    assert state["prov"]["lombardy"]["units"]["infantry"] == 1 + 2  # 3 sent, 1 killed
    assert state["m10"]["played"][0] is None
    ENGINE.check_invariants(state)


@pytest.mark.parametrize("use", ["settle", "pass"])
def test_HRE_M10_PLAY_03_a_won_campaign_settles_at_the_lowest_cost(use: str) -> None:
    """HRE-M10-PLAY-03: the target settles at the Ruler's leftmost cost; the card then goes,
    or at the next Pass."""
    card = card_to("tuscany")
    state = campaign_game(card)
    state["m10"]["hands"][0] = []
    state["m10"]["played"][0] = {"card": card, "target": "tuscany", "fallback": None, "won": True}
    ctx = Ctx(state)
    costs = data().rulers["arnulf"]["costs"]
    assert settle_cost(ctx, 0, "tuscany") == costs[0] < costs[2]
    assert settle_cost(ctx, 0, "saxony") == costs[2]  # only the target is cheaper
    if use == "settle":
        from rules.hre.freeacts import settle

        units(state, "tuscany", 0, infantry=costs[0])
        state["prov"]["tuscany"]["owner"] = 0
        settle(ctx, 0, "tuscany", {"infantry": costs[0]})
    else:
        m10._push_pass(ctx, 0, "normal")
    assert state["m10"]["played"][0] is None and card in state["m10"]["spent"]
    assert "HRE-M10-PLAY-03" in events_text(ctx.events)
    assert settle_cost(ctx, 0, "tuscany") == costs[2]  # the card is gone


def test_HRE_M10_PLAY_01_games_with_campaigns_end_and_replay() -> None:
    """HRE-M10-PLAY-01: random games with Distant Campaigns end and replay identically."""
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        assert play_and_replay(ENGINE, seed, CAMPAIGNS, players).over


def test_HRE_M10_SETUP_01_determinize_keeps_the_own_hand_and_redeals_the_rest() -> None:
    """HRE-M10-SETUP-01 [HIDDEN]: a bot's sample keeps its own cards and the counts."""
    state, _ = draft_all(ENGINE.setup(6, CAMPAIGNS, 3))
    while top(state)["kind"] == "m10_drop":
        state, _ = act(state, actions(state)[0], seat=top(state)["seat"])
    sample = ENGINE.determinize(state, 0, 99)
    assert sample["m10"]["hands"][0] == state["m10"]["hands"][0]
    assert [len(h) for h in sample["m10"]["hands"]] == [2, 2, 2]
    ENGINE.check_invariants(sample)
