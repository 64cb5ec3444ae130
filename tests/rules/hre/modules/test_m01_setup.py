"""Module 1 set-up and components (HRE-M01-COMP, HRE-M01-SETUP), and the solo scenario's seat."""

from __future__ import annotations

import json

import pytest

from rules.core.errors import ScenarioError
from rules.hre import ENGINE, culture
from rules.hre.components import load
from rules.hre.modules import m01_lordlings as m
from rules.hre.state import UNITS, Ctx, neighbours
from tests.rules.hre.modules.solo import lordling_homes, solo


def test_HRE_M01_COMP_01_02_03_the_module_data_has_the_books_counts() -> None:
    """HRE-M01-COMP-01, HRE-M01-COMP-02, HRE-M01-COMP-03: 9 Lordling cards (2 Persevere), 18 Raider cards 7/5/6, and the
    Lordling and Raider Military cards as four levels per unit type."""
    data = m.solo_data()
    kinds = [c["kind"] for c in data["lordling_cards"]]
    assert len(kinds) == 9 and kinds.count("persevere") == 2
    assert set(kinds) == {
        "research",
        "recruit",
        "manoeuvre",
        "culture",
        "build",
        "settle",
        "persevere",
        "rush",
    }
    raiders = [c for c in load().cards.values() if c["type"] == "raider"]
    assert [
        sum(1 for c in raiders if c["kind"] == k) for k in ("reinforce", "raid", "surprise")
    ] == [7, 5, 6]
    assert all(c["module"] == "M01" for c in raiders)
    ids = [c["id"] for c in data["lordling_cards"]] + [c["id"] for c in raiders]
    assert all(i.startswith("CS") and 1 <= int(i[2:]) <= 36 for i in ids)
    for side in ("lordling_units", "raider_units"):
        assert all(len(data[side][u]) == 4 for u in UNITS)
    assert "raider_cards" in data["authored"]  # the reveal effects are ours (§2.10)
    m.validate()


def test_HRE_M01_SETUP_01_02_05_06_a_two_player_table_with_three_Lordling_homes() -> None:
    """HRE-M01-SETUP-01, HRE-M01-SETUP-02, HRE-M01-SETUP-05, HRE-M01-SETUP-06 (TC-17): the 2-player tables, your Capital as usual, three
    Lordling Cities with a Farm and no units, 7 Cities left; no Gold, resources or cards for them."""
    state = solo(ruler="arnulf")
    assert state["players"] == 2 and ENGINE.seats(state) == 1
    homes = lordling_homes(state)
    assert len(homes) == 3 and "bavaria" not in homes
    capitals = {r["capital"] for rid, r in load().rulers.items() if r["module"] is None}
    assert set(homes) <= capitals
    for p in homes:
        assert state["prov"][p]["farms"] >= 1 and state["prov"][p]["city"]
    cities_on_board = sum(1 for h in state["prov"].values() if h["city"])
    assert cities_on_board + state["cities"] == 11
    fresh = ENGINE.setup(4, {"modules": ["M01"], "options": {}}, 1)
    fresh, _ = ENGINE.apply(fresh, 0, {"ruler": "otto"})
    assert fresh["cities"] + sum(1 for h in fresh["prov"].values() if h["city"]) == 11
    lord = state["seats"][1]
    assert lord["hand"] == [] and lord["gold"] == 0 and not any(lord["res"].values())
    me = state["seats"][0]
    assert len(me["hand"]) == 2 and state["prov"]["bavaria"]["owner"] == 0
    assert state["prov"]["bavaria"]["units"]["infantry"] == 2


def test_HRE_M01_SETUP_seven_Cities_in_supply_right_after_set_up() -> None:
    """HRE-M01-SETUP-06 (TC-17): with your Capital and three Lordling Cities placed from the
    2-player 11, the supply holds 7 before anyone builds."""
    state = ENGINE.setup(2, {"modules": ["M01"], "options": {}}, 1)
    ctx = Ctx(state)
    state["stack"].pop()  # the draft decision: pick by hand, then run the set-up step alone
    state["seats"][0]["ruler"] = "pandulf"
    state["seats"][0]["hand"] = list(load().rulers["pandulf"]["starting_cards"])
    state["rulers_open"].remove("pandulf")
    frame = state["stack"][-1]
    m._m01_setup(ctx, frame)
    assert state["cities"] == 7


