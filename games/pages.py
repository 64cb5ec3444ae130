"""What a viewer may see of a game, and the live partials rendered for them.

Everything shown comes from the engine's view for the viewer's seat (or the spectator's view)
and from the events visible to that seat; the raw state never reaches a template.
"""

from __future__ import annotations

import functools
import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import orjson
from django.template.loader import render_to_string

from games import boards, clocks, rematch, rows, rulebook, undo
from games.access import choose_viewer_seat, may_watch, seats_of, viewer_seat, watchable
from games.kept import Kept
from games.models import Game, Move
from games.results import result_table

LOG_LINES = 80
LOG_FIELDS = ("seq", "seat", "events", "by_standing")  # what a log line reads of its move
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


def seat_names(game: Game) -> dict[int, str]:
    """Who sits at each taken seat, as the log names them."""
    return {s.index: s.label() for s in game.seats.all() if s.user_id or s.bot}


def log_lines(
    game: Game,
    seat: int | None,
    limit: int = LOG_LINES,
    recent: list[Move] | None = None,
    moves: list[Move] | None = None,
) -> list[dict[str, Any]]:
    """The log lines of the newest `limit` moves visible to a seat: public text, plus that seat's
    private text. (A window of moves, not of lines, so that a page adding the lines of each new
    move can drop the same old ones: static/js/chancery.js.)

    `moves` (oldest first) gives the lines of those moves instead, for the whole history's pages.
    """
    lines: list[dict[str, Any]] = []
    names = seat_names(game)
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
    return lines


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
        ctx["log_keep"] = LOG_LINES
        # Part of every digest: renders are shared only between viewers of the same seat (or
        # between spectators), whatever a template reads.
        ctx["viewer_seat"] = self.seat
        return ctx


def load(game_id: int) -> Game | None:
    """A game with its seats (their players and clocks) in one more query, or None."""
    return rows.game_with_seats(game_id)


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
    html = "".join(_render(name, ctx) for name in partials)
    return game, html


def live_fragments(
    game_id: int, user: Any, only: tuple[str, ...] | None = None
) -> tuple[int, str] | None:
    """The live partials as out-of-band swaps, or None when the viewer may no longer watch."""
    rendered = live_render(game_id, user, only)
    return None if rendered is None else (rendered[0].seq, rendered[1])


# --- what a socket is sent -------------------------------------------------------------------
#
# Each live partial declares its inputs (NEEDS). A digest of those inputs names a render: the
# render cache is keyed by it, so a partial whose inputs did not change since any viewer's last
# push is not drawn again, and every socket of the same viewer and position shares one render.
# A socket remembers the digests it has sent (Sent) and is pushed only the partials whose digest
# changed; the log, which grows by a few lines a move, is sent as those lines alone.

RENDERS = 256  # about 6 MB at most: the largest partial (an EMA map) is ~25 KB
Children = list[tuple[str, str, bytes]]  # (id, html, digest of the html) of each top-level child
_renders: OrderedDict[tuple[str, bytes], tuple[str, Children | None]] = OrderedDict()
_renders_lock = threading.Lock()


def _plain(value: Any) -> Any:
    """What a digest reads of a value JSON cannot hold: a model's identity and what moves it."""
    if isinstance(value, Game):
        # updated_at moves with every save of the game (a move, an undo, a timeout); the fields
        # a queryset update() may change without it are named too.
        return ["game", value.pk, value.seq, value.status, value.paused, value.updated_at]
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, range):
        return ["range", value.start, value.stop, value.step]
    if getattr(value, "is_anonymous", False):
        return ["anonymous"]
    if hasattr(value, "_meta") and hasattr(value, "pk"):
        return [value._meta.label, value.pk]
    raise TypeError(f"no digest for {type(value).__name__}")


# The big inputs (the engine's view and the board context drawn from it) are read by key: a
# partial's digest covers only the keys its templates name (`board.provinces`, `view.hand`), found
# in the template sources below, so a move that changes the offer row does not redraw the map.
# tests/games/test_live_diffs.py plays games and checks that an equal digest means an equal render.
KEYED = ("board", "view")
_TAG = re.compile(r"{%\s*(end)?partialdef\b\s*(\w*)[^%]*%}")
_CODE = re.compile(r"{{.*?}}|{%.*?%}", re.S)  # template code, not the HTML around it
_USE = re.compile(r"(?<![\w.])(board|view)\b(\.\w+)?(?![\w])")
_PARTIAL = re.compile(r"{%\s*partial\s+(\w+)\s*%}")
_INCLUDED = re.compile(r'board_template\|add:"#(\w+)"')
_INCLUDE = re.compile(r'{%\s*include\s+"([^"#]+)#(\w+)"')
_ANY_INCLUDE = re.compile(r'{%\s*include\s+(?!"[^"#]+#\w+"|board_template\|add:"#\w+")')


