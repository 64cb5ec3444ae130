"""Combat rules beyond the book's example (TC-25..38), winning, multi-player, teams, solitaire, views."""

from __future__ import annotations

import pytest

from rules.core.canonical import canonical_json
from rules.feudal import ENGINE
from rules.feudal.combatants import successes, thresholds
from rules.feudal.components import solo_rosters
from rules.feudal.handlers import MACHINE
from rules.feudal.scoring import check_end_of_turn
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

PETER, RICHARD = 0, 1


def attack(
    state: dict[str, object], loc: int = 1, vc: dict[str, object] | None = None
) -> dict[str, object]:
    """Peter sends everyone in his area (Standard) at Richard's location `loc`."""
    state, _ = act(action_phase(state, PETER), {"do": "attack", "target": RICHARD})
    for c in list(state["seats"][PETER]["area"]):
        state, _ = act(state, {"do": "add", "uid": c["uid"]})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, vc or {"do": "none"})
    state, _ = act(state, {"loc": loc})
    return state


def test_tc25_tc27_undefended_location_is_sacked_then_resacked() -> None:
    """FL-COMBAT-PRE-12, FL-COMBAT-END-02, FL-COMBAT-END-03, FL-COMBAT-END-04, FL-SUPPLY-07,
    FL-COMBAT-VC-01, FL-COMBAT-VC-03, FL-COMBAT-VC-05: no defense pool, 3 VP plus Plunder's 1 VP,
    the Supply is lost; sacking it again gives 1 VP; Plunder's 2 cards are drawn at the turn's end."""
    state = blank(duel(), ld=6)
    field(state, PETER, "looter")
    give(state, PETER, ["plunder"])
    state["seats"][RICHARD]["locs"][1]["supply"] = "water_cache"
    state["seats"][RICHARD]["cards"] += 1
    state = attack(state, vc={"do": "up", "card": "plunder"})
    state = pass_windows(state)
    state, _ = act(state, {"do": "done"})  # Richard sends nobody
    state, _ = act(state, {"do": "none"})
    state = pass_windows(state)  # the window before End Combat
    me, him = state["seats"][PETER], state["seats"][RICHARD]
    assert me["vp"] == 4 and not him["locs"][1]["token"] and him["locs"][1]["supply"] is None
    assert "water_cache" in him["discard"] and "plunder" in me["discard"] and me["later_draw"] == 2
    state = action_phase(state, PETER)
    state["seats"][PETER]["ld"] = 6
    state = attack(state)
    state = pass_windows(state)
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "none"})
    state = pass_windows(state)
    assert state["seats"][PETER]["vp"] == 5
    state, _ = act(state, {"do": "end"})  # the hand check fills Peter's empty hand to 5
    held = len(state["seats"][PETER]["hand"])
    state, events = act(state, {"do": "keep"})
    assert (
        len(state["seats"][PETER]["hand"]) == held + 2 and state["seats"][PETER]["later_draw"] == 0
    )
    assert [e["rule"] for e in events].count("FL-COMBAT-VC-05") == 1


def forest_fight(smoke: bool) -> dict[str, object]:
    """Peter's Pale Fighter attacks Richard's Forest; Richard may play Smoke Screen, then sends Looter."""
    state = blank(duel(), ld=6)
    field(state, PETER, "pale_fighter")
    field(state, RICHARD, "looter")
    give(state, RICHARD, ["smoke_screen"])
    state = attack(state, loc=2)
    assert (
        top(state)["kind"] == "window" and top(state)["seat"] == RICHARD
    )  # PRE-06: he reacts first
    if smoke:
        state, _ = act(state, {"do": "instant", "card": "smoke_screen", "target": None})
    state = pass_windows(state)
    state, _ = act(state, {"do": "add", "uid": uid_of(state, RICHARD, "looter")})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "none"})
    return state


def test_tc38_the_forest_adds_two_to_every_df_roll(rig: list[int]) -> None:
    """FL-COMBAT-PRE-05, FL-STR-05, FL-STR-08 (TC-38): at the Forest Pale Fighter (9) rolls 7 + 2 = 9
    and hits Looter once; Looter's 6 + 2 = 8 misses with its own DF string (9, 11)."""
    state = forest_fight(smoke=False)
    rig += [7, 6]
    state = pass_windows(state)  # before DF: both fire, then the after-DF window
    combat = fight(state)
    assert combat["site"] == "loc" and combat["d"][0]["hits"] == 1 and combat["a"][0]["hits"] == 0
    assert rig == []


