"""Colonization (25.0, optional): the book's rules and the reference's worked cases TC-36."""

from __future__ import annotations

import random

import pytest

from rules.core.errors import ScenarioError
from rules.ema import colonization, invariants, victory
from rules.ema.components import load
from rules.ema.state import LANG, OWNER, SS, UNREST
from tests.rules.ema.helpers import ENGINE, act, actions, ctx, new, prompt, rules_of, to_main


def _tc36(monkeypatch):
    """TC-36a's board in Germany's Empire: Bases Austria (Pop 2, SS +2) and Bavaria (Pop 1, SS 0),
    both Old High German and overland-adjacent to Verona (Pop −1, SS −2)."""
    areas = load().areas
    monkeypatch.setitem(areas["austria"], "population", 2)
    monkeypatch.setitem(areas["austria"], "norm", 1)
    monkeypatch.setitem(areas["bavaria"], "population", 1)
    monkeypatch.setitem(areas["verona"], "population", -1)
    state = to_main(colonization=True)
    c = ctx(state)
    c.area("austria")[SS], c.area("bavaria")[SS], c.area("verona")[SS] = 2, 0, -2
    for aid in ("austria", "bavaria", "verona"):
        c.area(aid)[UNREST] = False
    return state


def _begin(state):
    events = act(state, {"do": "colonize"})
    if {"page": "romanic"} in actions(state):
        events += act(state, {"page": "romanic"})
    events += act(state, {"area": "verona"})
    events += act(state, {"base": "austria"})
    events += act(state, {"base": "bavaria"})
    events += act(state, {"done": True})
    return events


def test_colonization_begins_from_the_main_menu_EMA_25_0_P1(monkeypatch):
    """EMA-25.0.P1 EMA-25.0.GR EMA-25.1 EMA-25.11: the Player names his Area and Bases in his turn."""
    state = _tc36(monkeypatch)
    assert "EMA-25.0.P1" in rules_of(_begin(state))
    assert state["colonies"] == [
        {
            "seat": 0,
            "area": "verona",
            "bases": ["austria", "bavaria"],
            "points": 0,
            "lang": "old_high_german",
            "since": state["year"],
        }
    ]
    assert prompt(state)["kind"] == "main"
    assert ENGINE.view(state, 1)["colonies"][0]["area"] == "verona"


def test_tc36a_eight_points_a_round_and_thirteen_record_phases_EMA_25_0_P4(monkeypatch):
    """EMA-25.0.P2 EMA-25.0.P3 EMA-25.0.P4 EMA-25.0.P5 EMA-25.24 EMA-25.3 EMA-25.2 TC-36a:
    CV 4 + 1 − (−3) = +8 a Round; 100 needed at Population below 1: 96 after 12, done at 13."""
    state = _tc36(monkeypatch)
    _begin(state)
    c = ctx(state)
    col = state["colonies"][0]
    assert colonization.award(c, col)[0] == 8
    for _ in range(12):
        colonization.record(c)
    assert state["colonies"][0]["points"] == 96
    colonization.record(c)
    assert state["colonies"] == []
    assert c.area("verona")[LANG] == "old_high_german"
    assert state["seats"][0]["vp_colony"] == 5
    assert victory.breakdown(state, 0)["colonizations"] == 5
    assert "EMA-25.3" in rules_of(c.events)


def test_tc36b_a_base_in_unrest_counts_nothing_EMA_25_22(monkeypatch):
    """EMA-25.22 TC-36b: Bavaria in Unrest: 4 − (−3) = +7 that Round."""
    state = _tc36(monkeypatch)
    _begin(state)
    c = ctx(state)
    c.area("bavaria")[UNREST] = True
    assert colonization.award(c, state["colonies"][0])[:2] == (7, "EMA-25.22")


def test_tc36c_colonized_area_in_unrest_scores_nothing_EMA_25_23(monkeypatch):
    """EMA-25.23 TC-36c: the colonized Area in Unrest: +0 that Round."""
    state = _tc36(monkeypatch)
    _begin(state)
    c = ctx(state)
    c.area("verona")[UNREST] = True
    colonization.record(c)
    assert state["colonies"][0]["points"] == 0
    assert "EMA-25.23" in rules_of(c.events)


def test_tc36d_area_not_held_halves_the_round_rounding_up_EMA_25_21(monkeypatch):
    """EMA-25.21 TC-36d A-53: not possessed at the Record Phase: that Round's award halved, up."""
    state = _tc36(monkeypatch)
    _begin(state)
    c = ctx(state)
    c.area("verona")[OWNER] = None
    assert colonization.award(c, state["colonies"][0])[:2] == (4, "EMA-25.21")
    c.area("bavaria")[SS] = 1  # 9 points: 4.5 rounds up to 5
    assert colonization.award(c, state["colonies"][0])[0] == 5


