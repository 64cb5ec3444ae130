"""The actions and reactions: Build, Development of Culture, Research, Recruit, Cultural Exchange,
Receive Resources and Sell Goods (HRE-BASE-BUILD/DEV/RESEARCH/RECRUIT/CULTEX/RECV/SELL); and the
refusal of illegal moves."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.core.canonical import state_hash
from rules.core.errors import IllegalAction
from rules.hre import ENGINE
from rules.hre.state import Ctx, army_limit, data, modifiers, unit_level, unit_stats
from tests.rules.hre.helpers import (
    act,
    actions,
    clear_barbarians,
    decide,
    game,
    give,
    hand,
    top,
    turn_of,
    unchanged,
    units,
)

State = dict[str, Any]
NOTHING = {"wood": 0, "leather": 0, "stone": 0, "iron": 0, "gold": 0}


def two_players() -> State:
    """Arnulf (seat 0, Capital Bavaria) against Berengar (seat 1, Capital Ivrea); seat 0 to play,
    every disc available, no Barbarians, no resources or Gold."""
    s = game(2, rulers=["arnulf", "berengar"])
    clear_barbarians(s)
    for i, seat in enumerate(s["seats"]):
        seat["discs"], seat["exhausted"] = seat["total_discs"], 0
        give(s, i, **NOTHING)
    return turn_of(s, 0)


def noble(s: State, action: str) -> State:
    """The deciding seat places a Noble on an Action card."""
    i = [x["action"] for x in s["slots"]].index(action)
    s, _ = act(s, {"do": "noble", "slot": i})
    return s


def city(s: State, prov: str, seat: int, **counts: int) -> None:
    """A City the seat controls in a province (with the given units, default 1 infantry)."""
    units(s, prov, seat, **(counts or {"infantry": 1}))
    s["prov"][prov]["city"] = True
    s["cities"] -= 1


def builds(s: State) -> list[dict[str, Any]]:
    """The Build options now (the seat must be on its Build decision)."""
    return [a for a in actions(s) if a.get("build")]


def res(s: State, seat: int = 0) -> dict[str, int]:
    me = s["seats"][seat]
    return {**me["res"], "gold": me["gold"]}


# --------------------------------------------------------------------------- Build


def test_HRE_BASE_BUILD_01_one_build_of_each_kind_per_action() -> None:
    """HRE-BASE-BUILD-01: a Build offers City, Production building, Church, Keep, second Farm and
    Warehouse, and does exactly one of them."""
    s = two_players()
    units(s, "swabia", 0, infantry=1)
    give(s, 0, wood=5, stone=5, iron=5, leather=5)
    s = noble(s, "build")
    kinds = {a["build"] for a in builds(s)}
    assert kinds == {"city", "production", "church", "keep", "farm", "warehouse"}
    s, _ = act(s, {"build": "keep", "prov": "bavaria"})
    assert top(s)["kind"] == "turn" and top(s)["phase"] == "after"
    assert s["prov"]["bavaria"]["keep"] == 1 and res(s)["stone"] == 4


def test_HRE_BASE_BUILD_02_03_city_cost_supply_and_culture() -> None:
    """HRE-BASE-BUILD-02, HRE-BASE-BUILD-03: a City costs Wood + Stone, goes in a controlled
    province with no City, comes from the supply, gives 2 CP and takes the original building into
    one of its 3 slots."""
    s = two_players()
    units(s, "swabia", 0, infantry=1)
    give(s, 0, wood=1, stone=1)
    s = noble(s, "build")
    assert [a for a in builds(s) if a["build"] == "city"] == [{"build": "city", "prov": "swabia"}]
    cities = s["cities"]
    s, _ = act(s, {"build": "city", "prov": "swabia"})
    assert s["prov"]["swabia"]["city"] and s["cities"] == cities - 1
    assert res(s) == NOTHING
    assert s["seats"][0]["culture"] == 2
    assert s["prov"]["swabia"]["bld"] == ["leather"]  # one slot of three used
    s = turn_of(s, 0)
    give(s, 0, wood=4, stone=4)
    s = noble(s, "build")
    assert {"build": "production", "prov": "swabia", "res": "leather"} in builds(s)


def test_HRE_BASE_BUILD_02_no_city_where_uncontrolled_or_built() -> None:
    """HRE-BASE-BUILD-02: no City in an uncontrolled province or one that already has a City."""
    s = two_players()
    give(s, 0, wood=1, stone=1)
    s["prov"]["lombardy"]["city"] = False
    s = noble(s, "build")
    cities = [a for a in builds(s) if a["build"] == "city"]
    assert cities == []  # Bavaria already has a City; nothing else is controlled


def test_HRE_BASE_BUILD_05_empty_city_supply() -> None:
    """HRE-BASE-BUILD-05: building the last City empties the supply, which triggers the end of the
    game at the end of the turn; with the supply empty no City can be built."""
    s = two_players()
    units(s, "swabia", 0, infantry=1)
    give(s, 0, wood=1, stone=1)
    s["cities"] = 1
    s = noble(s, "build")
    s, _ = act(s, {"build": "city", "prov": "swabia"})
    assert s["cities"] == 0 and not s["end_triggered"]
    s, _ = act(s, {"do": "end"})
    assert s["end_triggered"]

    s = two_players()
    units(s, "swabia", 0, infantry=1)
    give(s, 0, wood=1, stone=1)
    s["cities"] = 0
    s = noble(s, "build")
    assert not [a for a in builds(s) if a["build"] == "city"]


@pytest.mark.parametrize(
    ("resource", "cost"),
    [
        ("stone", {"wood": 1, "stone": 1}),  # Verona's own resource
        ("wood", {"wood": 1, "stone": 2}),  # Bavaria next door
        ("iron", {"wood": 1, "stone": 2}),  # Carinthia, Tuscany next door
        ("leather", {"wood": 1, "stone": 2}),  # Lombardy next door
    ],
)
def test_HRE_BASE_BUILD_06_07_production_cost_local_or_neighbour(
    resource: str, cost: dict[str, int]
) -> None:
    """HRE-BASE-BUILD-06, HRE-BASE-BUILD-07: Wood + Stone for the province's resource, Wood + Stone
    + Stone for a neighbour's."""
    s = two_players()
    city(s, "verona", 0)
    give(s, 0, wood=3, stone=3)
    s = noble(s, "build")
    s, _ = act(s, {"build": "production", "prov": "verona", "res": resource})
    assert s["prov"]["verona"]["bld"] == ["stone", resource]
    spent = {r: 3 - res(s)[r] for r in ("wood", "stone")}
    assert {r: n for r, n in spent.items() if n} == cost