def _partials(source: str) -> dict[str, str]:
    """Each {% partialdef %} of a template source and its body (nested ones included)."""
    bodies: dict[str, str] = {}
    stack: list[tuple[str, int]] = []
    for tag in _TAG.finditer(source):
        if tag.group(1):
            if stack:
                name, start = stack.pop()
                bodies[name] = source[start : tag.start()]
        else:
            stack.append((tag.group(2), tag.end()))
    return bodies


def _template_source(name: str) -> str:
    from django.template.loader import get_template

    template: Any = get_template(name)
    return str(template.template.source)


@functools.cache
def _template_partials(name: str) -> dict[str, str]:
    return _partials(_template_source(name))


@functools.cache
def keys_read(game: str, partial: str) -> dict[str, frozenset[str] | None]:
    """For `board` and `view`: the keys the live partial reads, or None when it reads them whole.

    An empty set means only whether the value is there ({% if view %}). The partial is followed
    into the partials it renders: {% partial %}, the game's board template, {% include "x#y" %}.
    """
    board_template = f"games/boards/{game}.html" if boards.has_board(game) else ""
    found: dict[str, set[str] | None] = {name: set() for name in KEYED}
    seen: set[tuple[str, str]] = set()

    def walk(template: str, name: str) -> None:
        bodies = _template_partials(template)
        if (template, name) in seen or name not in bodies:
            return
        seen.add((template, name))
        body = bodies[name]
        for code in _CODE.finditer(body):
            for use in _USE.finditer(code.group(0)):
                keys = found[use.group(1)]
                if keys is None:
                    continue
                if use.group(2):
                    keys.add(use.group(2)[1:])
                elif not code.group(0)[2:].lstrip().startswith(("if ", "elif ")):
                    found[use.group(1)] = None  # read whole (passed on, filtered, looked up)
        for inner in _PARTIAL.findall(body):
            walk(template, inner)
        for inner in _INCLUDED.findall(body):
            if board_template:
                walk(board_template, inner)
        for other, inner in _INCLUDE.findall(body):
            walk(other, inner)
        if _ANY_INCLUDE.search(body):
            # An include this walk cannot follow: count the whole board and view as read.
            found.update(dict.fromkeys(KEYED))

    walk("games/game.html", partial)
    return {k: None if v is None else frozenset(v) for k, v in found.items()}


def _inputs(name: str, ctx: dict[str, Any]) -> list[Any]:
    reads = keys_read(ctx["game"].game, name) if "game" in ctx else {}
    inputs: list[Any] = []
    for key in NEEDS.get(name, CONTEXT_KEYS):
        value = ctx.get(key)
        keys = reads.get(key) if key in KEYED else None
        if key in KEYED and keys is not None and isinstance(value, dict):
            value = [bool(value)] + [value.get(k) for k in sorted(keys)]
        inputs.append(value)
    return inputs


def digest(name: str, ctx: dict[str, Any]) -> bytes | None:
    """A digest of what the partial `name` reads of `ctx`; None when some input has no digest
    (the partial is then drawn every time: never a stale page)."""
    game_id = ctx["game"].pk if "game" in ctx else None
    try:
        data = orjson.dumps(
            [name, ctx.get("oob", False), game_id, ctx.get("viewer_seat"), _inputs(name, ctx)],
            default=_plain,
            option=orjson.OPT_NON_STR_KEYS,
        )
    except TypeError:
        return None
    return hashlib.blake2b(data, digest_size=16).digest()


def _render(name: str, ctx: dict[str, Any], key: bytes | None = None) -> str:
    """The partial drawn for this context, from the shared cache when its inputs were drawn before."""
    return _drawn(name, ctx, key)[0]


