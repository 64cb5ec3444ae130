"""Battles: against Barbarians (HRE-BASE-BARB), against opponents (HRE-BASE-PVP), and the
sequence of phases, hits and the Battle Result (HRE-BASE-BSEQ).

Dice are rigged with the `dice` fixture: each phase rolls the attacker's dice, then the
defender's, unit by unit in the order infantry, archer, cavalry (a defender's Transient
Farm infantry and City archer come after its own units). A test asserting `dice == []` at
the end checks that exactly that many dice were rolled.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.hre import ENGINE, battle, outcome
from rules.hre.state import UNITS, Ctx, army_limit, in_supply
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

Events = list[dict[str, Any]]


def arena() -> State:
    """Arnulf (seat 0, Capital Bavaria, emptied) against Berengar (seat 1, Capital Ivrea);
    no Barbarians, no resources, high Army limits."""
    state = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(state)
    units(state, "bavaria", 0)
    for seat in (0, 1):
        give(state, seat, wood=0, leather=0, stone=0, iron=0)
        state["seats"][seat].update(farms_track=1, farms_boxed=10)  # Army limit 10
    return state


def barbarian(state: State, prov: str, token: str, face: str = "units") -> None:
    """Put a given Barbarian token on a province."""
    state["box_tokens"].remove(token)
    units(state, prov, None)
    state["prov"][prov]["barb"] = {"token": token, "face": face}


def attack(state: State, src: str, dest: str, seat: int = 0) -> tuple[State, Events]:
    """A Manoeuvre moving everything in `src` into `dest`; returns the state at the next
    decision."""
    turn_of(state, seat)
    slot = next(i for i, s in enumerate(state["slots"]) if s["action"] == "manoeuvre")
    events: Events = []
    state, ev = act(state, {"do": "noble", "slot": slot})
    events += ev
    moving = dict(state["prov"][src]["units"])
    state, ev = act(state, {"from": src, "to": dest})
    events += ev
    for unit in UNITS:
        if moving[unit] and top(state)["kind"] == "move_count":
            state, ev = act(state, {"count": moving[unit]})
            events += ev
    return state, events


def assign_all(state: State, events: Events, prefer: list[str] | None = None) -> State:
    """Answer every hit assignment, taking the first preferred unit type offered."""
    while top(state)["kind"] == "assign":
        options = actions(state)
        pick = options[0]
        side = battle_frame(state)["sides"][1 - top(state)["side"]]
        for kind in prefer or []:
            found = [o for o in options if side[o["hit"]]["t"] == kind]
            if found:
                pick = found[0]
                break
        state, ev = act(state, pick)
        events += ev
    return state


def battle_frame(state: State) -> dict[str, Any]:
    frame: dict[str, Any] = next(f for f in reversed(state["stack"]) if f["kind"] == "battle")
    return frame


def texts(events: Events, rule: str) -> list[str]:
    return [str(e["public"]) for e in events if e["rule"] == rule]


def won(events: Events) -> bool:
    return "the attacker wins" in texts(events, "HRE-BASE-BSEQ-11")[0]


# =========================================================================== Barbarians


def test_HRE_BASE_BARB_01_02_08_12_a_win_flips_the_token_takes_the_trophy(dice: list[int]) -> None:
    """HRE-BASE-BARB-01 / HRE-BASE-BARB-02 / HRE-BASE-BARB-08 / HRE-BASE-BARB-12: entering a
    Barbarian province starts a battle; a
    reward-side token is flipped; the win puts it on the trophy track (the first scores 0 VP),
    gains its reward (B01: 1 Gold), and the survivors hold the province."""
    state = arena()
    units(state, "bavaria", 0, infantry=2)
    barbarian(state, "swabia", "B01", face="reward")
    dice.extend([6, 6, 1])  # melee: attacker 6 6, Barbarian infantry 1
    state, events = attack(state, "bavaria", "swabia")
    assert texts(events, "HRE-BASE-BARB-02")
    assert won(events)
    me = state["seats"][0]
    assert me["trophies"] == ["B01"] and me["vp"] == 0 and me["gold"] == 2
    assert state["prov"]["swabia"]["barb"] is None
    assert state["prov"]["swabia"]["owner"] == 0
    assert state["prov"]["swabia"]["units"] == {"infantry": 2, "archer": 0, "cavalry": 0}
    assert dice == []


def test_HRE_BASE_BARB_03_barbarian_archers_volley_on_5(dice: list[int]) -> None:
    """HRE-BASE-BARB-03: Barbarian units use the Barbarian card: their archer needs 5 to volley
    (a level-I player archer would hit on 4)."""
    state = arena()
    units(state, "bavaria", 0, infantry=2)
    barbarian(state, "swabia", "B03")  # 1 archer
    dice.extend([4, 6, 1, 1])  # volley: Barbarian 4; melee: attacker 6 1, Barbarian 1
    state, events = attack(state, "bavaria", "swabia")
    assert won(events)
    assert state["prov"]["swabia"]["units"]["infantry"] == 2  # the 4 missed
    assert dice == []


def test_HRE_BASE_BARB_03_barbarian_cavalry_has_armour_1(dice: list[int]) -> None:
    """HRE-BASE-BARB-03: one hit kills Barbarian cavalry (armour 1 on the Barbarian card)."""
    state = arena()
    units(state, "bavaria", 0, infantry=1)
    barbarian(state, "swabia", "B09")  # 1 cavalry
    dice.extend([1, 4, 1])  # charge: Barbarian 1; melee: attacker 4, Barbarian 1
    state, events = attack(state, "bavaria", "swabia")
    assert "attacker 1, defender 0" in texts(events, "HRE-BASE-BSEQ-11")[0]
    assert state["seats"][0]["trophies"] == ["B09"]


@pytest.mark.parametrize(
    ("held", "extra"),
    [
        (0, None),
        (1, "infantry"),
        (2, "archer"),
        (3, "cavalry"),
        (5, "cavalry"),
    ],
)
def test_HRE_BASE_BARB_04_tc27_one_extra_unit_by_trophies(held: int, extra: str | None) -> None:
    """HRE-BASE-BARB-04 (TC-27): 0 trophies no extra; 1 +Infantry; 2 +Archer; 3 or more
    +Cavalry, only one extra unit, all Transient."""
    state = arena()
    state["seats"][0]["trophies"] = [state["box_tokens"].pop() for _ in range(held)]
    barbarian(state, "swabia", "B01")
    ctx = Ctx(state)
    battle.start(ctx, 0, "bavaria", "swabia", {"infantry": 1})
    army = battle_frame(state)["sides"][1]
    assert [u["t"] for u in army] == ["infantry"] + ([extra] if extra else [])
    assert all(u["tr"] and u["own"] is None for u in army)


@pytest.mark.parametrize(("held", "vp"), [(0, 0), (1, 2), (2, 3), (3, 4), (4, 4)])
def test_HRE_BASE_BARB_05_tc27_win_vp_by_trophies(dice: list[int], held: int, vp: int) -> None:
    """HRE-BASE-BARB-05 / HRE-BASE-BARB-08 (TC-27): a win scores 0, 2, 3, 4, 4 VP with 0, 1, 2,
    3, 4 trophies already held (the bottom space repeats once the track is full)."""
    state = arena()
    state["seats"][0]["trophies"] = [state["box_tokens"].pop() for _ in range(held)]
    units(state, "bavaria", 0, infantry=3)
    barbarian(state, "swabia", "B01")
    extra = [None, "infantry", "archer", "cavalry", "cavalry"][held]
    dice.extend([1] if extra == "archer" else [])  # volley
    dice.extend([1] if extra == "cavalry" else [])  # charge
    dice.extend([6, 6, 6] + [1] * (2 if extra else 1))  # melee
    state, events = attack(state, "bavaria", "swabia")
    state = assign_all(state, events)
    assert won(events)
    assert state["seats"][0]["vp"] == vp
    assert len(state["seats"][0]["trophies"]) == held + 1
    assert dice == []


def test_HRE_BASE_BARB_06_the_attacker_uses_its_top_technology(dice: list[int]) -> None:
    """HRE-BASE-BARB-06: level II Infantry (C059, melee 3) hits on a 3 against Barbarians."""
    state = arena()
    state["seats"][0]["mil"]["infantry"] = {"card": "C059", "half": 0}
    units(state, "bavaria", 0, infantry=1)
    barbarian(state, "swabia", "B01")
    dice.extend([3, 1])
    state, events = attack(state, "bavaria", "swabia")
    assert "attacker 2, defender 0" in texts(events, "HRE-BASE-BSEQ-11")[0]


def test_HRE_BASE_BARB_07_tie_loses_AMB_16_token_back_unit_side_up(dice: list[int]) -> None:
    """HRE-BASE-BARB-07 / HRE-BASE-BSEQ-09: both infantry kill each other at once: 0 against 0 is
    a loss. AMB-16: the token goes back unit side up, at full strength."""
    state = arena()
    units(state, "bavaria", 0, infantry=1)
    barbarian(state, "swabia", "B01", face="reward")
    dice.extend([6, 6])
    state, events = attack(state, "bavaria", "swabia")
    assert "attacker 0, defender 0" in texts(events, "HRE-BASE-BSEQ-11")[0]
    assert not won(events)
    assert state["prov"]["swabia"]["barb"] == {"token": "B01", "face": "units"}
    assert state["seats"][0]["trophies"] == []
    assert state["prov"]["bavaria"]["units"]["infantry"] == 0


def test_HRE_BASE_BARB_07_a_higher_result_wins_even_with_barbarians_alive(dice: list[int]) -> None:
    """HRE-BASE-BARB-07: 3 against 2 wins though both Barbarians survive."""
    state = arena()
    units(state, "bavaria", 0, infantry=3)
    barbarian(state, "swabia", "B04")  # 2 infantry
    dice.extend([1, 1, 1, 1, 1])
    state, events = attack(state, "bavaria", "swabia")
    assert won(events)
    assert state["prov"]["swabia"]["owner"] == 0 and state["prov"]["swabia"]["barb"] is None
    assert state["seats"][0]["trophies"] == ["B04"]


def test_HRE_BASE_BARB_08_reward_of_resources(dice: list[int]) -> None:
    """HRE-BASE-BARB-08: after the trophy VP, the token's reward (B02: 1 wood, 1 stone)."""
    state = arena()
    state["seats"][0]["trophies"] = [state["box_tokens"].pop()]
    units(state, "bavaria", 0, infantry=2)
    barbarian(state, "swabia", "B02")  # 1 infantry, +1 Transient infantry for 1 trophy
    dice.extend([6, 6, 1, 1])
    state, events = attack(state, "bavaria", "swabia")
    me = state["seats"][0]
    assert me["vp"] == 2 and me["res"]["wood"] == 1 and me["res"]["stone"] == 1


