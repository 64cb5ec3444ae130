"""A scenario the engine retired (HRE's `great-domain`, 5 to 8 players in one, replaced by
`great-domain-5` .. `-8`): bootstrap marks it, the new-game form and the API start no game with
it and say why, the admin shows it, and the games stored with it load and play as before."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import services
from games.models import ApiToken, Game, Scenario
from games.scenarios import load_shipped
from tests.games.helpers import options

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]

PER_COUNT = [f"great-domain-{n}" for n in (5, 6, 7, 8)]


def _retired() -> Scenario:
    return Scenario.objects.get(game="hre", slug="great-domain")


def test_bootstrap_marks_the_retired_scenario_only(scenarios: None) -> None:
    assert _retired().retired and _retired().shipped and _retired().enabled
    assert not _retired().offered
    assert not Scenario.objects.filter(retired=True).exclude(slug="great-domain").exists()
    assert all(Scenario.objects.get(game="hre", slug=s).offered for s in PER_COUNT)


def test_a_row_from_before_the_field_is_marked_without_a_reset_warning(scenarios: None) -> None:
    """A row stored before the migration reads retired=False; the next bootstrap sets it and
    does not report it as a hand edit."""
    Scenario.objects.filter(slug="great-domain").update(retired=False)
    _count, reset = load_shipped()
    assert reset == [] and _retired().retired


def test_the_new_game_form_does_not_offer_it(scenarios: None, alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("new_game")).content.decode()
    assert f'<option value="{_retired().pk}"' not in page
    for slug in PER_COUNT:
        assert f'<option value="{Scenario.objects.get(game="hre", slug=slug).pk}"' in page
    preset = client.get(reverse("new_game") + "?game=hre").content.decode()
    assert f'<option value="{_retired().pk}"' not in preset


def test_posting_it_is_refused_in_plain_words(scenarios: None, alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    seats = {f"seat{i}": "bot:random" for i in range(1, 5)}
    response = client.post(
        reverse("new_game"), {"scenario": _retired().pk, "players": 5, "seat0": "me", **seats}
    )
    assert response.status_code == 400 and not Game.objects.exists()
    text = response.content.decode()
    assert "is kept only for the games already played with it; it starts no new game." in text
    assert "Module 2: the Great Domain, 5 players" in text  # the ones to choose instead


def test_the_api_refuses_it_in_plain_words(scenarios: None, alice: Any) -> None:
    _, raw = ApiToken.issue(alice, "creator")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    body = {"game": "hre", "players": 5, "seats": [{"user": "alice"}] + [{"bot": "random"}] * 4}
    refused = client.post(
        "/api/games/", {**body, "scenario": "great-domain"}, content_type="application/json"
    )
    assert refused.status_code == 400 and not Game.objects.exists()
    assert "it starts no new game" in json.dumps(refused.json())
    made = client.post(
        "/api/games/", {**body, "scenario": "great-domain-5"}, content_type="application/json"
    )
    assert made.status_code == 201, made.content


def test_a_stored_game_of_it_renders_and_plays(scenarios: None, alice: Any) -> None:
    """A game made with the scenario before it was retired (made here through the services, as
    the form made it then) shows its page, takes moves and lists in the lobby as before."""
    users = [alice] + [
        get_user_model().objects.create_user(f"p{i}", f"p{i}@example.com", "correct horse")
        for i in range(1, 5)
    ]
    specs = [services.SeatSpec("me")]
    specs += [services.SeatSpec("invite", username=u.username) for u in users[1:]]
    game = services.create_game(alice, _retired(), 5, specs)
    for user in users[1:]:
        services.join(game.pk, user)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    pick = random.Random(3)
    while game.seq < 12 and game.status == Game.Status.ACTIVE:
        seat = game.prompted_seats()[0]
        services.submit(game.pk, users[seat], pick.choice(options(game, seat)), game.seq, seat=seat)
        game.refresh_from_db()
    assert game.seq >= 12
    client = Client()
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert all(f'id="seat-card-{i}"' in html for i in range(5))
    assert "Module 2: The Great Domain" in html  # the module named in the header
    assert client.get(reverse("lobby")).status_code == 200


def test_the_admin_lists_and_shows_it_as_retired(scenarios: None) -> None:
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-9")
    client = Client()
    client.force_login(admin)
    listed = client.get("/admin/games/scenario/?retired__exact=1").content.decode()
    assert "great-domain" in listed and "great-domain-5" not in listed
    shown = client.get(f"/admin/games/scenario/{_retired().pk}/change/").content.decode()
    assert "Retired" in shown and "no new game may start with it" in shown