def test_running_total_never_below_zero_A_53(monkeypatch):
    """EMA-25.0.P4 A-53: a negative award lowers the total, which stops at 0."""
    state = _tc36(monkeypatch)
    _begin(state)
    c = ctx(state)
    c.area("verona")[SS] = 3
    c.area("austria")[SS] = -3
    assert colonization.award(c, state["colonies"][0])[0] < 0
    colonization.record(c)
    assert state["colonies"][0]["points"] == 0


def test_tc36e_at_most_two_colonizations_EMA_25_15(monkeypatch):
    """EMA-25.15 TC-36e: a third simultaneous colonization is not offered."""
    state = _tc36(monkeypatch)
    c = ctx(state)
    colonization.begin(c, 0, "verona", ["austria"])
    colonization.begin(c, 0, "saxony", ["franconia"])
    assert colonization.targets(c, 0) == []
    assert {"do": "colonize"} not in actions(state)


def test_bases_adjacent_overland_of_one_language_and_one_colonization_EMA_25_12_EMA_25_14():
    """EMA-25.12 EMA-25.14 EMA-25.11: Bases touch the Area by land, share one Language, are the
    Player's own, and serve one colonization only."""
    state = to_main(colonization=True)
    c = ctx(state)
    assert colonization.bases_for(c, 0, "saxony", []) == ["franconia", "friesland", "lorraine"]
    assert colonization.bases_for(c, 0, "saxony", ["franconia"]) == ["lorraine"]
    colonization.begin(c, 0, "saxony", ["franconia"])
    assert "franconia" not in colonization.bases_for(c, 0, "friesland", [])
    assert "saxony" not in colonization.targets(c, 0)
    assert all(c.area(a)[OWNER] == 0 for a in colonization.targets(c, 0))


def test_more_bases_join_and_are_counted_from_then_on_EMA_25_13():
    """EMA-25.13 A-53: a Base added later is counted at every Record Phase; abandoning ends it."""
    state = to_main(colonization=True)
    c = ctx(state)
    colonization.begin(c, 0, "saxony", ["franconia"])
    act(state, {"do": "colony_base"})
    act(state, {"area": "saxony", "base": "lorraine"})
    assert state["colonies"][0]["bases"] == ["franconia", "lorraine"]
    act(state, {"do": "colony_abandon"})
    events = act(state, {"area": "saxony"})
    assert state["colonies"] == [] and "EMA-25.13" in rules_of(events)


def test_thresholds_by_population_EMA_25_24():
    """EMA-25.24 A-53: below 1 and exactly 1 need 100; 2 → 150; 3 → 175; 4 → 200."""
    assert [colonization.threshold(p) for p in (-2, 0, 1, 2, 3, 4)] == [
        100,
        100,
        100,
        150,
        175,
        200,
    ]


def test_recorded_at_the_end_of_each_round_EMA_SOP_III_10(monkeypatch):
    """EMA-SOP-III.10 EMA-25.0.P2: the points are recorded once the Round's turns are over,
    starting with the Round the marker was placed."""
    state = _tc36(monkeypatch)
    _begin(state)
    events = []
    pick = random.Random(3)
    for _ in range(3000):
        if state["round"] > 1:
            break
        offered = [a for a in actions(state) if not str(a.get("do", "")).startswith("colon")]
        events += act(state, {"do": "end"} if {"do": "end"} in offered else pick.choice(offered))
        invariants.check_colonies(state)  # (the Event deck was emptied by to_main)
    recorded = [e for e in events if e["rule"].startswith("EMA-25.")]
    assert state["round"] == 2 and len(recorded) == 1 and "Verona" in recorded[0]["public"]


def test_the_option_is_off_by_default_and_validated_EMA_25_0_GR():
    """EMA-25.0.GR: an optional rule; off, nothing is offered or scored; a bad value is refused."""
    state = to_main()
    assert {"do": "colonize"} not in actions(state)
    assert "colonizations" not in victory.breakdown(state, 0)
    assert "colonies" not in ENGINE.view(state, 0)
    errors = ENGINE.validate_scenario({"scenario": "28-millenium", "options": {"colonization": 1}})
    assert errors == ["Option colonization must be one of false, true."]
    with pytest.raises(ScenarioError):
        new(colonization="yes")
