"""Pages and htmx endpoints: lobby, new game, the game page, moves, joining, rules, profile, dev inbox."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import pages, rulebook, services
from games.models import DevEmail, Game, Scenario, Seat
from rules.core.errors import ScenarioError
from rules.core.registry import get_engine


def lobby(request: HttpRequest) -> HttpResponse:
    """My games (those waiting for me first), open games to join, public games to watch."""
    mine: list[Game] = []
    waiting: list[Game] = []
    if request.user.is_authenticated:
        mine = list(Game.objects.filter(seats__user=request.user).distinct().select_related("scenario"))
        waiting = [g for g in mine if _waiting_for(g, request.user)]
        mine = waiting + [g for g in mine if g not in waiting]
    # A seat kept for an invited player is open only to them.
    free = Q(seats__user__isnull=True, seats__bot="", seats__invited__isnull=True)
    if request.user.is_authenticated:
        free |= Q(seats__user__isnull=True, seats__bot="", seats__invited=request.user)
    open_games = Game.objects.filter(status=Game.Status.OPEN).filter(free).distinct().select_related("scenario")[:50]
    watch = Game.objects.filter(public=True, status=Game.Status.ACTIVE).select_related("scenario")[:50]
    return render(request, "games/lobby.html", {
        "mine": mine, "waiting": {g.pk for g in waiting}, "open_games": open_games, "watch": watch,
        "scenarios": Scenario.objects.filter(enabled=True),
    })


def _waiting_for(game: Game, user: Any) -> bool:
    mine = services.seats_of(game, user)
    return any(i in mine for i in game.prompted_seats())


@login_required
def next_waiting(request: HttpRequest) -> HttpResponse:
    """The next game where the user must decide, else the lobby."""
    for game in Game.objects.filter(seats__user=request.user, status=Game.Status.ACTIVE).order_by("updated_at").distinct():
        if _waiting_for(game, request.user):
            return redirect("game", game_id=game.pk)
    messages.info(request, "No game is waiting for you.")
    return redirect("lobby")


@login_required
def new_game(request: HttpRequest) -> HttpResponse:
    """Create a game: scenario, seats (me, open, invited or a bot) and the scenario's options."""
    scenarios = Scenario.objects.filter(enabled=True)
    if request.method == "POST":
        scenario = get_object_or_404(Scenario, pk=request.POST.get("scenario"), enabled=True)
        try:
            players = int(request.POST.get("players", scenario.min_players))
            specs = [_seat_spec(request.POST.get(f"seat{i}", "open"), request.POST.get(f"invite{i}", ""))
                     for i in range(players)]
            options = json.loads(request.POST.get("options") or "{}")
            game = services.create_game(request.user, scenario, players, specs, options,
                                        public=request.POST.get("public", "on") == "on")
        except (ScenarioError, ValueError) as error:
            messages.error(request, str(error))
            return render(request, "games/new.html", {"scenarios": scenarios}, status=400)
        return redirect("game", game_id=game.pk)
    return render(request, "games/new.html", {"scenarios": scenarios})


def _seat_spec(kind: str, invite: str) -> services.SeatSpec:
    if kind.startswith("bot:"):
        return services.SeatSpec("bot", bot=kind[4:])
    if kind == "invite":
        return services.SeatSpec("invite", username=invite.strip())
    if kind in ("me", "open"):
        return services.SeatSpec(kind)
    raise ValueError(f"Unknown seat choice {kind!r}.")


def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game page: prompt bar, board, players, private panel and log."""
    game = get_object_or_404(Game.objects.select_related("scenario"), pk=game_id)
    if not pages.may_watch(game.pk, request.user):
        raise Http404("No such game.")
    return render(request, "games/game.html", pages.context(game, request.user))


@require_POST
def act(request: HttpRequest, game_id: int) -> HttpResponse:
    """Submit a move (htmx): answers with the live partials, or a message and the fresh page."""
    if not request.user.is_authenticated:
        return HttpResponse("Log in to play.", status=403)
    game = get_object_or_404(Game, pk=game_id)
    try:
        action = json.loads(request.POST.get("action", ""))
        expected = int(request.POST.get("expected_seq", ""))
        seat = request.POST.get("seat")
        services.submit(game.pk, request.user, action, expected, seat=int(seat) if seat else None)
        error, status = "", 200
    except (ValueError, TypeError):
        error, status = "That move is not well-formed.", 400
    except services.MoveRefused as refused:
        error, status = refused.message, 409 if refused.code == "stale" else 400
    # An accepted move is answered with the prompt bar only: the game's socket pushes the rest
    # (rendered once per viewer), so the board is not drawn twice for the mover. A refused
    # move gets every live region, since the page was out of date.
    only = ("prompt",) if not error and request.htmx else None
    fragments = pages.live_fragments(game.pk, request.user, only=only)
    html = fragments[1] if fragments else ""
    notice = render_to_string("games/game.html#notice", {"error": error, "oob": True})
    response = HttpResponse(notice + html, status=status if not request.htmx else 200)
    if request.htmx and error:
        response["HX-Trigger"] = json.dumps({"chancery:refused": error})
    return response


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    """Take an open seat."""
    try:
        seat = request.POST.get("seat")
        services.join(game_id, request.user, int(seat) if seat else None)
    except services.MoveRefused as refused:
        messages.error(request, refused.message)
    if request.htmx:
        response = HttpResponse("")
        response["HX-Redirect"] = reverse("game", kwargs={"game_id": game_id})
        return response
    return redirect("game", game_id=game_id)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """The user's profile: games played and results, API tokens."""
    seats = Seat.objects.filter(user=request.user).select_related("game", "game__scenario").order_by("-game__updated_at")
    return render(request, "games/profile.html", {"seats": seats, "tokens": request.user.api_tokens.all()})


def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    """Our one-line summaries of a game's rules, one anchor per rule id the logs cite."""
    sections = rulebook.sections(game)
    if not sections:
        raise Http404("No rule summaries for that game.")
    try:
        title = get_engine(game).title
    except KeyError:
        title = game.upper()
    return render(request, "games/rules.html", {"game": game, "title": title, "sections": sections})


def dev_inbox(request: HttpRequest) -> HttpResponse:
    """Mail sent by the embedded set-up (DEBUG only)."""
    if not settings.DEBUG:
        raise Http404
    return render(request, "games/inbox.html", {"mails": DevEmail.objects.all()[:100]})


def home(request: HttpRequest) -> HttpResponseRedirect:
    """The site root is the lobby."""
    return redirect(reverse("lobby"))
