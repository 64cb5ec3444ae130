"""Time controls: a time bank per seat, reminders, timeouts, seats held by bots, vacations.

A bank works as in correspondence chess: it starts at one move's allowance, runs while the
seat must decide, and each decision adds one allowance back, up to the cap. A seat's clock
runs from `running_since`, which a vacation pushes into the future; `deadline` is stored so
the beat sweep finds expired clocks with one indexed query.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone

from games.models import Game, GameClock, MailPreference, Seat, SeatClock

log = logging.getLogger(__name__)

MAX_DAYS_PER_MOVE = 30
MAX_CAP_DAYS = 120
# How many days of vacation a player may take in a calendar year.
VACATION_DAYS_PER_YEAR: int = getattr(settings, "CHANCERY_VACATION_DAYS", 30)
# The reminder goes out when less than this share of one move's allowance is left.
REMINDER_SHARE = 4
TAKEOVER_BOT = Seat.Bot.GREEDY


class ClockError(ValueError):
    """A time control or vacation request that cannot be granted; the message is for the player."""


@dataclass(frozen=True)
class TimeControl:
    """What the creator chose: days per move, the bank's cap in days, and what a timeout does."""

    days_per_move: int
    cap_days: int
    on_timeout: str = GameClock.OnTimeout.BOT

    def check(self) -> None:
        """Raise ClockError unless the numbers make a playable clock."""
        if not 1 <= self.days_per_move <= MAX_DAYS_PER_MOVE:
            raise ClockError(f"Days per move must be between 1 and {MAX_DAYS_PER_MOVE}.")
        if not self.days_per_move <= self.cap_days <= MAX_CAP_DAYS:
            raise ClockError(f"The cap must be between the days per move and {MAX_CAP_DAYS} days.")
        if self.on_timeout not in GameClock.OnTimeout.values:
            raise ClockError("Choose what happens when a player runs out of time.")


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
    _settle(game, clock, set(game.prompted_seats()), timezone.now())


def record_move(game: Game, seat: int, by_player: bool) -> bool:
    """Clock bookkeeping for a move just recorded (under the game's lock); True if a seat changed hands."""
    clock = GameClock.objects.filter(game=game).first()
    if clock is None:
        return False
    now = timezone.now()
    held = None
    if by_player:
        # A player who moves for a seat a bot was holding has come back (a bot's move or a
        # standing answer is not the player).
        held = SeatClock.objects.filter(
            seat__game=game, seat__index=seat, held_since__isnull=False
        ).first()
        if held is not None:
            _release(held, clock)
    _settle(game, clock, set(game.prompted_seats()), now)
    return held is not None


def _settle(game: Game, clock: GameClock, deciding: set[int], now: datetime) -> None:
    """Start the clocks of seats that must now decide; stop (and credit) those that no longer must."""
    for bank in SeatClock.objects.filter(seat__game=game).select_related("seat"):
        running = bank.running_since is not None
        wanted = (
            bank.seat.index in deciding
            and bank.held_since is None
            and game.status == Game.Status.ACTIVE
        )
        if wanted and not running:
            _start(bank, _start_time(bank.seat.user_id, now))
            bank.save()
        elif running and not wanted:
            _stop(bank, clock, now, credit=game.status == Game.Status.ACTIVE)
            bank.save()


def _start_time(user_id: int | None, now: datetime) -> datetime:
    """Now, or the end of the player's vacation."""
    until = (
        MailPreference.objects.filter(user_id=user_id)
        .values_list("vacation_until", flat=True)
        .first()
    )
    return max(now, until) if until else now


def _start(bank: SeatClock, since: datetime) -> None:
    bank.running_since = since
    bank.deadline = since + bank.bank


def _stop(bank: SeatClock, clock: GameClock, now: datetime, credit: bool) -> None:
    assert bank.running_since is not None
    used = max(now - bank.running_since, timedelta(0))
    left = max(bank.bank - used, timedelta(0))
    bank.bank = min(left + clock.per_move, clock.cap) if credit else left
    bank.running_since = None
    bank.deadline = None


def _release(bank: SeatClock, clock: GameClock) -> None:
    """Hand a held seat back to its player, with at least one move's allowance."""
    Seat.objects.filter(pk=bank.seat_id).update(bot="")
    bank.seat.bot = ""
    bank.held_since = None
    bank.bank = max(bank.bank, clock.per_move)
    bank.save()


