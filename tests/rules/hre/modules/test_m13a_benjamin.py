"""Module 13A, Travels of Benjamin (rules-hre.md §1.35): journal cards with growing rewards."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.playout import play_and_replay
from rules.hre import ENGINE
from rules.hre.modules import m01_lordlings as m01
from rules.hre.modules import m13a_benjamin as m13a
from rules.hre.state import Ctx, data
from tests.rules.hre.helpers import act, actions, draft_all, give, top
from tests.rules.hre.modules.solo import events_text, quiet, solo
from tests.rules.hre.test_actions import city, noble, two_players

State = dict[str, Any]
BENJAMIN = {"modules": ["M13A"], "options": {}}


def with_benjamin(state: State) -> State:
    """A base test position played with Module 13A from here on."""
    state["modules"] = [*state.get("modules", []), "M13A"]
    n = len(state["seats"])
    state["m13a"] = {"stacks": [[] for _ in range(n)], "fourth": [False] * n}
    return state


def offer_card(state: State, card: str, at: int = 0) -> State:
    """Put a Benjamin card into the offer at a position (from wherever it is)."""
    for pile in (state["deck"], state["offer"], state["discard"]):
        if card in pile:
            pile.remove(card)
    if card not in state["offer"]:
        state["offer"].insert(at, card)
        state["cards_in_game"] += 1
        if len(state["offer"]) > data().board["offer_size"]:
            state["deck"].append(state["offer"].pop())
    return state


def take_benjamin(state: State, card: str, earlier: int = 0) -> tuple[State, list[Any]]:
    """Seat 0, with `earlier` Benjamin cards already collected, takes `card` by Development."""
    state["m13a"]["stacks"][0] = [f"CB{12 - i:02d}" for i in range(earlier)]
    for c in state["m13a"]["stacks"][0]:
        for pile in (state["deck"], state["offer"]):
            if c in pile:
                pile.remove(c)
                state["cards_in_game"] -= 1
        state["cards_in_game"] += 1
    state = offer_card(state, card)
    state = noble(state, "culture")
    return act(state, {"take": state["offer"].index(card)})


@pytest.mark.parametrize(("players", "cards"), [(1, 8), (2, 8), (3, 10), (4, 12)])
def test_HRE_M13A_SETUP_01_cards_marked_for_more_players_stay_out(players: int, cards: int) -> None:
    """HRE-M13A-SETUP-01 (AMB-73): 8 cards for 2 players and solo, 10 for 3, 12 for 4."""
    assert len(m13a.deck_for(players)) == cards
    assert all(data().cards[c]["players"] <= max(2, players) for c in m13a.deck_for(players))


@pytest.mark.parametrize(("players", "half"), [(2, 4), (3, 5), (4, 6)])
def test_HRE_M13A_SETUP_02_half_the_cards_in_each_half_of_the_deck(players: int, half: int) -> None:
    """HRE-M13A-SETUP-02: 4+4, 5+5 or 6+6 cards, one share in each half of the Culture deck,
    shuffled in before the offer is dealt."""
    state, events = draft_all(ENGINE.setup(4, BENJAMIN, players))
    pile = state["deck"] + list(reversed(state["offer"]))  # the offer came off the top
    benjamin = [i for i, c in enumerate(pile) if c.startswith("CB")]
    assert len(benjamin) == 2 * half
    middle = (len(pile)) // 2
    assert sum(1 for i in benjamin if i < middle) == half
    assert sum(1 for i in benjamin if i >= middle) == half
    assert "HRE-M13A-SETUP-02" in events_text(events)
    ENGINE.check_invariants(state)


@pytest.mark.parametrize(("players", "third"), [(5, 5), (6, 5), (7, 6), (8, 6)])
def test_HRE_M13A_SETUP_02_with_five_to_eight_players_by_thirds(players: int, third: int) -> None:
    """HRE-M13A-SETUP-02, HRE-M02-SETUP-03 (AMB-66): with the Great Domain, 5+5 cards at 5 or 6
    players (those marked 4 out) and 6+6 at 7 or 8, in the top and the middle third of the deck;
    the bottom third has none."""
    modules = {"modules": ["M02", "M13A"], "options": {}}
    state, events = draft_all(ENGINE.setup(4, modules, players))
    pile = state["deck"] + list(reversed(state["offer"]))  # the offer came off the top
    benjamin = [i for i, c in enumerate(pile) if c.startswith("CB")]
    marked_four = {c for c in m13a.deck_for(4) if data().cards[c]["players"] == 4}
    assert len(benjamin) == 2 * third
    assert bool(marked_four & {pile[i] for i in benjamin}) == (players > 6)
    size, extra = divmod(len(pile) - 2 * third, 3)
    middle_end = 2 * size + (1 if extra == 2 else 0) + third
    assert sum(1 for i in benjamin if i < size) == 0
    assert sum(1 for i in benjamin if size <= i < middle_end) == third
    assert sum(1 for i in benjamin if i >= middle_end) == third
    assert "top third" in events_text(events)
    ENGINE.check_invariants(state)


def test_HRE_M13A_SETUP_02_solo_puts_them_in_before_the_five_piles() -> None:
    """HRE-M13A-SETUP-02, HRE-M01-SETUP-11, AMB-73: solo takes the 2-player cards, 4 + 4, into
    the deck the five piles are cut from."""
    state = ENGINE.setup(1, {"modules": ["M01", "M13A"], "options": {}}, 1)
    state, events = ENGINE.apply(state, 0, {"ruler": "arnulf"})
    text = events_text(events)
    assert text.index("HRE-M13A-SETUP-02") < text.index("HRE-M01-SETUP-12")
    assert "4 Travels of Benjamin cards are shuffled into the top half" in text
    cards = state["deck"] + state["offer"] + state["discard"]
    in_deck = sum(1 for c in cards if c.startswith("CB"))
    assert in_deck + len(state["m13a"]["stacks"][1]) == 8 and state["m13a"]["stacks"][0] == []
    ENGINE.check_invariants(state)


def test_HRE_M13A_PLAY_01_a_taken_card_lies_beside_the_board_not_in_the_hand() -> None:
    """HRE-M13A-PLAY-01: taken like any offer card; then face up and stacked, out of the hand."""
    state = with_benjamin(two_players())
    hand = list(state["seats"][0]["hand"])
    state, events = take_benjamin(state, "CB03")
    assert state["seats"][0]["hand"] == hand and state["m13a"]["stacks"][0] == ["CB03"]
    assert "CB03" not in state["offer"] and top(state)["kind"] == "m13a_reward"
    assert "HRE-M13A-PLAY-01" in events_text(events)
    assert ENGINE.view(state, 1)["benjamin"]["stacks"][0] == ["CB03"]  # face up
    ENGINE.check_invariants(state)


@pytest.mark.parametrize(
    ("earlier", "rewards"),
    [(0, [1]), (1, [1, 2]), (2, [1, 2, 3]), (3, [1, 2, 3, 4]), (5, [1, 2, 3, 4, 5])],
)
def test_HRE_M13A_PLAY_02_TC_40_the_kth_card_unlocks_the_first_k_rewards(
    earlier: int, rewards: list[int]
) -> None:
    """HRE-M13A-PLAY-02 (TC-40): the 1st card offers reward 1, the 3rd rewards 1-3, the 6th all
    five, the fourth only while not taken before."""
    state = with_benjamin(two_players())
    state, _ = take_benjamin(state, "CB01", earlier)
    assert sorted({a["m13a"] for a in actions(state)}) == rewards
    state["m13a"]["fourth"][0] = True
    assert sorted({a["m13a"] for a in actions(state)}) == [r for r in rewards if r != 4]


def test_HRE_M13A_PLAY_03_the_first_two_rewards_are_resources_or_vp() -> None:
    """HRE-M13A-PLAY-03: reward 1 is 1 Wood or 1 VP; reward 2 is 1 Gold or 2 VP; 5 is 6 VP."""
    state = with_benjamin(two_players())
    state, _ = take_benjamin(state, "CB02", 5)
    gains = {(a["m13a"], tuple(sorted(a["gain"].items()))) for a in actions(state) if "gain" in a}
    assert gains == {
        (1, (("wood", 1),)),
        (1, (("vp", 1),)),
        (2, (("gold", 1),)),
        (2, (("vp", 2),)),
        (3, (("vp", 3),)),
        (5, (("vp", 6),)),
    }
    vp = state["seats"][0]["vp"]
    state, events = act(state, {"m13a": 5, "gain": {"vp": 6}})
    assert state["seats"][0]["vp"] == vp + 6 and "HRE-M13A-PLAY-03" in events_text(events)


def test_HRE_M13A_PLAY_03_a_farm_from_the_track_settles_an_empty_province() -> None:
    """HRE-M13A-PLAY-03 (AMB-64): the leftmost Farm goes to a province you control with room;
    in one held by units alone it is a free settling."""
    state = with_benjamin(two_players())
    city(state, "swabia", 0)  # units only, no Farm
    track = state["seats"][0]["farms_track"]
    state, _ = take_benjamin(state, "CB04", 2)
    farms = {a["prov"] for a in actions(state) if "prov" in a}
    assert farms == {"bavaria", "swabia"}  # the Capital has 1 Farm, Swabia none
    state, events = act(state, {"m13a": 3, "prov": "swabia"})
    assert state["prov"]["swabia"]["farms"] == 1 and state["seats"][0]["farms_track"] == track - 1
    assert "HRE-M13A-PLAY-03" in events_text(events)
    ENGINE.check_invariants(state)


def test_HRE_M13A_PLAY_03_the_fourth_reward_allows_a_third_farm_once() -> None:
    """HRE-M13A-PLAY-03 (AMB-64): from the fourth reward on, Build offers a third Farm at a
    Farm's cost in a province with two; the reward is not offered again."""
    state = with_benjamin(two_players())
    state["prov"]["bavaria"]["farms"] = 2
    state["seats"][0]["farms_track"] -= 1
    state, _ = take_benjamin(state, "CB05", 3)
    state, events = act(state, {"m13a": 4})
    assert state["m13a"]["fourth"] == [True, False]
    state["stack"] = state["stack"][:1]  # on to a fresh Build
    state["stack"][0].update(phase="start")
    state["seats"][0]["discs"] = state["seats"][0]["total_discs"]
    for slot in state["slots"]:
        slot["stack"] = []
    give(state, 0, wood=2)
    state = noble(state, "build")
    assert {"build": "farm", "prov": "bavaria"} in actions(state)
    label = next(
        o["label"]
        for o in ENGINE.prompts(state)[0]["options"]
        if o["action"].get("prov") == "bavaria" and o["action"].get("build") == "farm"
    )
    assert label == "Build a third Farm in Bavaria"
    state, events = act(state, {"build": "farm", "prov": "bavaria"})
    assert state["prov"]["bavaria"]["farms"] == 3 and "HRE-M13A-PLAY-03" in events_text(events)
    ENGINE.check_invariants(state)
    state["m13a"]["stacks"][0] = state["m13a"]["stacks"][0][:5]
    assert 4 not in m13a.unlocked(state, 0, 6)


