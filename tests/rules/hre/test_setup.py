"""Setup of the HRE base game (HRE-BASE-SETUP) and the component supplies (HRE-COMP)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.hre import ENGINE
from rules.hre.state import army_limit, capital, data, in_supply
from tests.rules.hre.helpers import act, actions, game, give, top, turn_of, units

BASE_RULERS = ["arnulf", "berengar", "boleslaus", "otto", "pandulf"]


def _fresh(players: int, seed: int = 1) -> dict:
    """A game just after ENGINE.setup: the Ruler draft is open."""
    return ENGINE.setup(seed, {"modules": [], "options": {}}, players)


def test_HRE_BASE_SETUP_02_action_cards_shuffled_into_five_slots() -> None:
    """HRE-BASE-SETUP-02: one of each Action card on the 5 spaces, in a random order."""
    orders = set()
    for seed in range(1, 21):
        slots = _fresh(2, seed)["slots"]
        assert sorted(slot["action"] for slot in slots) == sorted(data().board["actions"])
        assert all(slot["stack"] == [] for slot in slots)
        orders.add(tuple(slot["action"] for slot in slots))
    assert len(orders) > 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_HRE_BASE_SETUP_04_cards_above_player_count_removed(players: int) -> None:
    """HRE-BASE-SETUP-04: no Culture card, Ruler or Title marked for more than N players is used."""
    s = game(players)
    d = data()
    cards = s["deck"] + s["offer"] + [c for seat in s["seats"] for c in seat["hand"]]
    assert all(d.cards[c]["players"] <= players for c in cards)
    assert all(d.titles[t]["players"] <= players for t in s["titles"])
    expected_titles = {t for t, spec in d.titles.items() if spec["players"] <= players}
    assert set(s["titles"]) == expected_titles
    # the base deck (no starting or module cards) is the whole count-filtered deck: 40/48/56
    assert len(s["deck"]) + len(s["offer"]) == {2: 58, 3: 72, 4: 84}[players]
    assert all(d.rulers[r]["players"] <= players for r in _fresh(players)["rulers_open"])


def test_HRE_BASE_SETUP_04_two_player_game_has_no_lotharingia_title() -> None:
    """HRE-BASE-SETUP-04: the Duchy of Lotharingia is marked for 3 players, so it is out at 2p."""
    assert "duchy_of_lotharingia" not in game(2)["titles"]
    assert "duchy_of_lotharingia" in game(3)["titles"]


def test_HRE_BASE_SETUP_05_06_five_base_rulers_offered_without_m03() -> None:
    """HRE-BASE-SETUP-05, HRE-BASE-SETUP-06: the 5 base Rulers are laid out; Marozia and Henry need
    Module 3."""
    s = _fresh(2)
    assert s["rulers_open"] == BASE_RULERS
    offered = [o["action"]["ruler"] for o in ENGINE.prompts(s)[0]["options"]]
    assert offered == BASE_RULERS
    after = game(2)
    in_game = after["deck"] + after["offer"] + [c for seat in after["seats"] for c in seat["hand"]]
    for m03 in ("marozia", "henry_the_fowler"):
        assert not set(data().rulers[m03]["starting_cards"]) & set(in_game)


def test_HRE_BASE_SETUP_07_starting_player_is_random() -> None:
    """HRE-BASE-SETUP-07: the starting player is drawn at random (it varies with the seed)."""
    starts = Counter(_fresh(4, seed)["start"] for seed in range(1, 41))
    assert set(starts) == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_HRE_BASE_SETUP_08_TC_21_draft_counter_clockwise_from_the_right(players: int) -> None:
    """HRE-BASE-SETUP-08 (TC-21): the draft starts at the start player's right; the start picks
    last."""
    for seed in range(1, 6):
        s = _fresh(players, seed)
        start = s["start"]
        order = []
        while top(s)["kind"] == "draft":
            seat = top(s)["seat"]
            order.append(seat)
            s, _ = act(s, {"ruler": s["rulers_open"][0]})
        assert order == [(start - k) % players for k in range(1, players + 1)]


def test_HRE_BASE_SETUP_08_TC_21_four_players_seat_one_starts() -> None:
    """HRE-BASE-SETUP-08 (TC-21): seats 1(start),2,3,4 clockwise draft in the order 4, 3, 2, 1."""
    seed = next(n for n in range(1, 100) if _fresh(4, n)["start"] == 0)
    s = _fresh(4, seed)
    order = []
    while top(s)["kind"] == "draft":
        order.append(top(s)["seat"] + 1)
        s, _ = act(s, {"ruler": s["rulers_open"][0]})
    assert order == [4, 3, 2, 1]


def test_HRE_BASE_SETUP_08_pick_takes_starting_cards_and_unpicked_leave() -> None:
    """HRE-BASE-SETUP-08: a picked Ruler's 2 starting cards go to the hand; unpicked Rulers
    leave."""
    s = game(2, rulers=["otto", "pandulf"])
    assert s["seats"][0]["ruler"] == "otto" and s["seats"][1]["ruler"] == "pandulf"
    assert s["seats"][0]["hand"] == ["C001", "C002"]
    assert s["seats"][1]["hand"] == ["C009", "C010"]
    assert s["rulers_open"] == []
    unpicked = {
        c for r in ("arnulf", "berengar", "boleslaus") for c in data().rulers[r]["starting_cards"]
    }
    assert not unpicked & set(s["deck"] + s["offer"] + s["discard"])


def test_HRE_BASE_SETUP_08_a_picked_ruler_cannot_be_picked_again() -> None:
    """HRE-BASE-SETUP-08: each Ruler is taken by one player only."""
    s = _fresh(2)
    s, _ = act(s, {"ruler": "otto"})
    assert {"ruler": "otto"} not in actions(s)


@pytest.mark.parametrize(("players", "left"), [(2, 9), (3, 10), (4, 11)])
def test_HRE_BASE_SETUP_09_10_TC_20_city_supply_after_capitals(players: int, left: int) -> None:
    """HRE-BASE-SETUP-09, HRE-BASE-SETUP-10 (TC-20): 11/13/15 Cities less one per Capital stay in
    the supply."""
    s = game(players)
    assert s["cities"] == left
    assert sum(here["city"] for here in s["prov"].values()) == players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_HRE_BASE_SETUP_10_25_TC_20_capital_city_farm_and_two_infantry(players: int) -> None:
    """HRE-BASE-SETUP-10, HRE-BASE-SETUP-25 (TC-20): each Capital has a City, one Farm and 2
    Infantry of its owner."""
    s = game(players)
    for seat in range(players):
        home = s["prov"][capital(s, seat)]
        assert home["owner"] == seat and home["city"] and home["farms"] == 1
        assert home["units"] == {"infantry": 2, "archer": 0, "cavalry": 0}
        assert home["barb"] is None
    others = [
        p for p, here in s["prov"].items() if p not in {capital(s, i) for i in range(players)}
    ]
    assert all(not s["prov"][p]["city"] and s["prov"][p]["owner"] is None for p in others)


def test_HRE_BASE_SETUP_11_church_track_full() -> None:
    """HRE-BASE-SETUP-11: every Church is on the track: none built, none on the board."""
    s = game(3)
    assert s["churches"] == 0
    assert not any(here["church"] for here in s["prov"].values())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_HRE_BASE_SETUP_12_13_14_barbarians_in_every_open_province(players: int) -> None:
    """HRE-BASE-SETUP-12, HRE-BASE-SETUP-13, HRE-BASE-SETUP-14: a token in every in-play non-Capital
    province; blocked ones are out; the unused tokens go to the box (25 in all, HRE-COMP-03)."""
    s = game(players)
    d = data()
    in_play = {p for p, spec in d.provinces.items() if spec["players"] <= players}
    assert set(s["prov"]) == in_play
    capitals = {capital(s, i) for i in range(players)}
    placed = [here["barb"]["token"] for p, here in s["prov"].items() if p not in capitals]
    assert all(s["prov"][p]["barb"] is not None for p in in_play - capitals)
    assert len(placed) == len(in_play) - players
    assert sorted(placed + s["box_tokens"]) == sorted(d.tokens)
    assert len(d.tokens) == 25


def test_HRE_BASE_SETUP_12_token_faces_are_random() -> None:
    """HRE-BASE-SETUP-12: tokens lie with a random side up: both faces occur."""
    faces = Counter(here["barb"]["face"] for here in game(4)["prov"].values() if here["barb"])
    assert set(faces) == {"reward", "units"}


def test_HRE_COMP_03_tokens_have_a_reward_side_and_a_unit_side() -> None:
    """HRE-COMP-03: 25 Barbarian tokens, each with a reward side and a unit side."""
    tokens = data().tokens
    assert len(tokens) == 25
    for token in tokens.values():
        assert sum(token["units"].values()) >= 1
        assert token["reward"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_HRE_BASE_SETUP_16_production_building_in_each_province(players: int) -> None:
    """HRE-BASE-SETUP-16: one Production building of the depicted resource in each in-play
    province."""
    s = game(players)
    for pid, here in s["prov"].items():
        assert here["bld"] == [data().provinces[pid]["resource"]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_HRE_BASE_SETUP_17_to_20_22_TC_20_tracks_and_starting_goods(players: int) -> None:
    """HRE-BASE-SETUP-17, HRE-BASE-SETUP-18, HRE-BASE-SETUP-19, HRE-BASE-SETUP-20 and
    HRE-BASE-SETUP-22 (TC-20): VP 0, Culture on the first space, Warehouse on top, 11 Farms on
    the track (Army limit = leftmost value), 1 Gold and 1 of each resource."""
    s = game(players)
    for i, seat in enumerate(s["seats"]):
        assert seat["vp"] == 0
        assert seat["culture"] == 0
        assert seat["warehouse"] == 0
        assert seat["farms_track"] == 11
        assert army_limit(s, i) == data().board["farm_track"][0]["army_limit"] == 3
        assert seat["gold"] == 1
        assert seat["res"] == {"wood": 1, "leather": 1, "stone": 1, "iron": 1}


def test_HRE_BASE_SETUP_21_offer_dealt_from_shuffled_deck() -> None:
    """HRE-BASE-SETUP-21: the deck is shuffled and one card is dealt face up into each offer
    space."""
    offers = set()
    for seed in range(1, 6):
        s = game(2, seed=seed)
        assert len(s["offer"]) == data().board["offer_size"] == 6
        assert not set(s["offer"]) & set(s["deck"])
        offers.add(tuple(s["offer"]))
    assert len(offers) > 1


@pytest.mark.parametrize(("players", "discs"), [(2, [5, 6]), (3, [4, 5, 5]), (4, [3, 3, 4, 4])])
def test_HRE_BASE_SETUP_23_24_TC_20_noble_discs(players: int, discs: list[int]) -> None:
    """HRE-BASE-SETUP-23, HRE-BASE-SETUP-24 (TC-20): 6/5/4 discs; the first 1/1/2 players from the
    start exhaust one."""
    for seed in range(1, 5):
        s = game(players, seed=seed)
        start = s["start"]
        order = [s["seats"][(start + k) % players] for k in range(players)]
        assert [seat["discs"] for seat in order] == discs
        assert all(seat["total_discs"] == {2: 6, 3: 5, 4: 4}[players] for seat in order)
        assert [seat["exhausted"] for seat in order] == [
            seat["total_discs"] - seat["discs"] for seat in order
        ]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_HRE_BASE_SETUP_26_starting_player_takes_first_turn(players: int) -> None:
    """HRE-BASE-SETUP-26: after the draft the starting player is deciding its first turn."""
    s = game(players, seed=7)
    assert top(s)["kind"] == "turn" and top(s)["seat"] == s["start"] == s["active"]
    assert top(s)["phase"] == "start"


def test_HRE_BASE_SETUP_03_HRE_COMP_06_colour_supply() -> None:
    """HRE-BASE-SETUP-03 / HRE-COMP-06: each colour has 7 Infantry, 6 Archers, 5 Cavalry, 12
    Farms."""
    s = game(2)
    assert in_supply(s, 0, "infantry") == 5  # two already stand in the Capital
    assert in_supply(s, 0, "archer") == 6
    assert in_supply(s, 0, "cavalry") == 5
    on_board = sum(here["farms"] for here in s["prov"].values() if here["owner"] == 0)
    assert s["seats"][0]["farms_track"] + on_board == 12


def test_HRE_COMP_06_no_recruit_beyond_colour_supply() -> None:
    """HRE-COMP-06 / HRE-BASE-RECRUIT-02: with all 6 Archers in play no Archer can be recruited;
    once one returns to supply it can be recruited again."""
    s = game(2, rulers=["arnulf", "berengar"])
    units(s, "bavaria", 0, infantry=2, archer=6)
    give(s, 0, wood=3, leather=3, gold=0)
    turn_of(s, 0)
    s, _ = act(s, {"do": "noble", "slot": [x["action"] for x in s["slots"]].index("recruit")})
    assert {a["unit"] for a in actions(s)} == {"infantry", "cavalry"}
    s["prov"]["bavaria"]["units"]["archer"] = 5
    assert {"unit": "archer", "prov": "bavaria"} in actions(s)


def test_HRE_BASE_SETUP_15_one_barbarian_card_of_each_type() -> None:
    """HRE-BASE-SETUP-15: the Barbarians fight with one Military card per type, at level 1."""
    cards = data().barbarian_units
    assert set(cards) == {"infantry", "archer", "cavalry"}
    assert all(card["melee"] and card["armour"] for card in cards.values())


def test_HRE_COMP_05_city_and_church_supplies() -> None:
    """HRE-COMP-05: 15 Cities and 10 Churches exist; the 4-player game uses all 15 Cities."""
    board = data().board
    assert board["cities"]["4"] == 15 and board["church_track"]["spaces"] == 10
    s = game(4)
    assert s["cities"] + sum(here["city"] for here in s["prov"].values()) == 15


def test_HRE_COMP_04_AMB_45_resources_are_not_capped() -> None:
    """HRE-COMP-04 (AMB-45): 25 tokens of a resource are not a hard limit: a 26th can be gained."""
    s = game(2, rulers=["arnulf", "berengar"])
    turn_of(s, 1)
    give(s, 0, wood=25)
    s["stack"].append({"kind": "wood_or_stone", "seat": 0})
    s, _ = act(s, {"gain": "wood"})
    assert s["seats"][0]["res"]["wood"] == 26
