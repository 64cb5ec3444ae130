"""The rulebook's two-player combat, step by step with its dice (TC-07 to TC-14).

Peter (seat 0, Attack Send 1) attacks Richard (seat 1) with Grinner, Looter and Pastor and
bluffs a Skill as a Victory card; Richard defends the Dumping Grounds with a Lone Brass
carrying the Spinning Spear. Dice are rigged in the order the engine rolls them.
"""

from __future__ import annotations

from typing import Any

from tests.rules.feudal.helpers import (
    PETER,
    RICHARD,
    State,
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


def position() -> State:
    """Peter: Ld 5, Sup 1, three characters and a Training card; Richard: Ld 1, Sup 1, Brass."""
    state = blank(duel())
    state["seats"][PETER].update(ld=5, sup=1)
    state["seats"][RICHARD].update(ld=1, sup=1)
    for cid in ("grinner", "looter", "pastor"):
        field(state, PETER, cid)
    field(state, RICHARD, "brass", weapons=["spinning_spear"])
    give(state, PETER, ["training"])
    return action_phase(state, PETER)


def attack_pool(state: State) -> State:
    """TC-07: Grinner 2 Ld, Looter 1 Ld, Pastor 2 Ld with Attack Send 1."""
    state, _ = act(state, {"do": "attack", "target": RICHARD})
    costs = {a["uid"]: a for a in actions(state) if a.get("do") == "add"}
    assert set(costs) == {uid_of(state, PETER, c) for c in ("grinner", "looter", "pastor")}
    for cid in ("grinner", "looter", "pastor"):
        state, _ = act(state, {"do": "add", "uid": uid_of(state, PETER, cid)})
    return state


def test_tc07_standard_send_costs_control_minus_attack_send() -> None:
    """FL-COMBAT-SEND-02, FL-COMBAT-SEND-03, FL-COMBAT-PRE-02: 2 + 1 + 2 Ld leave Peter Ld 0, Sup 1."""
    state = attack_pool(position())
    assert state["seats"][PETER]["ld"] == 0 and state["seats"][PETER]["sup"] == 1
    assert [c["card"] for c in state["stack"][-2]["a"]] == ["grinner", "looter", "pastor"]
    # Sup 1 cannot be exchanged: the exchange needs 2 Sup (FL-GEN-12).
    assert {"do": "exchange"} not in actions(state)


def test_tc07_only_affordable_characters_are_offered() -> None:
    """FL-COMBAT-SEND-03, FL-GEN-11: with 1 Ld left only Looter (1 Ld) can still be added."""
    state = position()
    state["seats"][PETER]["ld"] = 3
    state, _ = act(state, {"do": "attack", "target": RICHARD})
    state, _ = act(state, {"do": "add", "uid": uid_of(state, PETER, "grinner")})
    adds = [a["uid"] for a in actions(state) if a.get("do") == "add"]
    assert adds == [uid_of(state, PETER, "looter")]
    assert not [a for a in actions(state) if a.get("do") == "lone"]  # FL-COMBAT-SEND-06


def run_to_defense(state: State, rig: list[int], df: list[int]) -> State:
    """TC-08 and TC-09: the bluff, the Dumping Grounds, Brass as Lone Defender for 1 Ld."""
    state = attack_pool(state)
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "down", "card": "training"})
    state, _ = act(state, {"loc": 0})
    state = pass_windows(state)
    rig.append(3)
    state, _ = act(state, {"do": "lone", "uid": uid_of(state, RICHARD, "brass")})
    assert top(state)["cost"] == 1
    state, _ = act(state, {"do": "pay"})
    state, _ = act(state, {"do": "none"})
    rig += df
    return pass_windows(state)


def test_tc08_tc09_bluff_and_lone_defender(rig: list[int]) -> None:
    """FL-COMBAT-VC-02, FL-COMBAT-PRE-03, FL-COMBAT-PRE-04, FL-COMBAT-SEND-04, FL-COMBAT-PRE-09,
    FL-COMBAT-PRE-10, FL-COMBAT-PRE-11: Richard sees one face-down card; Brass costs 4 - 3 = 1 Ld."""
    state = position()
    state = run_to_defense(
        state, rig, [10, 11, 5]
    )  # Peter's DF rolls; Brass's target is then asked
    combat = fight(state)
    assert combat["vc"]["a"] == {"card": "training", "up": False, "seat": PETER}
    assert [c["card"] for c in combat["d"]] == ["brass"]
    assert state["seats"][RICHARD]["ld"] == 0 and combat["loc"] == 0
    from rules.feudal import ENGINE

    seen = ENGINE.view(state, RICHARD)["combat"]["vc"]["a"]
    assert seen == {"seat": PETER, "up": False, "card": None}


def distance_fire(state: State, rig: list[int], grinner_df: int = 10) -> State:
    """TC-10: Peter rolls 10, 11, 5 (all on Brass); Brass shoots Grinner with 11."""
    state = run_to_defense(state, rig, [grinner_df, 11, 5])
    assert top(state)["kind"] == "df_target"  # three possible targets: Richard must choose
    rig.append(11)
    state, _ = act(
        state, {"uid": next(c["uid"] for c in fight(state)["a"] if c["card"] == "grinner")}
    )
    return pass_windows(state)


