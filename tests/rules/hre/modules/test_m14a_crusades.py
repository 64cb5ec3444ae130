"""Module 14A, Crusades (rules-hre.md §1.36): Churches call Crusades; units sent far away."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.playout import play_and_replay
from rules.hre import ENGINE
from rules.hre.modules import m14a_crusades as m14a
from rules.hre.modules import majority
from rules.hre.state import Ctx, army_limit, army_size, in_supply
from tests.rules.hre.helpers import (
    act,
    actions,
    clear_barbarians,
    dice,
    draft_all,
    give,
    top,
    turn_of,
    units,
)
from tests.rules.hre.modules.solo import events_text
from tests.rules.hre.test_actions import noble

__all__ = ["dice"]  # the rigged-dice fixture

State = dict[str, Any]
CRUSADES = {"modules": ["M14A"], "options": {}}


def table(seed: int = 1, players: int = 3) -> State:
    """A 3-player Crusades game at seat 0's turn: every disc back, no Barbarians."""
    state, _ = draft_all(ENGINE.setup(seed, CRUSADES, players))
    clear_barbarians(state)
    for seat in state["seats"]:
        seat["discs"], seat["exhausted"] = seat["total_discs"], 0
    for slot in state["slots"]:
        slot["stack"] = []
    return turn_of(state, 0)


def home(state: State, seat: int) -> str:
    return next(p for p, h in state["prov"].items() if h["owner"] == seat and h["city"])


def called(state: State, card: str = "CC01") -> State:
    """The First Crusade revealed (and it is `card`)."""
    t = state["m14a"]
    first = t["line"][0]
    if first != card:
        t["unseen"] = sorted([c for c in t["unseen"] if c != card] + [first])
        t["line"][0] = card
    t["revealed"] = 1
    t["gold"] = [4, 6]
    return state


def test_HRE_M14A_SETUP_01_02_03_a_line_of_three_and_gold_under_three_churches() -> None:
    """HRE-M14A-SETUP-01 [HIDDEN], HRE-M14A-SETUP-02, HRE-M14A-SETUP-03: one card of each
    Crusade face down, First on top; Gold under Churches 2, 4 and 6; markers for everyone."""
    state, events = draft_all(ENGINE.setup(2, CRUSADES, 4))
    t = state["m14a"]
    assert [m14a.cards()[c]["crusade"] for c in t["line"]] == [1, 2, 3]
    assert len(t["unseen"]) == 9 and t["revealed"] == 0 and t["gold"] == [2, 4, 6]
    text = events_text(events)
    assert all(f"HRE-M14A-SETUP-0{i}" in text for i in (1, 2, 3))
    view = ENGINE.view(state, 0)["crusades"]
    assert [c["card"] for c in view["line"]] == [None, None, None]  # face down
    assert not any(c in str(ENGINE.view(state, 1)) for c in t["line"])
    ENGINE.check_invariants(state)


def test_HRE_M14A_CALL_01_a_church_over_gold_calls_the_next_crusade() -> None:
    """HRE-M14A-CALL-01: scored first; the Gold goes to the supply, not to the builder; the First
    Crusade is revealed and nothing is resolved yet."""
    state = table()
    state["prov"][home(state, 1)]["church"] = True
    state["churches"] = 1
    give(state, 0, wood=2, stone=1, gold=0)
    gold = state["seats"][0]["gold"]
    state = noble(state, "build")
    state, events = act(state, {"build": "church", "prov": home(state, 0)})
    t = state["m14a"]
    assert t["revealed"] == 1 and t["gold"] == [4, 6] and state["seats"][0]["gold"] == gold
    text = events_text(events)
    assert text.index("HRE-BASE-BUILD-12") < text.index("HRE-M14A-CALL-01")
    assert ENGINE.view(state, 1)["crusades"]["active"] == t["line"][0]
    assert not any(f["kind"] == "m14a_resolve" for f in state["stack"])


