"""What Feudal Lords shows the site besides views (rules.feudal.metadata)."""

from __future__ import annotations

import pytest

from rules.feudal import metadata


@pytest.mark.rule("FL-WIN-03")
@pytest.mark.rule("FL-TEAM-02")
def test_the_vp_target_is_ten_or_sixteen_for_a_team_plus_the_artifacts() -> None:
    assert metadata.vp_target("duel", []) == 10
    assert metadata.vp_target("teams", []) == 16
    assert metadata.vp_target("melee", ["iron_idol", "bone_totem"]) == 13