def test_HRE_BASE_BARB_09_take_another_turn(dice: list[int]) -> None:
    """HRE-BASE-BARB-09: once the turn is over, the same player takes another full turn; then
    play goes on clockwise."""
    state = arena()
    units(state, "bavaria", 0, infantry=4)
    barbarian(state, "carinthia", "B12")  # 1 inf, 1 archer, 1 cav; reward: another turn
    dice.extend([1, 1, 6, 6, 6, 6, 1, 1, 1])  # volley, charge, melee 4 + 3
    state, events = attack(state, "bavaria", "carinthia")
    state = assign_all(state, events)
    assert won(events)
    assert top(state)["kind"] == "turn" and top(state)["phase"] == "after"
    state, _ = act(state, {"do": "end"})
    assert top(state)["kind"] == "turn" and top(state)["seat"] == 0
    assert top(state)["phase"] == "start" and top(state)["extra"] == 0
    state, _ = act(state, {"do": "pass"})
    assert top(state)["seat"] == 1


def test_HRE_BASE_BARB_10_loser_retreats_to_origin(dice: list[int]) -> None:
    """HRE-BASE-BARB-10: on a loss, surviving units go back to the province they came from."""
    state = arena()
    units(state, "bavaria", 0, infantry=2)
    barbarian(state, "swabia", "B04")
    dice.extend([6, 1, 6, 1])  # one dies on each side: 1 against 1
    state, events = attack(state, "bavaria", "swabia")
    assert not won(events)
    assert state["prov"]["bavaria"]["units"]["infantry"] == 1
    assert state["prov"]["swabia"]["owner"] is None