def test_HRE_BASE_BUILD_08_no_building_for_an_unseen_resource() -> None:
    """HRE-BASE-BUILD-08: Ivrea (Stone) neighbours only Lombardy (Leather) and Tuscany (Iron) at 2
    players: no Wood building can be built there."""
    s = two_players()
    turn_of(s, 1)
    give(s, 1, wood=5, stone=5)
    s = noble(s, "build")
    prod = {a["res"] for a in builds(s) if a["build"] == "production" and a["prov"] == "ivrea"}
    assert prod == {"stone", "leather", "iron"}


def test_HRE_BASE_BUILD_09_10_slots_needed_for_buildings_and_church() -> None:
    """HRE-BASE-BUILD-09, HRE-BASE-BUILD-10: Production buildings and Churches need a controlled
    City with a free slot (3 slots; buildings and the Church fill them); no second Church in a
    province."""
    s = two_players()
    units(s, "swabia", 0, infantry=1)  # no City
    give(s, 0, wood=9, stone=9)
    s["prov"]["bavaria"]["bld"] = ["wood", "wood"]
    s["prov"]["bavaria"]["church"] = True
    s = noble(s, "build")
    kinds = {(a["build"], a.get("prov")) for a in builds(s)}
    assert ("production", "bavaria") not in kinds and ("church", "bavaria") not in kinds
    assert ("production", "swabia") not in kinds and ("church", "swabia") not in kinds
    s["prov"]["bavaria"]["bld"] = ["wood"]
    kinds = {(a["build"], a.get("prov")) for a in builds(s)}
    assert ("production", "bavaria") in kinds and ("church", "bavaria") not in kinds


