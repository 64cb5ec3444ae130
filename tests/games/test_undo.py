"""Undo: a player takes back their own moves, never across a barrier or another seat's move."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from rules.core.canonical import state_hash
from tests.games.toy import END, GAIN, PASS, POKE, ROLL, act, toy, toy_game  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy", "commits")]


def page(user: Any, game: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("game", args=[game.pk])).content.decode()


def test_a_player_takes_back_their_last_moves(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    start = state_hash(game.state)
    act(game, alice, GAIN, 0)
    after_one = state_hash(game.state)
    act(game, alice, GAIN, 0)
    assert services.undo(game.pk, alice) == 1
    game.refresh_from_db()
    assert (game.seq, state_hash(game.state), game.moves.count()) == (1, after_one, 1)
    assert services.undo(game.pk, alice, to_seq=0) == 0
    game.refresh_from_db()
    assert (game.seq, state_hash(game.state), game.moves.count()) == (0, start, 0)
    act(game, alice, GAIN, 0)  # play goes on from the restored position
    assert game.seq == 1


def test_undo_is_refused_across_a_die_roll(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    act(game, alice, GAIN, 0)
    act(game, alice, ROLL, 0)
    assert game.moves.get(seq=2).barrier
    with pytest.raises(services.MoveRefused):
        services.undo(game.pk, alice)
    act(game, alice, GAIN, 0)
    with pytest.raises(services.MoveRefused):
        services.undo(game.pk, alice, to_seq=0)  # back past the roll
    assert services.undo(game.pk, alice) == 2


def test_undo_is_refused_after_another_seat_acted(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    act(game, alice, POKE, 0)
    act(game, bob, PASS, 1)
    with pytest.raises(services.MoveRefused):
        services.undo(game.pk, alice)
    with pytest.raises(services.MoveRefused):
        services.undo(game.pk, bob, to_seq=0)  # bob's run starts after alice's poke
    assert services.undo(game.pk, bob) == 1


def test_a_move_answered_by_a_bot_cannot_be_undone(alice: Any) -> None:
    game = toy_game(alice, "me", "bot:random")
    act(game, alice, POKE, 0)  # the bot reacts at once
    with pytest.raises(services.MoveRefused):
        services.undo(game.pk, alice)


def test_the_undo_button_shows_only_when_allowed(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    assert "data-undo" not in page(alice, game)
    act(game, alice, GAIN, 0)
    assert "data-undo" in page(alice, game)
    assert "data-undo" not in page(bob, game)
    act(game, alice, ROLL, 0)
    assert "data-undo" not in page(alice, game)


def test_the_undo_view_answers_with_the_live_partials(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    act(game, alice, GAIN, 0)
    act(game, alice, END, 0)
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("undo", args=[game.pk]), {"to_seq": 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="prompt"' in response.content.decode()
    game.refresh_from_db()
    assert game.seq == 1 and game.prompted_seats() == [0]
    client.force_login(bob)
    response = client.post(reverse("undo", args=[game.pk]), {}, HTTP_HX_REQUEST="true")
    assert "Nothing can be taken back now" in response.content.decode()
