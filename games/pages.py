"""What a viewer may see of a game, and the live partials rendered for them.

Everything shown comes from the engine's view for the viewer's seat (or the spectator's view)
and from the events visible to that seat; the raw state never reaches a template.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict
from typing import Any

from django.db.models import Prefetch
from django.template.loader import render_to_string

from games import boards, clocks, rematch, rulebook, undo
from games.access import choose_viewer_seat, may_watch, seats_of, viewer_seat, watchable
from games.models import Game, Move, Seat
from games.results import result_table

LOG_LINES = 80
LIVE_PARTIALS = ("prompt", "board", "tableau", "players", "private", "log")
__all__ = ["may_watch", "result_table", "viewer_seat", "watchable"]


def recent_moves(game: Game, limit: int = LOG_LINES) -> list[Move]:
    """The game's newest moves, newest first, with what the log and undo read of them."""
    return list(
        Move.objects.filter(game=game).order_by("-seq").defer("action", "state_hash")[:limit]
    )


# Engines name seats by number ("Seat 2 rolls", "Otto the Great (seat 1)"); the log names the
# player sitting there instead, by user name (a bot by its kind and level).
SEAT_WORDS = re.compile(r"\(seat (\d)\)|\bSeat (\d)\b")


def named(text: str, names: dict[int, str]) -> str:
    """A line of the log with each seat number replaced by the name of who sits there."""

    def name(match: re.Match[str]) -> str:
        index = int(match.group(1) or match.group(2)) - 1
        who = names.get(index)
        if who is None:
            return match.group(0)
        return f"({who})" if match.group(1) else who

    return SEAT_WORDS.sub(name, text)


def log_lines(
    game: Game,
    seat: int | None,
    limit: int = LOG_LINES,
    recent: list[Move] | None = None,
    moves: list[Move] | None = None,
) -> list[dict[str, Any]]:
    """The newest log lines visible to a seat: public text, plus that seat's private text.

    `moves` (oldest first) gives the lines of those moves instead, for the whole history's pages.
    """
    lines: list[dict[str, Any]] = []
    names = {s.index: s.label() for s in game.seats.all() if s.user_id or s.bot}
    if moves is None:
        moves = list(reversed(recent_moves(game, limit) if recent is None else recent[:limit]))
    links: dict[str, dict[str, str] | None] = {}  # one rule is cited by many lines
    for move in moves:
        for event in move.events:
            text = event.get("public")
            private = event.get("private", {}).get(str(seat)) if seat is not None else None
            if private:
                text = f"{text} {private}" if text else private
            if text:
                rule = event.get("rule", "")
                if rule not in links:
                    links[rule] = rulebook.link(game.game, rule)
                lines.append(
                    {
                        "seq": move.seq,
                        "seat": move.seat,
                        "text": named(text, names),
                        "standing": move.by_standing,
                        "rule": links[rule],
                    }
                )
    return lines[-limit:] if limit else lines


