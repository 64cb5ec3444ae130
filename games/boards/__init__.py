"""Game-specific drawing: each game's board context lives in one module here."""

from __future__ import annotations

from typing import Any

from games.boards import ema, feudal, hre

BOARDS = {"hre": hre.board_context, "feudal": feudal.board_context, "ema": ema.board_context}


def has_board(game: str) -> bool:
    """Whether the site can draw this game's board (its template is games/boards/<game>.html)."""
    return game in BOARDS


def board_context(game: str, view: dict[str, Any], prompt: dict[str, Any] | None) -> dict[str, Any]:
    """What the game's board template needs, from the viewer's view and prompt; empty if none."""
    draw = BOARDS.get(game)
    return draw(view, prompt) if draw else {}
