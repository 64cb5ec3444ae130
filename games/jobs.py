"""Background work, queued from this leaf module: durable job rows and how tasks are run.

A job row (models.Job) is written in the transaction of the change that owes it. After the
commit, `dispatch` hands it to a worker; if that fails (the broker is down, the process dies)
the row stays pending and `sweep`, run by Celery beat or the embedded scheduler (games.beat),
dispatches it again. A worker `claim`s a row for a lease before running it, so two deliveries
of one job never run at once, and a worker that dies mid-job leaves a lease that runs out:
the next sweep hands the job to another worker. A failed run is retried with backoff.

The handlers live in games.tasks, which registers them here when it is imported (the app's
ready()); this module imports no other module of the site but the models, so anything may
queue work without an import loop.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import F, Q
from django.utils import timezone

from games.models import Job

log = logging.getLogger(__name__)

RUN_TASK = "games.tasks.run_job"
# The kinds of durable jobs (their handlers: games.tasks).
BOT_TURN = "bot_turn"
STANDING_TURN = "standing_turn"
PUSH = "push"
MAX_ATTEMPTS = 6
MAX_BACKOFF_S = 60
# The sweep leaves a job this long to the dispatch that follows its commit.
GRACE = timedelta(seconds=2)
BATCH = 200
# Done and failed rows are kept this long (to read in the admin), then purged.
KEEP = timedelta(days=2)

Handler = Callable[[Job], str]
_handlers: dict[str, Handler] = {}
_kicks: dict[str, Callable[[], Any]] = {}
_executor: ThreadPoolExecutor | None = None
_inline: deque[tuple[Callable[..., Any], tuple[Any, ...]]] = deque()
_draining = threading.local()


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Register the function that runs jobs of a kind (it returns a short outcome)."""

    def register(fn: Handler) -> Handler:
        _handlers[kind] = fn
        return fn

    return register


def kickable(name: str) -> Callable[[Any], Any]:
    """Register a task `kick` may start by name (an idempotent drain, e.g. of the outbox)."""

    def register(task: Any) -> Any:
        _kicks[name] = task
        return task

    return register


# --- how tasks run --------------------------------------------------------------------------


def mode() -> str:
    """How tasks run: 'celery', 'thread' or 'inline'."""
    configured: str = getattr(settings, "CHANCERY_TASKS", "")
    if configured:
        return configured
    return "celery" if settings.CELERY_BROKER_URL else "thread"


def call(task: Any, *args: Any) -> None:
    """Run a task the configured way: a Celery task, a background thread, or inline in order.

    Inline (tests), calls queued while one runs wait their turn, so a long all-bot game
    never recurses.
    """
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
        log.exception("background task %s%s failed", getattr(task, "__name__", task), args)
    finally:
        close_old_connections()


def kick(name: str) -> None:
    """Start a registered drain now; a failure is logged (the beat runs it again anyway)."""
    try:
        if mode() == "celery":
            current_app.send_task(f"games.tasks.{name}")
        else:
            call(_kicks[name])
    except Exception:
        log.exception("could not start %s; the periodic sweep will", name)


def kick_after_commit(name: str) -> None:
    """`kick` once the current transaction commits."""
    transaction.on_commit(partial(kick, name), robust=True)


# --- durable jobs ---------------------------------------------------------------------------


def add(kind: str, game_id: int, seq: int, seat: int = -1, lease: int = 30, **args: Any) -> int:
    """Owe a job, inside the caller's transaction; returns its id (the same row if owed already).

    A row left done or failed by an earlier pass over the same (game, seq, seat) is owed again:
    callers add jobs only for the game's current seq, read under its lock.
    """
    now = timezone.now()
    job, created = Job.objects.get_or_create(
        kind=kind,
        game_id=game_id,
        seq=seq,
        seat=seat,
        defaults={"args": args, "lease_seconds": lease, "not_before": now},
    )
    if not created and job.status != Job.Status.PENDING:
        Job.objects.filter(pk=job.pk).update(
            status=Job.Status.PENDING,
            attempts=0,
            claimed_until=None,
            not_before=now,
            done_at=None,
            note="",
            args=args,
            lease_seconds=lease,
        )
    return job.pk