def test_HRE_BASE_BARB_11_transient_barbarians_leave_nothing_behind(dice: list[int]) -> None:
    """HRE-BASE-BARB-11: whatever the result, the Transient units go back to the supply."""
    state = arena()
    state["seats"][0]["trophies"] = [state["box_tokens"].pop()]  # +1 Transient infantry
    units(state, "bavaria", 0, infantry=1)
    barbarian(state, "swabia", "B01")
    dice.extend([1, 6, 1])
    state, events = attack(state, "bavaria", "swabia")
    assert not won(events)
    assert state["prov"]["swabia"]["units"] == {"infantry": 0, "archer": 0, "cavalry": 0}
    assert state["prov"]["swabia"]["barb"] == {"token": "B01", "face": "units"}
    assert all(f["kind"] != "battle" for f in state["stack"])


def test_HRE_BASE_BARB_13_AMB_17_barbarian_hits_are_assigned_automatically(dice: list[int]) -> None:
    """HRE-BASE-BARB-13 (AMB-17): no player is asked; the priority kills the infantry (1 armour
    left) rather than wound the cavalry."""
    state = arena()
    units(state, "bavaria", 0, infantry=1, cavalry=1)
    barbarian(state, "swabia", "B01")
    dice.extend([1, 1, 1, 6])  # charge: cav 1; melee: inf 1, cav 1; Barbarian 6
    state, events = attack(state, "bavaria", "swabia")
    assert top(state)["kind"] == "turn"  # no assignment prompt
    assert state["prov"]["bavaria"]["units"] == {"infantry": 0, "archer": 0, "cavalry": 1}


def test_auto_target_priority_kills_wounded_before_wounding() -> None:
    """HRE-BASE-BARB-13 (AMB-17, M01-GEN-02): a wounded cavalry is finished before a fresh one."""
    state = arena()
    ctx = Ctx(state)
    army = [
        {"t": "cavalry", "tr": False, "own": 0, "d": 0, "p": 0, "dead": False},
        {"t": "cavalry", "tr": False, "own": 0, "d": 1, "p": 0, "dead": False},
    ]
    assert battle.auto_target(ctx, army, 0) == 1


# =========================================================================== opponents


def farms(state: State, seat: int, prov: str, n: int) -> None:
    """Put n Farms of the seat in a province (taken from its Farm track)."""
    state["prov"][prov]["farms"] += n
    state["prov"][prov]["owner"] = seat
    state["seats"][seat]["farms_track"] -= n