def _drawn(name: str, ctx: dict[str, Any], key: bytes | None) -> tuple[str, Children | None]:
    if key is None:
        html = render_to_string(f"games/game.html#{name}", ctx)
        return html, _children(name, html)
    with _renders_lock:
        found = _renders.get((name, key))
        if found is not None:
            _renders.move_to_end((name, key))
            return found
    html = render_to_string(f"games/game.html#{name}", ctx)
    drawn = html, _children(name, html)
    with _renders_lock:
        _renders[(name, key)] = drawn
        while len(_renders) > RENDERS:
            _renders.popitem(last=False)
    return drawn


# Partials whose top-level children carry ids, so a socket may be sent only the children that
# changed: the tableau's sections and the seat cards (the prompt changes whole).
SPLIT = frozenset({"tableau", "players"})
# Partials holding a map, one SVG whose registers (<g id="area-…">, <g id="prov-…">) change a
# few at a time: a socket that has the rest of the map is sent only the registers that changed.
SVG_SPLIT = frozenset({"board"})
SKELETON = ""  # the children's key for everything of the partial that is not one of them


def _children(name: str, html: str) -> Children | None:
    if name in SPLIT:
        return split(html)
    return svg_split(html) if name in SVG_SPLIT else None


VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
# One "<" first (the engine then skips to each "<" at once), runs of attribute text taken whole:
# the same matches as a comment-or-tag alternation (checked on every golden page), in about
# three quarters of its time.
_TAGS = re.compile(r"<(?:!--.*?-->|(/?)([a-zA-Z][\w:-]*)((?:[^>\"']+|\"[^\"]*\"|'[^']*')*)>)", re.S)
_ID = re.compile(r"""\sid=["']([^"']+)["']""")


def split(html: str) -> Children | None:
    """The root element's children, when each has an id and only whitespace sits between them.

    A socket that has the partial already is then sent only the children that changed (each
    swapped by its id), not the whole partial. None when the html is not so made.

    A move changes one or two of a tableau's sections or seat cards, so most children are the
    text of a child seen before: those are recognised by their text and only the new ones are
    tokenised (a quarter of a socket's render went on tokenising the whole partial). Anything
    out of the ordinary goes to `split_whole`, which gives the same answer.
    """
    root = _TAGS.search(html)
    if (
        root is None
        or root.group(2) is None
        or root.group(1)
        or root.group(3).endswith("/")
        or root.group(2).lower() in VOID
        or html[: root.start()].strip()
    ):
        return split_whole(html)
    children: Children = []
    pos = root.end()
    while True:
        pos = _SPACE.match(html, pos).end()  # type: ignore[union-attr]
        tag = _TAGS.match(html, pos)
        if tag is None or tag.group(2) is None:
            return split_whole(html)  # text or a comment between the children
        if tag.group(1):  # the root's end: nothing but whitespace may follow
            if tag.group(2) != root.group(2) or html[tag.end() :].strip() or not children:
                return split_whole(html)
            return children
        child = _known_child(html, pos, tag)
        if child is None:
            return split_whole(html)
        children.append(child)
        pos += len(child[1])


_SPACE = re.compile(r"\s*")
# Children already tokenised, by their opening tag: the newest few texts under each. A tableau
# section is up to ~10 KB, so at most ~20 MB; with many games at once a child may have to be
# tokenised again, never answered wrong.
_children_seen: Kept[str, tuple[tuple[str, str, bytes], ...]] = Kept(512)
CHILDREN_PER_TAG = 4


def _known_child(html: str, pos: int, tag: re.Match[str]) -> tuple[str, str, bytes] | None:
    """The child element that starts at `pos` (its id, html, digest); None when it has no id
    or does not close."""
    opening = tag.group(0)
    seen = _children_seen.get(opening) or ()
    for child in seen:
        if html.startswith(child[1], pos):
            return child
    found = _ID.search(tag.group(3))
    if found is None:
        return None
    depth = 0
    for inner in _TAGS.finditer(html, pos):
        closing, name, attrs = inner.group(1), inner.group(2), inner.group(3)
        if name is None:
            continue
        if closing:
            depth -= 1
        elif not attrs.endswith("/") and name.lower() not in VOID:
            depth += 1
        if depth == 0:
            part = html[pos : inner.end()]
            child = (found.group(1), part, hashlib.blake2b(part.encode(), digest_size=16).digest())
            _children_seen.put(opening, (child, *seen[: CHILDREN_PER_TAG - 1]))
            return child
    return None


