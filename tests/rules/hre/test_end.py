"""End of the game (HRE-BASE-END): triggers, the passes that follow, and final scoring
(HRE-BASE-SCORE)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules.hre import ENGINE, endgame, scoring
from rules.hre.state import Ctx, data
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

RULERS = ["arnulf", "berengar", "otto", "boleslaus"]


def quiet_game(players: int = 2) -> State:
    """No Barbarians, no resources, empty Capitals, every disc in its owner's supply."""
    state = game(players, rulers=RULERS[:players])
    clear_barbarians(state)
    for seat, me in enumerate(state["seats"]):
        give(state, seat, wood=0, leather=0, stone=0, iron=0)
        me.update(discs=me["total_discs"], exhausted=0)
        home = data().rulers[me["ruler"]]["capital"]
        units(state, home, seat)
    return state


def place(state: State, seat: int, slot: int) -> None:
    """One of the seat's discs is on an Action card (placed on an earlier turn)."""
    state["slots"][slot]["stack"].append(seat)
    state["seats"][seat]["discs"] -= 1


def manoeuvre_slot(state: State) -> int:
    return next(i for i, s in enumerate(state["slots"]) if s["action"] == "manoeuvre")


def idle_turn(state: State) -> tuple[State, list[dict[str, Any]]]:
    """The deciding seat places a Noble on Manoeuvre, has nothing to move, and ends the turn."""
    events: list[dict[str, Any]] = []
    for action in ({"do": "noble", "slot": manoeuvre_slot(state)}, {"from": None}, {"do": "end"}):
        state, ev = act(state, action)
        events += ev
    return state, events


def seats_in(events: list[dict[str, Any]], rule: str) -> list[int]:
    """0-based seats named in the log lines of a rule ("… (seat 2) …" is seat 1)."""
    found = []
    for e in events:
        if e["rule"] == rule:
            match = re.search(r"\(seat (\d)\)", str(e["public"]))
            assert match
            found.append(int(match.group(1)) - 1)
    return found


def triggers(state: State) -> list[str]:
    return endgame.triggers(Ctx(state))


# =========================================================================== triggers


@pytest.mark.parametrize("players", [2, 3, 4])
def test_HRE_BASE_END_02_tc29_city_supply_empty(players: int) -> None:
    """HRE-BASE-END-02 (TC-29): the 11th/13th/15th City on the board empties the supply."""
    state = quiet_game(players)
    on_board = sum(1 for p in state["prov"].values() if p["city"])
    assert on_board + state["cities"] == {2: 11, 3: 13, 4: 15}[players]
    state["cities"] = 1
    assert "HRE-BASE-END-02" not in triggers(state)
    state["cities"] = 0
    assert triggers(state) == ["HRE-BASE-END-02"]


@pytest.mark.parametrize(("players", "church"), [(2, 7), (3, 8), (4, 9)])
def test_HRE_BASE_END_03_tc29_player_count_church(players: int, church: int) -> None:
    """HRE-BASE-END-03 (TC-29, AMB-08): the 7th/8th/9th Church triggers the end."""
    state = quiet_game(players)
    state["churches"] = church - 1
    assert triggers(state) == []
    state["churches"] = church
    assert triggers(state) == ["HRE-BASE-END-03"]


def test_HRE_BASE_END_04_tc29_last_culture_space() -> None:
    """HRE-BASE-END-04 (TC-29): a Culture marker on the last space."""
    state = quiet_game()
    last = len(data().board["culture_track"]) - 1
    state["seats"][1]["culture"] = last - 1
    assert triggers(state) == []
    state["seats"][1]["culture"] = last
    assert triggers(state) == ["HRE-BASE-END-04"]


def test_HRE_BASE_END_05_tc29_four_level_three_technologies() -> None:
    """HRE-BASE-END-05 (TC-29): 2 Common at level 3 + 2 Military level III."""
    state = quiet_game()
    me = state["seats"][0]
    me["techs"] = [
        {"card": "C012", "level": 3},
        {"card": "C014", "level": 3},
        {"card": "C017", "level": 2},
    ]
    me["mil"]["infantry"] = {"card": "C061", "half": 1}  # Infantry III
    me["mil"]["cavalry"] = {"card": "C062", "half": 1}  # Cavalry III
    me["mil"]["archer"] = {"card": "C066", "half": 0}  # Archer II: does not count
    assert scoring.level_three_count(Ctx(state), 0) == 4
    assert triggers(state) == ["HRE-BASE-END-05"]
    me["techs"][1]["level"] = 2
    assert triggers(state) == []


