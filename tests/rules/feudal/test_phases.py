"""Draft (TC-01), arming (TC-02..04), Supply cards (TC-05), Constants, Artifacts and Instants."""

from __future__ import annotations

import pytest

from rules.core.errors import IllegalAction
from rules.feudal import ENGINE
from tests.rules.feudal.helpers import (
    act,
    action_phase,
    actions,
    blank,
    draft_phase,
    duel,
    field,
    give,
    pass_windows,
    plain_deck,
    top,
    turn,
    uid_of,
)

PETER, RICHARD = 0, 1


def drafting(ld: int, cards: list[str]) -> dict[str, object]:
    state = blank(duel(), ld=ld)
    give(state, RICHARD, cards)
    return draft_phase(state, RICHARD)


def test_tc01_draft_with_one_sway_succeeds(rig: list[int]) -> None:
    """FL-DRAFT-02, FL-DRAFT-03, FL-DRAFT-04, FL-DRAFT-05, FL-TURN-03: 3 + 1 >= 4; Ld 4 - 2 = 2."""
    state = drafting(4, ["banger"])
    rig.append(3)
    state, _ = act(state, {"do": "draft", "card": "banger", "sway": 1})
    me = state["seats"][RICHARD]
    assert [c["card"] for c in me["area"]] == ["banger"] and me["ld"] == 2
    assert top(state)["kind"] == "action"  # one attempt per turn


def test_tc01a_without_sway_the_draft_fails(rig: list[int]) -> None:
    """FL-DRAFT-05 (TC-01 a): the character is discarded and the Ld is not refunded."""
    state = drafting(4, ["banger"])
    state["seats"][RICHARD]["marker_spent"] = True
    rig.append(3)
    state, _ = act(state, {"do": "draft", "card": "banger", "sway": 0})
    assert "banger" in state["seats"][RICHARD]["discard"] and state["seats"][RICHARD]["ld"] == 3


def test_tc01bc_sway_is_capped_by_max_draft_and_by_ld() -> None:
    """FL-DRAFT-03 (TC-01 b, c): Max. Draft 1 allows sway 0-1; with Ld 1 only sway 0."""
    sways = {a["sway"] for a in actions(drafting(4, ["banger"])) if a.get("do") == "draft"}
    assert sways == {0, 1}
    sways = {a["sway"] for a in actions(drafting(1, ["banger"])) if a.get("do") == "draft"}
    assert sways == {0}


def test_tc01d_a_named_character_in_play_cannot_be_drafted() -> None:
    """FL-GEN-03, FL-GEN-04, FL-GEN-05, FL-GEN-06, FL-GEN-07 (TC-24): Named Banger in play blocks
    another Banger; Generic Looter may be drafted twice; a Leader in hand is never offered."""
    state = drafting(4, ["banger", "looter", "warlord_kade"])
    field(state, 0, "banger")
    field(state, 0, "looter")
    offered = {a["card"] for a in actions(state) if a.get("do") == "draft"}
    assert offered == {"looter"}
    assert not [a for a in actions(drafting(4, ["warlord_kade"])) if a.get("do") == "draft"]


def test_fl_draft_01_the_draft_phase_comes_even_with_no_ld(rig: list[int]) -> None:
    """FL-DRAFT-01, FL-DRAFT-02, FL-GEN-12, FL-MARK-02: with Ld 0 and a draftable card in hand the
    Draft phase still prompts, offering Skip, the exchange and the +1 marker; after exchanging,
    the draft may be attempted."""
    state = blank(duel(), sup=2, ld=0)
    give(state, RICHARD, ["looter"])
    state["stack"] = [turn(RICHARD, "draft"), {"kind": "stock", "seat": RICHARD, "discarded": 0}]
    state["active"] = RICHARD
    me = state["seats"][RICHARD]
    me["discard"], me["stock"] = (
        me["discard"] + me["stock"],
        [],
    )  # draw nothing: the hand stays as given
    state, _ = act(state, {"do": "draw"})
    assert top(state)["kind"] == "draft"
    offered = actions(state)
    assert {"do": "skip"} in offered and {"do": "exchange"} in offered
    assert {"do": "marker", "res": "ld"} in offered and not [
        a for a in offered if a.get("do") == "draft"
    ]
    state, _ = act(state, {"do": "exchange"})
    rig.append(6)
    state, _ = act(state, {"do": "draft", "card": "looter", "sway": 0})
    assert [c["card"] for c in state["seats"][RICHARD]["area"]] == ["looter"]


