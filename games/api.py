"""The JSON API with personal tokens (`Authorization: Bearer chy_…`).

GET  /api/games/                         my games
POST /api/games/                         create a game: {"game", "scenario", "players", "seats", "options"}
GET  /api/games/<id>/?seat=N             a seat's view and prompt (seat optional)
POST /api/games/<id>/action/             {"action": …, "expected_seq": n, "seat": optional}
POST /api/games/<id>/resign/             {"seat": optional}: resign my seat (or all of mine)
GET  /api/games/<id>/events/?since=N     log events visible to my seat since a seq
(chat, undo and standing answers: games.api_social)

Every body is read by games.inputs (64 KB, 32 levels deep, no control characters); every error
is `{"error": a readable message, "code": …}` JSON (games.middleware makes sure of it for 404s,
405s and 500s too); the whole API is rate-limited per user, moves more tightly (429 with
Retry-After).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db.models import Prefetch
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import boards, emails, limits, scenarios, services
from games.access import may_watch, seats_of, viewer_seat
from games.inputs import BadInput, integer, json_integer, json_object, text
from games.models import ApiToken, Game, Move, Scenario, Seat
from games.requests import UserRequest
from rules.core.errors import ScenarioError

View = Callable[..., JsonResponse]
MAX_SEATS = 8
REFUSAL_STATUS = {"stale": 409, "forbidden": 403, "closed": 409}


def error(message: str, status: int, code: str | None = None) -> JsonResponse:
    """The API's error answer."""
    return JsonResponse({"error": message, **({"code": code} if code else {})}, status=status)


def refused(refusal: services.MoveRefused) -> JsonResponse:
    """A refusal of the lifecycle layer, with the status its code calls for."""
    return error(refusal.message, REFUSAL_STATUS.get(refusal.code, 400), refusal.code)


def token_required(view: View) -> View:
    """Authenticate by personal token and count the request against the user's rate limit.

    Tokens never use cookies, so CSRF does not apply. BadInput raised by the view is a 400.
    """

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
            return error("A valid personal token is required.", 401, "unauthorized")
        ApiToken.objects.filter(pk=token.pk).update(last_used=timezone.now())
        request.user = token.user
        wait = limits.exceeded(request, "api", str(token.user_id))
        if wait is not None:
            return limits.too_many(wait)  # type: ignore[return-value]
        try:
            return view(request, *args, **kwargs)
        except BadInput as bad:
            return error(str(bad), 400, "malformed")

    return wrapped


