"""Time controls, read side: what a clock shows, the creator's choice, vacation allowance.

A bank works as in correspondence chess: it starts at one move's allowance, runs while the
seat must decide, and each decision adds one allowance back, up to the cap. A seat's clock
runs from `running_since`, which a vacation pushes into the future; `deadline` is stored so
the beat sweep finds expired clocks with one indexed query. Every write to a clock (starting,
stopping, timeouts, take-backs, vacations) is in games.services.clocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.inputs import BadInput, integer
from games.models import Game, GameClock, MailPreference, Seat, SeatClock

MAX_DAYS_PER_MOVE = 30
MAX_CAP_DAYS = 120
# How many days of vacation a player may take in a calendar year.
VACATION_DAYS_PER_YEAR: int = getattr(settings, "CHANCERY_VACATION_DAYS", 30)
# The reminder goes out when less than this share of one move's allowance is left.
REMINDER_SHARE = 4


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


def vacation_left(pref: MailPreference, now: datetime | None = None) -> int:
    """Vacation days still available this calendar year."""
    now = now or timezone.now()
    used = pref.vacation_days_used if pref.vacation_year == now.year else 0
    return max(VACATION_DAYS_PER_YEAR - used, 0)


def seat_clock(game: Game, index: int, now: datetime | None = None) -> dict[str, Any] | None:
    """What a seat card shows of a clock: the bank left, whether it runs, whether a bot holds it."""
    bank = SeatClock.objects.filter(seat__game=game, seat__index=index).first()
    if bank is None:
        return None
    return _shown(bank, now or timezone.now())


def seat_clocks(game: Game, now: datetime | None = None) -> dict[int, dict[str, Any]]:
    """seat_clock for every seat of the game that has a clock, by seat index, in one query."""
    now = now or timezone.now()
    seats = getattr(game, "_prefetched_objects_cache", {}).get("seats")
    if seats is not None and all(Seat.clock.is_cached(seat) for seat in seats):  # games.rows
        held = [(seat.index, getattr(seat, "clock", None)) for seat in seats]
        return {index: _shown(bank, now) for index, bank in held if bank is not None}
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
        per_move = integer(data.get("days_per_move"), "Days per move", high=MAX_CAP_DAYS)
        cap = integer(data.get("cap_days"), "The cap", per_move, high=MAX_CAP_DAYS)
    except BadInput as error:
        raise ClockError("Give the days per move and the cap as whole numbers.") from error
    if per_move is None or cap is None:
        raise ClockError("Give the days per move and the cap as whole numbers.")
    control = TimeControl(per_move, cap, str(data.get("on_timeout", GameClock.OnTimeout.BOT)))
    control.check()
    return control


def on_vacation(pref: MailPreference) -> bool:
    """Whether the player's clocks are paused now."""
    return bool(pref.vacation_until and pref.vacation_until > timezone.now())
