"""Each game's part of the site, one package per game (hre/, ema/, feudal/), and their registry.

A package draws its game's board from a seat's view and its engine's metadata, heads its rules
page, and may add fields to the new-game and join forms and pages of its own (Feudal Lords'
decks). A game joins the site with one line in BOARDS.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol, cast

from games.boards import ema, feudal, hre
from games.boards.common import Board, Prompt, View
from games.boards.feudal import odds as feudal_odds
from games.boards.hre import odds as hre_odds

if TYPE_CHECKING:
    from games.models import Game, Scenario, Seat
    from games.requests import UserRequest
    from games.services import SeatSpec

BOARDS: dict[str, Board] = {board.game: board for board in (hre.BOARD, ema.BOARD, feudal.BOARD)}


class GameForms(Protocol):
    """A game's own fields in the new-game and join forms (a module named by Board.forms)."""

    def new_game_context(self, request: UserRequest) -> dict[str, Any]:
        """What the new-game form shows for this game."""

    def create_game(
        self,
        request: UserRequest,
        scenario: Scenario,
        players: int,
        seats: list[SeatSpec],
        options: dict[str, Any],
        public: bool,
        time_control: Any,
    ) -> Game:
        """Create a game of this kind from the new-game form."""

    def create_from_api(
        self,
        user: Any,
        scenario: Scenario,
        players: int,
        seats: list[SeatSpec],
        values: list[str],
        options: dict[str, Any],
        public: bool,
    ) -> Game:
        """Create a game of this kind from the API, with each seat's own value (a deck)."""

    def join(self, request: UserRequest, game: Game, index: int | None) -> Seat:
        """Take a seat in an open game of this kind from the join form."""


def find(game: str) -> Board | None:
    """The game's board, or None for a game the site cannot draw."""
    return BOARDS.get(game)


def has_board(game: str) -> bool:
    """Whether the site can draw this game's board (its template is games/boards/<game>.html)."""
    return game in BOARDS


# The odds a player works out at the table, shown beside the choices that roll dice: one note per
# option of the prompt (a game's Endeavor odds that depend on the board live in its board instead).
OPTION_NOTES: dict[str, Callable[[View, Prompt | None], list[str]]] = {
    "feudal": feudal_odds.notes,
    "hre": hre_odds.notes,
}


def board_context(game: str, view: View, prompt: Prompt | None) -> dict[str, Any]:
    """What the game's board template needs, from the viewer's view and prompt; empty if none."""
    board = BOARDS.get(game)
    if board is None:
        return {}
    ctx = board.context(view, prompt)
    notes = OPTION_NOTES[game](view, prompt) if game in OPTION_NOTES else []
    return {**ctx, "option_notes": notes} if any(notes) else ctx


def forms(game: str) -> GameForms | None:
    """The game's own new-game and join fields, or None when the common form is all it needs."""
    board = BOARDS.get(game)
    return cast(GameForms, import_module(board.forms)) if board and board.forms else None


def new_game_context(request: UserRequest) -> dict[str, Any]:
    """What every game adds to the new-game form."""
    found: dict[str, Any] = {}
    for board in BOARDS.values():
        own = forms(board.game)
        if own is not None:
            found.update(own.new_game_context(request))
    return found


def url_modules() -> list[str]:
    """The modules holding the pages some games add (Feudal Lords' deck builder)."""
    return [board.urls for board in BOARDS.values() if board.urls]
