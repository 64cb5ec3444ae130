"""The embedded beat: CELERY_BEAT_SCHEDULE's tasks run at their intervals without Celery beat,
and the stalled-game sweep also wakes standing answers."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from games import beat, jobs, tasks
from games.models import Game, Job, StandingAnswer
from games.services import fanout
from tests.games.toy import POKE, act, toy, toy_game  # noqa: F401

SCHEDULE = {
    "every-minute": {"task": "games.tasks.requeue_stalled_bots", "schedule": 60.0},
    "every-five": {"task": "games.tasks.sweep_clocks", "schedule": timedelta(minutes=5)},
}


def _beat(
    schedule: dict[str, Any] | None = None, now: float = 1000.0
) -> tuple[beat.Beat, list[Any]]:
    ran: list[Any] = []
    return beat.Beat(schedule or SCHEDULE, now, run=lambda task, *args: ran.append(task)), ran


def test_each_task_runs_once_per_interval_and_not_at_start_up() -> None:
    clock, ran = _beat()
    assert clock.tick(1000.0) == [] and clock.next_due() == 1060.0
    assert clock.tick(1059.9) == []
    assert clock.tick(1060.0) == ["every-minute"] and ran == [tasks.requeue_stalled_bots]
    for now in (1120.0, 1180.0, 1240.0):
        assert clock.tick(now) == ["every-minute"]
    assert clock.tick(1300.0) == ["every-minute", "every-five"]
    assert ran.count(tasks.sweep_clocks) == 1 and ran.count(tasks.requeue_stalled_bots) == 5


def test_after_a_long_pause_a_task_runs_once_and_keeps_its_rhythm() -> None:
    clock, ran = _beat()
    assert clock.tick(1000.0 + 3600.0) == ["every-minute", "every-five"]
    assert len(ran) == 2
    assert clock.tick(4600.0 + 30.0) == []
    assert clock.tick(4600.0 + 60.0) == ["every-minute"]


def test_a_failing_enqueue_does_not_stop_the_beat() -> None:
    def boom(task: Any, *args: Any) -> None:
        raise RuntimeError("broker down")

    clock = beat.Beat(SCHEDULE, 0.0, run=boom)
    assert clock.tick(60.0) == ["every-minute"]
    assert clock.next_due() == 120.0


def test_crontab_schedules_are_skipped_and_the_shipped_schedule_loads() -> None:
    clock, _ = _beat({"odd": {"task": "games.tasks.drain_outbox", "schedule": "0 * * * *"}})
    assert clock.entries == [] and clock.next_due() == float("inf")
    shipped, _ = _beat(settings.CELERY_BEAT_SCHEDULE, now=0.0)
    assert {e.name for e in shipped.entries} == set(settings.CELERY_BEAT_SCHEDULE)
    assert {e.task for e in shipped.entries} == {
        tasks.requeue_stalled_bots,
        tasks.purge_jobs,
        tasks.drain_outbox,
        tasks.sweep_clocks,
        tasks.send_digests,
    }


def test_the_beat_runs_through_the_jobs_runner_by_default() -> None:
    clock = beat.Beat(SCHEDULE, 0.0)
    assert clock.run is jobs.call


def test_it_starts_only_with_tasks_on_a_thread_and_never_under_tests(
    settings: Any, monkeypatch: Any
) -> None:
    settings.CHANCERY_TASKS = "thread"
    assert beat.should_start() is False, "never in a test run"
    assert beat.start() is None
    monkeypatch.delitem(__import__("sys").modules, "pytest")
    assert beat.should_start() is True
    settings.CHANCERY_EMBEDDED_BEAT = False
    assert beat.should_start() is False
    settings.CHANCERY_EMBEDDED_BEAT = True
    settings.CHANCERY_TASKS = "celery"
    assert beat.should_start() is False, "with a broker, Celery beat does the job"


@pytest.mark.django_db
@pytest.mark.usefixtures("commits")  # bots move, mail goes out, after the commit
@pytest.mark.usefixtures("toy")
def test_the_stalled_sweep_wakes_standing_answers(alice: Any, bob: Any, monkeypatch: Any) -> None:
    game = toy_game(alice, "me", bob)
    act(game, alice, POKE, 0)
    # An answer whose wake-up was lost (written straight to the table: no task after the commit).
    StandingAnswer.objects.create(game=game, seat=1, kind="reaction", choice="pass")
    game.refresh_from_db()
    assert game.prompted_seats() == [1]
    queued: list[int] = []
    monkeypatch.setattr(jobs, "dispatch", lambda job_id, countdown=0: queued.append(job_id))
    assert tasks.requeue_stalled_bots()["woken"] == 0, "a fresh game is not stalled"
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - fanout.STALL * 2)
    assert tasks.requeue_stalled_bots()["woken"] == 1
    job = Job.objects.get(pk=queued[0])
    assert (job.kind, job.seq, job.seat) == ("standing_turn", game.seq, 1)
    monkeypatch.undo()
    assert jobs.run(job.pk) == "moved"
    game.refresh_from_db()
    assert game.prompted_seats() == [0]
