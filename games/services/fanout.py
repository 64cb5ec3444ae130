"""The one after-commit fan-out: what follows a stored change to a game.

Under the game's lock the change's transaction owes a job row for every bot and standing
answer that must now decide (games.jobs); after the commit one ids-only message goes to the
game's sockets and the jobs are dispatched. Nothing here can turn a committed change into an
error: a push that fails is owed as a job and retried, a dispatch that fails is left to the
sweep, and every callback runs with `robust=True` (logged, never raised).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import botkinds, jobs, live, standing
from games.models import Game, Job, StandingAnswer
from games.services.locking import locked

log = logging.getLogger(__name__)

BOT_TURN, STANDING_TURN, PUSH = jobs.BOT_TURN, jobs.STANDING_TURN, jobs.PUSH
# A game waiting this long on a bot or a standing answer with no job owed is given one again.
STALL = timedelta(seconds=10)


def after_commit(game: Game, force: bool = False, mover: int | None = None) -> None:
    """Owe this change's jobs now (inside the transaction); push and dispatch after the commit.

    `force` makes every socket redraw although the seq did not move forward (an undo, a seat
    taken over, a resignation). `mover` is the id of the player whose move this is (their
    sockets are drawn first).
    """
    job_ids = wake(game)
    callback = partial(_deliver, game.pk, game.seq, force, job_ids, mover)
    transaction.on_commit(callback, robust=True)


def wake(game: Game, revive_failed: bool = True) -> list[int]:
    """Job rows for every standing answer and bot that must decide at the game's seq now.

    Standing answers come first: a seat that answers by itself should not wait behind bots.
    """
    if game.status != Game.Status.ACTIVE or game.paused or game.state is None:
        return []
    prompted = game.prompted_seats()
    if not prompted:
        return []
    skip = set() if revive_failed else _failed_seats(game)
    ids = [
        jobs.add(STANDING_TURN, game.pk, game.seq, seat)
        for seat, _ in standing.due(game)
        if (STANDING_TURN, seat) not in skip
    ]
    bots = {s.index: s.bot for s in game.seats.all() if s.bot}
    for index in prompted:
        if index in bots and (BOT_TURN, index) not in skip:
            lease = botkinds.lease_seconds(bots[index])
            ids.append(jobs.add(BOT_TURN, game.pk, game.seq, index, lease=lease))
    return ids


def _failed_seats(game: Game) -> set[tuple[str, int]]:
    rows = Job.objects.filter(game=game, seq=game.seq, status=Job.Status.FAILED)
    return set(rows.values_list("kind", "seat"))


def _deliver(
    game_id: int, seq: int, force: bool, job_ids: list[int], mover: int | None = None
) -> None:
    push(game_id, seq, force, mover)
    for job_id in job_ids:
        jobs.dispatch(job_id)


def push(game_id: int, seq: int, force: bool = False, mover: int | None = None) -> None:
    """Tell the game's sockets; if the channel layer is down, owe the push as a job."""
    if live.broadcast(game_id, seq, force, mover):
        return
    try:
        with transaction.atomic():
            jobs.add(PUSH, game_id, seq, lease=15)
    except Exception:
        log.exception("could not owe the push of game %s at seq %s", game_id, seq)


def requeue_stalled(now: datetime | None = None) -> int:
    """Owe again the turns games wait on with no job pending (a lost row, an old game).

    Reads the database's truth: the game's seq and who must decide at it, under its lock.
    A turn whose job gave up (failed) is not retried here: that would spin a worker.
    """
    cutoff = (now or timezone.now()) - STALL
    answering = StandingAnswer.objects.exclude(choice=StandingAnswer.ASK).values("game_id")
    waiting = Game.objects.filter(
        Q(seats__bot__gt="") | Q(pk__in=answering),
        status=Game.Status.ACTIVE,
        paused=False,
        updated_at__lt=cutoff,
    ).distinct()
    woken = 0
    for game_id, seq in waiting.values_list("pk", "seq"):
        if jobs.pending_for(game_id, seq, BOT_TURN) or jobs.pending_for(
            game_id, seq, STANDING_TURN
        ):
            continue  # owed already: the job sweep dispatches it
        with locked(game_id) as game:
            ids = wake(game, revive_failed=False)
            jobs.dispatch_after_commit(ids)
        woken += bool(ids)
    return woken
