"""What a viewer may see of a game, and the live partials rendered for them.

Everything shown comes from the engine's view for the viewer's seat (or the spectator's view)
and from the events visible to that seat; the raw state never reaches a template.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from games import boards
from games.models import Game, Move
from games.services import seats_of

LOG_LINES = 80
LIVE_PARTIALS = ("prompt", "board", "players", "private", "log")


def may_watch(game_id: int, user: Any) -> bool:
    """Players of a game may watch it; anyone may watch a public one."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return False
    return game.public or bool(seats_of(game, user))


def viewer_seat(game: Game, user: Any) -> int | None:
    """The seat a user sees the game as: the one deciding now among theirs, else their first."""
    mine = seats_of(game, user)
    if not mine:
        return None
    prompted = [i for i in game.prompted_seats() if i in mine]
    return prompted[0] if prompted else mine[0]


def log_lines(game: Game, seat: int | None, limit: int = LOG_LINES) -> list[dict[str, Any]]:
    """The newest log lines visible to a seat: public text, plus that seat's private text."""
    lines: list[dict[str, Any]] = []
    moves = Move.objects.filter(game=game).order_by("-seq")[:limit]
    for move in reversed(list(moves)):
        for event in move.events:
            text = event.get("public")
            private = event.get("private", {}).get(str(seat)) if seat is not None else None
            if private:
                text = f"{text} {private}" if text else private
            if text:
                lines.append({"seq": move.seq, "text": text, "rule": event.get("rule", "")})
    return lines[-limit:]


def context(game: Game, user: Any, oob: bool = False) -> dict[str, Any]:
    """Everything the game page and its live partials need, for one viewer."""
    seat = viewer_seat(game, user)
    seats = list(game.seats.select_related("user", "invited"))
    ctx: dict[str, Any] = {"game": game, "seats": seats, "seat": seat, "oob": oob,
                           "mine": seats_of(game, user), "view": None, "prompt": None,
                           "waiting_on": [], "log": log_lines(game, seat)}
    if game.state is not None:
        engine = game.engine
        ctx["view"] = engine.view(game.state, seat)
        prompts = engine.prompts(game.state) if game.status == Game.Status.ACTIVE else []
        ctx["prompt"] = next((p for p in prompts if p["seat"] == seat), None)
        ctx["waiting_on"] = [
            {"seat": p["seat"], "who": seats[p["seat"]].label(), "kind": p["kind"]} for p in prompts
        ]
        if game.status == Game.Status.FINISHED:
            ctx["result"] = game.result
        ctx["board"] = boards.board_context(game.game, ctx["view"], ctx["prompt"])
    return ctx


def live_fragments(game_id: int, user: Any) -> tuple[int, str] | None:
    """The live partials as out-of-band swaps, or None when the viewer may no longer watch."""
    if not may_watch(game_id, user):
        return None
    game = Game.objects.get(pk=game_id)
    ctx = context(game, user, oob=True)
    html = "".join(render_to_string(f"games/game.html#{name}", ctx) for name in LIVE_PARTIALS)
    return game.seq, html
