"""Personal API tokens: listed on the profile with revoke and "new token" (shown once), and
revoked when the password changes or is reset; creating a game through the API."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.models import ApiToken, Game, Seat
from tests.games.toy import toy, toy_game  # noqa: F401

pytestmark = pytest.mark.django_db


def bearer(raw: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def test_the_profile_lists_tokens_and_makes_one_shown_once(alice: Any) -> None:
    page = Client()
    page.force_login(alice)
    made = page.post(reverse("token_new"), {"name": "my bot"}).content.decode()
    raw = re.search(r"<code data-token>(chy_[\w-]+)</code>", made)
    assert raw, "the new token is shown"
    token = ApiToken.objects.get(user=alice)
    assert token.digest == ApiToken.hash(raw.group(1)) and token.name == "my bot"
    assert bearer(raw.group(1)).get("/api/games/").status_code == 200
    listed = page.get(reverse("profile")).content.decode()
    assert "my bot" in listed and raw.group(1) not in listed, "shown once, never again"
    assert "Last used" in listed and "never" not in listed.split("my bot", 1)[1][:200]
    page.post(reverse("token_revoke", args=[token.pk]))
    assert not ApiToken.objects.exists()
    assert bearer(raw.group(1)).get("/api/games/").status_code == 401


def test_a_token_cannot_be_revoked_by_someone_else(alice: Any, bob: Any) -> None:
    token, _ = ApiToken.issue(alice, "mine")
    page = Client()
    page.force_login(bob)
    assert page.post(reverse("token_revoke", args=[token.pk])).status_code == 404
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_changing_the_password_revokes_every_token(alice: Any) -> None:
    _, raw = ApiToken.issue(alice, "one")
    ApiToken.issue(alice, "two")
    page = Client()
    page.force_login(alice)
    response = page.post(
        reverse("account_change_password"),
        {
            "oldpassword": "correct horse battery",
            "password1": "a new and long passphrase 9",
            "password2": "a new and long passphrase 9",
        },
    )
    assert response.status_code == 302
    assert not ApiToken.objects.filter(user=alice).exists()
    assert bearer(raw).get("/api/games/").status_code == 401


def test_a_password_reset_revokes_every_token(alice: Any) -> None:
    ApiToken.issue(alice, "one")
    Client().post(reverse("account_reset_password"), {"email": alice.email})
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", mail.outbox[-1].body)
    assert link
    page = Client()
    form = page.get(link.group(1), follow=True)
    page.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link.group(1),
        {"password1": "a new and long passphrase 9", "password2": "a new and long passphrase 9"},
    )
    alice.refresh_from_db()
    assert alice.check_password("a new and long passphrase 9")
    assert not ApiToken.objects.filter(user=alice).exists()


def test_logging_in_again_keeps_the_tokens(alice: Any) -> None:
    ApiToken.issue(alice, "one")
    assert Client().login(username="alice", password="correct horse battery")
    assert ApiToken.objects.filter(user=alice).count() == 1


@pytest.mark.usefixtures("toy")
def test_a_game_is_created_through_the_api_with_the_pages_checks(alice: Any, bob: Any) -> None:
    _, raw = ApiToken.issue(alice, "creator")
    client = bearer(raw)
    body = {
        "game": "toy",
        "scenario": "base",
        "players": 3,
        "seats": [{"user": "alice"}, {"bot": "random"}, {"user": "bob"}],
        "options": {},
    }
    made = client.post("/api/games/", body, content_type="application/json")
    assert made.status_code == 201, made.content
    game = Game.objects.get(pk=made.json()["id"])
    assert made.json()["url"].endswith(f"/games/{game.pk}/")
    seats = {s.index: s for s in Seat.objects.filter(game=game)}
    assert (seats[0].user, seats[1].bot, seats[2].invited) == (alice, "random", bob)
    assert game.status == Game.Status.OPEN, "bob is invited and has not joined yet"
    for bad, why in (
        ({**body, "players": 9}, "between 1 and 8"),
        ({**body, "players": 5}, "takes 1–4 players"),
        ({**body, "seats": [{"user": "alice"}]}, "list of 3"),
        ({**body, "seats": [{"bot": "nobody"}, {"open": True}, {"open": True}]}, "no bot"),
        ({**body, "seats": [{"user": "zed"}, {"open": True}, {"open": True}]}, "no player"),
        ({**body, "seats": [{"user": "alice"}, {"open": False}, {"open": True}]}, "Seat 2"),
        ({**body, "scenario": "nope"}, "no scenario"),
        ({**body, "options": []}, "options"),
    ):
        refused = client.post("/api/games/", bad, content_type="application/json")
        assert refused.status_code == 400 and why in refused.json()["error"], (bad, refused.json())
    assert Game.objects.count() == 1
