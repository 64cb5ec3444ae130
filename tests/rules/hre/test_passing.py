"""Passing (HRE-BASE-PASS): the nine steps in order, Title claims, production, and COG-02."""

from __future__ import annotations

import pytest

from rules.hre import passing, titles
from rules.hre.state import RESOURCES, Ctx, data
from tests.rules.hre.helpers import (
    State,
    act,
    actions,
    clear_barbarians,
    game,
    give,
    hand,
    top,
    turn_of,
    units,
)


def quiet(state: State) -> State:
    """No resources anywhere, so Pass steps 4 and 5 ask nothing."""
    for seat in range(len(state["seats"])):
        give(state, seat, wood=0, leather=0, stone=0, iron=0)
    return state


def place_discs(state: State, seat: int, slots: list[int]) -> None:
    """Put the seat's discs on these Action cards (the rest in its supply, none exhausted)."""
    me = state["seats"][seat]
    for slot in state["slots"]:
        slot["stack"] = [s for s in slot["stack"] if s != seat]
    for i in slots:
        state["slots"][i]["stack"].append(seat)
    me["exhausted"] = 0
    me["discs"] = me["total_discs"] - len(slots)


def position(players: int = 2, rulers: list[str] | None = None) -> State:
    """Seat 0 to play with one disc on the first Action card, so it may Pass."""
    state = game(players, rulers=rulers or ["arnulf", "berengar", "otto", "boleslaus"][:players])
    clear_barbarians(state)
    quiet(state)
    place_discs(state, 0, [0])
    for seat in range(1, players):
        place_discs(state, seat, [])
    turn_of(state, 0)
    return state


def city(state: State, prov: str, seat: int, bld: list[str]) -> None:
    """A City with these Production buildings, controlled by the seat."""
    here = state["prov"][prov]
    if not here["city"]:
        state["cities"] -= 1
    here["city"], here["bld"] = True, list(bld)
    if here["owner"] != seat:
        units(state, prov, seat, infantry=1)


def rules_of(events: list[dict[str, object]]) -> list[object]:
    return [e["rule"] for e in events]


# --------------------------------------------------------------------------- order


def test_HRE_BASE_PASS_01_no_disc_and_the_steps_run_in_order() -> None:
    """HRE-BASE-PASS-01: Passing places no disc; offer (1), discs (3), Gold (6), Cognomens (7) and
    production (8) come in that order."""
    state = position()
    hand(state, 0, ["C041"])
    stacks = [list(s["stack"]) for s in state["slots"]]
    state, events = act(state, {"do": "pass"})
    order = rules_of(events)
    wanted = [
        "HRE-BASE-PASS-01",
        "HRE-BASE-PASS-02",
        "HRE-BASE-PASS-06",
        "HRE-BASE-PASS-09",
        "HRE-BASE-PASS-10",
        "HRE-BASE-PASS-11",
    ]
    positions = [order.index(r) for r in wanted]
    assert positions == sorted(positions)
    assert [s["stack"] for s in state["slots"]] == [[x for x in st if x != 0] for st in stacks]
    assert top(state)["kind"] == "turn" and top(state)["seat"] == 1


def test_HRE_BASE_PASS_01_decisions_come_in_step_order() -> None:
    """HRE-BASE-PASS-01: with every step live, the claim (2) comes before discs return (3), the
    sale (4) and the hold discard (5)."""
    state = position()
    units(state, "lombardy", 0, infantry=1)
    units(state, "verona", 0, infantry=1)
    give(state, 0, wood=7)
    offer = list(state["offer"])
    state, _ = act(state, {"do": "pass"})
    assert top(state)["kind"] == "claim"
    assert state["offer"][:5] == offer[1:]  # step 1 already done
    assert state["seats"][0]["discs"] == state["seats"][0]["total_discs"] - 1  # step 3 not yet
    state, _ = act(state, {"claim": None})
    assert top(state)["kind"] == "sell"
    assert state["seats"][0]["discs"] == state["seats"][0]["total_discs"]
    state, _ = act(state, {"sell": None})
    assert top(state)["kind"] == "discard_res"
    assert state["seats"][0]["gold"] == 1  # step 6 not yet
    state, _ = act(state, {"discard": "wood"})
    state, _ = act(state, {"discard": "wood"})
    assert state["seats"][0]["gold"] == 2
    assert top(state)["kind"] == "turn" and top(state)["seat"] == 1