def seat_cards(
    seats: list[Any],
    board: dict[str, Any],
    mine: list[int],
    clocks_by_seat: dict[int, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """One card per seat: who sits there, what the board shows of them, and its clock (if any)."""
    shown = {s["index"]: s for s in board.get("seats", [])}
    return [
        {
            "index": s.index,
            "label": s.label(),
            "mine": s.index in mine,
            "info": shown.get(s.index),
            "clock": (clocks_by_seat or {}).get(s.index),
        }
        for s in seats
    ]


# What each live partial reads from the context: games/game.html, and the board templates it
# includes (those read `board`, `view` and the seat `card` only).
NEEDS: dict[str, tuple[str, ...]] = {
    "prompt": (
        "game",
        "user",
        "mine",
        "prompt",
        "prompt_rule",
        "board",
        "waiting_on",
        "thinking",
        "undo_to",
        "result",
        "rematch",
    ),
    "board": ("view", "board_template", "board"),
    "tableau": ("view", "board_template", "board"),
    "players": ("game", "seat_cards", "board_template", "board", "view", "mine"),
    "private": ("view", "board_template", "board", "mine"),
    "log": ("log", "game"),  # the game names the glossary its lines are explained from
}
CONTEXT_KEYS = (
    "game",
    "seats",
    "seat",
    "mine",
    "user",
    "view",
    "prompt",
    "waiting_on",
    "thinking",
    "board",
    "log",
    "result",
    "prompt_rule",
    "board_template",
    "seat_cards",
    "undo_to",
    "rematch",
)


class Live:
    """One viewer's view of a game, each part computed the first time a partial asks for it.

    The game should come with its seats prefetched (`load`): every helper that reads
    `game.seats.all()` then shares that one query.
    """

    def __init__(self, game: Game, user: Any) -> None:
        self.game = game
        self.user = user

    @functools.cached_property
    def seats(self) -> list[Any]:
        return list(self.game.seats.all())

    @functools.cached_property
    def mine(self) -> list[int]:
        return seats_of(self.game, self.user)

    @functools.cached_property
    def prompts(self) -> list[Any]:
        game = self.game
        if game.state is None or game.status != Game.Status.ACTIVE:
            return []
        return list(game.engine.prompts(game.state))

    @functools.cached_property
    def seat(self) -> int | None:
        return choose_viewer_seat(self.mine, [p["seat"] for p in self.prompts])

    @functools.cached_property
    def view(self) -> Any:
        # The view is the only thing read from the state: it is what this seat may know.
        return (
            self.game.engine.view(self.game.state, self.seat)
            if self.game.state is not None
            else None
        )

    @functools.cached_property
    def prompt(self) -> Any:
        if self.game.state is None:
            return None
        return next((p for p in self.prompts if p["seat"] == self.seat), None)

    @functools.cached_property
    def prompt_rule(self) -> dict[str, str] | None:
        return rulebook.link(self.game.game, self.prompt["rule"]) if self.prompt else None

    @functools.cached_property
    def deciding(self) -> list[dict[str, Any]]:
        if self.game.state is None:
            return []
        return [
            {
                "seat": p["seat"],
                "who": self.seats[p["seat"]].label(),
                "kind": p["kind"],
                "bot": bool(self.seats[p["seat"]].bot),
            }
            for p in self.prompts
        ]

    @functools.cached_property
    def waiting_on(self) -> list[dict[str, Any]]:
        """The players (not bots) who must decide now."""
        return [d for d in self.deciding if not d["bot"]]

    @functools.cached_property
    def thinking(self) -> list[dict[str, Any]]:
        """The bots deciding now: their turn is owed to a worker, so they are thinking."""
        return [d for d in self.deciding if d["bot"]] if not self.game.paused else []

    @functools.cached_property
    def board(self) -> dict[str, Any]:
        if self.game.state is None:
            return {}
        return boards.board_context(self.game.game, self.view, self.prompt)

    @functools.cached_property
    def result(self) -> dict[str, Any] | None:
        if self.game.state is None or self.game.status != Game.Status.FINISHED:
            return None
        return result_table(self.game.result, self.seats)

    @functools.cached_property
    def board_template(self) -> str | None:
        return f"games/boards/{self.game.game}.html" if boards.has_board(self.game.game) else None

    @functools.cached_property
    def recent(self) -> list[Move]:
        return recent_moves(self.game, max(LOG_LINES, undo.MAX_STEPS))

    @functools.cached_property
    def log(self) -> list[dict[str, Any]]:
        return log_lines(self.game, self.seat, recent=self.recent)

    @functools.cached_property
    def seat_cards(self) -> list[dict[str, Any]]:
        return seat_cards(self.seats, self.board, self.mine, clocks.seat_clocks(self.game))

    @functools.cached_property
    def undo_to(self) -> int | None:
        if not self.mine or self.game.status != Game.Status.ACTIVE:
            return None
        # The log's moves serve undo too when they have been read already.
        return undo.available(self.game, self.user, self.__dict__.get("recent"))

    @functools.cached_property
    def rematch(self) -> dict[str, Any] | None:
        return rematch.status(self.game, self.user)

    def context(self, partials: tuple[str, ...] | None = None, oob: bool = False) -> dict[str, Any]:
        """The template context for these partials (every key the game page needs by default)."""
        if partials is None:
            keys: tuple[str, ...] | set[str] = CONTEXT_KEYS
        else:
            keys = {key for name in partials for key in NEEDS.get(name, CONTEXT_KEYS)}
        if "log" in keys and "undo_to" in keys:
            self.recent  # noqa: B018 (read once for both)
        ctx = {key: getattr(self, key) for key in CONTEXT_KEYS if key in keys}
        ctx["oob"] = oob
        return ctx


def load(game_id: int) -> Game | None:
    """A game with its seats (and their players) in one more query, or None."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user", "invited"))
    return Game.objects.filter(pk=game_id).prefetch_related(seats).first()


def context(game: Game, user: Any, oob: bool = False) -> dict[str, Any]:
    """Everything the game page and its live partials need, for one viewer."""
    return Live(game, user).context(oob=oob)


def live_render(
    game_id: int, user: Any, only: tuple[str, ...] | None = None
) -> tuple[Game, str] | None:
    """The game as read and its live partials as out-of-band swaps; None when the viewer may not watch."""
    game = load(game_id)
    if game is None or not watchable(game, user):
        return None
    partials = only or LIVE_PARTIALS
    live = Live(game, user)
    ctx = live.context(partials, oob=True)
    html = "".join(_render(name, ctx, live) for name in partials)
    return game, html


def live_fragments(
    game_id: int, user: Any, only: tuple[str, ...] | None = None
) -> tuple[int, str] | None:
    """The live partials as out-of-band swaps, or None when the viewer may no longer watch."""
    rendered = live_render(game_id, user, only)
    return None if rendered is None else (rendered[0].seq, rendered[1])


# Partials that depend on the state and the viewer's seat only: every socket of the same seat (or
# every spectator) at the same position shares one render of them, per process.
SHARED_PARTIALS = frozenset({"board", "tableau", "log"})
SHARED_RENDERS = 64
_renders: OrderedDict[tuple[Any, ...], str] = OrderedDict()
_renders_lock = threading.Lock()


def _render(name: str, ctx: dict[str, Any], live: Live) -> str:
    if name not in SHARED_PARTIALS:
        return render_to_string(f"games/game.html#{name}", ctx)
    game = live.game
    # updated_at moves with every save of the game (a move, an undo, a timeout), seq alone not.
    key = (game.pk, game.game, game.seq, game.updated_at, game.status, live.seat, name)
    with _renders_lock:
        html = _renders.get(key)
        if html is not None:
            _renders.move_to_end(key)
            return html
    html = render_to_string(f"games/game.html#{name}", ctx)
    with _renders_lock:
        _renders[key] = html
        while len(_renders) > SHARED_RENDERS:
            _renders.popitem(last=False)
    return html
