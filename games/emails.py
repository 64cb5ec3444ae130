"""What the mails say, and the signed links in them (unsubscribe, decide from the mail).

Rendering only: deciding from a mail link is games.mail_actions, sending is games.notify.

Everything a mail shows of a game comes from the engine's view for the addressee's seat and
from the events visible to that seat (public text plus that seat's private text), exactly as
the game page does: never the state, never another seat's private text.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from games import clocks, results
from games.models import Game, Move, Outbox, SeatClock
from rules.core.engine import Engine, Prompt, looks_like_pass

ACTION_SALT = "chancery.email-action"
UNSUBSCRIBE_SALT = "chancery.unsubscribe"
ACTION_MAX_AGE = 14 * 24 * 3600  # seconds; a decision left that long is surely stale anyway
MAX_LOG_LINES = 40
# Per-seat numbers worth a line in "the board at a glance", in this order, when the view has them.
GLANCE_KEYS = ("vp", "score", "gold")
# Each game's initials and colour, the "picture" heading its mails.
EMBLEMS = {"hre": ("HRE", "#7a1f1f"), "ema": ("EMA", "#2f4f7f"), "feudal": ("FL", "#5b4a1f")}
SUBJECTS = {
    Outbox.Kind.TURN: "Your decision in {title} #{pk}",
    Outbox.Kind.REMINDER: "Your time is nearly spent in {title} #{pk}",
    Outbox.Kind.TIMEOUT: "Your time ran out in {title} #{pk}",
    Outbox.Kind.RESULT: "Game over: {title} #{pk}",
    Outbox.Kind.PAUSED: "The bots are waiting for you in {title} #{pk}",
    Outbox.Kind.INVITE: "You are invited to {title} #{pk}",
    Outbox.Kind.STARTED: "Your game has started: {title} #{pk}",
}


class LinkRefused(Exception):
    """A mail link that cannot be used; the message is for the player."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def absolute(path: str) -> str:
    """A full URL for a mail."""
    return settings.SITE_URL.rstrip("/") + path


def unsubscribe_url(user_id: int) -> str:
    """A link that turns the player's mail off without logging in."""
    token = signing.dumps({"u": user_id}, salt=UNSUBSCRIBE_SALT, compress=True)
    return absolute(reverse("mail_unsubscribe", args=[token]))


def unsubscribe_user(token: str) -> int:
    """The user id an unsubscribe token was made for; raises LinkRefused when forged."""
    try:
        return int(signing.loads(token, salt=UNSUBSCRIBE_SALT)["u"])
    except (signing.BadSignature, KeyError, TypeError, ValueError) as error:
        raise LinkRefused("This link is not valid.", 400) from error


# --- composing --------------------------------------------------------------------------------


def compose(row: Outbox) -> EmailMultiAlternatives | None:
    """The mail an outbox row stands for, or None when there is nothing to say."""
    ctx: dict[str, Any] = {
        "user": row.user,
        "unsubscribe": unsubscribe_url(row.user_id),
        "settings_url": absolute(reverse("profile")),
        "site": absolute("/"),
    }
    if row.kind == Outbox.Kind.DIGEST:
        games = waiting_games(row.user)
        if not games:
            return None
        ctx["games"] = [{"game": g, "url": absolute(reverse("game", args=[g.pk]))} for g in games]
        subject = f"{len(games)} game{'s' if len(games) != 1 else ''} waiting for you on Chancery"
        return _message(row, subject, "email/digest", ctx)
    game = row.game
    assert game is not None
    game.refresh_from_db()
    ctx.update(
        game=game,
        url=absolute(reverse("game", args=[game.pk])),
        seat=row.seat,
        emblem=emblem(game),
    )
    if row.kind == Outbox.Kind.STARTED:
        # Written when the game started, sent perhaps later: the question asked of them now.
        mine = [s.index for s in game.seats.all() if s.user_id == row.user_id and not s.bot]
        now = [i for i in game.prompted_seats() if i in mine]
        ctx["seat"] = now[0] if now else None
        ctx.update(decision_context(game, row.user_id, ctx["seat"]))
    elif row.kind in (Outbox.Kind.TURN, Outbox.Kind.REMINDER):
        ctx.update(decision_context(game, row.user_id, row.seat))
    elif row.kind == Outbox.Kind.INVITE:
        ctx["host"] = game.created_by
        ctx["players_list"] = [s.label() for s in game.seats.all()]
    elif row.kind == Outbox.Kind.TIMEOUT:
        ctx["take_back"] = absolute(reverse("game", args=[game.pk]))
    elif row.kind == Outbox.Kind.RESULT:
        ctx["result"] = results.result_table(game.result, list(game.seats.all()))
        ctx["timeout"] = (game.result or {}).get("timeout")
    subject = SUBJECTS[Outbox.Kind(row.kind)].format(title=game.scenario.title, pk=game.pk)
    return _message(row, subject, f"email/{row.kind}", ctx)


def _message(
    row: Outbox, subject: str, template: str, ctx: dict[str, Any]
) -> EmailMultiAlternatives:
    text = render_to_string(f"{template}.txt", ctx)
    message = EmailMultiAlternatives(
        subject,
        text,
        to=[row.user.email],
        # One-click unsubscribe (RFC 8058): mail clients POST to the link without a session.
        headers={
            "List-Unsubscribe": f"<{ctx['unsubscribe']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "X-Chancery-Outbox": str(row.pk),
        },
    )
    html = render_to_string(f"{template}.html", {**ctx, "subject": subject})
    message.attach_alternative(html, "text/html")
    return message


