"""End-of-game scoring: the stored result, openskill ratings per game, idempotent; the results page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Rating, Result, SeatResult
from tests.games.toy import END, GAIN, act, toy, toy_game  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy", "commits")]


def finish(game: Any, users: dict[int, Any], gains: dict[int, int]) -> Any:
    """Two rounds: each seat gains its number of gold in the first, then everyone ends."""
    for _ in range(2):
        for seat in range(game.players):
            if users.get(seat) is None:
                continue
            game.refresh_from_db()
            if game.prompted_seats() != [seat]:
                continue
            for _ in range(gains.pop(seat, 0)):
                act(game, users[seat], GAIN, seat)
            act(game, users[seat], END, seat)
    game.refresh_from_db()
    assert game.status == "finished"
    return game


def snapshot() -> list[tuple[Any, ...]]:
    return sorted((r.user_id, r.game, r.mu, r.sigma, r.games) for r in Rating.objects.all())


def test_finish_stores_results_and_ratings_once(alice: Any, bob: Any) -> None:
    game = finish(toy_game(alice, "me", bob), {0: alice, 1: bob}, {0: 2})
    result = Result.objects.get(game=game)
    rows = {r.seat: r for r in result.seats.all()}
    assert (rows[0].rank, rows[0].score, rows[0].breakdown) == (1, 2, {"gold": 2, "pokes": 0})
    assert (rows[1].rank, rows[1].score) == (2, 0)
    assert result.rated
    ratings = {r.user_id: r for r in Rating.objects.filter(game="toy")}
    assert ratings[alice.pk].mu > ratings[bob.pk].mu and ratings[alice.pk].games == 1
    before = snapshot()
    assert services.finish(game.pk) is False, "the game ended already"
    services.finish(game.pk, "abandoned")
    assert snapshot() == before
    assert Result.objects.count() == 1 and SeatResult.objects.count() == 2


def test_ratings_carry_over_to_the_next_game_of_that_game(alice: Any, bob: Any) -> None:
    finish(toy_game(alice, "me", bob), {0: alice, 1: bob}, {0: 1})
    first = Rating.objects.get(user=alice, game="toy")
    finish(toy_game(alice, "me", bob), {0: alice, 1: bob}, {0: 1})
    second = Rating.objects.get(user=alice, game="toy")
    assert second.games == 2 and second.mu > first.mu and second.sigma < first.sigma
    row = SeatResult.objects.filter(user=alice).order_by("-pk").first()
    assert (row.mu_before, row.sigma_before) == (first.mu, first.sigma)


def test_a_player_holding_every_seat_is_not_rated(alice: Any) -> None:
    game = finish(toy_game(alice, "me", alice), {0: alice, 1: alice}, {1: 1})
    assert not Result.objects.get(game=game).rated
    assert not Rating.objects.exists()


def test_nothing_is_scored_while_a_game_is_in_progress(alice: Any, bob: Any) -> None:
    toy_game(alice, "me", bob)
    assert not Result.objects.exists()


def test_the_results_page_shows_the_breakdown_and_rating_changes(alice: Any, bob: Any) -> None:
    game = finish(toy_game(alice, "me", bob), {0: alice, 1: bob}, {1: 3})
    page = Client().get(reverse("results", args=[game.pk])).content.decode()
    assert (
        'id="results"' in page
        and '<th scope="col">Gold</th>' in page
        and '<th scope="col">Pokes</th>' in page
    )
    assert 'id="ratings"' in page and "+" in page and "bob" in page
    game_page = Client().get(reverse("game", args=[game.pk])).content.decode()
    assert reverse("results", args=[game.pk]) in game_page
