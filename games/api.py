"""The JSON API with personal tokens (`Authorization: Bearer chy_…`).

GET  /api/games/                         my games
GET  /api/games/<id>/?seat=N             a seat's view and prompt (seat optional)
POST /api/games/<id>/action/             {"action": …, "expected_seq": n, "seat": optional}
GET  /api/games/<id>/events/?since=N     log events visible to my seat since a seq
GET  /api/games/<id>/chat/?since=ID       chat messages I may read with an id above ID, and my channels
POST /api/games/<id>/chat/               {"text": …, "channel": optional id, "seat": optional}
GET  /api/games/<id>/undo/               which of my trailing moves I may take back
POST /api/games/<id>/undo/               {"to_seq": optional} take them back (default: the last one)
GET  /api/games/<id>/standing/?seat=N    my seat's standing answers, with the choices of each kind
POST /api/games/<id>/standing/           {"kind": …, "choice": …, "label"/"action": optional, "seat": optional}
DELETE /api/games/<id>/standing/<kind>/?seat=N   clear one (back to "ask me")
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import chat, pages, services, standing, undo
from games.models import ApiToken, ChatMessage, Game, Move, StandingAnswer
from games.requests import UserRequest

View = Callable[..., JsonResponse]


def token_required(view: View) -> View:
    """Authenticate by personal token; tokens never use cookies, so CSRF does not apply.

    The view is called with the token's user signed in (a UserRequest)."""

    @csrf_exempt
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        header = request.headers.get("Authorization", "")
        raw = header[7:].strip() if header.startswith("Bearer ") else ""
        token = (
            ApiToken.objects.select_related("user").filter(digest=ApiToken.hash(raw)).first()
            if raw
            else None
        )
        if token is None or not token.user.is_active:
            return JsonResponse({"error": "A valid personal token is required."}, status=401)
        ApiToken.objects.filter(pk=token.pk).update(last_used=timezone.now())
        request.user = token.user
        return view(request, *args, **kwargs)

    return wrapped


def _game_for(request: UserRequest, game_id: int) -> Game | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not pages.may_watch(game.pk, request.user):
        return None
    return game


@require_GET
@token_required
def my_games(request: UserRequest) -> JsonResponse:
    """The games I hold a seat in, with whether each waits for me."""
    rows = []
    for game in Game.objects.filter(seats__user=request.user).distinct():
        mine = services.seats_of(game, request.user)
        rows.append(
            {
                "id": game.pk,
                "game": game.game,
                "scenario": game.scenario.slug,
                "status": game.status,
                "seq": game.seq,
                "my_seats": mine,
                "waiting_for_me": any(i in mine for i in game.prompted_seats()),
            }
        )
    return JsonResponse({"games": rows})


@require_GET
@token_required
def game_view(request: UserRequest, game_id: int) -> JsonResponse:
    """A seat's view and prompt; spectators of public games get the spectator's view."""
    game = _game_for(request, game_id)
    if game is None:
        return JsonResponse({"error": "No such game."}, status=404)
    mine = services.seats_of(game, request.user)
    wanted = request.GET.get("seat")
    seat = int(wanted) if wanted and wanted.isdigit() else pages.viewer_seat(game, request.user)
    if seat is not None and seat not in mine:
        return JsonResponse({"error": "You do not hold that seat."}, status=403)
    view = game.engine.view(game.state, seat) if game.state is not None else None
    prompts = (
        game.engine.prompts(game.state)
        if game.state is not None and game.status == Game.Status.ACTIVE
        else []
    )
    return JsonResponse(
        {
            "id": game.pk,
            "game": game.game,
            "status": game.status,
            "seq": game.seq,
            "seat": seat,
            "view": view,
            "prompt": next((p for p in prompts if p["seat"] == seat), None),
            "deciding": [p["seat"] for p in prompts],
            "result": game.result if game.status == Game.Status.FINISHED else None,
        }
    )