def test_HRE_BASE_END_06_tc29_last_deck_card_drawn() -> None:
    """HRE-BASE-END-06 (TC-29): drawing the last Culture card (here at Pass step 1) ends the game
    at the end of that turn."""
    state = quiet_game()
    state["discard"] += state["deck"][:-1]
    state["deck"] = state["deck"][-1:]
    place(state, 0, 0)
    turn_of(state, 0)
    state, events = act(state, {"do": "pass"})
    assert state["deck"] == [] and state["end_triggered"] is True
    assert "HRE-BASE-END-06" in [e["rule"] for e in events]


# =========================================================================== the end phase


def triggered_by(state: State, seat: int) -> tuple[State, list[dict[str, Any]]]:
    """The seat takes an idle turn with the City supply already empty."""
    state["cities"] = 0
    turn_of(state, seat)
    return idle_turn(state)


def test_HRE_BASE_END_01_checked_at_turn_end_after_the_reaction() -> None:
    """HRE-BASE-END-01: the trigger is checked at the end of the turn, after a reaction."""
    state = quiet_game()
    slot = manoeuvre_slot(state)
    place(state, 1, slot)
    place(state, 1, slot)
    state["cities"] = 0
    turn_of(state, 0)
    state, _ = act(state, {"do": "noble", "slot": slot})
    state, _ = act(state, {"from": None})
    assert state["end_triggered"] is False
    state, _ = act(state, {"do": "end"})
    assert top(state)["kind"] == "reaction" and top(state)["seat"] == 1
    assert state["end_triggered"] is False  # not before the reaction
    react = actions(state)[0]
    state, events = act(state, react)
    while top(state)["kind"] != "turn":
        state, more = act(state, actions(state)[-1])
        events += more
    assert state["end_triggered"] is True
    assert "HRE-BASE-END-02" in [e["rule"] for e in events]


def test_HRE_BASE_END_07_AMB_30_tc30_immediate_passes_from_the_current_player() -> None:
    """HRE-BASE-END-07 (AMB-30, TC-30): everyone passes at once, from the player whose turn
    triggered it, clockwise; step 1 is skipped; a player with every disc available gets 2 Gold
    at step 6, the others 1."""
    state = quiet_game(3)
    place(state, 0, 0)  # seat 2 has all its discs available
    offer, discard = list(state["offer"]), list(state["discard"])
    state, events = triggered_by(state, 1)
    assert seats_in(events, "HRE-BASE-PASS-06") == [1, 2, 0]
    assert seats_in(events, "HRE-BASE-PASS-11") == [1, 2, 0]  # every later step ran too
    assert state["offer"] == offer and state["discard"] == discard
    assert [me["gold"] for me in state["seats"]] == [2, 2, 3]
    assert all(me["discs"] == me["total_discs"] for me in state["seats"])


def test_HRE_BASE_END_07_immediate_pass_claims_in_turn_order() -> None:
    """HRE-BASE-END-07 (AMB-30): Title claims in the immediate passes follow that order: the
    triggering player's claim comes before the next player's Pass has begun."""
    state = quiet_game(3)
    for prov in ("lombardy", "verona"):  # held by Farms: seat 1 has nothing to move
        state["prov"][prov].update(owner=1, farms=1)
    state["seats"][1]["farms_track"] -= 2
    state, events = triggered_by(state, 1)
    assert top(state)["kind"] == "claim" and top(state)["seat"] == 1
    assert seats_in(events, "HRE-BASE-PASS-06") == []
    state, _ = act(state, {"claim": "kingdom_of_italy"})
    assert state["titles"]["kingdom_of_italy"]["holder"] == 1
    assert state["seats"][1]["vp"] == 7


def test_HRE_BASE_END_08_AMB_32_play_continues_and_a_noble_is_needed() -> None:
    """HRE-BASE-END-08 / AMB-32: after the immediate passes the next player clockwise plays, and
    with all discs back may not pass before placing one."""
    state = quiet_game(3)
    state, _ = triggered_by(state, 1)
    assert top(state)["kind"] == "turn" and top(state)["seat"] == 2
    assert {"do": "pass"} not in actions(state)


