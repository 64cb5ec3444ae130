"""The JSON API with personal tokens (`Authorization: Bearer chy_…`).

GET  /api/games/                         my games
GET  /api/games/<id>/?seat=N             a seat's view and prompt (seat optional)
POST /api/games/<id>/action/             {"action": …, "expected_seq": n, "seat": optional}
GET  /api/games/<id>/events/?since=N     log events visible to my seat since a seq
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
from django.views.decorators.http import require_GET, require_POST

from games import pages, services
from games.models import ApiToken, Game, Move

View = Callable[..., JsonResponse]


def token_required(view: View) -> View:
    """Authenticate by personal token; tokens never use cookies, so CSRF does not apply."""

    @csrf_exempt
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        header = request.headers.get("Authorization", "")
        raw = header[7:].strip() if header.startswith("Bearer ") else ""
        token = ApiToken.objects.select_related("user").filter(digest=ApiToken.hash(raw)).first() if raw else None
        if token is None or not token.user.is_active:
            return JsonResponse({"error": "A valid personal token is required."}, status=401)
        ApiToken.objects.filter(pk=token.pk).update(last_used=timezone.now())
        request.user = token.user
        return view(request, *args, **kwargs)

    return wrapped


def _game_for(request: HttpRequest, game_id: int) -> Game | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not pages.may_watch(game.pk, request.user):
        return None
    return game


@require_GET
@token_required
def my_games(request: HttpRequest) -> JsonResponse:
    """The games I hold a seat in, with whether each waits for me."""
    rows = []
    for game in Game.objects.filter(seats__user=request.user).distinct():
        mine = services.seats_of(game, request.user)
        rows.append({"id": game.pk, "game": game.game, "scenario": game.scenario.slug, "status": game.status,
                     "seq": game.seq, "my_seats": mine,
                     "waiting_for_me": any(i in mine for i in game.prompted_seats())})
    return JsonResponse({"games": rows})


@require_GET
@token_required
def game_view(request: HttpRequest, game_id: int) -> JsonResponse:
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
    prompts = game.engine.prompts(game.state) if game.state is not None and game.status == Game.Status.ACTIVE else []
    return JsonResponse({"id": game.pk, "game": game.game, "status": game.status, "seq": game.seq, "seat": seat,
                         "view": view, "prompt": next((p for p in prompts if p["seat"] == seat), None),
                         "deciding": [p["seat"] for p in prompts],
                         "result": game.result if game.status == Game.Status.FINISHED else None})


@require_POST
@token_required
def submit(request: HttpRequest, game_id: int) -> JsonResponse:
    """Submit an action with the seq it was chosen at."""
    try:
        body = json.loads(request.body or b"{}")
        if not isinstance(body, dict) or "action" not in body:
            raise ValueError
        seat = body.get("seat")
        move = services.submit(game_id, request.user, body["action"], body.get("expected_seq"),
                               seat=seat if isinstance(seat, int) else None)
    except ValueError:
        return JsonResponse({"error": "Send a JSON object with action and expected_seq."}, status=400)
    except Game.DoesNotExist:
        return JsonResponse({"error": "No such game."}, status=404)
    except services.MoveRefused as refused:
        status = {"stale": 409, "forbidden": 403}.get(refused.code, 400)
        return JsonResponse({"error": refused.message, "code": refused.code}, status=status)
    return JsonResponse({"ok": True, "seq": move.seq, "state_hash": move.state_hash})


@require_GET
@token_required
def events(request: HttpRequest, game_id: int) -> JsonResponse:
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
                rows.append({"seq": move.seq, "seat": move.seat, "rule": event.get("rule"),
                             "public": event.get("public"), "private": private})
    return JsonResponse({"seq": game.seq, "events": rows})


urlpatterns = [
    path("games/", my_games, name="api_games"),
    path("games/<int:game_id>/", game_view, name="api_game"),
    path("games/<int:game_id>/action/", submit, name="api_action"),
    path("games/<int:game_id>/events/", events, name="api_events"),
]
