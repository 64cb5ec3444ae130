"""Turn, reminder, timeout and result mail, through an outbox written with the move.

A move's transaction writes one Outbox row per player who must now decide (unique per user,
game, seq and kind); after the commit a task drains the outbox, and the beat sweeps it too, so
a crash after the commit delays mail but never loses it. A row is claimed for a short lease
before sending, so two drains running at once send it once; a worker that dies mid-send
leaves the lease to expire and the row is sent by the next drain.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import emails, jobs, rows
from games.models import Game, MailPreference, Move, Outbox, Presence, Seat

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=5)
MAX_ATTEMPTS = 5
BATCH = 200
# A presence row older than this is a socket whose process died without disconnecting.
PRESENCE_TTL = timedelta(hours=12)


# --- writing the outbox (inside the move's transaction) ----------------------------------------


def game_started(game: Game, by: int | None = None) -> None:
    """Tell each player their game has started (with their first question, if they have one).

    The player whose seat-taking started it (`by`, a user id) is at the keyboard: they get only
    the ordinary turn mail, which waits and is dropped once they answer.
    """
    prompted = game.prompted_seats()
    mine: dict[int, list[int]] = {}
    for seat in game.seats.all():
        if seat.user_id and not seat.bot:
            mine.setdefault(seat.user_id, []).append(seat.index)
    for user_id, indexes in sorted(mine.items()):
        deciding = [i for i in indexes if i in prompted]
        if user_id == by:
            _turn_rows(game, deciding)
        else:
            queue(user_id, game, game.seq, Outbox.Kind.STARTED, deciding[0] if deciding else None)


def invited(game: Game, user_id: int) -> None:
    """Invite a player to a game waiting for them (one mail, however many seats)."""
    queue(user_id, game, 0, Outbox.Kind.INVITE)


def record_move(game: Game, seat: int, before: list[int]) -> None:
    """After a move: mail each seat whose decision has just begun, or everyone the result.

    A seat that was already deciding (another seat moved) was mailed when its decision began;
    the seat that moved and must decide again (HRE Pass step 4 after a Pass, an answer made from
    a mail link) has a new decision and is mailed like anyone else unless it is at the keyboard:
    the mail waits CHANCERY_TURN_MAIL_DELAY and is dropped once the seat answers or opens the game.
    """
    if game.status == Game.Status.FINISHED:
        game_finished(game)
        return
    _turn_rows(game, [i for i in game.prompted_seats() if i not in before or i == seat])


def game_finished(game: Game) -> None:
    """One result mail to every player of the game."""
    for user_id in sorted({s.user_id for s in game.seats.all() if s.user_id}):
        queue(user_id, game, game.seq, Outbox.Kind.RESULT)


def game_paused(game: Game) -> None:
    """Tell the players (or, at a table of bots, the creator) that the bots wait for them."""
    users = sorted({s.user_id for s in game.seats.all() if s.user_id and s.resigned_at is None})
    for user_id in users or [game.created_by_id]:
        queue(user_id, game, game.seq, Outbox.Kind.PAUSED)


def _turn_rows(game: Game, indexes: list[int]) -> None:
    seats = {s.index: s for s in game.seats.all()}
    watching: dict[int, bool] = {}
    for index in indexes:
        seat = seats.get(index)
        # A bot, or a bot holding a player's seat, needs no mail.
        if seat is None or not seat.user_id or seat.bot:
            continue
        # A player with the game open sees the decision there: no row is written (checked in
        # the move's transaction, once per player); page_closed owes the mail if they leave
        # without answering.
        if seat.user_id not in watching:
            watching[seat.user_id] = is_watching(seat.user_id, game.pk)
        if not watching[seat.user_id]:
            queue(seat.user_id, game, game.seq, Outbox.Kind.TURN, index)


def queue(user_id: int, game: Game | None, seq: int, kind: str, seat: int | None = None) -> None:
    """Owe one mail (once: a second row for the same decision is ignored) and drain after the commit.

    A turn mail waits CHANCERY_TURN_MAIL_DELAY seconds (the beat's drain sends it then)."""
    due = timezone.now()
    if kind == Outbox.Kind.TURN:
        due += timedelta(seconds=settings.CHANCERY_TURN_MAIL_DELAY)
    row = Outbox(user_id=user_id, game=game, seq=seq, kind=kind, seat=seat, not_before=due)
    Outbox.objects.bulk_create([row], ignore_conflicts=True)
    jobs.kick_after_commit("drain_outbox")


# --- presence: open pages ---------------------------------------------------------------------


def page_opened(user: Any, game_id: int, channel_name: str) -> None:
    """A socket of a logged-in player opened on a game."""
    if user is None or not user.is_authenticated:
        return
    seen(user, game_id)
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={"user_id": user.pk, "game_id": game_id, "opened_at": timezone.now()},
    )