def test_HRE_BASE_PVP_01_AMB_26_a_farm_alone_is_defended(dice: list[int]) -> None:
    """HRE-BASE-PVP-01 / AMB-26 / HRE-BASE-PVP-06 / HRE-BASE-PVP-07: a Farm-only province still
    fights with its Transient infantry; on a loss the Farm goes back to the track (Army limit
    down) and Revanchism may place a free infantry in the Capital."""
    state = arena()
    units(state, "bavaria", 0, infantry=2)
    state["seats"][1]["farms_track"] = 10
    farms(state, 1, "swabia", 1)
    limit = army_limit(state, 1)
    dice.extend([6, 1, 1])  # melee: attacker 6 1; Transient infantry 1
    state, events = attack(state, "bavaria", "swabia")
    assert won(events) and dice == []
    assert state["prov"]["swabia"]["farms"] == 0 and state["prov"]["swabia"]["owner"] == 0
    assert state["seats"][1]["farms_track"] == 10
    assert army_limit(state, 1) < limit
    assert top(state)["kind"] == "revanchism" and top(state)["seat"] == 1
    assert actions(state) == [{"infantry": 0}, {"infantry": 1}]
    state, events = act(state, {"infantry": 1})
    assert state["prov"]["ivrea"]["units"]["infantry"] == 3
    assert not texts(events, "HRE-BASE-RECRUIT-01")  # not a Recruit


def test_HRE_BASE_PVP_02_tc32_non_capital_conquest(dice: list[int]) -> None:
    """HRE-BASE-PVP-02 / HRE-BASE-PVP-06 / HRE-BASE-PVP-07 / HRE-BASE-PVP-08 / HRE-BASE-PVP-13
    (TC-32): 2 Farms and a City add 2 Transient
    infantry and a Transient archer; on the win both Farms return (the Army limit drops two
    spaces), up to 2 free infantry go to the Capital, and the City, buildings, Church and Keep
    (AMB-19) pass to the attacker."""
    state = arena()
    units(state, "bavaria", 0, infantry=4)
    state["seats"][1]["farms_track"] = 10
    farms(state, 1, "swabia", 2)
    state["prov"]["swabia"].update(city=True, bld=["leather", "wood"], church=True, keep=1)
    state["cities"] -= 1
    state["churches"] += 1
    space = 11 - state["seats"][1]["farms_track"]
    # volley: the Transient archer; melee: 4 attacker dice, then 2 infantry + 1 archer
    dice.extend([1, 6, 6, 6, 6, 1, 1, 1])
    state, events = attack(state, "bavaria", "swabia")
    state = assign_all(state, events)
    assert won(events) and dice == []
    assert "2 Transient infantry" in texts(events, "HRE-BASE-PVP-02")[0]
    assert 11 - state["seats"][1]["farms_track"] == space - 2
    swabia = state["prov"]["swabia"]
    assert swabia["owner"] == 0 and swabia["farms"] == 0
    assert swabia["city"] and swabia["bld"] == ["leather", "wood"] and swabia["church"]
    assert swabia["keep"] == 1
    assert swabia["units"] == {"infantry": 4, "archer": 0, "cavalry": 0}
    assert actions(state) == [{"infantry": 0}, {"infantry": 1}, {"infantry": 2}]
    state, _ = act(state, {"infantry": 2})
    assert state["prov"]["ivrea"]["units"] == {"infantry": 4, "archer": 0, "cavalry": 0}


def test_HRE_BASE_PVP_03_BSEQ_12_defender_uses_its_own_levels(dice: list[int]) -> None:
    """HRE-BASE-PVP-03 / HRE-BASE-BSEQ-12: the defender's level II Infantry (melee 3) hits on a
    3, and its Transient Farm infantry counts level 2 in the Battle Result."""
    state = arena()
    state["seats"][1]["mil"]["infantry"] = {"card": "C059", "half": 0}
    units(state, "bavaria", 0, infantry=3)
    farms(state, 1, "swabia", 1)
    dice.extend([1, 1, 1, 3])  # melee: attacker misses; Transient infantry rolls 3
    state, events = attack(state, "bavaria", "swabia")
    state = assign_all(state, events)
    assert "attacker 2, defender 2" in texts(events, "HRE-BASE-BSEQ-11")[0]
    assert not won(events)
    assert state["prov"]["bavaria"]["units"]["infantry"] == 2


def test_HRE_BASE_PVP_04_PVP_12_a_tie_loses_and_the_attacker_goes_back(dice: list[int]) -> None:
    """HRE-BASE-PVP-04 / HRE-BASE-PVP-12: 1 against 1 is an attacker loss; its survivors return
    to the origin and the defender keeps the province."""
    state = arena()
    units(state, "bavaria", 0, infantry=1)
    units(state, "swabia", 1, infantry=1)
    dice.extend([1, 1])
    state, events = attack(state, "bavaria", "swabia")
    assert not won(events)
    assert state["prov"]["bavaria"]["units"]["infantry"] == 1
    assert state["prov"]["swabia"]["owner"] == 1
    assert state["prov"]["swabia"]["units"]["infantry"] == 1


def test_HRE_BASE_PVP_05_defender_chooses_where_to_retreat(dice: list[int]) -> None:
    """HRE-BASE-PVP-05: surviving defenders go to a neighbouring province their owner controls,
    chosen by the defender."""
    state = arena()
    units(state, "bavaria", 0, infantry=4)
    units(state, "verona", 1, cavalry=1)
    units(state, "lombardy", 1, infantry=1)
    units(state, "tuscany", 1, infantry=1)
    dice.extend([1, 1, 1, 1, 1, 1])  # charge: cav; melee: 4 attacker, 1 cav
    state, events = attack(state, "bavaria", "verona")
    assert won(events)
    assert top(state)["kind"] == "retreat" and top(state)["seat"] == 1
    assert actions(state) == [{"to": "lombardy"}, {"to": "tuscany"}]
    state, _ = act(state, {"to": "tuscany"})
    assert state["prov"]["tuscany"]["units"] == {"infantry": 1, "archer": 0, "cavalry": 1}
    assert state["prov"]["verona"]["owner"] == 0


