"""The personal-token JSON API: authentication, my games, views, moves and events."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import ApiToken, Game, Move
from tests.games.helpers import make_game, options, prompted, snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]


class Api:
    """A token-holding API client (no cookies, and CSRF enforced as for any other client)."""

    def __init__(self, raw: str) -> None:
        self.client = Client(enforce_csrf_checks=True)
        self.headers = {"Authorization": f"Bearer {raw}"}

    def get(self, url: str, **params: Any) -> Any:
        return self.client.get(url, params, headers=self.headers)

    def post(self, url: str, body: Any) -> Any:
        data = body if isinstance(body, str | bytes) else json.dumps(body)
        return self.client.post(url, data, content_type="application/json", headers=self.headers)


@pytest.fixture
def alice_api(alice: Any) -> Api:
    return Api(ApiToken.issue(alice, "laptop")[1])


@pytest.fixture
def bob_api(bob: Any) -> Api:
    return Api(ApiToken.issue(bob, "phone")[1])


@pytest.fixture
def duel(scenarios: None, alice: Any, bob: Any) -> Game:
    return make_game(alice, "me", bob)


def _deciding(game: Game, alice_api: Api, bob_api: Api) -> tuple[Api, Api, int]:
    seat = prompted(game)[0]
    return (alice_api, bob_api, seat) if seat == 0 else (bob_api, alice_api, seat)


def test_it_answers_401_without_a_token_or_with_a_bad_one(duel: Game, alice: Any) -> None:
    ApiToken.issue(alice, "laptop")
    urls = [
        reverse("api_games"),
        reverse("api_game", args=[duel.pk]),
        reverse("api_events", args=[duel.pk]),
    ]
    for headers in (
        {},
        {"Authorization": "Bearer chy_wrong"},
        {"Authorization": "Token chy_x"},
        {"Authorization": "Bearer "},
    ):
        for url in urls:
            assert Client().get(url, headers=headers).status_code == 401
        response = Client().post(
            reverse("api_action", args=[duel.pk]),
            "{}",
            content_type="application/json",
            headers=headers,
        )
        assert response.status_code == 401


def test_a_token_of_an_inactive_user_is_refused(duel: Game, alice: Any, alice_api: Api) -> None:
    alice.is_active = False
    alice.save()
    assert alice_api.get(reverse("api_games")).status_code == 401


def test_only_the_digest_is_stored_and_use_is_recorded(alice: Any) -> None:
    token, raw = ApiToken.issue(alice, "laptop")
    assert raw.startswith("chy_") and raw not in token.digest and token.digest == ApiToken.hash(raw)
    assert Api(raw).get(reverse("api_games")).status_code == 200
    token.refresh_from_db()
    assert token.last_used is not None


def test_my_games_lists_the_games_i_hold_a_seat_in(
    duel: Game, scenarios: None, alice_api: Api, bob_api: Api, carol: Any
) -> None:
    make_game(carol, "me", "bot:random")
    rows = alice_api.get(reverse("api_games")).json()["games"]
    assert [r["id"] for r in rows] == [duel.pk]
    row = rows[0]
    assert row["my_seats"] == [0] and row["status"] == "active" and row["seq"] == duel.seq
    assert row["waiting_for_me"] == (prompted(duel) == [0])
    bob_row = bob_api.get(reverse("api_games")).json()["games"][0]
    assert bob_row["waiting_for_me"] == (prompted(duel) == [1])


def test_a_seat_view_and_prompt(duel: Game, alice_api: Api, bob_api: Api) -> None:
    me, _, seat = _deciding(duel, alice_api, bob_api)
    body = me.get(reverse("api_game", args=[duel.pk])).json()
    assert body["seat"] == seat and body["seq"] == duel.seq and body["deciding"] == [seat]
    assert body["view"]["seat"] == seat and body["view"]["hand"] == []
    assert [o["action"] for o in body["prompt"]["options"]] == options(duel, seat)
    assert "state" not in body and "seed" not in body and "rng" not in json.dumps(body["view"])


def test_asking_for_a_seat_i_do_not_hold_is_forbidden(duel: Game, alice_api: Api) -> None:
    response = alice_api.get(reverse("api_game", args=[duel.pk]), seat=1)
    assert response.status_code == 403
    assert alice_api.get(reverse("api_game", args=[duel.pk]), seat=0).json()["seat"] == 0


def test_a_spectator_gets_the_spectator_view_of_a_public_game_only(
    scenarios: None, alice: Any, carol: Any
) -> None:
    carol_api = Api(ApiToken.issue(carol, "x")[1])
    public = make_game(alice, "me", "bot:random")
    body = carol_api.get(reverse("api_game", args=[public.pk])).json()
    assert body["seat"] is None and body["view"]["hand"] is None and body["prompt"] is None
    private = make_game(alice, "me", "bot:random", public=False)
    assert carol_api.get(reverse("api_game", args=[private.pk])).status_code == 404
    assert carol_api.get(reverse("api_events", args=[private.pk])).status_code == 404
    assert carol_api.get(reverse("api_game", args=[9999])).status_code == 404


def test_submit_applies_a_move_with_the_current_seq(
    duel: Game, alice_api: Api, bob_api: Api
) -> None:
    me, _, seat = _deciding(duel, alice_api, bob_api)
    seq = duel.seq
    response = me.post(
        reverse("api_action", args=[duel.pk]),
        {"action": options(duel, seat)[0], "expected_seq": seq},
    )
    assert response.status_code == 200
    move = Move.objects.get(game=duel, seq=seq + 1)
    assert response.json() == {"ok": True, "seq": seq + 1, "state_hash": move.state_hash}


def test_submit_answers_409_to_a_stale_move_and_changes_nothing(
    duel: Game, alice_api: Api, bob_api: Api
) -> None:
    me, _, seat = _deciding(duel, alice_api, bob_api)
    before = snapshot(duel)
    response = me.post(
        reverse("api_action", args=[duel.pk]),
        {"action": options(duel, seat)[0], "expected_seq": duel.seq + 3},
    )
    assert response.status_code == 409 and response.json()["code"] == "stale"
    assert snapshot(duel) == before


def test_submit_answers_a_resent_move_with_the_first_acceptance(
    duel: Game, alice_api: Api, bob_api: Api
) -> None:
    me, _, seat = _deciding(duel, alice_api, bob_api)
    body = {"action": options(duel, seat)[0], "expected_seq": duel.seq}
    first = me.post(reverse("api_action", args=[duel.pk]), body).json()
    again = me.post(reverse("api_action", args=[duel.pk]), body)
    assert again.status_code == 200 and again.json() == first
    assert Move.objects.filter(game=duel).count() == 1


def test_submit_answers_403_for_a_seat_that_is_not_mine(
    duel: Game, alice_api: Api, bob_api: Api, carol: Any
) -> None:
    me, other, seat = _deciding(duel, alice_api, bob_api)
    before = snapshot(duel)
    body = {"action": options(duel, seat)[0], "expected_seq": duel.seq, "seat": seat}
    response = other.post(reverse("api_action", args=[duel.pk]), body)
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    response = other.post(reverse("api_action", args=[duel.pk]), {**body, "seat": None})
    assert response.status_code == 403, "it is not the other player's decision"
    carol_api = Api(ApiToken.issue(carol, "x")[1])
    assert carol_api.post(reverse("api_action", args=[duel.pk]), body).status_code == 403
    assert snapshot(duel) == before


@pytest.mark.parametrize(
    "body",
    [
        '{"action": ',
        '["a list"]',
        '{"expected_seq": 0}',
        '{"action": {"ruler": "otto"}}',
        '{"action": {"ruler": "otto"}, "expected_seq": "0"}',
    ],
)
def test_submit_answers_400_to_a_malformed_body(duel: Game, alice_api: Api, body: str) -> None:
    before = snapshot(duel)
    response = alice_api.post(reverse("api_action", args=[duel.pk]), body)
    assert response.status_code == 400
    assert "error" in response.json()
    assert snapshot(duel) == before


def test_submit_answers_400_to_an_illegal_move_with_the_engines_message(
    duel: Game, alice_api: Api, bob_api: Api
) -> None:
    me, _, seat = _deciding(duel, alice_api, bob_api)
    before = snapshot(duel)
    response = me.post(
        reverse("api_action", args=[duel.pk]),
        {"action": {"ruler": "nobody"}, "expected_seq": duel.seq},
    )
    assert response.status_code == 400 and response.json()["code"] == "illegal"
    assert response.json()["error"].startswith("That is not one of the choices now")
    assert snapshot(duel) == before


def test_submit_to_a_missing_game_is_404(db: None, alice_api: Api) -> None:
    response = alice_api.post(
        reverse("api_action", args=[424242]), {"action": {}, "expected_seq": 0}
    )
    assert response.status_code == 404


def test_events_since_a_seq_show_public_text_and_only_my_seats_private_text(
    duel: Game, alice_api: Api, bob_api: Api, carol: Any
) -> None:
    for _ in range(2):  # both Rulers drafted
        me, _, seat = _deciding(duel, alice_api, bob_api)
        duel.refresh_from_db()
        me.post(
            reverse("api_action", args=[duel.pk]),
            {"action": options(duel, seat)[0], "expected_seq": duel.seq},
        )
    first = Move.objects.get(game=duel, seq=1)
    first.events = [
        *first.events,
        {
            "rule": "TEST-1",
            "public": None,
            "private": {"0": "alice-only secret", "1": "bob-only secret"},
        },
        {"rule": "TEST-2", "public": "everyone sees this", "private": {"1": "bob aside"}},
    ]
    first.save()
    alice_rows = alice_api.get(reverse("api_events", args=[duel.pk]), since=0).json()
    text = json.dumps(alice_rows)
    assert "alice-only secret" in text and "everyone sees this" in text
    assert "bob-only secret" not in text and "bob aside" not in text
    bob_text = json.dumps(bob_api.get(reverse("api_events", args=[duel.pk])).json())
    assert (
        "bob-only secret" in bob_text
        and "bob aside" in bob_text
        and "alice-only secret" not in bob_text
    )
    carol_text = json.dumps(
        Api(ApiToken.issue(carol, "x")[1]).get(reverse("api_events", args=[duel.pk])).json()
    )
    assert (
        "everyone sees this" in carol_text
        and "secret" not in carol_text
        and "aside" not in carol_text
    )
    later = alice_api.get(reverse("api_events", args=[duel.pk]), since=1).json()
    assert later["seq"] == 2 and {r["seq"] for r in later["events"]} == {2}
    assert all("action" not in r for r in alice_rows["events"]), (
        "the raw log of a running game is not sent"
    )
