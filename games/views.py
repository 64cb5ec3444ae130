"""Pages and htmx endpoints: lobby, new game, the game page, moves, joining, rules, profile, dev inbox."""

from __future__ import annotations

import functools
import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import (
    boards,
    chat,
    glossary,
    landing,
    limits,
    newgame,
    notify,
    pages,
    replays,
    results,
    rulebook,
    scenarios,
    services,
    standing,
)
from games.access import may_watch, seats_of, viewer_seat
from games.inputs import BadInput, integer, parse_json, text
from games.models import DevEmail, Game, Result, Seat
from games.requests import HtmxRequest, UserRequest
from rules.core.errors import ScenarioError
from rules.core.registry import get_engine

MAX_SEATS = 8


def lobby(request: HtmxRequest) -> HttpResponse:
    """My games (those waiting for me first), open games to join, public games to watch."""
    mine: list[Game] = []
    waiting: list[Game] = []
    if request.user.is_authenticated:
        mine = list(
            Game.objects.filter(seats__user=request.user).distinct().select_related("scenario")
        )
        waiting = [g for g in mine if _waiting_for(g, request.user)]
        mine = waiting + [g for g in mine if g not in waiting]
    # A seat kept for an invited player is open only to them.
    free = Q(seats__user__isnull=True, seats__bot="", seats__invited__isnull=True)
    if request.user.is_authenticated:
        free |= Q(seats__user__isnull=True, seats__bot="", seats__invited=request.user)
    open_games = (
        Game.objects.filter(status=Game.Status.OPEN)
        .filter(free)
        .distinct()
        .select_related("scenario")[:50]
    )
    watch = Game.objects.filter(public=True, status=Game.Status.ACTIVE).select_related("scenario")
    if request.user.is_authenticated:  # my own games are listed above, not again as games to watch
        watch = watch.exclude(seats__user=request.user)
    watch = watch[:50]
    return render(
        request,
        "games/lobby.html",
        {
            "mine": mine,
            "waiting": {g.pk for g in waiting},
            "open_games": open_games,
            "watch": watch,
            "scenarios": scenarios.offered(),
        },
    )


def _waiting_for(game: Game, user: Any) -> bool:
    mine = seats_of(game, user)
    return any(i in mine for i in game.prompted_seats())


@login_required
def next_waiting(request: UserRequest) -> HttpResponse:
    """The next game where the user must decide, else the lobby."""
    for game in (
        Game.objects.filter(seats__user=request.user, status=Game.Status.ACTIVE)
        .order_by("updated_at")
        .distinct()
    ):
        if _waiting_for(game, request.user):
            return redirect("game", game_id=game.pk)
    messages.info(request, "No game is waiting for you.")
    return redirect("lobby")


@login_required
def new_game(request: UserRequest) -> HttpResponse:
    """Create a game: scenario, seats (me, open, invited or a bot), options and time control.

    A refused submission comes back with every value kept and each error next to its field.
    """
    if request.method != "POST":
        form = newgame.NewGameForm(request.user, preset_game=request.GET.get("game", ""))
        return _new_game_page(request, form)
    form = newgame.NewGameForm(request.user, request.POST)
    cleaned = form.clean()
    if cleaned is None:
        return _new_game_page(request, form, status=400)
    try:
        own = boards.forms(cleaned.scenario.game)  # a game's own fields (Feudal Lords: the decks)
        if own is not None:
            game = own.create_game(
                request,
                cleaned.scenario,
                cleaned.players,
                cleaned.seats,
                cleaned.options,
                cleaned.public,
                cleaned.time_control,
            )
        else:
            game = services.create_game(
                request.user,
                cleaned.scenario,
                cleaned.players,
                cleaned.seats,
                cleaned.options,
                public=cleaned.public,
                time_control=cleaned.time_control,
            )
    except (ScenarioError, ValueError) as error:
        form.errors["form"] = str(error)
        return _new_game_page(request, form, status=400)
    return redirect("game", game_id=game.pk)


def _new_game_page(
    request: UserRequest, form: newgame.NewGameForm, status: int = 200
) -> HttpResponse:
    ctx = {**form.context(), **boards.new_game_context(request)}
    return render(request, "games/new.html", ctx, status=status)


