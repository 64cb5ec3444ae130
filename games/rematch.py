"""Rematches: once a game is over, a player offers to play again with the same seats and options.

The new game is made by services.create_game when every human player has accepted; each of
them is then seated where they sat (bots keep their seats), so it starts at once.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import services
from games.models import Game, RematchOffer
from games.services import MoveRefused


def _humans(game: Game) -> list[int]:
    """The distinct users seated at a game, in seat order."""
    found: list[int] = []
    for seat in game.seats.all():
        if seat.user_id is not None and seat.user_id not in found:
            found.append(seat.user_id)
    return found


def status(game: Game, user: Any) -> dict[str, Any] | None:
    """What the finished game's prompt bar shows of a rematch, for one viewer."""
    if game.status != Game.Status.FINISHED:
        return None
    offer = RematchOffer.objects.filter(game=game).first()
    uid = getattr(user, "pk", None)
    humans = _humans(game)
    return {
        "offer": offer,
        "player": uid in humans,
        "accepted": bool(offer and uid in offer.accepted),
        "waiting": len(humans) - len(offer.accepted) if offer else None,
        "new_game": offer.new_game_id if offer else None,
    }


def accept(game_id: int, user: Any) -> RematchOffer:
    """Offer a rematch, or accept the one on offer; the last acceptance creates the new game."""
    from games import live

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.FINISHED:
            raise MoveRefused("A rematch can be offered once the game is over.", "closed")
        humans = _humans(game)
        if user.pk not in humans:
            raise MoveRefused("Only the players of this game can ask for a rematch.", "forbidden")
        offer, _ = RematchOffer.objects.get_or_create(
            game=game, defaults={"offered_by": user, "accepted": []}
        )
        if user.pk not in offer.accepted:
            offer.accepted = [*offer.accepted, user.pk]
        if offer.new_game_id is None and set(offer.accepted) >= set(humans):
            offer.new_game = _create(game, offer)
        offer.save()
        transaction.on_commit(lambda: live.broadcast(game.pk, game.seq, force=True))
    return offer


def _create(game: Game, offer: RematchOffer) -> Game:
    """The same scenario, seats and options; every human seat is taken by its former player."""
    seats = list(game.seats.select_related("user"))
    specs = []
    for seat in seats:
        if seat.bot:
            specs.append(services.SeatSpec("bot", bot=seat.bot))
        elif seat.user_id == offer.offered_by_id and not any(s.kind == "me" for s in specs):
            specs.append(services.SeatSpec("me"))
        else:
            specs.append(services.SeatSpec("invite", username=seat.user.get_username()))
    new = services.create_game(
        offer.offered_by,
        game.scenario,
        game.players,
        specs,
        dict(game.config.get("options", {})),
        public=game.public,
    )
    for seat, spec in zip(seats, specs, strict=True):
        if spec.kind == "invite":
            services.join(new.pk, seat.user, seat.index)
    new.refresh_from_db()
    return new
