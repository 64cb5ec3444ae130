"""Clock banks inside a move's transaction: opened at the start, started and stopped as seats
must decide, handed back to a returning player. (Timeouts and vacations: services.clocks.)

A bank works as in correspondence chess: it starts at one move's allowance, runs while the
seat must decide, and each decision adds one allowance back, up to the cap.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.clocks import TimeControl
from games.models import Game, GameClock, MailPreference, Seat, SeatClock


def attach(game: Game, control: TimeControl | None) -> None:
    """Give a new game its time control (inside create_game's transaction)."""
    if control is None:
        return
    control.check()
    GameClock.objects.create(
        game=game,
        per_move=timedelta(days=control.days_per_move),
        cap=timedelta(days=control.cap_days),
        on_timeout=control.on_timeout,
    )


def game_started(game: Game) -> None:
    """Open a bank for every human seat and start the clocks of those who must decide."""
    clock = GameClock.objects.filter(game=game).first()
    if clock is None:
        return
    for seat in game.seats.filter(user__isnull=False, bot=""):
        SeatClock.objects.get_or_create(seat=seat, defaults={"bank": clock.per_move})
    settle(game, clock)


def record_move(game: Game, seat: int, by_player: bool) -> bool:
    """Clock bookkeeping for a move just recorded (under the game's lock); True if a seat changed hands."""
    clock = clock_of(game)
    if clock is None:
        return False
    held = None
    if by_player:
        # A player who moves for a seat a bot was holding has come back (a bot's move or a
        # standing answer is not the player).
        held = SeatClock.objects.filter(
            seat__game=game, seat__index=seat, held_since__isnull=False
        ).first()
        if held is not None:
            release(held, clock)
    settle(game, clock)
    return held is not None


def clock_of(game: Game) -> GameClock | None:
    """The game's clock, or None; no query when the game was read with it (games.rows)."""
    try:
        return game.clock
    except GameClock.DoesNotExist:
        return None


def settle(game: Game, clock: GameClock | None = None, now: datetime | None = None) -> None:
    """Start the clocks of seats that must now decide; stop (and credit) those that no longer must."""
    clock = clock or GameClock.objects.filter(game=game).first()
    if clock is None:
        return
    now = now or timezone.now()
    deciding = set(game.prompted_seats())
    active = game.status == Game.Status.ACTIVE and not game.paused
    for bank in SeatClock.objects.filter(seat__game=game).select_related("seat"):
        running = bank.running_since is not None
        wanted = bank.seat.index in deciding and bank.held_since is None and active
        if wanted and not running:
            start(bank, _start_time(bank.seat.user_id, now))
            bank.save()
        elif running and not wanted:
            stop(bank, clock, now, credit=game.status == Game.Status.ACTIVE)
            bank.save()


def _start_time(user_id: int | None, now: datetime) -> datetime:
    """Now, or the end of the player's vacation (a bot's seat: now)."""
    if user_id is None:
        return now
    until = (
        MailPreference.objects.filter(user_id=user_id)
        .values_list("vacation_until", flat=True)
        .first()
    )
    return max(now, until) if until else now


def start(bank: SeatClock, since: datetime) -> None:
    bank.running_since = since
    bank.deadline = since + bank.bank


def stop(bank: SeatClock, clock: GameClock, now: datetime, credit: bool) -> None:
    assert bank.running_since is not None
    used = max(now - bank.running_since, timedelta(0))
    left = max(bank.bank - used, timedelta(0))
    bank.bank = min(left + clock.per_move, clock.cap) if credit else left
    bank.running_since = None
    bank.deadline = None


def release(bank: SeatClock, clock: GameClock) -> None:
    """Hand a held seat back to its player, with at least one move's allowance."""
    Seat.objects.filter(pk=bank.seat_id).update(bot="")
    bank.seat.bot = ""
    bank.held_since = None
    bank.bank = max(bank.bank, clock.per_move)
    bank.save()


def drop_seat(game: Game, index: int) -> None:
    """A seat that left the game for good (resigned) has no clock any more."""
    SeatClock.objects.filter(seat__game=game, seat__index=index).delete()