def game_for(request: HttpRequest, game_id: int) -> Game | None:
    """The game if this user may watch it (its seats read once), else None."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    game = Game.objects.filter(pk=game_id).prefetch_related(seats).first()
    if game is None or not may_watch(game.pk, request.user):
        return None
    return game


def seat_param(request: HttpRequest, game: Game) -> int | None:
    """The `seat` query parameter, strictly (400 if malformed); None when absent."""
    return integer(request.GET.get("seat"), "seat", high=game.players - 1)


@require_http_methods(["GET", "POST"])
@token_required
def games_view(request: UserRequest) -> JsonResponse:
    """GET: the games I hold a seat in, with whether each waits for me. POST: create a game."""
    if request.method == "POST":
        return _create(request)
    rows = []
    for game in Game.objects.filter(seats__user=request.user).distinct().select_related("scenario"):
        mine = seats_of(game, request.user)
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


def _create(request: UserRequest) -> JsonResponse:
    """Create a game with the same checks as the new-game page; 201 with its id and address."""
    body = json_object(request.body)
    game_id = text(body.get("game"), '"game"', 40, required=True)
    slug = text(body.get("scenario", "base"), '"scenario"', 60, required=True)
    players = json_integer(body, "players", low=1, high=MAX_SEATS, required=True)
    assert players is not None
    scenario = Scenario.objects.filter(game=game_id, slug=slug, enabled=True).first()
    if scenario is None:
        return error(f"There is no scenario {slug!r} of {game_id!r}.", 400, "malformed")
    if scenario.retired:
        return error(scenarios.retired_text(scenario), 400, "invalid")
    options = {} if body.get("options") is None else body["options"]
    body.setdefault("public", True)
    if not isinstance(options, dict) or not isinstance(body["public"], bool):
        raise BadInput('"options" must be an object and "public" true or false.')
    try:
        services.check_players(scenario, players)
        specs, deck_values = _seat_specs(request, body.get("seats"), players)
        own = boards.forms(scenario.game)  # a game's own seat values (Feudal Lords: decks)
        if own is not None:
            game = own.create_from_api(
                request.user, scenario, players, specs, deck_values, options, body["public"]
            )
        else:
            game = services.create_game(
                request.user, scenario, players, specs, options, body["public"]
            )
    except ScenarioError as problem:
        return error(str(problem), 400, "invalid")
    url = emails.absolute(reverse("game", args=[game.pk]))
    return JsonResponse(
        {"id": game.pk, "url": url, "status": game.status, "seq": game.seq}, status=201
    )


def _seat_specs(
    request: UserRequest, seats: Any, players: int
) -> tuple[list[services.SeatSpec], list[str]]:
    """One seat choice per player: {"user": NAME} (me or an invitation), {"bot": SLUG}, {"open": true}."""
    if not isinstance(seats, list) or len(seats) != players:
        raise BadInput(f'"seats" must be a list of {players} seat choices.')
    specs, deck_values = [], []
    for index, seat in enumerate(seats):
        where = f"Seat {index + 1}"
        if not isinstance(seat, dict):
            raise BadInput(f"{where}: give an object with user, bot or open.")
        deck_values.append(text(seat.get("deck"), f"{where}'s deck", 80))
        if "user" in seat:
            name = text(seat["user"], f"{where}'s user", 150, required=True)
            me = name == request.user.get_username()
            specs.append(services.SeatSpec("me") if me else services.SeatSpec("invite", name))
        elif "bot" in seat:
            specs.append(services.SeatSpec("bot", bot=text(seat["bot"], f"{where}'s bot", 40)))
        elif seat.get("open") is True:
            specs.append(services.SeatSpec("open"))
        else:
            raise BadInput(f'{where}: give {{"user": NAME}}, {{"bot": SLUG}} or {{"open": true}}.')
    return specs, deck_values


@require_GET
@token_required
def game_view(request: UserRequest, game_id: int) -> JsonResponse:
    """A seat's view and prompt; spectators of public games get the spectator's view."""
    game = game_for(request, game_id)
    if game is None:
        return error("No such game.", 404, "not_found")
    mine = seats_of(game, request.user)
    wanted = seat_param(request, game)
    seat = wanted if wanted is not None else viewer_seat(game, request.user)
    if seat is not None and seat not in mine:
        return error("You do not hold that seat.", 403, "forbidden")
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
            "paused": game.paused,
            "result": game.result if game.status == Game.Status.FINISHED else None,
        }
    )


@require_POST
@token_required
def submit(request: UserRequest, game_id: int) -> JsonResponse:
    """Submit an action with the seq it was chosen at."""
    wait = limits.exceeded(request, "moves", str(request.user.pk))
    if wait is not None:
        return limits.too_many(wait, "You are sending moves too fast; wait a moment.")  # type: ignore[return-value]
    body = json_object(request.body)
    if "action" not in body:
        raise BadInput('Send a JSON object with "action" and "expected_seq".')
    seat = json_integer(body, "seat", high=MAX_SEATS - 1)
    expected = json_integer(body, "expected_seq", required=True)
    try:
        move = services.submit(game_id, request.user, body["action"], expected, seat=seat)
    except Game.DoesNotExist:
        return error("No such game.", 404, "not_found")
    except services.MoveRefused as refusal:
        return refused(refusal)
    return JsonResponse({"ok": True, "seq": move.seq, "state_hash": move.state_hash})


@require_POST
@token_required
def resign(request: HttpRequest, game_id: int) -> JsonResponse:
    """Resign my seat (`seat`), or every seat I play in the game."""
    seat = json_integer(json_object(request.body), "seat", high=MAX_SEATS - 1)
    try:
        game = services.resign(game_id, request.user, seat)
    except Game.DoesNotExist:
        return error("No such game.", 404, "not_found")
    except services.MoveRefused as refusal:
        return refused(refusal)
    return JsonResponse({"ok": True, "status": game.status, "seq": game.seq})


@require_GET
@token_required
def events(request: UserRequest, game_id: int) -> JsonResponse:
    """Log lines visible to my seat (or a spectator) after a seq."""
    game = game_for(request, game_id)
    if game is None:
        return error("No such game.", 404, "not_found")
    since = integer(request.GET.get("since"), "since", default=0)
    seat = viewer_seat(game, request.user)
    rows = []
    for move in Move.objects.filter(game=game, seq__gt=since):
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
