"""Manoeuvre with its Army limit check (HRE-BASE-MANOEUVRE) and the Regroup reaction (REGROUP)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.hre import ENGINE
from rules.hre.state import army_size, data, neighbours
from tests.rules.hre.helpers import (
    State,
    act,
    actions,
    clear_barbarians,
    game,
    give,
    top,
    turn_of,
    units,
)


def slot_of(state: State, action: str) -> int:
    """The index of the Action card holding an action."""
    return next(i for i, s in enumerate(state["slots"]) if s["action"] == action)


def manoeuvre(state: State, seat: int = 0) -> State:
    """Start `seat`'s turn and place a Noble on Manoeuvre."""
    turn_of(state, seat)
    state, _ = act(state, {"do": "noble", "slot": slot_of(state, "manoeuvre")})
    return state


def tc08() -> State:
    """TC-08: 3 Archers in Verona, 3 Infantry in Lombardy, none in the Capital; Army limit 4."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    units(state, "bavaria", 0)  # Arnulf's Capital stays his, with its Farm, but empty
    units(state, "verona", 0, archer=3)
    units(state, "lombardy", 0, infantry=3)
    # Two more Farms on the board leave 9 on the track: the Army limit is then 4.
    state["prov"]["verona"]["farms"] = 1
    state["prov"]["lombardy"]["farms"] = 1
    state["seats"][0]["farms_track"] = 9
    give(state, 0, gold=2)
    return state


def moves(state: State) -> set[tuple[Any, Any]]:
    return {(a["from"], a["to"]) for a in actions(state)}


# --------------------------------------------------------------------------- Army limit


def test_HRE_BASE_MANOEUVRE_01_tc08_excess_counted_over_all_units_before_moving() -> None:
    """HRE-BASE-MANOEUVRE-01 (TC-08): all 6 units on the board count against a limit of 4:
    the excess of 2 is dealt with before any movement."""
    state = manoeuvre(tc08())
    assert army_size(state, 0) == 6
    assert top(state)["kind"] == "army"
    assert state["stack"][-2]["kind"] == "move"  # the move waits under the limit check
    assert "by 2" in ENGINE.prompts(state)[0]["text"]


def test_HRE_BASE_MANOEUVRE_02_tc08_pay_one_gold_and_return_one_infantry() -> None:
    """HRE-BASE-MANOEUVRE-02 (TC-08): the book's resolution, 1 Gold + 1 Infantry returned,
    leaves 5 units and 1 less Gold, then the move is prompted."""
    state = manoeuvre(tc08())
    state, _ = act(state, {"army": "gold"})
    assert top(state)["kind"] == "army"  # 1 excess unit left to deal with
    assert state["seats"][0]["gold"] == 1
    state, _ = act(state, {"army": "return", "prov": "lombardy", "unit": "infantry"})
    assert top(state)["kind"] == "move"
    assert army_size(state, 0) == 5
    assert state["seats"][0]["gold"] == 1
    assert state["prov"]["lombardy"]["units"]["infantry"] == 2
    assert state["prov"]["verona"]["units"]["archer"] == 3


@pytest.mark.parametrize(
    "choices",
    [
        [{"army": "gold"}, {"army": "gold"}],
        [
            {"army": "return", "prov": "verona", "unit": "archer"},
            {"army": "return", "prov": "lombardy", "unit": "infantry"},
        ],
    ],
)
def test_HRE_BASE_MANOEUVRE_02_tc08_other_mixes(choices: list[dict[str, Any]]) -> None:
    """HRE-BASE-MANOEUVRE-02 (TC-08): paying 2 Gold, or returning 2 units, are also legal."""
    state = manoeuvre(tc08())
    for choice in choices:
        assert top(state)["kind"] == "army"
        state, _ = act(state, choice)
    assert top(state)["kind"] == "move"
    paid = sum(1 for c in choices if c["army"] == "gold")
    assert state["seats"][0]["gold"] == 2 - paid
    assert army_size(state, 0) == 6 - (2 - paid)


def test_HRE_BASE_MANOEUVRE_02_no_gold_means_returning() -> None:
    """HRE-BASE-MANOEUVRE-02: without Gold the only way to deal with the excess is to return
    units."""
    state = tc08()
    give(state, 0, gold=0)
    state = manoeuvre(state)
    assert {"army": "gold"} not in actions(state)
    assert {"army": "return", "prov": "verona", "unit": "archer"} in actions(state)


def test_HRE_BASE_MANOEUVRE_01_within_the_limit_goes_straight_to_the_move() -> None:
    """HRE-BASE-MANOEUVRE-01: at or under the Army limit nothing is paid or returned."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    units(state, "bavaria", 0, infantry=3)  # limit 3 at the start
    state = manoeuvre(state)
    assert top(state)["kind"] == "move"
    assert state["seats"][0]["gold"] == 1