def test_HRE_M13A_PLAY_03_without_the_fourth_reward_two_farms_are_the_most() -> None:
    """HRE-M13A-PLAY-03: the base cap of two Farms stands for whoever has not taken reward 4."""
    state = with_benjamin(two_players())
    state["prov"]["bavaria"]["farms"] = 2
    state["seats"][0]["farms_track"] -= 1
    give(state, 0, wood=2)
    state = noble(state, "build")
    assert {"build": "farm", "prov": "bavaria"} not in actions(state)


def test_HRE_M13A_SOLO_01_TC_15_the_lordlings_score_one_per_card_they_hold() -> None:
    """HRE-M13A-SOLO-01 (TC-15): their 7th card scores 7 VP, after 1+2+...+6 = 21 for the first
    six; they keep every card."""
    state = quiet(solo())
    state = with_benjamin(state)
    ctx = Ctx(state)
    start = state["seats"][1]["vp"]
    cards = m13a.deck_for(1) + ["CB09"]
    for i, card in enumerate(cards[:7]):
        offer_card(state, card)
        m01.take_card(ctx, 0, "HRE-M01-LORDLING-DEV-01")
        if i == 5:
            assert state["seats"][1]["vp"] == start + 21
    assert state["seats"][1]["vp"] == start + 28  # the 7th scored 7
    assert len(state["m13a"]["stacks"][1]) == 7 and state["seats"][1]["hand"] == []
    assert "HRE-M13A-SOLO-01" in events_text(ctx.events)


