"""A move: checked and applied under the game's lock, recorded, and fanned out after the commit.

Every submission, a player's, a bot's or a standing answer's, comes through `submit`. A stale,
forged, illegal or malformed one is refused with a readable message and changes nothing; one
sent twice is answered with its first acceptance.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from games import notify, rows
from games.access import seats_of
from games.errors import MoveRefused
from games.models import Game, Move
from games.services import banks
from games.services.fanout import after_commit
from games.services.finish import finish_locked
from games.services.locking import forget_seats, locked, retried
from rules.core.canonical import canonical_bytes, canonical_json, state_hash
from rules.core.errors import IllegalAction

log = logging.getLogger(__name__)
# Bots and standing answers may make this many moves in a row before the game waits for a player.
BOT_STREAK_LIMIT = 500
# What a move changes of the game row.
# rules_version with the state: a state upgraded on reading (Game.upgrade_state) is written with it.
MOVED_FIELDS = ("seq", "state", "rules_version", "bot_streak", "paused", "updated_at")


def submit(
    game_id: int,
    user: AbstractBaseUser | None,
    action: Any,
    expected_seq: Any,
    seat: int | None = None,
    bot: bool = False,
    standing: bool = False,
    prompt: str | None = None,
) -> Move:
    """Check and apply one move; refuse anything stale, forged, illegal or malformed unchanged.

    `standing` is the seat's standing answer given by a task (games.standing), for `seat` only.
    `prompt` is the key (prompt_key) of the named seat's prompt the page showed: when other
    seats have moved since, the move still counts if that seat's own prompt is unchanged
    (several seats deciding at once never refuse each other as stale).
    """
    if not isinstance(expected_seq, int) or isinstance(expected_seq, bool):
        raise MoveRefused(
            "The move is missing its position in the game (expected_seq).", "malformed"
        )
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise MoveRefused("The seat must be a seat number.", "malformed")
    try:
        canonical_json(action)
    except (TypeError, ValueError, RecursionError) as error:
        raise MoveRefused("That move is not well-formed.", "malformed") from error
    return _submit_locked(game_id, user, action, expected_seq, seat, bot, standing, prompt)


def prompt_key(prompt: Any) -> str:
    """A short fingerprint of one seat's prompt: its kind, text and every option."""
    return hashlib.sha256(canonical_bytes(prompt)).hexdigest()[:20]


@retried
def _submit_locked(
    game_id: int,
    user: AbstractBaseUser | None,
    action: Any,
    expected_seq: int,
    seat: int | None,
    bot: bool,
    standing: bool,
    prompt: str | None = None,
) -> Move:
    """One attempt at a move, under the game's row lock."""
    with locked(game_id) as game:
        if standing:
            # A standing answer is given by the platform for the seat it names, and only fresh.
            if expected_seq != game.seq or seat is None:
                raise MoveRefused("The game has moved on.", "stale")
            who = seat
        elif expected_seq != game.seq and not _own_prompt_unchanged(
            game, user, seat, bot, expected_seq, prompt
        ):
            return _resubmitted(game, _held_seats(game, user, seat, bot), action, expected_seq)
        else:
            who = _acting_seat(game, user, seat, bot)
        if game.status != Game.Status.ACTIVE or game.state is None:
            raise MoveRefused("This game is not in progress.", "closed")
        if game.rules_version != game.engine.rules_version:
            raise MoveRefused(
                f"This game was saved by rules version {game.rules_version}, which the site's "
                f"rules (version {game.engine.rules_version}) cannot play on.",
                "closed",
            )
        if (bot or standing) and game.paused:
            raise MoveRefused("The bots of this game are paused.", "paused")
        try:
            state, events = game.engine.apply(game.state, who, action)
        except IllegalAction as error:
            raise MoveRefused(str(error), "illegal") from error
        return record(game, who, action, state, events, bot, standing)


