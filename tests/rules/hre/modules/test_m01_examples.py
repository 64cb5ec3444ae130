"""The reference's exact cases for the solo game (rules-hre.md §3.2, TC-33 and TC-35), every
value of each d20 table and each Raider pile, as the engine reads them."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.hre.modules import m01_lordlings as m

D20 = range(1, 21)


def table(name: str, key: str) -> dict[int, str]:
    """Each face of the d20 to what the engine's table gives for it."""
    return {face: m._roll(m.solo_data()[name], face)[key] for face in D20}


def faces(spans: dict[tuple[int, int], str]) -> dict[int, str]:
    return {face: what for (lo, hi), what in spans.items() for face in range(lo, hi + 1)}


def test_HRE_M01_UPG_01_TC_33_the_upgrade_die() -> None:
    """HRE-M01-UPG-01 (TC-33): 1-8 Infantry, 9-15 Cavalry, 16-20 Archer."""
    want = faces({(1, 8): "infantry", (9, 15): "cavalry", (16, 20): "archer"})
    assert table("upgrade_roll", "unit") == want


def test_HRE_M01_LORDLING_RESEARCH_01_TC_33_the_research_die() -> None:
    """HRE-M01-LORDLING-RESEARCH-01 (TC-33): 1-4 Culture Points, 5-12 an upgrade, 13-20 VP."""
    want = faces({(1, 4): "cp", (5, 12): "upgrade", (13, 20): "vp"})
    assert table("research_roll", "do") == want


def test_HRE_M01_LORDLING_BUILD_02_to_05_TC_33_the_build_die() -> None:
    """HRE-M01-LORDLING-BUILD-02, HRE-M01-LORDLING-BUILD-03, HRE-M01-LORDLING-BUILD-04,
    HRE-M01-LORDLING-BUILD-05 (TC-33): 1-8 City, 9-13 Keep, 14-17 Farm, 18-20 Church."""
    want = faces({(1, 8): "city", (9, 13): "keep", (14, 17): "farm", (18, 20): "church"})
    assert table("build_roll", "do") == want


@pytest.mark.parametrize(
    ("difficulty", "want"),
    [
        ("normal", {"reinforce": 5, "raid": 3, "surprise": 3}),
        ("hard", {"reinforce": 7, "raid": 5, "surprise": 6}),
    ],
)
def test_HRE_M01_SETUP_12_HRE_M01_DIFF_03_TC_35_the_raider_cards_dealt(
    difficulty: str, want: dict[str, int]
) -> None:
    """HRE-M01-SETUP-12, HRE-M01-DIFF-03 (TC-35): normal deals 5 Reinforce, 3 Raid and
    3 Surprise of the 18 Raider cards (11); hard all 18: 7, 5 and 6."""
    dealt: Counter[str] = Counter()
    for pile in m.solo_data()["raider_split"][difficulty]:
        dealt.update(pile)
    assert dict(dealt) == want
    kinds = Counter(c["kind"] for c in m.solo_data()["cards"])
    assert sum(kinds.values()) == 18
    assert all(kinds[k] >= n for k, n in want.items())