def test_HRE_BASE_BUILD_10_11_church_cost_and_track() -> None:
    """HRE-BASE-BUILD-10, HRE-BASE-BUILD-11: a Church costs 2 Wood + 1 Stone and comes from the
    track; with the track empty no Church can be built."""
    s = two_players()
    give(s, 0, wood=2, stone=1)
    s = noble(s, "build")
    s, _ = act(s, {"build": "church", "prov": "bavaria"})
    assert s["prov"]["bavaria"]["church"] and s["churches"] == 1 and res(s) == NOTHING

    s = two_players()
    give(s, 0, wood=2, stone=1)
    s["churches"] = data().board["church_track"]["spaces"]
    s = noble(s, "build")
    assert not [a for a in builds(s) if a["build"] == "church"]


def test_HRE_BASE_BUILD_12_TC_03_church_in_carinthia_scores_7() -> None:
    """HRE-BASE-BUILD-12 (TC-03): a Church in Carinthia (its Region without a Church; the yellow
    Region next door without one; the orange Region with a Church in Swabia) scores 5+1+1+0 = 7."""
    s = two_players()
    city(s, "carinthia", 0)
    city(s, "swabia", 1)
    s["prov"]["swabia"]["church"] = True
    assert {data().provinces[q]["region"] for q in ("verona", "bavaria", "ostmark")} == {
        "italy",
        "swabia_bavaria",
    }
    assert data().regions["italy"]["colour_name"] == "yellow"
    assert data().regions["swabia_bavaria"]["colour_name"] == "orange"
    give(s, 0, wood=2, stone=1)
    s = noble(s, "build")
    s, _ = act(s, {"build": "church", "prov": "carinthia"})
    assert s["seats"][0]["vp"] == 7


def test_HRE_BASE_BUILD_12_church_scoring_counts_before_placing() -> None:
    """HRE-BASE-BUILD-12 (AMB-09): with Churches around, only the base 5 VP remain; the own Region
    is not counted again as a neighbour."""
    s = two_players()
    city(s, "carinthia", 0)
    for p in ("friuli", "verona", "bavaria"):
        s["prov"][p]["church"] = True
    give(s, 0, wood=2, stone=1)
    s = noble(s, "build")
    s, _ = act(s, {"build": "church", "prov": "carinthia"})
    assert s["seats"][0]["vp"] == 5


def test_HRE_BASE_BUILD_13_relic_before_paying() -> None:
    """HRE-BASE-BUILD-13: one Relic may be played with a Church; its effect (Holy Lance: 1 Wood
    less, +2 CP) applies before paying, and it is discarded."""
    s = two_players()
    hand(s, 0, ["C031"])
    give(s, 0, wood=1, stone=1)
    s = noble(s, "build")
    s, _ = act(s, {"build": "church", "prov": "bavaria"})
    assert top(s)["kind"] == "relic"
    assert actions(s) == [{"relic": "C031"}]  # without it the Church is unaffordable
    s, _ = act(s, {"relic": "C031"})
    assert s["prov"]["bavaria"]["church"] and res(s) == NOTHING
    assert s["seats"][0]["culture"] == 2
    assert "C031" in s["discard"] and "C031" not in s["seats"][0]["hand"]


def test_HRE_BASE_BUILD_14_church_marked_n_ends_the_game() -> None:
    """HRE-BASE-BUILD-14: building the Church marked 2 (the 7th) triggers the end at the turn's
    end."""
    s = two_players()
    s["churches"] = 6
    give(s, 0, wood=2, stone=1)
    s = noble(s, "build")
    s, _ = act(s, {"build": "church", "prov": "bavaria"})
    assert s["churches"] == 7 and not s["end_triggered"]
    s, _ = act(s, {"do": "end"})
    assert s["end_triggered"]


