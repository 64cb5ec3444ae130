"""The Crusades (23.0 Procedure, 23.3x; optional with the Schism and the Magnates)."""

from __future__ import annotations

import random

from rules.ema import crusades, magnates, parley, raiders
from rules.ema.handlers import MACHINE
from rules.ema.state import OWNER, REL, SS
from tests.rules.ema.helpers import act, actions, ctx, fake_card, fill, new, prompt, r, rules_of


def _ready(players: int = 4, slug: str = "29-crusades", seed: int = 3):
    """A game in the 1136 Game-Turn, in Schism, Syria and Jerusalem a Syrian Magnate's."""
    state = new(slug, players, seed, schism_crusades=True, raiders_magnates=True)
    c = ctx(state)
    state["schism"] = "schism"
    for aid in crusades.GOALS:
        state["areas"][aid][OWNER] = None
    mag = magnates.appear(c, "syria", 5, "syrian")
    state["npc_areas"]["jerusalem"] = mag["key"]
    for me in state["seats"]:
        me["gold"] = 30
    return state, c


def _fight(state, c, seed):
    """Run the Crusader Phase, answering defenses and passages at random, until it ends."""
    state["stack"].append({"kind": "crusade", "i": 0, "pending": None})
    MACHINE.advance(c)
    pick = random.Random(seed)
    while state.get("crusade") and prompt(state)["kind"] in ("npc_defend", "crusade_passage"):
        act(state, pick.choice(actions(state)))


def test_when_a_crusade_may_happen_EMA_23_0_GR_Crusade():
    """EMA-23.0.GR-Crusade EMA-23.3 A-45: the 1001-1276 Game-Turns, Schism, both Areas a Syrian
    Magnate's, at most one a Game-Turn."""
    state, c = _ready()
    assert crusades.possible(c)
    state["schism"] = "union"
    assert not crusades.possible(c)
    state["schism"] = "schism"
    state["year"] = 1301
    assert not crusades.possible(c)
    state["year"] = 1136
    state["npc_areas"]["jerusalem"] = "vikings"
    assert not crusades.possible(c)
    state["npc_areas"]["jerusalem"] = state["npc_areas"]["syria"]
    state["crusade_gt"] = 1126
    assert not crusades.possible(c)


def test_the_call_and_the_crusade_parley_EMA_23_0_GR_Crusade(monkeypatch):
    """EMA-23.0.GR-Crusade EMA-SOP-III.2 A-45: an RC Player calls a Crusade Parley; all Christian
    Leaders vote; a tie fails, a majority calls the Crusade led by the caller."""
    state, c = _ready()
    crusades.phase(c)
    assert prompt(state)["kind"] == "crusade_call"
    caller = prompt(state)["seat"]
    act(state, {"call": True})
    frame = state["stack"][-1]
    assert frame["kind"] in ("parley", "influence") or state["stack"][-2]["kind"] == "parley"
    par = next(f for f in state["stack"] if f["kind"] == "parley")
    assert par["type"] == "crusade" and par["voters"] == [0, 1, 2, 3]
    par["ballots"] = {
        "0": {"vote": "for", "influence": 0},
        "1": {"vote": "against", "influence": 0},
    }
    weights = [parley.weight(c, par, s, 0) for s in (0, 1)]
    parley.tally(c, par)
    if weights[0] == weights[1]:
        assert state.get("crusade") is None
    else:
        assert (state.get("crusade") is not None) == (weights[0] > weights[1])
    state["crusade"] = None
    par["ballots"] = {"0": {"vote": "for", "influence": 0}}
    parley.tally(c, par)
    assert state["crusade"]["leader"] == caller  # 23.0 P-Cru1


def test_the_byzantine_calls_without_a_parley_EMA_23_0_P_Cru1():
    """EMA-23.0.P-Cru1 EMA-23.0.GR-Crusade: called by the Byzantine, the Crusade is led by the RC
    Player of highest Combat Stature, ties to the highest total."""
    state = new("29-crusades", 5, 1, schism_crusades=True, raiders_magnates=True)
    c = ctx(state)
    byz = next(i for i, me in enumerate(state["seats"]) if me["empire"] == "BYZ")
    state.update(schism="schism")
    for aid in crusades.GOALS:
        state["areas"][aid][OWNER] = None
    mag = magnates.appear(c, "syria", 5, "syrian")
    state["npc_areas"]["jerusalem"] = mag["key"]
    crusades.phase(c)
    assert state["stack"][-1]["seat"] == byz
    act(state, {"call": True})
    rc = crusades._rc_players(c)
    best = max(rc, key=lambda i: (c.seat(i)["st"]["c"], sum(c.seat(i)["st"].values()), -i))
    assert state["crusade"]["leader"] == best and byz not in state["crusade"]["order"]


