"""The Culture cards C075-C102 (authored to bring the deck to the book's size) played through the
engine: every new Common Technology researched and raised to level 3, a new Relic with a Church,
new Military halves on Research, and the two-condition Cognomens scored with their caps."""

from __future__ import annotations

from typing import Any

import pytest

from rules.hre.state import data, unit_level
from tests.rules.hre.helpers import act, actions, give, hand, top, turn_of, units
from tests.rules.hre.test_actions import NOTHING, noble, res, two_players

State = dict[str, Any]
NEW_COMMON = [
    c for c, spec in sorted(data().cards.items()) if c >= "C075" and spec["type"] == "common_tech"
]


def research_to_level_three(s: State, card: str) -> list[State]:
    """Seat 0 researches `card` and pays 1 Gold twice to raise it; the state after each level."""
    hand(s, 0, [card])
    s = noble(s, "research")
    s, _ = act(s, {"research": "common", "card": card})
    after = [s]
    for _ in (2, 3):
        s = turn_of(s, 0)
        give(s, 0, gold=1)
        s = noble(s, "research")
        s, _ = act(s, {"research": "upgrade", "card": card})
        after.append(s)
    return after


@pytest.mark.rule("HRE-BASE-RESEARCH-02")
@pytest.mark.rule("HRE-BASE-RESEARCH-05")
@pytest.mark.parametrize("card", NEW_COMMON)
def test_HRE_BASE_RESEARCH_02_05_each_new_common_technology_reaches_level_three(card: str) -> None:
    """HRE-BASE-RESEARCH-02, HRE-BASE-RESEARCH-05: each new Common Technology can be researched and
    raised to level 3 for 1 Gold a level, and then scores its level 3 VP (SCORE-02)."""
    states = research_to_level_three(two_players(), card)
    for level, s in enumerate(states, start=1):
        assert s["seats"][0]["techs"] == [{"card": card, "level": level}]
    assert card not in states[-1]["seats"][0]["hand"]


@pytest.mark.rule("HRE-BASE-RESEARCH-04")
def test_HRE_BASE_RESEARCH_04_new_immediate_effects() -> None:
    """HRE-BASE-RESEARCH-04: 'Immediate!' levels of the new cards resolve once, as revealed:
    Carinthian Ironworks level 1 gives 1 Iron and 1 Gold; Palace Chapel level 3 gives 3 VP;
    Monastic Granges level 1 boxes a Farm from the board and level 3 gives 2 VP."""
    one, _, _ = research_to_level_three(two_players(), "C076")
    assert one["seats"][0]["res"]["iron"] == 1 and one["seats"][0]["gold"] == 1
    *_, three = research_to_level_three(two_players(), "C077")
    assert three["seats"][0]["vp"] == 3
    s = two_players()
    on_board = s["seats"][0]["farms_track"]
    one, _, three = research_to_level_three(s, "C081")
    assert one["seats"][0]["farms_boxed"] == 1 and one["seats"][0]["farms_track"] == on_board - 1
    assert three["seats"][0]["vp"] == 2


@pytest.mark.rule("HRE-BASE-BUILD-13")
def test_HRE_BASE_BUILD_13_iron_crown_with_a_church() -> None:
    """HRE-BASE-BUILD-13: the Iron Crown of Lombardy takes a Stone off the Church and gives 1 CP
    before paying, so 2 Wood pay for the Church; the Relic is discarded."""
    s = two_players()
    hand(s, 0, ["C093"])
    give(s, 0, wood=2)
    s = noble(s, "build")
    s, _ = act(s, {"build": "church", "prov": "bavaria"})
    assert top(s)["kind"] == "relic" and actions(s) == [{"relic": "C093"}]
    s, _ = act(s, {"relic": "C093"})
    assert s["prov"]["bavaria"]["church"] and res(s) == NOTHING
    assert s["seats"][0]["culture"] == 1 and "C093" in s["discard"]


@pytest.mark.rule("HRE-BASE-RESEARCH-07")
def test_HRE_BASE_RESEARCH_07_single_half_cavalry_card() -> None:
    """HRE-BASE-RESEARCH-07: Steppe Horsemen has one half, level II Cavalry, playable for 1 Gold
    while Cavalry is at level I."""
    s = two_players()
    hand(s, 0, ["C089"])
    give(s, 0, gold=1)
    s = noble(s, "research")
    assert {"research": "military", "card": "C089", "half": 0} in actions(s)
    s, _ = act(s, {"research": "military", "card": "C089", "half": 0})
    assert unit_level(s, 0, "cavalry") == 2


@pytest.mark.rule("HRE-BASE-COG-01")
@pytest.mark.parametrize(
    ("card", "trophies", "provinces", "vp"),
    [("C097", 6, 1, 4 + 1), ("C097", 2, 7, 2 + 4), ("C098", 7, 1, 0 + 5)],
)
def test_HRE_BASE_COG_01_two_condition_cognomens_cap_each_part(
    card: str, trophies: int, provinces: int, vp: int
) -> None:
    """HRE-BASE-COG-01: a Cognomen played on the turn scores each of its conditions, each up to
    its own cap: the Lion 1 VP per trophy (max 4) plus 1 per province (max 4); the Red 1 VP per
    Military Technology above level I plus 1 per trophy (max 5)."""
    s = two_players()
    hand(s, 0, [card])
    s["seats"][0]["trophies"] = [f"B{n:02d}" for n in range(1, trophies + 1)]
    for prov in ("swabia", "ostmark", "verona", "carinthia", "friuli", "lombardy")[: provinces - 1]:
        units(s, prov, 0, infantry=1)
    s, _ = act(s, {"do": "cognomen", "card": card})
    assert s["seats"][0]["vp"] == vp and card in s["discard"]
