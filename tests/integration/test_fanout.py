"""Two ASGI servers share Redis: a move posted to server B is pushed to a socket on server A."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from websockets.sync.client import connect

from games import services
from games.models import Game, Scenario
from tests.integration import support

pytestmark = pytest.mark.integration


@pytest.fixture
def two_servers(
    it_database: str, it_redis: str
) -> Iterator[tuple[support.Process, support.Process]]:
    env = support.service_env(it_database, it_redis, tasks="celery")
    with support.daphne(env) as server_a, support.daphne(env) as server_b:
        yield server_a, server_b


def _receive_until(ws: Any, seq: int, timeout: float) -> str:
    """Frames until one drawn at `seq` (or later) arrives."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        frame = ws.recv(timeout=left)
        at = support.pushed_seq(frame)
        if at is not None and at >= seq:
            return str(frame)
    raise AssertionError(f"no push at seq {seq} within {timeout} s")


def test_a_move_posted_to_one_server_is_pushed_to_a_socket_on_another(
    two_servers: tuple[support.Process, support.Process], make_user: Any
) -> None:
    server_a, server_b = two_servers
    alice, bob = make_user("alice"), make_user("bob")
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(
        alice,
        scenario,
        2,
        [services.SeatSpec("me"), services.SeatSpec("invite", username=bob.username)],
    )
    services.join(game.pk, bob)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    prompt = game.engine.prompts(game.state)[0]
    mover, watcher = (alice, bob) if prompt["seat"] == 0 else (bob, alice)
    mover_session, watcher_session = support.session_cookie(mover), support.session_cookie(watcher)

    url = f"ws://127.0.0.1:{server_a.port}/ws/games/{game.pk}/"
    with connect(
        url,
        origin=f"http://127.0.0.1:{server_a.port}",  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={watcher_session}"},
        open_timeout=10,
    ) as ws:
        first = _receive_until(ws, game.seq, 10)  # the socket renders the game once on connect
        assert 'id="log"' in first

        page = f"/games/{game.pk}/"
        csrf = support.csrf_token(server_b.port, page, mover_session)
        body = urlencode(
            {
                "action": support.canonical(prompt["options"][0]["action"]),
                "expected_seq": game.seq,
                "seat": prompt["seat"],
            }
        )
        status, _, answer = support.http_request(
            server_b.port,
            "POST",
            f"{page}act/",
            body,
            {
                "Cookie": f"sessionid={mover_session}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        assert status == 200, answer[:2000]
        assert support.pushed_seq(answer) == game.seq + 1

        pushed = _receive_until(ws, game.seq + 1, 10)
    assert support.pushed_seq(pushed) == game.seq + 1
    game.refresh_from_db()
    assert game.seq == support.pushed_seq(pushed)
