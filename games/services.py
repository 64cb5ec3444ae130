"""The only code that changes a game: create, join, start, and submit a move.

A move is checked and applied under a row lock on the game (select_for_update); after the
commit, one ids-only message goes to the game's channel group and any bot whose turn it is
gets a task.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import OperationalError, transaction

from games import clocks, notify
from games.models import Game, Move, Scenario, Seat
from rules.core.canonical import canonical_json, state_hash
from rules.core.errors import IllegalAction, ScenarioError

LOCK_RETRIES = 5


class MoveRefused(Exception):
    """A submission that changes nothing; the message is for the player."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class SeatSpec:
    """Who takes a seat at creation: 'me', 'open', 'invite' (with a username) or 'bot' (a kind)."""

    kind: str
    username: str = ""
    bot: str = ""


def create_game(
    user: AbstractBaseUser,
    scenario: Scenario,
    players: int,
    seats: list[SeatSpec],
    options: dict[str, Any] | None = None,
    public: bool = True,
    time_control: clocks.TimeControl | None = None,
) -> Game:
    """Create a game (with a time control, or none); it starts at once when every seat is filled."""
    from django.contrib.auth import get_user_model

    if time_control is not None:
        try:
            time_control.check()
        except clocks.ClockError as error:
            raise ScenarioError(str(error)) from error

    if not scenario.min_players <= players <= scenario.max_players or len(seats) != players:
        raise ScenarioError(
            f"{scenario.title} takes {scenario.min_players}–{scenario.max_players} players."
        )
    config = json.loads(canonical_json(scenario.config))
    config.setdefault("options", {}).update(options or {})
    errors = scenario.engine.validate_scenario(config)
    if errors:
        raise ScenarioError(" ".join(errors))
    with transaction.atomic():
        game = Game.objects.create(
            scenario=scenario,
            game=scenario.game,
            config=config,
            players=players,
            public=public,
            created_by=user,
        )
        for index, spec in enumerate(seats):
            seat = Seat(game=game, index=index)
            if spec.kind == "me":
                seat.user = user
            elif spec.kind == "bot":
                if spec.bot not in Seat.Bot.values:
                    raise ScenarioError(f"There is no bot called {spec.bot!r}.")
                seat.bot = spec.bot
            elif spec.kind == "invite":
                invited = get_user_model().objects.filter(username=spec.username).first()
                if invited is None:
                    raise ScenarioError(f"There is no player called {spec.username!r}.")
                seat.invited = invited
            seat.save()
        clocks.attach(game, time_control)
        _start_if_full(game)
    return game


