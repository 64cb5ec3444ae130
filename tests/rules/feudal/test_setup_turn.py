"""Components, set-up, the turn's phases, resources and markers (FL-DECK, FL-SETUP, FL-TURN, FL-STOCK,
FL-RES, FL-GEN, FL-MARK, FL-OOC)."""

from __future__ import annotations

import pytest

from rules.core.errors import IllegalAction, InvariantError
from rules.feudal import ENGINE
from rules.feudal.components import ComponentError, load, validate, validate_deck
from tests.rules.feudal.helpers import (
    State,
    act,
    action_phase,
    actions,
    blank,
    duel,
    field,
    give,
    pass_windows,
    plain_deck,
    top,
    turn,
    uid_of,
)

PETER, RICHARD = 0, 1


def deck_with(**stock: int) -> dict[str, object]:
    return {
        "leader": "magistrate",
        "locations": "scrap_holdings",
        "artifacts": [],
        "stockpile": stock,
    }


def test_fl_deck_02_03_04_validation_gives_readable_errors() -> None:
    """FL-DECK-01, FL-DECK-02, FL-DECK-03, FL-DECK-04 (TC-17)."""
    assert validate_deck(plain_deck()) == []
    short = dict(plain_deck()["stockpile"])  # type: ignore[call-overload]
    short["looter"] -= 3  # 54 cards
    assert any("at least 55" in e for e in validate_deck(deck_with(**short)))
    five = dict(short, looter=5, grinner=3)
    assert any("at most 4" in e for e in validate_deck(deck_with(**five)))
    with_leader = dict(plain_deck()["stockpile"], magistrate=1)  # type: ignore[call-overload]
    assert any("never goes in the stockpile" in e for e in validate_deck(deck_with(**with_leader)))
    assert validate_deck({"stockpile": {}})[0] == "Choose exactly one Leader card."


def test_fl_deck_05_every_starter_deck_is_legal_and_the_loader_rejects_bad_data() -> None:
    """FL-DECK-05, FL-GEN-03, FL-STR-01, FL-ARM-10: strings are threshold lists; armor is flagged."""
    data = load()
    assert all(validate_deck(d) == [] for d in data.decks.values())
    assert data.cards["bane"]["df"] == [8, 11] and data.cards["looter"]["generic"] is True
    assert data.cards["scrap_armor"]["armor"] is True
    bad = dict(data.cards, bane=dict(data.cards["bane"], df=[11, 8]))
    with pytest.raises(ComponentError, match="bane"):
        validate(bad, data.decks)


def test_fl_setup_lays_out_each_seat() -> None:
    """FL-SETUP-01, FL-SETUP-02, FL-SETUP-03, FL-SETUP-04, FL-SETUP-05, FL-SETUP-06, FL-SETUP-10,
    FL-ART-01, FL-MARK-01: tokens on all locations, 5 markers (+1 Lucky Coin), artifacts placed,
    Sup and Ld rolled, no VP."""
    state = duel(decks=[plain_deck(artifacts=["bone_totem", "lucky_coin"]), plain_deck()])
    me = state["seats"][0]
    assert [loc["token"] for loc in me["locs"]] == [True, True, True]
    assert [loc["artifact"] for loc in me["locs"]] == ["bone_totem", "lucky_coin", None]
    assert me["markers"] == 6 and state["seats"][1]["markers"] == 5
    assert all(1 <= s["sup"] <= 6 and 1 <= s["ld"] <= 6 and s["vp"] == 0 for s in state["seats"])
    assert len(me["stock"]) + len(me["hand"]) + len(me["discard"]) == 57


def test_fl_setup_07_08_opening_hands_are_discarded_to_eight_simultaneously(rig: list[int]) -> None:
    """FL-SETUP-06, FL-SETUP-07, FL-SETUP-08, FL-SETUP-09, FL-GEN-15 (A-32, A-33): seat 1's Ld die
    shows 1, so it draws a card at once and keeps 9; both seats are prompted at once, and the
    discards stay hidden until every seat has chosen, then are shown together."""
    rig += [3, 1, 4, 5]  # seat 1: Sup 3, Ld 1; seat 2: Sup 4, Ld 5
    state = ENGINE.setup(3, {"mode": "duel", "decks": [plain_deck(), plain_deck()]}, 2)
    assert rig == [] and [len(me["hand"]) for me in state["seats"]] == [11, 10]
    assert sorted(p["seat"] for p in ENGINE.prompts(state)) == [0, 1]
    chosen: list[str] = []
    for seat in (0, 0, 1):
        action = next(p for p in ENGINE.prompts(state) if p["seat"] == seat)["options"][0]["action"]
        state, events = ENGINE.apply(state, seat, action)
        chosen.append(action["discard"])
        assert [e["public"] for e in events] == [None]  # only the chooser is told
    assert all(me["discard"] == [] for me in state["seats"])
    assert ENGINE.view(state, 1)["pending"].get("held") == [chosen[2]]
    assert "held" not in ENGINE.view(state, None)["pending"]
    action = ENGINE.prompts(state)[0]["options"][0]["action"]
    state, events = ENGINE.apply(state, 1, action)
    assert sorted(state["seats"][0]["discard"]) == sorted(chosen[:2])
    assert sorted(state["seats"][1]["discard"]) == sorted([chosen[2], action["discard"]])
    assert [e["rule"] for e in events][:3] == ["FL-SETUP-07"] * 3 and all(
        e["public"] for e in events[1:3]
    )
    assert [len(me["hand"]) for me in state["seats"]] == [9, 8]
    assert top(state)["kind"] == "stock" and state["active"] == state["first"]


