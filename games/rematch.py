"""Rematches, read side: what a finished game's prompt bar shows (the offer: services.rematch)."""

from __future__ import annotations

from typing import Any

from games.models import Game, RematchOffer


def humans(game: Game) -> list[int]:
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
    players = humans(game)
    return {
        "offer": offer,
        "player": uid in players,
        "accepted": bool(offer and uid in offer.accepted),
        "waiting": len(players) - len(offer.accepted) if offer else None,
        "new_game": offer.new_game_id if offer else None,
    }