def test_HRE_BASE_PASS_02_step_1_cycles_the_offer() -> None:
    """HRE-BASE-PASS-02: the leftmost card is discarded, the rest slide left, the top card
    refills."""
    state = position()
    offer, deck_top = list(state["offer"]), state["deck"][-1]
    state, _ = act(state, {"do": "pass"})
    assert state["offer"] == offer[1:] + [deck_top]
    assert state["discard"][-1] == offer[0]


# --------------------------------------------------------------------------- Titles


def test_HRE_BASE_PASS_03_tc09_title_claim_with_one_disc_scores_7() -> None:
    """HRE-BASE-PASS-03 / HRE-BASE-PASS-04 (TC-09): Lombardy and Verona controlled, 1 available
    disc, Kingdom of Italy never claimed: it may be claimed for 7 VP."""
    state = position()
    units(state, "lombardy", 0, infantry=1)
    units(state, "verona", 0, infantry=1)
    place_discs(state, 0, [0, 1, 2, 3, 4])  # exactly 1 disc left
    state["seats"][0]["discs"] = 1
    state, _ = act(state, {"do": "pass"})
    assert top(state)["kind"] == "claim"
    assert {"claim": "kingdom_of_italy"} in actions(state)
    assert {"claim": None} in actions(state)  # "may"
    state, _ = act(state, {"claim": "kingdom_of_italy"})
    assert state["seats"][0]["vp"] == 7
    assert state["titles"]["kingdom_of_italy"]["holder"] == 0
    assert state["titles"]["kingdom_of_italy"]["established"] is True


def test_HRE_BASE_PASS_04_tc09_with_no_disc_no_claim() -> None:
    """HRE-BASE-PASS-04 (TC-23): 2 of 3 controlled but no available disc: not eligible."""
    state = position()
    units(state, "lombardy", 0, infantry=1)
    units(state, "verona", 0, infantry=1)
    for slot in state["slots"]:
        slot["stack"] = []
    me = state["seats"][0]
    state["slots"][0]["stack"] = [0, 0]
    state["slots"][1]["stack"] = [0, 0]
    me.update(discs=0, exhausted=me["total_discs"] - 4)
    state, _ = act(state, {"do": "pass"})
    assert state["titles"]["kingdom_of_italy"]["holder"] is None
    assert state["seats"][0]["vp"] == 0


def _eligible(state: State, seat: int, owned: list[str], discs: int) -> list[str]:
    for prov in owned:
        units(state, prov, seat, infantry=1)
    state["seats"][seat]["discs"] = discs
    return titles.eligible(Ctx(state), seat)


@pytest.mark.parametrize(
    ("owned", "discs", "ok"),
    [
        (["lombardy", "verona"], 1, True),
        (["lombardy", "verona"], 0, False),
        (["lombardy"], 5, False),
        (["lombardy", "verona", "tuscany"], 0, True),
    ],
)
def test_HRE_BASE_PASS_04_tc23_region_of_three(owned: list[str], discs: int, ok: bool) -> None:
    """HRE-BASE-PASS-04 (TC-23): a Region of 3 needs 2 controlled and a disc per missing one."""
    state = position()
    assert ("kingdom_of_italy" in _eligible(state, 0, owned, discs)) is ok