def split_whole(html: str) -> Children | None:
    """`split` by tokenising all of the html: what `split` must give (the tests compare)."""
    depth, start, child_id = 0, 0, ""
    spans: list[tuple[str, int, int]] = []
    inner = [0, 0]  # where the root's content starts and ends
    for tag in _TAGS.finditer(html):
        closing, name, attrs = tag.group(1), tag.group(2), tag.group(3)
        if name is None:  # a comment
            if depth == 1:
                return None
            continue
        opening = not closing
        if opening and depth == 0:
            inner[0] = tag.end()
        if opening and depth == 1:
            found = _ID.search(attrs)
            if found is None:
                return None
            start, child_id = tag.start(), found.group(1)
        if opening and not attrs.endswith("/") and name.lower() not in VOID:
            depth += 1
        elif opening and depth == 1:
            spans.append((child_id, start, tag.end()))
        if closing:
            depth -= 1
            if depth == 1:
                spans.append((child_id, start, tag.end()))
            elif depth == 0:
                inner[1] = tag.start()
    if depth != 0 or not spans:
        return None
    # Nothing but whitespace between the children: else the swap would lose it.
    edges = [inner[0]] + [edge for _, a, b in spans for edge in (a, b)] + [inner[1]]
    if any(html[a:b].strip() for a, b in zip(edges[::2], edges[1::2], strict=False)):
        return None
    children: Children = []
    for cid, a, b in spans:
        part = html[a:b]
        children.append((cid, part, hashlib.blake2b(part.encode(), digest_size=16).digest()))
    return children


SWAPPABLE_ID = re.compile(r"[A-Za-z][\w-]*")


def svg_split(html: str) -> Children | None:
    """The parts with ids of a map partial, after its skeleton (the rest of the html, each part
    cut out; its digest says whether anything else changed): the children of its one <svg>, and
    the children of the partial's root element beside the svg.

    None when the html holds no <svg>, several, or no part with an id.
    """
    depth, svg_depth, seen_svg = 0, -1, False
    spans: list[tuple[str, int, int]] = []
    opened: dict[int, tuple[str, int]] = {}
    for tag in _TAGS.finditer(html):
        closing, name, attrs = tag.group(1), tag.group(2), tag.group(3)
        if name is None:
            continue
        lname = name.lower()
        if closing:
            if depth in opened:
                cid, start = opened.pop(depth)
                spans.append((cid, start, tag.end()))
            depth -= 1
            if lname == "svg":
                svg_depth = -1
            continue
        found = _ID.search(attrs)
        part = (depth == 1 and lname != "svg") or depth == svg_depth + 1 > 0
        cid = found.group(1) if part and found and SWAPPABLE_ID.fullmatch(found.group(1)) else ""
        if lname == "svg":
            if seen_svg:
                return None  # a second map: not one to take apart
            seen_svg, svg_depth = True, depth
        if attrs.endswith("/") or lname in VOID:
            if cid:
                spans.append((cid, tag.start(), tag.end()))
            continue
        depth += 1
        if cid:
            opened[depth] = (cid, tag.start())
    spans.sort(key=lambda span: span[1])
    if not seen_svg or not spans or depth != 0:
        return None
    if any(b > a2 for (_, _, b), (_, a2, _) in zip(spans, spans[1:], strict=False)):
        return None  # a part inside another
    skeleton, at, children = [], 0, []
    for cid, a, b in spans:
        skeleton.append(html[at:a] + f"<#{cid}>")
        piece = html[a:b]
        children.append((cid, piece, hashlib.blake2b(piece.encode(), digest_size=16).digest()))
        at = b
    skeleton.append(html[at:])
    rest = "".join(skeleton).encode()
    return [(SKELETON, "", hashlib.blake2b(rest, digest_size=16).digest()), *children]


# The elements of an SVG map a push may carry one by one: they must be parsed as SVG.
SVG_ELEMENTS = re.compile(r"<(g|path|line|polyline|polygon|rect|circle|ellipse|text|use)[\s/>]")


def _swap_by_id(child: str) -> str:
    """A child element made an out-of-band swap of the element with its id."""
    name_end = next(i for i, ch in enumerate(child) if i > 0 and (ch.isspace() or ch in "/>"))
    return f'{child[:name_end]} hx-swap-oob="true"{child[name_end:]}'


