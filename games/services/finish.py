"""The end of a game, whatever ended it: the engine's end, a timeout, a resignation, abandonment.

`finish_locked` runs under the game's lock inside the transaction of the change that ended
the game. It is idempotent: a game already over is left alone, so calling it twice stores one
result, updates ratings once and sends one end mail. In that one transaction it fixes the
standings, stores a Result row per game and a SeatResult per seat, updates the openskill
ratings, stops the clocks, owes the end mail (the outbox) and pushes the page after the commit.

Standings: the engine's ranks for the seats still playing; below them, seats that left the
game, those who left earlier ranked lower; the seat whose clock ran out, last of all.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from openskill.models import PlackettLuce

from games import notify
from games.models import Game, Rating, Result, Seat, SeatResult
from games.services.banks import settle
from games.services.fanout import after_commit
from games.services.locking import locked, retried

log = logging.getLogger(__name__)
MODEL = PlackettLuce()
REASONS = ("end", "timeout", "resigned", "abandoned")


@retried
def finish(game_id: int, reason: str = "end", out: list[int] | None = None) -> bool:
    """End a game under its lock; False when it was over already (nothing changes then)."""
    with locked(game_id) as game:
        return finish_locked(game, reason, out)


def finish_locked(game: Game, reason: str, out: list[int] | None = None) -> bool:
    """End the locked game once: standings, results, ratings, clocks, end mail, push."""
    if reason not in REASONS:
        raise ValueError(f"unknown way for a game to end: {reason!r}")
    if game.status != Game.Status.ACTIVE:
        return False
    game.status = Game.Status.FINISHED
    game.paused = False
    game.result = standings(game, reason, out or [])
    game.save()
    settle(game)
    _store(game)
    notify.game_finished(game)
    after_commit(game, force=True)
    log.info("game %s finished (%s)", game.pk, reason)
    return True


def _resigned(game: Game) -> list[Seat]:
    """Resigned seats, the first to leave first."""
    gone = [s for s in game.seats.all() if s.resigned_at is not None]
    return sorted(gone, key=lambda s: (s.resigned_at, s.index))


def standings(game: Game, reason: str, out: list[int]) -> dict[str, Any]:
    """The final result: the engine's for those still playing, leavers and `out` below them."""
    base: dict[str, Any] = dict(game.engine.result(game.state)) if game.state is not None else {}
    rows = [dict(r) for r in base.get("seats", [])] or [
        {"seat": i, "score": 0, "rank": 1, "breakdown": {}} for i in range(game.players)
    ]
    resigned = [s.index for s in _resigned(game)]
    bottom = [i for i in reversed(resigned) if i not in out] + list(out)
    others = sorted(
        (r for r in rows if r["seat"] not in bottom), key=lambda r: (r["rank"], r["seat"])
    )
    for row in others:
        row["rank"] = 1 + sum(1 for o in others if o["rank"] < row["rank"])
    by_seat = {r["seat"]: r for r in rows}
    tail = []
    for place, index in enumerate(bottom, start=len(others) + 1):
        row = by_seat.get(index, {"seat": index, "score": 0, "breakdown": {}})
        tail.append({**row, "rank": place})
    seats = sorted(others + tail, key=lambda r: r["seat"])
    result = {**base, "seats": seats, "over": True, "ended_by": reason}
    if resigned:
        result["resigned"] = sorted(resigned)
    if reason == "timeout" and out:
        result["timeout"] = out[0]
    return result


def _store(game: Game) -> Result | None:
    """One Result per game with a row per seat, and the players' new ratings (once)."""
    result, created = Result.objects.get_or_create(game=game)
    if not created:
        return result
    seats = {s.index: s for s in game.seats.all()}
    resigned = set((game.result or {}).get("resigned", []))
    rows = [
        SeatResult(
            result=result,
            seat=r["seat"],
            user=seats[r["seat"]].user,
            bot=seats[r["seat"]].bot,
            resigned=r["seat"] in resigned,
            rank=r["rank"],
            score=r["score"],
            breakdown=r.get("breakdown", {}),
        )
        for r in (game.result or {}).get("seats", [])
        if r["seat"] in seats
    ]
    result.rated = _rate(game.game, rows)
    result.save()
    SeatResult.objects.bulk_create(rows)
    return result


def _rate(game: str, rows: list[SeatResult]) -> bool:
    """Update the ratings of the human players; True when the game counted for ratings.

    Every seat takes part as its own team so that beating a bot counts; bots play at the
    default rating and keep no rating. A user holding several seats (hot seat) is not rated:
    they would be playing against themselves. A player who resigned is rated at their rank.
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
        user = row.user_id
        if row not in rated or user is None:  # rated rows all have a user
            continue
        row.mu_before, row.sigma_before = old.mu, old.sigma
        row.mu_after, row.sigma_after = new[0].mu, new[0].sigma
        rating = stored.get(user) or Rating(user_id=user, game=game)
        rating.mu, rating.sigma = new[0].mu, new[0].sigma
        rating.games += 1
        rating.save()
    return True