def game_page(request: HtmxRequest, game_id: int) -> HttpResponse:
    """The game page: prompt bar, board, players, private panel and log."""
    game = get_object_or_404(Game.objects.select_related("scenario"), pk=game_id)
    if not may_watch(game.pk, request.user):
        if not request.user.is_authenticated:
            # A player following a mail link while logged out is asked to log in, not told "404".
            return redirect_to_login(request.get_full_path())
        raise Http404("No such game.")
    notify.seen(request.user, game.pk)  # turn mail about this game may go out again
    ctx = pages.context(game, request.user)
    ctx.update(_social_context(game, request.user))
    ctx["chosen_options"] = scenarios.chosen_options(game.config, game.engine)
    ctx["modules"] = scenarios.chosen_modules(game.game, game.config, game.engine)
    return render(request, "games/game.html", ctx)


@require_POST
def act(request: HtmxRequest, game_id: int) -> HttpResponse:
    """Submit a move (htmx): answers with the live partials, or a message and the fresh page."""
    if not request.user.is_authenticated:
        return HttpResponse("Log in to play.", status=403)
    wait = limits.exceeded(request, "moves", str(request.user.pk))
    if wait is not None:
        response = _answer(request, None, "You are sending moves too fast; wait a moment.")
        response.status_code, response["Retry-After"] = 429, str(wait)
        return response
    try:
        action = parse_json(request.POST.get("action", ""), "The move")
        expected = integer(request.POST.get("expected_seq"), "The move's position")
        if expected is None:
            raise BadInput("the move's position (expected_seq) is missing")
        seat = integer(request.POST.get("seat"), "The seat", high=MAX_SEATS - 1)
        shown = text(request.POST.get("prompt"), "The prompt's key", 64) or None
        move = services.submit(game_id, request.user, action, expected, seat=seat, prompt=shown)
    except Game.DoesNotExist as missing:  # the move service reads the game itself
        raise Http404("No such game.") from missing
    except BadInput as bad:
        return _refused(request, game_id, f"That move is not well-formed: {bad}", 400)
    except services.MoveRefused as refused:
        return _refused(request, game_id, refused.message, 409 if refused.code == "stale" else 400)
    if request.htmx and request.headers.get(LIVE_HEADER) == "1":
        # The page's socket is open: the push that follows brings the prompt and every region
        # that changed, drawn once for this viewer, so the answer only clears the notice.
        response = HttpResponse(_cleared_notice())
        response[PUSHED_HEADER] = str(move.seq)
        return response
    # No socket (it is reconnecting, or the page has no script): the answer carries the prompt
    # bar (htmx) or every live region, so the page does not wait on a push.
    return _move_answer(request, game_id, "", only=("prompt",) if request.htmx else None)


# Sent by the page (static/js/chancery.js) while its socket is open; answered with PUSHED_HEADER.
LIVE_HEADER = "X-Chancery-Live"
PUSHED_HEADER = "X-Chancery-Pushed"


@functools.cache
def _cleared_notice() -> str:
    return render_to_string("games/game.html#notice", {"error": "", "oob": True})


def _refused(request: HtmxRequest, game_id: int, error: str, status: int) -> HttpResponse:
    """A refused move: the message, and every live region (the page was out of date)."""
    response = _move_answer(request, game_id, error)
    if not request.htmx:
        response.status_code = status
    else:
        response["HX-Trigger"] = json.dumps({"chancery:refused": error})
    return response


def _move_answer(
    request: HtmxRequest, game_id: int, error: str, only: tuple[str, ...] | None = None
) -> HttpResponse:
    """The notice and the live partials (`only` these) for the requesting viewer."""
    fragments = pages.live_fragments(game_id, request.user, only=only)
    html = fragments[1] if fragments else ""
    notice = render_to_string("games/game.html#notice", {"error": error, "oob": True})
    return HttpResponse(notice + html)


