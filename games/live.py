"""Live updates: an ids-only message to the game's group after each commit (ARCHITECTURE §1)."""

from __future__ import annotations

import asyncio
import logging
import os
import threading

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

# A send that has not finished by then is given up and reported (the caller owes the push).
SEND_TIMEOUT = 10.0
_own: tuple[int, asyncio.AbstractEventLoop] | None = None
_own_lock = threading.Lock()


def group_name(game_id: int) -> str:
    """The channel-layer group of a game."""
    return f"game-{game_id}"


def broadcast(game_id: int, seq: int, force: bool = False, mover: int | None = None) -> bool:
    """Tell every socket on the game that it is at `seq`; each renders for its own viewer.

    `force` makes every socket render even if it has drawn this seq or a later one: an undo
    moves the seq back, and a rematch offer changes the page without moving it. `mover` is the
    id of the player who made the move: that player's sockets render before the others of the
    same server (games.consumers). False when the channel layer could not be reached (logged;
    the caller may owe the push as a job).
    """
    message: dict[str, object] = {"type": "game.update", "seq": seq, "force": force}
    if mover is not None:
        message["mover"] = mover
    return _send(game_id, message)


def chat_broadcast(game_id: int, message_id: int | None, channels: bool = False) -> None:
    """Tell every socket that the chat changed (ids only); each renders the chat its viewer may see.

    A chat push lost to an outage is not owed again: a socket that reconnects redraws the chat.
    """
    _send(game_id, {"type": "chat.update", "message": message_id, "channels": channels})


def _send(game_id: int, message: dict[str, object]) -> bool:
    layer = get_channel_layer()
    if layer is None:
        return True
    try:
        if _server_loop() is not None:
            # A view under daphne: its sync thread hands the send to the server's own loop.
            async_to_sync(layer.group_send)(group_name(game_id), message)
        else:
            sent = asyncio.run_coroutine_threadsafe(
                layer.group_send(group_name(game_id), message), _own_loop()
            )
            try:
                sent.result(SEND_TIMEOUT)
            finally:
                sent.cancel()  # no-op once done; stops a send that timed out
    except Exception:  # the change is stored: sockets catch up on the next push or reconnect
        log.exception("broadcast %s to game %s failed", message, game_id)
        return False
    return True


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the ASGI server whose sync thread this is, if any (asgiref keeps it in
    SyncToAsync's thread-local while it runs a sync view)."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return getattr(SyncToAsync.threadlocal, "main_event_loop", None)


def _own_loop() -> asyncio.AbstractEventLoop:
    """One event loop on a daemon thread per process, for sends from plain sync code: a Celery
    worker, the embedded task thread, a command. `async_to_sync` would start a thread and a loop
    for every send there (about 0.4 ms of the caller's CPU and 3 ms of wall time), and
    channels_redis keeps a connection per loop, so each push also connected to Redis anew."""
    global _own
    with _own_lock:
        if _own is None or _own[0] != os.getpid():  # none yet, or a forked child's copy
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="chancery-live", daemon=True).start()
            _own = (os.getpid(), loop)
        return _own[1]