def test_HRE_BASE_PVP_05_no_province_to_retreat_to_kills_them(dice: list[int]) -> None:
    """HRE-BASE-PVP-05: with no neighbouring province of their own, the survivors are killed."""
    state = arena()
    units(state, "bavaria", 0, infantry=3)
    units(state, "swabia", 1, cavalry=1)
    dice.extend([1, 1, 1, 1, 1])
    state, events = attack(state, "bavaria", "swabia")
    assert won(events)
    assert in_supply(state, 1, "cavalry") == 5
    assert all(p["units"]["cavalry"] == 0 for p in state["prov"].values())


def tc31(dice: list[int], attacker_rolls: list[int]) -> tuple[State, Events]:
    """TC-31: seat 0 attacks Ivrea, Berengar's Capital (2 infantry, its Farm and City); Army
    limit 6."""
    state = arena()
    units(state, "lombardy", 0, infantry=4)
    state["seats"][1].update(farms_track=5, farms_boxed=6)
    assert army_limit(state, 1) == 6
    give(state, 1, gold=3, wood=1)
    # volley: the Transient archer; melee: 4 attacker dice; 2 infantry + Transient inf + archer
    dice.extend([1, *attacker_rolls, 1, 1, 1, 1])
    return attack(state, "lombardy", "ivrea")


def test_HRE_BASE_PVP_10_tc31_capital_assault(dice: list[int]) -> None:
    """HRE-BASE-PVP-09 / HRE-BASE-PVP-10 / HRE-BASE-PVP-11 / HRE-BASE-PVP-13 (TC-31): a win at a
    Capital with Army limit 6 scores
    6 VP, takes 1 Gold or resource, and the attackers go back; the defender keeps the Capital,
    its Farm and its surviving units (Transients leave)."""
    state, events = tc31(dice, [6, 6, 1, 1])
    state = assign_all(state, events, prefer=["archer", "infantry"])
    assert won(events)
    assert state["seats"][0]["vp"] == 6
    assert top(state)["kind"] == "loot" and top(state)["seat"] == 0
    assert actions(state) == [{"take": "gold"}, {"take": "wood"}]
    state, _ = act(state, {"take": "gold"})
    assert (state["seats"][0]["gold"], state["seats"][1]["gold"]) == (2, 2)
    assert state["prov"]["lombardy"]["units"]["infantry"] == 4
    ivrea = state["prov"]["ivrea"]
    assert ivrea["owner"] == 1 and ivrea["farms"] == 1 and ivrea["city"]
    assert ivrea["units"]["archer"] == 0 and 1 <= ivrea["units"]["infantry"] <= 2


def test_HRE_BASE_PVP_09_AMB_28_nothing_to_take(dice: list[int]) -> None:
    """HRE-BASE-PVP-09 (AMB-28): a defender with no Gold and no resource loses nothing."""
    state = arena()
    units(state, "lombardy", 0, infantry=4)
    give(state, 1, gold=0)
    dice.extend([1, 6, 6, 6, 6, 1, 1, 1, 1])
    state, events = attack(state, "lombardy", "ivrea")
    state = assign_all(state, events)
    assert won(events)
    assert top(state)["kind"] == "turn"
    assert state["seats"][0]["vp"] == army_limit(state, 1)


def test_HRE_BASE_PVP_12_AMB_18_loss_at_a_capital(dice: list[int]) -> None:
    """HRE-BASE-PVP-12 (AMB-18): the loss rule holds at a Capital too: no VP, back to origin."""
    state = arena()
    units(state, "lombardy", 0, infantry=2)
    dice.extend([1, 1, 1, 1, 1, 1, 1])
    state, events = attack(state, "lombardy", "ivrea")
    assert not won(events)
    assert state["seats"][0]["vp"] == 0
    assert state["prov"]["lombardy"]["units"]["infantry"] == 2
    assert state["prov"]["ivrea"]["units"] == {"infantry": 2, "archer": 0, "cavalry": 0}


def test_HRE_BASE_PVP_13_transients_never_stay(dice: list[int]) -> None:
    """HRE-BASE-PVP-13: the defender's Transient Farm infantry and City archer vanish after a
    defence the defender wins."""
    state = arena()
    units(state, "bavaria", 0, infantry=1)
    farms(state, 1, "swabia", 1)
    state["prov"]["swabia"]["city"] = True
    state["cities"] -= 1
    dice.extend([1, 1, 1, 1])  # volley: archer; melee: 1 attacker, inf + archer
    state, events = attack(state, "bavaria", "swabia")
    assert not won(events)
    assert state["prov"]["swabia"]["units"] == {"infantry": 0, "archer": 0, "cavalry": 0}
    assert state["prov"]["swabia"]["owner"] == 1