def test_tc26_tc38_in_the_open_no_location_counts_and_nothing_is_sacked(rig: list[int]) -> None:
    """FL-COMBAT-PRE-06, FL-COMBAT-PRE-07, FL-INST-04, FL-INST-07, FL-STR-05 (TC-26, TC-38): Smoke
    Screen moves the fight into the open: Pale Fighter's DF 7 no longer hits, and when CC wipes out
    the defense pool the Forest is not sacked and nobody scores for sacking."""
    state = forest_fight(smoke=True)
    assert fight(state)["site"] == "open"
    # DF 7 and 2 (no hits); CC 1: Pale Fighter 10 (2 hits), Looter blocks 2, strikes 2; Control/VP 6.
    rig += [7, 2, 10, 2, 2, 6]
    state = pass_windows(state, 2)
    assert fight(state)["d"][0]["wounds"] == 0  # 7 in the open misses (9)
    state = pass_windows(state, 3)
    assert rig == [] and top(state)["kind"] == "action"
    assert state["seats"][RICHARD]["locs"][2]["token"] and state["seats"][PETER]["vp"] == 0
    assert "looter" in state["seats"][RICHARD]["discard"]


def test_tc36_a_failed_lone_attempt_leaves_no_pool(rig: list[int]) -> None:
    """FL-COMBAT-SEND-01, FL-COMBAT-SEND-04, FL-COMBAT-SEND-05, FL-COMBAT-SEND-06, FL-COMBAT-SEND-07
    (TC-09 a, TC-36, A-24): Brass rolls 2, costs 2 with Ld 1; nothing is lost and the attack is off.
    By the recommended reading no Ld was spent, so the turn's combat is still unused; with the
    "attempted" option the attempt uses it up."""
    for reading, again in (("spent", True), ("attempted", False)):
        state = blank(duel(options={"aborted_attack": reading}), ld=1)
        field(state, PETER, "brass")
        state, _ = act(action_phase(state, PETER), {"do": "attack", "target": RICHARD})
        rig.append(2)
        state, _ = act(state, {"do": "lone", "uid": uid_of(state, PETER, "brass")})
        assert {"do": "pay"} not in actions(state)
        state, _ = act(state, {"do": "decline"})
        assert state["seats"][PETER]["ld"] == 1 and top(state)["kind"] == "action"
        assert ({"do": "attack", "target": RICHARD} in actions(state)) is again


@pytest.mark.parametrize(("reading", "agains"), [("free", (True, True)), ("once", (True, False))])
def test_a_second_called_off_attack_is_free_unless_the_once_variant_is_on(
    rig: list[int], reading: str, agains: tuple[bool, bool]
) -> None:
    """FL-COMBAT-SEND-06 (A-24): by the book a free abort may be followed by another attack; the
    "once" variant makes the second called-off attack in a turn use the turn's combat."""
    state = blank(duel(options={"repeat_abort": reading}), ld=1)
    field(state, PETER, "brass")
    state = action_phase(state, PETER)
    for again in agains:
        state, _ = act(state, {"do": "attack", "target": RICHARD})
        rig.append(2)
        state, _ = act(state, {"do": "lone", "uid": uid_of(state, PETER, "brass")})
        state, _ = act(state, {"do": "decline"})
        assert ({"do": "attack", "target": RICHARD} in actions(state)) is again


def test_tc09c_exchange_helps_pay_the_lone_cost(rig: list[int]) -> None:
    """FL-COMBAT-SEND-08, FL-GEN-12 (A-25): Sup 2, Ld 1, cost 2: exchange then pay."""
    state = blank(duel(), sup=2, ld=1)
    field(state, PETER, "brass")
    state, _ = act(action_phase(state, PETER), {"do": "attack", "target": RICHARD})
    rig.append(2)
    state, _ = act(state, {"do": "lone", "uid": uid_of(state, PETER, "brass")})
    state, _ = act(state, {"do": "exchange"})
    state, _ = act(state, {"do": "pay"})
    assert [c["card"] for c in fight(state)["a"]] == ["brass"] and state["seats"][PETER]["ld"] == 0