@pytest.mark.parametrize(
    ("owned", "discs", "ok"),
    [
        (["swabia", "alsace"], 2, True),
        (["swabia", "alsace"], 1, False),
        (["swabia"], 3, False),
    ],
)
def test_HRE_BASE_PASS_04_tc23_region_of_four(owned: list[str], discs: int, ok: bool) -> None:
    """HRE-BASE-PASS-04 (TC-23): with 4 players Swabia and Bavaria has 4 provinces: 2 + 2 discs."""
    state = position(4, ["otto", "berengar", "boleslaus", "pandulf"])
    assert len(titles.region_in_play(Ctx(state), "swabia_bavaria")) == 4
    assert ("duchy_of_swabia_and_bavaria" in _eligible(state, 0, owned, discs)) is ok


@pytest.mark.parametrize(
    ("owned", "discs", "ok"),
    [
        (["lombardy", "verona", "tuscany"], 3, True),
        (["lombardy", "verona", "tuscany"], 2, False),
        (["lombardy", "verona"], 4, False),
    ],
)
def test_HRE_BASE_PASS_04_tc23_region_of_six(
    monkeypatch: pytest.MonkeyPatch, owned: list[str], discs: int, ok: bool
) -> None:
    """HRE-BASE-PASS-04 (TC-23): a Region of 6 needs 3 controlled and 3 discs (no such Region
    is on the map, so Italy is widened to 6 provinces for this test)."""
    six = ("lombardy", "verona", "tuscany", "romagna", "latium", "friuli")
    monkeypatch.setitem(data().region_provinces, "italy", six)
    state = position(4, ["otto", "berengar", "boleslaus", "pandulf"])
    state["seats"][0]["total_discs"] = 6
    assert ("kingdom_of_italy" in _eligible(state, 0, owned, discs)) is ok


def test_HRE_BASE_PASS_03_only_one_title_per_pass() -> None:
    """HRE-BASE-PASS-03 / HRE-BASE-PASS-04: eligible for two Titles with one disc (discs are
    checked, not spent), only one is claimed in a Pass."""
    state = position()
    for prov in ("lombardy", "verona", "swabia"):
        units(state, prov, 0, infantry=1)
    place_discs(state, 0, [0, 1, 2, 3, 4])
    state["seats"][0]["discs"] = 1
    state, _ = act(state, {"do": "pass"})
    assert {"claim": "kingdom_of_italy"} in actions(state)
    assert {"claim": "duchy_of_swabia_and_bavaria"} in actions(state)
    state, _ = act(state, {"claim": "duchy_of_swabia_and_bavaria"})
    assert state["titles"]["kingdom_of_italy"]["holder"] is None
    assert state["seats"][0]["vp"] == 6
    assert top(state)["kind"] == "turn" and top(state)["seat"] == 1


def test_HRE_BASE_PASS_05_taking_a_title_scores_nothing_again() -> None:
    """HRE-BASE-PASS-05: claiming a Title held by another player takes it, without VP."""
    state = position()
    state["titles"]["kingdom_of_italy"].update(holder=1, established=True, ready=False)
    state["seats"][1]["vp"] = 7
    units(state, "lombardy", 0, infantry=1)
    units(state, "verona", 0, infantry=1)
    state, _ = act(state, {"do": "pass"})
    state, _ = act(state, {"claim": "kingdom_of_italy"})
    assert state["titles"]["kingdom_of_italy"]["holder"] == 0
    assert state["seats"][0]["vp"] == 0
    assert state["seats"][1]["vp"] == 7


# --------------------------------------------------------------------------- discs, sell, hold


def test_HRE_BASE_PASS_06_discs_come_back_others_keep_their_order() -> None:
    """HRE-BASE-PASS-06: step 3 takes back every disc, from the cards and Exhausted Nobles."""
    state = position(3, ["arnulf", "berengar", "otto"])
    state["slots"][0]["stack"] = [1, 2]
    state["slots"][1]["stack"] = [0, 2]
    state["slots"][2]["stack"] = [2, 0]
    state["slots"][3]["stack"] = [1, 0]
    me = state["seats"][0]
    me.update(exhausted=1, discs=me["total_discs"] - 4)
    state, _ = act(state, {"do": "pass"})
    assert [s["stack"] for s in state["slots"]][:4] == [[1, 2], [2], [2], [1]]
    assert me["total_discs"] == state["seats"][0]["discs"]
    assert state["seats"][0]["exhausted"] == 0


