"""Input hardening, once for every endpoint: bounded JSON, strict integers, no control characters,
sizes checked before anything is built; under /api/ every error is JSON; rate limits answer 429."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games import inputs
from games.models import ApiToken, ChatMessage, Deck, Game, Scenario, SeatNote
from tests.games.helpers import snapshot
from tests.games.toy import toy, toy_game  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy")]
DEEP = "[" * 1000 + "]" * 1000


def api(user: Any) -> Client:
    _, raw = ApiToken.issue(user, "test")
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def post_json(client: Client, url: str, body: str) -> Any:
    return client.post(url, body, content_type="application/json")


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (DEEP, "nested more than 32"),
        ('{"a": ' * 40 + "1" + "}" * 40, "nested more than 32"),
        ('{"x": "' + "a" * 70_000 + '"}', "larger than 64 KB"),
        ("[NaN]", "not valid JSON"),
        ("1" * 5000, "not valid JSON"),
        ('{"text": "a\\u0000b"}', "control character"),
        ('{"te\\u0007xt": 1}', "control character"),
        ('"\\ud800"', "control character"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_the_json_reader_refuses_what_would_crash_or_poison_a_view(raw: Any, why: str) -> None:
    with pytest.raises(inputs.BadInput, match=why):
        inputs.parse_json(raw)


def test_the_json_reader_reads_brackets_inside_strings_as_text() -> None:
    assert inputs.parse_json('{"a": "[[[[{{{{" , "b": [1, {"c": "]]]"}]}') == {
        "a": "[[[[{{{{",
        "b": [1, {"c": "]]]"}],
    }


@pytest.mark.parametrize("value", ["²", "٣", "1.0", "0x10", " 1", "1" * 20, "-"])
def test_integers_are_plain_ascii_digits(value: str) -> None:
    with pytest.raises(inputs.BadInput):
        inputs.integer(value, "seat")


def test_deep_json_and_malformed_seats_are_a_400_and_change_nothing(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    before = snapshot(game)
    client = api(alice)
    url = reverse("api_action", args=[game.pk])
    for body in (
        DEEP,
        json.dumps({"action": json.loads("[" * 30 + "]" * 30), "expected_seq": 0}),
        json.dumps({"action": {"do": "gain"}, "expected_seq": 0, "seat": "1"}),
        json.dumps({"action": {"do": "gain"}, "expected_seq": 0, "seat": True}),
        json.dumps({"action": {"do": "gain"}, "expected_seq": "0"}),
    ):
        response = post_json(client, url, body)
        assert response.status_code in (400, 403, 409), body[:40]
        assert response["Content-Type"] == "application/json" and response.json()["error"]
    assert post_json(client, url, DEEP).status_code == 400
    page = Client()
    page.force_login(alice)
    act = page.post(
        reverse("act", args=[game.pk]), {"action": DEEP, "expected_seq": "0", "seat": "0"}
    )
    assert act.status_code == 400
    assert snapshot(game) == before


@pytest.mark.parametrize("query", ["seat=²", "seat=" + "9" * 5000, "seat=-1", "seat=x", "seat=7"])
def test_a_malformed_seat_in_a_query_is_a_json_400(alice: Any, bob: Any, query: str) -> None:
    game = toy_game(alice, "me", bob)
    response = api(alice).get(f"/api/games/{game.pk}/?{query}")
    assert response.status_code == 400 and response.json()["error"]


@pytest.mark.parametrize("query", ["since=²", "since=" + "9" * 5000])
def test_a_malformed_since_is_a_400(alice: Any, bob: Any, query: str) -> None:
    game = toy_game(alice, "me", bob)
    for name in ("api_events", "api_chat"):
        response = api(alice).get(reverse(name, args=[game.pk]) + "?" + query)
        assert response.status_code == 400 and response.json()["error"]


def test_nul_and_control_characters_are_refused_in_every_text_field(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    client = api(alice)
    chat = post_json(client, reverse("api_chat", args=[game.pk]), '{"text": "hi\\u0000"}')
    assert chat.status_code == 400 and "control character" in chat.json()["error"]
    page = Client()
    page.force_login(alice)
    for url, data in (
        (reverse("chat_post", args=[game.pk]), {"text": "hi\x00there"}),
        (reverse("notes", args=[game.pk]), {"text": "my plan\x00"}),
        (reverse("deck_new"), {"name": "Deck\x00"}),
        (reverse("standing", args=[game.pk]), {"seat": "0", "kind": "reaction\x1b"}),
    ):
        response = page.post(url, data)
        assert response.status_code == 400, url
        assert "control character" in response.content.decode()
    assert page.get(reverse("lobby") + "?x=%00").status_code == 400
    assert not ChatMessage.objects.exists() and not SeatNote.objects.exists()
    assert not Deck.objects.exists()


def test_notes_keep_their_line_breaks(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    page = Client()
    page.force_login(alice)
    page.post(reverse("notes", args=[game.pk]), {"text": "line one\r\n\tline two"})
    assert SeatNote.objects.get().text == "line one\r\n\tline two"


def test_a_huge_seat_count_is_refused_before_anything_is_built(alice: Any) -> None:
    page = Client()
    page.force_login(alice)
    started = time.monotonic()
    scenario = Scenario.objects.get(game="toy")
    response = page.post(reverse("new_game"), {"scenario": str(scenario.pk), "players": "1000000"})
    assert response.status_code == 400 and time.monotonic() - started < 2
    assert "is played by" in response.content.decode()
    assert not Game.objects.exists()


def test_every_error_under_the_api_is_json(alice: Any, bob: Any, monkeypatch: Any) -> None:
    toy_game(alice, "me", bob)
    client = api(alice)
    missing = client.get("/api/no-such-thing/")
    assert missing.status_code == 404 and missing.json()["error"]
    wrong = client.put("/api/games/")
    assert wrong.status_code == 405 and "GET" in wrong.json()["error"]
    unknown = client.get("/api/games/99999/")
    assert unknown.status_code == 404 and unknown.json()["error"] == "No such game."

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr("games.api.seats_of", boom)
    client.raise_request_exception = False
    broken = client.get("/api/games/")
    assert broken.status_code == 500 and broken.json()["code"] == "server"


def test_the_api_and_moves_are_rate_limited_with_retry_after(
    alice: Any, bob: Any, settings: Any
) -> None:
    cache.clear()
    settings.CHANCERY_RATES = {"api": "3/m", "moves": "2/m"}
    game = toy_game(alice, "me", bob)
    client = api(alice)
    codes = [client.get("/api/games/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    limited = client.get("/api/games/")
    assert limited.json()["code"] == "rate_limited" and 0 < int(limited["Retry-After"]) <= 60
    page = Client()
    page.force_login(bob)
    act = reverse("act", args=[game.pk])
    statuses = [page.post(act, {"action": "{}", "expected_seq": "0"}).status_code for _ in range(3)]
    assert statuses[-1] == 429 and statuses[0] != 429
    cache.clear()


def test_a_rate_limit_whose_cache_is_down_lets_the_request_through(
    alice: Any, settings: Any, monkeypatch: Any
) -> None:
    settings.CHANCERY_RATES = {"api": "1/m"}

    def down(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("redis is down")

    monkeypatch.setattr("django.core.cache.backends.locmem.LocMemCache.add", down)
    client = api(alice)
    assert [client.get("/api/games/").status_code for _ in range(3)] == [200, 200, 200]
