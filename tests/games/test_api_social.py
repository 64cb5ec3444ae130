"""The JSON API's correspondence features: chat, undo and standing answers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games import chat
from games.models import ApiToken, ChatChannel, Game, Move, StandingAnswer
from tests.games.test_api import Api
from tests.games.toy import GAIN, PASS, POKE, ROLL, TAKE, act, toy, toy_game  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy", "commits")]


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> None:
    """Rate-limit counters live in the cache, which outlives each test's database."""
    cache.clear()


def api(user: Any) -> Api:
    return Api(ApiToken.issue(user, "bot")[1])


def delete(client: Api, url: str, **params: Any) -> Any:
    return client.client.delete(
        url, QUERY_STRING="&".join(f"{k}={v}" for k, v in params.items()), headers=client.headers
    )


# --- authentication and methods --------------------------------------------------------------------


def test_every_new_endpoint_wants_a_token(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    for url in (
        reverse("api_chat", args=[game.pk]),
        reverse("api_undo", args=[game.pk]),
        reverse("api_standing", args=[game.pk]),
    ):
        assert Client().get(url).status_code == 401
        assert Client().post(url, "{}", content_type="application/json").status_code == 401
        assert Client().get(url, headers={"Authorization": "Bearer chy_wrong"}).status_code == 401
    assert (
        Client().delete(reverse("api_standing_clear", args=[game.pk, "reaction"])).status_code
        == 401
    )
    assert not game.chat_messages.exists() and game.seq == 0


def test_a_post_with_a_token_needs_no_csrf_token_and_wrong_methods_are_405(
    alice: Any, bob: Any
) -> None:
    game = toy_game(alice, "me", bob)
    me = api(alice)  # the Api client enforces CSRF checks
    assert me.post(reverse("api_chat", args=[game.pk]), {"text": "hi"}).status_code == 201
    assert me.client.put(reverse("api_chat", args=[game.pk]), headers=me.headers).status_code == 405
    assert (
        me.client.delete(reverse("api_undo", args=[game.pk]), headers=me.headers).status_code == 405
    )
    assert me.get(reverse("api_standing_clear", args=[game.pk, "reaction"])).status_code == 405


def test_a_missing_or_private_game_is_404(alice: Any, bob: Any, carol: Any) -> None:
    hidden = toy_game(alice, "me", bob, public=False)
    stranger = api(carol)
    for name in ("api_chat", "api_undo", "api_standing"):
        assert stranger.get(reverse(name, args=[hidden.pk])).status_code == 404
        assert stranger.post(reverse(name, args=[hidden.pk]), {"text": "x"}).status_code == 404
        assert stranger.get(reverse(name, args=[424242])).status_code == 404
    assert (
        delete(stranger, reverse("api_standing_clear", args=[hidden.pk, "reaction"])).status_code
        == 404
    )
    assert not hidden.chat_messages.exists()


# --- chat ----------------------------------------------------------------------------------------------


def test_a_player_posts_to_the_table_and_reads_since_an_id(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    url = reverse("api_chat", args=[game.pk])
    response = api(alice).post(url, {"text": "  <b>hello</b>  "})
    assert response.status_code == 201
    first = response.json()
    assert first["text"] == "<b>hello</b>" and first["seat"] == 0 and first["channel"] is None
    assert first["to"] == "Table" and first["who"] == "alice (seat 1)"
    second = api(bob).post(url, {"text": "hi alice"}).json()
    body = api(bob).get(url).json()
    assert [m["id"] for m in body["messages"]] == [first["id"], second["id"]]
    assert body["my_seats"] == [1] and body["channels"] == [] and body["more"] is False
    later = api(bob).get(url, since=first["id"]).json()["messages"]
    assert [m["text"] for m in later] == ["hi alice"]
    assert api(bob).get(url, since=second["id"]).json()["messages"] == []


@pytest.mark.parametrize(
    "body",
    [
        '{"text": ',
        '["hi"]',
        "{}",
        '{"text": 5}',
        '{"text": "hi", "channel": "1"}',
        '{"text": "hi", "seat": true}',
    ],
)
def test_a_malformed_chat_post_is_400(alice: Any, bob: Any, body: str) -> None:
    game = toy_game(alice, "me", bob)
    response = api(alice).post(reverse("api_chat", args=[game.pk]), body)
    assert response.status_code == 400 and response.json()["error"]
    assert not game.chat_messages.exists()


def test_an_empty_or_overlong_message_is_400_with_the_reason(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    me = api(alice)
    response = me.post(reverse("api_chat", args=[game.pk]), {"text": "   "})
    assert response.status_code == 400 and response.json() == {
        "error": "The message is empty.",
        "code": "malformed",
    }
    response = me.post(reverse("api_chat", args=[game.pk]), {"text": "x" * (chat.MAX_LENGTH + 1)})
    assert response.status_code == 400 and "at most" in response.json()["error"]
    assert not game.chat_messages.exists()


def test_a_spectator_reads_the_table_but_may_not_post(alice: Any, bob: Any, carol: Any) -> None:
    game = toy_game(alice, "me", bob)
    chat.post(game, alice, "good game")
    watcher = api(carol)
    body = watcher.get(reverse("api_chat", args=[game.pk])).json()
    assert [m["text"] for m in body["messages"]] == ["good game"] and body["my_seats"] == []
    response = watcher.post(reverse("api_chat", args=[game.pk]), {"text": "let me play"})
    assert (
        response.status_code == 403
        and response.json()["error"] == "Only the players of this game can do that."
    )
    response = api(alice).post(reverse("api_chat", args=[game.pk]), {"text": "as bob", "seat": 1})
    assert response.status_code == 403 and response.json()["error"] == "You do not hold that seat."
    assert game.chat_messages.count() == 1


def test_posting_is_rate_limited_with_a_readable_429(alice: Any, bob: Any, settings: Any) -> None:
    settings.CHANCERY_CHAT_RATE = "3/m"
    game = toy_game(alice, "me", bob)
    me = api(alice)
    url = reverse("api_chat", args=[game.pk])
    responses = [me.post(url, {"text": f"hello {i}"}) for i in range(4)]
    assert [r.status_code for r in responses] == [201, 201, 201, 429]
    assert responses[-1].json() == {
        "error": "You are sending messages too fast; wait a moment.",
        "code": "rate_limited",
    }
    assert game.chat_messages.count() == 3
    assert api(bob).post(url, {"text": "bob may still talk"}).status_code == 201
    assert me.get(url).status_code == 200, "reading is not limited"


def test_the_rate_limit_is_shared_with_the_page(alice: Any, bob: Any, settings: Any) -> None:
    settings.CHANCERY_CHAT_RATE = "2/m"
    game = toy_game(alice, "me", bob)
    client = Client()
    client.force_login(alice)
    for i in range(2):
        client.post(
            reverse("chat_post", args=[game.pk]), {"text": f"page {i}"}, HTTP_HX_REQUEST="true"
        )
    assert api(alice).post(reverse("api_chat", args=[game.pk]), {"text": "api"}).status_code == 429


def test_a_private_channel_is_read_and_written_only_by_its_members(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = toy_game(alice, "me", bob, carol)
    channel = chat.open_channel(game, alice, [1])
    url = reverse("api_chat", args=[game.pk])
    secret = api(alice).post(url, {"text": "attack carol at dawn", "channel": channel.pk})
    assert secret.status_code == 201 and secret.json()["channel"] == channel.pk
    assert secret.json()["to"] == "Private: bob (seat 2)"
    assert api(bob).post(url, {"text": "agreed", "channel": channel.pk}).status_code == 201
    chat.post(game, carol, "hello all")
    bob_body = api(bob).get(url).json()
    assert [m["text"] for m in bob_body["messages"]] == [
        "attack carol at dawn",
        "agreed",
        "hello all",
    ]
    assert bob_body["channels"] == [
        {"id": channel.pk, "members": [0, 1], "name": "Private: alice (seat 1)"}
    ]
    refused = api(carol).post(url, {"text": "let me in", "channel": channel.pk})
    assert refused.status_code == 403 and refused.json()["error"] == "You are not in that channel."
    assert api(carol).post(url, {"text": "x", "channel": 424242}).status_code == 403
    # carol, seated but not a member, and dave, a spectator without a seat
    for reader in (api(carol), Api(ApiToken.issue(_user("dave"), "x")[1])):
        body = reader.get(url, since=0)
        text = json.dumps(body.json())
        assert body.status_code == 200 and "attack carol" not in text and "agreed" not in text
        assert body.json()["channels"] == [] and "hello all" in text
    assert ChatChannel.objects.filter(game=game).count() == 1


def _user(name: str) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(name, f"{name}@example.com", "pw")


def test_reading_respects_mutes(alice: Any, bob: Any, carol: Any) -> None:
    game = toy_game(alice, "me", bob, carol)
    chat.post(game, alice, "buy my grain")
    chat.set_mute(game, bob, 0, True)
    url = reverse("api_chat", args=[game.pk])
    assert "buy my grain" not in json.dumps(api(bob).get(url).json())
    assert "buy my grain" in json.dumps(api(carol).get(url).json())
    chat.set_mute(game, bob, 0, False)
    assert "buy my grain" in json.dumps(api(bob).get(url).json())


def test_reading_is_paged_by_id(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    for i in range(chat.SHOWN + 5):
        chat.post(game, alice, f"line {i}")
    url = reverse("api_chat", args=[game.pk])
    body = api(bob).get(url).json()
    assert len(body["messages"]) == chat.SHOWN and body["more"] is True
    assert body["messages"][0]["text"] == "line 0"
    rest = api(bob).get(url, since=body["messages"][-1]["id"]).json()
    assert [m["text"] for m in rest["messages"]] == [
        f"line {i}" for i in range(chat.SHOWN, chat.SHOWN + 5)
    ]
    assert rest["more"] is False


# --- undo ------------------------------------------------------------------------------------------------


def test_undo_reports_and_takes_back_my_trailing_moves(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    url = reverse("api_undo", args=[game.pk])
    assert api(alice).get(url).json() == {
        "seq": 0,
        "can_undo": False,
        "to_seq": None,
        "earliest_seq": None,
        "moves": [],
    }
    act(game, alice, GAIN, 0)
    act(game, alice, GAIN, 0)
    body = api(alice).get(url).json()
    assert body == {
        "seq": 2,
        "can_undo": True,
        "to_seq": 1,
        "earliest_seq": 0,
        "moves": [{"seq": 2, "seat": 0}, {"seq": 1, "seat": 0}],
    }
    assert api(bob).get(url).json()["can_undo"] is False
    response = api(alice).post(url, {})
    assert response.status_code == 200 and response.json() == {"ok": True, "seq": 1}
    assert api(alice).post(url, {"to_seq": 0}).json() == {"ok": True, "seq": 0}
    game.refresh_from_db()
    assert game.seq == 0 and not Move.objects.filter(game=game).exists()


def test_undo_is_refused_across_a_barrier_with_a_readable_409(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    url = reverse("api_undo", args=[game.pk])
    act(game, alice, GAIN, 0)
    act(game, alice, ROLL, 0)
    assert api(alice).get(url).json()["can_undo"] is False
    response = api(alice).post(url, {})
    assert response.status_code == 409
    assert response.json()["error"].startswith("Nothing can be taken back now")
    act(game, alice, GAIN, 0)
    assert api(alice).get(url).json()["earliest_seq"] == 2
    response = api(alice).post(url, {"to_seq": 0})
    assert response.status_code == 409
    assert (
        response.json()["error"]
        == "You can only take back your own moves since the last reveal or roll."
    )
    game.refresh_from_db()
    assert game.seq == 3


def test_undo_permissions_and_malformed_bodies(alice: Any, bob: Any, carol: Any) -> None:
    game = toy_game(alice, "me", bob)
    act(game, alice, GAIN, 0)
    url = reverse("api_undo", args=[game.pk])
    for method in ("get", "post"):
        response = getattr(api(carol), method)(url, *([{}] if method == "post" else []))
        assert (
            response.status_code == 403
            and response.json()["error"] == "Only the players of this game can undo."
        )
    assert api(bob).post(url, {}).status_code == 409, "bob has no moves of his own to take back"
    for body in ('{"to_seq": "0"}', '{"to_seq": true}', "[1]", '{"to_seq": '):
        assert api(alice).post(url, body).status_code == 400
    game.refresh_from_db()
    assert game.seq == 1


# --- standing answers -----------------------------------------------------------------------------------


def test_standing_lists_the_kinds_and_choices_for_my_seat(alice: Any, bob: Any, carol: Any) -> None:
    game = toy_game(alice, "me", bob)
    url = reverse("api_standing", args=[game.pk])
    body = api(bob).get(url).json()
    assert body["seat"] == 1 and body["seq"] == 0
    (row,) = body["kinds"]
    assert row["kind"] == "reaction" and row["choice"] == StandingAnswer.ASK and row["label"] == ""
    names = [c["name"] for c in row["choices"]]
    assert names[0] == StandingAnswer.ASK and names[-1] == StandingAnswer.OPTION and "pass" in names
    assert api(alice).get(url, seat=1).status_code == 403
    assert api(alice).get(url, seat="x").status_code == 400
    response = api(carol).get(url)
    assert response.status_code == 403 and "Only the players" in response.json()["error"]


def test_a_standing_answer_set_through_the_api_is_applied(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    url = reverse("api_standing", args=[game.pk])
    response = api(bob).post(url, {"kind": "reaction", "choice": "pass"})
    assert response.status_code == 200 and response.json()["kinds"][0]["choice"] == "pass"
    act(game, alice, POKE, 0)
    last = game.moves.order_by("-seq").first()
    assert (last.seat, last.action, last.by_standing) == (1, PASS["action"], True)
    assert game.prompted_seats() == [0]


def test_an_answer_set_while_prompted_is_given_at_once(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    act(game, alice, POKE, 0)
    assert game.prompted_seats() == [1]
    response = api(bob).post(
        reverse("api_standing", args=[game.pk]),
        {"kind": "reaction", "choice": StandingAnswer.OPTION, "action": TAKE["action"]},
    )
    assert response.status_code == 200 and response.json()["seq"] == 2
    last = game.moves.order_by("-seq").first()
    assert (last.seat, last.action, last.by_standing) == (1, TAKE["action"], True)


def test_a_standing_answer_is_cleared_and_the_player_is_asked_again(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    api(bob).post(reverse("api_standing", args=[game.pk]), {"kind": "reaction", "choice": "pass"})
    response = delete(api(bob), reverse("api_standing_clear", args=[game.pk, "reaction"]))
    assert (
        response.status_code == 200 and response.json()["kinds"][0]["choice"] == StandingAnswer.ASK
    )
    assert not StandingAnswer.objects.exists()
    act(game, alice, POKE, 0)
    assert game.prompted_seats() == [1]
    assert not Move.objects.filter(game=game, by_standing=True).exists()


def test_standing_refusals_and_permissions(alice: Any, bob: Any, carol: Any) -> None:
    game = toy_game(alice, "me", bob)
    url = reverse("api_standing", args=[game.pk])
    response = api(bob).post(url, {"kind": "no-such-kind", "choice": "pass"})
    assert (
        response.status_code == 400
        and response.json()["error"] == "This game never asks 'no-such-kind' questions."
    )
    response = api(bob).post(url, {"kind": "reaction", "choice": "sulk"})
    assert (
        response.status_code == 400
        and "not one of the standing answers" in response.json()["error"]
    )
    response = api(bob).post(url, {"kind": "reaction", "choice": StandingAnswer.OPTION})
    assert response.status_code == 400 and response.json()["error"].startswith("Name the choice")
    for body in (
        '{"kind": "reaction"}',
        '{"kind": "reaction", "choice": 1}',
        "[]",
        '{"kind": "reaction", "choice": "pass", "seat": "1"}',
    ):
        assert api(bob).post(url, body).status_code == 400
    response = api(alice).post(url, {"kind": "reaction", "choice": "pass", "seat": 1})
    assert response.status_code == 403 and response.json()["error"] == "You do not hold that seat."
    assert api(carol).post(url, {"kind": "reaction", "choice": "pass"}).status_code == 403
    clear = reverse("api_standing_clear", args=[game.pk, "reaction"])
    assert delete(api(alice), clear, seat=1).status_code == 403
    assert delete(api(carol), clear).status_code == 403
    assert (
        delete(api(bob), reverse("api_standing_clear", args=[game.pk, "nope"])).status_code == 400
    )
    assert not StandingAnswer.objects.exists()
    assert Game.objects.get(pk=game.pk).seq == 0
