"""General rules and components of the base game that no other test file covers:
HRE-BASE-SETUP-01 (both boards laid out), HRE-BASE-GEN-01 (most VP wins, the track has no top),
HRE-BASE-GEN-03 (the red hexagons are solo data), HRE-BASE-GEN-15 (Transient units),
HRE-COMP-08 (wounds tracked on units) and HRE-BASE-BUILD-17 (the Keep's three
effects in one position).

Battles use the rigged `dice` fixture of tests.rules.hre.helpers (see test_battle.py for the
order dice are rolled in).
"""

from __future__ import annotations

import copy

from rules.core.canonical import state_hash
from rules.hre import ENGINE, scoring
from rules.hre.state import UNITS, Ctx, data, in_supply, neighbours
from tests.rules.hre.helpers import State, act, actions, dice, game, top, units
from tests.rules.hre.test_battle import arena, attack, battle_frame, texts, won

__all__ = ["dice"]  # the fixture, imported so pytest finds it here


def test_HRE_BASE_SETUP_01_main_board_and_culture_board_laid_out() -> None:
    """HRE-BASE-SETUP-01: after set-up the Main board holds every province in play for the
    player count (each with its printed Production building) and the Culture board holds every
    seat's markers at the start of its tracks, the offer and the deck."""
    d = data()
    for players in (2, 3, 4):
        state = game(players)
        in_play = {p for p, spec in d.provinces.items() if spec["players"] <= players}
        assert set(state["prov"]) == in_play
        for pid, here in state["prov"].items():
            assert d.provinces[pid]["resource"] in here["bld"]
        for me in state["seats"]:
            assert me["culture"] == 0 and me["warehouse"] == 0
            assert 0 <= me["farms_track"] < len(d.board["farm_track"])
        assert len(state["offer"]) == d.board["offer_size"]
        assert state["deck"] and not set(state["deck"]) & set(state["offer"])
        assert state["titles"] and all(t["holder"] is None for t in state["titles"].values())


def test_HRE_BASE_GEN_01_most_vp_wins_and_the_track_goes_past_100_and_200() -> None:
    """HRE-BASE-GEN-01: the highest total wins; the VP track has no top, so 215 VP stay 215
    (the +100/+200 tokens of the printed track are only a way to show that) and beat 199."""
    state = game(2, rulers=["arnulf", "berengar"])
    state["seats"][0]["vp"], state["seats"][1]["vp"] = 199, 215
    rows = {row["seat"]: row for row in scoring.result(state)["seats"]}
    assert rows[0]["breakdown"]["vp_track"] == 199
    assert rows[1]["breakdown"]["vp_track"] == 215
    rest = {seat: row["score"] - row["breakdown"]["vp_track"] for seat, row in rows.items()}
    assert rest[0] == rest[1]  # the same start otherwise: the 16 VP decide
    assert rows[1]["rank"] == 1 and rows[0]["rank"] == 2
    assert ENGINE.view(state, 0)["seats"][1]["vp"] == 215


def test_HRE_BASE_GEN_03_red_hexagons_are_solo_data_only() -> None:
    """HRE-BASE-GEN-03: the red numbers belong to the solo map (its 20 provinces carry 1..20 once
    each, no other province has one) and nothing in a multi-player game reads them: renumbering
    every province leaves a 2-player random playout identical, action for action."""
    d = data()
    numbered = {p: spec["solo_number"] for p, spec in d.provinces.items() if spec["solo_number"]}
    assert sorted(numbered.values()) == list(range(1, 21))
    assert all(not d.provinces[p]["solo_blocked"] for p in numbered)

    def playout() -> list[str]:
        state = ENGINE.setup(7, {"modules": [], "options": {}}, 2)
        hashes = []
        for step in range(400):
            prompts = ENGINE.prompts(state)
            if not prompts:
                break
            prompt = prompts[0]
            option = prompt["options"][(step * 7) % len(prompt["options"])]
            state, _ = ENGINE.apply(state, prompt["seat"], option["action"])
            hashes.append(state_hash(state))
        return hashes

    first = playout()
    saved = {p: d.provinces[p]["solo_number"] for p in numbered}
    try:
        for p, n in saved.items():
            d.provinces[p]["solo_number"] = 21 - n
        second = playout()
    finally:
        for p, n in saved.items():
            d.provinces[p]["solo_number"] = n
    assert len(first) > 100 and first == second