# --------------------------------------------------------------------------- the move


def test_HRE_BASE_MANOEUVRE_03_only_to_neighbouring_provinces() -> None:
    """HRE-BASE-MANOEUVRE-03: one group goes from one province to one neighbouring province."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    units(state, "verona", 0, archer=1)
    state = manoeuvre(state)
    expected = {("bavaria", q) for q in neighbours(state, "bavaria")}
    expected |= {("verona", q) for q in neighbours(state, "verona")}
    assert moves(state) == expected
    assert ("verona", "ivrea") not in moves(state)
    assert ("bavaria", "bohemia") not in moves(state)


def test_HRE_BASE_MANOEUVRE_03_a_partial_group_moves_and_the_rest_stays() -> None:
    """HRE-BASE-MANOEUVRE-03 (AMB-12): any non-empty part of the units in a province may move."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    units(state, "bavaria", 0, infantry=2, archer=1)
    state = manoeuvre(state)
    state, _ = act(state, {"from": "bavaria", "to": "swabia"})
    assert top(state)["kind"] == "move_count"
    assert {"count": 0} in actions(state)  # archers may still come
    state, _ = act(state, {"count": 0})
    assert {"count": 0} not in actions(state)  # the group may not be empty
    state, _ = act(state, {"count": 1})
    assert state["prov"]["swabia"]["units"] == {"infantry": 0, "archer": 1, "cavalry": 0}
    assert state["prov"]["bavaria"]["units"] == {"infantry": 2, "archer": 0, "cavalry": 0}
    assert state["prov"]["swabia"]["owner"] == 0


def test_HRE_BASE_MANOEUVRE_04_barbarian_province_means_battle(dice: list[int]) -> None:
    """HRE-BASE-MANOEUVRE-04: moving onto a Barbarian token starts a battle."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    state["box_tokens"].remove("B01")
    state["prov"]["swabia"]["barb"] = {"token": "B01", "face": "units"}
    state = manoeuvre(state)
    dice.extend([6, 6, 1])  # melee: two attacker dice, then the Barbarian infantry's
    state, events = act(state, {"from": "bavaria", "to": "swabia"})
    state, events2 = act(state, {"count": 2})
    rules = [e["rule"] for e in events2]
    assert "HRE-BASE-MANOEUVRE-04" in rules and "HRE-BASE-BSEQ-05" in rules
    assert state["stack"][-1]["battle"] is True
    assert state["prov"]["swabia"]["owner"] == 0


def test_HRE_BASE_MANOEUVRE_04_opponent_province_means_battle(dice: list[int]) -> None:
    """HRE-BASE-MANOEUVRE-04: moving into a province an opponent controls starts a battle."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    units(state, "swabia", 1, infantry=1)
    state = manoeuvre(state)
    dice.extend([1, 1, 1])  # melee: everyone misses
    state, _ = act(state, {"from": "bavaria", "to": "swabia"})
    state, events = act(state, {"count": 1})
    rules = [e["rule"] for e in events]
    assert "HRE-BASE-MANOEUVRE-04" in rules and "HRE-BASE-BSEQ-11" in rules
    assert state["prov"]["swabia"]["owner"] == 1  # a tie: the attacker lost


def test_HRE_BASE_MANOEUVRE_05_entering_unoccupied_or_own_province_gives_control() -> None:
    """HRE-BASE-MANOEUVRE-05: no battle; the units there give control."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    state = manoeuvre(state)
    state, events = act(state, {"from": "bavaria", "to": "swabia"})
    state, events = act(state, {"count": 2})
    assert not any(e["rule"].startswith("HRE-BASE-BSEQ") for e in events)
    assert state["prov"]["swabia"]["owner"] == 0
    assert state["prov"]["swabia"]["units"]["infantry"] == 2
    assert top(state)["kind"] == "turn" and top(state)["battle"] is False

    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    units(state, "swabia", 0, infantry=1)
    state = manoeuvre(state)
    state, _ = act(state, {"from": "swabia", "to": "bavaria"})
    assert state["prov"]["bavaria"]["units"]["infantry"] == 3
    assert state["prov"]["bavaria"]["owner"] == 0


def test_HRE_BASE_MANOEUVRE_06_an_emptied_province_is_uncontrolled_and_keeps_its_city() -> None:
    """HRE-BASE-MANOEUVRE-06: no units and no Farm left: uncontrolled; the City stays for the
    next controller."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    units(state, "bavaria", 0, infantry=1)
    units(state, "swabia", 0, infantry=1)
    state["prov"]["swabia"].update(city=True, bld=["leather", "wood"], keep=1)
    state["cities"] -= 1
    units(state, "verona", 0, infantry=1)
    state["prov"]["verona"]["farms"] = 1
    state["seats"][0]["farms_track"] -= 1
    state = manoeuvre(state)
    state, _ = act(state, {"from": "swabia", "to": "bavaria"})
    swabia = state["prov"]["swabia"]
    assert swabia["owner"] is None
    assert swabia["city"] and swabia["bld"] == ["leather", "wood"] and swabia["keep"] == 1

    # A Farm keeps control without units; the Capital is never lost.
    state, _ = act(state, {"do": "end"})
    units(state, "lombardy", 1, infantry=1)
    state = manoeuvre(state, 1)
    state, _ = act(state, {"from": "lombardy", "to": "swabia"})
    assert state["prov"]["swabia"]["owner"] == 1
    assert state["prov"]["swabia"]["city"] is True