def page_closed(channel_name: str) -> None:
    """A socket closed: a decision whose mail was skipped while the page was open is owed again."""
    presence = Presence.objects.filter(channel_name=channel_name).first()
    Presence.objects.filter(channel_name=channel_name).delete()
    if presence is None or is_watching(presence.user_id, presence.game_id):
        return
    # The player left without answering (or a page reloads: the mail waits the turn delay and
    # is skipped again if the page is back by then).
    game = Game.objects.filter(pk=presence.game_id).first()
    if game is None:
        return
    due = timezone.now() + timedelta(seconds=settings.CHANCERY_TURN_MAIL_DELAY)
    owed = 0
    for seat in game.seats.filter(
        user_id=presence.user_id, bot="", index__in=game.prompted_seats()
    ):
        latest = (
            Outbox.objects.filter(user_id=presence.user_id, game=game, seat=seat.index)
            .filter(kind=Outbox.Kind.TURN)
            .order_by("-seq")
            .first()
        )
        if latest is None or acted_since(game, seat.index, latest.seq):
            # The decision began while the page was open, so no row was written for it.
            Outbox.objects.bulk_create(
                [
                    Outbox(
                        user_id=presence.user_id,
                        game=game,
                        seq=game.seq,
                        kind=Outbox.Kind.TURN,
                        seat=seat.index,
                        not_before=due,
                    )
                ],
                ignore_conflicts=True,
            )
            owed += 1
        elif latest.note == "watching":  # written before the page opened, skipped while open
            owed += Outbox.objects.filter(pk=latest.pk, status=Outbox.Status.SKIPPED).update(
                status=Outbox.Status.PENDING, note="", not_before=due
            )
    if owed:
        jobs.kick("drain_outbox")


def seen(user: Any, game_id: int) -> None:
    """The player has the game in front of them: later turn mail may go out again."""
    if user is not None and user.is_authenticated:
        Seat.objects.filter(game_id=game_id, user_id=user.pk).update(seen_at=timezone.now())


def is_watching(user_id: int, game_id: int) -> bool:
    """Whether the player has a page open on the game right now."""
    return rows.watching(user_id, game_id, timezone.now() - PRESENCE_TTL)


def preference(user: Any) -> MailPreference:
    """The player's mail settings (created with the defaults on first use)."""
    pref, _ = MailPreference.objects.get_or_create(user=user)
    return pref


# --- draining ---------------------------------------------------------------------------------


def drain(now: datetime | None = None) -> int:
    """Send every pending mail whose lease is free; returns how many were sent."""
    now = now or timezone.now()
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    pending = (
        Outbox.objects.filter(status=Outbox.Status.PENDING, not_before__lte=now)
        .filter(free)
        .values_list("pk", flat=True)
    )
    return sum(_deliver(pk, now) for pk in list(pending[:BATCH]))


def _claim(pk: int, now: datetime) -> bool:
    """Take the row for one lease; False when another drain holds it or it is done."""
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    return bool(
        Outbox.objects.filter(free, pk=pk, status=Outbox.Status.PENDING).update(
            claimed_until=now + LEASE
        )
    )


