"""The HRE board draws what the expansion modules add (issue 17)."""

from __future__ import annotations

from games.boards.hre.board import board_context
from rules.hre import ENGINE
from tests.rules.hre.helpers import draft_all


def test_HRE_M07_SETUP_01_the_board_names_and_tints_skirmisher_tokens() -> None:
    """HRE-M07-SETUP-01: the site's map says Skirmishers, not Barbarians, on every token."""
    state, _ = draft_all(ENGINE.setup(3, {"modules": ["M07"], "options": {}}, 2))
    drawn = board_context(ENGINE.view(state, 0), None)["provinces"]
    tokens = [p["barb"] for p in drawn if p["barb"]]
    assert tokens and all(t["set"] == "skirmisher" for t in tokens)
    assert all(t["title"].startswith("Skirmishers (") for t in tokens)
    base = ENGINE.setup(3, {"modules": [], "options": {}}, 2)
    assert "token_set" not in ENGINE.view(base, 0)


def test_HRE_M04_SETUP_01_each_seat_shows_its_alchemist_card() -> None:
    """HRE-M04-SETUP-01: the seat summaries show what lies on each Alchemist card."""
    from games.boards.hre.tableau import seats

    state = ENGINE.setup(3, {"modules": ["M04"], "options": {}}, 2)
    state["m04"]["held"] = [4, 0]
    shown = seats(ENGINE.view(state, 1), lambda i: {"glyph": "", "colour": ""})
    assert [s["alchemist"] for s in shown] == [4, 0]
    base = ENGINE.setup(3, {"modules": [], "options": {}}, 2)
    assert all(s["alchemist"] is None for s in seats(ENGINE.view(base, 1), lambda i: {}))


def test_HRE_M11_PLAY_01_each_seat_shows_its_markers_and_its_suzerain() -> None:
    """HRE-M11-PLAY-01: the seat summaries show free markers and whom a seat pays tribute to."""
    from games.boards.hre.tableau import seats

    state = ENGINE.setup(3, {"modules": ["M11"], "options": {}}, 2)
    state["m11"] = {"free": [2, 3], "at": {"ivrea": 0}}
    state["seats"][1]["ruler"] = "berengar"
    shown = seats(ENGINE.view(state, None), lambda i: {"glyph": str(i), "colour": ""})
    assert shown[0]["tribute"] == {"free": 2, "pays_to": None, "pays_to_seat": None}
    assert shown[1]["tribute"]["pays_to_seat"] == 0 and shown[1]["tribute"]["free"] == 3


def test_HRE_M10_SETUP_01_campaign_targets_show_to_their_owner_only() -> None:
    """HRE-M10-SETUP-01 [HIDDEN]: a seat sees its own Campaign targets; others see a count."""
    from games.boards.hre.tableau import seats

    state, _ = draft_all(ENGINE.setup(2, {"modules": ["M10"], "options": {}}, 2))
    hands = state["m10"]["hands"]
    mark = lambda i: {"glyph": str(i), "colour": ""}  # noqa: E731
    mine = seats(ENGINE.view(state, 0), mark)
    assert mine[0]["campaigns"]["count"] == 3 and len(mine[0]["campaigns"]["mine"]) == 3
    assert mine[1]["campaigns"]["mine"] == []
    spectator = seats(ENGINE.view(state, None), mark)
    assert all(s["campaigns"]["mine"] == [] for s in spectator)
    assert all(c not in str(ENGINE.view(state, None)) for c in hands[0] + hands[1])
