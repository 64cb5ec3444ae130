"""What a viewer may see of a game, and the live partials rendered for them.

Everything shown comes from the engine's view for the viewer's seat (or the spectator's view)
and from the events visible to that seat; the raw state never reaches a template.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from games import boards, rematch, rulebook, undo
from games.models import Game, Move
from games.services import seats_of

LOG_LINES = 80
LIVE_PARTIALS = ("prompt", "board", "tableau", "players", "private", "log")
# Result categories whose engine key reads badly once title-cased.
CATEGORY_NAMES = {"vp_track": "VP track"}


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
                lines.append({"seq": move.seq, "seat": move.seat, "text": text, "standing": move.by_standing,
                              "rule": rulebook.link(game.game, event.get("rule", ""))})
    return lines[-limit:]


def result_table(result: dict[str, Any] | None, seats: list[Any]) -> dict[str, Any] | None:
    """The final standings: rows by rank, one column per scoring category the engine reports."""
    if not result or not result.get("seats"):
        return None
    columns: list[str] = []
    for row in result["seats"]:
        columns += [k for k in row.get("breakdown", {}) if k not in columns]
    rows = [{"rank": row["rank"], "seat": row["seat"], "score": row["score"],
             "label": seats[row["seat"]].label() if row["seat"] < len(seats) else f"Seat {row['seat'] + 1}",
             "cells": [row.get("breakdown", {}).get(c, 0) for c in columns]}
            for row in sorted(result["seats"], key=lambda r: (r["rank"], r["seat"]))]
    names = [CATEGORY_NAMES.get(c, c.replace("_", " ").capitalize()) for c in columns]
    return {"columns": names, "rows": rows}


def seat_cards(seats: list[Any], board: dict[str, Any], mine: list[int]) -> list[dict[str, Any]]:
    """One card per seat: who sits there, and what the board shows of them."""
    shown = {s["index"]: s for s in board.get("seats", [])}
    return [{"index": s.index, "label": s.label(), "mine": s.index in mine, "info": shown.get(s.index)}
            for s in seats]


def context(game: Game, user: Any, oob: bool = False) -> dict[str, Any]:
    """Everything the game page and its live partials need, for one viewer."""
    seat = viewer_seat(game, user)
    seats = list(game.seats.select_related("user", "invited"))
    mine = seats_of(game, user)
    ctx: dict[str, Any] = {"game": game, "seats": seats, "seat": seat, "oob": oob, "mine": mine, "user": user,
                           "view": None, "prompt": None, "waiting_on": [], "board": {},
                           "log": log_lines(game, seat), "result": None, "prompt_rule": None,
                           "board_template": f"games/boards/{game.game}.html" if boards.has_board(game.game) else None}
    if game.state is not None:
        engine = game.engine
        # The view is the only thing read from the state: it is what this seat may know.
        ctx["view"] = engine.view(game.state, seat)
        prompts = engine.prompts(game.state) if game.status == Game.Status.ACTIVE else []
        ctx["prompt"] = next((p for p in prompts if p["seat"] == seat), None)
        ctx["prompt_rule"] = rulebook.link(game.game, ctx["prompt"]["rule"]) if ctx["prompt"] else None
        ctx["waiting_on"] = [
            {"seat": p["seat"], "who": seats[p["seat"]].label(), "kind": p["kind"]} for p in prompts
        ]
        if game.status == Game.Status.FINISHED:
            ctx["result"] = result_table(game.result, seats)
        ctx["board"] = boards.board_context(game.game, ctx["view"], ctx["prompt"])
    ctx["seat_cards"] = seat_cards(seats, ctx["board"], mine)
    ctx["undo_to"] = undo.available(game, user) if mine and game.status == Game.Status.ACTIVE else None
    ctx["rematch"] = rematch.status(game, user)
    return ctx


def live_fragments(game_id: int, user: Any, only: tuple[str, ...] | None = None) -> tuple[int, str] | None:
    """The live partials as out-of-band swaps, or None when the viewer may no longer watch."""
    if not may_watch(game_id, user):
        return None
    game = Game.objects.get(pk=game_id)
    ctx = context(game, user, oob=True)
    html = "".join(render_to_string(f"games/game.html#{name}", ctx) for name in only or LIVE_PARTIALS)
    return game.seq, html