def test_HRE_M01_SETUP_03_10_18_discs_tokens_Farms_and_the_first_turn() -> None:
    """HRE-M01-SETUP-03, HRE-M01-SETUP-10, HRE-M01-SETUP-18 (AMB-40): 6 discs and 2 Preparation tokens; Farms from their
    track; they go first and exhaust one disc."""
    state = ENGINE.setup(1, {"modules": ["M01"], "options": {}}, 1)
    state, events = ENGINE.apply(state, 0, {"ruler": "arnulf"})
    text = "\n".join(e["rule"] for e in events)
    assert "HRE-M01-SETUP-18" in text
    first_lordling = text.index("HRE-M01-LORDLING-TURN-01")
    assert first_lordling > text.index("HRE-M01-SETUP-18")
    lord = state["seats"][1]
    assert lord["total_discs"] == 6 and state["seats"][0]["total_discs"] == 6
    assert set(state["m01"]["prep"]) == {"research", "manoeuvre"}
    placed = sum(h["farms"] for h in state["prov"].values() if h["owner"] == 1)
    assert placed + lord["farms_track"] == 12


def test_HRE_M01_SETUP_04_07_08_every_Title_the_solo_map_and_Barbarians() -> None:
    """HRE-M01-SETUP-04, HRE-M01-SETUP-07, HRE-M01-SETUP-08: all Titles (3+ ones too); provinces
    marked 3+ and 4 in play unless they carry the solo icon, the 8 with it blocked; a Barbarian
    token everywhere but the four home provinces, and the 8 tokens left form the pool (AMB-41)."""
    state = ENGINE.setup(1, {"modules": ["M01"], "options": {}}, 1)
    state, events = ENGINE.apply(state, 0, {"ruler": "arnulf"})
    blocked_log = next(e["public"] for e in events if e["rule"] == "HRE-M01-SETUP-07")
    assert "Croatia" in blocked_log and "Calabria" in blocked_log
    box = {p for p, spec in load().provinces.items() if spec["players"] <= 4}  # not Module 2's
    assert set(state["titles"]) == {t for t, spec in load().titles.items() if spec["players"] <= 4}
    blocked = {p for p in box if load().provinces[p]["solo_blocked"]}
    assert len(blocked) == 8 and set(state["prov"]) == box - blocked
    assert {"franconia", "romagna"} <= set(state["prov"])  # marked 3+ and 4, in play
    assert all(q not in blocked for p in state["prov"] for q in neighbours(state, p))
    homes = {*lordling_homes(state), "bavaria"}
    for p, here in state["prov"].items():
        # Every province shows a token, except the homes and what the first Lordling turn took.
        assert (here["barb"] is not None) != (p in homes or here["owner"] is not None), p
    assert sum(1 for h in state["prov"].values() if h["barb"]) + len(state["box_tokens"]) + len(
        state["m01"]["party"]["tokens"]
    ) + sum(len(s["trophies"]) for s in state["seats"]) == len(load().token_sets["barbarian"])


