"""The Grand Scenario (32.0): the prelude, the division of the Frankish Empire, the kingdoms."""

from __future__ import annotations

import pytest

from rules.core.errors import ScenarioError
from rules.core.playout import play_and_replay
from rules.ema import grand, sequence
from rules.ema.handlers import MACHINE
from rules.ema.state import CLAIMS, FORT, LANG, OWNER, REL, TIES, has, mask_of, seats_in
from tests.rules.ema.helpers import ENGINE, act, actions, ctx, prompt, rules_of


def _grand(players: int = 5, seed: int = 1, **options):
    return ENGINE.setup(seed, {"scenario": grand.SLUG, "options": options}, players)


def test_four_to_six_players_and_the_length_EMA_32_0_EMA_32_1():
    """EMA-32.0 EMA-32.1 TC-40f A-58: 4 to 6 Players; 140 Rounds from 771 (to 1470), shorter by
    agreement but not below 40 in the offered lengths; no empires to choose."""
    listed = next(s for s in ENGINE.scenarios() if s["slug"] == grand.SLUG)
    assert (listed["min_players"], listed["max_players"]) == (4, 6)
    state = _grand()
    assert state["rounds"] == 140 and state["year"] == 771
    assert state["year"] + 5 * state["rounds"] == 1471  # the last Round is 1466-1470
    starts = [y for y in range(771, 771 + 5 * 140, 5) if sequence.gt_start(y)]
    assert len(starts) == 28 and starts[0] == 776 and starts[-1] == 1451  # with 771: 29 GT starts
    assert _grand(rounds=40)["rounds"] == 40
    with pytest.raises(ScenarioError):
        ENGINE.setup(1, {"scenario": grand.SLUG, "options": {}}, 3)
    errors = ENGINE.validate_scenario({"scenario": grand.SLUG, "empires": ["FRA"]})
    assert any("die roll" in e for e in errors)
    errors = ENGINE.validate_scenario({"scenario": "27-charlemagne", "options": {"rounds": 40}})
    assert errors == ["Option rounds: 27-charlemagne has only 9 Rounds."]


def test_prelude_is_charlemagne_for_two_players_EMA_32_0_EMA_32_2():
    """EMA-32.0 EMA-32.2 A-58: the 27.0 set-up for the Franks and Byzantium, played by Players 1 and
    2; the others wait; no handicaps; Longevity applies."""
    state = _grand(6)
    seats = state["seats"]
    assert [me["empire"] for me in seats[:2]] == ["FRA", "BYZ"]
    assert all(me["waiting"] and me["court"] is None for me in seats[2:])
    assert all(me["handicap"] == 0 for me in seats)
    assert "charlemagne_longevity" in state["special"]
    assert state["order"] in ([0, 1], [1, 0]) or None in state["order"]
    assert all(p["seat"] in (0, 1) for p in ENGINE.prompts(state))


def _answer(state, c, pick=None, until=lambda state: True):
    """Run the machine and answer the division's and late kingdoms' questions (first choice, or
    at random with `pick`) until none is asked."""
    MACHINE.advance(c)
    while ENGINE.prompts(state) and prompt(state)["kind"].startswith("grand"):
        options = actions(state)
        c.events += act(state, pick.choice(options) if pick else options[0])
        if until(state):
            break


def _divided(state) -> bool:
    return state["grand"]["phase"] == "kingdoms"


def _divide(players: int = 6, seed: int = 1, pick=None, late: bool = True):
    """A Grand game divided at once, the Frankish Player answering; with `late`, the late
    kingdoms founded too."""
    state = _grand(players, seed)
    c = ctx(state)
    c.seat(0)["checks"] = 2
    grand.round_end(c)
    _answer(state, c, pick, until=(lambda s: False) if late else _divided)
    return state, c


def test_division_into_three_kingdoms_EMA_32_0_P1_EMA_32_0_P2():
    """EMA-32.0.P1 EMA-32.0.P2: three groups of at least three RC or EO Areas of one Language,
    joined overland, each a kingdom with its Court there, three Courts of three Languages; every
    Frankish Area goes to a kingdom."""
    before = sorted(a for a, h in ctx(_grand(6)).s["areas"].items() if h[OWNER] == 0)
    state, c = _divide()
    kingdoms = state["grand"]["kingdoms"]
    assert len(kingdoms) == 3
    assert sorted(a for k in kingdoms for a in k["areas"]) == before
    langs = {c.area(k["court"])[LANG] for k in kingdoms}
    assert len(langs) == 3
    for k in kingdoms:
        core = [a for a in k["areas"] if c.area(a)[LANG] == c.area(k["court"])[LANG]]
        assert len(core) >= 3 and all(c.area(a)[REL] in ("RC", "EO") for a in core)
    assert "EMA-32.0.P1" in rules_of(c.events) and "EMA-32.0.P2" in " ".join(
        e["public"] for e in c.events
    )


