"""On PostgreSQL the game row lock (select_for_update) really serializes concurrent moves."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import close_old_connections, connection, transaction

from games import services
from games.models import Game, Move, Scenario
from tests.integration import support

pytestmark = pytest.mark.integration


def _hotseat_game(user: Any) -> Game:
    """A two-seat HRE game where one user holds both seats: no bots, so nothing moves but us."""
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(
        user, scenario, 2, [services.SeatSpec("me"), services.SeatSpec("me")]
    )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def _in_threads(*jobs: Callable[[], Any]) -> list[Any]:
    """Run the jobs at the same instant, each on its own thread and database connection."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(index: int) -> None:
        close_old_connections()
        try:
            barrier.wait(10)
            results[index] = jobs[index]()
        except Exception as error:  # the test inspects what each thread got
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_it_is_on_postgresql(it_database: str) -> None:
    assert connection.vendor == "postgresql"
    assert connection.settings_dict["NAME"] == support.IT_DATABASE


def test_two_simultaneous_submissions_of_one_move_apply_it_once(make_user: Any) -> None:
    alice = make_user("alice")
    game = _hotseat_game(alice)
    for _ in range(8):
        game.refresh_from_db()
        seq = game.seq
        option = game.engine.prompts(game.state)[0]
        action, seat = option["options"][0]["action"], option["seat"]
        same_move = partial(services.submit, game.pk, alice, action, seq, seat=seat)
        results = _in_threads(same_move, same_move)
        # Both get the one acceptance (the second sees the first's move): no IntegrityError
        # from two inserts of the same seq, which is what an unserialized race would give.
        assert all(isinstance(r, Move) for r in results), results
        assert results[0].pk == results[1].pk
        assert Move.objects.filter(game=game, seq=seq + 1).count() == 1
        game.refresh_from_db()
        assert game.seq == seq + 1


def test_two_simultaneous_different_moves_for_one_seq_apply_exactly_one(make_user: Any) -> None:
    alice = make_user("alice")
    game = _hotseat_game(alice)
    for _ in range(30):  # walk until a prompt offers two options
        prompt = game.engine.prompts(game.state)[0]
        if len(prompt["options"]) >= 2:
            break
        services.submit(
            game.pk, alice, prompt["options"][0]["action"], game.seq, seat=prompt["seat"]
        )
        game.refresh_from_db()
    assert len(prompt["options"]) >= 2
    seq, seat = game.seq, prompt["seat"]
    first, second = (o["action"] for o in prompt["options"][:2])
    results = _in_threads(
        lambda: services.submit(game.pk, alice, first, seq, seat=seat),
        lambda: services.submit(game.pk, alice, second, seq, seat=seat),
    )
    applied = [r for r in results if isinstance(r, Move)]
    refused = [r for r in results if isinstance(r, services.MoveRefused)]
    assert len(applied) == 1 and len(refused) == 1, results
    assert refused[0].code == "stale"
    assert list(Move.objects.filter(game=game, seq=seq + 1).values_list("pk", flat=True)) == [
        applied[0].pk
    ]


def test_a_submission_waits_for_the_row_lock_held_by_another_transaction(make_user: Any) -> None:
    alice = make_user("alice")
    game = _hotseat_game(alice)
    prompt = game.engine.prompts(game.state)[0]
    action, seat, seq = prompt["options"][0]["action"], prompt["seat"], game.seq
    locked, release = threading.Event(), threading.Event()
    finished_at: list[float] = []

    def holder() -> None:
        close_old_connections()
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                locked.set()
                release.wait(20)
        finally:
            connection.close()

    def submitter() -> None:
        close_old_connections()
        try:
            services.submit(game.pk, alice, action, seq, seat=seat)
            finished_at.append(time.monotonic())
        finally:
            connection.close()

    hold = threading.Thread(target=holder)
    hold.start()
    assert locked.wait(20)
    submit = threading.Thread(target=submitter)
    submit.start()
    time.sleep(1.0)
    assert not finished_at, "the move went through while another transaction held the game row"
    released_at = time.monotonic()
    release.set()
    hold.join(20)
    submit.join(20)
    assert finished_at and finished_at[0] >= released_at
    game.refresh_from_db()
    assert game.seq == seq + 1
