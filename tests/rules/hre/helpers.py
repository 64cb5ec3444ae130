"""Shared helpers for HRE rules tests: games in a known position, without a database.

Typical use: `state = game(2, rulers=["arnulf", "berengar"])` gives the first turn of a
2-player game where seat 0 drafted Arnulf and seat 1 Berengar; then set up a position by
editing the plain state (`units(...)`, `give(...)`, `clear_barbarians(...)`) and drive it
with `act(...)`, which goes through the checked `apply`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rules.core.canonical import state_hash
from rules.core.engine import Event
from rules.hre import ENGINE, battle
from rules.hre.state import UNITS

State = dict[str, Any]


def game(
    players: int = 2,
    seed: int = 1,
    rulers: list[str] | None = None,
    options: dict[str, Any] | None = None,
) -> State:
    """A game at its first turn; `rulers[i]` is drafted by seat i when given."""
    state = ENGINE.setup(seed, {"modules": [], "options": options or {}}, players)
    while state["stack"][-1]["kind"] == "draft":
        seat = state["stack"][-1]["seat"]
        pick = rulers[seat] if rulers else state["rulers_open"][0]
        state, _ = ENGINE.apply(state, seat, {"ruler": pick})
    return state


def top(state: State) -> dict[str, Any]:
    """The frame deciding now."""
    frame: dict[str, Any] = state["stack"][-1]
    return frame


def actions(state: State) -> list[Any]:
    """The legal actions of the seat deciding now."""
    return [o["action"] for o in ENGINE.prompts(state)[0]["options"]]


def act(state: State, action: Any, seat: int | None = None) -> tuple[State, list[Event]]:
    """Apply an action for the deciding seat (or the given one) through the checked path."""
    who = top(state)["seat"] if seat is None else seat
    return ENGINE.apply(state, who, action)


def turn_of(state: State, seat: int) -> State:
    """Make it the start of `seat`'s turn, whatever was on the stack."""
    state["stack"] = [
        {
            "kind": "turn",
            "seat": seat,
            "phase": "start",
            "action": None,
            "title_used": False,
            "battle": False,
            "extra": 0,
        }
    ]
    state["active"] = seat
    return state


def decide(state: State, frame: dict[str, Any]) -> State:
    """Put a frame on top of the stack (a decision or step to test on its own)."""
    state["stack"].append(frame)
    return state


def give(state: State, seat: int, **amounts: int) -> None:
    """Set a seat's resources and Gold, e.g. give(s, 0, wood=2, gold=1)."""
    me = state["seats"][seat]
    for key, n in amounts.items():
        if key == "gold":
            me["gold"] = n
        else:
            me["res"][key] = n


def units(state: State, prov: str, seat: int | None, **counts: int) -> None:
    """Set the units in a province and its owner (removing any Barbarian token)."""
    here = state["prov"][prov]
    if here["barb"] is not None:
        state["box_tokens"].append(here["barb"]["token"])
        state["box_tokens"].sort()
        here["barb"] = None
    here["units"] = {u: counts.get(u, 0) for u in UNITS}
    here["owner"] = seat


def clear_barbarians(state: State) -> None:
    """Send every Barbarian token on the board to the box."""
    for here in state["prov"].values():
        if here["barb"] is not None:
            state["box_tokens"].append(here["barb"]["token"])
            here["barb"] = None
    state["box_tokens"].sort()


def hand(state: State, seat: int, cards: list[str]) -> None:
    """Move cards into a seat's hand from wherever they are in the deck, offer or discard."""
    for card in cards:
        for pile in (state["deck"], state["offer"], state["discard"]):
            if card in pile:
                pile.remove(card)
        for other in state["seats"]:
            if card in other["hand"]:
                other["hand"].remove(card)
        state["seats"][seat]["hand"].append(card)


def unchanged(before: State, after: State) -> bool:
    """Whether two states hash the same."""
    return state_hash(before) == state_hash(after)


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Rig battle dice: append the values to the yielded list in the order they are rolled."""
    values: list[int] = []

    def fixed(state: State, sides: int = 6) -> int:
        if not values:
            raise AssertionError("the test ran out of rigged dice")
        return values.pop(0)

    monkeypatch.setattr(battle.rng, "die", fixed)
    yield values


def draft_all(state: State) -> tuple[State, list[Event]]:
    """Each seat takes the first Ruler offered until the draft is over; the events it logged."""
    events: list[Event] = []
    while state["stack"] and state["stack"][-1]["kind"] == "draft":
        seat = state["stack"][-1]["seat"]
        prompt = ENGINE.prompt_for(state, seat)
        assert prompt is not None
        state, step = ENGINE.apply(state, seat, prompt["options"][0]["action"])
        events += step
    return state, events