def test_HRE_M14A_CONTRIB_01_02_units_go_before_the_army_limit_check() -> None:
    """HRE-M14A-CONTRIB-01, HRE-M14A-CONTRIB-02: a Manoeuvre first offers to send units; sent
    ones count for no Army limit and are not in the supply."""
    state = called(table())
    capital = home(state, 0)
    units(state, capital, 0, infantry=4, archer=2)
    limit = army_limit(state, 0)
    supply = in_supply(state, 0, "infantry")
    state = noble(state, "manoeuvre")
    assert top(state)["kind"] == "m14a_send"
    for _ in range(3):
        state, events = act(state, {"m14a_send": "infantry", "prov": capital})
    assert "HRE-M14A-CONTRIB-01" in events_text(events)
    state, _ = act(state, {"m14a_send": None})
    assert state["m14a"]["pool"][0] == {"infantry": 3, "archer": 0, "cavalry": 0}
    assert in_supply(state, 0, "infantry") == supply  # still not back in the supply
    assert army_size(state, 0) == 3  # the 3 sent count for nothing: 1 infantry, 2 archers left
    assert top(state)["kind"] == ("army" if army_size(state, 0) > limit else "move")
    ENGINE.check_invariants(state)


def test_HRE_M14A_CONTRIB_01_no_crusade_active_no_sending() -> None:
    """HRE-M14A-CONTRIB-01 (AMB-68): before the first call, a Manoeuvre is a plain one."""
    state = table()
    units(state, home(state, 0), 0, infantry=2)
    state = noble(state, "manoeuvre")
    assert top(state)["kind"] == "move"


def resolving(state: State, pool: list[dict[str, int]], card: str = "CC01") -> State:
    """The given Crusade's resolution on top of seat 0's Build, with these units sent."""
    state["stack"].append({"kind": "after_action", "seat": 0, "action": "build"})
    ctx = Ctx(state)
    resolve_pool = [{**m14a.no_units(), **p} for p in pool]
    m14a.start_resolution(ctx, card, resolve_pool, 0, final=False)
    return state


def test_HRE_M14A_RESOLVE_01_02_03_effect_first_then_nothing_without_units() -> None:
    """HRE-M14A-RESOLVE-01, -02, -03: the special effect for each player from the current one
    (the Peasants' Crusade: 1 Leather to everyone); nobody sent units, so no dice: the card goes
    straight back to the box."""
    state = table()
    leather = [s["res"]["leather"] for s in state["seats"]]
    state = resolving(state, [{}, {}, {}], card="CC04")
    ctx = Ctx(state)
    ENGINE.machine.advance(ctx)
    assert [s["res"]["leather"] for s in state["seats"]] == [n + 1 for n in leather]
    text = events_text(ctx.events)
    assert "HRE-M14A-RESOLVE-02" in text and "HRE-M14A-RESOLVE-03" in text
    assert "HRE-M14A-RESOLVE-04" not in text
    gains = [e for e in ctx.events if e["rule"] == "HRE-M14A-RESOLVE-02"]
    assert [ctx.name(i) in g["public"] for i, g in enumerate(gains)] == [True] * 3
    assert state["m14a"]["resolved"] == ["CC04"] and top(state)["kind"] == "turn"