def test_tc28_df_wipe_out_skips_cc(rig: list[int]) -> None:
    """FL-COMBAT-DF-11, FL-COMBAT-END-08 (TC-28, A-17): Bane shoots the lone Looter dead in DF; CC is
    skipped, the location is sacked, and Bane returns without wounds."""
    state = blank(duel(), ld=6)
    field(state, PETER, "bane")
    field(state, RICHARD, "looter")
    state = attack(state, loc=0)
    state = pass_windows(state)
    state, _ = act(state, {"do": "add", "uid": uid_of(state, RICHARD, "looter")})
    state, _ = act(state, {"do": "done"})
    rig += [11, 2]
    state, _ = act(state, {"do": "none"})
    state = pass_windows(state)
    rig.append(6)  # Peter's Control/VP roll for Looter fails
    state = pass_windows(state, 2)  # after DF, then before End Combat
    assert state["seats"][PETER]["vp"] == 3 and top(state)["kind"] == "action"
    assert rig == []  # no CC roll was made: only the two DF rolls and the Control/VP roll
    assert "wounds" not in state["seats"][PETER]["area"][0]


def test_tc32_three_attackers_against_one_defender(rig: list[int]) -> None:
    """FL-COMBAT-MU-01, FL-COMBAT-MU-03, FL-COMBAT-MU-04, FL-COMBAT-MU-05 (TC-32): Peter matches
    Looter against Brass; Richard has nobody left to match, so Pastor and Grinner must support
    Looter-Brass, and only the attacker has supporters."""
    state = blank(duel(), ld=6)
    for cid in ("looter", "pastor", "grinner"):
        field(state, PETER, cid)
    field(state, RICHARD, "brass")
    state = attack(state, loc=0)
    state = pass_windows(state)
    state, _ = act(state, {"do": "add", "uid": uid_of(state, RICHARD, "brass")})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "none"})
    rig += [2, 2, 2, 2]  # nobody hits in DF
    state = pass_windows(state)
    state, _ = act(
        state, {"uid": next(c["uid"] for c in fight(state)["a"] if c["card"] == "grinner")}
    )
    state = pass_windows(state)
    assert top(state)["kind"] == "match" and top(state)["seat"] == PETER and rig == []
    looter, brass = (
        next(c["uid"] for c in fight(state)[s] if c["card"] == n)
        for s, n in (("a", "looter"), ("d", "brass"))
    )
    state, _ = act(state, {"mine": looter, "theirs": brass})
    combat = fight(state)
    assert {c["card"]: c["sup"] for c in combat["a"]} == {
        "looter": None,
        "pastor": looter,
        "grinner": looter,
    }
    assert combat["d"][0]["m"] == looter and combat["d"][0]["sup"] is None


def test_tc33_round_two_attacks_the_former_supporter() -> None:
    """FL-COMBAT-MU-02, FL-COMBAT-MU-07, FL-COMBAT-MU-08 (A-27): A1 whose opponent died is matched
    with D3, the round-1 supporter; A2-D2 stays."""
    state = blank(duel())
    combat = {"kind": "combat", "a": [], "d": [], "round": 1, "mover": "a"}
    a1 = {"uid": 1, "card": "bane", "m": None, "sup": None}
    a2 = {"uid": 2, "card": "looter", "m": 12, "sup": None}
    d2 = {"uid": 12, "card": "brass", "m": 2, "sup": None}
    d3 = {"uid": 13, "card": "grinner", "m": None, "sup": 12}
    a1["m"] = 11  # D1 died
    combat.update(a=[a1, a2], d=[d2, d3], stage="cc_round", att=PETER, **{"def": RICHARD})
    from rules.feudal.handlers import COMBAT_STAGES

    ctx = Ctx(state)
    COMBAT_STAGES["cc_round"](ctx, combat)
    COMBAT_STAGES["cc_match"](ctx, combat)
    assert a1["m"] == 13 and d3["m"] == 1 and a2["m"] == 12 and d3["sup"] is None


def test_tc37_string_additions_and_unclamped_rolls() -> None:
    """FL-STR-02, FL-STR-06, FL-STR-07 (TC-37, A-41, A-42): Bane with Sharpshooter-like (4) scores 2 at 8;
    a 13 meets a 13 threshold."""
    bane = {"card": "bane", "skills": ["sharpshooter"], "weapons": []}
    assert thresholds(bane, "df") == [7, 8, 11] and successes(8, thresholds(bane, "df")) == 2
    assert successes(13, [8, 13]) == 2 and successes(7, [8, 11]) == 0


def _win_check(state: dict[str, object], vps: list[int]) -> tuple[bool, list[str]]:
    """Set the seats' VP tokens and run the end-of-turn check; the rules it logged."""
    for seat, vp in enumerate(vps):
        state["seats"][seat]["vp"] = vp  # type: ignore[index]
    ctx = Ctx(state)
    return check_end_of_turn(ctx), [e["rule"] for e in ctx.events]