# --- the beat sweep ---------------------------------------------------------------------------


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Send reminders for clocks nearly spent and time out clocks that are spent."""
    from games import notify

    now = now or timezone.now()
    done = {"reminded": 0, "timed_out": 0}
    running = SeatClock.objects.filter(
        deadline__isnull=False, seat__game__status=Game.Status.ACTIVE
    )
    for bank in running.filter(deadline__lte=now).values_list("pk", flat=True):
        done["timed_out"] += time_out(bank, now)
    nearly = running.filter(deadline__gt=now).select_related("seat__game__clock")
    for bank in nearly:
        game = bank.seat.game
        if (
            bank.reminded_seq == game.seq
            or bank.deadline - now > game.clock.per_move / REMINDER_SHARE
        ):
            continue
        with transaction.atomic():
            SeatClock.objects.filter(pk=bank.pk).update(reminded_seq=game.seq)
            if bank.seat.user_id:
                notify.queue(bank.seat.user_id, game, game.seq, "reminder", bank.seat.index)
        done["reminded"] += 1
    return done


def time_out(bank_id: int, now: datetime) -> int:
    """A spent clock: a bot takes the seat, or the game ends; 1 when it happened, 0 if it was stale."""
    from games import live, notify, tasks

    with transaction.atomic():
        bank = SeatClock.objects.select_related("seat").get(pk=bank_id)
        game = Game.objects.select_for_update().get(pk=bank.seat.game_id)
        bank.refresh_from_db()  # the player may have moved while we waited for the lock
        if game.status != Game.Status.ACTIVE or bank.deadline is None or bank.deadline > now:
            return 0
        clock = GameClock.objects.get(game=game)
        _stop(bank, clock, now, credit=False)
        index, user_id = bank.seat.index, bank.seat.user_id
        if clock.on_timeout == GameClock.OnTimeout.END:
            bank.save()
            _end_by_timeout(game, index)
            notify.game_finished(game)
        else:
            bank.held_since = now
            bank.save()
            Seat.objects.filter(pk=bank.seat_id).update(bot=TAKEOVER_BOT)
            if user_id:
                notify.queue(user_id, game, game.seq, "timeout", index)
        game.save()
        seq = game.seq
        # The seq does not move (no engine action was taken): force every page to redraw.
        transaction.on_commit(lambda: live.broadcast(game.pk, seq, force=True))
        transaction.on_commit(lambda: tasks.wake_bots(game.pk, seq))
    log.info("seat %s of game %s timed out (%s)", index, game.pk, clock.on_timeout)
    return 1


def _end_by_timeout(game: Game, loser: int) -> None:
    """Finish the game: the engine's standings, with the seat that ran out ranked last."""
    standing = game.engine.result(game.state) if game.state is not None else {"seats": []}
    rows = [dict(r) for r in standing.get("seats", [])]
    others = sorted((r for r in rows if r["seat"] != loser), key=lambda r: (r["rank"], r["seat"]))
    for row in others:
        row["rank"] = 1 + sum(1 for o in others if o["rank"] < row["rank"])
    last = next(
        (r for r in rows if r["seat"] == loser), {"seat": loser, "score": 0, "breakdown": {}}
    )
    last["rank"] = len(rows) or game.players
    game.status = Game.Status.FINISHED
    game.result = {
        **standing,
        "seats": [*others, last],
        "over": True,
        "timeout": loser,
        "ended_by": "timeout",
    }


# --- players' requests ------------------------------------------------------------------------


def take_back(game_id: int, user: Any) -> list[int]:
    """The player takes back every seat of theirs a bot holds in this game; returns their indexes."""
    from games import live, tasks

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        clock = GameClock.objects.filter(game=game).first()
        held = list(
            SeatClock.objects.select_related("seat").filter(
                seat__game=game, seat__user=user, held_since__isnull=False
            )
        )
        if clock is None or not held:
            return []
        for bank in held:
            _release(bank, clock)
        _settle(game, clock, set(game.prompted_seats()), timezone.now())
        seq = game.seq
        transaction.on_commit(lambda: live.broadcast(game_id, seq, force=True))
        transaction.on_commit(lambda: tasks.wake_bots(game_id, seq))
    return [bank.seat.index for bank in held]