def test_fl_setup_04_each_seat_decides_which_artifacts_to_play_and_where() -> None:
    """FL-SETUP-04, FL-ART-01, FL-MARK-01: before any card is drawn both seats are asked at once;
    seat 1 plays its Lucky Coin on its third location (one more marker) and keeps its Bone Totem
    out; seat 2 plays nothing. At most one Artifact per location."""
    decks = [
        plain_deck(artifacts=["bone_totem", "lucky_coin"]),
        plain_deck(artifacts=["iron_idol"]),
    ]
    state = ENGINE.setup(2, {"mode": "duel", "decks": decks}, 2)
    assert sorted(p["seat"] for p in ENGINE.prompts(state)) == [0, 1]
    assert top(state)["kind"] == "setup_artifacts" and all(
        me["hand"] == [] for me in state["seats"]
    )
    state, _ = act(state, {"do": "done"}, 1)
    state, _ = act(state, {"do": "artifact", "card": "lucky_coin", "loc": 2}, 0)
    offered = actions(state, 0)
    assert {"do": "artifact", "card": "bone_totem", "loc": 2} not in offered
    assert {"do": "artifact", "card": "bone_totem", "loc": 0} in offered
    state, _ = act(state, {"do": "done"}, 0)
    assert top(state)["kind"] == "setup_discard"
    me, him = state["seats"]
    assert [loc["artifact"] for loc in me["locs"]] == [None, None, "lucky_coin"]
    assert [loc["artifact"] for loc in him["locs"]] == [None, None, None]
    assert (me["markers"], him["markers"]) == (6, 5) and len(me["hand"]) == 10 + (me["ld"] == 1)


def test_fl_mark_01_several_lucky_coins_raise_the_marker_bound() -> None:
    """FL-MARK-01, FL-SETUP-03, FL-DECK-01: a legal deck with three Lucky Coins starts with 8 markers
    and keeps the invariants; without an Artifact more than 5 markers is an error."""
    coins = plain_deck(artifacts=["lucky_coin"] * 3)
    assert validate_deck(coins) == []
    state = duel(decks=[coins, plain_deck()])
    assert state["seats"][0]["markers"] == 8
    ENGINE.check_invariants(state)
    state["seats"][1]["markers"] = 6
    with pytest.raises(InvariantError, match="markers"):
        ENGINE.check_invariants(state)


def test_fl_turn_01_phases_run_in_order(rig: list[int]) -> None:
    """FL-TURN-01, FL-STOCK-01, FL-STOCK-02, FL-DRAFT-01, FL-RES-02, FL-RES-03, FL-RES-04, FL-TURN-02:
    discard 2 then draw 3; skip the draft; end the Action phase; reroll (Ld 1 draws a card)."""
    state = blank(duel(), sup=2, ld=2)
    seat = state["active"]
    give(state, seat, ["looter", "training", "water_cache"])
    state["stack"] = [turn(seat, "draft"), {"kind": "stock", "seat": seat, "discarded": 0}]
    state, _ = act(state, {"do": "discard", "card": "training"})
    state, _ = act(state, {"do": "discard", "card": "water_cache"})
    assert not [a for a in actions(state) if a.get("do") == "discard"]
    state, _ = act(state, {"do": "draw"})
    assert len(state["seats"][seat]["hand"]) == 4 and top(state)["kind"] == "draft"
    state, _ = act(state, {"do": "skip"})
    assert top(state)["kind"] == "action"
    state, _ = act(state, {"do": "end"})
    assert top(state)["kind"] == "resource"
    rig += [4, 1]
    hand = len(state["seats"][seat]["hand"])
    state, _ = act(state, {"do": "reroll"})
    assert (state["seats"][seat]["sup"], state["seats"][seat]["ld"]) == (4, 1)
    assert len(state["seats"][seat]["hand"]) == hand + 1
    assert state["active"] == 1 - seat


