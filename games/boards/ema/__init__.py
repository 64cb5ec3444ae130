"""Empires of the Middle Ages on the site: the map (board, layout), the tableau, cards, Effectiveness
Ratings, the rules page's sections."""

from __future__ import annotations

from games.boards.common import Board
from games.boards.ema import board, rulebook
from rules.ema.metadata import RULE_SUMMARIES

BOARD = Board(
    game="ema",
    context=board.board_context,
    headings=rulebook.HEADINGS,
    area=rulebook.area,
    summaries=RULE_SUMMARIES,
)