@login_required
@require_POST
def join(request: UserRequest, game_id: int) -> HttpResponse:
    """Take an open seat (in Feudal Lords, with the deck chosen in the join form)."""
    game = get_object_or_404(Game, pk=game_id)
    try:
        seat = integer(request.POST.get("seat"), "The seat", high=MAX_SEATS - 1)
        own = boards.forms(game.game)  # a game's own fields (Feudal Lords: the deck)
        if own is not None:
            own.join(request, game, seat)
        else:
            services.join(game.pk, request.user, seat)
    except services.MoveRefused as refused:
        messages.error(request, refused.message)
    except (ScenarioError, ValueError) as error:
        messages.error(request, str(error))
    if request.htmx:
        response = HttpResponse("")
        response["HX-Redirect"] = reverse("game", kwargs={"game_id": game_id})
        return response
    return redirect("game", game_id=game_id)


@login_required
def profile(request: UserRequest) -> HttpResponse:
    """The user's profile: games played and results, mail, API tokens."""
    return profile_page(request)


def profile_page(request: UserRequest, new_token: str = "", new_name: str = "") -> HttpResponse:
    """The profile page; a token just issued is shown this once (`new_token`)."""
    seats = (
        Seat.objects.filter(user=request.user)
        .select_related("game", "game__scenario")
        .order_by("-game__updated_at")
    )
    tokens = request.user.api_tokens.order_by("-created_at")
    ctx = {"seats": seats, "tokens": tokens, "new_token": new_token, "new_name": new_name}
    return render(request, "games/profile.html", ctx)


def rules_page(request: HtmxRequest, game: str) -> HttpResponse:
    """Our one-line summaries of a game's rules, one anchor per rule id the logs cite."""
    try:
        sections = rulebook.sections(game)
    except rulebook.UnknownGame:
        raise Http404("There is no such game.") from None
    if not sections:
        raise Http404("No rule summaries for that game.")
    try:
        title = get_engine(game).title
    except KeyError:
        title = game.upper()
    return render(request, "games/rules.html", {"game": game, "title": title, "sections": sections})


def glossary_page(request: HtmxRequest, game: str) -> HttpResponse:
    """A game's words: each abbreviation and term, what it means and where a player meets it."""
    words = glossary.terms(game)
    if not words:
        raise Http404("There is no such game.")
    title = get_engine(game).title
    return render(request, "games/glossary.html", {"game": game, "title": title, "terms": words})


def dev_inbox(request: HtmxRequest) -> HttpResponse:
    """Mail sent by the embedded set-up (DEBUG only): a player sees their own, staff everyone's."""
    if not settings.DEBUG:
        raise Http404
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    mails = DevEmail.objects.all()
    if not request.user.is_staff:
        email = request.user.email
        # `to` joins the addresses with ", ": match one whole address, never a part of one.
        mails = (
            mails.filter(
                Q(to=email)
                | Q(to__startswith=f"{email}, ")
                | Q(to__endswith=f", {email}")
                | Q(to__contains=f", {email}, ")
            )
            if email
            else mails.none()
        )
    return render(request, "games/inbox.html", {"mails": mails[:100]})


def home(request: HtmxRequest) -> HttpResponse:
    """The lobby for a player; for a visitor, what the site and its three games are."""
    if request.user.is_authenticated:
        return redirect(reverse("lobby"))
    ctx = {"games": landing.games(), **landing.public_games(), "demo": landing.demo_users()}
    return render(request, "games/landing.html", ctx)


def rules_index(request: HtmxRequest) -> HttpResponse:
    """The rules of each game: our summaries by rulebook section, and each game's glossary."""
    return render(request, "games/rules_index.html", {"games": landing.games()})


# --- correspondence play: undo, standing answers, chat, notes, rematch, results, replays -------


def _social_context(game: Game, user: Any) -> dict[str, Any]:
    """The chat, notes and standing answers of the game page, for one viewer."""
    ctx = chat.context(game, user)
    seat = viewer_seat(game, user)
    ctx["standing"] = standing.settings_for(game, seat) if seat is not None else []
    ctx["standing_seat"] = seat
    return ctx


def _answer(
    request: HtmxRequest,
    game: Game | None,
    error: str,
    partials: tuple[str, ...] = (),
    ctx: dict[str, Any] | None = None,
) -> HttpResponse:
    """A notice (error or none) and the named partials as out-of-band swaps, for htmx."""
    html: str = render_to_string("games/game.html#notice", {"error": error, "oob": True})
    if partials:
        context = {**(ctx or {}), "oob": True, "user": request.user}
        html += "".join(render_to_string(f"games/game.html#{name}", context) for name in partials)
    response = HttpResponse(html, status=200 if request.htmx or not error else 400)
    if request.htmx and error:
        response["HX-Trigger"] = json.dumps({"chancery:refused": error})
    return response


