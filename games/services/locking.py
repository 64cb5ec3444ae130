"""The one way the lifecycle layer takes a game: its row locked for the rest of a transaction.

On PostgreSQL `select_for_update` makes every writer of a game wait for the one before it.
SQLite (the embedded set-up) has no row locks: of two writers, the later one fails with
"database is locked" instead of waiting, so a public entry point runs again a few times
(unless it runs inside a caller's transaction); the second attempt then sees the first one's
change and answers as it would on PostgreSQL.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from django.db import OperationalError, transaction

from games import rows
from games.models import Game

LOCK_RETRIES = 5
P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def locked(game_id: int) -> Iterator[Game]:
    """A transaction holding the game's row lock; the game comes with its seats read once
    (games.rows: their players and clocks too, and whether the game has a clock).

    Raises Game.DoesNotExist for an unknown id.
    """
    with transaction.atomic():
        game = rows.game_with_seats(game_id, for_update=True)
        if game is None:
            raise Game.DoesNotExist(f"No game {game_id}.")
        yield game


def retried(fn: Callable[P, R]) -> Callable[P, R]:
    """Run a locking entry point again when SQLite refuses it with "database is locked"."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        attempts = 1 if transaction.get_connection().in_atomic_block else LOCK_RETRIES
        for attempt in range(1, attempts):
            try:
                return fn(*args, **kwargs)
            except OperationalError as error:
                if not _is_lock_error(error):
                    raise
                time.sleep(0.02 * attempt)
        return fn(*args, **kwargs)

    return wrapper


def _is_lock_error(error: OperationalError) -> bool:
    return transaction.get_connection().vendor == "sqlite" and "locked" in str(error)


def forget_seats(game: Any) -> None:
    """Drop the game's prefetched seats after a seat changed, so the next read sees the change."""
    getattr(game, "_prefetched_objects_cache", {}).pop("seats", None)
