"""End-of-game scoring: the stored result of every seat and openskill ratings per game.

`record` runs in a task queued when the last move commits. It is idempotent: the game row is
locked and a game that already has its Result is left alone, so a retried or duplicated task
changes nothing (no second rating update).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db import transaction
from openskill.models import PlackettLuce

from games.models import Game, Rating, Result, SeatResult

MODEL = PlackettLuce()


def record(game_id: int) -> Result | None:
    """Store the result of a finished game and update its players' ratings, once."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.FINISHED or not game.result:
            return None
        existing = Result.objects.filter(game=game).first()
        if existing is not None:
            return existing
        result = Result.objects.create(game=game)
        seats = {s.index: s for s in game.seats.all()}
        rows = [
            SeatResult(
                result=result,
                seat=r["seat"],
                user=seats[r["seat"]].user,
                bot=seats[r["seat"]].bot,
                rank=r["rank"],
                score=r["score"],
                breakdown=r.get("breakdown", {}),
            )
            for r in game.result["seats"]
        ]
        result.rated = _rate(game.game, rows)
        result.save()
        SeatResult.objects.bulk_create(rows)
    return result


def _rate(game: str, rows: list[SeatResult]) -> bool:
    """Update the ratings of the human players; True when the game counted for ratings.

    Every seat takes part as its own team so that beating a bot counts; bots play at the
    default rating and keep no rating. A user holding several seats (hot seat) is not rated:
    they would be playing against themselves.
    """
    counts = Counter(r.user_id for r in rows if r.user_id is not None)
    rated = [r for r in rows if r.user_id is not None and counts[r.user_id] == 1]
    if len(rows) < 2 or not rated:
        return False
    stored = {
        x.user_id: x
        for x in Rating.objects.select_for_update().filter(
            game=game, user_id__in=[r.user_id for r in rated]
        )
    }
    before: list[Any] = []
    for row in rows:
        held = stored.get(row.user_id) if row in rated and row.user_id is not None else None
        before.append(MODEL.rating(mu=held.mu, sigma=held.sigma) if held else MODEL.rating())
    after = MODEL.rate([[b] for b in before], ranks=[r.rank for r in rows])
    for row, old, new in zip(rows, before, after, strict=True):
        if row not in rated or row.user_id is None:  # rated rows all have a user
            continue
        row.mu_before, row.sigma_before = old.mu, old.sigma
        row.mu_after, row.sigma_after = new[0].mu, new[0].sigma
        rating = stored.get(row.user_id) or Rating(user_id=row.user_id, game=game)
        rating.mu, rating.sigma = new[0].mu, new[0].sigma
        rating.games += 1
        rating.save()
    return True


def ordinal(mu: float | None, sigma: float | None) -> float | None:
    """The shown rating: a conservative estimate (mu - 3 sigma), as openskill's ordinal."""
    if mu is None or sigma is None:
        return None
    return mu - 3 * sigma


def rating_rows(result: Result) -> list[dict[str, Any]]:
    """Each seat's rating before and after, and the change, for the results page."""
    rows = []
    for row in result.seats.select_related("user"):
        old, new = ordinal(row.mu_before, row.sigma_before), ordinal(row.mu_after, row.sigma_after)
        rows.append(
            {
                "seat": row.seat,
                "rank": row.rank,
                "who": str(row.user) if row.user else row.bot or "—",
                "before": old,
                "after": new,
                "change": None if old is None or new is None else new - old,
            }
        )
    return rows