def test_HRE_BASE_BUILD_15_16_keep_levels_and_costs() -> None:
    """HRE-BASE-BUILD-15, HRE-BASE-BUILD-16: Keep levels cost Stone, Stone + Wood, Stone + Iron; one
    level per Build, only in a controlled City, at most 3."""
    s = two_players()
    units(s, "swabia", 0, infantry=1)  # no City: no Keep
    spent = []
    for _ in range(3):
        s = turn_of(s, 0)
        give(s, 0, wood=1, stone=1, iron=1)
        s = noble(s, "build")
        assert not [a for a in builds(s) if a["build"] == "keep" and a["prov"] == "swabia"]
        s, _ = act(s, {"build": "keep", "prov": "bavaria"})
        spent.append(
            {r: 1 - n for r, n in s["seats"][0]["res"].items() if n == 0 and r != "leather"}
        )
    assert spent == [{"stone": 1}, {"stone": 1, "wood": 1}, {"stone": 1, "iron": 1}]
    assert s["prov"]["bavaria"]["keep"] == 3
    s = turn_of(s, 0)
    give(s, 0, wood=3, stone=3, iron=3)
    s = noble(s, "build")
    assert not [a for a in builds(s) if a["build"] == "keep"]


def test_HRE_BASE_BUILD_18_19_second_farm_only() -> None:
    """HRE-BASE-BUILD-18, HRE-BASE-BUILD-19: a first Farm only comes from Settling; a second costs 2
    Wood where you already have one, from the Farm track; never a third."""
    s = two_players()
    units(s, "swabia", 0, infantry=1)
    give(s, 0, wood=2)
    s = noble(s, "build")
    farms = [a for a in builds(s) if a["build"] == "farm"]
    assert farms == [{"build": "farm", "prov": "bavaria"}]
    s, _ = act(s, {"build": "farm", "prov": "bavaria"})
    assert s["prov"]["bavaria"]["farms"] == 2 and s["seats"][0]["farms_track"] == 10
    assert res(s) == NOTHING and army_limit(s, 0) == 3
    s = turn_of(s, 0)
    give(s, 0, wood=2)
    s = noble(s, "build")
    assert not [a for a in builds(s) if a["build"] == "farm"]


def test_HRE_BASE_BUILD_20_TC_04_second_warehouse_costs_wood_or_stone() -> None:
    """HRE-BASE-BUILD-20 (TC-04): with one Warehouse built, the second costs 1 Wood or 1 Stone;
    paying 1 Wood moves the marker down one space."""
    s = two_players()
    s["seats"][0]["warehouse"] = 1
    give(s, 0, wood=1, stone=1)
    s = noble(s, "build")
    s, _ = act(s, {"build": "warehouse"})
    assert [a["pay"] for a in actions(s)] in (
        [{"wood": 1}, {"stone": 1}],
        [{"stone": 1}, {"wood": 1}],
    )
    s, _ = act(s, {"pay": {"wood": 1}})
    assert s["seats"][0]["warehouse"] == 2 and res(s) == {**NOTHING, "stone": 1}


def test_HRE_BASE_BUILD_21_warehouse_sets_sell_and_hold() -> None:
    """HRE-BASE-BUILD-21: at Warehouse row 2 a Pass may sell 2 resources and must discard down to
    7."""
    s = two_players()
    s["seats"][0]["warehouse"] = 2
    s["seats"][0]["discs"], s["seats"][0]["exhausted"] = 5, 1
    give(s, 0, wood=10)
    s, _ = act(s, {"do": "pass"})
    while top(s)["kind"] != "sell":
        s, _ = act(s, actions(s)[-1])
    assert top(s)["left"] == 2
    s, _ = act(s, {"sell": None})
    assert top(s)["kind"] == "discard_res"
    for _ in range(3):
        s, _ = act(s, {"discard": "wood"})
    assert top(s)["kind"] != "discard_res"
    while top(s)["kind"] != "turn":
        s, _ = act(s, actions(s)[-1])
    assert s["seats"][0]["res"]["wood"] == 7 + 1  # Bavaria produces 1 Wood after the hold check