def vacation_left(pref: MailPreference, now: datetime | None = None) -> int:
    """Vacation days still available this calendar year."""
    now = now or timezone.now()
    used = pref.vacation_days_used if pref.vacation_year == now.year else 0
    return max(VACATION_DAYS_PER_YEAR - used, 0)


def start_vacation(user: Any, days: int) -> MailPreference:
    """Pause the player's clocks for `days` days, from now, out of this year's allowance."""
    now = timezone.now()
    with transaction.atomic():
        pref, _ = MailPreference.objects.select_for_update().get_or_create(user=user)
        if pref.vacation_until and pref.vacation_until > now:
            raise ClockError("You are already on vacation; end it first.")
        if not 1 <= days <= vacation_left(pref, now):
            raise ClockError(f"You have {vacation_left(pref, now)} vacation days left this year.")
        if pref.vacation_year != now.year:
            pref.vacation_year, pref.vacation_days_used = now.year, 0
        pref.vacation_days_used += days
        pref.vacation_until = now + timedelta(days=days)
        pref.save()
        _shift_running(user, now, pref.vacation_until)
    return pref


def end_vacation(user: Any) -> MailPreference:
    """Come back early: unused whole days return to the allowance and the clocks run again."""
    now = timezone.now()
    with transaction.atomic():
        pref, _ = MailPreference.objects.select_for_update().get_or_create(user=user)
        if pref.vacation_until and pref.vacation_until > now:
            unused = (pref.vacation_until - now).days
            if pref.vacation_year == now.year:
                pref.vacation_days_used = max(pref.vacation_days_used - unused, 0)
            pref.vacation_until = now
            pref.save()
            _shift_running(user, now, now)
    return pref


def _shift_running(user: Any, now: datetime, resume: datetime) -> None:
    """Charge the time used so far and restart the player's running clocks at `resume`."""
    for bank in SeatClock.objects.filter(seat__user=user, running_since__isnull=False):
        assert bank.running_since is not None
        bank.bank = max(bank.bank - max(now - bank.running_since, timedelta(0)), timedelta(0))
        _start(bank, resume)
        bank.save()


def seat_clock(game: Game, index: int, now: datetime | None = None) -> dict[str, Any] | None:
    """What a seat card shows of a clock: the bank left, whether it runs, whether a bot holds it."""
    bank = SeatClock.objects.filter(seat__game=game, seat__index=index).first()
    if bank is None:
        return None
    return _shown(bank, now or timezone.now())


def seat_clocks(game: Game, now: datetime | None = None) -> dict[int, dict[str, Any]]:
    """seat_clock for every seat of the game that has a clock, by seat index, in one query."""
    now = now or timezone.now()
    banks = SeatClock.objects.filter(seat__game=game).annotate(index=models.F("seat__index"))
    return {bank.index: _shown(bank, now) for bank in banks}


def _shown(bank: SeatClock, now: datetime) -> dict[str, Any]:
    left = bank.bank
    if bank.running_since is not None:
        left = max(bank.bank - max(now - bank.running_since, timedelta(0)), timedelta(0))
    return {
        "left": left,
        "text": duration_text(left),
        "running": bank.running_since is not None,
        "paused": bank.running_since is not None and bank.running_since > now,
        "deadline": bank.deadline,
        "held": bank.held_since is not None,
    }


def duration_text(left: timedelta) -> str:
    """'3d 4h', '5h 20m' or '12m': coarse, as a correspondence clock needs."""
    minutes = int(left.total_seconds()) // 60
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        return f"{days}d {hours}h"
    return f"{hours}h {mins}m" if hours else f"{mins}m"


def from_form(data: Any) -> TimeControl | None:
    """The time control chosen on the new game form ('clock' = 'none' or 'bank'); raises ClockError."""
    if data.get("clock", "none") != "bank":
        return None
    try:
        per_move = int(data.get("days_per_move", ""))
        cap = int(data.get("cap_days") or per_move)
    except ValueError as error:
        raise ClockError("Give the days per move and the cap as whole numbers.") from error
    control = TimeControl(per_move, cap, data.get("on_timeout", GameClock.OnTimeout.BOT))
    control.check()
    return control


def on_vacation(pref: MailPreference) -> bool:
    """Whether the player's clocks are paused now."""
    return bool(pref.vacation_until and pref.vacation_until > timezone.now())