def dispatch(job_id: int, countdown: float = 0) -> None:
    """Hand a job to a worker; a failure is logged and the sweep dispatches it later."""
    try:
        if mode() == "celery":
            current_app.send_task(RUN_TASK, args=[job_id], countdown=countdown or None)
        else:
            call(run, job_id)
    except Exception:
        log.exception("could not dispatch job %s; the sweep will retry it", job_id)


def dispatch_after_commit(job_ids: list[int]) -> None:
    """Dispatch these jobs once the current transaction commits."""
    for job_id in job_ids:
        transaction.on_commit(partial(dispatch, job_id), robust=True)


def run(job_id: int) -> str:
    """Claim a job and run its handler; a second delivery of a claimed or done job does nothing."""
    job = _claim(job_id, timezone.now())
    if job is None:
        return "not claimed"
    handle = _handlers.get(job.kind)
    try:
        if handle is None:
            raise LookupError(f"no handler for jobs of kind {job.kind!r}")
        outcome = handle(job)
    except Exception as error:
        log.exception("job %s (%s) failed, attempt %s", job.pk, job, job.attempts)
        _failed(job, error)
        return "failed"
    Job.objects.filter(pk=job.pk, status=Job.Status.PENDING).update(
        status=Job.Status.DONE, done_at=timezone.now(), claimed_until=None, note=outcome[:200]
    )
    return outcome


def _claim(job_id: int, now: datetime) -> Job | None:
    """Take the job for its lease; None when another worker holds it or it is not due."""
    job = Job.objects.filter(pk=job_id, status=Job.Status.PENDING).first()
    if job is None or job.not_before > now:
        return None
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    until = now + timedelta(seconds=job.lease_seconds)
    taken = Job.objects.filter(free, pk=job.pk, status=Job.Status.PENDING).update(
        claimed_until=until, attempts=F("attempts") + 1
    )
    if not taken:
        return None
    job.claimed_until, job.attempts = until, job.attempts + 1
    return job


def _failed(job: Job, error: Exception) -> None:
    """Back off and try again later, or give up after MAX_ATTEMPTS."""
    note = f"{type(error).__name__}: {error}"[:200]
    if job.attempts >= MAX_ATTEMPTS:
        Job.objects.filter(pk=job.pk).update(
            status=Job.Status.FAILED, claimed_until=None, done_at=timezone.now(), note=note
        )
        log.error("job %s (%s) gave up after %s attempts", job.pk, job, job.attempts)
        return
    wait = backoff(job.attempts)
    Job.objects.filter(pk=job.pk).update(
        claimed_until=None, not_before=timezone.now() + timedelta(seconds=wait), note=note
    )
    if mode() == "celery":
        dispatch(job.pk, countdown=wait)


def backoff(attempts: int) -> int:
    """Seconds to wait after a failed attempt: 1, 2, 4, 8… up to a minute."""
    return int(min(2 ** max(attempts - 1, 0), MAX_BACKOFF_S))


def sweep(now: datetime | None = None) -> int:
    """Dispatch every pending job that is due and not held by a live claim; returns how many."""
    now = now or timezone.now()
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    due = Job.objects.filter(free, status=Job.Status.PENDING, not_before__lte=now - GRACE)
    ids = list(due.order_by("pk").values_list("pk", flat=True)[:BATCH])
    for job_id in ids:
        dispatch(job_id)
    return len(ids)


def purge(now: datetime | None = None) -> int:
    """Delete done and failed rows older than KEEP; returns how many."""
    old = (now or timezone.now()) - KEEP
    finished = Job.objects.exclude(status=Job.Status.PENDING).filter(done_at__lt=old)
    return int(finished.delete()[0])


def pending_for(game_id: int, seq: int, kind: str) -> set[int]:
    """The seats that have a job of this kind still owed at this seq."""
    rows = Job.objects.filter(game_id=game_id, seq=seq, kind=kind, status=Job.Status.PENDING)
    return set(rows.values_list("seat", flat=True))