def test_tc10_distance_fire(rig: list[int]) -> None:
    """FL-COMBAT-DF-01, FL-COMBAT-DF-02, FL-COMBAT-DF-03, FL-COMBAT-DF-04, FL-COMBAT-DF-05,
    FL-COMBAT-DF-06, FL-COMBAT-DF-07, FL-COMBAT-DF-08, FL-COMBAT-DF-09, FL-COMBAT-DF-10, FL-STR-02,
    FL-STR-03: Brass's -1 makes Grinner's 10 a miss; Looter hits once; Grinner dies to 2 hits."""
    state = distance_fire(position(), rig)
    combat = fight(state)
    assert [c["card"] for c in combat["a"]] == ["looter", "pastor"]
    assert combat["d"][0]["wounds"] == 1
    assert combat["dead"]["a"] == [{"card": "grinner", "owner": PETER, "by": RICHARD}]
    assert "grinner" in state["seats"][PETER]["discard"]
    assert rig == []


def test_tc11_tc12_close_combat_round_one(rig: list[int]) -> None:
    """FL-COMBAT-MU-01, FL-COMBAT-MU-03, FL-COMBAT-MU-04, FL-COMBAT-CC-02, FL-COMBAT-CC-03,
    FL-COMBAT-CC-04, FL-COMBAT-CC-05, FL-COMBAT-CC-06, FL-COMBAT-CC-08, FL-COMBAT-CC-10,
    FL-COMBAT-CC-11, FL-COMBAT-CC-12, FL-COMBAT-CC-13, FL-COMBAT-CC-14, FL-STR-04: Looter 9 and
    supporter Pastor 12 put 2 hits on Brass, who blocks one with 8+2; Brass's 11 kills Looter."""
    state = distance_fire(position(), rig)
    looter = next(c["uid"] for c in fight(state)["a"] if c["card"] == "looter")
    brass = fight(state)["d"][0]["uid"]
    rig += [9, 12]
    state, _ = act(state, {"mine": looter, "theirs": brass})  # Pastor can only support
    rig += [8, 11]
    state = pass_windows(state)
    rig += [7, 9]  # Looter's block; then round 2 starts: Pastor's hit roll
    state = pass_windows(state)
    assert rig == []
    combat = fight(state)
    assert combat["round"] == 2
    assert [c["card"] for c in combat["a"]] == ["pastor"]
    assert combat["d"][0]["wounds"] == 2
    assert [d["card"] for d in combat["dead"]["a"]] == ["grinner", "looter"]


def test_tc13_tc14_round_two_and_end_of_combat(rig: list[int]) -> None:
    """FL-COMBAT-MU-06, FL-COMBAT-MU-08, FL-COMBAT-CC-09, FL-COMBAT-CC-15, FL-COMBAT-CC-16,
    FL-COMBAT-CC-01, FL-COMBAT-END-01, FL-COMBAT-END-05, FL-COMBAT-END-06, FL-COMBAT-END-07,
    FL-COMBAT-END-09, FL-COMBAT-END-10, FL-COMBAT-VC-04, FL-COMBAT-VC-06, FL-ARM-09: no sack, the
    bluff is discarded, Richard's Control/VP rolls of 2 and 2 give 1 VP for Grinner only; the Light
    Pistol that Grinner carried goes to the discard pile with him."""
    state = position()
    grinner = next(c for c in state["seats"][PETER]["area"] if c["card"] == "grinner")
    grinner["weapons"].append("light_pistol")  # +1 to DF: 10 - 1 + 1 = 10 would hit, so rig 9
    state["seats"][PETER]["cards"] += 1
    state = distance_fire(state, rig, grinner_df=9)
    assert "light_pistol" in state["seats"][PETER]["discard"]  # FL-ARM-09, already in DF
    looter = next(c["uid"] for c in fight(state)["a"] if c["card"] == "looter")
    rig += [9, 12, 8, 11, 7, 9]
    state, _ = act(state, {"mine": looter, "theirs": fight(state)["d"][0]["uid"]})
    state = pass_windows(state, 2)
    rig += [9, 6, 2, 2]  # Brass blocks, Brass misses; Richard's two Control/VP rolls
    state = pass_windows(state, 3)  # CC round 2's two windows and the one before End Combat
    assert rig == []
    assert top(state)["kind"] == "action" and top(state)["seat"] == PETER
    assert state["seats"][RICHARD]["vp"] == 1 and state["seats"][PETER]["vp"] == 0
    assert state["seats"][RICHARD]["locs"][0]["token"]
    assert "training" in state["seats"][PETER]["discard"]
    assert [c["card"] for c in state["seats"][PETER]["area"]] == ["pastor"]
    brass = state["seats"][RICHARD]["area"][0]
    assert (
        brass["card"] == "brass"
        and brass["weapons"] == ["spinning_spear"]
        and "wounds" not in brass
    )
    assert not [a for a in actions(state) if a.get("do") == "attack"]  # FL-ACT-03


def test_tc12_blocks_never_remove_earlier_wounds(rig: list[int]) -> None:
    """FL-COMBAT-CC-10 (TC-31): Brass's DF wound stays although it blocks in round 1."""
    state = distance_fire(position(), rig)
    assert fight(state)["d"][0]["wounds"] == 1
    looter = next(c["uid"] for c in fight(state)["a"] if c["card"] == "looter")
    rig += [9, 2, 12, 2]  # 1 hit on Brass, blocked twice over; Brass misses
    state, _ = act(state, {"mine": looter, "theirs": fight(state)["d"][0]["uid"]})
    state = pass_windows(state, 2)
    rig += [2, 2]  # round 2: no hits on Brass, so no block roll (FL-COMBAT-CC-09)
    assert fight(state)["d"][0]["wounds"] == 1
    state = pass_windows(state)
    assert fight(state)["d"][0]["wounds"] == 1 and rig == []


def _unused(_: Any) -> None:
    """Keep the import of Any used for type hints of helpers."""