def test_fl_res_01_hand_check_fills_to_minimum_hand_size() -> None:
    """FL-RES-01, FL-RES-05 (TC-19): hand 3 with Minimum Hand Size 5 draws 2; a big hand keeps all."""
    state = blank(duel())
    seat = state["active"]
    give(state, seat, ["looter", "looter", "looter"])
    action_phase(state, seat)
    state, _ = act(state, {"do": "end"})
    assert len(state["seats"][seat]["hand"]) == 5
    state = blank(duel())
    give(state, seat, ["looter"] * 9)
    state, _ = act(action_phase(state, seat), {"do": "end"})
    assert len(state["seats"][seat]["hand"]) == 9


def test_fl_res_02_keeping_the_dice_keeps_both_values() -> None:
    """FL-RES-02, FL-GEN-16 (TC-06 b): Ld 2 and Sup 6 stay for next turn."""
    state = blank(duel(), sup=6, ld=2)
    state, _ = act(action_phase(state, state["active"]), {"do": "end"})
    seat = top(state)["seat"]
    state, _ = act(state, {"do": "keep"})
    assert (state["seats"][seat]["sup"], state["seats"][seat]["ld"]) == (6, 2)
    assert {"do": "reroll_one"} not in actions(state)


def test_fl_gen_10_12_14_exchange_is_bounded() -> None:
    """FL-GEN-10, FL-GEN-12, FL-GEN-14 (TC-20): 2 Sup for 1 Ld only while Ld < 6; no Ld for Sup."""
    state = blank(duel(), sup=5, ld=6)
    seat = state["active"]
    action_phase(state, seat)
    assert {"do": "exchange"} not in actions(state)
    state["seats"][seat].update(sup=4, ld=3)
    state, _ = act(state, {"do": "exchange"})
    state, _ = act(state, {"do": "exchange"})
    assert (state["seats"][seat]["sup"], state["seats"][seat]["ld"]) == (0, 5)
    assert not [a for a in actions(state) if a.get("do") in ("exchange", "ld_for_sup")]


def test_fl_mark_03_04_05_one_marker_per_window() -> None:
    """FL-MARK-02, FL-MARK-03, FL-MARK-04, FL-MARK-05 (TC-23, A-18): Peter spends a marker on his
    turn and no other until his next; Richard, who spent none on his turn, spends one during
    Peter's turn and is refused a second in that window; his own next turn opens it again."""
    state = blank(duel(), sup=1, ld=6)
    field(state, PETER, "bane")
    field(state, RICHARD, "looter")
    action_phase(state, PETER)
    state, _ = act(state, {"do": "marker", "res": "sup"})
    assert state["seats"][PETER]["sup"] == 2 and state["seats"][PETER]["markers"] == 4
    assert not [a for a in actions(state) if a.get("do") == "marker"]
    state, _ = act(state, {"do": "attack", "target": RICHARD})
    state, _ = act(state, {"do": "add", "uid": uid_of(state, PETER, "bane")})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "none"})
    state, _ = act(state, {"loc": 0})
    assert top(state)["kind"] == "window" and top(state)["seat"] == RICHARD
    state, _ = act(state, {"do": "marker", "res": "sup"}, RICHARD)  # on an opponent's turn
    assert state["seats"][RICHARD]["sup"] == 2 and state["seats"][RICHARD]["markers"] == 4
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, RICHARD, {"do": "marker", "res": "sup"})
    state = pass_windows(state)
    assert top(state)["kind"] == "send" and top(state)["seat"] == RICHARD
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, RICHARD, {"do": "marker", "res": "sup"})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "none"})
    state = pass_windows(state)
    state, _ = act(state, {"do": "end"})
    state, _ = act(state, {"do": "keep"})
    assert state["active"] == RICHARD and top(state)["kind"] == "stock"
    assert {"do": "marker", "res": "sup"} in actions(state, RICHARD)
    assert state["seats"][PETER]["marker_spent"]  # Peter waits for his own next turn


def test_fl_ooc_01_02_an_empty_stockpile_draws_nothing() -> None:
    """FL-OOC-01, FL-OOC-02 (TC-18): no reshuffle; the game goes on."""
    state = blank(duel())
    seat = state["active"]
    me = state["seats"][seat]
    me["discard"] += me["stock"]
    me["stock"] = []
    state["stack"] = [turn(seat, "draft"), {"kind": "stock", "seat": seat, "discarded": 0}]
    state, _ = act(state, {"do": "draw"})
    assert state["seats"][seat]["hand"] == [] and top(state)["kind"] in ("draft", "action")


def test_an_out_of_turn_action_is_refused_without_change() -> None:
    """FL-GEN-11: the checked apply refuses what is not offered."""
    state: State = blank(duel(), sup=0, ld=0)
    action_phase(state, state["active"])
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1 - state["active"], {"do": "end"})
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, state["active"], {"do": "exchange"})