# --------------------------------------------------------------------------- Development of Culture


@pytest.mark.parametrize(("culture", "reach"), [(0, 2), (2, 2), (3, 3), (6, 3), (7, 4), (17, 6)])
def test_HRE_BASE_DEV_01_02_TC_05_accessible_cards(culture: int, reach: int) -> None:
    """HRE-BASE-DEV-01, HRE-BASE-DEV-02 (TC-05), HRE-BASE-GEN-11: cards left of the marker are
    accessible; each red space entered unlocks one more."""
    s = two_players()
    s["seats"][0]["culture"] = culture
    s = noble(s, "culture")
    assert actions(s) == [{"take": i} for i in range(reach)]


def test_HRE_BASE_DEV_01_03_take_slide_and_refill() -> None:
    """HRE-BASE-DEV-01, HRE-BASE-DEV-03: the card goes to hand, the rest slide left and the deck's
    top card fills the rightmost space."""
    s = two_players()
    offer, next_card = list(s["offer"]), s["deck"][-1]
    s = noble(s, "culture")
    s, _ = act(s, {"take": 1})
    assert offer[1] in s["seats"][0]["hand"]
    assert s["offer"] == [offer[0], *offer[2:], next_card]


def test_HRE_BASE_DEV_05_offer_card_types() -> None:
    """HRE-BASE-DEV-05, HRE-BASE-GEN-19: base offer cards are Common/Military Technologies, Relics
    and Cognomens."""
    s = game(4)
    types = {data().cards[c]["type"] for c in s["deck"] + s["offer"]}
    assert types == {"common_tech", "military_tech", "relic", "cognomen"}


# --------------------------------------------------------------------------- Research


def test_HRE_BASE_RESEARCH_01_02_three_options_and_free_common_tech() -> None:
    """HRE-BASE-RESEARCH-01, HRE-BASE-RESEARCH-02 (AMB-14): play a Common Technology at level 1 for
    free, upgrade one or play a Military Technology; option A costs no Gold."""
    s = two_players()
    s["seats"][0]["hand"] = ["C011", "C074"]
    s["seats"][0]["techs"] = [{"card": "C001", "level": 1}]
    give(s, 0, gold=1)
    s = noble(s, "research")
    assert {a["research"] for a in actions(s)} == {"common", "upgrade", "military"}
    s, _ = act(s, {"research": "common", "card": "C011"})
    assert s["seats"][0]["techs"][-1] == {"card": "C011", "level": 1}
    assert s["seats"][0]["gold"] == 1 and "C011" not in s["seats"][0]["hand"]


def test_HRE_BASE_RESEARCH_03_no_fifth_common_technology() -> None:
    """HRE-BASE-RESEARCH-03 (HRE-BASE-GEN-12): with 4 Common Technologies no fifth can be played."""
    s = two_players()
    s["seats"][0]["techs"] = [{"card": c, "level": 3} for c in ("C012", "C013", "C014", "C016")]
    s["seats"][0]["hand"] = ["C011"]
    s = noble(s, "research")
    assert actions(s) == [{"research": None}]


def test_HRE_BASE_RESEARCH_04_05_SETTLE_09_immediate_on_reveal_and_upgrade() -> None:
    """HRE-BASE-RESEARCH-04, HRE-BASE-RESEARCH-05, HRE-BASE-SETTLE-09: Three-Field Rotation's
    'Immediate!' level 1 boxes a Farm from the board (Army limit up) when played; upgrades cost 1
    Gold each, level 3 boxes another; there is no upgrade past level 3."""
    s = two_players()
    s["seats"][0]["hand"] = ["C011"]
    s = noble(s, "research")
    s, _ = act(s, {"research": "common", "card": "C011"})
    me = s["seats"][0]
    assert me["farms_track"] == 10 and me["farms_boxed"] == 1 and army_limit(s, 0) == 3
    for level, boxed in ((2, 1), (3, 2)):
        s = turn_of(s, 0)
        give(s, 0, gold=1)
        s = noble(s, "research")
        s, _ = act(s, {"research": "upgrade", "card": "C011"})
        me = s["seats"][0]
        assert me["techs"] == [{"card": "C011", "level": level}] and me["gold"] == 0
        assert me["farms_boxed"] == boxed
    assert army_limit(s, 0) == 4
    s = turn_of(s, 0)
    give(s, 0, gold=1)
    s = noble(s, "research")
    assert actions(s) == [{"research": None}]


