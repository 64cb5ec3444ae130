"""The game socket: it joins the game's group and pushes live partials rendered for its viewer.

The viewer is computed from the session on connect and re-checked on every render, never taken
from anything the client sends. Group messages carry ids only (game, seq, and the id of the
player who moved, whose sockets are drawn first).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games import chat, live, notify, pages
from games.access import may_watch
from games.inputs import BadInput, parse_json
from games.models import Game

# The player who moved sees the move first. A server draws its sockets' pushes one at a time
# (Django's one thread for sync code), so with eight sockets on a game the mover's push could
# wait behind seven others. The other sockets of the same game on this server wait until the
# mover's have drawn this seq, at most FIRST_WAIT seconds (a mover's socket that is busy or
# closes never holds them longer). All of this runs on the server's event loop: no lock.
FIRST_WAIT = 0.25
_open: dict[int, set[GameConsumer]] = {}  # game id -> its sockets open on this server
# (loop, game, seq) -> set once the mover's sockets have drawn it (an Event belongs to one loop)
_drawn: dict[tuple[asyncio.AbstractEventLoop, int, int], asyncio.Event] = {}
DRAWN_KEPT = 256


def _drawn_event(game_id: int, seq: int) -> asyncio.Event:
    key = (asyncio.get_running_loop(), game_id, seq)
    found = _drawn.get(key)
    if found is None:
        found = _drawn[key] = asyncio.Event()
        while len(_drawn) > DRAWN_KEPT:
            del _drawn[next(iter(_drawn))]
    return found


class GameConsumer(AsyncWebsocketConsumer):
    """One browser tab watching one game."""

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.seq = -1
        # What this socket has been sent: later pushes carry only what changed (games.pages).
        self.sent = pages.Sent()
        if not await database_sync_to_async(may_watch)(self.game_id, self.user):
            await self.close(code=4403)
            return
        await self.channel_layer.group_add(live.group_name(self.game_id), self.channel_name)
        _open.setdefault(self.game_id, set()).add(self)
        await self.accept()
        # While a page is open on the game its player gets no turn mail for it (games.notify).
        await database_sync_to_async(notify.page_opened)(self.user, self.game_id, self.channel_name)
        # A socket that (re)connects is brought up to date: the game as it is now, and the chat.
        await self._push(force=True, with_chat=True)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "game_id"):
            sockets = _open.get(self.game_id, set())
            sockets.discard(self)
            if not sockets:
                _open.pop(self.game_id, None)
            await self.channel_layer.group_discard(live.group_name(self.game_id), self.channel_name)
            await database_sync_to_async(notify.page_closed)(self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A client that reconnects or sees a gap asks to be brought up to date."""
        try:
            message: Any = parse_json(text_data or "{}", "The message")
        except BadInput:
            return
        if isinstance(message, dict) and "sync" in message:
            await self._push(force=True)

    async def game_update(self, event: dict[str, Any]) -> None:
        """The game moved: render for this viewer, unless this socket is already there.

        A render reads the newest state, so news of an older seq (a bot's earlier moves in the
        same burst) is already shown and would only resend the same partials.
        """
        seq, mover = int(event["seq"]), event.get("mover")
        mine = mover is not None and mover == getattr(self.user, "pk", None)
        try:
            if seq > self.seq or event.get("force"):
                if mover is not None and not mine and self._mover_here(mover):
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(_drawn_event(self.game_id, seq).wait(), FIRST_WAIT)
                await self._push(force=bool(event.get("force")))
        finally:
            if mine:
                _drawn_event(self.game_id, seq).set()

    def _mover_here(self, mover: int) -> bool:
        """Whether a socket of the player who moved is open on this game on this server."""
        return any(
            getattr(other.user, "pk", None) == mover
            for other in _open.get(self.game_id, ())
            if other is not self
        )

    async def chat_update(self, event: dict[str, Any]) -> None:
        """A chat message was posted (or a channel opened): push the chat this viewer may see."""
        html = await database_sync_to_async(self._render_chat)(bool(event.get("channels")))
        if html is None:
            await self.close(code=4403)
            return
        await self.send(text_data=html)

    def _render_chat(self, channels: bool) -> str | None:
        return chat.live_fragments(self.game_id, self.user, channels=channels)

    async def _push(self, force: bool = False, with_chat: bool = False) -> None:
        rendered = await database_sync_to_async(self._render)(force, with_chat)
        if rendered is None:
            await self.close(code=4403)
            return
        self.seq, html = rendered
        if html:  # nothing this viewer sees changed (a bot's move in another seat's hand)
            await self.send(text_data=html)

    def _render(self, force: bool = False, with_chat: bool = False) -> tuple[int, str] | None:
        """The seq this socket is now at and what it must be sent to show it; `force` sends all."""
        rendered = pages.live_update(self.game_id, self.user, self.sent, force)
        if rendered is None:
            return None
        game, html = rendered
        if with_chat:
            html += chat.live_fragments(self.game_id, self.user) or ""
        # Seats are taken and the game dealt without the seq moving: while the game waits for
        # players, every message is news.
        return (-1 if game.status == Game.Status.OPEN else game.seq), html