def test_order_by_combat_and_friendly_areas_EMA_23_0_P_Cru2_EMA_23_0_P_Cru3():
    """EMA-23.0.P-Cru2 EMA-23.0.P-Cru3 A-61: Crusaders in order of Combat Stature; their Areas and
    Independent RC Areas are friendly, other Independent Areas are not."""
    state, c = _ready()
    crusades.begin(c, 0)
    order = state["crusade"]["order"]
    assert [c.seat(i)["st"]["c"] for i in order] == sorted(
        (c.seat(i)["st"]["c"] for i in order), reverse=True
    )
    mine = next(a for a, h in state["areas"].items() if h[OWNER] == order[0])
    assert crusades.friendly(c, mine)
    rc_free = next(
        a for a, h in state["areas"].items() if h[OWNER] is None and h[REL] == "RC"
        and a not in state.get("npc_areas", {})
    )  # fmt: skip
    assert crusades.friendly(c, rc_free)
    assert not crusades.friendly(c, "syria")


def test_the_route_and_its_objective_EMA_23_0_P_Cru4():
    """EMA-23.0.P-Cru4: the Crusade advances along joined Areas and must conquer the first one
    neither friendly nor passable; Byzantine Areas are asked for passage."""
    state, c = _ready()
    crusades.begin(c, 0)
    path = crusades.route(c)
    assert path[-1] == "syria" and crusades.friendly(c, path[0])
    base, target = crusades.objective(c)
    assert not crusades.friendly(c, target) and crusades.friendly(c, base)
    assert path.index(target) == path.index(base) + 1


def test_a_crusade_plays_cards_until_spent_and_fails_EMA_23_31(monkeypatch):
    """EMA-23.31 EMA-23.0.P-Cru6: each Crusader plays one card per pass; when all are spent the
    Crusade has failed; it never outlasts the Round."""
    state, c = _ready()
    number = fake_card(monkeypatch)  # a card with no result at all
    for me in state["seats"]:
        me["years"] = [number] * 2
    crusades.begin(c, 0)
    _fight(state, c, 2)
    assert state["crusade"] is None
    assert "EMA-23.31" in rules_of(c.events) and "EMA-23.0.P-Cru6" in rules_of(c.events)
    assert all(not me["years"] for me in state["seats"])


def test_conquests_become_crusader_states_and_the_goal_falls_EMA_23_32_EMA_23_0_P_Cru5(
    monkeypatch,
):
    """EMA-23.32 EMA-23.0.P-Cru5 EMA-23.33 A-45: every conquest is an Independent Crusader State
    (C results pooled across Crusaders); passing a non-RC Area costs it 1 SS; the Crusade ends
    when Syria and Jerusalem have fallen."""
    state, c = _ready()
    number = fake_card(monkeypatch, conquest=[r("C")])
    for me in state["seats"]:
        me["years"] = [number] * 5
        me["st"]["c"] = 9
    fill(state["areas"]["cilicia"], owner=0, ss=2, unrest=False)  # a friendly Base next to Syria
    for aid in crusades.GOALS:
        fill(state["areas"][aid], ss=-3, fort=0)
    state["magnates"][0]["defense_card"] = None
    crusades.begin(c, 0)
    _fight(state, c, 4)
    held = state.get("npc_areas", {})
    assert held.get("syria") == "crusade" and held.get("jerusalem") == "crusade"
    assert state["areas"]["syria"][OWNER] is None
    assert "EMA-23.32" in rules_of(c.events)
    assert "falle" in " ".join(e["public"] or "" for e in c.events if e["rule"] == "EMA-23.31")
    assert crusades.friendly(c, "syria") is False or state.get("crusade") is None


def test_passage_through_byzantine_areas_EMA_23_33(monkeypatch):
    """EMA-23.33 EMA-23.0.P-Cru4: the Byzantine may grant passage; a Byzantine Area passed loses 1 SS."""
    state = new("29-crusades", 5, 1, schism_crusades=True, raiders_magnates=True)
    c = ctx(state)
    byz = next(i for i, me in enumerate(state["seats"]) if me["empire"] == "BYZ")
    crusades.begin(c, None)
    state["crusade"]["passage"].append("greece")
    assert crusades.friendly(c, "greece")
    ss = state["areas"]["greece"][SS]
    state["areas"]["greece"][OWNER] = byz
    monkeypatch.setattr(crusades, "route", lambda ctx: ["greece"])
    crusades._passed(c)
    crusades._passed(c)  # once only
    assert state["areas"]["greece"][SS] == max(-3, ss - 1)
    assert "EMA-23.33" in rules_of(c.events)


