"""Hidden information: Year Cards, Holding cards and ballots of others never leak (ARCHITECTURE §3)."""

from __future__ import annotations

import json

from rules.core import rng
from tests.rules.ema.helpers import ENGINE, new


def _walk(state, steps, seed):
    chooser = {"rng": rng.seed_state(seed)}
    for _ in range(steps):
        if ENGINE.is_over(state):
            break
        prompt = rng.choice(chooser, ENGINE.prompts(state))
        ENGINE.apply_trusted(state, prompt["seat"], rng.choice(chooser, prompt["options"])["action"])
        yield state


def test_year_cards_are_hidden_from_everyone_until_played_EMA_6_0():
    """EMA-6.0.GR-b EMA-9.0.P1: face-down Year Cards appear as counts only; deck order never shown."""
    state = new("28-millenium", 3)
    for seat in (None, 0, 1, 2):
        view = ENGINE.view(state, seat)
        assert "year_deck" not in view and "event_deck" not in view and "rng" not in view
        assert all(s.get("years") is None for s in view["seats"])
        assert view["seats"][0]["year_cards_face_down"] == 5


def test_holding_cards_are_seen_only_by_their_holder_EMA_19_2():
    """EMA-19.2: another seat's hand shows only its size."""
    start = new("28-millenium", 2)
    for state in _walk(start, 400, 5):
        hands = [list(m["hand"]) for m in state["seats"]]
        for seat in (0, 1):
            view = ENGINE.view(state, seat)
            other = view["seats"][1 - seat]
            assert other["hand"] is None and other["hand_count"] == len(hands[1 - seat])
            assert view["seats"][seat]["hand"] == sorted(hands[seat])


def test_ballots_stay_secret_until_the_reveal_EMA_20_5():
    """EMA-20.5 EMA-20.42: a seat sees who has voted and its own ballot, never another's."""
    state = new("28-millenium", 3)
    state["stack"].append({"kind": "parley", "type": "claim", "caller": 0, "other": None, "areas": ["saxony"],
                           "voters": [0, 1, 2], "ballots": {"1": {"vote": "against", "influence": 1}}})
    assert {p["seat"] for p in ENGINE.prompts(state)} == {0, 2}
    seen = json.dumps(ENGINE.view(state, 2)["deciding"])
    assert "against" not in seen and ENGINE.view(state, 1)["deciding"]["my_ballot"]["vote"] == "against"


def test_determinize_keeps_what_the_seat_sees():
    """Determinized states agree with the seat's view."""
    state = new("28-millenium", 2)
    other = ENGINE.determinize(state, 0, 99)
    assert ENGINE.view(other, 0)["seats"][0] == ENGINE.view(state, 0)["seats"][0]