def test_tc34_the_highest_of_several_qualifiers_wins_and_a_tie_plays_on() -> None:
    """FL-WIN-01, FL-WIN-04, FL-WIN-05, FL-WIN-06 (TC-34, A-16): P1 10 and P2 11 both qualify: P2
    wins. Both at 11: the game goes on; at the end of the next turn P1 12, P2 11: P1 wins."""
    state = blank(duel(mode="melee", players=3))
    assert _win_check(state, [10, 11, 0]) == (True, ["FL-WIN-05"]) and state["winner"] == [1]
    state = blank(duel(mode="melee", players=3))
    assert _win_check(state, [11, 11, 0]) == (False, ["FL-WIN-06"]) and not state["over"]
    assert _win_check(state, [12, 11, 0]) == (True, ["FL-WIN-05"]) and state["winner"] == [0]
    assert ENGINE.result(state)["seats"][0]["rank"] == 1


def test_tc35_supply_cards_count_and_artifacts_raise_the_target() -> None:
    """FL-WIN-02, FL-WIN-03, FL-WIN-04 (TC-35, A-15): P1 has 9 tokens and a Supply card (10 of 10);
    P2 has 10 tokens and an Artifact needing 2 more (10 of 12): only P1 qualifies, and wins."""
    state = blank(duel())
    state["seats"][0]["locs"][0]["supply"] = "water_cache"
    state["seats"][1]["locs"][0]["artifact"] = "iron_idol"
    assert _win_check(state, [9, 10]) == (True, ["FL-WIN-04"]) and state["winner"] == [0]


def test_views_hide_hands_stockpiles_and_face_down_cards() -> None:
    """FL-COMBAT-VC-02 (A-33): a rival's hand, any Stockpile order and a face-down bluff stay hidden."""
    state = blank(duel(), ld=6)
    field(state, PETER, "looter")
    give(state, PETER, ["bloodbath"])
    state = attack(state, vc={"do": "down", "card": "bloodbath"})
    for seat in (RICHARD, None):
        text = canonical_json(ENGINE.view(state, seat))
        assert "bloodbath" not in text
        assert ENGINE.view(state, seat)["seats"][PETER]["hand"] is None
    own = ENGINE.view(state, PETER)
    assert own["combat"]["vc"]["a"]["card"] == "bloodbath"
    assert "stock" not in own["seats"][PETER] and own["seats"][PETER]["stock_count"] > 0


def test_determinize_keeps_the_viewer_s_knowledge() -> None:
    """The re-dealt state agrees with the seat's view."""
    state = duel()
    new = ENGINE.determinize(state, 0, 99)
    assert ENGINE.view(new, 0)["seats"][0] == ENGINE.view(state, 0)["seats"][0]
    ENGINE.check_invariants(new)


def announce(
    state: dict[str, object],
    att: int,
    target: int,
    loc: int = 0,
    vc: dict[str, object] | None = None,
) -> dict[str, object]:
    """`att` attacks `target`'s location `loc` with its whole area (Standard); the reaction window passes."""
    state, _ = act(action_phase(state, att), {"do": "attack", "target": target})
    for c in list(state["seats"][att]["area"]):  # type: ignore[index]
        state, _ = act(state, {"do": "add", "uid": c["uid"]})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, vc or {"do": "none"})
    state, _ = act(state, {"loc": loc})
    return pass_windows(state)


