"""Live updates: an ids-only message to the game's group after each commit (ARCHITECTURE §1)."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    """The channel-layer group of a game."""
    return f"game-{game_id}"


def broadcast(game_id: int, seq: int, force: bool = False) -> bool:
    """Tell every socket on the game that it is at `seq`; each renders for its own viewer.

    `force` makes every socket render even if it has drawn this seq or a later one: an undo
    moves the seq back, and a rematch offer changes the page without moving it. False when the
    channel layer could not be reached (logged; the caller may owe the push as a job).
    """
    return _send(game_id, {"type": "game.update", "seq": seq, "force": force})


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
        async_to_sync(layer.group_send)(group_name(game_id), message)
    except Exception:  # the change is stored: sockets catch up on the next push or reconnect
        log.exception("broadcast %s to game %s failed", message, game_id)
        return False
    return True