def test_HRE_BASE_PASS_07_sell_up_to_the_warehouse_value() -> None:
    """HRE-BASE-PASS-07: at Warehouse row 2 (sell 2), two resources sell at trade value."""
    state = position()
    state["seats"][0]["warehouse"] = 2
    give(state, 0, iron=2, stone=1, wood=1)
    state, _ = act(state, {"do": "pass"})
    assert top(state)["kind"] == "sell"
    state, _ = act(state, {"sell": "iron"})
    assert top(state)["kind"] == "sell"
    state, _ = act(state, {"sell": "stone"})
    assert top(state)["kind"] == "turn"  # the sell value is used up
    assert state["seats"][0]["culture"] == 3 + 2
    assert state["seats"][0]["res"]["iron"] == 1 and state["seats"][0]["res"]["stone"] == 0


def test_HRE_BASE_PASS_07_the_first_warehouse_row_sells_one() -> None:
    """HRE-BASE-PASS-07: with no Warehouse only one resource is sold (Wood 1 CP)."""
    state = position()
    give(state, 0, wood=3)
    state, _ = act(state, {"do": "pass"})
    state, _ = act(state, {"sell": "wood"})
    assert top(state)["kind"] == "turn"
    assert state["seats"][0]["culture"] == 1


def test_HRE_BASE_PASS_08_discard_down_to_hold_gold_not_counted() -> None:
    """HRE-BASE-PASS-08: 7 resources over a hold of 5: discard 2 of the player's choice; Gold
    never counts."""
    state = position()
    give(state, 0, wood=4, iron=3, gold=9)
    state, _ = act(state, {"do": "pass"})
    state, _ = act(state, {"sell": None})
    assert top(state)["kind"] == "discard_res"
    state, _ = act(state, {"discard": "iron"})
    assert top(state)["kind"] == "discard_res"
    state, _ = act(state, {"discard": "wood"})
    assert top(state)["kind"] == "turn"
    res = state["seats"][0]["res"]
    # after the discard, step 8 produced 1 wood in Bavaria
    assert (res["wood"], res["iron"]) == (3 + 1, 2)
    assert state["seats"][0]["gold"] == 10

    state = position()
    give(state, 0, wood=5, gold=9)
    state, _ = act(state, {"do": "pass"})
    state, _ = act(state, {"sell": None})
    assert top(state)["kind"] == "turn"  # 5 resources and 9 Gold: nothing to discard


# --------------------------------------------------------------------------- Gold, Cognomens


def test_HRE_BASE_PASS_09_one_gold_then_after_pass_technologies() -> None:
    """HRE-BASE-PASS-09: step 6 gives 1 Gold, then 'immediately after passing' effects."""
    state = position()
    state["seats"][0]["techs"] = [{"card": "C012", "level": 1}]  # after_pass: 1 wood
    gold = state["seats"][0]["gold"]
    state, events = act(state, {"do": "pass"})
    assert state["seats"][0]["gold"] == gold + 1
    # 1 wood from the Technology, 1 wood from Bavaria at step 8
    assert state["seats"][0]["res"]["wood"] == 2
    texts = [e["public"] for e in events if e["rule"] == "HRE-BASE-PASS-09"]
    assert len(texts) == 2 and "Technology" in str(texts[1])


def test_HRE_BASE_PASS_10_and_COG_02_cognomens_resolved_at_step_7() -> None:
    """HRE-BASE-PASS-10 / HRE-BASE-COG-02: no Cognomen stays in hand through a Pass; each is
    scored and discarded at step 7 (after the Gold of step 6)."""
    state = position()
    hand(state, 0, ["C041", "C045"])  # 1 VP per province (max 8), 1 VP per Gold (max 6)
    units(state, "carniola", 0, infantry=1)
    give(state, 0, gold=2)
    state, events = act(state, {"do": "pass"})
    me = state["seats"][0]
    assert not [c for c in me["hand"] if data().cards[c]["type"] == "cognomen"]
    assert {"C041", "C045"} <= set(state["discard"])
    # 2 provinces (Bavaria, Carniola) + 3 Gold (2 + 1 from step 6)
    assert me["vp"] == 2 + 3
    order = rules_of(events)
    assert order.index("HRE-BASE-PASS-09") < order.index("HRE-BASE-PASS-10")


