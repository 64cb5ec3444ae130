"""Pages' requests that change a game's course: resign, and let paused bots play on."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import services
from games.inputs import BadInput, integer
from games.models import Game
from games.requests import UserRequest


def _back(request: UserRequest, game_id: int) -> HttpResponse:
    """Back to the game page (htmx follows HX-Redirect)."""
    target = reverse("game", args=[game_id])
    if request.htmx:
        response = HttpResponse("")
        response["HX-Redirect"] = target
        return response
    return redirect(target)


@login_required
@require_POST
def resign(request: UserRequest, game_id: int) -> HttpResponse:
    """Resign the seat named in the form, or every seat the player holds in the game."""
    try:
        seat = integer(request.POST.get("seat"), "The seat", high=7)
        game = services.resign(game_id, request.user, seat)
    except BadInput as bad:
        messages.error(request, str(bad))
    except Game.DoesNotExist:
        messages.error(request, "There is no such game.")
        return redirect("lobby")
    except services.MoveRefused as refused:
        messages.error(request, refused.message)
    else:
        if game.status == Game.Status.FINISHED:
            messages.info(request, "You resigned; the game is over.")
        else:
            messages.info(request, "You resigned; a bot plays your seat to the end of the game.")
    return _back(request, game_id)


@login_required
@require_POST
def resume(request: UserRequest, game_id: int) -> HttpResponse:
    """Let the bots of a paused game play on."""
    try:
        services.resume(game_id, request.user)
    except Game.DoesNotExist:
        messages.error(request, "There is no such game.")
        return redirect("lobby")
    except services.MoveRefused as refused:
        messages.error(request, refused.message)
    return _back(request, game_id)