def test_HRE_M01_SETUP_09_15_16_17_deck_Target_Raiding_Party_and_levels() -> None:
    """HRE-M01-SETUP-09, HRE-M01-SETUP-15, HRE-M01-SETUP-16, HRE-M01-SETUP-17: 9 Lordling cards shuffled; the Target on your Ruler card
    until a Raider card shows; one Barbarian token on the Raiding Party; every level 1."""
    state = ENGINE.setup(3, {"modules": ["M01"], "options": {}}, 1)
    state["stack"].pop()
    state["seats"][0]["ruler"] = "otto"
    state["rulers_open"].remove("otto")
    ctx = Ctx(state)
    # Run only the set-up: no Lordling turn yet.
    real = m.flow.start_turn
    m.flow.start_turn = lambda ctx, seat, extra=0: None  # type: ignore[assignment]
    try:
        m._m01_setup(ctx, state["stack"][-1])
    finally:
        m.flow.start_turn = real  # type: ignore[assignment]
    solo_state = state["m01"]
    assert sorted(solo_state["deck"]) == sorted(m.CARD_KIND)
    assert len(solo_state["party"]["tokens"]) >= 1
    assert solo_state["raider_levels"] == dict.fromkeys(UNITS, 1)
    assert {u: v["level"] for u, v in state["seats"][1]["levels"].items()} == dict.fromkeys(
        UNITS, 1
    )
    raider_seen = any(
        load().cards[c]["type"] == "raider" for c in state["offer"] + state["discard"]
    )
    assert (solo_state["target"] is None) or raider_seen


def test_HRE_M01_SETUP_11_12_13_DIFF_03_Raider_cards_in_five_piles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HRE-M01-SETUP-11, HRE-M01-SETUP-12, HRE-M01-SETUP-13 and HRE-M01-DIFF-03: five even piles, pile 1 on top; the
    normal split 1/1+1/1+1/1+1+1/1+1+1 and the hard one 2/2+1/1+2/1+2+2/1+2+2."""
    for difficulty, expected in (
        ("normal", m.solo_data()["raider_split"]["normal"]),
        ("hard", m.solo_data()["raider_split"]["hard"]),
    ):
        state = solo(difficulty=difficulty)
        state["deck"], state["offer"], state["discard"] = [], [], []
        monkeypatch.setattr(culture, "refill", lambda ctx: None)
        m._deal_solo_culture(Ctx(state))
        monkeypatch.undo()
        order = list(reversed(state["deck"]))  # the draw order, top first
        base = [c for c in order if load().cards[c]["type"] != "raider"]
        size, extra = divmod(len(base), 5)
        at = 0
        for i in range(5):
            n = size + (1 if i < extra else 0) + sum(expected[i].values())
            pile = order[at : at + n]
            at += n
            kinds = [load().cards[c]["kind"] for c in pile if load().cards[c]["type"] == "raider"]
            assert {k: kinds.count(k) for k in set(kinds)} == expected[i], (difficulty, i)
        assert at == len(order)
        total = sum(sum(p.values()) for p in expected)
        assert total == (11 if difficulty == "normal" else 18)


def test_HRE_M01_SETUP_14_RAIDER_05_the_Raiding_Party_in_the_view() -> None:
    """HRE-M01-SETUP-14 / HRE-M01-RAIDER-05: the Raiders are a third force whose units (tokens
    and miniatures) the view shows with their levels and the Target."""
    state = solo()
    view = ENGINE.view(state, 0)
    raiders = view["solo"]["raiders"]
    assert sum(raiders["party"].values()) == sum(m.party_units(state).values()) > 0
    assert raiders["levels"] == dict.fromkeys(UNITS, 1)
    assert "deck" not in json.dumps(view["solo"]["lordlings"]).replace("deck_count", "")


def test_the_solo_scenario_is_one_seat_with_a_difficulty_option() -> None:
    scenario = next(s for s in ENGINE.scenarios() if s["slug"] == "solo")
    assert scenario["config"]["modules"] == ["M01"]
    assert (scenario["min_players"], scenario["max_players"]) == (1, 1)
    assert ENGINE.validate_scenario({"modules": ["M01"], "options": {"difficulty": "hard"}}) == []
    assert ENGINE.validate_scenario({"modules": ["M01"], "options": {"difficulty": "brutal"}}) == [
        'Option difficulty must be one of "normal", "easy", "hard".'
    ]
    with pytest.raises(ScenarioError, match="takes 1 player, not 2"):
        ENGINE.setup(1, {"modules": ["M01"], "options": {}}, 2)
    assert ENGINE.validate_scenario({"modules": ["M01", "M02"], "options": {}})
