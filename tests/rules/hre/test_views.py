"""Per-seat views keep hands, deck order and unrevealed token sides hidden (ARCHITECTURE §3)."""

from __future__ import annotations

import json
from typing import Any

from rules.core import rng
from rules.core.canonical import canonical_json, state_hash
from rules.hre import ENGINE

CONFIG = {"modules": [], "options": {}}


def _states(players: int, seed: int, every: int = 7) -> list[dict[str, Any]]:
    """Positions sampled along a random game."""
    state = ENGINE.setup(seed, CONFIG, players)
    chooser = {"rng": rng.seed_state(seed)}
    found = []
    steps = 0
    while not ENGINE.is_over(state):
        prompt = ENGINE.prompts(state)[0]
        ENGINE.apply_trusted(
            state, prompt["seat"], rng.choice(chooser, prompt["options"])["action"]
        )
        steps += 1
        if steps % every == 0:
            found.append(json.loads(json.dumps(state)))
    return found


def _hidden_from(state: dict[str, Any], seat: int | None) -> set[str]:
    """Card and token ids the viewer must not find: deck, rival hands, hidden token sides."""
    hidden = set(state["deck"]) | set(state["box_tokens"])
    for i, other in enumerate(state["seats"]):
        if i != seat:
            hidden |= set(other["hand"])
    hidden |= {p["barb"]["token"] for p in state["prov"].values() if p["barb"]}
    return hidden


def test_HRE_BASE_GEN_17_hands_and_deck_never_reach_other_seats() -> None:
    """HRE-BASE-GEN-17 / AMB-44: a view holds only its own hand; others appear as counts."""
    for players in (2, 3, 4):
        for state in _states(players, 17 + players):
            for seat in [None, *range(players)]:
                text = canonical_json(ENGINE.view(state, seat))
                leaks = [m for m in _hidden_from(state, seat) if f'"{m}"' in text]
                assert leaks == [], (seat, leaks)


def test_view_shows_own_hand_and_counts_of_others() -> None:
    state = _states(3, 5)[10]
    view = ENGINE.view(state, 1)
    assert view["hand"] == state["seats"][1]["hand"]
    assert [s["hand_count"] for s in view["seats"]] == [len(s["hand"]) for s in state["seats"]]
    assert view["deck_count"] == len(state["deck"])
    assert ENGINE.view(state, None)["hand"] is None


def test_HRE_BASE_GEN_16_only_the_face_up_side_of_a_barbarian_token_shows() -> None:
    """HRE-BASE-GEN-16 / HRE-COMP-03: the up side is public, the other side is not in the view."""
    state = ENGINE.setup(3, CONFIG, 2)
    while state["stack"][-1]["kind"] == "draft":
        state, _ = ENGINE.apply(
            state, state["stack"][-1]["seat"], {"ruler": state["rulers_open"][0]}
        )
    from rules.hre.components import load

    tokens = load().tokens
    for pid, here in state["prov"].items():
        if here["barb"] is None:
            continue
        seen = ENGINE.view(state, 0)["provinces"][pid]["barb"]
        token = tokens[here["barb"]["token"]]
        up = "units" if here["barb"]["face"] == "units" else "reward"
        down = "reward" if up == "units" else "units"
        assert seen == {"face": here["barb"]["face"], "shows": token[up]}
        assert "token" not in seen
        if token[down] != token[up]:
            assert canonical_json(token[down]) not in canonical_json(seen)


def test_view_does_not_change_the_state() -> None:
    state = _states(2, 9)[5]
    before = state_hash(state)
    for seat in (None, 0, 1):
        ENGINE.view(state, seat)
    assert state_hash(state) == before


def test_determinize_keeps_the_seats_view_and_redeals_the_rest() -> None:
    """A determinized state looks the same to the seat, and is a valid state."""
    for state in _states(3, 23)[::5]:
        for seat in range(3):
            new = ENGINE.determinize(state, seat, 99)
            ENGINE.check_invariants(new)
            mine, theirs = ENGINE.view(state, seat), ENGINE.view(new, seat)
            assert canonical_json(mine) == canonical_json(theirs)
            assert sorted(new["deck"] + [c for s in new["seats"] for c in s["hand"]]) == sorted(
                state["deck"] + [c for s in state["seats"] for c in s["hand"]]
            )
