"""Every way a game ends goes through one finish: the engine's end, a timeout, a resignation,
abandonment; each is scored (results and ratings) once, however often finish is called."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import botkinds, services
from games.models import Game, GameClock, Outbox, Rating, Result, Seat, SeatClock, SeatResult
from games.services import clocks as clock_service
from tests.games.toy import END, GAIN, PASS, act, toy, toy_game  # noqa: F401

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("toy", "commits"),  # bots take seats after the commit
]


@pytest.fixture
def random_takeover(monkeypatch: Any) -> None:
    """The toy rewards gaining gold forever: a bot that plays to win never ends its turn there
    (the pause after 500 bot moves is tested elsewhere), so here a random bot takes over."""
    monkeypatch.setattr(botkinds, "TAKEOVER", "random")


def play_out(game: Game, users: dict[int, Any]) -> None:
    """The players end their turns and pass their reactions until the game is over."""
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        seat = game.prompted_seats()[0]
        legal = [o["action"] for o in game.engine.prompt_for(game.state, seat)["options"]]
        act(game, users[seat], END if END["action"] in legal else PASS, seat)


def ratings() -> list[tuple[Any, ...]]:
    return sorted((r.user_id, r.mu, r.sigma, r.games) for r in Rating.objects.all())


def seat_results(game: Game) -> dict[int, SeatResult]:
    return {r.seat: r for r in Result.objects.get(game=game).seats.all()}


def test_finish_called_twice_scores_and_mails_once(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    assert services.finish(game.pk, "abandoned") is True
    before = (ratings(), Outbox.objects.filter(kind="result").count(), len(mail.outbox))
    assert services.finish(game.pk, "abandoned") is False
    assert services.finish(game.pk, "end") is False
    assert (ratings(), Outbox.objects.filter(kind="result").count(), len(mail.outbox)) == before
    assert Result.objects.filter(game=game).count() == 1
    assert SeatResult.objects.filter(result__game=game).count() == 2
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["ended_by"] == "abandoned"


def test_a_game_ended_by_a_timeout_is_scored_with_the_late_seat_last(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    act(game, alice, GAIN, 0)
    act(game, alice, GAIN, 0)
    GameClock.objects.create(
        game=game, per_move=timedelta(days=1), cap=timedelta(days=3), on_timeout="end"
    )
    # Alice (two gold ahead) lets her clock run out: she is ranked last all the same.
    bank = SeatClock.objects.create(
        seat=Seat.objects.get(game=game, index=0),
        bank=timedelta(days=1),
        running_since=timezone.now() - timedelta(days=2),
        deadline=timezone.now() - timedelta(days=1),
    )
    assert clock_service.time_out(bank.pk, timezone.now()) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert (game.result["ended_by"], game.result["timeout"]) == ("timeout", 0)
    rows = seat_results(game)
    assert (rows[1].rank, rows[0].rank, rows[0].score) == (1, 2, 2)
    mine = {r.user_id: r for r in Rating.objects.filter(game="toy")}
    assert mine[bob.pk].mu > mine[alice.pk].mu, "the timeout changed both ratings"
    assert rows[0].mu_after < rows[0].mu_before
    assert Outbox.objects.filter(kind="result", game=game).count() == 2


def test_in_a_two_seat_game_the_other_side_wins_a_resignation(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    act(game, alice, GAIN, 0)
    services.resign(game.pk, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["ended_by"] == "resigned"
    rows = seat_results(game)
    assert (rows[1].rank, rows[0].rank) == (1, 2)
    assert rows[0].resigned and not rows[1].resigned
    assert rows[0].mu_after < rows[0].mu_before < rows[1].mu_after
    assert Rating.objects.get(user=bob, game="toy").games == 1
    with pytest.raises(services.MoveRefused):
        services.resign(game.pk, bob)
    page = Client().get(reverse("game", args=[game.pk])).content.decode()
    assert "It ended with a resignation." in page and "(resigned)" in page


def test_in_a_larger_game_a_bot_takes_a_resigned_seat_and_the_results_mark_it(
    alice: Any, bob: Any, carol: Any, random_takeover: None
) -> None:
    game = toy_game(alice, "me", bob, carol)
    act(game, alice, GAIN, 0)
    act(game, alice, GAIN, 0)
    act(game, alice, END, 0)
    services.resign(game.pk, bob)  # seat 1 decides now: the bot plays it at once
    game.refresh_from_db()
    seat = Seat.objects.get(game=game, index=1)
    assert game.status == Game.Status.ACTIVE
    assert (seat.bot, seat.user) == ("random", bob) and seat.resigned_at is not None
    assert services.seats_of(game, bob) == [], "the seat is no longer bob's to play"
    assert game.moves.filter(seat=1, by_bot=True).exists()
    with pytest.raises(services.MoveRefused):
        services.submit(game.pk, bob, GAIN["action"], game.seq, seat=1)
    play_out(game, {0: alice, 2: carol})
    rows = seat_results(game)
    assert rows[1].resigned and rows[1].user == bob and rows[1].rank == 3
    assert rows[0].rank == 1 and not rows[0].resigned
    assert game.result["resigned"] == [1] and game.result["ended_by"] == "end"
    assert Rating.objects.get(user=bob, game="toy").games == 1


def test_a_table_every_player_left_is_abandoned(
    alice: Any, bob: Any, random_takeover: None
) -> None:
    game = toy_game(alice, "me", bob, "bot:random")
    services.resign(game.pk, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE, "bob still plays"
    services.resign(game.pk, bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["ended_by"] == "abandoned"
    rows = seat_results(game)
    assert rows[2].rank == 1 and (rows[1].rank, rows[0].rank) == (2, 3), (
        "the first to leave is ranked lowest"
    )


def test_resigning_by_page_and_api(alice: Any, bob: Any) -> None:
    from games.models import ApiToken

    game = toy_game(alice, "me", bob)
    client = Client()
    client.force_login(bob)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert f'hx-post="/games/{game.pk}/resign/"' in page and "hx-confirm=" in page
    response = client.post(reverse("resign", args=[game.pk]), {"seat": "x"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE, "a malformed seat changes nothing"
    _, raw = ApiToken.issue(alice, "test")
    api = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    answer = api.post(f"/api/games/{game.pk}/resign/", "{}", content_type="application/json")
    assert answer.status_code == 200 and answer.json()["status"] == "finished"
    again = api.post(f"/api/games/{game.pk}/resign/", "{}", content_type="application/json")
    assert again.status_code == 409 and again.json()["code"] == "closed"