def test_tc15_multiplayer_interventions_in_seat_order(rig: list[int]) -> None:
    """FL-MP-01, FL-MP-02, FL-MP-03, FL-MP-04, FL-MP-05, FL-MP-06, FL-MP-07, FL-MP-08, FL-MP-09,
    FL-MP-10, FL-MP-13, FL-COMBAT-PRE-13, FL-COMBAT-VC-07 (TC-15): seat 0 attacks seat 3's Forest;
    seat 1 intervenes in the open (no Forest bonus, no Victory card, nothing sacked), seat 2 passes,
    and the fight with seat 3 is at the Forest, where the undefended location falls."""
    state = blank(duel(mode="melee", players=4), ld=6)
    for seat, cid in ((0, "bane"), (1, "looter"), (2, "brass"), (3, "grinner")):
        field(state, seat, cid)
    state = announce(state, 0, 3, loc=2)
    assert top(state)["kind"] == "intervene" and top(state)["seat"] == 1
    state, _ = act(state, {"do": "intervene"})
    assert fight(state)["fight"] == "intervention" and top(state)["seat"] == 1
    state, _ = act(state, {"do": "add", "uid": uid_of(state, 1, "looter")})
    state, _ = act(state, {"do": "done"})
    assert top(state)["kind"] == "window"  # no Victory card for the intervener (FL-MP-08)
    from rules.feudal.combatants import fight_site, roll_mod

    combat = fight(state)
    assert (
        fight_site(combat) == "open"
        and roll_mod(Ctx(state), combat, "a", combat["a"][0], "df") == 0
    )
    rig += [
        11,
        2,
        6,
    ]  # Bane 11: 2 hits kill Looter in DF; Looter misses; seat 0's Control/VP roll fails
    state = pass_windows(state, 3)
    assert rig == [] and top(state)["kind"] == "continue" and top(state)["seat"] == 0
    assert all(loc["token"] for seat in (1, 3) for loc in state["seats"][seat]["locs"])
    assert state["seats"][0]["vp"] == 0  # in the open nothing is sacked (FL-MP-07)
    state, _ = act(state, {"do": "continue"})
    assert top(state)["kind"] == "intervene" and top(state)["seat"] == 2
    state, _ = act(state, {"do": "pass"})
    assert (
        top(state)["kind"] == "send"
        and top(state)["seat"] == 3
        and fight(state)["fight"] == "target"
    )
    combat = fight(state)
    assert (
        roll_mod(Ctx(state), combat, "a", combat["a"][0], "df") == 2
    )  # the Forest counts (FL-MP-13)
    state, _ = act(state, {"do": "done"})
    assert top(state)["kind"] == "vc" and top(state)["seat"] == 3  # the target may play one
    state, _ = act(state, {"do": "none"})
    state = pass_windows(state)
    assert state["seats"][0]["vp"] == 3 and not state["seats"][3]["locs"][2]["token"]


def test_fl_mp_04_06_an_intervener_who_sends_nobody_has_passed() -> None:
    """FL-MP-04, FL-MP-06, FL-MP-10: intervening then sending nobody is a pass: no Continue or
    Withdraw choice; the next seat between attacker and target is asked."""
    state = blank(duel(mode="melee", players=4), ld=6)
    for seat, cid in ((0, "bane"), (1, "looter"), (3, "grinner")):
        field(state, seat, cid)
    state = announce(state, 0, 3)
    state, _ = act(state, {"do": "intervene"})
    state, _ = act(state, {"do": "done"})
    assert top(state)["kind"] == "intervene" and top(state)["seat"] == 2
    assert [c["card"] for c in fight(state)["a"]] == ["bane"]


def test_fl_mp_09_11_12_withdrawing_discards_the_victory_card(rig: list[int]) -> None:
    """FL-MP-09, FL-MP-11, FL-MP-12, FL-COMBAT-VC-07: the attacker pays once; after a real
    intervention combat he may withdraw: his face-down card is discarded and the target is untouched."""
    state = blank(duel(mode="melee", players=3), ld=6)
    field(state, 0, "bane")
    field(state, 1, "looter")
    field(state, 2, "grinner")
    give(state, 0, ["bloodbath"])
    state = announce(state, 0, 2, vc={"do": "down", "card": "bloodbath"})
    state, _ = act(state, {"do": "intervene"})
    state, _ = act(state, {"do": "add", "uid": uid_of(state, 1, "looter")})
    state, _ = act(state, {"do": "done"})
    rig += [2] * 6  # DF and two CC rounds: nobody hits
    state = pass_windows(state, 7)
    assert rig == [] and top(state)["kind"] == "continue"
    assert (
        fight(state)["vc"]["a"]["card"] == "bloodbath"
    )  # still face-down through the intervention
    state, _ = act(state, {"do": "withdraw"})
    assert "bloodbath" in state["seats"][0]["discard"] and state["seats"][0]["ld"] == 4
    assert top(state)["kind"] == "action" and [c["card"] for c in state["seats"][2]["area"]] == [
        "grinner"
    ]
    assert all(loc["token"] for loc in state["seats"][2]["locs"]) and state["seats"][0]["vp"] == 0


def test_fl_mp_15_weapons_and_skills_go_only_on_ones_own_characters() -> None:
    """FL-MP-15, FL-ARM-01: in a three-player game a Weapon is offered only for one's own characters."""
    state = blank(duel(mode="melee", players=3), sup=6)
    own = [field(state, 0, "bane")["uid"], field(state, 0, "looter")["uid"]]
    field(state, 1, "grinner")
    field(state, 2, "pastor")
    give(state, 0, ["light_blade"])
    state, _ = act(action_phase(state, 0), {"do": "arm", "card": "light_blade"})
    assert sorted(a["uid"] for a in actions(state)) == sorted(own)