def test_HRE_M14A_RESOLVE_04_05_06_08_victory_ladder_and_redeploy(dice: list[int]) -> None:
    """HRE-M14A-RESOLVE-04..06, -08: printed Defence 3; one die per unit against its best skill;
    markers ≥ 3 is victory; VP by markers; each contributor loses one unit, places the rest."""
    state = table()
    units(state, "swabia", 0, infantry=1)  # a second province: where units go is a choice
    vp = [s["vp"] for s in state["seats"]]
    state = resolving(state, [{"infantry": 2, "archer": 1}, {"infantry": 1}, {}])
    dice.extend([4, 6, 5, 1])  # seat 0: infantry 4 (hit), 6 (hit), archer 5 (hit); seat 1: 1
    ctx = Ctx(state)
    ENGINE.machine.advance(ctx)
    text = events_text(ctx.events)
    assert "Defence Value is 3 (printed)" in text and "HRE-M14A-RESOLVE-05" in text
    assert state["seats"][0]["vp"] == vp[0] + 6  # first on the ladder 6/4/2
    assert state["seats"][1]["vp"] == vp[1]  # sent units, no marker: nothing
    assert state["seats"][2]["vp"] == max(0, vp[2] - 2)  # stayed home: the penalty
    assert state["seats"][0]["gold"] >= 1  # Nicaea: 1 Gold to each who sent units
    assert top(state)["kind"] == "m14a_redeploy" and top(state)["seat"] == 0
    assert actions(state) == [{"m14a_lose": "infantry"}, {"m14a_lose": "archer"}]
    state, events = act(state, {"m14a_lose": "archer"})
    capital = home(state, 0)
    before = state["prov"][capital]["units"]["infantry"]
    assert {"m14a_place": "infantry", "prov": "swabia"} in actions(state)
    while top(state)["kind"] == "m14a_redeploy" and top(state)["seat"] == 0:
        state, events = act(state, {"m14a_place": "infantry", "prov": capital})
    assert state["prov"][capital]["units"]["infantry"] == before + 2
    assert "HRE-M14A-RESOLVE-08" in events_text(events)
    ENGINE.check_invariants(state)


def test_HRE_M14A_RESOLVE_07_the_penalty_never_goes_below_zero(dice: list[int]) -> None:
    """HRE-M14A-RESOLVE-07: a player who stayed home loses the Defeat Penalty, never below 0."""
    state = table()
    state["seats"][2]["vp"] = 1
    state = resolving(state, [{"infantry": 3}, {}, {}])
    dice.extend([6, 6, 6])
    ENGINE.machine.advance(Ctx(state))
    assert state["seats"][2]["vp"] == 0 and state["m14a"]["scored"][2] == -1


def test_HRE_M14A_RESOLVE_09_10_defeat_pays_those_at_home_one_unit_returns(
    dice: list[int],
) -> None:
    """HRE-M14A-RESOLVE-09, HRE-M14A-RESOLVE-10: markers short of the Defence Value: those who
    stayed home gain the Defeat Penalty; each contributor brings one unit home, loses the rest."""
    state = table()
    units(state, "swabia", 0, infantry=1)
    vp = [s["vp"] for s in state["seats"]]
    state = resolving(state, [{"infantry": 2}, {"cavalry": 1}, {}])
    dice.extend([1, 2, 3])
    ENGINE.machine.advance(Ctx(state))
    assert state["seats"][2]["vp"] == vp[2] + 2
    assert state["seats"][0]["vp"] == vp[0] and state["seats"][1]["vp"] == vp[1]
    assert top(state)["kind"] == "m14a_return" and top(state)["seat"] == 0
    capital = home(state, 0)
    before = state["prov"][capital]["units"]["infantry"]
    state, events = act(state, {"m14a_home": "infantry", "prov": capital})
    assert state["prov"][capital]["units"]["infantry"] == before + 1
    assert "HRE-M14A-RESOLVE-10" in events_text(events)
    # Seat 1 has one unit and one province: brought home without a question.
    assert state["m14a"]["resolved"] == ["CC01"]
    assert sum(h["units"]["cavalry"] for h in state["prov"].values() if h["owner"] == 1) == 1
    ENGINE.check_invariants(state)


def test_HRE_M14A_RESOLVE_06_TC_39_ties_take_the_higher_value_and_skip_the_next() -> None:
    """HRE-M14A-RESOLVE-06 (TC-39): markers A=4, B=4, C=1, D sent but 0: A and B take v1, C
    takes v3, D nothing."""
    markers = [4, 4, 1, 0, 0]  # A, B, C, D (sent, no hit), E (stayed home)
    assert majority(markers, [9, 5, 2]) == {0: 9, 1: 9, 2: 2, 3: 0, 4: 0}