def test_the_leader_chooses_the_route_EMA_23_0_P_Cru3():
    """EMA-23.0.P-Cru3: the Crusade Leader picks the route among the ways from friendly Areas
    (by sea from a Mediterranean Area, or overland); the Crusade then follows it."""
    state, c = _ready()
    crusades.begin(c, 2)
    assert prompt(state)["kind"] == "crusade_route" and prompt(state)["seat"] == 2
    offered = state["stack"][-1]["routes"]
    assert len(offered) > 1 and all(p[-1] == "syria" for p in offered)
    assert all(crusades.friendly(c, p[0]) for p in offered)
    events = act(state, {"route": 1})
    assert state["crusade"]["route"] == offered[1] and "EMA-23.0.P-Cru3" in rules_of(events)
    base, target = crusades.objective(c)
    assert target in offered[1] and offered[1].index(target) == offered[1].index(base) + 1


def _through_the_round_start(state, c, pick):
    """Answer every prompt at random until the first Initiative choice of the Round."""
    while prompt(state)["kind"] != "initiative":
        act(state, pick.choice(actions(state)))


def test_a_crusade_called_runs_in_its_own_round_EMA_23_0_P_Cru6(monkeypatch):
    """EMA-23.0.P-Cru6 EMA-23.31 EMA-SOP-III.2: a Crusade called at the Round's start is fought
    in that Round's Crusader Phase, after the Raiders and Magnates and before the Initiative, and
    ends with it; the next Round starts with no Crusade left over (the crash of seeds 1, 4, 999
    in 28-millenium at six players: a called Crusade was skipped and ran, emptied, a Round later)."""
    from rules.ema import sequence

    state, c = _ready(5, seed=1)
    byz = next(i for i, me in enumerate(state["seats"]) if me["empire"] == "BYZ")
    state["stack"] = state["stack"][:1]
    sequence.start_round(c)
    MACHINE.advance(c)
    assert prompt(state)["kind"] == "crusade_call" and prompt(state)["seat"] == byz
    assert [f["kind"] for f in state["stack"]].count("crusade") == 1
    c.events.clear()
    act(state, {"call": True})
    _through_the_round_start(state, c, random.Random(3))
    assert state["crusade"] is None and "crusade" not in [f["kind"] for f in state["stack"]]
    assert state["crusade_gt"] == raiders.game_turn_of(state["year"])
    # the next Round of the same Game-Turn: no Crusade may be called, and none runs
    sequence.start_round(c)
    assert "crusade" not in [f["kind"] for f in state["stack"]]


def test_crusades_without_the_magnates_EMA_23_0_GR_Crusade():
    """EMA-23.0.GR-Crusade (authored reading, rules/ema/data/README.md): with the Schism and
    Crusades rule alone, condition 3 holds while Syria and Jerusalem are both Independent and
    neither Christian; a Player's holding or a Crusader State there forbids a Crusade."""
    state = new("29-crusades", 5, 1, schism_crusades=True)
    c = ctx(state)
    state["schism"] = "schism"
    for aid in crusades.GOALS:
        fill(state["areas"][aid], owner=None, rel="moslem_east")
    assert crusades.possible(c)
    state["areas"]["syria"][OWNER] = 0
    assert not crusades.possible(c)
    state["areas"]["syria"][OWNER] = None
    state.setdefault("npc_areas", {})["jerusalem"] = "crusade"
    assert not crusades.possible(c)
    del state["npc_areas"]["jerusalem"]
    state["areas"]["jerusalem"][REL] = "RC"
    assert not crusades.possible(c)


def test_a_crusade_without_the_magnates_conquers_crusader_states_EMA_23_32(monkeypatch):
    """EMA-23.32 EMA-23.0.P-Cru5 EMA-23.0.GR-Crusade: without the Magnates the Crusade conquers
    Syria and Jerusalem from no one; both become Independent Crusader States."""
    state = new("29-crusades", 5, 1, schism_crusades=True)
    c = ctx(state)
    state["schism"] = "schism"
    number = fake_card(monkeypatch, conquest=[r("C")])
    for me in state["seats"]:
        me["years"] = [number] * 5
        me["st"]["c"] = 9
        me["gold"] = 30
    fill(state["areas"]["cilicia"], owner=crusades._rc_players(c)[0], ss=2, unrest=False)
    for aid in crusades.GOALS:
        fill(state["areas"][aid], owner=None, ss=-3, fort=0, rel="moslem_east")
    assert crusades.possible(c)
    crusades.begin(c, None)
    while prompt(state)["kind"] == "crusade_route":
        act(state, {"route": 0})
    _fight(state, c, 4)
    held = state.get("npc_areas", {})
    assert held.get("syria") == "crusade" and held.get("jerusalem") == "crusade"
    assert "EMA-23.32" in rules_of(c.events)
