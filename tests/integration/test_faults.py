"""The fault suite: services die mid-move and the site keeps every promise.

- Redis (our own redis-server on a spare port, never the machine's) is killed while a move is
  posted: the POST still answers 200, the move is committed, and the push and the bot's turn
  follow once Redis is back.
- The Celery worker is killed during a bot's turn: a new worker plays the turn within 20 s
  (the sweep hands the lapsed claim over), and no move is doubled.
- The test database's PostgreSQL backends are terminated: the next requests succeed (the pool
  checks a connection on checkout and replaces a dead one).
Nothing here stops the machine's shared PostgreSQL or Redis: only processes this test started,
and only the backends of this run's own database.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import close_old_connections, connection, transaction
from websockets.sync.client import connect

from games import jobs, services
from games.models import ApiToken, Game, Job, Move, Scenario
from tests.integration import support

pytestmark = pytest.mark.integration
BOT_BACK_WITHIN = 20.0


def _alice_vs_bot(make_user: Any, bot: str = "random") -> tuple[Any, Game]:
    alice = make_user("alice")
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(
        alice, scenario, 2, [services.SeatSpec("me"), services.SeatSpec("bot", bot=bot)]
    )
    return alice, game


def _wait(predicate: Any, timeout: float, what: str, *logs: support.Process) -> float:
    """Poll until predicate() holds; returns the seconds it took."""
    started = time.monotonic()
    while not predicate():
        if time.monotonic() - started > timeout:
            tails = "\n".join(f"--- {p.name}:\n{p.output()[-3000:]}" for p in logs)
            raise AssertionError(f"{what} did not happen within {timeout} s\n{tails}")
        time.sleep(0.2)
    return time.monotonic() - started


def _fresh(game: Game) -> Game:
    game.refresh_from_db()
    return game


def _contiguous(game: Game) -> None:
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.seq + 1)), "a move was lost or doubled"


@pytest.fixture
def own_redis() -> Iterator[support.Process]:
    proc = support.start_redis()
    yield proc
    proc.stop()


def test_a_move_posted_while_redis_dies_is_kept_and_followed_up_when_it_is_back(
    it_database: str, own_redis: support.Process, make_user: Any, settings: Any
) -> None:
    port = own_redis.port
    redis_url = f"redis://127.0.0.1:{port}/0"
    env = support.service_env(it_database, redis_url, tasks="celery")
    support.use_broker(settings, redis_url)
    worker, beat = support.start_worker(env), support.start_beat(env)
    server = support.start_daphne(env)
    redis = own_redis
    procs = {"worker": worker, "beat": beat}  # replaced if one exits (see below)
    try:
        alice, game = _alice_vs_bot(make_user)
        _wait(lambda: _fresh(game).prompted_seats() == [0], 60, "alice's turn", worker)
        seq = game.seq
        session = support.session_cookie(alice)
        cookie = {"Cookie": f"sessionid={session}"}
        page = support.http_request(server.port, "GET", f"/games/{game.pk}/", headers=cookie)[2]
        option = support.first_option(page)
        assert option is not None
        csrf = support.csrf_token(server.port, f"/games/{game.pk}/", session)

        support.kill(redis)  # Redis dies just before the move is posted
        status, _, _ = support.http_request(
            server.port,
            "POST",
            f"/games/{game.pk}/act/",
            urlencode(option),
            {
                "Cookie": f"sessionid={session}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        assert status == 200, "the accepted move is answered as accepted"
        game = _fresh(game)
        assert game.seq == seq + 1 and Move.objects.filter(game=game, seq=seq + 1, seat=0).exists()
        owed = Job.objects.filter(game=game, status=Job.Status.PENDING)
        assert owed.filter(kind=jobs.PUSH).exists(), "the push Redis refused is owed"
        bot_waiting = 1 in game.prompted_seats()
        if bot_waiting:
            assert owed.filter(kind=jobs.BOT_TURN, seq=game.seq, seat=1).exists()

        redis = support.start_redis(port)  # back, empty, on the same port

        # A Celery process may exit when its broker vanishes mid-acknowledgement (kombu's Redis
        # transport; seen once in a full run): in production its process manager starts it
        # again, as here. What is tested is that the owed work is done once Redis is back.
        # The exit can come some seconds after Redis is back (while kombu reconnects), so the
        # processes are looked after for the whole wait, not only once here.
        def push_done() -> bool:
            if procs["worker"].popen.poll() is not None:
                procs["worker"] = support.start_worker(env)
            if procs["beat"].popen.poll() is not None:
                procs["beat"] = support.start_beat(env)
            return not Job.objects.filter(game=game, kind=jobs.PUSH, status="pending").exists()

        _wait(push_done, 90, "the owed push", worker, beat)
        worker, beat = procs["worker"], procs["beat"]
        if bot_waiting:
            _wait(lambda: _fresh(game).seq > seq + 1, 60, "the bot's turn", worker, beat)
        # A page that (re)connects now is brought up to date.
        url = f"ws://127.0.0.1:{server.port}/ws/games/{game.pk}/"
        origin = {"Origin": f"http://127.0.0.1:{server.port}"}
        with connect(url, additional_headers={**cookie, **origin}) as ws:
            frame = str(ws.recv(timeout=20))
        assert (support.pushed_seq(frame) or 0) >= seq + (2 if bot_waiting else 1)
        _contiguous(_fresh(game))
    finally:
        for proc in (server, beat, worker, redis, *procs.values()):
            proc.stop()


def _hold_game_lock(game_id: int, locked: threading.Event, release: threading.Event) -> None:
    close_old_connections()
    try:
        with transaction.atomic():
            Game.objects.select_for_update().get(pk=game_id)
            locked.set()
            release.wait(60)
    finally:
        connection.close()


def _waiting_on_a_lock(database: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
            [database],
        )
        return bool(cursor.fetchone()[0])


def test_a_bot_turn_whose_worker_is_killed_is_played_by_another_within_20_s(
    it_database: str, it_redis: str, make_user: Any, settings: Any, monkeypatch: Any
) -> None:
    env = support.service_env(it_database, it_redis, tasks="celery")
    support.use_broker(settings, it_redis)
    worker, beat = support.start_worker(env), support.start_beat(env)
    try:
        alice, game = _alice_vs_bot(make_user)
        _wait(lambda: _fresh(game).prompted_seats() == [0], 60, "alice's turn", worker)
        # Alice moves until the bot must decide; its turn is owed, not yet handed to the worker.
        with monkeypatch.context() as patched:
            patched.setattr(jobs, "dispatch", lambda job_id, countdown=0: None)
            while 1 not in _fresh(game).prompted_seats():
                action = game.engine.prompt_for(game.state, 0)["options"][0]["action"]
                services.submit(game.pk, alice, action, game.seq, seat=0)
        game = _fresh(game)
        seq = game.seq
        job = Job.objects.get(game=game, kind=jobs.BOT_TURN, seq=seq)
        # While the game row is held, the worker claims the turn and waits in the move service.
        locked, release = threading.Event(), threading.Event()
        holder = threading.Thread(target=_hold_game_lock, args=(game.pk, locked, release))
        holder.start()
        assert locked.wait(20)
        jobs.dispatch(job.pk)
        _wait(lambda: _waiting_on_a_lock(support.IT_DATABASE), 30, "the bot waiting", worker)
        job.refresh_from_db()
        assert job.attempts == 1 and job.claimed_until is not None
        support.kill(worker)  # mid-turn
        killed_at = time.monotonic()
        release.set()
        holder.join(20)
        assert _fresh(game).seq == seq, "the killed worker's move was not committed"
        worker = support.start_worker(env)
        took = _wait(
            lambda: _fresh(game).seq > seq, BOT_BACK_WITHIN, "the bot's move", worker, beat
        )
        assert time.monotonic() - killed_at <= BOT_BACK_WITHIN, took
        assert Move.objects.filter(game=game, seq=seq + 1).count() == 1
        assert Move.objects.get(game=game, seq=seq + 1).by_bot
        # The job is marked done just after its move commits.
        _wait(lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE, 10, "the job done")
        assert Job.objects.get(pk=job.pk).attempts == 2, "claimed twice: the dead run and this one"
        _contiguous(_fresh(game))
    finally:
        beat.stop()
        worker.stop()


def test_terminated_database_backends_fail_no_request(
    it_database: str, it_redis: str, make_user: Any
) -> None:
    alice, game = _alice_vs_bot(make_user, bot="random")
    _, raw = ApiToken.issue(alice, "faults")
    session = support.session_cookie(alice)
    env = support.service_env(it_database, it_redis, tasks="thread")
    with support.daphne(env) as server:
        auth = {"Authorization": f"Bearer {raw}"}
        for _ in range(6):  # fill the server's pool
            assert support.http_request(server.port, "GET", "/api/games/", headers=auth)[0] == 200
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [support.IT_DATABASE],
            )
            assert cursor.fetchall(), "the server's connections were terminated"
        answers = [
            support.http_request(server.port, "GET", f"/api/games/{game.pk}/", headers=auth)[0]
            for _ in range(6)
        ]
        page = support.http_request(
            server.port, "GET", f"/games/{game.pk}/", headers={"Cookie": f"sessionid={session}"}
        )
        assert answers == [200] * 6 and page[0] == 200