def emblem(game: Game) -> dict[str, str]:
    """The game's picture in a mail: its initials on its colour (a mail shows no image by default)."""
    letters, colour = EMBLEMS.get(game.game, (game.game[:3].upper(), "#44505c"))
    return {"letters": letters, "colour": colour, "name": game.engine.title}


def decision_context(game: Game, user_id: int, seat: int | None) -> dict[str, Any]:
    """The prompt, what happened since the seat last moved, the board at a glance, one-click answers."""
    if seat is None or game.state is None:
        return {}
    engine = game.engine
    prompt = engine.prompt_for(game.state, seat)
    view = engine.view(game.state, seat)
    return {
        "prompt": prompt,
        "since": lines_since_last_move(game, seat),
        "glance": glance(game, view),
        "deadline": running_deadline(game, seat),
        "quick": quick_answers(game, user_id, seat, prompt) if prompt else [],
    }


def lines_since_last_move(game: Game, seat: int) -> dict[str, Any]:
    """Log lines the seat may read, from after its own last move (the newest MAX_LOG_LINES)."""
    last = (
        Move.objects.filter(game=game, seat=seat)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    lines: list[str] = []
    for move in Move.objects.filter(game=game, seq__gt=last or 0).order_by("seq"):
        for event in move.events:
            text = event.get("public") or ""
            # Only this seat's private text: another seat's would reveal its hand.
            private = (event.get("private") or {}).get(str(seat))
            if private:
                text = f"{text} {private}".strip()
            if text:
                lines.append(text)
    return {"lines": lines[-MAX_LOG_LINES:], "more": max(len(lines) - MAX_LOG_LINES, 0)}


def glance(game: Game, view: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's headline numbers, from the addressee's view."""
    seats = list(game.seats.all())
    rows = []
    for shown in view.get("seats") or []:
        index = shown.get("seat", shown.get("index"))
        if not isinstance(index, int) or index >= len(seats):
            continue
        numbers = [
            (key.upper() if key == "vp" else key.capitalize(), shown[key])
            for key in GLANCE_KEYS
            if isinstance(shown.get(key), int)
        ]
        rows.append(
            {
                "seat": index,
                "label": seats[index].label(),
                "numbers": numbers,
                "clock": clocks.seat_clock(game, index),
            }
        )
    return rows


# --- deciding from the mail -------------------------------------------------------------------


def is_trivial(engine: Engine, prompt: Prompt | dict[str, Any] | None, action: Any) -> bool:
    """Whether an answer may be made with one click from a mail: a pass or a "no" (looks_like_pass)
    to a prompt of a kind the engine declares trivial (engine.trivial_kinds(): nothing is spent,
    no round ends), among the prompt's own options."""
    if prompt is None or prompt["kind"] not in engine.trivial_kinds():
        return False
    if not looks_like_pass(action):
        return False
    return any(option["action"] == action for option in prompt["options"])


def quick_answers(
    game: Game, user_id: int, seat: int, prompt: Prompt | dict[str, Any]
) -> list[dict[str, str]]:
    """Signed single-use links for the prompt's trivial options, bound to the current seq."""
    answers = []
    engine = game.engine
    for option in prompt["options"]:
        if is_trivial(engine, prompt, option["action"]):
            token = signing.dumps(
                {"u": user_id, "g": game.pk, "s": seat, "q": game.seq, "a": option["action"]},
                salt=ACTION_SALT,
                compress=True,
            )
            answers.append(
                {"label": option["label"], "url": absolute(reverse("mail_action", args=[token]))}
            )
    return answers


def next_question(game: Game, user_id: int) -> dict[str, Any] | None:
    """The question one of the player's own seats must answer now, with its one-click answers."""
    game.refresh_from_db()
    if game.state is None or game.status != Game.Status.ACTIVE:
        return None
    mine = {s.index for s in game.seats.all() if s.user_id == user_id and not s.bot}
    for prompt in game.engine.prompts(game.state):
        if prompt["seat"] in mine:
            quick = quick_answers(game, user_id, prompt["seat"], dict(prompt))
            return {"prompt": prompt, "quick": quick, "seat": prompt["seat"]}
    return None


def read_action(token: str) -> dict[str, Any]:
    """The decision a link carries; raises LinkRefused when forged or expired."""
    try:
        data = signing.loads(token, salt=ACTION_SALT, max_age=ACTION_MAX_AGE)
    except signing.SignatureExpired as error:
        raise LinkRefused("This link has expired; open the game instead.", 410) from error
    except signing.BadSignature as error:
        raise LinkRefused("This link is not valid.", 400) from error
    if not isinstance(data, dict) or not {"u", "g", "s", "q", "a"} <= set(data):
        raise LinkRefused("This link is not valid.", 400)
    return data


# --- what a digest and a decision mail read ---------------------------------------------------


def waiting_games(user: Any) -> list[Game]:
    """Active games where one of the player's own seats (not held by a bot) must decide."""
    games = (
        Game.objects.filter(status=Game.Status.ACTIVE, seats__user=user)
        .distinct()
        .order_by("updated_at")
    )
    waiting = []
    for game in games.select_related("scenario"):
        mine = {s.index for s in game.seats.all() if s.user_id == user.pk and not s.bot}
        if mine & set(game.prompted_seats()):
            waiting.append(game)
    return waiting


def running_deadline(game: Game, seat: int | None) -> datetime | None:
    """When the seat's clock runs out, if it runs."""
    if seat is None:
        return None
    return (
        SeatClock.objects.filter(seat__game=game, seat__index=seat)
        .values_list("deadline", flat=True)
        .first()
    )