def test_HRE_BASE_RESEARCH_06_levels_stack_unless_replaced() -> None:
    """HRE-BASE-RESEARCH-06: every visible level is active (Levied Archers level 2 keeps its level 1
    bonus) unless a level replaces the earlier ones (its level 3)."""
    s = two_players()
    s["seats"][0]["techs"] = [{"card": "C015", "level": 2}]
    assert modifiers(s, 0, "on_recruit") == [{"kind": "on_recruit", "gain": {"cp": 1}}]
    s["seats"][0]["techs"] = [{"card": "C015", "level": 3}]
    assert modifiers(s, 0, "on_recruit") == [{"kind": "on_recruit", "free_unit": "archer"}]


def test_HRE_BASE_RESEARCH_07_TC_06_c074_only_as_level_2_archer() -> None:
    """HRE-BASE-RESEARCH-07 (TC-06): with all units at level I, C074 can only be played as a level 2
    Archer, for 1 Gold; not as level 3 Infantry; not without Gold."""
    s = two_players()
    s["seats"][0]["hand"] = ["C074"]
    s = noble(s, "research")
    assert actions(s) == [{"research": None}]
    s = two_players()
    s["seats"][0]["hand"] = ["C074"]
    give(s, 0, gold=1)
    s = noble(s, "research")
    assert actions(s) == [{"research": "military", "card": "C074", "half": 0}]
    s, _ = act(s, {"research": "military", "card": "C074", "half": 0})
    assert unit_level(s, 0, "archer") == 2 and unit_level(s, 0, "infantry") == 1
    assert s["seats"][0]["gold"] == 0


def test_HRE_BASE_RESEARCH_08_09_10_pick_a_half_new_stats_and_level() -> None:
    """HRE-BASE-RESEARCH-08, HRE-BASE-RESEARCH-09, HRE-BASE-RESEARCH-10: the player picks which half
    of a two-half card to use; new combat values apply at once, new recruit costs to later recruits;
    the level counts for settling. HRE-BASE-GEN-13, HRE-BASE-GEN-14: the top Military Technology
    covers the printed level I stats."""
    s = two_players()
    assert unit_stats(s, 0, "archer") == data().board["units"]["archer"]  # printed level I
    s["seats"][0]["mil"]["archer"] = {"card": "C074", "half": 0}  # archer already level II
    s["seats"][0]["hand"] = ["C059"]  # infantry II / archer III
    give(s, 0, gold=1)
    s = noble(s, "research")
    assert [a["half"] for a in actions(s)] == [0, 1]
    s, _ = act(s, {"research": "military", "card": "C059", "half": 1})
    assert unit_level(s, 0, "archer") == 3 and s["seats"][0]["mil_under"] == ["C074"]
    assert unit_stats(s, 0, "archer")["volley"] == 3
    assert unit_stats(s, 0, "archer")["cost"] == {"wood": 1, "leather": 1, "iron": 1}
    units(s, "swabia", 0, archer=1)  # Arnulf's cost there is 2: one level-III Archer pays it
    s, _ = act(s, {"do": "settle", "prov": "swabia"})
    assert s["prov"]["swabia"]["farms"] == 1 and s["prov"]["swabia"]["units"]["archer"] == 0


