"""How a push reaches the channel layer: from a server's sync thread, or from plain sync code."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games import live


def _own_receive(channel: str) -> dict[str, Any]:
    """Read a message on the module's own loop (the in-memory layer's queues are per loop)."""
    layer = get_channel_layer()
    got = asyncio.run_coroutine_threadsafe(layer.receive(channel), live._own_loop())
    return dict(got.result(5))


def _own_join(game_id: int) -> str:
    layer = get_channel_layer()

    async def join() -> str:
        name = await layer.new_channel()
        await layer.group_add(live.group_name(game_id), name)
        return str(name)

    return asyncio.run_coroutine_threadsafe(join(), live._own_loop()).result(5)


def test_pushes_from_plain_sync_code_share_one_loop_and_arrive() -> None:
    """A worker or the embedded task thread: every send runs on one loop of the process, so no
    thread or loop is made per push, and each message reaches the game's group."""
    channel = _own_join(9001)
    loop = live._own_loop()
    threads = threading.active_count()
    for seq in (1, 2, 3):
        assert live.broadcast(9001, seq)
    assert live._own_loop() is loop and threading.active_count() == threads
    assert [_own_receive(channel)["seq"] for _ in range(3)] == [1, 2, 3]


@pytest.mark.asyncio
async def test_a_view_under_the_server_sends_on_the_servers_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a sync view run by the ASGI server the send goes to the server's own loop, never to the
    module's loop (an in-memory layer's sockets wait on the server's loop)."""

    def no_own_loop() -> None:
        raise AssertionError("the module's own loop was used inside the server")

    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(live.group_name(9002), channel)
    monkeypatch.setattr(live, "_own_loop", no_own_loop)
    assert await sync_to_async(live.broadcast)(9002, 7, True)
    message = await asyncio.wait_for(layer.receive(channel), 5)
    assert message == {"type": "game.update", "seq": 7, "force": True}


def test_a_send_that_hangs_is_given_up_and_reported(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A channel layer that never answers: the push is reported as not sent (the caller owes it
    as a job) after the timeout, and the stalled send is cancelled."""
    started, cancelled = threading.Event(), threading.Event()

    class Stuck:
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            started.set()
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                cancelled.set()
                raise

    monkeypatch.setattr(live, "get_channel_layer", lambda: Stuck())
    monkeypatch.setattr(live, "SEND_TIMEOUT", 0.2)
    with caplog.at_level(logging.ERROR, logger="games.live"):
        assert live.broadcast(9003, 1) is False
    assert started.is_set() and "failed" in caplog.text
    assert cancelled.wait(5)