@require_POST
@token_required
def submit(request: UserRequest, game_id: int) -> JsonResponse:
    """Submit an action with the seq it was chosen at."""
    try:
        body = json.loads(request.body or b"{}")
        if not isinstance(body, dict) or "action" not in body:
            raise ValueError
        seat = body.get("seat")
        move = services.submit(
            game_id,
            request.user,
            body["action"],
            body.get("expected_seq"),
            seat=seat if isinstance(seat, int) else None,
        )
    except ValueError:
        return JsonResponse(
            {"error": "Send a JSON object with action and expected_seq."}, status=400
        )
    except Game.DoesNotExist:
        return JsonResponse({"error": "No such game."}, status=404)
    except services.MoveRefused as refused:
        status = {"stale": 409, "forbidden": 403}.get(refused.code, 400)
        return JsonResponse({"error": refused.message, "code": refused.code}, status=status)
    return JsonResponse({"ok": True, "seq": move.seq, "state_hash": move.state_hash})


@require_GET
@token_required
def events(request: UserRequest, game_id: int) -> JsonResponse:
    """Log lines visible to my seat (or a spectator) after a seq."""
    game = _game_for(request, game_id)
    if game is None:
        return JsonResponse({"error": "No such game."}, status=404)
    since = request.GET.get("since", "0")
    seat = pages.viewer_seat(game, request.user)
    rows = []
    for move in Move.objects.filter(game=game, seq__gt=int(since) if since.isdigit() else 0):
        for event in move.events:
            private = event.get("private", {}).get(str(seat)) if seat is not None else None
            if event.get("public") or private:
                rows.append(
                    {
                        "seq": move.seq,
                        "seat": move.seat,
                        "rule": event.get("rule"),
                        "public": event.get("public"),
                        "private": private,
                    }
                )
    return JsonResponse({"seq": game.seq, "events": rows})


# --- correspondence: chat, undo, standing answers ------------------------------------------------


def _error(message: str, status: int, code: str | None = None) -> JsonResponse:
    return JsonResponse({"error": message, **({"code": code} if code else {})}, status=status)


def _body(request: UserRequest) -> dict[str, Any]:
    """The request's JSON object; ValueError when it is not one."""
    body = json.loads(request.body or b"{}")
    if not isinstance(body, dict):
        raise ValueError
    return body


def _optional_int(body: dict[str, Any], key: str) -> int | None:
    """An optional integer field; ValueError for anything else (booleans included)."""
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError
    return value


def _my_seat(game: Game, user: Any, wanted: int | None) -> int | None:
    """The seat named (which must be mine), else the one I see the game as; None if not mine."""
    if wanted is None:
        return pages.viewer_seat(game, user)
    return wanted if wanted in services.seats_of(game, user) else None


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
def chat_view(request: UserRequest, game_id: int) -> JsonResponse:
    """GET: messages I may read since an id (a spectator: the table only). POST: say something."""
    game = _game_for(request, game_id)
    if game is None:
        return _error("No such game.", 404)
    if request.method == "POST":
        return _chat_post(request, game)
    since = request.GET.get("since", "0")
    mine = services.seats_of(game, request.user)
    labels = chat.labels_of(game)
    rows = chat.messages_since(
        game, request.user, int(since) if since.isdigit() else 0, chat.SHOWN + 1
    )
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


def _chat_post(request: UserRequest, game: Game) -> JsonResponse:
    if chat.rate_limited(request, game.pk):
        return _error("You are sending messages too fast; wait a moment.", 429, "rate_limited")
    try:
        body = _body(request)
        if not isinstance(body.get("text"), str):
            raise ValueError
        message = chat.post(
            game,
            request.user,
            body["text"],
            _optional_int(body, "seat"),
            _optional_int(body, "channel"),
        )
    except ValueError:
        return _error('Send a JSON object with "text" (and optionally "channel" and "seat").', 400)
    except services.MoveRefused as refused:
        return _error(refused.message, 403 if refused.code == "forbidden" else 400, refused.code)
    mine = services.seats_of(game, request.user)
    return JsonResponse(_message_row(message, chat.labels_of(game), mine), status=201)