def test_recolouring_ties_treasury_statures_EMA_32_0_P3_EMA_32_0_P4():
    """EMA-32.0.P3 EMA-32.0.P4: the kingdoms hold their Areas, Claims and forts; Frankish Ties
    are gone; 10 gold each; Statures rolled on the Stature 3 column."""
    state = _grand(6)
    c = ctx(state)
    c.area("saxony")[TIES] = mask_of([0])
    c.area("franconia")[CLAIMS] = mask_of([0])
    fort = c.area("flanders")[FORT]
    c.seat(0)["checks"] = 2
    grand.round_end(c)
    _answer(state, c, until=lambda s: False)
    assert not has(c.area("saxony")[TIES], 0) or list(seats_in(c.area("saxony")[TIES])) == []
    owner = c.area("franconia")[OWNER]
    if owner is not None:
        assert list(seats_in(c.area("franconia")[CLAIMS])) == [owner]
    assert c.area("flanders")[FORT] == fort
    for me in state["seats"]:
        if me["empire"].startswith("K") and me["court"]:
            assert me["gold"] == 10
            assert set(me["st"].values()) <= {1, 2, 3, 5, 9}
    assert "EMA-32.0.P3" in rules_of(c.events) and "EMA-32.0.P4" in rules_of(c.events)
    ENGINE.check_invariants(state)


def test_kingdom_numbers_by_die_EMA_32_0_P5():
    """EMA-32.0.P5 A-58: every Player holds a different number 1-6; 4 is the Byzantine; with
    fewer than six Players the unassigned kingdoms' Areas are Independent."""
    state, c = _divide(4, 3, late=False)
    numbers = {int(k): v for k, v in state["grand"]["numbers"].items()}
    assert sorted(numbers) == [0, 1, 2, 3] and len(set(numbers.values())) == 4
    for seat, n in numbers.items():
        me = state["seats"][seat]
        if n == 4:
            assert me["empire"] == "BYZ"
        else:
            assert me["empire"] == f"K{n}"
    assigned = {n for n in numbers.values()}
    for k in state["grand"]["kingdoms"]:
        if k["number"] not in assigned:
            assert all(c.area(a)[OWNER] is None for a in k["areas"])
    assert "EMA-32.0.P5" in rules_of(c.events)


def test_late_kingdom_takes_an_independent_group_EMA_32_0_P6():
    """EMA-32.0.P6 A-58: the Player with 5 (then 6) takes a joined group of two or more
    Independent RC or EO Areas of one Language as soon as one exists; Court, 10 gold, Statures."""
    state, c = _divide()
    numbers = {int(k): v for k, v in state["grand"]["numbers"].items()}
    late = [s for s, n in numbers.items() if n in (5, 6)]
    for seat in late:
        me = state["seats"][seat]
        if me["court"] is not None:
            mine = [a for a, h in state["areas"].items() if h[OWNER] == seat]
            assert len(mine) >= 2 and me["gold"] == 10 and me["court"] in mine
            assert len({c.area(a)[LANG] for a in mine}) == 1
        else:
            assert seat in state["grand"]["waiting"]
    assert all(s not in state["order"] for s in state["grand"]["waiting"])


@pytest.mark.slow
def test_a_short_grand_game_replays_exactly_EMA_32_0():
    """EMA-32.0 EMA-32.1: a 40-Round Grand game from the prelude through the division, replayed."""
    playout = play_and_replay(ENGINE, 2, {"scenario": grand.SLUG, "options": {"rounds": 40}}, 5)
    assert playout.over and playout.replay is not None and playout.replay.ok
    assert playout.state["grand"]["phase"] == "kingdoms"
    assert len(ENGINE.result(playout.state)["seats"]) == 5


@pytest.mark.slow
def test_a_whole_grand_game_replays_exactly_EMA_32_1():
    """EMA-32.1 EMA-32.2 TC-40f: all 140 Rounds, 771 to 1470, with every optional rule on."""
    options = {"colonization": True, "schism_crusades": True, "raiders_magnates": True}
    playout = play_and_replay(ENGINE, 4, {"scenario": grand.SLUG, "options": options}, 6)
    assert playout.over and playout.replay is not None and playout.replay.ok
    assert playout.state["year"] == 1471


def test_the_frankish_player_chooses_cores_and_courts_EMA_32_0_P1_EMA_32_0_P2():
    """EMA-32.0.P1 EMA-32.0.P2: the Frankish Player is asked which joined one-Language groups of
    three RC or EO Areas are the kingdoms' cores (a Language once only) and names each Court in
    its core; the kingdoms are those he chose."""
    state = _grand(6, 1)
    c = ctx(state)
    c.seat(0)["checks"] = 2
    grand.round_end(c)
    MACHINE.advance(c)
    chosen, courts = [], []
    while prompt(state)["kind"] == "grand_core":
        assert prompt(state)["seat"] == 0
        groups = state["stack"][-1]["choices"]
        langs = [c.area(g[0])[LANG] for g in groups]
        assert len(set(langs)) == len(langs) and not set(langs) & {
            c.area(g[0])[LANG] for g in chosen
        }
        assert all(len(g) >= 3 and all(c.area(a)[REL] in ("RC", "EO") for a in g) for g in groups)
        chosen.append(groups[-1])
        act(state, {"group": len(groups) - 1})
    assert len(chosen) >= 2 and prompt(state)["kind"] == "grand_court"
    while prompt(state)["kind"] == "grand_court":
        offered = [a["court"] for a in actions(state)]
        cores = [k["core"] for k in state["grand"]["division"]["kingdoms"]]
        assert cores[: len(chosen)] == chosen  # a lone group left is taken without asking
        assert offered == cores[state["stack"][-1]["kingdom"]]
        courts.append(offered[-1])
        act(state, {"court": offered[-1]})
    _answer(state, c, until=_divided)
    kingdoms = state["grand"]["kingdoms"]
    assert [k["court"] for k in kingdoms if k["court"] in courts] == courts
    assert all(set(g) <= set(k["areas"]) for g, k in zip(chosen, kingdoms, strict=False))


