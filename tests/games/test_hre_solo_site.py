"""The HRE solo game (Module 1) on the site: created from the new-game form like any game, its page
shows the Lordlings and the Raiders, and the automa's steps are in the log with their rule ids."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Scenario
from rules.core.registry import get_engine
from tests.games.test_views import browser, token

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]


def test_the_new_game_form_creates_a_hard_solo_game_and_its_page_shows_the_automa(
    scenarios: None, alice: Any
) -> None:
    client = browser(alice)
    scenario = Scenario.objects.get(game="hre", slug="solo")
    form = client.get(reverse("new_game")).content.decode()
    assert "Solo difficulty" in form
    response = client.post(
        reverse("new_game"),
        {
            "csrfmiddlewaretoken": token(client),
            "scenario": scenario.pk,
            "players": 1,
            "seat0": "me",
            "opt_hre_difficulty": '"hard"',
            "public": "on",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302, response.content.decode()[:500]
    assert game.config["modules"] == ["M01"] and game.config["options"] == {"difficulty": "hard"}
    assert game.status == Game.Status.ACTIVE and game.prompted_seats() == [0]  # your Ruler pick
    prompt = game.engine.prompt_for(game.state, 0)
    assert prompt is not None
    client.post(
        reverse("act", args=[game.pk]),
        {
            "csrfmiddlewaretoken": token(client),
            "action": json.dumps(prompt["options"][0]["action"]),
            "expected_seq": game.seq,
            "seat": 0,
        },
        HTTP_HX_REQUEST="true",
    )
    game.refresh_from_db()
    assert game.seq == 1 and game.state["stack"][-1]["kind"] == "turn"
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'class="solo-board"' in html and "The Lordlings" in html and "The Raiders" in html
    assert "Preparation" in html and "Raiding Party" in html and "hard" in html
    # The Lordlings' first turn is in the log, each step with its rule.
    assert "HRE-M01-SETUP-18" in html and "HRE-M01-LORDLING-TURN-01" in html
    # Their deck order never reaches the page: only its size.
    deck = game.state["m01"]["deck"]
    assert deck and not any(re.search(rf"\b{c}\b", html) for c in deck)
    spectator = Client().get(reverse("game", args=[game.pk])).content.decode()
    assert 'class="solo-board"' in spectator
    assert not any(re.search(rf"\b{c}\b", spectator) for c in deck)


def test_a_solo_option_posted_with_a_base_game_is_not_played(scenarios: None, alice: Any) -> None:
    """The form reads only the options its scenario plays (Engine.option_specs of its config), so
    a solo difficulty sent beside a base game is left out of the game; the engine itself refuses
    the option outright when it is given one."""
    client = browser(alice)
    scenario = Scenario.objects.get(game="hre", slug="base")
    response = client.post(
        reverse("new_game"),
        {
            "csrfmiddlewaretoken": token(client),
            "scenario": scenario.pk,
            "players": 2,
            "seat0": "me",
            "seat1": "bot:random",
            "opt_hre_difficulty": '"hard"',
        },
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert "difficulty" not in game.state.get("config", {}).get("options", {})
    assert "m01" not in game.state
    errors = get_engine("hre").validate_scenario(
        {**scenario.config, "options": {"difficulty": "hard"}}
    )
    assert any("belongs to module M01" in e for e in errors)