def test_HRE_M14A_RESOLVE_04_a_rolled_defence_value(dice: list[int]) -> None:
    """HRE-M14A-RESOLVE-04 [RANDOM]: Dorylaeum rolls its Defence Value on one die."""
    state = resolving(table(), [{"infantry": 1}, {}, {}], card="CC02")
    dice.extend([5, 4])
    ctx = Ctx(state)
    ENGINE.machine.advance(ctx)
    assert "Defence Value is 5 (rolled 5 + 0)" in events_text(ctx.events)


def test_HRE_M14A_RESOLVE_01_11_the_next_call_resolves_the_last_and_boxes_it(
    dice: list[int],
) -> None:
    """HRE-M14A-RESOLVE-01, HRE-M14A-RESOLVE-11: the 4th Church reveals the Second Crusade and
    resolves the First, whose card then goes to the box; new units go to the Second."""
    state = called(table())
    state["m14a"]["pool"][1] = {"infantry": 1, "archer": 0, "cavalry": 0}
    units(state, "swabia", 0, infantry=1)
    state["prov"]["swabia"]["city"] = True
    state["cities"] -= 1
    for prov in ("swabia", home(state, 1), home(state, 2)):
        state["prov"][prov]["church"] = True
    state["churches"] = 3
    give(state, 0, wood=2, stone=1, gold=0)
    dice.extend([6])
    state = noble(state, "build")
    state, events = act(state, {"build": "church", "prov": home(state, 0)})
    t = state["m14a"]
    assert t["revealed"] == 2 and t["resolved"] == ["CC01"] and t["gold"] == [6]
    assert m14a.active(state) == t["line"][1]
    assert t["pool"] == [m14a.no_units()] * 3
    assert "HRE-M14A-RESOLVE-11" in events_text(events)
    ENGINE.check_invariants(state)


def test_HRE_M14A_RESOLVE_01_at_final_scoring_units_are_removed(dice: list[int]) -> None:
    """HRE-M14A-RESOLVE-01 (AMB-68): the active Crusade resolves at final scoring, from the last
    player to Pass; nobody brings units home, and scoring follows."""
    state = called(table())
    state["m14a"]["pool"][0] = {"infantry": 2, "archer": 0, "cavalry": 0}
    state["m14a"]["last_pass"] = 2
    for seat in state["seats"]:
        seat["out"] = True
    state["stack"] = []
    dice.extend([6, 6])
    ctx = Ctx(state)
    from rules.hre import endgame

    endgame.finish(ctx)
    ENGINE.machine.advance(ctx)
    assert state["over"] and state["m14a"]["resolved"] == ["CC01"]
    assert "starting with" in events_text(ctx.events)
    assert ctx.events[0]["public"].endswith(f"starting with {ctx.name(2)}.")
    assert not any(f["kind"] == "m14a_redeploy" for f in state["stack"])
    ENGINE.check_invariants(state)


@pytest.mark.parametrize(("seed", "players"), [(4, 3), (2, 4)])
def test_HRE_M14A_random_games_with_crusades_end_and_replay(seed: int, players: int) -> None:
    """HRE-M14A-SETUP-01: random games play to the end and replay (invariants checked)."""
    playout = play_and_replay(ENGINE, seed, CRUSADES, players)
    assert playout.over and playout.replay is not None and playout.replay.ok


def test_HRE_M14A_crusades_need_three_players() -> None:
    """HRE-M14A-SETUP-01: the module is printed for 3-8 players; 2 are refused readably."""
    from rules.core.errors import ScenarioError

    with pytest.raises(ScenarioError, match="takes 3–4 players, not 2"):
        ENGINE.setup(1, CRUSADES, 2)