def _deliver(pk: int, now: datetime) -> int:
    if not _claim(pk, now):
        return 0
    row = Outbox.objects.select_related("user", "game").get(pk=pk)
    skip = _reason_to_skip(row)
    if skip:
        Outbox.objects.filter(pk=pk).update(
            status=Outbox.Status.SKIPPED, note=skip, claimed_until=None
        )
        return 0
    try:
        message = emails.compose(row)
        if message is None:
            Outbox.objects.filter(pk=pk).update(
                status=Outbox.Status.SKIPPED, note="nothing to say", claimed_until=None
            )
            return 0
        message.send()
    except Exception:
        log.exception("sending %s failed", row)
        failed = row.attempts + 1 >= MAX_ATTEMPTS
        Outbox.objects.filter(pk=pk).update(
            attempts=row.attempts + 1,
            claimed_until=None,
            status=Outbox.Status.SKIPPED if failed else Outbox.Status.PENDING,
            note="failed" if failed else "",
        )
        return 0
    Outbox.objects.filter(pk=pk).update(
        status=Outbox.Status.SENT, sent_at=timezone.now(), claimed_until=None
    )
    return 1


def _reason_to_skip(row: Outbox) -> str:
    """Why this mail should not go out now (empty when it should)."""
    if not row.user.email:
        return "no address"
    pref = preference(row.user)
    mode = pref.mode
    if mode == MailPreference.Mode.NONE:
        return "unsubscribed"
    if (
        row.kind != Outbox.Kind.RESULT
        and pref.vacation_until
        and pref.vacation_until > timezone.now()
    ):
        return "on vacation"  # their clocks are paused; the turn waits for their return
    game = row.game
    if row.kind == Outbox.Kind.DIGEST or game is None:
        return ""
    if row.kind == Outbox.Kind.INVITE:
        if game.status != Game.Status.OPEN:
            return "no longer open"
        if game.seats.filter(user_id=row.user_id).exists():
            return "joined"
    if row.kind == Outbox.Kind.STARTED and mode == MailPreference.Mode.DIGEST:
        return "digest"
    if row.kind in (Outbox.Kind.TURN, Outbox.Kind.REMINDER):
        if mode == MailPreference.Mode.DIGEST and row.kind == Outbox.Kind.TURN:
            return "digest"
        if not still_deciding(game, row.seat) or acted_since(game, row.seat, row.seq):
            return "decided"
        if is_watching(row.user_id, game.pk):
            return "watching"
        if row.kind == Outbox.Kind.TURN and unseen_mail(row, game):
            return "unseen"
    return ""


def acted_since(game: Game, seat: int | None, seq: int) -> bool:
    """Whether the seat has moved since the mail was owed (a later row covers what it asks now)."""
    return seat is not None and Move.objects.filter(game=game, seat=seat, seq__gt=seq).exists()


def unseen_mail(row: Outbox, game: Game) -> bool:
    """Whether an earlier mail about this game's decisions went out and the player has neither
    opened the game nor moved since: one unseen turn mail per game is enough."""
    last = (
        Outbox.objects.filter(
            user_id=row.user_id,
            game=game,
            kind__in=(Outbox.Kind.TURN, Outbox.Kind.STARTED),
            status=Outbox.Status.SENT,
        )
        .exclude(pk=row.pk)
        .order_by("-sent_at")
        .values_list("sent_at", flat=True)
        .first()
    )
    if last is None:
        return False
    seats = Seat.objects.filter(game=game, user_id=row.user_id)
    if seats.filter(seen_at__gte=last).exists():
        return False
    indexes = list(seats.values_list("index", flat=True))
    moved = Move.objects.filter(game=game, seat__in=indexes, created_at__gte=last)
    return not moved.filter(by_bot=False, by_standing=False).exists()


def still_deciding(game: Game, seat: int | None) -> bool:
    """Whether the seat must still decide, in its player's hands (not a bot's)."""
    game.refresh_from_db()
    if seat is None or seat not in game.prompted_seats():
        return False
    return not game.seats.filter(index=seat).exclude(bot="").exists()


# --- the daily digest -------------------------------------------------------------------------


def queue_digests(now: datetime | None = None) -> int:
    """Owe today's digest to each digest reader with games waiting (the constraint makes it once a day)."""
    now = now or timezone.now()
    day = now.date().toordinal()
    readers = get_user_model().objects.filter(mail_preference__mode=MailPreference.Mode.DIGEST)
    owed = 0
    for user in readers.exclude(email=""):
        if Outbox.objects.filter(
            user=user, game__isnull=True, seq=day, kind=Outbox.Kind.DIGEST
        ).exists():
            continue
        if emails.waiting_games(user):
            with transaction.atomic():
                queue(user.pk, None, day, Outbox.Kind.DIGEST)
            owed += 1
    return owed
