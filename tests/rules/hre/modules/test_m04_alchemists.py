"""Module 4, Alchemists (rules-hre.md §1.26): store resources during Research, 3 for 1 Gold."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.core.playout import play_and_replay
from rules.hre import ENGINE
from rules.hre.modules import m04_alchemists as m04
from rules.hre.state import RESOURCES, Ctx
from tests.rules.hre.helpers import draft_all
from tests.rules.hre.modules.solo import events_text

ALCHEMISTS = {"modules": ["M04"], "options": {}}
SOLO = {"modules": ["M01", "M04"], "options": {}}

State = dict[str, Any]


def play_until(
    state: State, wanted: Callable[[State, dict[str, Any]], bool], seed: int = 1
) -> tuple[State, dict[str, Any]]:
    """Random play (never using the Alchemist) until a prompt satisfies `wanted`."""
    pick = random.Random(seed)
    for _ in range(5000):
        prompts = ENGINE.prompts(state)
        assert prompts, "the game ended first"
        prompt = prompts[0]
        if wanted(state, prompt):
            return state, prompt
        plain = [o for o in prompt["options"] if not str(o["action"]).count("m04_")]
        state, _ = ENGINE.apply(state, prompt["seat"], pick.choice(plain)["action"])
    raise AssertionError("no such prompt")


def dos(prompt: dict[str, Any]) -> list[Any]:
    return [o["action"] for o in prompt["options"] if isinstance(o["action"], dict)]


def test_HRE_M04_SETUP_01_every_player_has_an_empty_alchemist_card() -> None:
    """HRE-M04-SETUP-01: an Alchemist card per player, outside the hand."""
    for players in (2, 3, 4):
        state = ENGINE.setup(2, ALCHEMISTS, players)
        assert m04.held(state) == [0] * players
        state, prompt = play_until(state, lambda s, p: p["kind"] == "turn")
        assert all(len(seat["hand"]) <= 10 for seat in state["seats"])
        assert ENGINE.view(state, None)["alchemists"] == [0] * players


def test_HRE_M04_SETUP_01_the_setup_is_logged() -> None:
    """HRE-M04-SETUP-01: the Alchemist cards are handed out in the log."""
    state, events = draft_all(ENGINE.setup(2, ALCHEMISTS, 2))
    assert "HRE-M04-SETUP-01" in events_text(events)


def test_HRE_M04_PLAY_01_resources_go_on_the_card_during_research_not_gold() -> None:
    """HRE-M04-PLAY-01: during Research, any number of resources (never Gold) leave their owner."""
    state = ENGINE.setup(3, ALCHEMISTS, 2)
    state, prompt = play_until(
        state,
        lambda s, p: p["kind"] == "research" and sum(s["seats"][p["seat"]]["res"].values()) >= 2,
    )
    seat = prompt["seat"]
    stores = [a for a in dos(prompt) if a.get("do") == "m04_store"]
    assert stores and {a["res"] for a in stores} <= set(RESOURCES)
    first = stores[0]
    before = dict(state["seats"][seat]["res"])
    gold = state["seats"][seat]["gold"]
    state, events = ENGINE.apply(state, seat, first)
    assert state["seats"][seat]["res"][first["res"]] == before[first["res"]] - first["n"]
    assert state["seats"][seat]["gold"] == gold
    assert m04.held(state)[seat] == first["n"]
    assert "HRE-M04-PLAY-01" in events_text(events)
    # The Research is still to be chosen, and more may go on the card meanwhile.
    again = ENGINE.prompt_for(state, seat)
    assert again is not None and again["kind"] == "research"


def test_HRE_M04_PLAY_01_nothing_is_stored_outside_research() -> None:
    """HRE-M04-PLAY-01: the card takes resources during Research only."""
    state = ENGINE.setup(3, ALCHEMISTS, 2)
    state, prompt = play_until(
        state,
        lambda s, p: p["kind"] == "turn" and sum(s["seats"][p["seat"]]["res"].values()) >= 1,
    )
    assert not [a for a in dos(prompt) if a.get("do") == "m04_store"]


def test_HRE_M04_PLAY_02_three_resources_for_one_gold_even_on_another_turn() -> None:
    """HRE-M04-PLAY-02: at any time, reactions included, 3 from the card give 1 Gold."""
    state = ENGINE.setup(5, ALCHEMISTS, 3)
    state, prompt = play_until(
        state, lambda s, p: s["active"] is not None and p["seat"] != s["active"]
    )
    seat = prompt["seat"]
    assert {"do": "m04_gold"} not in dos(prompt)  # an empty card gives nothing
    state["m04"]["held"][seat] = 4
    prompt = ENGINE.prompt_for(state, seat)
    assert prompt is not None and {"do": "m04_gold"} in dos(prompt)
    gold, kind = state["seats"][seat]["gold"], prompt["kind"]
    state, events = ENGINE.apply(state, seat, {"do": "m04_gold"})
    assert state["seats"][seat]["gold"] == gold + 1
    assert m04.held(state)[seat] == 1
    assert "HRE-M04-PLAY-02" in events_text(events)
    after = ENGINE.prompt_for(state, seat)
    assert after is not None and after["kind"] == kind  # the decision is still open
    assert {"do": "m04_gold"} not in dos(after)  # 1 left: not enough


def test_HRE_M04_PLAY_02_what_is_left_on_the_card_becomes_gold_before_scoring() -> None:
    """HRE-M04-PLAY-02 (AMB-57): the last "any time" is just before final scoring."""
    state = ENGINE.setup(5, ALCHEMISTS, 2)
    state["m04"]["held"] = [7, 2]
    gold = [s["gold"] for s in state["seats"]]
    ctx = Ctx(state)
    assert m04._before_finish(ctx) is False
    assert [s["gold"] for s in state["seats"]] == [gold[0] + 2, gold[1]]
    assert m04.held(state) == [1, 2]
    assert events_text(ctx.events).count("HRE-M04-PLAY-02") == 2


def test_HRE_M04_PLAY_02_games_with_alchemists_end_and_replay() -> None:
    """HRE-M04-PLAY-01, HRE-M04-PLAY-02: random games with Alchemists end and replay."""
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        playout = play_and_replay(ENGINE, seed, ALCHEMISTS, players)
        assert playout.over


def test_HRE_M04_SOLO_01_you_have_an_alchemist_the_lordlings_none() -> None:
    """HRE-M04-SOLO-01: in solo only you get an Alchemist card."""
    state = ENGINE.setup(3, SOLO, 1)
    assert m04.held(state) == [0, None]
    state, events = ENGINE.apply(state, 0, {"ruler": "arnulf"})
    assert "HRE-M04-SOLO-01" in events_text(events)
    playout = play_and_replay(ENGINE, 3, SOLO, 1)
    assert playout.over and m04.held(playout.state)[1] is None