def test_HRE_BASE_PVP_07_AMB_27_revanchism_limited_by_supply(dice: list[int]) -> None:
    """HRE-BASE-PVP-07 (AMB-27): at most one infantry per returned Farm, and no more than the
    supply holds; with none in supply nothing is offered."""
    state = arena()
    units(state, "bavaria", 0, infantry=3)
    units(state, "ivrea", 1, infantry=6)
    farms(state, 1, "swabia", 2)
    dice.extend([1, 1, 1, 1, 1])
    state, events = attack(state, "bavaria", "swabia")
    assert won(events)
    assert actions(state) == [{"infantry": 0}, {"infantry": 1}]

    state = arena()
    units(state, "bavaria", 0, infantry=3)
    units(state, "ivrea", 1, infantry=7)
    farms(state, 1, "swabia", 2)
    dice.extend([1, 1, 1, 1, 1])
    state, events = attack(state, "bavaria", "swabia")
    assert won(events)
    assert top(state)["kind"] == "turn"


def test_HRE_BASE_PVP_07_AMB_27_retreating_infantry_are_not_in_supply(dice: list[int]) -> None:
    """HRE-BASE-PVP-07 (AMB-27): survivors retreating to another province are still in play, so
    they leave no room for Revanchism."""
    state = arena()
    units(state, "bavaria", 0, infantry=4)
    units(state, "ivrea", 1, infantry=5)
    units(state, "lombardy", 1, infantry=1)
    units(state, "verona", 1, infantry=1)
    farms(state, 1, "verona", 2)
    dice.extend([1, 1, 1, 1, 1, 1, 1])  # melee: 4 attacker, 1 infantry + 2 Transient
    state, events = attack(state, "bavaria", "verona")
    assert won(events)
    assert state["prov"]["lombardy"]["units"]["infantry"] == 2
    assert in_supply(state, 1, "infantry") == 0
    assert top(state)["kind"] == "turn"  # no empty Revanchism prompt


# =========================================================================== sequence