def test_HRE_BASE_MANOEUVRE_06_a_farm_or_capital_keeps_control_without_units() -> None:
    """HRE-BASE-MANOEUVRE-06: only a province with no units *and* no Farm becomes uncontrolled."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    units(state, "verona", 0, infantry=1)
    state["prov"]["verona"]["farms"] = 1
    state["seats"][0]["farms_track"] -= 1
    state = manoeuvre(state)
    state, _ = act(state, {"from": "verona", "to": "tuscany"})
    assert state["prov"]["verona"]["owner"] == 0
    assert state["prov"]["tuscany"]["owner"] == 0


# --------------------------------------------------------------------------- Regroup


def regroup_position() -> tuple[State, int]:
    """Seat 0's disc at the bottom of the Manoeuvre card, whose reactions include Regroup in this
    layout; seat 1 is to play and will push it out."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    where = slot_of(state, "manoeuvre")
    assert "regroup" in data().board["reaction_layout"][where]
    state["slots"][where]["stack"] = [0, 1]
    state["seats"][0].update(discs=state["seats"][0]["total_discs"] - 1, exhausted=0)
    state["seats"][1].update(discs=state["seats"][1]["total_discs"] - 1, exhausted=0)
    turn_of(state, 1)
    return state, where


def _push_seat0_out(state: State, where: int) -> State:
    """Seat 1 manoeuvres Ivrea -> Lombardy on the full card; seat 0 reacts with Regroup."""
    state, _ = act(state, {"do": "noble", "slot": where})
    state, _ = act(state, {"from": "ivrea", "to": "lombardy"})
    state, _ = act(state, {"count": 2})
    state, _ = act(state, {"do": "end"})
    assert top(state)["kind"] == "reaction" and top(state)["seat"] == 0
    state, _ = act(state, {"react": "regroup"})
    return state


def test_HRE_BASE_REGROUP_01_moves_a_group_with_no_army_limit_check() -> None:
    """HRE-BASE-REGROUP-01: the pushed-out owner moves one group to a neighbour; being over the
    Army limit costs nothing."""
    state, where = regroup_position()
    units(state, "bavaria", 0, infantry=4, archer=1)  # 5 units, Army limit 3
    state = _push_seat0_out(state, where)
    assert top(state)["kind"] == "regroup" and top(state)["regroup"] is True
    state, _ = act(state, {"from": "bavaria", "to": "swabia"})
    state, _ = act(state, {"count": 4})
    state, _ = act(state, {"count": 0})
    assert state["prov"]["swabia"]["units"]["infantry"] == 4
    assert state["prov"]["swabia"]["owner"] == 0
    assert state["prov"]["bavaria"]["units"]["archer"] == 1
    assert state["seats"][0]["gold"] == 1 and army_size(state, 0) == 5


def test_HRE_BASE_REGROUP_02_never_into_opponents_or_barbarians() -> None:
    """HRE-BASE-REGROUP-02: hostile provinces are not offered, so a Regroup never fights."""
    state, where = regroup_position()
    units(state, "swabia", 1, infantry=1)
    state["box_tokens"].remove("B01")
    state["prov"]["verona"]["barb"] = {"token": "B01", "face": "reward"}
    state = _push_seat0_out(state, where)
    dests = {a["to"] for a in actions(state)}
    assert "swabia" not in dests and "verona" not in dests
    assert {"carinthia", "ostmark", "thuringia"} <= dests


def test_HRE_BASE_REGROUP_02_nothing_to_move_is_no_effect() -> None:
    """HRE-BASE-REGROUP-02 (AMB-07): with every neighbour hostile the Regroup has no effect."""
    state, where = regroup_position()
    for prov in neighbours(state, "bavaria"):
        units(state, prov, 1, infantry=1)
    state["seats"][1].update(farms_track=1, farms_boxed=10)  # a high Army limit for seat 1
    state["box_tokens"].remove("B01")
    state["prov"]["ostmark"].update(
        owner=None,
        units={"infantry": 0, "archer": 0, "cavalry": 0},
        barb={"token": "B01", "face": "units"},
    )
    state = _push_seat0_out(state, where)
    assert actions(state) == [{"from": None}]