# --------------------------------------------------------------------------- production


def test_HRE_BASE_PASS_11_tc10_production() -> None:
    """HRE-BASE-PASS-11 (TC-10): Verona {wood, stone, stone} gives 1 wood 3 stone, Carinthia
    3 iron gives 5 iron, Bavaria {wood, leather} gives 1 wood 1 leather: 2/1/3/5 in all."""
    state = position()
    city(state, "verona", 0, ["stone", "wood", "stone"])
    city(state, "carinthia", 0, ["iron", "iron", "iron"])
    city(state, "bavaria", 0, ["wood", "leather"])
    assert passing.production(Ctx(state), 0) == {"wood": 2, "leather": 1, "stone": 3, "iron": 5}
    state, _ = act(state, {"do": "pass"})
    assert state["seats"][0]["res"] == {"wood": 2, "leather": 1, "stone": 3, "iron": 5}


@pytest.mark.parametrize(("count", "made"), [(1, 1), (2, 3), (3, 5)])
def test_HRE_BASE_PASS_11_tc24_production_formula(count: int, made: int) -> None:
    """HRE-BASE-PASS-11 (TC-24): 1/2/3 buildings of one type produce 1/3/5."""
    state = position()
    city(state, "bavaria", 0, ["wood"] * count)
    assert passing.production(Ctx(state), 0) == {"wood": made}


def test_HRE_BASE_PASS_12_provinces_without_a_city_produce_their_resource() -> None:
    """HRE-BASE-PASS-12: a controlled province with no City still produces its original building."""
    state = position()
    units(state, "bohemia", 0, infantry=1)  # Leather, no City
    units(state, "lombardy", 0, infantry=1)  # Leather, no City
    assert not state["prov"]["bohemia"]["city"]
    state, _ = act(state, {"do": "pass"})
    assert state["seats"][0]["res"] == {"wood": 1, "leather": 2, "stone": 0, "iron": 0}


def test_HRE_BASE_PASS_12_tc43_hold_then_produce() -> None:
    """HRE-BASE-PASS-12 / HRE-BASE-PASS-08 (TC-43): hold 8, 10 held, nothing sold: discard 2 at
    step 5, produce 5 at step 8, end with 13."""
    state = position()
    state["seats"][0]["warehouse"] = 3
    assert passing.hold_value(Ctx(state), 0) == 8
    city(state, "bavaria", 0, ["wood", "wood", "wood"])  # produces 5
    give(state, 0, wood=4, leather=2, stone=2, iron=2)
    state, _ = act(state, {"do": "pass"})
    state, _ = act(state, {"sell": None})
    for _ in range(2):
        assert top(state)["kind"] == "discard_res"
        state, _ = act(state, {"discard": "iron"})
    assert top(state)["kind"] == "turn"
    assert sum(state["seats"][0]["res"][r] for r in RESOURCES) == 13
    assert state["seats"][0]["res"] == {"wood": 9, "leather": 2, "stone": 2, "iron": 0}


# --------------------------------------------------------------------------- step 9


def test_HRE_BASE_PASS_13_own_titles_refreshed() -> None:
    """HRE-BASE-PASS-13: step 9 turns the passer's Titles upright, not other players'."""
    state = position()
    state["titles"]["kingdom_of_italy"].update(holder=0, established=True, ready=False)
    state["titles"]["duchy_of_saxony"].update(holder=1, established=True, ready=False)
    state, _ = act(state, {"do": "pass"})
    assert state["titles"]["kingdom_of_italy"]["ready"] is True
    assert state["titles"]["duchy_of_saxony"]["ready"] is False
