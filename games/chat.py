"""Chat on a game: the table chat, private channels between seats, mutes and private notes.

Membership is by seat: a user sees the channels of every seat they hold, a spectator only the
table chat. Messages are stored as typed and escaped when drawn (templates autoescape); the
live push is an ids-only group message, and each socket renders the chat for its own viewer.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string

from games import limits, live
from games.access import may_watch, seats_of
from games.errors import MoveRefused
from games.models import ChatChannel, ChatMessage, Game, Mute, SeatNote

MAX_LENGTH = 1000
MAX_NOTES = 20000
SHOWN = 100
DEFAULT_RATE = "10/m"


def rate_limited(request: HttpRequest, game_id: int) -> int | None:
    """Seconds to wait when this user has posted too often on this game lately (counts this attempt)."""
    rate = getattr(settings, "CHANCERY_CHAT_RATE", DEFAULT_RATE)
    return limits.exceeded(request, "chat", f"{game_id}:{request.user.pk}", rate=rate)


def _own_seat(game: Game, user: Any, seat: int | None) -> int:
    """The seat a user speaks for: the one named, which they must hold, else their first."""
    mine = seats_of(game, user)
    if not mine:
        raise MoveRefused("Only the players of this game can do that.", "forbidden")
    if seat is None:
        return mine[0]
    if seat not in mine:
        raise MoveRefused("You do not hold that seat.", "forbidden")
    return seat


def visible_channels(game: Game, seats: list[int]) -> list[ChatChannel]:
    """The private channels any of these seats belongs to."""
    return [c for c in ChatChannel.objects.filter(game=game) if set(c.members) & set(seats)]


def labels_of(game: Game) -> dict[int, str]:
    """How each seat is named in the chat."""
    return {s.index: f"{s.label()} (seat {s.index + 1})" for s in game.seats.select_related("user")}


def visible_messages(
    game: Game, channels: list[ChatChannel], seats: list[int]
) -> QuerySet[ChatMessage]:
    """The table chat and these channels' messages, less those of seats these seats mute."""
    muted = set(Mute.objects.filter(game=game, seat__in=seats).values_list("muted", flat=True))
    where = Q(channel__isnull=True) | Q(channel__in=[c.pk for c in channels])
    return ChatMessage.objects.filter(game=game).filter(where).exclude(seat__in=muted)


def messages_since(game: Game, user: Any, after: int = 0, limit: int = SHOWN) -> list[ChatMessage]:
    """The messages a user may read with an id above `after`, oldest first, at most `limit`."""
    mine = seats_of(game, user)
    rows = visible_messages(game, visible_channels(game, mine), mine).filter(pk__gt=after)
    return list(rows.select_related("channel").order_by("pk")[:limit])


def post(
    game: Game, user: Any, text: str, seat: int | None = None, channel_id: int | None = None
) -> ChatMessage:
    """Post a message to the table or to a private channel the seat belongs to."""
    seat = _own_seat(game, user, seat)
    text = text.strip()
    if not text:
        raise MoveRefused("The message is empty.", "malformed")
    if len(text) > MAX_LENGTH:
        raise MoveRefused(f"Messages are at most {MAX_LENGTH} characters.", "malformed")
    channel = None
    if channel_id is not None:
        channel = ChatChannel.objects.filter(game=game, pk=channel_id).first()
        if channel is None or seat not in channel.members:
            raise MoveRefused("You are not in that channel.", "forbidden")
    message = ChatMessage.objects.create(
        game=game, channel=channel, seat=seat, author=user, text=text
    )
    transaction.on_commit(lambda: live.chat_broadcast(game.pk, message.pk))
    return message


def open_channel(game: Game, user: Any, members: list[int], seat: int | None = None) -> ChatChannel:
    """A private channel between the user's seat and other seats (the same one if it exists)."""
    seat = _own_seat(game, user, seat)
    chosen = sorted({seat, *members})
    if len(chosen) < 2 or any(not 0 <= m < game.players for m in chosen):
        raise MoveRefused("Choose at least one other seat of this game.", "malformed")
    channel = next((c for c in ChatChannel.objects.filter(game=game) if c.members == chosen), None)
    if channel is None:
        channel = ChatChannel.objects.create(game=game, members=chosen)
        transaction.on_commit(lambda: live.chat_broadcast(game.pk, None, channels=True))
    return channel


def set_mute(game: Game, user: Any, other: int, muted: bool, seat: int | None = None) -> None:
    """Hide (or show again) another seat's messages from this seat."""
    seat = _own_seat(game, user, seat)
    if other == seat or not 0 <= other < game.players:
        raise MoveRefused("Choose another seat of this game.", "malformed")
    if muted:
        Mute.objects.get_or_create(game=game, seat=seat, muted=other)
    else:
        Mute.objects.filter(game=game, seat=seat, muted=other).delete()


def save_note(game: Game, user: Any, text: str, seat: int | None = None) -> SeatNote:
    """Replace a seat's private notes."""
    seat = _own_seat(game, user, seat)
    if len(text) > MAX_NOTES:
        raise MoveRefused(f"Notes are at most {MAX_NOTES} characters.", "malformed")
    note, _ = SeatNote.objects.update_or_create(game=game, seat=seat, defaults={"text": text})
    return note


def channel_name(channel: ChatChannel | None, labels: dict[int, str], mine: list[int]) -> str:
    """How a channel reads for a viewer: the table, or the other members."""
    if channel is None:
        return "Table"
    others = [labels.get(m, f"Seat {m + 1}") for m in channel.members if m not in mine] or [
        "yourself"
    ]
    return "Private: " + ", ".join(others)


def context(game: Game, user: Any) -> dict[str, Any]:
    """What the chat partials need for one viewer: messages, channels, mutes and notes."""
    mine = seats_of(game, user)
    seats = list(game.seats.select_related("user"))
    labels = {s.index: f"{s.label()} (seat {s.index + 1})" for s in seats}
    channels = visible_channels(game, mine)
    muted = set(Mute.objects.filter(game=game, seat__in=mine).values_list("muted", flat=True))
    rows = visible_messages(game, channels, mine).select_related("channel").order_by("-pk")[:SHOWN]
    messages = [
        {
            "id": m.pk,
            "who": labels.get(m.seat, f"Seat {m.seat + 1}"),
            "text": m.text,
            "at": m.created_at,
            "private": m.channel_id is not None,
            "to": channel_name(m.channel, labels, mine),
        }
        for m in reversed(list(rows))
    ]
    notes = {n.seat: n.text for n in SeatNote.objects.filter(game=game, seat__in=mine)}
    return {
        "chat_messages": messages,
        "chat_channels": [{"id": c.pk, "name": channel_name(c, labels, mine)} for c in channels],
        "chat_others": [
            {"index": s.index, "label": labels[s.index], "muted": s.index in muted}
            for s in seats
            if s.index not in mine
        ],
        "chat_note": notes.get(mine[0], "") if mine else "",
        "mine": mine,
        "game": game,
    }


def live_fragments(game_id: int, user: Any, channels: bool = False) -> str | None:
    """The chat (and the channel picker) as out-of-band swaps, or None if the viewer may not watch."""
    if not may_watch(game_id, user):
        return None
    game = Game.objects.get(pk=game_id)
    ctx = {**context(game, user), "oob": True, "user": user}
    names = ("chat", "chat_channels") if channels else ("chat",)
    return "".join(render_to_string(f"games/game.html#{name}", ctx) for name in names)
