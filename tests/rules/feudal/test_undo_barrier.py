"""Undo barriers in Feudal Lords: a draw from a Stockpile, a face-down card revealed, dice."""

from __future__ import annotations

from typing import Any

from rules.core.canonical import clone
from rules.feudal import ENGINE
from tests.rules.feudal.helpers import act, duel

State = dict[str, Any]


def stockpile_phase(state: State, seat: int) -> State:
    state = clone(state)
    state["stack"].append({"kind": "stock", "seat": seat, "discarded": 0})
    return state


def test_discarding_is_free_but_drawing_from_the_stockpile_is_a_barrier() -> None:
    """FL-STOCK-01, FL-STOCK-02: discards may be taken back; the cards drawn may not."""
    before = stockpile_phase(duel(), 0)
    card = before["seats"][0]["hand"][0]
    discarded, _ = act(before, {"do": "discard", "card": card}, 0)
    assert not ENGINE.undo_barrier(before, discarded, 0)
    drawn, _ = act(discarded, {"do": "draw"}, 0)
    assert len(drawn["seats"][0]["stock"]) < len(discarded["seats"][0]["stock"])
    assert ENGINE.undo_barrier(discarded, drawn, 0)


def with_victory_card(state: State, up: bool) -> State:
    state = clone(state)
    card = state["seats"][1]["hand"][0]
    state["stack"].append(
        {
            "kind": "combat",
            "a": [],
            "d": [],
            "vc": {"a": None, "d": {"card": card, "up": up, "seat": 1}},
        }
    )
    return state


def test_a_face_down_card_turned_up_or_cleared_is_a_barrier() -> None:
    """FL-COMBAT-VC-02, FL-COMBAT-VC-04: a face-down card stays hidden until revealed."""
    state = duel()
    down = with_victory_card(state, up=False)
    assert not ENGINE.undo_barrier(state, down, 1), "playing a card face-down reveals nothing"
    assert ENGINE.undo_barrier(down, with_victory_card(state, up=True), 0)
    assert ENGINE.undo_barrier(down, state, 0), "the combat ends and the card is shown"
    assert not ENGINE.undo_barrier(down, clone(down), 0)


def test_a_die_roll_is_a_barrier() -> None:
    """FL-GEN-08: any use of the generator (dice, shuffles) is a barrier (the core default)."""
    state = duel()
    rolled = clone(state)
    rolled["rng"] = state["rng"] + 1
    assert ENGINE.undo_barrier(state, rolled, 0)


def test_a_solitaire_card_drawn_or_defender_turned_up_is_a_barrier() -> None:
    """FL-SOLO-05: the solitaire deck and the face-down defenders are hidden."""
    state = ENGINE.setup(1, {"mode": "solitaire", "options": {}}, 1)
    drawn = clone(state)
    drawn["solo"]["hand"].append(drawn["solo"]["deck"].pop())
    assert ENGINE.undo_barrier(state, drawn, 0)
    beaten = clone(state)
    beaten["solo"]["discard"].append(beaten["solo"]["piles"][0].pop())
    assert ENGINE.undo_barrier(state, beaten, 0)
    assert not ENGINE.undo_barrier(state, clone(state), 0)