def test_HRE_BASE_END_09_10_11_final_passes_and_the_finish() -> None:
    """HRE-BASE-END-09 / HRE-BASE-END-10 / HRE-BASE-END-11: a later Pass runs steps 1-3 only
    (offer, Title, discs) and
    the player is out; a new trigger does nothing; when all are out the game is scored."""
    state = quiet_game(2)
    state, _ = triggered_by(state, 0)
    gold = [me["gold"] for me in state["seats"]]
    state["churches"] = 7  # a second trigger (END-11)
    state, events = idle_turn(state)  # seat 1
    assert not [e for e in events if e["rule"] == "HRE-BASE-PASS-09"]
    state, _ = idle_turn(state)  # seat 0
    assert top(state)["seat"] == 1
    offer, deck_top = list(state["offer"]), state["deck"][-1]
    res = dict(state["seats"][1]["res"])
    state, events = act(state, {"do": "pass"})
    rules = [e["rule"] for e in events]
    assert state["offer"] == offer[1:] + [deck_top]  # step 1
    assert "HRE-BASE-PASS-06" in rules  # step 3
    assert "HRE-BASE-PASS-09" not in rules and "HRE-BASE-PASS-11" not in rules
    assert [me["gold"] for me in state["seats"]] == gold
    assert state["seats"][1]["res"] == res  # no production
    assert state["seats"][1]["out"] is True
    assert top(state)["seat"] == 0  # seat 1 takes no more turns
    state, events = idle_turn(state)
    assert top(state)["seat"] == 0
    assert not ENGINE.is_over(state)
    state, events = act(state, {"do": "pass"})
    assert ENGINE.is_over(state) and state["stack"] == []
    assert "HRE-BASE-SCORE-01" in [e["rule"] for e in events]
    assert ENGINE.result(state)["over"] is True


@pytest.mark.parametrize(("option", "vp"), [(None, 3), ("lost", 0)])
def test_AMB_31_cognomens_at_the_final_pass(option: str | None, vp: int) -> None:
    """HRE-BASE-COG-02 / HRE-BASE-END-09 (AMB-31): a Cognomen still in hand at the final Pass is
    resolved after step 3; with option unplayed_cognomens = "lost" it scores nothing."""
    state = game(
        2, rulers=["arnulf", "berengar"], options={"unplayed_cognomens": option} if option else None
    )
    clear_barbarians(state)
    for seat in (0, 1):
        give(state, seat, wood=0, leather=0, stone=0, iron=0)
    state["end_triggered"] = True
    hand(state, 0, ["C045"])  # 1 VP per Gold
    give(state, 0, gold=3)
    me = state["seats"][0]
    me.update(discs=me["total_discs"] - 1, exhausted=1)
    turn_of(state, 0)
    state, _ = act(state, {"do": "pass"})
    assert state["seats"][0]["out"] is True
    assert state["seats"][0]["vp"] == vp
    assert ("C045" in state["discard"]) is (vp > 0)


# =========================================================================== scoring


def breakdown(state: State, seat: int = 0) -> dict[str, int]:
    return scoring.breakdown(Ctx(state), seat)


def city(state: State, prov: str, seat: int, bld: list[str], church: bool = False) -> None:
    here = state["prov"][prov]
    if not here["city"]:
        state["cities"] -= 1
    here.update(city=True, bld=list(bld), church=church)
    if here["owner"] != seat:
        units(state, prov, seat, infantry=1)


def test_HRE_BASE_SCORE_04_tc11_keeps_16() -> None:
    """HRE-BASE-SCORE-04 (TC-11): level 3 Keep in Lombardy, level 1 in Verona, with Tuscany,
    Verona, Swabia, Bavaria, Lombardy and Romagna controlled: 12 + 4 = 16 VP; a Keep's own
    province and uncontrolled neighbours (Ivrea, Carinthia, Friuli) do not count."""
    state = quiet_game(4)
    for prov in ("tuscany", "verona", "swabia", "bavaria", "lombardy", "romagna"):
        units(state, prov, 0, infantry=1)
    city(state, "lombardy", 0, ["leather"])
    city(state, "verona", 0, ["stone"])
    state["prov"]["lombardy"]["keep"] = 3
    state["prov"]["verona"]["keep"] = 1
    assert scoring.keep_vp(Ctx(state), 0, "lombardy") == 12
    assert scoring.keep_vp(Ctx(state), 0, "verona") == 4
    assert breakdown(state)["keeps"] == 16


