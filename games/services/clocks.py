"""Clocks, write side: reminders and timeouts (the beat sweep), take-backs, vacations.

A timeout either lets a bot hold the seat until its player takes it back, or ends the game
through `finish` (the player who ran out ranked last). The banks' bookkeeping of each move is
in services.banks.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import botkinds, notify
from games.clocks import REMINDER_SHARE, ClockError, vacation_left
from games.models import Game, GameClock, MailPreference, Seat, SeatClock
from games.services.banks import release, settle, start, stop
from games.services.fanout import after_commit
from games.services.finish import finish_locked
from games.services.locking import forget_seats, locked, retried

log = logging.getLogger(__name__)


# --- the beat sweep ---------------------------------------------------------------------------


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Send reminders for clocks nearly spent and time out clocks that are spent."""
    now = now or timezone.now()
    done = {"reminded": 0, "timed_out": 0}
    running = SeatClock.objects.filter(
        deadline__isnull=False, seat__game__status=Game.Status.ACTIVE
    )
    for pk in running.filter(deadline__lte=now).values_list("pk", flat=True):
        done["timed_out"] += time_out(pk, now)
    nearly = running.filter(deadline__gt=now).select_related("seat__game__clock")
    for bank in nearly:
        game = bank.seat.game
        if (
            bank.reminded_seq == game.seq
            or bank.deadline is None  # not so: the filter wants a deadline
            or bank.deadline - now > game.clock.per_move / REMINDER_SHARE
        ):
            continue
        with transaction.atomic():
            SeatClock.objects.filter(pk=bank.pk).update(reminded_seq=game.seq)
            if bank.seat.user_id:
                notify.queue(bank.seat.user_id, game, game.seq, "reminder", bank.seat.index)
        done["reminded"] += 1
    return done


@retried
def time_out(bank_id: int, now: datetime) -> int:
    """A spent clock: a bot takes the seat, or the game ends; 1 when it happened, 0 if it was stale."""
    seat = SeatClock.objects.filter(pk=bank_id).values_list("seat__game_id", flat=True).first()
    if seat is None:
        return 0
    with locked(seat) as game:
        bank = SeatClock.objects.select_related("seat").get(pk=bank_id)  # read under the lock
        if game.status != Game.Status.ACTIVE or bank.deadline is None or bank.deadline > now:
            return 0
        clock = GameClock.objects.get(game=game)
        stop(bank, clock, now, credit=False)
        index, user_id = bank.seat.index, bank.seat.user_id
        if clock.on_timeout == GameClock.OnTimeout.END:
            bank.save()
            finish_locked(game, "timeout", out=[index])
        else:
            bank.held_since = now
            bank.save()
            Seat.objects.filter(pk=bank.seat_id).update(bot=botkinds.TAKEOVER)
            forget_seats(game)
            if user_id:
                notify.queue(user_id, game, game.seq, "timeout", index)
            game.save(update_fields=["updated_at"])
            # The seq does not move (no engine action was taken): every page must redraw.
            after_commit(game, force=True)
    log.info("seat %s of game %s timed out (%s)", index, game.pk, clock.on_timeout)
    return 1


# --- players' requests ------------------------------------------------------------------------


@retried
def take_back(game_id: int, user: Any) -> list[int]:
    """The player takes back every seat of theirs a bot holds in this game; returns their indexes."""
    with locked(game_id) as game:
        clock = GameClock.objects.filter(game=game).first()
        held = list(
            SeatClock.objects.select_related("seat").filter(
                seat__game=game,
                seat__user=user,
                seat__resigned_at__isnull=True,
                held_since__isnull=False,
            )
        )
        if clock is None or not held or game.status != Game.Status.ACTIVE:
            return []
        for bank in held:
            release(bank, clock)
        forget_seats(game)
        settle(game, clock)
        game.save(update_fields=["updated_at"])
        after_commit(game, force=True)
    return [bank.seat.index for bank in held]


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
        start(bank, resume)
        bank.save()
