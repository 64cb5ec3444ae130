"""Instant windows and LIFO, cancelled combats, Armor blocks, and no arming during combat."""

from __future__ import annotations

from rules.feudal.state import Ctx
from tests.rules.feudal.helpers import (
    act,
    action_phase,
    actions,
    blank,
    duel,
    field,
    fight,
    give,
    pass_windows,
    top,
    uid_of,
)


def at_react(mode: str = "duel", players: int = 2) -> dict[str, object]:
    """Seat 0 attacks seat 1's Dumping Grounds with Bane; the reaction window is open."""
    state = blank(duel(mode=mode, players=players), ld=6)
    field(state, 0, "bane")
    field(state, 1, "looter")
    give(state, 0, ["training"])
    state, _ = act(action_phase(state, 0), {"do": "attack", "target": 1})
    assert {"do": "attack", "target": 1} not in actions(state)  # FL-COMBAT-PRE-01: announced
    state, _ = act(state, {"do": "add", "uid": uid_of(state, 0, "bane")})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "none"})
    state, _ = act(state, {"loc": 0})
    return state


def test_fl_inst_05_last_played_takes_effect() -> None:
    """FL-INST-05, FL-INST-04: Smoke Screen answered by Fall Back: Fall Back resolves first and wins;
    the contradicting Smoke Screen does nothing."""
    state = at_react()
    give(state, 1, ["smoke_screen"])
    give(state, 0, ["fall_back"])
    state, _ = act(state, {"do": "instant", "card": "smoke_screen", "target": None})
    state, _ = act(state, {"do": "instant", "card": "fall_back", "target": 2})
    state = pass_windows(state)
    assert fight(state)["site"] == "loc" and fight(state)["loc"] == 2
    assert (
        "smoke_screen" in state["seats"][1]["discard"]
        and "fall_back" in state["seats"][0]["discard"]
    )


def test_fl_combat_pre_08_stand_down_cancels_the_combat() -> None:
    """FL-COMBAT-PRE-08, FL-INST-07 (A-36): no DF or CC; the attack pool returns; it used the combat."""
    state = at_react()
    give(state, 1, ["stand_down"])
    state, _ = act(state, {"do": "instant", "card": "stand_down", "target": None})
    state = pass_windows(state)
    assert top(state)["kind"] == "action" and [c["card"] for c in state["seats"][0]["area"]] == [
        "bane"
    ]
    assert state["seats"][0]["vp"] == 0 and not [
        a for a in actions(state) if a.get("do") == "attack"
    ]


def test_fl_inst_06_a_third_player_may_play_instants() -> None:
    """FL-INST-06, FL-MP-14: in a three-player game seat 2 is asked at the reaction window too."""
    state = at_react("melee", 3)
    give(state, 2, ["sabotage"])
    assert top(state)["order"] == [1, 2, 0]
    state, _ = act(state, {"do": "pass"})
    state["seats"][0]["sup"] = 4
    state, _ = act(state, {"do": "instant", "card": "sabotage", "target": 0})
    assert {"do": "exchange"} not in actions(state, 0)  # FL-GEN-13: no exchange against the loss
    state = pass_windows(state)
    assert state["seats"][0]["sup"] == 2


def test_fl_act_02_no_arming_during_combat() -> None:
    """FL-ACT-02, FL-SUPPLY-01: while a combat runs, no prompt offers arming or Supply cards."""
    state = at_react()
    give(state, 0, ["light_blade", "water_cache"])
    state["seats"][0]["sup"] = 6
    for seat in (0, 1):
        assert not [a for a in actions(state, seat) if a.get("do") in ("arm", "supply")]


def test_fl_combat_cc_07_armor_blocks_before_normal_blocks(rig: list[int]) -> None:
    """FL-COMBAT-CC-07, FL-ARM-10 (A-05, A-08): Scrap Armor's 10 blocks one of two hits; the normal
    block roll then removes the other."""
    state = blank(duel())
    from rules.feudal.close_combat import _blocks

    combat = {
        "a": [],
        "d": [
            {
                "uid": 1,
                "card": "looter",
                "skills": [],
                "weapons": ["scrap_armor"],
                "owner": 1,
                "hits": 2,
                "wounds": 0,
                "m": None,
                "sup": None,
                "tgt": None,
            }
        ],
        "boost": {"a": {}, "d": {}},
        "fight": "intervention",
        "site": "open",
    }
    rig += [10, 10]
    _blocks(Ctx(state), combat, "d")
    assert combat["d"][0]["hits"] == 0 and rig == []


def test_fl_mp_07_instant_boosts_last_one_fight() -> None:
    """FL-MP-07, FL-MP-11 (A-29): a boost bought in an intervention fight is gone in the next fight."""
    from rules.feudal.multiplayer import new_fight

    bane = {
        "uid": 1,
        "card": "bane",
        "skills": [],
        "weapons": [],
        "owner": 0,
        "hits": 0,
        "wounds": 0,
        "m": 7,
        "sup": None,
        "tgt": 7,
        "hit_by": 1,
    }
    combat = {
        "a": [bane],
        "d": [],
        "boost": {"a": {"df": 1}, "d": {"cc_hit": 1}},
        "fight": "intervention",
    }
    new_fight(combat, 2, "target")
    assert (
        combat["boost"] == {"a": {}, "d": {}} and combat["fight"] == "target" and combat["def"] == 2
    )
    assert bane["m"] is None and bane["tgt"] is None and bane["hit_by"] is None


def test_fl_inst_04_a_window_opens_before_end_combat(rig: list[int]) -> None:
    """FL-INST-04, FL-INST-06 (A-21, §5.2): once the fighting is over every seat may still play an
    Instant before End Combat; Richard drains Peter's Sup there."""
    state = at_react()
    give(state, 1, ["sabotage"])
    state = pass_windows(state)
    state, _ = act(state, {"do": "add", "uid": uid_of(state, 1, "looter")})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "none"})
    rig += [11, 2]  # Bane's DF 11: two hits kill Looter; Looter misses
    state = pass_windows(state, 2)
    assert top(state)["kind"] == "window" and top(state)["stop"] == "before_end" and rig == []
    state["seats"][0]["sup"] = 3
    state, _ = act(state, {"do": "pass"})
    state, _ = act(state, {"do": "instant", "card": "sabotage", "target": 0})
    rig.append(6)  # Peter's Control/VP roll
    state = pass_windows(state)
    assert state["seats"][0]["sup"] == 1 and top(state)["kind"] == "action"


def test_fl_team_03_sabotage_never_targets_a_partner() -> None:
    """FL-TEAM-03, FL-TEAM-04, FL-INST-06: in team play Sabotage is offered against the two rivals only."""
    state = blank(duel(mode="teams", players=4), ld=3)
    give(state, 0, ["sabotage"])
    targets = {a["target"] for a in actions(action_phase(state, 0)) if a.get("card") == "sabotage"}
    assert targets == {1, 3}
