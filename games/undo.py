"""Undo: a player takes back their own last moves while nothing was revealed or rolled since.

Each Move row carries the engine's barrier flag, computed when the move was made from the
states before and after it (engine.undo_barrier). A seat may take back the trailing run of its
own moves that are not barriers, were made by the player (not a bot or a standing answer) and
that no other seat has followed. The state is restored by replaying the record from the seed,
and every replayed hash is checked against the log, so an undo can never invent a position.
This module reads; the undo itself (a write) is games.services.undo.
"""

from __future__ import annotations

from typing import Any

from games import rows
from games.errors import MoveRefused
from games.models import Game, Move
from rules.core.engine import State
from rules.core.replay import hash_matches

# How far back an undo may reach; a run of free actions longer than this is unusual.
MAX_STEPS = 50
FIRST_LOOK = 6  # moves read first; a run as long reads up to MAX_STEPS
# What undoable reads of a move.
UNDO_FIELDS = ("id", "game_id", "seq", "seat", "barrier", "by_bot", "by_standing")


def undoable(game: Game, seats: list[int], recent: list[Move] | None = None) -> list[Move]:
    """The trailing moves one of these seats may take back, newest first (empty if none).

    `recent` may give the game's newest moves, newest first (at least MAX_STEPS of them, or all),
    when the caller has read them already.
    """
    if game.status != Game.Status.ACTIVE or not seats:
        return []
    if recent is not None:
        return _run(recent[:MAX_STEPS], seats)
    # Most runs are short: the newest few moves tell, and only a longer run reads further back.
    recent = rows.newest_moves(game.pk, FIRST_LOOK, UNDO_FIELDS)
    run = _run(recent, seats)
    if len(run) < FIRST_LOOK:
        return run
    return _run(rows.newest_moves(game.pk, MAX_STEPS, UNDO_FIELDS), seats)


def _run(recent: list[Move], seats: list[int]) -> list[Move]:
    """The trailing moves (newest first) of one of these seats that may be taken back."""
    run: list[Move] = []
    for move in recent:
        if run and move.seat != run[0].seat:
            break
        if move.seat not in seats or move.barrier or move.by_bot or move.by_standing:
            break
        run.append(move)
    return run


def undoable_by(game: Game, user: Any, recent: list[Move] | None = None) -> list[Move]:
    """The trailing moves this user may take back with the seats they play themselves, newest first."""
    human = [
        s.index for s in game.seats.all() if s.user_id == getattr(user, "pk", None) and not s.bot
    ]
    return undoable(game, human, recent) if human else []


def available(game: Game, user: Any, recent: list[Move] | None = None) -> int | None:
    """The seq a click on Undo goes back to (one move), or None when the user may not undo."""
    run = undoable_by(game, user, recent)
    return run[0].seq - 1 if run else None


def state_at(game: Game, seq: int) -> State:
    """The state after move `seq`, replayed from the seed; checks every stored hash on the way."""
    engine = game.engine
    state = engine.setup(game.seed, game.config, game.players)
    for move in game.moves.filter(seq__lte=seq).order_by("seq"):
        engine.apply_trusted(state, move.seat, move.action)
        if not hash_matches(engine, state, move.state_hash):
            raise MoveRefused(
                f"The game's record diverges at move {move.seq}; it cannot be undone.", "corrupt"
            )
    return state