@login_required
@require_POST
def undo_view(request: UserRequest, game_id: int) -> HttpResponse:
    """Take back the player's last move (htmx): the live partials, or a message."""
    game = get_object_or_404(Game, pk=game_id)
    error = ""
    try:
        services.undo(game.pk, request.user, integer(request.POST.get("to_seq"), "The position"))
    except BadInput as bad:
        error = str(bad)
    except services.MoveRefused as refused:
        error = refused.message
    fragments = pages.live_fragments(game.pk, request.user)
    notice = render_to_string("games/game.html#notice", {"error": error, "oob": True})
    return HttpResponse(
        notice + (fragments[1] if fragments else ""),
        status=200 if request.htmx or not error else 400,
    )


@login_required
@require_POST
def standing_view(request: UserRequest, game_id: int) -> HttpResponse:
    """Set how one of the player's seats answers a kind of off-turn prompt."""
    game = get_object_or_404(Game, pk=game_id)
    error = ""
    try:
        seat = integer(request.POST.get("seat"), "The seat", -1, high=MAX_SEATS - 1)
        if seat not in seats_of(game, request.user):
            raise services.MoveRefused("You do not hold that seat.", "forbidden")
        standing.set_answer(
            game,
            seat,
            text(request.POST.get("kind", ""), "The kind", 40),
            text(request.POST.get("choice", ""), "The choice", 40),
            text(request.POST.get("label", ""), "The label", standing.MAX_LABEL),
        )
    except BadInput as bad:
        error = str(bad)
    except (services.MoveRefused, standing.StandingRefused) as refused:
        error = str(refused)
    return _answer(request, game, error, ("standing",), _social_context(game, request.user))


@login_required
@require_POST
def chat_post(request: UserRequest, game_id: int) -> HttpResponse:
    """Post a chat message (rate-limited per player and game)."""
    game = get_object_or_404(Game, pk=game_id)
    wait = chat.rate_limited(request, game.pk)
    if wait is not None:
        response = _answer(request, game, "You are sending messages too fast; wait a moment.")
        response.status_code, response["Retry-After"] = 429, str(wait)
        return response
    error = ""
    try:
        chat.post(
            game,
            request.user,
            text(request.POST.get("text", ""), "The message", 10 * chat.MAX_LENGTH),
            integer(request.POST.get("seat"), "The seat", high=MAX_SEATS - 1),
            integer(request.POST.get("channel"), "The channel"),
        )
    except BadInput as bad:
        error = str(bad)
    except services.MoveRefused as refused:
        error = refused.message
    return _answer(request, game, error, ("chat",), chat.context(game, request.user))


@login_required
@require_POST
def chat_channel(request: UserRequest, game_id: int) -> HttpResponse:
    """Open a private channel with some other seats."""
    game = get_object_or_404(Game, pk=game_id)
    error = ""
    try:
        picked = [m for m in request.POST.getlist("members")[:MAX_SEATS] if m]
        members = [int(integer(m, "A member", high=MAX_SEATS - 1) or 0) for m in picked]
        seat = integer(request.POST.get("seat"), "The seat", high=MAX_SEATS - 1)
        chat.open_channel(game, request.user, members, seat)
    except BadInput as bad:
        error = str(bad)
    except services.MoveRefused as refused:
        error = refused.message
    return _answer(
        request, game, error, ("chat_channels", "chat"), chat.context(game, request.user)
    )


@login_required
@require_POST
def chat_mute(request: UserRequest, game_id: int) -> HttpResponse:
    """Mute (or unmute) another seat's messages."""
    game = get_object_or_404(Game, pk=game_id)
    error = ""
    try:
        chat.set_mute(
            game,
            request.user,
            integer(request.POST.get("other"), "The other seat", -1, high=MAX_SEATS - 1) or 0,
            request.POST.get("muted") == "1",
            integer(request.POST.get("seat"), "The seat", high=MAX_SEATS - 1),
        )
    except BadInput as bad:
        error = str(bad)
    except services.MoveRefused as refused:
        error = refused.message
    return _answer(request, game, error, ("chat", "chat_mutes"), chat.context(game, request.user))