def test_tc01e_a_natural_one_fails_until_a_marker_is_added(rig: list[int]) -> None:
    """FL-GEN-08, FL-GEN-09, FL-DRAFT-06, FL-DRAFT-07, FL-MARK-06 (A-12): 1 + 1 sway fails against
    Control 3; a +1 marker after the roll makes 3 and the draft succeeds."""
    state = drafting(4, ["grinner"])
    rig.append(1)
    state, _ = act(state, {"do": "draft", "card": "grinner", "sway": 1})
    assert top(state)["kind"] == "draft_marker"
    state, _ = act(state, {"do": "marker_roll"})
    assert [c["card"] for c in state["seats"][RICHARD]["area"]] == ["grinner"]
    state = drafting(4, ["looter"])
    rig.append(1)
    state, _ = act(state, {"do": "draft", "card": "looter", "sway": 1})
    assert top(state)["kind"] == "draft_marker"  # 1 + 1 = 2 >= 2, but a natural 1 fails


def arming(sup: int, ld: int) -> dict[str, object]:
    state = blank(duel(), sup=sup, ld=ld)
    field(state, RICHARD, "brass")
    give(state, RICHARD, ["spinning_spear", "training", "light_blade", "hardened"])
    return action_phase(state, RICHARD)


def test_tc02_arming_pays_sup_for_weapons_and_ld_for_skills() -> None:
    """FL-ARM-01, FL-ARM-02, FL-ARM-03, FL-ARM-04, FL-ACT-01: Brass takes the Spear (4 Sup) and
    Training (2 Ld) and has no slot left."""
    state = arming(4, 2)
    state, _ = act(state, {"do": "arm", "card": "spinning_spear"})
    state, _ = act(state, {"do": "arm", "card": "training"})
    me = state["seats"][RICHARD]
    assert (me["sup"], me["ld"]) == (0, 0)
    assert me["area"][0]["weapons"] == ["spinning_spear"] and me["area"][0]["skills"] == [
        "training"
    ]
    me["sup"], me["ld"] = 6, 6
    assert not [a for a in actions(state) if a.get("do") == "arm"]


def test_tc02_an_unaffordable_weapon_is_not_offered() -> None:
    """FL-GEN-11, FL-ARM-02: Spinning Spear with 3 Sup is refused."""
    state = arming(3, 0)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, RICHARD, {"do": "arm", "card": "spinning_spear"})


def test_tc03_no_duplicates_and_no_light_with_heavy() -> None:
    """FL-ARM-05, FL-ARM-06, FL-ARM-08: Marksman with Light Blade cannot take Heavy Blade or a
    second Light Blade; attached cards never move."""
    state = blank(duel(), sup=6, ld=6)
    marksman = field(state, RICHARD, "marksman", weapons=["light_blade"])
    give(state, RICHARD, ["heavy_blade", "light_blade", "light_pistol", "hardened"])
    action_phase(state, RICHARD)
    offered = {a["card"] for a in actions(state) if a.get("do") == "arm"}
    assert offered == {"light_pistol", "hardened"}
    state, _ = act(state, {"do": "arm", "card": "light_pistol"})
    assert state["seats"][RICHARD]["area"][0]["weapons"] == ["light_blade", "light_pistol"]
    assert marksman["uid"] == uid_of(state, RICHARD, "marksman")


def test_tc04_class_specific_weapon_needs_a_matching_character() -> None:
    """FL-ARM-07, FL-GEN-02, FL-GEN-01 (TC-04): Tool Kit (BD) fits only a Bad Doc, unless starter
    rules ignore classes."""
    state = blank(duel(), sup=6, ld=6)
    field(state, RICHARD, "brass")
    give(state, RICHARD, ["tool_kit"])
    action_phase(state, RICHARD)
    assert not [a for a in actions(state) if a.get("do") == "arm"]
    field(state, RICHARD, "stitcher")
    state, _ = act(state, {"do": "arm", "card": "tool_kit"})
    assert state["seats"][RICHARD]["area"][1]["weapons"] == ["tool_kit"]
    starter = blank(duel(options={"starter_rules": "on"}), sup=6, ld=6)
    field(starter, RICHARD, "brass")
    give(starter, RICHARD, ["tool_kit"])
    assert [a for a in actions(action_phase(starter, RICHARD)) if a.get("do") == "arm"]


