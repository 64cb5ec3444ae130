"""Module 8, The Wyrd (rules-hre.md §1.30): fate tucked under the offer, curses that come due."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.playout import play_and_replay
from rules.hre import ENGINE, culture
from rules.hre.modules import m08_wyrd as m08
from rules.hre.state import Ctx
from tests.rules.hre.helpers import act, actions, draft_all, give, top, turn_of
from tests.rules.hre.modules.solo import events_text

WYRD = {"modules": ["M08"], "options": {}}
State = dict[str, Any]


def wyrd_game(players: int = 2, seed: int = 1) -> tuple[State, list[Any]]:
    state = ENGINE.setup(seed, WYRD, players)
    return draft_all(state)


def pull(t: dict[str, Any], cid: str) -> None:
    """Take a Wyrd out of the face-down ones (the deck, or from under a card: swapped)."""
    if cid in t["deck"]:
        t["deck"].remove(cid)
        return
    card = next(c for c, w in t["under"].items() if w == cid)
    t["under"][card] = t["deck"].pop()


def take_with_culture(state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[Any]]:
    """Seat places a Noble on Development of Culture and answers the offer prompt."""
    turn_of(state, seat)
    slot = next(i for i, s in enumerate(state["slots"]) if s["action"] == "culture")
    state, events = act(state, {"do": "noble", "slot": slot})
    state, more = act(state, action)
    return state, events + more


def broken_oath_due() -> State:
    """Seat 1's Wyrd CY01 (top: lose 4 VP; bottom: lose 2 Gold) fulfilled with 5 VP and 2 Gold."""
    state, _ = wyrd_game()
    state["stack"] = []
    t = state["m08"]
    pull(t, "CY01")
    entry = {"card": "CY01", "markers": 0}
    t["active"][1].append(entry)
    state["seats"][1]["vp"], state["seats"][1]["gold"] = 5, 2
    m08.fulfil(Ctx(state), 1, entry)
    return state


def test_HRE_M08_SETUP_01_02_a_wyrd_under_the_rightmost_offer_card() -> None:
    """HRE-M08-SETUP-01, HRE-M08-SETUP-02: once the offer is dealt, one Wyrd lies face down
    under its rightmost card; nobody sees which."""
    state, events = wyrd_game()
    t = state["m08"]
    assert list(t["under"]) == [state["offer"][-1]] and len(t["deck"]) == 11
    assert {"HRE-M08-SETUP-01", "HRE-M08-SETUP-02"} <= set(events_text(events).split())
    view = ENGINE.view(state, 0)["wyrd"]
    assert view["under"] == [state["offer"][-1]] and view["deck_count"] == 11
    hidden = list(t["under"].values())[0]
    assert hidden not in str(ENGINE.view(state, 0)) and hidden not in str(ENGINE.view(state, None))
    ENGINE.check_invariants(state)


@pytest.mark.parametrize("players", [5, 8])
def test_HRE_M08_SETUP_01_with_five_to_eight_players_24_wyrds_two_tucked(players: int) -> None:
    """HRE-M08-SETUP-01: with the Great Domain all 24 Wyrds are shuffled and one lies under each
    of the two rightmost offer cards; the western half's 12 stay out of a 2-4 player game."""
    state, _ = draft_all(ENGINE.setup(1, {"modules": ["M02", "M08"], "options": {}}, players))
    t = state["m08"]
    assert sorted(t["under"]) == sorted(state["offer"][-2:]) and len(t["deck"]) == 22
    assert sorted(t["deck"] + list(t["under"].values())) == m08.deck_for(players)
    assert len(m08.deck_for(players)) == 24 and len(m08.deck_for(4)) == 12
    assert not {c for c in m08.deck_for(4) if m08.cards()[c].get("half") == "western"}
    ENGINE.check_invariants(state)


