"""Bot turns as durable jobs: idempotent, retried with backoff, requeued when stalled, whole games."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import jobs, services, tasks
from games.models import Game, Job, Move
from games.services import fanout
from rules import bots
from rules.core.replay import replay
from rules.hre import ENGINE
from tests.games.helpers import make_game, options, prompted, snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]


@pytest.fixture
def held(monkeypatch: Any) -> list[int]:
    """Jobs are owed but not dispatched, so a test runs them by hand (as a worker would)."""
    ids: list[int] = []
    monkeypatch.setattr(jobs, "dispatch", lambda job_id, countdown=0: ids.append(job_id))
    return ids


def test_a_bot_turn_run_twice_moves_once(scenarios: None, alice: Any, held: list[int]) -> None:
    game = make_game(alice, "bot:random", "bot:greedy")
    job = Job.objects.get(pk=held[0])
    assert game.seq == 0 and (job.kind, job.seq, job.seat) == ("bot_turn", 0, prompted(game)[0])
    assert jobs.run(job.pk) == "moved"
    after = snapshot(game)
    assert after[0] == 1
    assert jobs.run(job.pk) == "not claimed", "a done job is not run again"
    assert snapshot(game) == after
    assert Move.objects.filter(game=game).count() == 1 and Move.objects.get(game=game).by_bot


def test_a_bot_turn_for_a_seat_that_is_not_deciding_is_stale(
    scenarios: None, alice: Any, held: list[int]
) -> None:
    game = make_game(alice, "bot:random", "bot:random")
    idle = 1 - prompted(game)[0]
    before = snapshot(game)
    job = jobs.add(jobs.BOT_TURN, game.pk, game.seq, idle)
    assert jobs.run(job) == "stale"
    assert snapshot(game) == before
    assert Job.objects.get(pk=job).status == Job.Status.DONE


def test_only_bot_seats_that_must_decide_are_owed_a_turn(
    scenarios: None, alice: Any, held: list[int]
) -> None:
    game = make_game(alice, "me", "bot:random")
    if prompted(game) == [0]:
        assert held == [], "Alice decides: no bot is woken"
        services.submit(game.pk, alice, options(game, 0)[0], game.seq, seat=0)
        game.refresh_from_db()
    assert prompted(game) == [1]
    owed = Job.objects.get(pk=held[-1])
    assert (owed.kind, owed.seq, owed.seat) == ("bot_turn", game.seq, 1)


def test_a_failing_bot_turn_is_retried_with_backoff_and_then_played_safe(
    scenarios: None, alice: Any, held: list[int], monkeypatch: Any
) -> None:
    game = make_game(alice, "bot:greedy", "me")
    if prompted(game) != [0]:
        services.submit(game.pk, alice, options(game, 1)[0], game.seq, seat=1)
    job = Job.objects.filter(kind="bot_turn", status="pending").get()
    real = bots.choose

    def flaky(slug: str, *args: Any) -> Any:
        if slug == "greedy":
            raise RuntimeError("the bot crashed")
        return real(slug, *args)

    monkeypatch.setattr(bots, "choose", flaky)
    waits = []
    for attempt in range(1, jobs.MAX_ATTEMPTS):
        assert jobs.run(job.pk) == "failed"
        job.refresh_from_db()
        assert job.attempts == attempt and job.status == Job.Status.PENDING
        waits.append(round((job.not_before - timezone.now()).total_seconds()))
        assert jobs.run(job.pk) == "not claimed", "not before its backoff is over"
        Job.objects.filter(pk=job.pk).update(not_before=timezone.now())
    assert waits == [1, 2, 4, 8, 16]
    assert jobs.run(job.pk) == "moved", "the last attempt plays a random legal choice"
    assert Move.objects.filter(game=game, by_bot=True).count() == 1


def test_a_bot_turn_whose_worker_died_is_requeued_once_its_claim_lapses(
    scenarios: None, alice: Any, held: list[int]
) -> None:
    game = make_game(alice, "bot:random", "bot:random")
    job = Job.objects.get(pk=held[0])
    # A worker claimed the turn and died: the row stays claimed until its lease runs out.
    lease = timezone.now() + timedelta(seconds=job.lease_seconds)
    Job.objects.filter(pk=job.pk).update(claimed_until=lease, attempts=1)
    held.clear()
    assert jobs.run(job.pk) == "not claimed", "never run twice at once"
    assert jobs.sweep() == 0, "a live claim is left alone"
    assert jobs.sweep(now=lease + timedelta(seconds=1)) == 1
    assert held == [job.pk]
    Job.objects.filter(pk=job.pk).update(claimed_until=timezone.now() - timedelta(seconds=1))
    assert jobs.run(job.pk) == "moved"
    assert snapshot(game)[0] == 1 and Move.objects.filter(game=game).count() == 1
    assert job.lease_seconds <= 15, "a stalled bot is back within 15 s of its claim"


def test_the_sweep_owes_again_the_turn_of_a_stalled_game_from_its_seq(
    scenarios: None, alice: Any, held: list[int]
) -> None:
    game = make_game(alice, "bot:random", "bot:random")
    Job.objects.all().delete()  # the owed turn was lost
    held.clear()
    assert tasks.requeue_stalled_bots() == {"dispatched": 0, "woken": 0}, "a fresh game waits"
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - fanout.STALL * 2)
    assert tasks.requeue_stalled_bots()["woken"] == 1
    job = Job.objects.get()
    assert (job.seq, job.seat, held) == (game.seq, prompted(game)[0], [job.pk])
    assert tasks.requeue_stalled_bots()["woken"] == 0, "owed once, not twice"


def test_tasks_go_to_celery_when_a_broker_is_configured(settings: Any, monkeypatch: Any) -> None:
    settings.CHANCERY_TASKS = ""
    settings.CELERY_BROKER_URL = "redis://example.invalid:6379/0"
    assert jobs.mode() == "celery"
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        jobs.current_app, "send_task", lambda name, **kwargs: sent.append((name, kwargs["args"]))
    )
    jobs.dispatch(7)
    assert sent == [(jobs.RUN_TASK, [7])]
    settings.CELERY_BROKER_URL = ""
    assert jobs.mode() == "thread"


def test_a_dispatch_that_fails_leaves_the_job_owed_for_the_sweep(
    scenarios: None, alice: Any, settings: Any, monkeypatch: Any
) -> None:
    settings.CHANCERY_TASKS = "celery"

    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("the broker is down")

    monkeypatch.setattr(jobs.current_app, "send_task", broker_down)
    game = make_game(alice, "bot:random", "bot:random")
    assert game.status == Game.Status.ACTIVE, "the game was created all the same"
    assert Job.objects.get().status == Job.Status.PENDING


def test_an_all_bot_game_finishes_with_a_result_that_replays(scenarios: None, alice: Any) -> None:
    game = make_game(alice, "bot:greedy", "bot:random", "bot:random")
    assert game.status == Game.Status.FINISHED
    result = game.result
    assert result["over"] is True and sorted(r["seat"] for r in result["seats"]) == [0, 1, 2]
    assert min(r["rank"] for r in result["seats"]) == 1
    assert result["seats"] == ENGINE.result(game.state)["seats"]
    moves = list(game.moves.order_by("seq"))
    assert len(moves) == game.seq and all(m.by_bot for m in moves)
    record = {
        "game": "hre",
        "seed": game.seed,
        "config": game.config,
        "players": 3,
        "moves": [{"seat": m.seat, "action": m.action, "hash": m.state_hash} for m in moves],
    }
    assert replay(ENGINE, record).ok
    assert game.prompted_seats() == []


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
def test_a_bot_chooses_a_legal_option_deterministically(kind: str) -> None:
    state = ENGINE.setup(5, {"modules": [], "options": {}}, 2)
    picker = random.Random(3)
    budget = bots.Budget(iterations=20)
    for _ in range(40):
        seat = ENGINE.prompts(state)[0]["seat"]
        legal = [o["action"] for o in ENGINE.prompt_for(state, seat)["options"]]
        action = bots.choose(kind, ENGINE, state, seat, 99, budget)
        assert action in legal
        assert bots.choose(kind, ENGINE, state, seat, 99, budget) == action
        state, _ = ENGINE.apply(state, seat, picker.choice(legal))
