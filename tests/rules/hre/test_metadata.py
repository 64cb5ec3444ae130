"""What HRE shows the site besides views (rules.hre.metadata)."""

from __future__ import annotations

import pytest

from rules.hre import metadata


@pytest.mark.rule("HRE-BASE-DEV-02")
def test_offer_reach_is_base_access_plus_the_red_spaces_reached() -> None:
    """Two cards from the start; each red space reached (3, 7, 12, 17) opens one more."""
    assert [metadata.offer_reach(c) for c in (0, 2, 3, 6, 7, 12, 17, 21)] == [
        2,
        2,
        3,
        3,
        4,
        5,
        6,
        6,
    ]
    assert metadata.offer_reach(99) == metadata.offer_reach(21)  # past the track's end