def test_HRE_BASE_GEN_15_transient_units_unlimited_at_owner_level_and_all_go_back(
    dice: list[int],
) -> None:
    """HRE-BASE-GEN-15: a defender with no infantry left in supply still gets one Transient
    infantry per Farm (they are unlimited and outside supply), each fights at the owner's current
    infantry level, and none stays on the board or enters the supply after the battle."""
    state = arena()
    me = state["seats"][1]
    me["mil"]["infantry"] = {"card": "C059", "half": 0}  # level II infantry (melee 3)
    state["prov"]["swabia"].update(owner=1, farms=3, city=False)
    state["prov"]["swabia"]["units"] = dict.fromkeys(UNITS, 0)
    for here in state["prov"].values():  # every infantry of seat 1 on the board: supply empty
        if here["owner"] == 1 and here is not state["prov"]["swabia"]:
            here["units"]["infantry"] += in_supply(state, 1, "infantry")
            break
    assert in_supply(state, 1, "infantry") == 0
    units(state, "bavaria", 0, infantry=4)
    # melee: my four infantry miss (1s), their three Transients roll 3s: hits at level II only
    dice.extend([1, 1, 1, 1, 3, 3, 3])
    state, events = attack(state, "bavaria", "swabia")
    assert dice == []  # 4 + 3 melee dice: three Transients fought
    assert "adds 3 Transient infantry" in texts(events, "HRE-BASE-PVP-02")[0]
    assert not won(events)
    assert "defender 6" in texts(events, "HRE-BASE-BSEQ-11")[0]  # 3 Transients at level 2
    assert state["prov"]["swabia"]["units"] == dict.fromkeys(UNITS, 0)
    assert state["prov"]["swabia"]["owner"] == 1
    assert in_supply(state, 1, "infantry") == 0


def test_HRE_COMP_08_wounds_are_tracked_on_units(dice: list[int]) -> None:
    """HRE-COMP-08: damage short of a unit's armour stays on that unit through the battle (the
    markers' job on the table) and everyone sees it: a cavalry (armour 2) hit in the Charge
    carries its wound into the Melee, where a second hit kills it. (The base game's Barbarian
    units have armour 1, so a hit on one is a kill; the same per-unit damage serves them.)"""
    state = arena()
    units(state, "bavaria", 0, infantry=2, cavalry=1)
    units(state, "swabia", 1, infantry=1, cavalry=1)
    # charge: my cavalry misses, theirs hits; melee: mine all miss, their infantry hits
    dice.extend([1, 6, 1, 1, 1, 6, 1])
    state, _ = attack(state, "bavaria", "swabia")

    def hit_cavalry(state: State) -> State:
        sides = battle_frame(state)["sides"][0]
        cav = next(a for a in actions(state) if sides[a["hit"]]["t"] == "cavalry")
        return act(state, cav)[0]

    assert top(state)["kind"] == "assign" and top(state)["seat"] == 1  # the Charge's hit
    state = hit_cavalry(state)
    assert top(state)["kind"] == "assign" and top(state)["seat"] == 1  # the Melee's hit
    cav = next(u for u in battle_frame(state)["sides"][0] if u["t"] == "cavalry")
    assert cav["d"] == 1 and not cav["dead"]
    for viewer in (0, 1, None):
        shown = ENGINE.view(state, viewer)["battle"]
        assert any(u["t"] == "cavalry" and u["d"] == 1 for u in shown["sides"][0])
    state = hit_cavalry(state)
    assert dice == []
    assert state["prov"]["bavaria"]["units"]["cavalry"] == 0  # it died of its second wound


def _keep_position() -> State:
    state = arena()
    units(state, "bavaria", 0, infantry=2)
    units(state, "swabia", 1, infantry=1)
    state["prov"]["swabia"]["keep"] = 2
    return state


def test_HRE_BASE_BUILD_17_keep_melee_bonus_defender_result_and_final_score(
    dice: list[int],
) -> None:
    """HRE-BASE-BUILD-17: a level-2 Keep (a) raises its owner's melee dice in its own province:
    the defender's 3 hits with +1 per die up to 2; (b) adds its level to the defender's Battle
    Result in the contested province; (c) scores at the end its level for each neighbouring province its owner controls."""
    state = _keep_position()
    # melee: my two infantry roll 1s; the defending infantry rolls a 3 and is raised to a hit
    dice.extend([1, 1, 3])
    state, events = attack(state, "bavaria", "swabia")
    while top(state)["kind"] == "assign":
        state, more = act(state, actions(state)[0])
        events += more
    result = texts(events, "HRE-BASE-BSEQ-11")[0]
    assert "defender 3" in result  # one infantry at level 1 plus the Keep's 2
    assert "attacker 1" in result  # the raised 3 killed one of mine

    # (c) at the end: the Keep's level for each neighbouring province its owner controls
    near = neighbours(state, "swabia")  # Bavaria and Lombardy at 2 players
    assert len(near) == 2
    for prov in near:
        state["prov"][prov]["owner"] = 1
    ctx = Ctx(state)
    assert scoring.keep_vp(ctx, 1, "swabia") == 2 * 2
    flat = copy.deepcopy(state)
    flat["prov"]["swabia"]["keep"] = 0
    assert scoring.breakdown(ctx, 1)["keeps"] - scoring.breakdown(Ctx(flat), 1)["keeps"] == 4