def test_HRE_BASE_RESEARCH_11_four_level_three_techs_end_the_game() -> None:
    """HRE-BASE-RESEARCH-11: 2 Common Technologies at level 3 and 2 Military at level III count 4
    level-3 Technologies: the end triggers at the end of the turn."""
    from rules.hre import scoring

    s = two_players()
    me = s["seats"][0]
    me["techs"] = [{"card": "C012", "level": 3}, {"card": "C013", "level": 3}]
    me["mil"]["infantry"] = {"card": "C087", "half": 1}
    me["mil"]["archer"] = {"card": "C074", "half": 0}
    me["hand"] = ["C059"]
    give(s, 0, gold=1)
    assert scoring.level_three_count(Ctx(s), 0) == 3
    s = noble(s, "research")
    s, _ = act(s, {"research": "military", "card": "C059", "half": 1})
    assert scoring.level_three_count(Ctx(s), 0) == 4
    s, _ = act(s, {"do": "end"})
    assert s["end_triggered"]


# --------------------------------------------------------------------------- Recruit


def test_HRE_BASE_RECRUIT_01_TC_07_archer_in_lombardy() -> None:
    """HRE-BASE-RECRUIT-01 (TC-07), HRE-BASE-BUILD-04 (recruiting needs a City): an Archer costs
    1 Wood + 1 Leather and appears in a controlled province with a City."""
    s = two_players()
    city(s, "lombardy", 0)
    units(s, "swabia", 0, infantry=1)  # controlled, no City: no recruiting there
    give(s, 0, wood=1, leather=1)
    s = noble(s, "recruit")
    assert {a["prov"] for a in actions(s)} == {"bavaria", "lombardy"}
    s, _ = act(s, {"unit": "archer", "prov": "lombardy"})
    assert s["prov"]["lombardy"]["units"] == {"infantry": 1, "archer": 1, "cavalry": 0}
    assert res(s) == NOTHING


def test_HRE_BASE_RECRUIT_03_04_levied_archers_on_action_and_reaction() -> None:
    """HRE-BASE-RECRUIT-03, HRE-BASE-RECRUIT-04: a 'Recruit' Technology (Levied Archers: +1 CP)
    fires on the Recruit action and on the Recruit reaction, which the reacting player pays for."""
    s = two_players()
    s["seats"][0]["techs"] = [{"card": "C015", "level": 1}]
    give(s, 0, leather=2)
    s = noble(s, "recruit")
    s, _ = act(s, {"unit": "infantry", "prov": "bavaria"})
    assert s["seats"][0]["culture"] == 1
    s = turn_of(s, 1)
    decide(s, {"kind": "recruit", "seat": 0, "stage": "choose"})
    s, _ = act(s, {"unit": "infantry", "prov": "bavaria"})
    assert s["seats"][0]["culture"] == 2 and s["seats"][0]["res"]["leather"] == 0
    assert s["prov"]["bavaria"]["units"]["infantry"] == 4


# --------------------------------------------------------------------------- reactions


def react(s: State, kind: str, seat: int = 0) -> State:
    """Seat answers a reaction of this kind (pushed on another player's turn)."""
    turn_of(s, 1 - seat)
    return decide(s, {"kind": kind, "seat": seat})


def test_HRE_BASE_CULTEX_01_discard_any_card_for_gold() -> None:
    """HRE-BASE-CULTEX-01: discard any card from hand, a starting Technology included, for 1
    Gold."""
    s = react(two_players(), "cultural_exchange")
    assert {"discard": "C005"} in actions(s)
    s, _ = act(s, {"discard": "C005"})
    assert s["seats"][0]["gold"] == 1 and "C005" in s["discard"]
    assert s["seats"][0]["hand"] == ["C006"]


def test_HRE_BASE_CULTEX_02_buy_any_offer_card() -> None:
    """HRE-BASE-CULTEX-02 (TC-05): pay 1 Gold to take any offer card, whatever the marker; the offer
    slides and refills."""
    s = react(two_players(), "cultural_exchange")
    give(s, 0, gold=1)
    offer, next_card = list(s["offer"]), s["deck"][-1]
    assert {"take": 5} in actions(s)
    s, _ = act(s, {"take": 5})
    assert offer[5] in s["seats"][0]["hand"] and s["seats"][0]["gold"] == 0
    assert s["offer"] == [*offer[:5], next_card]


