"""The JSON API for correspondence play: chat, undo and standing answers.

GET  /api/games/<id>/chat/?since=ID       chat messages I may read with an id above ID, and my channels
POST /api/games/<id>/chat/               {"text": …, "channel": optional id, "seat": optional}
GET  /api/games/<id>/undo/               which of my trailing moves I may take back
POST /api/games/<id>/undo/               {"to_seq": optional} take them back (default: the last one)
GET  /api/games/<id>/standing/?seat=N    my seat's standing answers, with the choices of each kind
POST /api/games/<id>/standing/           {"kind": …, "choice": …, "label"/"action": optional, "seat": optional}
DELETE /api/games/<id>/standing/<kind>/?seat=N   clear one (back to "ask me")
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_http_methods

from games import chat, limits, services, standing, undo
from games.access import seats_of, viewer_seat
from games.api import MAX_SEATS, error, game_for, seat_param, token_required
from games.inputs import integer, json_integer, json_object, text
from games.models import ChatMessage, Game, StandingAnswer


def _my_seat(game: Game, user: Any, wanted: int | None) -> int | None:
    """The seat named (which must be mine), else the one I see the game as; None if not mine."""
    if wanted is None:
        return viewer_seat(game, user)
    return wanted if wanted in seats_of(game, user) else None


def _not_mine(game: Game, user: Any) -> JsonResponse:
    return error(
        "You do not hold that seat."
        if seats_of(game, user)
        else "Only the players of this game have standing answers.",
        403,
        "forbidden",
    )


def _message_row(message: ChatMessage, labels: dict[int, str], mine: list[int]) -> dict[str, Any]:
    return {
        "id": message.pk,
        "seat": message.seat,
        "who": labels.get(message.seat, f"Seat {message.seat + 1}"),
        "text": message.text,
        "at": message.created_at.isoformat(),
        "channel": message.channel_id,
        "to": chat.channel_name(message.channel, labels, mine),
    }


@require_http_methods(["GET", "POST"])
@token_required
def chat_view(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET: messages I may read since an id (a spectator: the table only). POST: say something."""
    game = game_for(request, game_id)
    if game is None:
        return error("No such game.", 404, "not_found")
    if request.method == "POST":
        return _chat_post(request, game)
    since = integer(request.GET.get("since"), "since", default=0)
    assert since is not None
    mine = seats_of(game, request.user)
    labels = chat.labels_of(game)
    rows = chat.messages_since(game, request.user, since, chat.SHOWN + 1)
    return JsonResponse(
        {
            "messages": [_message_row(m, labels, mine) for m in rows[: chat.SHOWN]],
            "more": len(rows) > chat.SHOWN,
            "channels": [
                {"id": c.pk, "members": c.members, "name": chat.channel_name(c, labels, mine)}
                for c in chat.visible_channels(game, mine)
            ],
            "my_seats": mine,
        }
    )


def _chat_post(request: HttpRequest, game: Game) -> JsonResponse:
    wait = chat.rate_limited(request, game.pk)
    if wait is not None:
        return limits.too_many(wait, "You are sending messages too fast; wait a moment.")  # type: ignore[return-value]
    body = json_object(request.body)
    if not isinstance(body.get("text"), str):
        return error('Send a JSON object with "text" (and optionally "channel" and "seat").', 400)
    message_text = text(body["text"], "The message", 10 * chat.MAX_LENGTH)
    seat = json_integer(body, "seat", high=MAX_SEATS - 1)
    channel = json_integer(body, "channel")
    try:
        message = chat.post(game, request.user, message_text, seat, channel)
    except services.MoveRefused as refusal:
        return error(refusal.message, 403 if refusal.code == "forbidden" else 400, refusal.code)
    mine = seats_of(game, request.user)
    return JsonResponse(_message_row(message, chat.labels_of(game), mine), status=201)


@require_http_methods(["GET", "POST"])
@token_required
def undo_view(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET: what I may take back now. POST: take back my trailing moves (after to_seq, default one)."""
    game = game_for(request, game_id)
    if game is None:
        return error("No such game.", 404, "not_found")
    if not seats_of(game, request.user):
        return error("Only the players of this game can undo.", 403, "forbidden")
    if request.method == "GET":
        run = undo.undoable_by(game, request.user)
        return JsonResponse(
            {
                "seq": game.seq,
                "can_undo": bool(run),
                "to_seq": run[0].seq - 1 if run else None,
                "earliest_seq": run[-1].seq - 1 if run else None,
                "moves": [{"seq": m.seq, "seat": m.seat} for m in run],
            }
        )
    to_seq = json_integer(json_object(request.body), "to_seq")
    try:
        seq = services.undo(game.pk, request.user, to_seq)
    except services.MoveRefused as refusal:
        return error(refusal.message, 409, refusal.code)
    return JsonResponse({"ok": True, "seq": seq})


@require_http_methods(["GET", "POST"])
@token_required
def standing_view(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET: my seat's standing answer for each kind of off-turn prompt. POST: set one."""
    game = game_for(request, game_id)
    if game is None:
        return error("No such game.", 404, "not_found")
    body: dict[str, Any] = {}
    if request.method == "GET":
        seat = _my_seat(game, request.user, seat_param(request, game))
    else:
        body = json_object(request.body)
        if not isinstance(body.get("kind"), str) or not isinstance(body.get("choice"), str):
            return error(
                'Send a JSON object with "kind" and "choice" '
                '(and optionally "label", "action", "seat").',
                400,
            )
        text(body.get("label", ""), '"label"', standing.MAX_LABEL)
        seat = _my_seat(game, request.user, json_integer(body, "seat", high=game.players - 1))
    if seat is None:
        return _not_mine(game, request.user)
    if request.method == "POST":
        try:
            standing.set_answer(
                game, seat, body["kind"], body["choice"], body.get("label", ""), body.get("action")
            )
        except standing.StandingRefused as refusal:
            return error(str(refusal), 400, "refused")
        game.refresh_from_db()
    return JsonResponse({"seat": seat, "seq": game.seq, "kinds": standing.settings_for(game, seat)})


@require_http_methods(["DELETE"])
@token_required
def standing_clear(request: HttpRequest, game_id: int, kind: str) -> JsonResponse:
    """Clear one standing answer: the seat is asked again."""
    game = game_for(request, game_id)
    if game is None:
        return error("No such game.", 404, "not_found")
    seat = _my_seat(game, request.user, seat_param(request, game))
    if seat is None:
        return _not_mine(game, request.user)
    try:
        standing.set_answer(game, seat, kind, StandingAnswer.ASK)
    except standing.StandingRefused as refusal:
        return error(str(refusal), 400, "refused")
    return JsonResponse({"seat": seat, "seq": game.seq, "kinds": standing.settings_for(game, seat)})