@require_http_methods(["GET", "POST"])
@token_required
def undo_view(request: UserRequest, game_id: int) -> JsonResponse:
    """GET: what I may take back now. POST: take back my trailing moves (after to_seq, default one)."""
    game = _game_for(request, game_id)
    if game is None:
        return _error("No such game.", 404)
    if not services.seats_of(game, request.user):
        return _error("Only the players of this game can undo.", 403, "forbidden")
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
    try:
        seq = undo.undo(game.pk, request.user, _optional_int(_body(request), "to_seq"))
    except ValueError:
        return _error('Send a JSON object, with "to_seq" an integer if given.', 400)
    except services.MoveRefused as refused:
        return _error(refused.message, 409, refused.code)
    return JsonResponse({"ok": True, "seq": seq})


@require_http_methods(["GET", "POST"])
@token_required
def standing_view(request: UserRequest, game_id: int) -> JsonResponse:
    """GET: my seat's standing answer for each kind of off-turn prompt. POST: set one."""
    game = _game_for(request, game_id)
    if game is None:
        return _error("No such game.", 404)
    try:
        if request.method == "GET":
            wanted = request.GET.get("seat")
            if wanted is not None and not wanted.isdigit():
                raise ValueError
            body: dict[str, Any] = {}
            seat = _my_seat(game, request.user, int(wanted) if wanted else None)
        else:
            body = _body(request)
            if (
                not isinstance(body.get("kind"), str)
                or not isinstance(body.get("choice"), str)
                or not isinstance(body.get("label", ""), str)
            ):
                raise ValueError
            seat = _my_seat(game, request.user, _optional_int(body, "seat"))
    except ValueError:
        return _error(
            'Send a JSON object with "kind" and "choice" (and optionally "label", "action", "seat").',
            400,
        )
    if seat is None:
        return _error(
            "You do not hold that seat."
            if services.seats_of(game, request.user)
            else "Only the players of this game have standing answers.",
            403,
            "forbidden",
        )
    if request.method == "POST":
        try:
            standing.set_answer(
                game, seat, body["kind"], body["choice"], body.get("label", ""), body.get("action")
            )
        except standing.StandingRefused as refused:
            return _error(str(refused), 400, "refused")
        game.refresh_from_db()
    return JsonResponse({"seat": seat, "seq": game.seq, "kinds": standing.settings_for(game, seat)})


@require_http_methods(["DELETE"])
@token_required
def standing_clear(request: UserRequest, game_id: int, kind: str) -> JsonResponse:
    """Clear one standing answer: the seat is asked again."""
    game = _game_for(request, game_id)
    if game is None:
        return _error("No such game.", 404)
    wanted = request.GET.get("seat")
    if wanted is not None and not wanted.isdigit():
        return _error("seat must be a seat number.", 400)
    seat = _my_seat(game, request.user, int(wanted) if wanted else None)
    if seat is None:
        return _error(
            "You do not hold that seat."
            if services.seats_of(game, request.user)
            else "Only the players of this game have standing answers.",
            403,
            "forbidden",
        )
    try:
        standing.set_answer(game, seat, kind, StandingAnswer.ASK)
    except standing.StandingRefused as refused:
        return _error(str(refused), 400, "refused")
    return JsonResponse({"seat": seat, "seq": game.seq, "kinds": standing.settings_for(game, seat)})


urlpatterns = [
    path("games/", my_games, name="api_games"),
    path("games/<int:game_id>/", game_view, name="api_game"),
    path("games/<int:game_id>/action/", submit, name="api_action"),
    path("games/<int:game_id>/events/", events, name="api_events"),
    path("games/<int:game_id>/chat/", chat_view, name="api_chat"),
    path("games/<int:game_id>/undo/", undo_view, name="api_undo"),
    path("games/<int:game_id>/standing/", standing_view, name="api_standing"),
    path("games/<int:game_id>/standing/<str:kind>/", standing_clear, name="api_standing_clear"),
]