def test_HRE_BASE_CULTEX_02_no_purchase_without_gold() -> None:
    """HRE-BASE-CULTEX-02: without Gold only the discard option is open."""
    s = react(two_players(), "cultural_exchange")
    assert all("discard" in a for a in actions(s))


@pytest.mark.parametrize(
    ("kind", "rule", "choices"),
    [
        ("wood_or_stone", "HRE-BASE-RECV-01", ["wood", "stone"]),
        ("wood_or_leather", "HRE-BASE-RECV-02", ["wood", "leather"]),
    ],
)
def test_HRE_BASE_RECV_01_02_receive_a_resource(kind: str, rule: str, choices: list[str]) -> None:
    """HRE-BASE-RECV-01, HRE-BASE-RECV-02: gain 1 Wood or 1 Stone / 1 Wood or 1 Leather."""
    for pick in choices:
        s = react(two_players(), kind)
        assert ENGINE.prompts(s)[0]["rule"] == rule
        assert actions(s) == [{"gain": c} for c in choices]
        s, _ = act(s, {"gain": pick})
        assert res(s) == {**NOTHING, pick: 1}


def test_HRE_BASE_SELL_01_iron_for_gold() -> None:
    """HRE-BASE-SELL-01: pay 1 Iron, gain 1 Gold."""
    s = react(two_players(), "sell_goods")
    give(s, 0, iron=1)
    s, _ = act(s, {"iron_for_gold": True})
    assert res(s) == {**NOTHING, "gold": 1}


@pytest.mark.parametrize(
    ("resource", "cp"), [("wood", 1), ("leather", 1), ("stone", 2), ("iron", 3)]
)
def test_HRE_BASE_SELL_02_TC_26_trade_values(resource: str, cp: int) -> None:
    """HRE-BASE-SELL-02 (TC-26): one resource sells for Wood 1, Leather 1, Stone 2, Iron 3 CP."""
    s = react(two_players(), "sell_goods")
    give(s, 0, **{resource: 1})
    s["red_claimed"] = [3]  # no red-space Gold muddling the count (HRE-BASE-GEN-10)
    s, _ = act(s, {"sell": resource})
    assert s["seats"][0]["culture"] == cp and res(s) == NOTHING


def test_HRE_BASE_SELL_02_gold_cannot_be_sold() -> None:
    """HRE-BASE-SELL-02: Gold is not a resource: with only Gold there is nothing to sell."""
    s = react(two_players(), "sell_goods")
    give(s, 0, gold=3)
    assert actions(s) == [{"sell": None}]


# --------------------------------------------------------------------------- illegal moves


def test_illegal_out_of_turn_or_malformed_actions_are_refused() -> None:
    """An illegal, out-of-turn or malformed action raises IllegalAction with a readable message and
    leaves the state unchanged."""
    s = two_players()
    snapshot = copy.deepcopy(s)
    before = state_hash(s)
    bad: list[tuple[Any, Any, str]] = [
        (1, {"do": "noble", "slot": 0}, "not seat 2's decision"),
        (7, {"do": "noble", "slot": 0}, "not seat 8's decision"),
        (True, {"do": "noble", "slot": 0}, "not part of this game"),
        (0, {"do": "noble", "slot": 9}, "not one of the choices"),
        (0, {"do": "pass"}, "not one of the choices"),  # every disc available (TURN-08)
        (0, {"do": "settle", "prov": "swabia"}, "not one of the choices"),
        (0, {"do": "noble", "slot": {1, 2}}, "not well-formed"),
        (0, "build", "not one of the choices"),
        (0, None, "not one of the choices"),
    ]
    for seat, action, message in bad:
        with pytest.raises(IllegalAction, match=message):
            ENGINE.apply(s, seat, action)
        assert state_hash(s) == before
    s2 = noble(s, "build")
    with pytest.raises(IllegalAction, match="not one of the choices"):
        ENGINE.apply(s2, 0, {"build": "city", "prov": "bavaria"})  # already a City, no resources
    s2["over"] = True
    with pytest.raises(IllegalAction, match="game is over"):
        ENGINE.apply(s2, 0, {"build": None})
    assert unchanged(snapshot, s)