def test_HRE_BASE_BSEQ_01_02_phases_in_order_every_unit_rolls(dice: list[int]) -> None:
    """HRE-BASE-BSEQ-01 / HRE-BASE-BSEQ-02: Volley, Charge, Melee, then the Battle Result; every
    eligible
    unit of both sides rolls one die in each phase."""
    state = arena()
    units(state, "bavaria", 0, infantry=1, archer=1, cavalry=1)
    barbarian(state, "swabia", "B12")  # 1 of each
    # volley: my archer, their archer; charge: my cav, their cav; melee: 3 and 3
    dice.extend([1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    state, events = attack(state, "bavaria", "swabia")
    order = [e["rule"] for e in events if e["rule"].startswith("HRE-BASE-BSEQ")]
    firsts = [
        order.index(r)
        for r in ("HRE-BASE-BSEQ-03", "HRE-BASE-BSEQ-04", "HRE-BASE-BSEQ-05", "HRE-BASE-BSEQ-11")
    ]
    assert firsts == sorted(firsts)
    assert dice == []


def test_HRE_BASE_BSEQ_03_09_volley_kills_before_melee(dice: list[int]) -> None:
    """HRE-BASE-BSEQ-03 / HRE-BASE-BSEQ-09: archers volley (4+ at level I: 4 hits, 3 misses); a
    unit killed in the Volley does not roll in the Melee."""
    state = arena()
    units(state, "bavaria", 0, archer=2)
    barbarian(state, "swabia", "B01")
    dice.extend([4, 3, 1, 1])  # volley: 4 3; melee: my archers only
    state, events = attack(state, "bavaria", "swabia")
    assert won(events) and dice == []


def test_HRE_BASE_BSEQ_04_charge(dice: list[int]) -> None:
    """HRE-BASE-BSEQ-04: cavalry charge on 4+ at level I; the charged unit does not melee."""
    state = arena()
    units(state, "bavaria", 0, cavalry=1)
    barbarian(state, "swabia", "B01")
    dice.extend([4, 1])  # charge: 4 kills; melee: my cavalry only
    state, events = attack(state, "bavaria", "swabia")
    assert won(events) and dice == []


def test_HRE_BASE_BSEQ_05_keep_bonus_spread_over_melee_dice(dice: list[int]) -> None:
    """HRE-BASE-BSEQ-05: a level-2 Keep in a neighbouring province the attacker controls gives
    +2 in the Melee, one per die: two 3s become two hits."""
    state = arena()
    state["prov"]["bavaria"]["keep"] = 2
    units(state, "carinthia", 0, infantry=2)
    barbarian(state, "verona", "B04")  # Verona neighbours Bavaria
    dice.extend([3, 3, 1, 1])
    state, events = attack(state, "carinthia", "verona")
    assert won(events)
    assert "attacker 2, defender 0" in texts(events, "HRE-BASE-BSEQ-11")[0]


def test_HRE_BASE_BSEQ_05_no_keep_bonus_outside_the_melee_or_the_area(dice: list[int]) -> None:
    """HRE-BASE-BSEQ-05: the same 3s miss with the Keep out of reach (Ivrea is not next to
    Verona)."""
    state = arena()
    state["prov"]["ivrea"].update(keep=2, owner=0)
    state["prov"]["ivrea"]["units"]["infantry"] = 0
    units(state, "carinthia", 0, infantry=2)
    barbarian(state, "verona", "B04")
    dice.extend([3, 3, 1, 1])
    state, events = attack(state, "carinthia", "verona")
    assert not won(events)


@pytest.mark.parametrize(
    ("rolls", "needs", "bonus", "natural", "hits"),
    [
        ([4, 3], [4, 4], 0, False, 1),
        ([3, 2], [4, 4], 1, False, 1),
        ([3, 2], [4, 4], 3, False, 2),
        ([3, 3], [4, 4], 2, False, 2),
        ([2, 3], [4, 4], 2, False, 1),  # the +1s go where they turn a miss
        ([1], [1], 0, False, 0),  # a final 1 always misses
        ([1], [1], 1, False, 1),  # a natural 1 raised to 2 is judged normally (AMB-15)
        ([1], [2], 1, False, 1),
        ([1], [2], 1, True, 0),  # the natural-1 option: a rolled 1 always misses
        ([1, 3], [2, 4], 1, True, 1),
        ([6, 6, 6], [4, 5, 6], 0, False, 3),
    ],
)
def test_HRE_BASE_BSEQ_06_count_hits(
    rolls: list[int], needs: list[int], bonus: int, natural: bool, hits: int
) -> None:
    """HRE-BASE-BSEQ-06 / HRE-BASE-BSEQ-05: battle.count_hits with thresholds, +1s and the 1 rule
    (AMB-15: the final value by default, option natural_one for the natural 1)."""
    assert battle.count_hits(rolls, needs, bonus, natural) == hits


@pytest.mark.parametrize(("option", "win"), [(None, True), ("natural", False)])
def test_HRE_BASE_BSEQ_06_AMB_15_natural_one_option(
    dice: list[int], option: str | None, win: bool
) -> None:
    """HRE-BASE-BSEQ-06 (AMB-15): level II infantry (melee 3) with +2 from a Keep rolls a 1: by
    default 1+2 = 3 hits; with natural_one = "natural" it misses."""
    state = game(
        2, rulers=["arnulf", "berengar"], options={"natural_one": option} if option else None
    )
    clear_barbarians(state)
    give(state, 0, wood=0, leather=0, stone=0, iron=0)
    state["seats"][0]["mil"]["infantry"] = {"card": "C059", "half": 0}
    state["prov"]["bavaria"]["keep"] = 2
    units(state, "bavaria", 0)
    units(state, "carinthia", 0, infantry=1)
    barbarian(state, "verona", "B04")  # 2 infantry
    dice.extend([1, 1, 1])
    state, events = attack(state, "carinthia", "verona")
    assert won(events) is win


def test_HRE_BASE_BSEQ_07_AMB_22_attacker_assigns_no_overkill(dice: list[int]) -> None:
    """HRE-BASE-BSEQ-07 / AMB-22: the rolling side assigns its hits; a unit already doomed is not
    offered while another can still take damage; 2 hits kill the armour-2 cavalry, extra hits
    with no target are lost."""
    state = arena()
    units(state, "bavaria", 0, infantry=4)
    units(state, "swabia", 1, infantry=1, cavalry=1)
    dice.extend([1, 6, 6, 6, 6, 1, 1])  # charge: their cav; melee: 4 hits; their 2 dice
    state, events = attack(state, "bavaria", "swabia")
    assert top(state)["kind"] == "assign" and top(state)["seat"] == 0
    sides = battle_frame(state)["sides"][1]
    kinds = {sides[a["hit"]]["t"] for a in actions(state)}
    assert kinds == {"infantry", "cavalry"}
    inf = next(a for a in actions(state) if sides[a["hit"]]["t"] == "infantry")
    state, _ = act(state, inf)
    # The doomed infantry is no longer a target: the other 3 hits go to the cavalry without a
    # choice, 2 kill it (armour 2) and the last finds no target and is lost.
    assert top(state)["kind"] != "assign"
    assert state["prov"]["swabia"]["owner"] == 0
    assert in_supply(state, 1, "cavalry") == 5


def test_HRE_BASE_BSEQ_07_the_defender_assigns_its_own_hits(dice: list[int]) -> None:
    """HRE-BASE-BSEQ-07: the defender's hits on a mixed army are assigned by the defender."""
    state = arena()
    units(state, "bavaria", 0, infantry=1, cavalry=1)
    units(state, "swabia", 1, infantry=2)
    dice.extend([1, 1, 1, 6, 1])  # charge: my cav; melee: my inf, my cav, their 6 and 1
    state, events = attack(state, "bavaria", "swabia")
    assert top(state)["kind"] == "assign" and top(state)["seat"] == 1
    sides = battle_frame(state)["sides"][0]
    cav = next(a for a in actions(state) if sides[a["hit"]]["t"] == "cavalry")
    state, _ = act(state, cav)
    # the wounded cavalry survives (armour 2); 2 against 2 is a loss; both go home
    assert state["prov"]["bavaria"]["units"] == {"infantry": 1, "archer": 0, "cavalry": 1}


def test_HRE_BASE_BSEQ_08_damage_lasts_the_battle_then_clears(dice: list[int]) -> None:
    """HRE-BASE-BSEQ-08: a cavalry hit in the Charge and again in the Melee dies; one hit once
    survives, and starts its next battle unhurt."""
    state = arena()
    units(state, "bavaria", 0, cavalry=1)
    units(state, "swabia", 1, cavalry=1)
    dice.extend([1, 6, 1, 6])  # charge: mine 1, theirs 6; melee: mine 1, theirs 6
    state, events = attack(state, "bavaria", "swabia")
    assert state["prov"]["bavaria"]["units"]["cavalry"] == 0

    state = arena()
    units(state, "bavaria", 0, cavalry=1)
    units(state, "swabia", 1, infantry=1)
    for _ in range(2):
        dice.extend([1, 1, 6])  # charge: mine 1; melee: mine 1, theirs 6
        state, events = attack(state, "bavaria", "swabia")
        assert not won(events)
        assert state["prov"]["bavaria"]["units"]["cavalry"] == 1


def test_HRE_BASE_BSEQ_10_technologies_in_battle(dice: list[int]) -> None:
    """HRE-BASE-BSEQ-10: an extra melee die (C006 level 1) and cancelled damage (C023 level 1).

    AMB-23: the cancel comes after both sides have assigned their hits, and its owner chooses
    which assigned damage to remove (or keeps it for a later phase).
    """
    state = arena()
    state["seats"][0]["techs"] = [{"card": "C006", "level": 1}, {"card": "C023", "level": 1}]
    units(state, "bavaria", 0, infantry=2)
    barbarian(state, "swabia", "B04")  # 2 infantry
    dice.extend([1, 1, 6, 6, 1])  # melee: my 2 infantry + the extra die; theirs 6 (cancelled), 1
    state, events = attack(state, "bavaria", "swabia")
    assert dice == []
    assert top(state)["kind"] == "cancel_damage"
    labels = [o["label"] for o in ENGINE.prompts(state)[0]["options"]]
    assert labels[-1].startswith("Keep the rest")
    state, more = act(state, actions(state)[0])
    events += more
    assert "attacker 2, defender 1" in texts(events, "HRE-BASE-BSEQ-11")[0]
    assert state["prov"]["swabia"]["units"]["infantry"] == 2


@pytest.mark.parametrize(
    ("techs", "result"),
    [
        ([], "attacker 2, defender 2"),
        ([{"card": "C008", "level": 2}], "attacker 3, defender 2"),  # +1 to own result
        ([{"card": "C021", "level": 3}], "attacker 2, defender 1"),  # -1 to the enemy's
    ],
)
def test_HRE_BASE_BSEQ_10_result_modifiers(
    dice: list[int], techs: list[dict[str, Any]], result: str
) -> None:
    """HRE-BASE-BSEQ-10 / HRE-BASE-BSEQ-11: Technology bonuses and reductions of the Result."""
    state = arena()
    state["seats"][0]["techs"] = techs
    units(state, "bavaria", 0, infantry=2)
    barbarian(state, "swabia", "B04")
    dice.extend([1, 1, 1, 1])
    state, events = attack(state, "bavaria", "swabia")
    assert result in texts(events, "HRE-BASE-BSEQ-11")[0]


def test_HRE_BASE_BSEQ_11_AMB_20_keep_counts_for_the_defender_only(dice: list[int]) -> None:
    """HRE-BASE-BSEQ-11 (AMB-20): the defender adds the contested province's Keep level; the
    attacker's own Keep next door adds nothing to its Result."""
    state = arena()
    state["prov"]["bavaria"]["keep"] = 1
    units(state, "bavaria", 0, infantry=2)
    units(state, "swabia", 1, infantry=1)
    state["prov"]["swabia"].update(city=True, keep=1)
    state["cities"] -= 1
    # volley: City archer; melee: mine (a 1 + 1 from the Keep still misses), theirs
    dice.extend([1, 1, 1, 1, 1])
    state, events = attack(state, "bavaria", "swabia")
    assert "attacker 2, defender 3" in texts(events, "HRE-BASE-BSEQ-11")[0]


def test_HRE_BASE_BSEQ_11_battle_result_function() -> None:
    """HRE-BASE-BSEQ-11 / HRE-BASE-BSEQ-12: outcome.battle_result sums survivors' levels;
    Transients count at the owner's level; Barbarians count 1; the dead count nothing."""
    state = arena()
    state["seats"][1]["mil"]["archer"] = {"card": "C062", "half": 0}  # level II archer
    state["prov"]["swabia"]["keep"] = 2
    ctx = Ctx(state)

    def unit(t: str, own: int | None, tr: bool = False, dead: bool = False) -> dict[str, Any]:
        return {"t": t, "tr": tr, "own": own, "d": 0, "p": 0, "dead": dead}

    frame = {
        "att": 0,
        "def": 1,
        "prov": "swabia",
        "sides": [
            [unit("infantry", 0), unit("cavalry", 0, dead=True)],
            [unit("archer", 1, tr=True), unit("infantry", 1)],
        ],
    }
    assert outcome.battle_result(ctx, frame, 0) == 1
    assert outcome.battle_result(ctx, frame, 1) == 2 + 1 + 2
    frame = {
        "att": 0,
        "def": None,
        "prov": "swabia",
        "sides": [[unit("infantry", 0)], [unit("cavalry", None, tr=True)] * 2],
    }
    assert outcome.battle_result(ctx, frame, 1) == 2
