"""Helpers for the solo module's tests: a solo game at your first turn, rigged d20s, quiet boards."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rules.hre import ENGINE
from rules.hre.modules import m01_lordlings as m
from rules.hre.state import UNITS, Ctx

State = dict[str, Any]


def solo(seed: int = 1, ruler: str = "arnulf", **options: Any) -> State:
    """A solo game after your Ruler pick: the Lordlings have had their first turn."""
    state = ENGINE.setup(seed, {"modules": ["M01"], "options": options}, 1)
    state, _ = ENGINE.apply(state, 0, {"ruler": ruler})
    return state


def lordling_homes(state: State) -> list[str]:
    return sorted(p for p, h in state["prov"].items() if h["owner"] == 1 and h["city"])


def quiet(state: State) -> State:
    """No Barbarians, Lordling units or Raiders anywhere; your turn, Lordling discs all back."""
    for here in state["prov"].values():
        if here["barb"]:
            state["box_tokens"] = sorted([*state["box_tokens"], here["barb"]["token"]])
            here["barb"] = None
        if here["owner"] == 1:
            here["units"] = dict.fromkeys(UNITS, 0)
    lord = state["seats"][1]
    for slot in state["slots"]:
        slot["stack"] = []
    lord["discs"], lord["exhausted"] = lord["total_discs"], 0
    human = state["seats"][0]
    human["discs"], human["exhausted"] = human["total_discs"], 0
    state["m01"]["prep"] = {"research": False, "manoeuvre": False}
    state["m01"]["deck"] = sorted(state["m01"]["deck"] + state["m01"]["discard"])
    state["m01"]["discard"] = []
    state["stack"] = [
        {
            "kind": "turn",
            "seat": 0,
            "phase": "start",
            "action": None,
            "title_used": False,
            "battle": False,
            "extra": 0,
        }
    ]
    state["active"] = 0
    return state


def card_of(kind: str) -> str:
    """The id of a Lordling card of this kind."""
    return next(c for c, k in m.CARD_KIND.items() if k == kind)


def top_card(state: State, kind: str) -> None:
    """Put a Lordling card of this kind on top of their deck."""
    deck = state["m01"]["deck"]
    card = next(c for c in deck if m.CARD_KIND[c] == kind)
    deck.remove(card)
    deck.append(card)


def events_text(events: list[Any]) -> str:
    return "\n".join(f"{e['rule']} {e['public']}" for e in events)


def ctx_of(state: State) -> Ctx:
    return Ctx(state)


@pytest.fixture
def d20(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Rig the solo d20: append values in the order they are rolled (the seeded die otherwise,
    as while a game is set up)."""
    values: list[int] = []
    real = m.d20

    def fixed(ctx: Ctx) -> int:
        return values.pop(0) if values else real(ctx)

    monkeypatch.setattr(m, "d20", fixed)
    yield values
    assert not values, f"rigged d20 rolls left unused: {values}"
