"""Chat: escaping, rate limit, mutes, private channels seen only by their members, notes, rematch."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games import chat, services
from games.models import ChatChannel, Game, RematchOffer
from tests.games.helpers import section
from tests.games.test_consumers import WAIT, cookie, socket
from tests.games.test_results import finish
from tests.games.toy import toy, toy_game  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy", "commits")]
SCRIPT = "<script>alert('x')</script>"


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> None:
    """Rate-limit counters live in the cache, which outlives each test's database."""
    cache.clear()


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def say(client: Client, game: Game, text: str, channel: int | None = None) -> Any:
    data = {"text": text} if channel is None else {"text": text, "channel": channel}
    return client.post(reverse("chat_post", args=[game.pk]), data, HTTP_HX_REQUEST="true")


def chat_of(client: Client, game: Game) -> str:
    return section(client.get(reverse("game", args=[game.pk])).content.decode(), "chat")


def test_messages_are_escaped_in_the_page_and_the_partial(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    response = say(logged_in(alice), game, SCRIPT)
    assert response.status_code == 200
    for payload in (response.content.decode(), chat_of(logged_in(bob), game)):
        assert (
            SCRIPT not in payload and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in payload
        )


def test_posting_is_rate_limited(alice: Any, bob: Any, settings: Any) -> None:
    settings.CHANCERY_CHAT_RATE = "3/m"
    game = toy_game(alice, "me", bob)
    client = logged_in(alice)
    assert [say(client, game, f"hello {i}").status_code for i in range(4)] == [200, 200, 200, 429]
    assert game.chat_messages.count() == 3
    assert say(logged_in(bob), game, "bob may still talk").status_code == 200


def test_spectators_and_strangers_cannot_post(alice: Any, bob: Any, carol: Any) -> None:
    game = toy_game(alice, "me", bob)
    assert "Only the players" in say(logged_in(carol), game, "hi").content.decode()
    assert say(Client(), game, "hi").status_code == 302  # to the log-in page
    assert not game.chat_messages.exists()


def test_a_seat_may_mute_another(alice: Any, bob: Any, carol: Any) -> None:
    game = toy_game(alice, "me", bob, carol)
    say(logged_in(alice), game, "buy my grain")
    response = logged_in(bob).post(
        reverse("chat_mute", args=[game.pk]), {"other": 0, "muted": "1"}, HTTP_HX_REQUEST="true"
    )
    assert "Unmute" in response.content.decode()
    assert "buy my grain" not in chat_of(logged_in(bob), game)
    assert "buy my grain" in chat_of(logged_in(carol), game)
    logged_in(bob).post(
        reverse("chat_mute", args=[game.pk]), {"other": 0, "muted": "0"}, HTTP_HX_REQUEST="true"
    )
    assert "buy my grain" in chat_of(logged_in(bob), game)


def test_a_private_channel_is_seen_only_by_its_members(alice: Any, bob: Any, carol: Any) -> None:
    game = toy_game(alice, "me", bob, carol)
    response = logged_in(alice).post(
        reverse("chat_channel", args=[game.pk]), {"members": [1]}, HTTP_HX_REQUEST="true"
    )
    assert 'id="chat-channels"' in response.content.decode()
    channel = ChatChannel.objects.get(game=game)
    assert channel.members == [0, 1]
    say(logged_in(alice), game, "attack carol at dawn", channel.pk)
    assert (
        "Only the players" not in say(logged_in(bob), game, "agreed", channel.pk).content.decode()
    )
    refused = say(logged_in(carol), game, "let me in", channel.pk).content.decode()
    assert "You are not in that channel." in refused
    assert "attack carol at dawn" in chat_of(logged_in(bob), game)
    for client in (logged_in(carol), Client()):
        page = client.get(reverse("game", args=[game.pk])).content.decode()
        assert (
            "attack carol at dawn" not in page
            and "agreed" not in page
            and f'<option value="{channel.pk}">' not in page
        )
    assert "attack carol at dawn" not in (chat.live_fragments(game.pk, carol, channels=True) or "")
    assert "attack carol at dawn" in (chat.live_fragments(game.pk, bob) or "")


@pytest.mark.django_db(transaction=True)  # the socket reads from its own thread
@pytest.mark.asyncio
async def test_chat_is_pushed_live_to_each_member_only(alice: Any, bob: Any, carol: Any) -> None:
    game = await database_sync_to_async(toy_game)(alice, "me", bob, carol)
    sockets = {}
    for name, user in (("bob", bob), ("carol", carol)):
        sockets[name] = socket(game, await database_sync_to_async(cookie)(user))
        connected, _ = await sockets[name].connect(timeout=WAIT)
        assert connected
        await sockets[name].receive_from(timeout=WAIT)
    channel = await database_sync_to_async(chat.open_channel)(game, alice, [1])
    for name in ("bob", "carol"):  # a new channel re-renders the channel picker of every viewer
        await sockets[name].receive_from(timeout=WAIT)
    await database_sync_to_async(chat.post)(game, alice, "the table hears this")
    await database_sync_to_async(chat.post)(game, alice, "only bob hears this", None, channel.pk)
    bob_frames = [await sockets["bob"].receive_from(timeout=WAIT) for _ in range(2)]
    carol_frames = [await sockets["carol"].receive_from(timeout=WAIT) for _ in range(2)]
    assert all('id="chat"' in f for f in bob_frames + carol_frames)
    assert "only bob hears this" in bob_frames[-1] and "the table hears this" in carol_frames[-1]
    assert not any("only bob hears this" in f for f in carol_frames)
    for communicator in sockets.values():
        await communicator.disconnect()


def test_notes_are_private_to_their_seat(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    response = logged_in(alice).post(
        reverse("notes", args=[game.pk]),
        {"text": "bob bluffs <b>often</b>"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert (
        "bob bluffs &lt;b&gt;often&lt;/b&gt;"
        in logged_in(alice).get(reverse("game", args=[game.pk])).content.decode()
    )
    assert "bob bluffs" not in logged_in(bob).get(reverse("game", args=[game.pk])).content.decode()


def test_a_rematch_starts_when_every_player_accepts(alice: Any, bob: Any) -> None:
    game = finish(toy_game(alice, "me", bob), {0: alice, 1: bob}, {0: 1})
    assert "Offer a rematch" in logged_in(bob).get(reverse("game", args=[game.pk])).content.decode()
    logged_in(alice).post(reverse("rematch", args=[game.pk]), HTTP_HX_REQUEST="true")
    offer = RematchOffer.objects.get(game=game)
    assert offer.new_game is None
    assert (
        "Accept the rematch" in logged_in(bob).get(reverse("game", args=[game.pk])).content.decode()
    )
    response = logged_in(bob).post(reverse("rematch", args=[game.pk]), HTTP_HX_REQUEST="true")
    offer.refresh_from_db()
    new = offer.new_game
    assert new is not None and response["HX-Redirect"] == reverse("game", args=[new.pk])
    seats = [(s.index, s.user_id, s.bot) for s in new.seats.all()]
    assert seats == [(s.index, s.user_id, s.bot) for s in game.seats.all()]
    assert (
        new.status == Game.Status.ACTIVE
        and new.config == game.config
        and new.scenario_id == game.scenario_id
    )
    assert services.accept_rematch(game.pk, alice).new_game_id == new.pk, (
        "accepting again changes nothing"
    )
