"""The HRE page draws Modules 12A-15A (issue 17): the Pope's card and costs, Benjamin's route,
the Crusade cards and Poland's cards, and never names a face-down Crusade or a Chrobry event."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.boards.hre.board import board_context
from games.models import Scenario
from rules.hre import ENGINE
from rules.hre.modules.m14a_crusades import cards
from tests.rules.hre.helpers import draft_all

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]

MARK = lambda i: None if i is None else {"seat": i, "glyph": str(i), "colour": ""}  # noqa: E731


def played(slug: str, players: int, seed: int, until: Any) -> dict[str, Any]:
    """A random game of a shipped scenario, played until the condition holds on a turn prompt."""
    config = next(s["config"] for s in ENGINE.scenarios() if s["slug"] == slug)
    for attempt in range(seed, seed + 40):
        state = ENGINE.setup(attempt, config, players)
        pick = random.Random(attempt)
        while not ENGINE.is_over(state):
            prompt = pick.choice(ENGINE.prompts(state))
            if prompt["kind"] == "turn" and until(state):
                return state
            ENGINE.apply_trusted(state, prompt["seat"], pick.choice(prompt["options"])["action"])
    raise AssertionError("no game reached the position")


def test_HRE_M12A_PLAY_01_the_titles_show_the_pope_and_what_the_next_church_pays() -> None:
    """HRE-M12A-PLAY-01: the Pope's row, its holder, and its costs with the next one marked."""
    state, _ = draft_all(ENGINE.setup(2, {"modules": ["M12A"], "options": {}}, 2))
    state["m12a"] = {"holder": 1, "ready": False}
    for p in ("bavaria", "ivrea", "bohemia"):
        if p in state["prov"]:
            state["prov"][p]["church"] = True
    drawn = board_context(ENGINE.view(state, 0), None)["pope"]
    assert drawn["holder"]["seat"] == 1 and drawn["ready"] is False and drawn["vp"] == 5
    nxt = [c for c in drawn["costs"] if c["next"]]
    assert drawn["churches"] == 3 and [c["churches"] for c in nxt] == ["4–5"]
    assert [c["churches"] for c in drawn["costs"]] == ["1", "2–3", "4–5", "6–8", "9+"]


def test_HRE_M13A_PLAY_01_benjamins_route_shows_who_collected_each_page() -> None:
    """HRE-M13A-PLAY-01: the route in journey order (the cards in play at this count), each
    collected page marked with its holder."""
    state, _ = draft_all(ENGINE.setup(1, {"modules": ["M13A"], "options": {}}, 3))
    state["m13a"]["stacks"][2] = ["CB02"]
    drawn = board_context(ENGINE.view(state, None), None)["benjamin"]
    assert [r["stop"] for r in drawn["route"]][:3] == ["Saragossa", "Barcelona", "Narbonne"]
    assert len(drawn["route"]) == 10  # 3 players: CB01-CB10
    assert drawn["route"][1]["who"]["seat"] == 2 and drawn["route"][0]["who"] is None
    assert len(drawn["rewards"]) == 5 and drawn["seats"][2]["count"] == 1


def test_HRE_M14A_SETUP_01_face_down_crusades_stay_unnamed_on_the_page(
    scenarios: None, alice: Any
) -> None:
    """HRE-M14A-SETUP-01 [HIDDEN]: the page shows the active Crusade's card and the units sent,
    the Gold still under the Church track, and not one face-down card's name, for a player or a
    spectator."""
    state = played("crusades", 3, 1, lambda s: s["m14a"]["revealed"] == 1)
    scenario = Scenario.objects.get(game="hre", slug="crusades")
    seats = [services.SeatSpec("me"), services.SeatSpec("bot", bot="random")]
    game = services.create_game(alice, scenario, 3, seats + seats[1:], None, True)
    game.state = state
    game.save()
    client = Client()
    client.force_login(alice)
    for viewer in (client, Client()):
        html = viewer.get(reverse("game", args=[game.pk])).content.decode()
        assert 'id="hre-crusades"' in html and "face down" in html
        active = state["m14a"]["line"][0]
        assert cards()[active]["name"] in html
        for hidden in state["m14a"]["line"][1:] + state["m14a"]["unseen"]:
            assert cards()[hidden]["name"] not in html
        assert "calls a Crusade" in html  # the Gold under the next Churches


def test_HRE_M15A_SETUP_03_each_seat_shows_its_poland_cards_and_steps() -> None:
    """HRE-M15A-SETUP-03: once Mieszko I is out, every seat's three cards with their steps (the
    next one marked) and sides; the Chrobry events stay a count."""
    state = played("poland", 2, 1, lambda s: s["m15a"]["open"])
    state["m15a"]["cards"][0]["veleti"]["step"] = 1
    drawn = board_context(ENGINE.view(state, 1), None)["poland"]
    assert drawn["open"] and len(drawn["seats"]) == 2
    veleti = drawn["seats"][0]["cards"][0]
    assert veleti["name"] == "Veleti" and [s["done"] for s in veleti["steps"]] == [
        True,
        False,
        False,
    ]
    assert veleti["steps"][1]["next"] and veleti["steps"][0]["action"] == "Manoeuvre"
    assert drawn["events_left"] == len(state["m15a"]["events"])
    assert not any(e in str(drawn) for e in state["m15a"]["events"])