def test_HRE_M13A_SOLO_02_HRE_M01_DIFF_11_hard_gives_the_lordlings_two_at_the_start() -> None:
    """HRE-M13A-SOLO-02, HRE-M01-DIFF-11: on hard only 3 + 3 cards go into the deck and the
    Lordlings start with the other 2, so their first new card scores 3 VP."""
    state = ENGINE.setup(2, {"modules": ["M01", "M13A"], "options": {"difficulty": "hard"}}, 1)
    state, events = ENGINE.apply(state, 0, {"ruler": "arnulf"})
    assert len(state["m13a"]["stacks"][1]) == 2
    pile = state["deck"] + state["offer"] + state["discard"]
    assert sum(1 for c in pile if c.startswith("CB")) == 6
    assert "HRE-M13A-SOLO-02" in events_text(events)
    ENGINE.check_invariants(state)
    state = quiet(state)
    ctx = Ctx(state)
    vp = state["seats"][1]["vp"]
    card = next(c for c in pile if c.startswith("CB"))
    offer_card(state, card)
    m01.take_card(ctx, 0, "HRE-M01-LORDLING-DEV-01")
    assert state["seats"][1]["vp"] == vp + 3


def test_HRE_M01_DIFF_11_only_hard_changes_the_benjamin_split() -> None:
    """HRE-M01-DIFF-11: only the hard switches change the split; easy and normal keep 4 + 4."""
    for level in ("easy", "normal"):
        config = {"modules": ["M01", "M13A"], "options": {"difficulty": level}}
        state, events = ENGINE.apply(ENGINE.setup(2, config, 1), 0, {"ruler": "arnulf"})
        assert "HRE-M13A-SOLO-02" not in events_text(events)
        assert "4 Travels of Benjamin cards" in events_text(events)


