"""Live updates: an ids-only message to the game's group after each commit (ARCHITECTURE §1)."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    """The channel-layer group of a game."""
    return f"game-{game_id}"


def broadcast(game_id: int, seq: int) -> None:
    """Tell every socket on the game that it is at `seq`; each renders for its own viewer."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(game_id), {"type": "game.update", "seq": seq})
    except Exception:  # a push lost is recovered by the seq-gap check; the move is stored
        log.exception("broadcast of game %s seq %s failed", game_id, seq)
