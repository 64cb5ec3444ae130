"""Rematches: once a game is over, a player offers to play again with the same seats and options.

The new game is made by create_game when every human player has accepted; each of them is then
seated where they sat (bots keep their seats), so it starts at once.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.errors import MoveRefused
from games.models import Game, RematchOffer
from games.rematch import humans
from games.services.fanout import push
from games.services.lifecycle import SeatSpec, create_game, join
from games.services.locking import locked, retried


@retried
def accept(game_id: int, user: Any) -> RematchOffer:
    """Offer a rematch, or accept the one on offer; the last acceptance creates the new game."""
    with locked(game_id) as game:
        if game.status != Game.Status.FINISHED:
            raise MoveRefused("A rematch can be offered once the game is over.", "closed")
        players = humans(game)
        if user.pk not in players:
            raise MoveRefused("Only the players of this game can ask for a rematch.", "forbidden")
        offer, _ = RematchOffer.objects.get_or_create(
            game=game, defaults={"offered_by": user, "accepted": []}
        )
        if user.pk not in offer.accepted:
            offer.accepted = [*offer.accepted, user.pk]
        if offer.new_game_id is None and set(offer.accepted) >= set(players):
            offer.new_game = _create(game, offer)
        offer.save()
        game_id, seq = game.pk, game.seq
        transaction.on_commit(lambda: push(game_id, seq, force=True), robust=True)
    return offer


def _create(game: Game, offer: RematchOffer) -> Game:
    """The same scenario, seats and options; every human seat is taken by its former player."""
    seats = list(game.seats.select_related("user"))
    specs = []
    for seat in seats:
        if seat.bot and seat.user_id is None:
            specs.append(SeatSpec("bot", bot=seat.bot))
        elif seat.user_id == offer.offered_by_id and not any(s.kind == "me" for s in specs):
            specs.append(SeatSpec("me"))
        else:
            specs.append(SeatSpec("invite", username=seat.user.get_username()))
    new = create_game(
        offer.offered_by,
        game.scenario,
        game.players,
        specs,
        dict(game.config.get("options", {})),
        public=game.public,
    )
    for seat, spec in zip(seats, specs, strict=True):
        if spec.kind == "invite":
            join(new.pk, seat.user, seat.index)
    new.refresh_from_db()
    return new
