"""Dark Age: Feudal Lords on the site: the table (board, table, deciding), cards, the rules page's
sections, and the decks (decks: the service; views and urls: the deck builder's pages; forms:
a deck per seat in the new-game and join forms)."""

from __future__ import annotations

from games.boards.common import Board
from games.boards.feudal import board, rulebook
from rules.feudal.metadata import RULE_SUMMARIES

BOARD = Board(
    game="feudal",
    context=board.board_context,
    headings=rulebook.HEADINGS,
    area=rulebook.area,
    summaries=RULE_SUMMARIES,
    forms="games.boards.feudal.forms",
    urls="games.boards.feudal.urls",
    cards="games.boards.feudal.cards",
)
