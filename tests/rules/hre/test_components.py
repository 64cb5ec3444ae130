"""Tests for the HRE component data and its loader (rules/hre/components.py)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from rules.hre import components
from rules.hre.components import (
    PLAYER_COUNTS,
    ComponentError,
    HreData,
    build,
    in_play,
    load,
    read_raw,
    validate,
)

Raw = dict[str, Any]


@pytest.fixture(scope="module")
def data() -> HreData:
    return load()


def _raw() -> Raw:
    return copy.deepcopy(read_raw())


def _prov(raw: Raw, pid: str) -> dict[str, Any]:
    return next(p for p in raw["map"]["provinces"] if p["id"] == pid)


def _card(raw: Raw, cid: str) -> dict[str, Any]:
    return next(c for c in raw["culture_cards"] if c["id"] == cid)


def _neighbours(data: HreData, pid: str, players: int = 4) -> set[str]:
    live = in_play(data.provinces, players)
    return {q for q in data.adjacent[pid] if q in live}


# --------------------------------------------------------------------------- loading


def test_data_loads_and_is_cached(data: HreData) -> None:
    """The packaged data validates and load() returns the cached object."""
    assert load() is data
    assert len(in_play(data.provinces, 4)) == 28  # the rest is Module 2's western half
    assert len(data.tokens) == 25
    assert set(data.barbarian_units) == {"infantry", "archer", "cavalry"}
    assert all(cid.startswith("C") and len(cid) == 4 for cid in data.cards)


def test_adjacent_and_region_provinces_are_precomputed(data: HreData) -> None:
    """adjacent merges land and water links (sorted); region_provinces covers every province."""
    for pid, prov in data.provinces.items():
        assert data.adjacent[pid] == tuple(sorted({*prov["land"], *prov["water"]}))
    members = [p for ps in data.region_provinces.values() for p in ps]
    assert sorted(members) == sorted(data.provinces)


# --------------------------------------------------------------------------- validation errors


def _asymmetric(raw: Raw) -> None:
    _prov(raw, "lombardy")["land"].remove("verona")


def _self_link(raw: Raw) -> None:
    _prov(raw, "lombardy")["land"].append("lombardy")


def _unknown_link(raw: Raw) -> None:
    _prov(raw, "lombardy")["water"].append("atlantis")


def _cut_off(raw: Raw) -> None:
    for a, b in (("latium", "benevento"), ("croatia", "benevento")):
        _prov(raw, a)["land" if a == "latium" else "water"].remove(b)
        _prov(raw, b)["land" if a == "latium" else "water"].remove(a)


def _too_many_provinces(raw: Raw) -> None:
    for n in (1, 2):
        pid = f"extra_{n}"
        raw["map"]["regions"].append(
            {
                "id": f"w_{pid}",
                "name": pid,
                "colour": "#ffffff",
                "colour_name": "white",
                "title": None,
            }
        )
        raw["map"]["provinces"].append(
            {
                **_prov(raw, "pannonia"),
                "id": pid,
                "region": f"w_{pid}",
                "land": ["pannonia"],
                "water": [],
            }
        )
        _prov(raw, "pannonia")["land"].append(pid)


def _unknown_capital(raw: Raw) -> None:
    raw["rulers"][0]["capital"] = "atlantis"


def _missing_starting_card(raw: Raw) -> None:
    raw["rulers"][0]["starting_cards"] = ["C001", "C999"]


def _too_few_rulers(raw: Raw) -> None:
    raw["rulers"].pop(0)


def _shared_title_region(raw: Raw) -> None:
    raw["titles"][1]["region"] = raw["titles"][0]["region"]


def _unknown_modifier_kind(raw: Raw) -> None:
    _card(raw, "C020")["levels"][0]["ongoing"][0]["kind"] = "teleport"


def _unknown_modifier_key(raw: Raw) -> None:
    _card(raw, "C020")["levels"][0]["ongoing"][0]["bonus"] = 1


def _wrong_type(raw: Raw) -> None:
    _card(raw, "C020")["players"] = "2"


def _gold_in_cost(raw: Raw) -> None:
    raw["board"]["costs"]["city"] = {"gold": 1}


def _two_levels(raw: Raw) -> None:
    _card(raw, "C011")["levels"].pop()


def _military_level_4(raw: Raw) -> None:
    _card(raw, "C074")["halves"][0]["level"] = 4


def _bad_card_id(raw: Raw) -> None:
    _card(raw, "C039")["id"] = "X39"


def _duplicate_card_id(raw: Raw) -> None:
    _card(raw, "C040")["id"] = "C039"


def _card_missing(raw: Raw) -> None:
    raw["culture_cards"].remove(_card(raw, "C090"))


def _card_beyond_range(raw: Raw) -> None:
    _card(raw, "C102")["id"] = "C103"


def _level_two_no_better(raw: Raw) -> None:
    _card(raw, "C089")["halves"][0].update(charge=4, melee=5, armour=2)  # level I cavalry


def _level_three_weaker(raw: Raw) -> None:
    _card(raw, "C085")["halves"][1]["volley"] = 4  # level III archer worse than C059's II


def _token_count(raw: Raw) -> None:
    raw["barbarians"]["tokens"].pop()


def _farm_spaces(raw: Raw) -> None:
    raw["board"]["farm_track"].pop()


def _red_spaces(raw: Raw) -> None:
    raw["board"]["culture_track"][1]["red"] = True


def _reaction_missing(raw: Raw) -> None:
    raw["board"]["reaction_layout"][1] = ["recruit", "regroup"]


BROKEN: list[tuple[Callable[[Raw], None], str]] = [
    (_asymmetric, "map.json: province verona.land: link to lombardy is not mirrored"),
    (_self_link, "cannot neighbour itself"),
    (_unknown_link, "unknown province 'atlantis'"),
    (_cut_off, "2 players: provinces"),
    (_too_many_provinces, "4 players: 30 provinces in play"),
    (_unknown_capital, "rulers.json: otto.capital: unknown province 'atlantis'"),
    (_missing_starting_card, "unknown card 'C999'"),
    (_too_few_rulers, "expected 5 base and 2 M03 Rulers"),
    (_shared_title_region, "titles.json: kingdom_of_benevento: region italy does not name"),
    (_unknown_modifier_kind, "C020.levels[0].ongoing[0].kind: 'teleport' is not one of"),
    (_unknown_modifier_key, "C020.levels[0].ongoing[0]: unknown key(s) ['bonus']"),
    (_wrong_type, "C020.players: '2' is not one of"),
    (_gold_in_cost, "board.json: costs.city[0].gold"),
    (_two_levels, "C011.levels: a Common Technology has exactly 3 levels"),
    (_military_level_4, "C074.halves[0].level: 4 is not one of"),
    (_bad_card_id, "does not match C\\d{3}"),
    (_duplicate_card_id, "culture_cards.json: C039: duplicate id"),
    (_card_missing, "expected the 102 cards C001..C102; missing ['C090']"),
    (_card_beyond_range, "outside the range ['C103']"),
    (_level_two_no_better, "C089 cavalry level 2: must match the printed level I"),
    (_level_three_weaker, "C085 archer level 3: is weaker in some stat than the level II half of"),
    (_token_count, "expected 25 tokens, got 24"),
    (_farm_spaces, "expected 12 spaces, got 11"),
    (_red_spaces, "5 red spaces, expected offer_size - base_access = 4"),
    (_reaction_missing, "appear nowhere"),
]


@pytest.mark.parametrize(("breaker", "message"), BROKEN, ids=[b.__name__[1:] for b, _ in BROKEN])
def test_validation_rejects_broken_data(breaker: Callable[[Raw], None], message: str) -> None:
    """Each broken copy raises ComponentError with a message naming file, item and problem."""
    raw = _raw()
    breaker(raw)
    with pytest.raises(ComponentError) as err:
        validate(raw)
    assert message in str(err.value)


def test_component_error_is_a_value_error() -> None:
    assert issubclass(ComponentError, ValueError)
    raw = _raw()
    del raw["board"]
    with pytest.raises(ValueError, match="missing key"):
        build(raw)


def test_unmodified_copy_validates() -> None:
    validate(_raw())


# --------------------------------------------------------------------------- map examples


@pytest.mark.rule("HRE-BASE-GEN-04")
def test_HRE_BASE_GEN_04_TC_01_border_and_water_link(data: HreData) -> None:
    """TC-01: Marca Geronis-Bohemia share a border; Croatia-Benevento a water link; both ways."""
    mg, bo = data.provinces["marca_geronis"], data.provinces["bohemia"]
    assert "bohemia" in mg["land"] and "marca_geronis" in bo["land"]
    cr, be = data.provinces["croatia"], data.provinces["benevento"]
    assert "benevento" in cr["water"] and "croatia" in be["water"]
    assert "benevento" in data.adjacent["croatia"] and "croatia" in data.adjacent["benevento"]


@pytest.mark.rule("HRE-BASE-GEN-04")
def test_HRE_BASE_GEN_04_neighbours_are_symmetric(data: HreData) -> None:
    for pid, others in data.adjacent.items():
        assert pid not in others
        for other in others:
            assert pid in data.adjacent[other]


@pytest.mark.rule("HRE-BASE-SCORE-04")
def test_HRE_BASE_SCORE_04_TC_11_keep_example_neighbours(data: HreData) -> None:
    """TC-11: Lombardy and Verona have the neighbours the Keep-scoring example counts."""
    assert {"tuscany", "verona", "swabia", "bavaria"} <= set(data.adjacent["lombardy"])
    assert {"bavaria", "lombardy", "tuscany", "romagna"} <= set(data.adjacent["verona"])


@pytest.mark.rule("HRE-BASE-BUILD-12")
def test_HRE_BASE_BUILD_12_TC_03_church_example_geography(data: HreData) -> None:
    """TC-03: besides its own Region, only a yellow and an orange (Swabia's) Region touch Carinthia."""
    home = data.provinces["carinthia"]["region"]
    touching = {data.provinces[p]["region"] for p in data.adjacent["carinthia"]} - {home}
    colours = {data.regions[r]["colour_name"] for r in touching}
    assert colours == {"yellow", "orange"}
    orange = next(r for r in touching if data.regions[r]["colour_name"] == "orange")
    assert "swabia" in data.region_provinces[orange]
    assert data.regions[home]["colour_name"] not in {"yellow", "orange"}


@pytest.mark.rule("HRE-BASE-PASS-04")
def test_HRE_BASE_PASS_04_TC_09_kingdom_of_italy_region(data: HreData) -> None:
    """TC-09: Lombardy + Verona and one free disc suffice: the Region has 3 provinces at 2p."""
    region = data.titles["kingdom_of_italy"]["region"]
    members = data.region_provinces[region]
    assert {"lombardy", "verona"} <= set(members)
    live = in_play(data.provinces, 2)
    assert len([p for p in members if p in live]) == 3
    assert data.titles["kingdom_of_italy"]["players"] == 2


@pytest.mark.rule("HRE-BASE-SCORE-08")
def test_HRE_BASE_SCORE_08_TC_13_title_values(data: HreData) -> None:
    assert data.titles["kingdom_of_italy"]["vp"] == 7
    assert data.titles["kingdom_of_benevento"]["vp"] == 7
    region = data.titles["kingdom_of_benevento"]["region"]
    assert "benevento" in data.region_provinces[region]


def test_titles_sit_on_distinct_regions_sized_three_or_four(data: HreData) -> None:
    """Design: every Title Region has 3 or 4 in-play provinces whenever the Title is used."""
    box = [t for t in data.titles.values() if t["players"] <= 4]  # Module 2's are its own
    assert len(box) == 6
    assert len({t["region"] for t in box}) == 6
    for title in box:
        for n in range(title["players"], 5):
            live = in_play(data.provinces, n)
            size = len([p for p in data.region_provinces[title["region"]] if p in live])
            assert size in (3, 4), (title["id"], n, size)


@pytest.mark.rule("HRE-BASE-PASS-11")
def test_HRE_BASE_PASS_11_TC_10_production_example_resources(data: HreData) -> None:
    """TC-10: Carinthia depicts Iron; Verona and Bavaria can build their second resource."""
    res = {p: d["resource"] for p, d in data.provinces.items()}
    assert res["carinthia"] == "iron"
    for pid, pair in (("verona", {"wood", "stone"}), ("bavaria", {"wood", "leather"})):
        assert res[pid] in pair
        other = (pair - {res[pid]}).pop()
        assert any(res[q] == other for q in _neighbours(data, pid, 2))


@pytest.mark.rule("HRE-BASE-GEN-02")
def test_HRE_BASE_GEN_02_provinces_and_white_regions(data: HreData) -> None:
    for rid, region in data.regions.items():
        if region["colour"] == "#ffffff":
            assert len(data.region_provinces[rid]) == 1 and region["title"] is None
    for prov in data.provinces.values():
        assert prov["resource"] in ("wood", "leather", "stone", "iron")


def test_resources_are_spread(data: HreData) -> None:
    """Design: each resource on about a quarter of provinces; every neighbourhood shows two."""
    box = in_play(data.provinces, 4)  # this box's board; Module 2's western half has its test
    counts = Counter(data.provinces[p]["resource"] for p in box)
    assert all(6 <= counts[r] <= 8 for r in ("wood", "leather", "stone", "iron"))
    for n in (1, 2, 3, 4):  # 1: the solo map
        for pid in in_play(data.provinces, n):
            near = {data.provinces[q]["resource"] for q in _neighbours(data, pid, n)}
            assert len(near | {data.provinces[pid]["resource"]}) >= 2, (pid, n)


def test_in_play_counts_and_connectivity(data: HreData) -> None:
    counts = {n: len(in_play(data.provinces, n)) for n in (2, 3, 4)}
    assert counts == {2: 21, 3: 24, 4: 28}
    # The solo map (HRE-M01-SETUP-07): markings ignored, the 8 solo-icon provinces blocked; a
    # d20 names each of the 20 left by its number (HRE-M01-GEN-07).
    solo = in_play(data.provinces, 1)
    assert sorted(data.provinces[p]["solo_number"] for p in solo) == list(range(1, 21))
    assert {data.provinces[p]["players"] for p in solo} == {2, 3, 4}
    titled = [r for r, spec in data.regions.items() if spec["title"]]
    titled = [r for r in titled if data.titles[data.regions[r]["title"]]["players"] <= 4]
    assert all(sum(1 for p in data.region_provinces[r] if p in solo) >= 2 for r in titled)
    assert {r["capital"] for r in data.rulers.values() if r["module"] != "M02"} <= solo


@pytest.mark.rule("HRE-BASE-SETUP-12")
def test_HRE_BASE_SETUP_12_tokens_cover_every_non_capital(data: HreData) -> None:
    """Every in-play non-Capital gets a token even if every seated Ruler is a base Ruler."""
    base_caps = {r["capital"] for r in data.rulers.values() if r["module"] is None}
    assert base_caps <= in_play(data.provinces, 2)
    for n in (2, 3, 4):
        assert len(in_play(data.provinces, n)) - n <= len(data.tokens)


# --------------------------------------------------------------------------- rulers and cards


@pytest.mark.rule("HRE-BASE-SETUP-06")
def test_HRE_BASE_SETUP_06_rulers_and_starting_cards(data: HreData) -> None:
    """5 base Rulers plus Marozia and Henry the Fowler (M03), two starting cards each."""
    base = [r for r in data.rulers.values() if r["module"] is None]
    m03 = {r["id"] for r in data.rulers.values() if r["module"] == "M03"}
    assert len(base) == 5 and m03 == {"marozia", "henry_the_fowler"}
    for ruler in data.rulers.values():
        assert len(ruler["starting_cards"]) == 2
        for cid in ruler["starting_cards"]:
            assert data.cards[cid]["starting"] == ruler["id"]
        if ruler["module"] == "M03":
            types = sorted(data.cards[c]["type"] for c in ruler["starting_cards"])
            assert types[1] == "grand_building" and types[0] != "grand_building"


@pytest.mark.rule("HRE-BASE-RESEARCH-08")
def test_HRE_BASE_RESEARCH_08_TC_06_c074_halves(data: HreData) -> None:
    card = data.cards["C074"]
    assert card["type"] == "military_tech"
    halves = {(h["unit"], h["level"]) for h in card["halves"]}
    assert halves == {("archer", 2), ("infantry", 3)}


@pytest.mark.rule("HRE-BASE-RECRUIT-03")
def test_HRE_BASE_RECRUIT_03_levied_archers_triggers_on_recruit(data: HreData) -> None:
    card = next(c for c in data.cards.values() if c["name"] == "Levied Archers")
    assert card["type"] == "common_tech"
    kinds = [m["kind"] for lvl in card["levels"] for m in lvl.get("ongoing", [])]
    assert "on_recruit" in kinds


@pytest.mark.rule("HRE-COMP-07")
def test_HRE_COMP_07_grand_buildings_are_module_3(data: HreData) -> None:
    for n in range(49, 55):
        card = data.cards[f"C{n:03d}"]
        assert card["type"] == "grand_building" and card["module"] == "M03"
    assert all(c["module"] == "M03" for c in data.cards.values() if c["type"] == "grand_building")


@pytest.mark.rule("HRE-COMP-01")
@pytest.mark.rule("HRE-COMP-07")
def test_HRE_COMP_01_07_c_numbered_cards_are_the_248_less_the_module_ranges(data: HreData) -> None:
    """248 Culture and Module cards less CS36 CT4 CA8 CG5 CP1 CY12 CB12 CW21 CC12 CR20 CM15 = 102."""
    module_ranges = 36 + 4 + 8 + 5 + 1 + 12 + 12 + 21 + 12 + 20 + 15
    c_numbered = sorted(c for c in data.cards if c[1].isdigit())
    assert c_numbered == [f"C{n:03d}" for n in range(1, 248 - module_ranges + 1)]
    # Module cards that are Culture cards sit in their module's range: M01's 18 Raider cards
    # (CS01-CS36), M13A's 12 Benjamin cards (CB01-CB12), M15A's Mieszko I and Chrobry (CR01-CR02);
    # CD01-CD10 are the western Rulers' starting cards, authored for Module 2 (the other box's).
    ranges = {"CS": ("M01", 18), "CB": ("M13A", 12), "CR": ("M15A", 2), "CD": ("M02", 10)}
    for prefix, (module, count) in ranges.items():
        found = [c for c in data.cards if c.startswith(prefix)]
        assert len(found) == count and all(data.cards[c]["module"] == module for c in found)
    assert {c[:2] for c in data.cards if not c[1].isdigit()} <= set(ranges)
    starting = {c for r in data.rulers.values() for c in r["starting_cards"]}
    assert {c for c, spec in data.cards.items() if spec["starting"]} == starting
    assert len(starting) == 14 + 10  # 7 Rulers, 2 cards each (L90); Module 2's 5 western ones


@pytest.mark.rule("HRE-BASE-SETUP-04")
def test_HRE_BASE_SETUP_04_deck_composition_per_player_count(data: HreData) -> None:
    """Design: a base deck of 30/24/12/18 cards by type; 58/72/84 of them at 2/3/4 players."""
    deck = [c for c in data.cards.values() if c["module"] is None and c["starting"] is None]
    assert Counter(c["type"] for c in deck) == {
        "common_tech": 30,
        "military_tech": 24,
        "relic": 12,
        "cognomen": 18,
    }
    per_count = {n: Counter(c["type"] for c in deck if c["players"] <= n) for n in PLAYER_COUNTS}
    assert per_count[2] == {"common_tech": 21, "military_tech": 17, "relic": 7, "cognomen": 13}
    assert per_count[3] == {"common_tech": 26, "military_tech": 21, "relic": 10, "cognomen": 15}
    assert [sum(per_count[n].values()) for n in PLAYER_COUNTS] == [58, 72, 84]


def test_new_cards_mirror_the_existing_military_profiles(data: HreData) -> None:
    """Design: the level II and III stat lines of C075-C102 are ones the deck already had."""

    def profile(h: dict[str, Any]) -> str:
        return json.dumps(h, sort_keys=True)

    old = {
        profile(h)
        for n in range(1, 75)
        if data.cards[f"C{n:03d}"]["type"] == "military_tech"
        for h in data.cards[f"C{n:03d}"]["halves"]
    }
    new = [
        h
        for n in range(75, 103)
        if data.cards[f"C{n:03d}"]["type"] == "military_tech"
        for h in data.cards[f"C{n:03d}"]["halves"]
    ]
    assert len(new) == 15 and all(profile(h) in old for h in new)


# --------------------------------------------------------------------------- board


@pytest.mark.rule("HRE-BASE-SCORE-05")
@pytest.mark.rule("HRE-BASE-SCORE-06")
@pytest.mark.rule("HRE-BASE-SCORE-07")
def test_HRE_BASE_SCORE_05_06_07_TC_12_track_values_exist(data: HreData) -> None:
    """TC-12: some position scores 4 (Culture), 7 (Warehouse) and 20 (Farm) VP."""
    assert 4 in [s["vp"] for s in data.board["culture_track"]]
    assert 7 in [r["vp"] for r in data.board["warehouse_track"]]
    assert 20 in [s["vp"] for s in data.board["farm_track"]]


@pytest.mark.rule("HRE-BASE-SETTLE-08")
def test_HRE_BASE_SETTLE_08_farm_vp_from_army_limit_7(data: HreData) -> None:
    for space in data.board["farm_track"]:
        assert (space["vp"] > 0) == (space["army_limit"] >= 7)


@pytest.mark.rule("HRE-BASE-BUILD-20")
def test_HRE_BASE_BUILD_20_first_two_warehouses_cost_stone_or_wood(data: HreData) -> None:
    rows = data.board["warehouse_track"]
    assert rows[0]["cost"] == []
    assert rows[1]["cost"] == rows[2]["cost"] == [{"stone": 1}, {"wood": 1}]
    assert [r["vp"] for r in rows[:3]] == [0, 0, 0] and all(r["vp"] > 0 for r in rows[3:])


@pytest.mark.rule("HRE-BASE-SETUP-09")
@pytest.mark.rule("HRE-BASE-SETUP-23")
@pytest.mark.rule("HRE-BASE-SETUP-24")
def test_HRE_BASE_SETUP_09_23_24_supply_counts(data: HreData) -> None:
    board = data.board
    assert board["cities"] == {"2": 11, "3": 13, "4": 15}
    assert board["discs"] == {"2": 6, "3": 5, "4": 4}
    assert board["exhausted_at_setup"] == {"2": 1, "3": 1, "4": 2}


@pytest.mark.rule("HRE-BASE-SETUP-22")
@pytest.mark.rule("HRE-BASE-SETUP-25")
@pytest.mark.rule("HRE-COMP-02")
def test_HRE_BASE_SETUP_22_25_COMP_02_player_supplies(data: HreData) -> None:
    board = data.board
    assert board["start_resources"] == {"wood": 1, "leather": 1, "stone": 1, "iron": 1, "gold": 1}
    assert board["start_infantry"] == 2
    assert board["unit_supply"] == {"infantry": 7, "archer": 6, "cavalry": 5}
    assert board["farms_per_player"] == len(board["farm_track"]) == 12


@pytest.mark.rule("HRE-BASE-RECRUIT-01")
def test_HRE_BASE_RECRUIT_01_TC_07_level_one_archer_cost(data: HreData) -> None:
    assert data.board["units"]["archer"]["cost"] == {"wood": 1, "leather": 1}


@pytest.mark.rule("HRE-BASE-BUILD-02")
@pytest.mark.rule("HRE-BASE-BUILD-06")
@pytest.mark.rule("HRE-BASE-BUILD-07")
@pytest.mark.rule("HRE-BASE-BUILD-10")
@pytest.mark.rule("HRE-BASE-BUILD-15")
@pytest.mark.rule("HRE-BASE-BUILD-19")
def test_HRE_BASE_BUILD_costs(data: HreData) -> None:
    costs = data.board["costs"]
    assert costs["city"] == costs["production_local"] == {"wood": 1, "stone": 1}
    assert costs["production_neighbour"] == {"wood": 1, "stone": 2}
    assert costs["church"] == {"wood": 2, "stone": 1}
    assert costs["keep"] == [{"stone": 1}, {"stone": 1, "wood": 1}, {"stone": 1, "iron": 1}]
    assert costs["farm"] == {"wood": 2}


@pytest.mark.rule("HRE-BASE-BARB-04")
@pytest.mark.rule("HRE-BASE-BARB-05")
def test_HRE_BASE_BARB_04_05_trophy_track(data: HreData) -> None:
    track = data.board["trophy_track"]
    assert [(s["vp"], s["extra"]) for s in track] == [
        (0, None),
        (2, "infantry"),
        (3, "archer"),
        (4, "cavalry"),
    ]


@pytest.mark.rule("HRE-BASE-BARB-09")
def test_HRE_BASE_BARB_09_some_tokens_give_another_turn(data: HreData) -> None:
    extra = [t for t in data.tokens.values() if t["reward"].get("extra_turn")]
    assert 2 <= len(extra) <= 5


@pytest.mark.rule("HRE-BASE-END-03")
def test_HRE_BASE_END_03_church_track_markers(data: HreData) -> None:
    assert data.board["church_track"] == {"spaces": 10, "end": {"2": 7, "3": 8, "4": 9}}


@pytest.mark.rule("HRE-BASE-GEN-11")
def test_HRE_BASE_GEN_11_red_spaces_unlock_the_rest_of_the_offer(data: HreData) -> None:
    reds = sum(s["red"] for s in data.board["culture_track"])
    assert data.board["base_access"] + reds == data.board["offer_size"]


@pytest.mark.rule("HRE-BASE-REACT-04")
def test_HRE_BASE_REACT_04_reaction_layout_covers_all_six(data: HreData) -> None:
    layout = data.board["reaction_layout"]
    assert len(layout) == 5 and all(len(set(pair)) == 2 for pair in layout)
    assert {r for pair in layout for r in pair} == set(components.REACTIONS)


def test_base_capitals_are_not_neighbours(data: HreData) -> None:
    """Design: no two base Rulers start next to each other."""
    caps = {r["capital"] for r in data.rulers.values() if r["module"] is None}
    for cap in caps:
        assert not caps & set(data.adjacent[cap])