def test_fl_team_partners_aid_swap_and_share_a_16_target() -> None:
    """FL-TEAM-01, FL-TEAM-02, FL-TEAM-03, FL-TEAM-05, FL-TEAM-06, FL-TEAM-07 (A-30): no attack on a
    partner; the Leadership Swap; the partner aids from his own Ld at his own Attack Send."""
    state = blank(duel(mode="teams", players=4), ld=4)
    for seat, cid in ((0, "bane"), (2, "looter"), (3, "grinner")):
        field(state, seat, cid)
    action_phase(state, 0)
    targets = {a["target"] for a in actions(state) if a.get("do") == "attack"}
    assert targets == {1, 3}
    state, _ = act(state, {"do": "swap"})
    assert (state["seats"][0]["ld"], state["seats"][2]["ld"]) == (2, 5)
    state, _ = act(state, {"do": "attack", "target": 3})
    state, _ = act(state, {"do": "add", "uid": uid_of(state, 0, "bane")})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "none"})
    state, _ = act(state, {"loc": 0})
    state = pass_windows(state)
    state, _ = act(state, {"do": "pass"})  # seat 1
    assert {"do": "aid"} in actions(state)
    state, _ = act(state, {"do": "aid"})
    state, _ = act(state, {"do": "add", "uid": uid_of(state, 2, "looter")})
    assert (
        state["seats"][2]["ld"] == 4 and state["seats"][0]["ld"] == 0
    )  # Looter: 2 - 1 from seat 2
    state, _ = act(state, {"do": "done"})
    assert sorted(c["owner"] for c in fight(state)["a"]) == [0, 2]
    from rules.feudal.scoring import side_score

    assert side_score(state, [0, 2])[1] == 16


def test_fl_team_04_each_partner_aims_supports_and_scores_his_own(rig: list[int]) -> None:
    """FL-TEAM-04, FL-COMBAT-DF-03, FL-COMBAT-MU-04, FL-COMBAT-END-06 (A-30, A-47): the aiding
    partner picks his own shooter's DF target and his own supporter's match-up, and the
    Control/VP roll for a defender he killed is his."""
    state = blank(duel(mode="teams", players=4), ld=6)
    field(state, 0, "bane")
    for cid in ("marksman", "stitcher"):
        field(state, 2, cid)
    for cid in ("grinner", "looter", "pastor"):
        field(state, 3, cid)
    state = announce(state, 0, 3)
    state, _ = act(state, {"do": "pass"})  # seat 1
    state, _ = act(state, {"do": "aid"})
    for cid in ("marksman", "stitcher"):
        state, _ = act(state, {"do": "add", "uid": uid_of(state, 2, cid)})
    state, _ = act(state, {"do": "done"})
    for cid in ("grinner", "looter", "pastor"):
        state, _ = act(state, {"do": "add", "uid": uid_of(state, 3, cid)})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "none"})
    state = pass_windows(state)
    rig += [2, 12, 2, 2, 2]  # Bane misses; Marksman (7, 10) hits Grinner twice; the defenders miss
    for seat in (0, 2):  # Bane's owner aims Bane, Marksman's owner aims Marksman
        assert top(state)["kind"] == "df_target" and top(state)["seat"] == seat
        state, _ = act(state, {"uid": uid_of_pool(state, "grinner")})
    for _ in range(3):
        assert top(state)["kind"] == "df_target" and top(state)["seat"] == 3
        state, _ = act(state, {"uid": uid_of_pool(state, "bane")})
    state = pass_windows(state)  # Grinner dies in DF
    assert rig == [] and [d["by"] for d in fight(state)["dead"]["d"]] == [2]
    state, _ = act(
        state, {"mine": uid_of_pool(state, "bane"), "theirs": uid_of_pool(state, "looter")}
    )
    state, _ = act(
        state, {"mine": uid_of_pool(state, "pastor"), "theirs": uid_of_pool(state, "marksman")}
    )
    assert top(state)["kind"] == "support" and top(state)["seat"] == 2  # Stitcher's owner places it
    from rules.feudal.end_of_combat import control_rolls

    rig.append(1)
    control_rolls(Ctx(state), fight(state))
    assert state["seats"][2]["vp"] == 1 and state["seats"][0]["vp"] == 0 and rig == []