def test_HRE_M08_PLAY_01_the_wyrd_slides_with_its_card_and_moves_when_it_is_discarded() -> None:
    """HRE-M08-PLAY-01: the Wyrd follows its Culture card along the offer; if that card is
    discarded, the Wyrd goes under the rightmost card that has none."""
    state, _ = wyrd_game()
    carrier = state["offer"][-1]
    wyrd = state["m08"]["under"][carrier]
    ctx = Ctx(state)
    culture.cycle_offer(ctx, "HRE-BASE-PASS-02")  # the leftmost card leaves; all slide left
    assert state["m08"]["under"] == {carrier: wyrd}
    assert state["offer"].index(carrier) == len(state["offer"]) - 2
    state["offer"].remove(carrier)
    state["offer"].insert(0, carrier)
    culture.cycle_offer(ctx, "HRE-BASE-PASS-02")  # now the carrier itself is discarded
    assert state["m08"]["under"] == {state["offer"][-2]: wyrd}
    assert "HRE-M08-PLAY-01" in events_text(ctx.events)


def test_HRE_M08_PLAY_02_05_beyond_reach_only_by_its_wyrd_and_then_it_must_be_activated() -> None:
    """HRE-M08-PLAY-02, HRE-M08-PLAY-05: a card with a Wyrd is offered to anyone; taken beyond
    the seat's reach, its Wyrd must be activated."""
    state, _ = wyrd_game()
    last = len(state["offer"]) - 1
    state, _ = take_with_culture(state, 0, {"do": "m08_take", "take": last})
    assert top(state)["kind"] == "m08_fate"
    assert actions(state) == [{"m08_fate": "activate"}]
    state, events = act(state, {"m08_fate": "activate"})
    t = state["m08"]
    assert [e["markers"] for e in t["active"][0]] == [2]  # one marker per player
    assert len(t["under"]) == 1 and len(t["deck"]) == 10  # the next one is tucked (PLAY-07)
    assert list(t["under"]) == [state["offer"][-1]]
    assert {"HRE-M08-PLAY-03", "HRE-M08-PLAY-07"} <= set(events_text(events).split())
    ENGINE.check_invariants(state)


def test_HRE_M08_PLAY_03_07_within_reach_the_wyrd_may_be_removed_unseen() -> None:
    """HRE-M08-PLAY-03, HRE-M08-PLAY-07: a Wyrd card taken within reach may be removed unseen;
    the next Wyrd goes under the new rightmost card."""
    state, _ = wyrd_game()
    carrier = state["offer"][-1]
    state["m08"]["under"] = {state["offer"][0]: state["m08"]["under"].pop(carrier)}
    state, _ = take_with_culture(state, 0, {"take": 0})
    assert sorted(a["m08_fate"] for a in actions(state)) == ["activate", "remove"]
    state, events = act(state, {"m08_fate": "remove"})
    t = state["m08"]
    assert len(t["removed"]) == 1 and t["active"] == [[], []]
    assert list(t["under"]) == [state["offer"][-1]]
    assert "HRE-M08-PLAY-07" in events_text(events)


def test_HRE_M08_PLAY_04_activating_takes_a_marker_off_every_other_wyrd() -> None:
    """HRE-M08-PLAY-04: every player, the activator included, removes one marker from each of
    their other active Wyrds."""
    state, _ = wyrd_game(players=3)
    t = state["m08"]
    pull(t, "CY01")
    pull(t, "CY02")
    t["active"][0].append({"card": "CY01", "markers": 3})
    t["active"][1].append({"card": "CY02", "markers": 3})
    ctx = Ctx(state)
    wyrd = t["deck"].pop()
    m08.activate(ctx, 0, wyrd)
    assert t["active"][0] == [{"card": "CY01", "markers": 2}, {"card": wyrd, "markers": 3}]
    assert t["active"][1] == [{"card": "CY02", "markers": 2}]
    assert "HRE-M08-PLAY-04" in events_text(ctx.events)


def test_HRE_M08_PLAY_06_a_fulfilled_wyrd_asks_for_a_payable_penalty() -> None:
    """HRE-M08-PLAY-06: with both penalties payable the owner chooses; the card is kept face down."""
    state = broken_oath_due()
    t = state["m08"]
    assert t["fulfilled"][1] == ["CY01"] and t["active"][1] == []
    assert actions(state) == [{"m08_penalty": 0}, {"m08_penalty": 1}]
    state, _ = act(state, {"m08_penalty": 1})
    assert state["seats"][1]["gold"] == 0 and state["seats"][1]["vp"] == 5


