"""The card-effect vocabulary on built positions: leader effects on sending, the leader's die
fields, Instants with several effects, Constants' class limits, the removed keywords, and the
turn-cap and repeated-abort options."""

from __future__ import annotations

import json

import pytest

from rules.feudal import scoring
from rules.feudal.components import DATA_DIR, ComponentError, validate
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
    plain_deck,
    top,
    turn,
    uid_of,
)


def raw() -> tuple[dict[str, object], dict[str, object]]:
    """The data files as loaded, before validation."""
    cards = json.loads((DATA_DIR / "cards.json").read_text(encoding="utf-8"))
    decks = json.loads((DATA_DIR / "decks.json").read_text(encoding="utf-8"))
    return cards, decks


def test_fl_combat_send_02_a_leader_send_effect_lowers_the_standard_cost() -> None:
    """FL-COMBAT-SEND-02: the Iron Duchess (Attack Send 1, text +1) sends Brass (Control 4) for
    4 - 2 = 2 Ld; defending she has her printed Defend Send 0 only."""
    state = blank(duel(decks=[plain_deck("iron_duchess"), plain_deck()]), ld=6)
    field(state, 0, "brass")
    state, _ = act(action_phase(state, 0), {"do": "attack", "target": 1})
    state, _ = act(state, {"do": "add", "uid": uid_of(state, 0, "brass")})
    assert state["seats"][0]["ld"] == 4


def test_fl_res_02_a_leader_die_field_modifies_the_resource_die(rig: list[int]) -> None:
    """FL-RES-02, FL-RES-03, FL-GEN-15 (A-14): the Drover's Supply die counts 1 higher, capped at 6;
    the Iron Duchess's Leadership die 1 lower, never below 1, and her natural 1 still draws."""
    for leader, dice, want in (
        ("the_drover", [2, 3], (3, 3)),
        ("the_drover", [6, 4], (6, 4)),
        ("iron_duchess", [2, 1], (2, 1)),
        ("iron_duchess", [2, 5], (2, 4)),
    ):
        state = blank(duel(decks=[plain_deck(leader), plain_deck()]))
        state["stack"] = [turn(0, "resource"), {"kind": "resource", "seat": 0}]
        state["active"] = 0
        rig += dice
        state, events = act(state, {"do": "reroll"})
        me = state["seats"][0]
        assert (me["sup"], me["ld"]) == want and rig == []
        assert any(e["rule"] == "FL-GEN-15" for e in events) is (dice[1] == 1)


def test_fl_inst_01_an_instant_runs_every_effect_in_order() -> None:
    """FL-INST-01, FL-INST-05: Rally Cry gains 1 Sup and then draws 1 card."""
    state = blank(duel(), sup=2, ld=1)
    give(state, 0, ["rally_cry"])
    stock = len(state["seats"][0]["stock"])
    state, _ = act(action_phase(state, 0), {"do": "instant", "card": "rally_cry", "target": None})
    state = pass_windows(state)
    me = state["seats"][0]
    assert (me["sup"], me["ld"]) == (3, 0) and len(me["hand"]) == 1
    assert len(me["stock"]) == stock - 1 and "rally_cry" in me["discard"]


def test_fl_inst_05_targeted_effects_share_the_chosen_target() -> None:
    """FL-INST-04, FL-INST-05: Pincer's two boosts both go to the side named when it is played."""
    state = blank(duel(), sup=6, ld=6)
    field(state, 0, "bane")
    field(state, 1, "looter")
    state, _ = act(action_phase(state, 0), {"do": "attack", "target": 1})
    state, _ = act(state, {"do": "add", "uid": uid_of(state, 0, "bane")})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "none"})
    state, _ = act(state, {"loc": 1})
    state = pass_windows(state)  # the defender's reaction
    state, _ = act(state, {"do": "add", "uid": uid_of(state, 1, "looter")})
    state, _ = act(state, {"do": "done"})
    state, _ = act(state, {"do": "none"})  # no Victory card
    assert top(state)["kind"] == "window" and top(state)["stop"] == "before_df"
    give(state, top(state)["seat"], ["pincer"])
    plays = [a for a in actions(state) if a.get("card") == "pincer"]
    assert [p["target"] for p in plays] == ["a", "d"]
    state, _ = act(state, plays[1])
    state = pass_windows(state)
    assert fight(state)["boost"]["d"] == {"df": 1, "cc_hit": 1}


def test_fl_const_01_a_constant_keeps_its_class_limit() -> None:
    """FL-CONST-01, FL-SUPPLY-04 (A-20): Tunnel Rites needs an Under-City character in the active
    area; with one there it is offered and, in play, adds 1 to its owner's block rolls."""
    state = blank(duel(options={"starter_rules": "off"}), ld=6)
    give(state, 0, ["tunnel_rites"])
    field(state, 0, "marksman")  # an Outer-City class
    state = action_phase(state, 0)
    assert {"do": "constant", "card": "tunnel_rites"} not in actions(state)
    field(state, 0, "grinner")  # SG: Under-City
    assert {"do": "constant", "card": "tunnel_rites"} in actions(state)
    state, _ = act(state, {"do": "constant", "card": "tunnel_rites"})
    assert state["seats"][0]["constants"] == ["tunnel_rites"] and state["seats"][0]["ld"] == 4
    from rules.feudal.state import abilities_roll

    assert abilities_roll(Ctx(state), 0, "cc_block") == 1


