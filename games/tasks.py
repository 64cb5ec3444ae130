"""Background work: the handlers of durable jobs (bot turns, standing answers, pushes) and the
Celery tasks that run them and the periodic sweeps.

Jobs are owed and dispatched by games.jobs (a leaf module: anything may queue work); this
module registers the handlers there when it is imported (the app's ready(), or the Celery
worker's autodiscovery). A handler reads the database's truth (the game's seq) and gives its
decision through the move service, so a job run twice, or late, changes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.conf import settings

import rules.bots as bots
from games import jobs, live, notify, services, standing
from games.models import Game, Job
from games.services import clocks as clock_service
from games.services.fanout import requeue_stalled
from rules.bots import Budget

log = logging.getLogger(__name__)
# The bot that plays a turn whose own bot failed every attempt but the last.
FALLBACK_BOT = "random"


def _game(job: Job) -> Game | None:
    """The job's game if it is still at the job's seq and in progress."""
    game = Game.objects.filter(pk=job.game_id).prefetch_related("seats").first()
    if game is None or game.seq != job.seq or game.state is None:
        return None
    return game if game.status == Game.Status.ACTIVE else None


def budget() -> Budget | None:
    """The budget bots think within: the kind's own, unless settings override it (tests)."""
    override: dict[str, int] | None = getattr(settings, "CHANCERY_BOT_BUDGET", None)
    return Budget(**override) if override else None


@jobs.handler(jobs.BOT_TURN)
def bot_turn(job: Job) -> str:
    """Take one bot decision through the move service; a stale or duplicate job does nothing."""
    game = _game(job)
    if game is None:
        return "stale"
    if game.paused:
        return "paused"
    seat = next((s for s in game.seats.all() if s.index == job.seat), None)
    if seat is None or not seat.bot or job.seat not in game.prompted_seats():
        return "stale"
    # The last attempt plays safe: a bot that keeps failing must not stall the game.
    kind = seat.bot if job.attempts < jobs.MAX_ATTEMPTS else FALLBACK_BOT
    seed = game.seed ^ (job.seq * 7919 + job.seat)
    state: dict[str, Any] | None = game.state
    assert state is not None  # _game returns only games that have a state
    action = bots.choose(kind, game.engine, state, job.seat, seed, budget())
    try:
        services.submit(game.pk, None, action, job.seq, seat=job.seat, bot=True)
    except services.MoveRefused as refused:
        return f"refused: {refused.code}"
    return "moved"


@jobs.handler(jobs.STANDING_TURN)
def standing_turn(job: Job) -> str:
    """Give one seat's standing answer through the move service; a duplicate run does nothing."""
    game = _game(job)
    if game is None:
        return "stale"
    # Read again now: the player may have changed the answer since the job was owed.
    action = dict(standing.due(game)).get(job.seat)
    if action is None:
        return "ask"
    try:
        services.submit(game.pk, None, action, job.seq, seat=job.seat, standing=True)
    except services.MoveRefused as refused:
        return f"refused: {refused.code}"
    return "moved"


@jobs.handler(jobs.PUSH)
def push(job: Job) -> str:
    """A push the channel layer refused: every socket redraws the game as it is now."""
    seq = Game.objects.filter(pk=job.game_id).values_list("seq", flat=True).first()
    if seq is None:
        return "gone"
    if not live.broadcast(job.game_id, seq, force=True):
        raise ConnectionError("the channel layer is still unreachable")
    return "pushed"


# --- Celery tasks -----------------------------------------------------------------------------


@shared_task(acks_late=True)
def run_job(job_id: int) -> str:
    """Run one durable job (games.jobs claims it first, so a second delivery does nothing)."""
    return jobs.run(job_id)


@shared_task
def requeue_stalled_bots() -> dict[str, int]:
    """Beat (every few seconds): dispatch owed jobs left pending, and owe the turns games wait on.

    A job whose worker died is dispatched again once its claim lapses (a bot turn's claim is its
    budget plus a margin), so a lost bot turn is back within about 15 seconds.
    """
    return {"dispatched": jobs.sweep(), "woken": requeue_stalled()}


@jobs.kickable("drain_outbox")
@shared_task(acks_late=True)
def drain_outbox() -> int:
    """Send the mail the outbox owes; safe to run twice or at once (rows are claimed, then marked)."""
    return notify.drain()


@shared_task
def sweep_clocks() -> dict[str, int]:
    """Beat: remind players whose time is nearly spent, and time out spent clocks."""
    return clock_service.sweep()


@shared_task
def send_digests() -> int:
    """Beat: owe today's digest to each digest reader with games waiting, then send it."""
    owed = notify.queue_digests()
    notify.drain()
    return owed


@shared_task
def purge_jobs() -> int:
    """Beat: forget job rows done or failed long ago."""
    return jobs.purge()


def run_periodic(task: Any) -> None:
    """Run a periodic task the configured way (the embedded beat's entry point)."""
    jobs.call(task)
