"""A deck per seat in the new-game and join forms of a Feudal Lords game (games.boards.GameForms)."""

from __future__ import annotations

from typing import Any

from games import services
from games.boards.feudal import decks
from games.models import Game, Scenario, Seat
from games.requests import UserRequest


def new_game_context(request: UserRequest) -> dict[str, Any]:
    """The decks each seat may play (the starter-deck rule, A-35, is one of the engine's options)."""
    return {"deck_choices": decks.choices_for(request.user)}


def create_game(
    request: UserRequest,
    scenario: Scenario,
    players: int,
    seats: list[services.SeatSpec],
    options: dict[str, Any],
    public: bool,
    time_control: Any,
) -> Game:
    """A deck per seat (mine for my seats, starters for bots)."""
    values = [request.POST.get(f"deck{i}", "") for i in range(players)]
    return decks.create_game(
        request.user, scenario, players, seats, values, options, public, time_control
    )


def create_from_api(
    user: Any,
    scenario: Scenario,
    players: int,
    seats: list[services.SeatSpec],
    values: list[str],
    options: dict[str, Any],
    public: bool,
) -> Game:
    """The API's game creation: each seat's "deck" value (a deck id, a starter or "")."""
    return decks.create_game(user, scenario, players, seats, values, options, public)


def join(request: UserRequest, game: Game, index: int | None) -> Seat:
    """Take a seat with the deck chosen in the join form ("" keeps the seat's starter)."""
    return decks.join(request.user, game, request.POST.get("deck", ""), index)