@dataclass
class Sent:
    """What one socket has been sent: each partial's digest, and how far its log reaches."""

    digests: dict[str, bytes] = field(default_factory=dict)
    children: dict[str, dict[str, bytes]] = field(default_factory=dict)
    # The log shows the lines of every move up to log_seq, as seen from log_seat with these
    # seat names (log_names); log_lines says whether it shows any line at all.
    log_seq: int | None = None
    log_seat: int | None = None
    log_names: dict[int, str] = field(default_factory=dict)
    log_lines: int = 0

    def forget(self) -> None:
        self.digests.clear()
        self.children.clear()
        self.log_seq = None


def live_update(
    game_id: int, user: Any, sent: Sent, force: bool = False
) -> tuple[Game, str] | None:
    """The partials this socket has not been sent in their current form, as out-of-band swaps.

    `sent` is updated to what the returned html shows. `force` sends every partial whole (an
    undo, a reconnect). None when the viewer may no longer watch.
    """
    game = load(game_id)
    if game is None or not watchable(game, user):
        return None
    if force:
        sent.forget()
    live = Live(game, user)
    drawn = tuple(name for name in LIVE_PARTIALS if name != "log")
    ctx = live.context(drawn, oob=True)
    parts: list[str] = []
    for name in drawn:
        key = digest(name, ctx)
        if key is not None and sent.digests.get(name) == key:
            continue
        parts.append(_changed_part(name, ctx, key, sent))
        if key is None:
            sent.digests.pop(name, None)
        else:
            sent.digests[name] = key
    parts.append(_log_update(live, sent))
    return game, "".join(parts)


def _changed_part(name: str, ctx: dict[str, Any], key: bytes | None, sent: Sent) -> str:
    """The partial whole, or only its children that changed when the socket has the rest."""
    html, children = _drawn(name, ctx, key)
    before = sent.children.pop(name, None)
    if children is None:
        return html
    now = {cid: h for cid, _, h in children}
    sent.children[name] = now
    if before is None or list(before) != list(now) or before.get(SKELETON) != now.get(SKELETON):
        return html
    changed = [(cid, part) for cid, part, h in children if cid != SKELETON and before[cid] != h]
    return "".join(_swap_part(cid, part) for cid, part in changed)


def _swap_part(cid: str, part: str) -> str:
    """A changed child as an out-of-band swap of the element with its id.

    Parsed inside an <svg>, a map register keeps the SVG namespace; the page's "svg" swap
    (static/js/chancery.js) then puts it in place of the element with its id.
    """
    if SVG_ELEMENTS.match(part):
        return f'<svg hx-swap-oob="svg:#{cid}">{part}</svg>'
    return _swap_by_id(part)


def _log_update(live: Live, sent: Sent) -> str:
    """The log whole, or only the lines of the moves this socket has not been sent.

    Moves are never changed, only taken back by an undo (which pushes everything), so the lines
    a socket shows stay right while it sees the log from the same seat with the same names.
    """
    game, names = live.game, seat_names(live.game)
    appendable = (
        sent.log_seq is not None
        and sent.log_lines > 0
        and sent.log_seat == live.seat
        and sent.log_names == names
        and sent.log_seq <= game.seq
    )
    sent.log_seat, sent.log_names = live.seat, names
    if not appendable:
        sent.log_seq, sent.log_lines = game.seq, len(live.log)
        ctx = {"log": live.log, "game": game, "oob": True, "log_keep": LOG_LINES}
        ctx["viewer_seat"] = live.seat
        key = digest("log", ctx)
        if key is not None and sent.digests.get("log") == key:
            return ""  # an empty log that is still empty
        sent.digests["log"] = key if key is not None else b""
        return _render("log", ctx, key)
    assert sent.log_seq is not None
    if sent.log_seq == game.seq:
        return ""
    sent.digests.pop("log", None)  # the socket's log is no longer one whole render
    moves = rows.moves_between(game.pk, sent.log_seq, game.seq, LOG_FIELDS)
    sent.log_seq = game.seq
    lines = log_lines(game, live.seat, moves=moves)
    sent.log_lines += len(lines)
    if not lines:
        return ""
    # The page keeps the lines of the newest LOG_LINES moves (static/js/chancery.js trims them).
    return render_to_string("games/game.html#log_lines", {"lines": lines, "game": game})
