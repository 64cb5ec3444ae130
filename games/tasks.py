"""Background work: bot turns and the sweep for stalled bots.

Tasks take ids only. With a Celery broker they go to workers; in the embedded set-up they run
in this process on a background thread after the commit ("thread"), and tests run them inline
and in order ("inline"), draining a queue so that a long all-bot game never recurses.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

log = logging.getLogger(__name__)
_executor: ThreadPoolExecutor | None = None
_inline: deque[tuple[Callable[..., Any], tuple[Any, ...]]] = deque()
_draining = threading.local()


def mode() -> str:
    """How tasks run: 'celery', 'thread' or 'inline'."""
    configured: str = getattr(settings, "CHANCERY_TASKS", "")
    if configured:
        return configured
    return "celery" if settings.CELERY_BROKER_URL else "thread"


def enqueue(task: Any, *args: Any) -> None:
    """Run a task the configured way."""
    how = mode()
    if how == "celery":
        task.delay(*args)
    elif how == "inline":
        _inline.append((task, args))
        if not getattr(_draining, "on", False):
            _draining.on = True
            try:
                while _inline:
                    fn, fn_args = _inline.popleft()
                    fn(*fn_args)
            finally:
                _draining.on = False
    else:
        global _executor
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chancery-tasks")
        _executor.submit(_run_in_thread, task, args)


def _run_in_thread(task: Any, args: tuple[Any, ...]) -> None:
    close_old_connections()
    try:
        task(*args)
    except Exception:
        log.exception("background task %s%s failed", task.__name__, args)
    finally:
        close_old_connections()


def wake_bots(game_id: int, seq: int) -> None:
    """Queue a turn for every bot seat that must decide at this seq."""
    from games.models import Game

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.seq != seq:
        return
    bots = {s.index for s in game.seats.all() if s.bot}
    for index in game.prompted_seats():
        if index in bots:
            enqueue(bot_turn, game_id, seq, index)


@shared_task(acks_late=True)
def bot_turn(game_id: int, seq: int, seat: int) -> str:
    """Take one bot decision through the move service; a duplicate run does nothing."""
    from games import bots, services
    from games.models import Game

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.seq != seq or game.state is None or seat not in game.prompted_seats():
        return "stale"
    kind = game.seats.get(index=seat).bot
    action = bots.choose(kind, game.engine, game.state, seat, game.seed ^ (seq * 7919 + seat))
    try:
        services.submit(game_id, None, action, seq, seat=seat, bot=True)
    except services.MoveRefused as refused:
        return f"refused: {refused.code}"
    return "moved"


@shared_task
def requeue_stalled_bots() -> int:
    """Wake the bots and standing answers of games idle for over a minute (a lost task or a crash)."""
    from django.db.models import Q

    from games.models import Game, StandingAnswer

    cutoff = timezone.now() - timedelta(minutes=1)
    answering = StandingAnswer.objects.exclude(choice=StandingAnswer.ASK).values("game_id")
    woken = 0
    for game in Game.objects.filter(
        Q(seats__bot__gt="") | Q(pk__in=answering), status=Game.Status.ACTIVE, updated_at__lt=cutoff
    ).distinct():
        # Standing answers first, as after a move: a seat that answers by itself goes before bots.
        wake_standing(game.pk, game.seq)
        wake_bots(game.pk, game.seq)
        woken += 1
    return woken


def wake_standing(game_id: int, seq: int) -> None:
    """Queue the standing answer of every human seat it decides at this seq (before bots)."""
    from games import standing
    from games.models import Game

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.seq != seq:
        return
    for seat, _ in standing.due(game):
        enqueue(standing_turn, game_id, seq, seat)


@shared_task(acks_late=True)
def standing_turn(game_id: int, seq: int, seat: int) -> str:
    """Give one seat's standing answer through the move service; a duplicate run does nothing."""
    from games import services, standing
    from games.models import Game

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.seq != seq:
        return "stale"
    # Read again now: the player may have changed the answer since the task was queued.
    action = dict(standing.due(game)).get(seat)
    if action is None:
        return "ask"
    try:
        services.submit(game_id, None, action, seq, seat=seat, standing=True)
    except services.MoveRefused as refused:
        return f"refused: {refused.code}"
    return "moved"


@shared_task(acks_late=True)
def score_game(game_id: int) -> str:
    """Store a finished game's result and update ratings; running it again changes nothing."""
    from games import results

    stored = results.record(game_id)
    return "scored" if stored is not None else "not over"


# --- correspondence mail and clocks ---------------------------------------------------------------


@shared_task(acks_late=True)
def drain_outbox() -> int:
    """Send the mail the outbox owes; safe to run twice or at once (rows are claimed, then marked)."""
    from games import notify

    return notify.drain()


@shared_task
def sweep_clocks() -> dict[str, int]:
    """Beat: remind players whose time is nearly spent, and time out spent clocks."""
    from games import clocks

    return clocks.sweep()


@shared_task
def send_digests() -> int:
    """Beat: owe today's digest to each digest reader with games waiting, then send it."""
    from games import notify

    owed = notify.queue_digests()
    notify.drain()
    return owed