def uid_of_pool(state: dict[str, object], cid: str) -> int:
    """The uid of a combatant in the combat in progress."""
    return int(next(c["uid"] for s in ("a", "d") for c in fight(state)[s] if c["card"] == cid))


def solo_position(attacker: str, defender: str, markers: int) -> tuple[dict[str, object], str]:
    """A solitaire game with `defender` face-up on pile 1, `attacker` in hand and the DF roll due.

    Returns the state and the card that will be turned up when the defender falls."""
    state = ENGINE.setup(5, {"mode": "solitaire"}, 1)
    solo = state["solo"]
    for cid in (attacker, defender):
        for pile in [solo["deck"], solo["hand"], *solo["piles"]]:
            if cid in pile:
                pile.remove(cid)
    nxt = solo["piles"][0][-1]
    solo["piles"][0].append(defender)
    solo["hand"].append(attacker)
    solo["cards"] = len(solo["deck"]) + len(solo["hand"]) + sum(len(p) for p in solo["piles"])
    solo["markers"] = markers
    state["stack"] = [{"kind": "solo"}]
    return state, nxt


def test_tc16_solitaire_combat(rig: list[int]) -> None:
    """FL-SOLO-01, FL-SOLO-02, FL-SOLO-03, FL-SOLO-04, FL-SOLO-05, FL-SOLO-06, FL-SOLO-07, FL-SOLO-08,
    FL-SOLO-09, FL-SOLO-10, FL-SOLO-11, FL-SOLO-12, FL-SOLO-13, FL-SOLO-15, FL-SOLO-16, FL-SOLO-19:
    Bane against Pale Fighter with the book's rolls and markers."""
    state = ENGINE.setup(5, {"mode": "solitaire"}, 1)
    solo = state["solo"]
    assert [len(p) for p in solo["piles"]] == [3, 3, 3] and len(solo["hand"]) == 7
    assert solo["markers"] == 10 + sum(ENGINE_card(p[-1])["control"] for p in solo["piles"])
    everything = solo["deck"] + solo["hand"] + [c for p in solo["piles"] for c in p]
    roster = solo_rosters()["default"]["roster"]
    assert sorted(everything) == sorted(set(everything)) == roster  # FL-SOLO-01: each once
    state, nxt = solo_position("bane", "pale_fighter", 20)
    solo = state["solo"]
    rig.append(8)
    ctx = Ctx(state)
    MACHINE.advance(ctx)
    state, _ = act(state, {"card": "bane", "pile": 0})
    assert solo is not state["solo"] and state["solo"]["markers"] == 17
    rig.append(8)
    state, _ = act(state, {"do": "done"})  # DF: Bane 1 hit
    state, _ = act(state, {"do": "shift", "side": "d", "by": -1})
    rig.append(9)
    state, _ = act(state, {"do": "done"})
    rig.append(10)
    state, _ = act(state, {"do": "done"})  # block roll 9: Pale Fighter takes the wound
    state, _ = act(state, {"do": "shift", "side": "d", "by": -1})
    rig.append(9)
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "shift", "side": "a", "by": 1})
    rig.append(7)  # the next combat's DF roll
    state, _ = act(state, {"do": "done"})
    solo = state["solo"]
    assert "pale_fighter" in solo["discard"] and solo["killed"] == 1 and solo["living"] == ["bane"]
    assert solo["markers"] == 20 - 6 + ENGINE_card(nxt)["control"]


def test_fl_solo_19_a_character_that_blocks_in_df_blocks_in_solitaire(rig: list[int]) -> None:
    """FL-SOLO-19, FL-SOLO-11, FL-COMBAT-DF-09: Dust Walker (blocks in DF at 10) and Pale Fighter
    both hit on the DF roll of 9; a shared block roll of 10 saves Dust Walker, not Pale Fighter."""
    state, _ = solo_position("dust_walker", "pale_fighter", 20)
    rig.append(9)
    MACHINE.advance(Ctx(state))
    state, _ = act(state, {"card": "dust_walker", "pile": 0})
    rig.append(10)
    state, _ = act(state, {"do": "done"})  # keep the DF roll: both score a hit
    assert top(state)["kind"] == "solo_adjust" and state["stack"][-2]["stage"] == "dfblock"
    state, _ = act(state, {"do": "done"})  # keep the block roll of 10
    combat = state["stack"][-2]  # the fight, under the prompt for CC round 1's hit roll
    assert combat["stage"] == "score1" and (combat["aw"], combat["dw"]) == (0, 1) and rig == []


