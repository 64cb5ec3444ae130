"""Pages for correspondence play: mail links (unsubscribe, decide from a mail), seats held by bots,
and the player's mail and vacation settings.

Mail links work without logging in: the signed token is the credential. Their GET only shows a
confirmation, because mail scanners fetch every link in a message; the POST does the work.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games import clocks, emails, mail_actions, notify
from games.inputs import BadInput, integer
from games.models import Game, MailPreference
from games.services import clocks as clock_service


@csrf_exempt  # RFC 8058 one-click unsubscribe: the mail client POSTs with no session or CSRF token
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Turn all mail off for the user the token names; GET asks first."""
    try:
        user_id = emails.unsubscribe_user(token)
    except emails.LinkRefused as refused:
        return render(
            request, "games/mail_link.html", {"error": refused.message}, status=refused.status
        )
    done = request.method == "POST"
    if done:
        MailPreference.objects.update_or_create(
            user_id=user_id, defaults={"mode": MailPreference.Mode.NONE}
        )
    return render(request, "games/mail_link.html", {"unsubscribe": True, "done": done})


def mail_action(request: HttpRequest, token: str) -> HttpResponse:
    """Make a trivial decision from a mail: GET shows it, POST makes it (once, if still current)."""
    try:
        data = emails.read_action(token)
        game = get_object_or_404(Game.objects.select_related("scenario"), pk=data["g"])
        if request.method == "POST":
            mail_actions.act_from_mail(token)
            # The same player may be asked again at once (HRE Pass step 4): show it here too.
            after = emails.next_question(game, int(data["u"]))
            return render(
                request, "games/mail_link.html", {"game": game, "done": True, "next": after}
            )
    except emails.LinkRefused as refused:
        return render(
            request,
            "games/mail_link.html",
            {"error": refused.message, "game_id": _game_id(token)},
            status=refused.status,
        )
    prompt = game.engine.prompt_for(game.state, data["s"]) if game.state is not None else None
    options = prompt["options"] if prompt else []
    label = next((o["label"] for o in options if o["action"] == data["a"]), "")
    return render(
        request,
        "games/mail_link.html",
        {"game": game, "label": label, "prompt": prompt if game.seq == data["q"] else None},
    )


def _game_id(token: str) -> int | None:
    try:
        return int(emails.read_action(token)["g"])
    except (emails.LinkRefused, TypeError, ValueError):
        return None


@login_required
@require_POST
def take_back(request: HttpRequest, game_id: int) -> HttpResponse:
    """The player takes back their seats a bot has held since their time ran out."""
    if not clock_service.take_back(game_id, request.user):
        messages.error(request, "No bot holds a seat of yours in this game.")
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def mail_settings(request: HttpRequest) -> HttpResponse:
    """Save the mail mode, or start or end a vacation."""
    pref = notify.preference(request.user)
    try:
        if "mode" in request.POST:
            mode = request.POST["mode"]
            if mode not in MailPreference.Mode.values:
                raise clocks.ClockError("Choose one of the mail settings.")
            pref.mode = mode
            pref.save(update_fields=["mode"])
            messages.info(request, "Mail settings saved.")
        if request.POST.get("vacation") == "start":
            days = integer(request.POST.get("days"), "The number of days", 0, high=366) or 0
            pref = clock_service.start_vacation(request.user, days)
            messages.info(
                request, f"Your clocks are paused until {pref.vacation_until:%d %b %Y %H:%M} UTC."
            )
        elif request.POST.get("vacation") == "end":
            clock_service.end_vacation(request.user)
            messages.info(request, "Welcome back: your clocks run again.")
    except (clocks.ClockError, BadInput) as error:
        messages.error(request, str(error))
    return redirect("profile")