def _own_prompt_unchanged(
    game: Game,
    user: AbstractBaseUser | None,
    seat: int | None,
    bot: bool,
    expected_seq: int,
    prompt: str | None,
) -> bool:
    """Whether only other seats moved since the page was drawn and this seat's prompt is the
    one the page showed: then the move is as fresh as it was (a double click is not: the seat
    itself moved since)."""
    if prompt is None or seat is None or expected_seq > game.seq or game.state is None:
        return False
    _held_seats(game, user, seat, bot)  # refuses a seat the sender does not hold
    if game.moves.filter(seq__gt=expected_seq, seat=seat).exists():
        return False
    now = game.engine.prompt_for(game.state, seat)
    return now is not None and prompt_key(now) == prompt


def _held_seats(
    game: Game, user: AbstractBaseUser | None, seat: int | None, bot: bool
) -> list[int]:
    """The seats this submission may act for (just `seat` when named); refuses a forged one."""
    mine = [s.index for s in game.seats.all() if s.bot] if bot else seats_of(game, user)
    if seat is not None and seat not in mine:
        raise MoveRefused("You do not hold that seat.", "forbidden")
    if not mine:
        raise MoveRefused("You are not playing in this game.", "forbidden")
    return [seat] if seat is not None else mine


def _acting_seat(game: Game, user: AbstractBaseUser | None, seat: int | None, bot: bool) -> int:
    """The seat this submission acts for; a user may act only for seats they hold."""
    mine = _held_seats(game, user, seat, bot)
    if seat is not None:
        return seat
    prompted = [i for i in game.prompted_seats() if i in mine]
    if prompted:
        return prompted[0]
    raise MoveRefused("It is not your decision now.", "forbidden")


def _resubmitted(game: Game, seats: list[int], action: Any, expected_seq: int) -> Move:
    """A move sent twice is answered with the first acceptance, never applied again.

    The seat is matched against the seats the sender holds, not the one deciding now: by the
    time a double click or a retry arrives, the decision has usually passed to someone else.
    """
    done = game.moves.filter(seq=expected_seq + 1).first()
    if (
        done is not None
        and done.seat in seats
        and canonical_json(done.action) == canonical_json(action)
    ):
        return done
    raise MoveRefused(
        "The game has moved on since your page was drawn; it has been refreshed.", "stale"
    )


def record(
    game: Game,
    seat: int,
    action: Any,
    state: dict[str, Any],
    events: list[Any],
    bot: bool,
    standing: bool = False,
) -> Move:
    """Store an applied move (under the lock): the Move row, the game, clocks, mail, fan-out."""
    engine = game.engine
    # Whether this move may ever be taken back is known only now, with both states at hand.
    barrier = engine.undo_barrier(game.state, state, seat) if game.state is not None else True
    before = game.prompted_seats()  # who was deciding, so that only new decisions are mailed
    automatic = bot or standing
    game.seq += 1
    game.state = state
    game.bot_streak = game.bot_streak + 1 if automatic else 0
    if not automatic:
        game.paused = False  # a player's decision lets the bots go on
    move = Move(
        game=game,
        seq=game.seq,
        seat=seat,
        action=action,
        events=events,
        state_hash=state_hash(state),
        by_bot=bot,
        by_standing=standing,
        barrier=barrier,
    )
    rows.insert(move)
    if engine.is_over(state):
        finish_locked(game, "end")
        return move
    _pause_if_looping(game)
    rows.update(game, MOVED_FIELDS)  # the config and the result stay as they were
    if banks.record_move(game, seat, by_player=not automatic):
        forget_seats(game)  # a held seat is the player's again
    notify.record_move(game, seat, before)  # outbox rows in the move's transaction
    mover = (
        None if automatic else next((s.user_id for s in game.seats.all() if s.index == seat), None)
    )
    after_commit(game, mover=mover)
    return move


def _pause_if_looping(game: Game) -> None:
    """Stop the bots after too many moves without a player's decision; they never spin a worker."""
    limit: int = getattr(settings, "CHANCERY_BOT_STREAK_LIMIT", BOT_STREAK_LIMIT)
    if game.paused or game.bot_streak < limit:
        return
    players = {s.index for s in game.seats.all() if s.user_id and not s.bot}
    if any(index in players for index in game.prompted_seats()):
        return  # a player decides next: nothing spins
    game.paused = True
    log.warning(
        "game %s paused at seq %s: %s moves in a row by bots without a player's decision",
        game.pk,
        game.seq,
        game.bot_streak,
    )
    notify.game_paused(game)
