"""Undo barriers: which HRE moves may be taken back (no dice, no reveal)."""

from __future__ import annotations

from rules.hre import ENGINE
from tests.rules.hre.helpers import act, game, turn_of


def _slot(state: dict, action: str) -> int:
    return next(i for i, s in enumerate(state["slots"]) if s["action"] == action)


def test_placing_a_noble_is_not_a_barrier() -> None:
    state = turn_of(game(2, rulers=["arnulf", "berengar"]), 0)
    after, _ = act(state, {"do": "noble", "slot": _slot(state, "culture")})
    assert not ENGINE.undo_barrier(state, after, 0)


def test_a_card_dealt_from_the_deck_is_a_barrier() -> None:
    state = turn_of(game(2, rulers=["arnulf", "berengar"]), 0)
    state, _ = act(state, {"do": "noble", "slot": _slot(state, "culture")})
    after, _ = act(state, {"take": 0})
    assert ENGINE.undo_barrier(state, after, 0)


def test_randomness_is_a_barrier() -> None:
    state = game(2, rulers=["arnulf", "berengar"])
    after = dict(state, rng=state["rng"] + 1)
    assert ENGINE.undo_barrier(state, after, 0)