def test_an_area_joined_to_two_kingdoms_is_given_by_the_player_EMA_32_0_P1():
    """EMA-32.0.P1: an Area joined overland to two kingdoms is the Frankish Player's to give;
    one joined to none through the Empire goes to the nearest kingdom."""
    state = _grand(6, 1)
    c = ctx(state)
    franks = sorted(a for a, h in state["areas"].items() if h[OWNER] == 0)
    z, x, y = next(
        (z, *ns[:2])
        for z in franks
        if len(ns := [b for b in sorted(c.d.land_adj[z]) if b in franks]) >= 2
    )
    near = {x, y, z} | {b for a in (x, y, z) for b in c.d.land_adj[a]}
    w = next(a for a in franks if a not in near)
    state["grand"]["division"] = {
        "areas": sorted([x, y, z, w]),
        "kingdoms": [
            {"core": [x], "areas": [x], "court": x},
            {"core": [y], "areas": [y], "court": y},
        ],
        "done": True,
    }
    state["stack"].append({"kind": "grand_division"})
    MACHINE.advance(c)
    assert prompt(state)["kind"] == "grand_assign" and prompt(state)["seat"] == 0
    pairs = state["stack"][-1]["pairs"]
    assert [z, 0] in pairs and [z, 1] in pairs
    events = act(state, {"pair": pairs.index([z, 1])})
    kingdoms = state["grand"]["kingdoms"]
    assert z in kingdoms[1]["areas"] and z not in kingdoms[0]["areas"]
    assert any(w in k["areas"] for k in kingdoms)
    assert any("joined to no kingdom overland" in (e["public"] or "") for e in events)


def test_a_late_kingdoms_player_chooses_its_group_and_court_EMA_32_0_P6():
    """EMA-32.0.P6 A-58: the waiting Player with 5 is asked first; with several groups he
    chooses one, then names any of its Areas as Court."""
    state, c = _divide(6, 1, late=False)
    numbers = {int(k): v for k, v in state["grand"]["numbers"].items()}
    asked = prompt(state)
    assert asked["kind"] in ("grand_late", "grand_late_court")
    assert numbers[asked["seat"]] == min(numbers[s] for s in state["grand"]["waiting"])
    seat = asked["seat"]
    if asked["kind"] == "grand_late":
        act(state, {"group": len(actions(state)) - 1})
    group = state["stack"][-1]["group"]
    act(state, {"court": group[-1]})
    me = state["seats"][seat]
    assert me["court"] == group[-1] and me["gold"] == 10 and seat not in state["grand"]["waiting"]
    assert all(c.area(a)[OWNER] == seat for a in group)


def test_a_waiting_player_founding_a_late_kingdom_keeps_his_cards_EMA_32_0_P6() -> None:
    """EMA-32.0.P6: a waiting Player who founds a late kingdom keeps the Year Cards (and any
    Holding cards) he was dealt this Game-Turn; rebuilding his seat used to drop them, which the
    invariants caught as "Year Cards not conserved" (seen in determinized play at 6 players)."""
    from rules.core import rng

    scenario = next(s for s in ENGINE.scenarios() if s["slug"] == "32-grand")
    config = {
        **scenario["config"],
        "options": {**scenario["config"].get("options", {}), "rounds": 40},
    }
    state = ENGINE.setup(7, config, 6)
    chooser = {"rng": rng.seed_state(7)}
    while not ENGINE.is_over(state):
        top = state["stack"][-1]
        if top.get("kind") == "grand_late_court" and state["seats"][top["seat"]]["years"]:
            break
        p = rng.choice(chooser, ENGINE.prompts(state))
        ENGINE.apply_trusted(state, p["seat"], rng.choice(chooser, p["options"])["action"])
    else:
        pytest.fail("no waiting Player holding Year Cards founded a kingdom in this game")
    seat = top["seat"]
    held = sorted(state["seats"][seat]["years"] + state["seats"][seat]["revealed"])
    prompt_ = next(p for p in ENGINE.prompts(state) if p["seat"] == seat)
    ENGINE.apply_trusted(state, seat, prompt_["options"][0]["action"])
    me = state["seats"][seat]
    assert not me["waiting"]
    assert sorted(me["years"] + me["revealed"]) == held
    ENGINE.check_invariants(state)