def test_HRE_BASE_SCORE_05_06_07_tc12_track_vp() -> None:
    """HRE-BASE-SCORE-05 / HRE-BASE-SCORE-06 / HRE-BASE-SCORE-07 (TC-12): Culture space 7 gives 4
    VP, Warehouse row 5 gives
    7 VP, Farm-track space 10 (Army limit 10) gives 20 VP."""
    state = quiet_game()
    me = state["seats"][0]
    me.update(culture=7, warehouse=5, farms_track=1, farms_boxed=10)
    parts = breakdown(state)
    assert (parts["culture"], parts["warehouse"], parts["farms"]) == (4, 7, 20)
    me.update(culture=0, warehouse=0, farms_track=11, farms_boxed=0)
    parts = breakdown(state)
    assert (parts["culture"], parts["warehouse"], parts["farms"]) == (0, 0, 0)


def test_HRE_BASE_SCORE_08_tc13_titles_14() -> None:
    """HRE-BASE-SCORE-08 (TC-13): Kingdom of Italy and Kingdom of Benevento at the end: 14 VP,
    on top of the establishment VP already on the track."""
    state = quiet_game()
    for tid in ("kingdom_of_italy", "kingdom_of_benevento"):
        state["titles"][tid].update(holder=0, established=True)
    state["seats"][0]["vp"] = 14
    parts = breakdown(state)
    assert parts["titles"] == 14 and parts["vp_track"] == 14
    assert breakdown(state, 1)["titles"] == 0


def test_HRE_BASE_SCORE_09_tc14_gold_4_resources_nothing() -> None:
    """HRE-BASE-SCORE-09 (TC-14): 4 Gold left gives 4 VP; leftover resources give 0."""
    state = quiet_game()
    give(state, 0, gold=4, wood=5, iron=3)
    parts = breakdown(state)
    assert parts["gold"] == 4
    assert sum(parts.values()) == 4 + parts["cities"]


@pytest.mark.parametrize(
    ("bld", "church", "vp"),
    [
        (["wood"], False, 2),
        (["wood", "stone"], False, 4),
        (["wood", "stone", "stone"], False, 7),
        (["wood"], True, 4),
        (["wood", "leather"], True, 7),
    ],
)
def test_HRE_BASE_SCORE_03_tc25_city_vp(bld: list[str], church: bool, vp: int) -> None:
    """HRE-BASE-SCORE-03 (TC-25): 1/2/3 buildings (Production and Church) give 2/4/7 VP; a City
    with only its original building gives 2."""
    state = quiet_game()
    city(state, "bavaria", 0, bld, church)
    assert breakdown(state)["cities"] == vp


def test_HRE_BASE_SCORE_03_only_controlled_cities() -> None:
    """HRE-BASE-SCORE-03: an uncontrolled City scores for nobody."""
    state = quiet_game()
    city(state, "swabia", 0, ["leather", "wood"])
    units(state, "swabia", None)
    assert breakdown(state)["cities"] == 2  # the Capital only


def test_HRE_BASE_SCORE_02_technologies() -> None:
    """HRE-BASE-SCORE-02: each Common Technology scores its highest visible level's VP plus its
    extra scoring (C030 level 3: 3 VP + 2 per Church)."""
    state = quiet_game()
    city(state, "bavaria", 0, ["wood"], church=True)
    state["churches"] = 1
    state["seats"][0]["techs"] = [{"card": "C012", "level": 2}, {"card": "C030", "level": 3}]
    assert breakdown(state)["technologies"] == 2 + 3 + 2


def test_HRE_BASE_SCORE_01_total_is_track_plus_every_category() -> None:
    """HRE-BASE-SCORE-01: the final score adds the VP already earned and every category."""
    state = quiet_game()
    me = state["seats"][0]
    me.update(vp=23, culture=7)
    give(state, 0, gold=2)
    row = scoring.result(state)["seats"][0]
    assert row["breakdown"]["vp_track"] == 23
    assert row["score"] == 23 + 4 + 2 + 2  # track, Culture, Gold, the Capital's City
    assert row["score"] == sum(row["breakdown"].values())


def test_HRE_BASE_SCORE_10_ties_share_the_rank() -> None:
    """HRE-BASE-SCORE-10: most VP wins; tied players share the rank with no tie-breaker."""
    state = quiet_game(3)
    for seat, vp in enumerate((10, 10, 4)):
        state["seats"][seat]["vp"] = vp
    rows = scoring.result(state)["seats"]
    assert [r["rank"] for r in rows] == [1, 1, 3]
    state["over"] = True
    assert ENGINE.returns(state) == [0.5, 0.5, 0.0]