def join(game_id: int, user: AbstractBaseUser, index: int | None = None, deck: Any = None) -> Seat:
    """Take an open seat (or the seat one was invited to); starts the game when full.

    `deck` (a config "decks" entry, see games.decks) replaces the seat's deck in a game that has one.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.OPEN:
            raise MoveRefused("This game is no longer waiting for players.", "closed")
        free = [s for s in game.seats.all() if not s.filled and (s.invited_id in (None, user.pk))]
        if index is not None:
            free = [s for s in free if s.index == index]
        if not free:
            raise MoveRefused("There is no seat here you can take.", "forbidden")
        seat = sorted(free, key=lambda s: (s.invited_id != user.pk, s.index))[0]
        if deck is not None:
            _choose_deck(game, seat.index, deck)
        seat.user = user
        seat.save()
        if not _start_if_full(game):
            _after_commit(game)  # watchers of the open game see the seat taken
    return seat


def _choose_deck(game: Game, index: int, deck: Any) -> None:
    """Put a joining player's deck in the seat's place in the config, before the game is dealt."""
    decks = game.config.get("decks")
    if not isinstance(decks, list) or not 0 <= index < len(decks):
        raise MoveRefused("This game does not take a deck for that seat.", "malformed")
    config = json.loads(canonical_json(game.config))
    config["decks"][index] = deck
    errors = game.engine.validate_scenario(config)
    if errors:
        raise MoveRefused(" ".join(errors), "illegal")
    game.config = config
    game.save(update_fields=["config"])


def _start_if_full(game: Game) -> bool:
    """Deal the game with a fresh secret seed once every seat is taken; True when it started."""
    if game.status != Game.Status.OPEN or not all(s.filled for s in game.seats.all()):
        return False
    engine = game.engine
    game.seed = secrets.randbits(62)
    game.state = engine.setup(game.seed, game.config, game.players)
    game.rules_version = engine.rules_version
    game.status = Game.Status.ACTIVE
    game.save()
    clocks.game_started(game)
    notify.game_started(
        game
    )  # outbox rows in this transaction: mail is never lost after the commit
    _after_commit(game)
    return True


def seats_of(game: Game, user: AbstractBaseUser | None) -> list[int]:
    """The seat indexes a user holds in a game."""
    if user is None or not user.is_authenticated:
        return []
    return [s.index for s in game.seats.all() if s.user_id == user.pk]


def submit(
    game_id: int,
    user: AbstractBaseUser | None,
    action: Any,
    expected_seq: Any,
    seat: int | None = None,
    bot: bool = False,
    standing: bool = False,
) -> Move:
    """Check and apply one move; refuse anything stale, forged, illegal or malformed unchanged.

    `standing` is the seat's standing answer given by a task (games.standing), for `seat` only.
    """
    if not isinstance(expected_seq, int) or isinstance(expected_seq, bool):
        raise MoveRefused(
            "The move is missing its position in the game (expected_seq).", "malformed"
        )
    try:
        canonical_json(action)
    except (TypeError, ValueError) as error:
        raise MoveRefused("That move is not well-formed.", "malformed") from error
    # SQLite has no row locks: of two writers that read the same seq, the later one is refused
    # with "database is locked" instead of waiting. Run it again (unless inside a caller's
    # transaction); it then sees the new seq and is answered as stale or as a resubmission,
    # as it would be on PostgreSQL.
    attempts = 1 if transaction.get_connection().in_atomic_block else LOCK_RETRIES
    for attempt in range(1, attempts):
        try:
            return _submit_locked(game_id, user, action, expected_seq, seat, bot, standing)
        except OperationalError as error:
            if not _is_lock_error(error):
                raise
            time.sleep(0.02 * attempt)
    return _submit_locked(game_id, user, action, expected_seq, seat, bot, standing)


def _is_lock_error(error: OperationalError) -> bool:
    return transaction.get_connection().vendor == "sqlite" and "locked" in str(error)


def _submit_locked(
    game_id: int,
    user: AbstractBaseUser | None,
    action: Any,
    expected_seq: int,
    seat: int | None,
    bot: bool,
    standing: bool = False,
) -> Move:
    """One attempt at a move, under the game's row lock."""
    with transaction.atomic():
        # The seats are read once here and shared by every check and hook of the move.
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game_id)
        if standing:
            # A standing answer is given by the platform for the seat it names, and only fresh.
            if expected_seq != game.seq or seat is None:
                raise MoveRefused("The game has moved on.", "stale")
            who = seat
        elif expected_seq != game.seq:
            return _resubmitted(game, _held_seats(game, user, seat, bot), action, expected_seq)
        else:
            who = _acting_seat(game, user, seat, bot)
        if game.status != Game.Status.ACTIVE or game.state is None:
            raise MoveRefused("This game is not in progress.", "closed")
        try:
            state, events = game.engine.apply(game.state, who, action)
        except IllegalAction as error:
            raise MoveRefused(str(error), "illegal") from error
        move = _record(game, who, action, state, events, bot, standing)
    return move


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


def _record(
    game: Game,
    seat: int,
    action: Any,
    state: dict[str, Any],
    events: list[Any],
    bot: bool,
    standing: bool = False,
) -> Move:
    engine = game.engine
    # Whether this move may ever be taken back is known only now, with both states at hand.
    barrier = engine.undo_barrier(game.state, state, seat) if game.state is not None else True
    before = game.prompted_seats()  # who was deciding, so that only new decisions are mailed
    game.seq += 1
    game.state = state
    move = Move.objects.create(
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
    if engine.is_over(state):
        game.status = Game.Status.FINISHED
        game.result = dict(engine.result(state))
        _score_after_commit(game.pk)
    game.save()
    if clocks.record_move(game, seat, by_player=not (bot or standing)):
        getattr(game, "_prefetched_objects_cache", {}).pop(
            "seats", None
        )  # a held seat is the player's again
    notify.record_move(game, seat, before)  # outbox rows in the move's transaction
    _after_commit(game)
    return move


def _after_commit(game: Game) -> None:
    """Push the news to sockets and wake any bot, once the move is safely stored.

    Who must be woken is worked out now, under the game's lock, from the game at hand (as
    tasks.wake_standing and tasks.wake_bots would after the commit, without reading it again);
    each task checks the seq again when it runs.
    """
    from games import live, standing, tasks

    game_id, seq = game.pk, game.seq
    transaction.on_commit(lambda: live.broadcast(game_id, seq))
    prompted = game.prompted_seats()
    if not prompted:
        return
    # Standing answers go first: a seat that answers by itself should not wait behind bots.
    answering = [index for index, _ in standing.due(game)]
    bots = {s.index for s in game.seats.all() if s.bot}
    waking = [index for index in prompted if index in bots]

    def wake() -> None:
        for index in answering:
            tasks.enqueue(tasks.standing_turn, game_id, seq, index)
        for index in waking:
            tasks.enqueue(tasks.bot_turn, game_id, seq, index)

    if answering or waking:
        transaction.on_commit(wake)


def _score_after_commit(game_id: int) -> None:
    """Store the result and update ratings in a task, once the last move is safely stored."""
    from games import tasks

    transaction.on_commit(lambda: tasks.enqueue(tasks.score_game, game_id))
