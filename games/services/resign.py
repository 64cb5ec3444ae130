"""Resigning, as players of these games expect it.

In a two-seat game the other side wins at once. In a larger game the others play on: a bot
takes the seat to the end and the results rank the seat below everyone still playing, marked
as resigned. When no player is left at the table (every human seat resigned), the game is
abandoned: it ends there, through the same `finish`.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games import botkinds
from games.access import seats_of
from games.errors import MoveRefused
from games.models import Game, Seat
from games.services import banks
from games.services.fanout import after_commit
from games.services.finish import finish_locked
from games.services.locking import forget_seats, locked, retried


@retried
def resign(game_id: int, user: Any, seat: int | None = None) -> Game:
    """Resign the user's seat (`seat`), or every seat they play in the game; returns the game."""
    with locked(game_id) as game:
        if game.status != Game.Status.ACTIVE:
            raise MoveRefused("Only a game in progress can be resigned.", "closed")
        mine = seats_of(game, user)
        if not mine:
            raise MoveRefused("You are not playing in this game.", "forbidden")
        if seat is not None and seat not in mine:
            raise MoveRefused("You do not hold that seat.", "forbidden")
        leaving = [seat] if seat is not None else mine
        now = timezone.now()
        for index in leaving:
            Seat.objects.filter(game=game, index=index).update(
                resigned_at=now, bot=botkinds.TAKEOVER
            )
            banks.drop_seat(game, index)
        forget_seats(game)
        if game.players <= 2:
            finish_locked(game, "resigned")
        elif not any(s.user_id and s.resigned_at is None for s in game.seats.all()):
            finish_locked(game, "abandoned")
        else:
            game.bot_streak = 0  # the resignation was a player's decision
            game.save(update_fields=["bot_streak", "updated_at"])
            banks.settle(game)
            after_commit(game, force=True)
    return game