def test_tc05_supply_goes_on_an_unsacked_empty_location() -> None:
    """FL-SUPPLY-01, FL-SUPPLY-02, FL-SUPPLY-03, FL-SUPPLY-04, FL-SUPPLY-05, FL-SUPPLY-06: A sacked,
    B and C legal; then only C; a BD-only Supply needs a Bad Doc; copies may stack on locations."""
    state = blank(duel(), sup=6, ld=6)
    state["seats"][RICHARD]["locs"][0]["token"] = False
    give(state, RICHARD, ["water_cache", "water_cache", "med_stores"])
    action_phase(state, RICHARD)
    locs = [a["loc"] for a in actions(state) if a.get("do") == "supply"]
    assert locs == [1, 2]
    state, _ = act(state, {"do": "supply", "card": "water_cache", "loc": 1})
    assert [a["loc"] for a in actions(state) if a.get("do") == "supply"] == [2]
    state, _ = act(state, {"do": "supply", "card": "water_cache", "loc": 2})
    from rules.feudal.scoring import total

    assert total(state, RICHARD) == 2 and state["seats"][RICHARD]["sup"] == 2


def test_fl_const_01_a_constant_stays_and_changes_the_send_cost() -> None:
    """FL-CONST-01, FL-ART-02, FL-ART-03, FL-WIN-03 (A-19, A-20): War Drums raises Attack Send; an
    Artifact raises the VP target, keeps its own slot (a Supply card may join it on the same
    location) and is worth no VP itself."""
    state = blank(duel(decks=[plain_deck(), plain_deck(artifacts=["iron_idol"])]), sup=6, ld=6)
    assert state["seats"][RICHARD]["locs"][0]["artifact"] == "iron_idol"
    give(state, RICHARD, ["war_drums", "water_cache"])
    field(state, RICHARD, "brass")
    action_phase(state, RICHARD)
    state, _ = act(state, {"do": "constant", "card": "war_drums"})
    from rules.feudal.scoring import side_score
    from rules.feudal.sending import standard_cost
    from rules.feudal.state import Ctx

    assert state["seats"][RICHARD]["constants"] == ["war_drums"]
    assert standard_cost(Ctx(state), RICHARD, state["seats"][RICHARD]["area"][0], "attack") == 2
    assert side_score(state, [RICHARD]) == (0, 12)
    assert {"do": "supply", "card": "water_cache", "loc": 0} in actions(state)
    state, _ = act(state, {"do": "supply", "card": "water_cache", "loc": 0})
    loc = state["seats"][RICHARD]["locs"][0]
    assert (loc["artifact"], loc["supply"]) == ("iron_idol", "water_cache")
    assert side_score(state, [RICHARD]) == (1, 12)


def test_fl_inst_04_an_action_phase_instant_waits_for_answers() -> None:
    """FL-INST-01, FL-INST-02, FL-INST-03, FL-INST-04, FL-INST-05: each Scavenge is paid at once but
    resolves only after every seat has passed (the others first, then its player); two copies
    draw 2 each; HooDoo Rally needs a HooDoo in the active area."""
    state = blank(duel(), sup=0, ld=3)
    give(state, RICHARD, ["scavenge", "scavenge", "hoodoo_rally"])
    action_phase(state, RICHARD)
    assert not [a for a in actions(state) if a.get("card") == "hoodoo_rally"]
    for before, after in ((2, 4), (3, 5)):
        state, _ = act(state, {"do": "instant", "card": "scavenge", "target": None})
        assert top(state)["kind"] == "window" and top(state)["order"] == [PETER, RICHARD]
        assert len(state["seats"][RICHARD]["hand"]) == before  # paid, not yet resolved
        state = pass_windows(state)
        assert top(state)["kind"] == "action" and len(state["seats"][RICHARD]["hand"]) == after
    assert state["seats"][RICHARD]["ld"] == 1
    field(state, RICHARD, "pastor")
    assert [a for a in actions(state) if a.get("card") == "hoodoo_rally"]


def test_fl_gen_13_sabotage_in_the_action_phase_blocks_the_exchange_against_it() -> None:
    """FL-INST-04, FL-INST-06, FL-GEN-13 (TC-21): Richard's Sabotage on Peter waits in a window;
    Peter may answer but not exchange his Sup against the loss; then he loses 2 Sup."""
    state = blank(duel(), sup=4, ld=3)
    give(state, RICHARD, ["sabotage"])
    action_phase(state, RICHARD)
    assert {"do": "instant", "card": "sabotage", "target": PETER} in actions(state)
    state, _ = act(state, {"do": "instant", "card": "sabotage", "target": PETER})
    assert top(state)["seat"] == PETER and {"do": "pass"} in actions(state, PETER)
    assert {"do": "exchange"} not in actions(state, PETER)
    state = pass_windows(state)
    assert state["seats"][PETER]["sup"] == 2 and "sabotage" in state["seats"][RICHARD]["discard"]