@pytest.mark.parametrize(
    ("slug", "players", "options"),
    [("benjamin", 2, {}), ("benjamin", 4, {}), ("solo-benjamin", 1, {"difficulty": "hard"})],
)
def test_HRE_M13A_random_games_with_benjamin_end_and_replay(
    slug: str, players: int, options: dict[str, Any]
) -> None:
    """HRE-M13A-SETUP-02: the shipped scenarios play to the end and replay (invariants checked)."""
    config = next(s["config"] for s in ENGINE.scenarios() if s["slug"] == slug)
    playout = play_and_replay(ENGINE, 3, {**config, "options": options}, players)
    assert playout.over and playout.replay is not None and playout.replay.ok


def test_HRE_M01_DIFF_11_hard_with_skirmishers_and_benjamin_together() -> None:
    """HRE-M01-DIFF-11: the cross-module hard extras at once: Skirmishers on the map while the
    Raiding Party keeps Barbarian tokens (M07), and the harder Benjamin split (M13A)."""
    config = {"modules": ["M01", "M07", "M13A"], "options": {"difficulty": "hard"}}
    state, events = ENGINE.apply(ENGINE.setup(5, config, 1), 0, {"ruler": "arnulf"})
    sets = data().token_sets
    on_map = [h["barb"]["token"] for h in state["prov"].values() if h["barb"]]
    assert on_map and all(t in sets["skirmisher"] for t in on_map)
    assert all(t in sets["barbarian"] for t in state["m01"]["party"]["tokens"])
    assert len(state["m13a"]["stacks"][1]) == 2
    text = events_text(events)
    assert "HRE-M07-SOLO-01" in text and "HRE-M13A-SOLO-02" in text
    ENGINE.check_invariants(state)