def test_a37_keywords_are_gone_from_the_vocabulary() -> None:
    """A-37: the Fuel, Luck and Weather icons have no rules, so cards carry no keyword field."""
    cards, decks = raw()
    cards["water_cache"] = {**cards["water_cache"], "keywords": ["fuel"]}  # type: ignore[dict-item]
    with pytest.raises(ComponentError, match="unknown \\['keywords'\\]"):
        validate(cards, decks)


def test_fl_inst_01_one_target_kind_per_instant_is_checked_at_load() -> None:
    """FL-INST-01: an Instant whose effects would need two kinds of target is refused at load."""
    cards, decks = raw()
    bad = dict(cards["pincer"])  # type: ignore[arg-type]
    bad["effects"] = [{"kind": "boost", "roll": "df", "amount": 1}, {"kind": "drain", "sup": 1}]
    cards["pincer"] = bad
    with pytest.raises(ComponentError, match="one kind of thing"):
        validate(cards, decks)


@pytest.mark.parametrize(("reading", "winner"), [("draw", None), ("leader", [0])])
def test_fl_win_06_the_turn_cap_draws_unless_the_leader_variant_is_on(
    reading: str, winner: list[int] | None
) -> None:
    """FL-WIN-01, FL-WIN-06 (A-43): at the cap nobody below the target has won, so by default the
    game is drawn; the "leader" variant gives it to the single VP leader."""
    state = duel(options={"turn_limit": 20, "turn_limit_result": reading})
    state["turns"], state["seats"][0]["vp"], state["seats"][1]["vp"] = 20, 4, 2
    assert scoring.check_end_of_turn(Ctx(state))
    assert state["winner"] == winner and state["ended_by"] == "turn_limit"


@pytest.mark.parametrize(("level", "start"), [("default", 10), ("easier", 15), ("harder", 10)])
def test_fl_solo_04_the_level_sets_the_first_markers(level: str, start: int) -> None:
    """FL-SOLO-04, FL-SOLO-05: 10 markers by the book (15 at the easier level, data/solitaire.json)
    plus the face-up defenders' Control."""
    from rules.feudal import ENGINE
    from rules.feudal.state import card

    state = ENGINE.setup(3, {"mode": "solitaire", "options": {"solo_level": level}}, 1)
    tops = sum(card(p[-1])["control"] for p in state["solo"]["piles"])
    assert state["solo"]["markers"] == start + tops


def test_fl_solo_01_each_level_deals_its_roster_each_character_once() -> None:
    """FL-SOLO-01, FL-SOLO-02, FL-SOLO-03: the solitaire deck is the level's roster of available
    characters (data/solitaire.json), each dealt once into the piles, the hand and the deck."""
    from rules.feudal import ENGINE
    from rules.feudal.components import SOLO_LEVELS, solo_rosters

    for level in SOLO_LEVELS:
        state = ENGINE.setup(4, {"mode": "solitaire", "options": {"solo_level": level}}, 1)
        solo = state["solo"]
        dealt = solo["deck"] + solo["hand"] + [c for p in solo["piles"] for c in p]
        assert sorted(dealt) == solo_rosters()[level]["roster"]


@pytest.mark.parametrize(
    ("roster", "problem"),
    [
        (["bane"] * 30, "each once"),
        (["bane", "light_blade"], "not characters"),
        (["bane", "brass"], "at least"),
    ],
)
def test_a_bad_solitaire_roster_is_refused(roster: list[str], problem: str) -> None:
    """The loader refuses a roster with repeats, non-characters or too few cards (FL-SOLO-01)."""
    from rules.feudal.components import load, validate_rosters

    levels = {
        level: {"note": "", "markers": 10, "wounds": "clear", "roster": "all"}
        for level in ("default", "easier", "harder")
    }
    levels["easier"]["roster"] = roster
    with pytest.raises(ComponentError, match=problem):
        validate_rosters(levels, load().cards)


def test_a_solitaire_level_may_deal_another_levels_roster() -> None:
    """A level's roster may name another level (FL-SOLO-01): it deals that level's characters;
    a name that leads to no list is refused."""
    from rules.feudal.components import load, validate_rosters

    cards = load().cards
    chars = sorted(c for c, spec in cards.items() if spec["type"] == "character")[:30]
    levels = {
        "default": {"note": "", "markers": 10, "wounds": "clear", "roster": chars},
        "easier": {"note": "", "markers": 15, "wounds": "keep", "roster": "default"},
        "harder": {"note": "", "markers": 10, "wounds": "clear", "roster": "all"},
    }
    rosters = validate_rosters(levels, cards)
    assert rosters["easier"]["roster"] == rosters["default"]["roster"] == chars
    levels["harder"]["roster"] = "easier"  # a name that names a name: no list
    with pytest.raises(ComponentError, match="name of a level"):
        validate_rosters(levels, cards)
