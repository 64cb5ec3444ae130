"""Undo, write side: take back a player's trailing moves (what may be taken back: games.undo)."""

from __future__ import annotations

from typing import Any

from games.access import seats_of
from games.errors import MoveRefused
from games.models import Job
from games.services.fanout import after_commit
from games.services.locking import locked, retried
from games.undo import state_at, undoable


@retried
def undo(game_id: int, user: Any, to_seq: int | None = None) -> int:
    """Take back the user's moves after `to_seq` (default: the last one); returns the new seq."""
    with locked(game_id) as game:
        human = [s.index for s in game.seats.all() if s.user_id is not None and not s.bot]
        run = undoable(game, [i for i in seats_of(game, user) if i in human])
        if not run:
            raise MoveRefused(
                "Nothing can be taken back now: another seat has acted, or something "
                "was revealed or rolled since.",
                "forbidden",
            )
        target = run[0].seq - 1 if to_seq is None else to_seq
        if not run[-1].seq - 1 <= target < game.seq:
            raise MoveRefused(
                "You can only take back your own moves since the last reveal or roll.", "forbidden"
            )
        game.state = state_at(game, target)
        game.moves.filter(seq__gt=target).delete()
        # Jobs owed at the positions taken back are void; those at `target` are owed afresh.
        Job.objects.filter(game=game, seq__gte=target).delete()
        game.seq = target
        game.bot_streak = 0
        game.save()
        # The seq goes back, so sockets must redraw even though they have seen a later one.
        after_commit(game, force=True)
    return target
