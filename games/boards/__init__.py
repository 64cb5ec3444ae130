"""Game-specific drawing: each game's board context lives in one module here."""

from __future__ import annotations

from typing import Any

from games.boards import hre

BOARDS = {"hre": hre.board_context}


def board_context(game: str, view: dict[str, Any], prompt: dict[str, Any] | None) -> dict[str, Any]:
    """What the game's board template needs, from the viewer's view and prompt."""
    return BOARDS[game](view, prompt)