def test_fl_solo_18_an_empty_marker_pool_loses_at_once(rig: list[int]) -> None:
    """FL-SOLO-08, FL-SOLO-11, FL-SOLO-18 (A-31): paying Bane's Control 3 out of 3 markers would
    empty the pool and lose on the spot, so Bane is not offered; with 4 markers he is, and no
    marker spend that would empty the pool is offered either. A payment that empties it loses."""
    state, _ = solo_position("bane", "pale_fighter", 3)
    rig.append(8)
    MACHINE.advance(Ctx(state))
    assert not any(a.get("card") == "bane" for a in actions(state))
    assert all(ENGINE_card(a["card"])["control"] < 3 for a in actions(state))
    state, _ = solo_position("bane", "pale_fighter", 4)
    rig.append(7)  # Bane's DF 8 is one short: the only spend would be the pool's last marker
    MACHINE.advance(Ctx(state))
    state, _ = act(state, {"card": "bane", "pile": 0})
    assert state["solo"]["markers"] == 1 and actions(state) == [{"do": "done"}]
    from rules.feudal.solitaire import _pay

    assert _pay(Ctx(state), 1) and state["over"] and state["winner"] is None and rig == []


def test_fl_solo_11_markers_are_offered_to_each_threshold_they_cross(rig: list[int]) -> None:
    """FL-SOLO-11: on a DF roll of 6 Bane (8, 11) is offered +2 and +5, Pale Fighter (9) misses
    and is offered nothing; one answer spends all the markers of its shift."""
    state, _ = solo_position("bane", "pale_fighter", 20)
    rig.append(6)
    MACHINE.advance(Ctx(state))
    state, _ = act(state, {"card": "bane", "pile": 0})
    shifts = [a for a in actions(state) if a["do"] == "shift"]
    assert shifts == [{"do": "shift", "side": "a", "by": 2}, {"do": "shift", "side": "a", "by": 5}]
    state, _ = act(state, {"do": "shift", "side": "a", "by": 2})
    assert state["solo"]["markers"] == 20 - 3 - 2 and state["stack"][-2]["roll"]["a"] == 8
    assert rig == []


def ENGINE_card(cid: str) -> dict[str, object]:  # noqa: N802
    from rules.feudal.state import card

    return card(cid)


def test_fl_solo_14_17_18_pile_cleared_hand_refilled_and_loss() -> None:
    """FL-SOLO-14, FL-SOLO-17, FL-SOLO-18: killing a pile's last card burns the deck top for markers;
    an empty hand is refilled from the living pile's size; no payable attacker loses."""
    state = ENGINE.setup(6, {"mode": "solitaire"}, 1)
    from rules.feudal.solitaire import _kill_defender

    solo = state["solo"]
    solo["discard"] += solo["piles"][1][:-1]
    solo["piles"][1] = solo["piles"][1][-1:]
    before, top_deck = solo["markers"], solo["deck"][-1]
    _kill_defender(Ctx(state), 1)
    assert solo["piles"][1] == [] and top_deck in solo["discard"]
    assert solo["markers"] == before + ENGINE_card(top_deck)["control"]
    solo["discard"] += solo["hand"]
    solo["hand"], solo["living"] = [], ["x"]
    solo["markers"] = 0
    state["stack"] = [{"kind": "solo"}]
    MACHINE.advance(Ctx(state))
    assert state["over"] and state["winner"] is None and len(solo["hand"]) == 1


@pytest.mark.parametrize(
    ("reading", "level", "kept"),
    [("clear", "default", 0), ("keep", "default", 1), ("clear", "easier", 1)],
)
def test_fl_solo_12_a_surviving_defender_heals_unless_wounds_are_kept(
    rig: list[int], reading: str, level: str, kept: int
) -> None:
    """FL-SOLO-12 (A-31): Bane's DF 8 wounds Pale Fighter once and both CC rounds miss; by the
    recommended reading the defender heals, with the "keep" variant (and at the easier level)
    the next fight starts at 1."""
    state, _ = solo_position("bane", "pale_fighter", 20)
    state["options"]["solo_wounds"] = reading
    state["options"]["solo_level"] = level
    rig.append(8)
    MACHINE.advance(Ctx(state))
    state, _ = act(state, {"card": "bane", "pile": 0})
    rig += [2, 2, 7]  # both CC hit rolls miss; then the next combat's DF roll
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "done"})
    assert state["solo"]["wounds"][0] == kept and state["solo"]["killed"] == 0
    assert "bane" in state["solo"]["living"] and rig == []
