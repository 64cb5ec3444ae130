"""A real Celery worker process plays an all-bot game to the end, through Redis and PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from games import services
from games.models import Game, Job, Scenario
from rules.core.canonical import state_hash
from tests.integration import support

pytestmark = pytest.mark.integration
GAME_TIMEOUT = 120


@pytest.fixture
def worker(it_database: str, it_redis: str) -> Iterator[support.Process]:
    """`celery -A config worker` on the run's database and broker; stopped after the test."""
    proc = support.start_worker(support.service_env(it_database, it_redis, tasks="celery"))
    yield proc
    proc.stop()
    assert proc.popen.returncode is not None


@pytest.fixture
def celery_tasks(settings: Any, it_redis: str) -> None:
    """This process queues tasks to the worker through the Redis broker."""
    support.use_broker(settings, it_redis)


def test_a_celery_worker_plays_an_all_bot_game_to_the_end(
    worker: support.Process, celery_tasks: None, make_user: Any
) -> None:
    scenario = Scenario.objects.get(game="hre", slug="base")
    host = make_user("host")
    game = services.create_game(
        host,
        scenario,
        2,
        [services.SeatSpec("bot", bot="random"), services.SeatSpec("bot", bot="random")],
    )
    deadline = time.monotonic() + GAME_TIMEOUT
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED or time.monotonic() > deadline:
            break
        if game.paused:  # 500 bot moves in a row: the creator lets them play on
            services.resume(game.pk, host)
        assert worker.popen.poll() is None, f"the worker died:\n{worker.output()}"
        time.sleep(0.5)
    assert game.status == Game.Status.FINISHED, (
        f"game stuck at seq {game.seq} after {GAME_TIMEOUT} s; worker log:\n{worker.output()}"
    )
    moves = list(game.moves.order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, game.seq + 1))
    assert all(m.by_bot for m in moves)
    assert moves[-1].state_hash == state_hash(game.state)
    assert game.result is not None and len(game.result["seats"]) == 2
    assert "games.tasks.run_job" in worker.output()
    assert game.jobs.filter(kind="bot_turn", status="done").count() >= game.seq


def test_a_search_bot_answers_a_player_through_the_worker(
    worker: support.Process, celery_tasks: None, make_user: Any
) -> None:
    """The site's default bot ("search", rules.bots) thinks in the worker within its budget."""
    alice = make_user("alice")
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(
        alice, scenario, 2, [services.SeatSpec("me"), services.SeatSpec("bot", bot="search")]
    )
    for _ in range(5):
        deadline = time.monotonic() + 60
        while 0 not in _fresh(game).prompted_seats():
            assert time.monotonic() < deadline, f"the bot did not answer:\n{worker.output()}"
            time.sleep(0.2)
        action = game.engine.prompt_for(game.state, 0)["options"][0]["action"]
        services.submit(game.pk, alice, action, game.seq, seat=0)
    bot_moves = game.moves.filter(seat=1, by_bot=True)
    assert bot_moves.exists()
    assert (
        not Job.objects.filter(game=game)
        .exclude(status=Job.Status.DONE)
        .exclude(seq=_fresh(game).seq)
        .exists()
    ), "every bot turn before the current one was played"


def _fresh(game: Game) -> Game:
    game.refresh_from_db()
    return game