@login_required
@require_POST
def notes_view(request: UserRequest, game_id: int) -> HttpResponse:
    """Save the seat's private notes."""
    game = get_object_or_404(Game, pk=game_id)
    try:
        chat.save_note(
            game,
            request.user,
            text(request.POST.get("text", ""), "The notes", chat.MAX_NOTES),
            integer(request.POST.get("seat"), "The seat", high=MAX_SEATS - 1),
        )
        error = ""
    except BadInput as bad:
        error = str(bad)
    except services.MoveRefused as refused:
        error = refused.message
    return _answer(request, game, error)


@login_required
@require_POST
def rematch_view(request: UserRequest, game_id: int) -> HttpResponse:
    """Offer or accept a rematch; the last acceptance goes to the new game."""
    try:
        offer = services.accept_rematch(game_id, request.user)
    except services.MoveRefused as refused:
        messages.error(request, refused.message)
        return redirect("game", game_id=game_id)
    target = reverse("game", args=[offer.new_game_id or game_id])
    if request.htmx:
        response = HttpResponse("")
        response["HX-Redirect"] = target
        return response
    return redirect(target)


def _watchable(request: HtmxRequest, game_id: int) -> Game:
    game = get_object_or_404(Game.objects.select_related("scenario"), pk=game_id)
    if not may_watch(game.pk, request.user):
        raise Http404("No such game.")
    return game


def results_page(request: HtmxRequest, game_id: int) -> HttpResponse:
    """The final standings with the breakdown by category, and the rating changes."""
    game = _watchable(request, game_id)
    stored = Result.objects.filter(game=game).first()
    seats = list(game.seats.select_related("user", "invited"))
    return render(
        request,
        "games/results.html",
        {
            "game": game,
            "table": results.result_table(game.result, seats)
            if game.status == Game.Status.FINISHED
            else None,
            "stored": stored,
            "ratings": results.rating_rows(stored) if stored else [],
        },
    )


def replay_page(request: HtmxRequest, game_id: int) -> HttpResponse:
    """Step through a finished game move by move (htmx swaps the position)."""
    game = _watchable(request, game_id)
    try:
        seq = integer(request.GET.get("seq"), "The position", game.seq)
        assert seq is not None
        ctx = replays.position(game, seq)
    except ValueError as error:
        raise Http404("No such position.") from error
    except replays.NotReplayable as error:
        raise Http404(str(error)) from error
    template = "games/replay.html#position" if request.htmx else "games/replay.html"
    return render(request, template, ctx)


HISTORY_PAGE = 100  # moves per page of a game's whole history


def history_page(request: HtmxRequest, game_id: int) -> HttpResponse:
    """The game's whole log, oldest first, a hundred moves a page, as this viewer may read it."""
    game = _watchable(request, game_id)
    count = game.moves.count()
    pages_total = max(1, -(-count // HISTORY_PAGE))
    try:
        page = integer(request.GET.get("page"), "The page", pages_total, 1, pages_total)
    except BadInput as error:
        raise Http404("No such page.") from error
    assert page is not None
    moves = list(game.moves.order_by("seq").defer("action", "state_hash"))[
        (page - 1) * HISTORY_PAGE : page * HISTORY_PAGE
    ]
    seat = viewer_seat(game, request.user)
    ctx = {
        "game": game,
        "lines": pages.log_lines(game, seat, limit=0, moves=moves),
        "page": page,
        "pages_total": pages_total,
        "page_numbers": range(1, pages_total + 1),
    }
    return render(request, "games/history.html", ctx)


def record_download(request: HtmxRequest, game_id: int) -> HttpResponse:
    """A finished game's record as JSON, for `python -m rules replay FILE`."""
    game = _watchable(request, game_id)
    try:
        record = replays.game_record(game)
    except replays.NotReplayable as error:
        raise Http404(str(error)) from error
    response = HttpResponse(json.dumps(record, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="chancery-{game.game}-{game.pk}.json"'
    return response
