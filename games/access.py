"""Who holds which seat and who may watch a game: reads only (a leaf module)."""

from __future__ import annotations

from typing import Any

from games.models import Game


def seats_of(game: Game, user: Any) -> list[int]:
    """The seat indexes a user plays in a game (a resigned seat is no longer theirs)."""
    if user is None or not user.is_authenticated:
        return []
    return [s.index for s in game.seats.all() if s.user_id == user.pk and s.resigned_at is None]


def sat_at(game: Game, user: Any) -> bool:
    """Whether the user holds or held (before resigning) a seat of the game."""
    if user is None or not user.is_authenticated:
        return False
    return any(s.user_id == user.pk for s in game.seats.all())


def may_watch(game_id: int, user: Any) -> bool:
    """Players of a game may watch it; anyone may watch a public one."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return False
    return watchable(game, user)


def watchable(game: Game, user: Any) -> bool:
    """may_watch for a game already read (its seats prefetched, or read here)."""
    return game.public or sat_at(game, user)


def viewer_seat(game: Game, user: Any) -> int | None:
    """The seat a user sees the game as: the one deciding now among theirs, else their first."""
    return choose_viewer_seat(seats_of(game, user), game.prompted_seats())


def choose_viewer_seat(mine: list[int], prompted: list[int]) -> int | None:
    """Of the seats one holds, the first deciding now, else the first."""
    if not mine:
        return None
    deciding = [i for i in prompted if i in mine]
    return deciding[0] if deciding else mine[0]
