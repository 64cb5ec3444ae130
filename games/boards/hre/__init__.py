"""Dark Ages: Holy Roman Empire on the site: the map (board), the tableau, cards, the rules page's sections."""

from __future__ import annotations

from games.boards.common import Board
from games.boards.hre import board, rulebook
from rules.hre.metadata import RULE_SUMMARIES

BOARD = Board(
    game="hre",
    context=board.board_context,
    headings=rulebook.HEADINGS,
    area=rulebook.area,
    intro=rulebook.intro,
    summaries=RULE_SUMMARIES,
)