def test_HRE_M08_PLAY_06_an_unpayable_penalty_cannot_be_chosen() -> None:
    """HRE-M08-PLAY-06: a penalty that cannot be paid in full (or would do nothing) is not
    chosen; if neither can, the bottom one applies as far as it goes."""
    state, _ = wyrd_game()
    state["stack"] = []
    t = state["m08"]
    for cid in ("CY01", "CY07"):
        pull(t, cid)
    give(state, 1, gold=0)
    state["seats"][1]["vp"] = 9
    first, second = {"card": "CY01", "markers": 0}, {"card": "CY07", "markers": 0}
    t["active"][1] += [first, second]
    m08.fulfil(Ctx(state), 1, first)  # no Gold: the VP penalty
    assert state["seats"][1]["vp"] == 5 and state["stack"] == []
    state["seats"][1]["vp"], state["seats"][1]["gold"] = 2, 1
    ctx = Ctx(state)
    m08.fulfil(ctx, 1, second)  # 5 VP or 2 Gold: neither in full
    assert state["seats"][1]["vp"] == 2 and state["seats"][1]["gold"] == 0
    assert "as far as it goes" in events_text(ctx.events)


def test_HRE_M08_PLAY_06_a_choice_left_unpayable_by_another_curse_takes_the_bottom() -> None:
    """HRE-M08-PLAY-06: two curses come due at once; the first asks (both payable then), the
    second takes what it needed first: the first's prompt then offers the bottom penalty as
    far as it goes, never an empty choice (found by the greedy bot's look-ahead, issue 17)."""
    state = broken_oath_due()
    assert top(state)["kind"] == "m08_penalty"
    state["seats"][1]["vp"], state["seats"][1]["gold"] = 3, 1  # another curse paid first
    assert actions(state) == [{"m08_penalty": 1}]
    state, events = act(state, {"m08_penalty": 1})
    assert state["seats"][1]["gold"] == 0 and state["seats"][1]["vp"] == 3
    assert "as far as it goes" in events_text(events)


def test_HRE_M08_PLAY_08_an_empty_wyrd_deck_brings_every_curse_due() -> None:
    """HRE-M08-PLAY-08: with no Wyrd left to tuck, every active Wyrd resolves at once."""
    state, _ = wyrd_game()
    state["stack"] = []
    t = state["m08"]
    t["removed"] += t["deck"]
    t["deck"] = []
    t["removed"].remove("CY02")
    t["active"][0].append({"card": "CY02", "markers": 2})  # lose 2 Wood, or 3 VP
    give(state, 0, wood=3)
    ctx = Ctx(state)
    m08._tuck(ctx, "HRE-M08-PLAY-07")
    assert t["active"][0] == [] and t["fulfilled"][0] == ["CY02"]
    assert "HRE-M08-PLAY-08" in events_text(ctx.events)


def test_HRE_M08_END_01_AMB_59_the_most_wyrds_score_seven_ties_included() -> None:
    """HRE-M08-END-01 (AMB-59): the most Wyrds, active or fulfilled, score 7 VP; ties all score."""
    state, _ = wyrd_game(players=3)
    t = state["m08"]
    t["active"] = [[{"card": "CY01", "markers": 1}], [], [{"card": "CY03", "markers": 2}]]
    t["fulfilled"] = [[], ["CY02"], ["CY04"]]
    assert m08.wyrd_vp(state) == {0: 0, 1: 0, 2: 7}
    t["fulfilled"][1].append("CY05")
    assert m08.wyrd_vp(state) == {0: 0, 1: 7, 2: 7}
    rows = ENGINE.result(state)["seats"]
    assert [r["breakdown"]["wyrd"] for r in rows] == [0, 7, 7]


def test_HRE_M08_PLAY_03_random_games_end_and_replay() -> None:
    """HRE-M08-PLAY-03: random games with the Wyrd end and replay (invariants checked)."""
    for seed, players in ((1, 2), (2, 4)):
        playout = play_and_replay(ENGINE, seed, WYRD, players)
        assert playout.over and playout.replay is not None and playout.replay.ok
