"""The embedded set-up's stand-in for Celery beat: CELERY_BEAT_SCHEDULE's periodic tasks, run
through games.jobs.call by one daemon thread of the web process.

Only the ASGI app starts it (config/asgi.py), and only with tasks in "thread" mode: with a broker,
Celery beat does this job; management commands and tests never import the ASGI app's start-up.
The schedule's logic (Beat.tick) takes the clock as an argument, so it is tested without threads.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string

from games import jobs

log = logging.getLogger(__name__)
_started: threading.Thread | None = None
_stop = threading.Event()
_lock = threading.Lock()


@dataclass
class Entry:
    """One periodic task: its name in the schedule, the task, its interval and when it is next due."""

    name: str
    task: Any
    every: float
    due: float


def _seconds(schedule: Any) -> float | None:
    """An interval in seconds; None for schedules the embedded beat does not run (crontab)."""
    if isinstance(schedule, timedelta):
        return schedule.total_seconds()
    if isinstance(schedule, int | float) and not isinstance(schedule, bool) and schedule > 0:
        return float(schedule)
    return None


class Beat:
    """The periodic tasks and when each is next due, on a monotonic clock in seconds."""

    def __init__(
        self,
        schedule: dict[str, dict[str, Any]],
        now: float,
        run: Callable[..., None] = jobs.call,
    ) -> None:
        self.run = run
        self.entries: list[Entry] = []
        for name, spec in schedule.items():
            every = _seconds(spec.get("schedule"))
            if every is None:
                log.warning("embedded beat: %s has a schedule it cannot run; skipped", name)
                continue
            # Like Celery beat, a task first runs one interval after start-up, not at once.
            self.entries.append(Entry(name, import_string(spec["task"]), every, now + every))

    def tick(self, now: float) -> list[str]:
        """Enqueue every task that is due at `now`; returns their names."""
        ran = []
        for entry in self.entries:
            if entry.due > now:
                continue
            try:
                self.run(entry.task)
            except Exception:
                log.exception("embedded beat: %s could not be queued", entry.name)
            entry.due += entry.every
            if (
                entry.due <= now
            ):  # after a long pause (a suspended laptop): once, not once per interval missed
                entry.due = now + entry.every
            ran.append(entry.name)
        return ran

    def next_due(self) -> float:
        """When the next task is due (infinity with nothing scheduled)."""
        return min((e.due for e in self.entries), default=float("inf"))


def should_start() -> bool:
    """Whether this process needs the embedded beat: tasks on a thread, not switched off, not a test."""
    return (
        jobs.mode() == "thread"
        and bool(getattr(settings, "CHANCERY_EMBEDDED_BEAT", True))
        and "pytest" not in sys.modules
    )


def start() -> threading.Thread | None:
    """Start the beat thread once per process when it is needed; returns it (None when not)."""
    global _started
    with _lock:
        if _started is not None or not should_start():
            return _started
        beat = Beat(settings.CELERY_BEAT_SCHEDULE, time.monotonic())
        _stop.clear()
        _started = threading.Thread(target=_loop, args=(beat,), name="chancery-beat", daemon=True)
        _started.start()
        log.info("embedded beat started: %s", ", ".join(e.name for e in beat.entries))
        return _started


def _loop(beat: Beat) -> None:
    while not _stop.wait(min(60.0, max(1.0, beat.next_due() - time.monotonic()))):
        beat.tick(time.monotonic())
