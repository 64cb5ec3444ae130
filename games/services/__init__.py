"""The game lifecycle layer: the only code that changes a game (writes Game rows).

Where each thing lives (the import order runs down this list; nothing imports upwards):

    games/models.py          the tables
    games/errors.py          MoveRefused, the refusal every layer raises
    games/access.py          who holds which seat, who may watch (reads)
    games/jobs.py            durable job rows and how tasks run (the leaf that queues work)
    games/live.py            the ids-only push to a game's sockets
    games/botkinds.py        the bots offered, read from the registry rules.bots.BOTS
    games/clocks.py          what a clock shows (reads); games/undo.py, games/rematch.py,
                             games/results.py, games/standing.py: reads of their part
    games/emails.py          mail rendering only; games/notify.py the outbox and its drain
    games/services/          THIS LAYER:
        locking.py           `locked(game_id)`: the one way to take a game (row lock)
        fanout.py            `after_commit(game)`: the one after-commit fan-out (push, jobs)
        lifecycle.py         create, join, start (deal), resume paused bots
        moves.py             submit and record a move; the bots' pause after 500 moves
        finish.py            `finish`: every way a game ends (end, timeout, resignation,
                             abandonment): standings, results, ratings, end mail, push
        resign.py            resignation (two seats: the other side wins; more: a bot plays on)
        undo.py              taking back moves
        banks.py, clocks.py  clock bookkeeping of moves; timeouts, take-backs, vacations
        rematch.py           rematch offers
    games/tasks.py           the job handlers and Celery tasks (bot turns call rules.bots)
    games/mail_actions.py    deciding from a mail link (through submit)
    games/pages.py, views.py, api.py, consumers.py ...   what players see and send
"""

from games.access import seats_of
from games.errors import MoveRefused
from games.services.finish import finish
from games.services.lifecycle import (
    SeatSpec,
    check_players,
    create_game,
    hand_seat,
    join,
    resume,
)
from games.services.moves import prompt_key, submit
from games.services.rematch import accept as accept_rematch
from games.services.resign import resign
from games.services.undo import undo

__all__ = [
    "MoveRefused",
    "SeatSpec",
    "accept_rematch",
    "check_players",
    "create_game",
    "finish",
    "hand_seat",
    "join",
    "resign",
    "resume",
    "seats_of",
    "prompt_key",
    "submit",
    "undo",
]
