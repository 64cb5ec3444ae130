"""The HRE board draws what the expansion modules add (issue 17)."""

from __future__ import annotations

from typing import Any

import pytest

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


def _played(slug: str, players: int, moves: int, seed: int = 7) -> dict[str, Any]:
    from rules.core import rng

    config = next(s for s in ENGINE.scenarios() if s["slug"] == slug)["config"]
    state = ENGINE.setup(seed, config, players)
    chooser = {"rng": rng.seed_state(99)}
    for _ in range(moves):
        if ENGINE.is_over(state):
            break
        prompt = rng.choice(chooser, ENGINE.prompts(state))
        ENGINE.apply_trusted(
            state, prompt["seat"], rng.choice(chooser, prompt["options"])["action"]
        )
    return state


def test_HRE_M03_PLAY_04_HRE_M06_PLAY_01_grand_buildings_and_commanders_on_the_map() -> None:
    """HRE-M03-PLAY-04, HRE-M06-PLAY-01: a built Grand Building and a hired Commander are drawn
    in their provinces, the Commander in its owner's colour."""
    state = _played("all-modules", 3, 20)
    state["m03"]["supply"].remove("C050")
    state["m03"]["built"]["C050"] = {
        "prov": "latium" if "latium" in state["prov"] else "saxony",
        "holder": None,
    }
    cmd = state["m06"]["available"][0]
    home = next(p for p, h in state["prov"].items() if h["owner"] == 1)
    state["m06"]["available"].remove(cmd)
    state["m06"]["hired"][1] = {"card": cmd, "at": home, "ready": True}
    drawn = {p["id"]: p for p in board_context(ENGINE.view(state, 0), None)["provinces"]}
    gb = state["m03"]["built"]["C050"]["prov"]
    assert any(i["icon"] == "grand" for i in drawn[gb]["pieces"])
    assert "Cluny Abbey" in drawn[gb]["title"]
    commanders = [i for i in drawn[home]["pieces"] if i["icon"] == "commander"]
    assert commanders and commanders[0]["colour"]


def test_HRE_M05_SETUP_01_HRE_M09_SETUP_01_each_viewer_sees_only_their_own_cards() -> None:
    """HRE-M05-SETUP-01, HRE-M09-SETUP-01 [HIDDEN]: the board lists the viewer's own Alliance and
    Combat cards, never a rival's; the tableau draws every module in play."""
    from django.template.loader import render_to_string

    from rules.hre.metadata import module_cards

    state = _played("all-modules", 3, 40)
    names5, names9 = module_cards("M05"), module_cards("M09")
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        board = board_context(view, None)
        html = render_to_string("games/boards/hre.html#tableau", {"board": board, "view": view})
        for part in ("hre-m03", "hre-m05", "hre-m06", "hre-m08", "hre-m09"):
            assert f'id="{part}"' in html
        for other in range(3):
            if other == seat:
                continue
            for c in state["m05"]["hands"][other]:
                assert names5[c] not in str(board["modules"]["alliances"]["mine"])
            for c in state["m09"]["hands"][other]:
                if c not in state["m09"]["hands"][seat if seat is not None else 0]:
                    assert names9[c] not in str(board["modules"]["war"]["mine"])
        if seat is None:
            assert (
                board["modules"]["alliances"]["mine"] == []
                and board["modules"]["war"]["mine"] == []
            )


def test_HRE_M08_PLAY_02_a_card_with_a_wyrd_is_marked_and_reached_by_everyone() -> None:
    """HRE-M08-PLAY-02: the offer card carrying a Wyrd says so and lists every seat as reaching it."""
    state = _played("wyrd", 2, 3)
    board = board_context(ENGINE.view(state, 0), None)
    carrying = [c for c in board["offer"] if c["wyrd"]]
    assert len(carrying) == 1 and len(carrying[0]["reached_by"]) == 2
    base = board_context(ENGINE.view(_played("base", 2, 3), 0), None)
    assert base["modules"] is None and not any(c["wyrd"] for c in base["offer"])


def test_the_game_page_names_the_modules_a_game_plays() -> None:
    """Issue 17: the game page's heading lists the modules of its scenario, worded."""
    from games.scenarios import chosen_modules
    from rules.hre import ENGINE

    found = chosen_modules("hre", {"modules": ["M03", "M08"]}, ENGINE)
    assert [m["label"] for m in found] == ["Module 3: Grand Buildings", "Module 8: The Wyrd"]
    assert chosen_modules("hre", {"modules": []}, ENGINE) == []
    assert [m["id"] for m in ENGINE.module_specs()][:2] == ["M01", "M02"]


@pytest.mark.django_db
def test_the_game_page_heading_shows_the_modules(scenarios: None, alice: Any, bob: Any) -> None:
    """Issue 17: a module game's page says which modules it plays; a base game's says nothing."""
    from django.test import Client

    from games import services
    from games.models import Scenario

    for slug, shown in (("wyrd", "Modules: Module 8: The Wyrd"), ("base", None)):
        scenario = Scenario.objects.get(game="hre", slug=slug)
        specs = [services.SeatSpec("me"), services.SeatSpec("invite", username=bob.username)]
        game = services.create_game(alice, scenario, 2, specs)
        services.join(game.pk, bob)
        client = Client()
        client.force_login(alice)
        html = client.get(f"/games/{game.pk}/").content.decode()
        if shown:
            assert shown in html
        else:
            assert "Modules:" not in html and 'id="hre-modules"' not in html


def test_HRE_M02_PLAY_02_the_board_draws_eight_seats_and_the_joined_table() -> None:
    """HRE-M02-PLAY-02 (and SETUP-06, PLAY-01 as drawn): eight seats with eight colours and
    shapes; the offer's reach counts two cards a red space; the joined Church track and its
    reaction height."""
    state, _ = draft_all(ENGINE.setup(2, {"modules": ["M02"], "options": {}}, 8))
    board = board_context(ENGINE.view(state, 0), None)
    marks = board["marks"]
    assert len({m["colour"] for m in marks}) == len({m["shape"] for m in marks}) == 8
    assert len(board["offer"]) == 12
    assert all(len(card["reached_by"]) == 8 for card in board["offer"][:4])
    assert not any(card["reached_by"] for card in board["offer"][4:])
    assert len(board["church_track"]["spaces"]) == 16 and board["church_track"]["end"] == 15
    assert {p["id"] for p in board["provinces"]} >= {"flanders", "frisia", "provence"}


@pytest.mark.django_db
def test_a_great_domain_page_draws_eight_seats(scenarios: None, alice: Any) -> None:
    """An 8-seat Great Domain game (HRE Module 2) renders every seat's card with its own glyph."""
    from django.test import Client

    from games import services
    from games.models import Scenario

    scenario = Scenario.objects.get(game="hre", slug="great-domain-8")
    specs = [services.SeatSpec("me")] + [services.SeatSpec("bot", bot="random")] * 7
    game = services.create_game(alice, scenario, 8, specs)
    client = Client()
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert all(f'id="seat-card-{i}"' in html for i in range(8))
    assert all(glyph in html for glyph in ("▲", "●", "■", "◆", "⬟", "★", "⬢", "✚"))
