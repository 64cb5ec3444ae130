"""A game's life before and beside its moves: create, join, start (deal), resume paused bots."""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games import botkinds, notify
from games.access import seats_of
from games.clocks import ClockError, TimeControl
from games.errors import MoveRefused
from games.models import Game, Scenario, Seat
from games.services import banks
from games.services.fanout import after_commit
from games.services.locking import forget_seats, locked, retried
from rules.core.canonical import canonical_json
from rules.core.engine import players_phrase
from rules.core.errors import ScenarioError

log = logging.getLogger(__name__)

SEAT_KINDS = ("me", "open", "invite", "bot")


@dataclass(frozen=True)
class SeatSpec:
    """Who takes a seat at creation: 'me', 'open', 'invite' (with a username) or 'bot' (a slug)."""

    kind: str
    username: str = ""
    bot: str = ""


def check_players(scenario: Scenario, players: int) -> None:
    """Refuse a seat count the scenario or its engine cannot deal (before anything is built)."""
    seats = scenario.player_range()
    if seats is None:
        raise ScenarioError(f"{scenario.title} cannot be played: an admin must correct it.")
    if not seats[0] <= players <= seats[1]:
        raise ScenarioError(f"{scenario.title} takes {players_phrase(*seats)}.")


def create_game(
    user: AbstractBaseUser,
    scenario: Scenario,
    players: int,
    seats: list[SeatSpec],
    options: dict[str, Any] | None = None,
    public: bool = True,
    time_control: TimeControl | None = None,
) -> Game:
    """Create a game (with a time control, or none); it starts at once when every seat is filled."""
    if time_control is not None:
        try:
            time_control.check()
        except ClockError as error:
            raise ScenarioError(str(error)) from error
    check_players(scenario, players)
    if len(seats) != players:
        raise ScenarioError(f"Give one seat choice for each of the {players} players.")
    if options is not None and not isinstance(options, dict):
        raise ScenarioError("The options must be an object of option names and values.")
    config = json.loads(canonical_json(scenario.config))
    config.setdefault("options", {}).update(options or {})
    errors = scenario.engine.validate_scenario(config)
    if errors:
        raise ScenarioError(" ".join(errors))
    scenario.engine.check_players(config, players)  # the game's own config (decks, Empires)
    with transaction.atomic():
        game = Game.objects.create(
            scenario=scenario,
            game=scenario.game,
            config=config,
            players=players,
            public=public,
            created_by=user,
        )
        for index, spec in enumerate(seats):
            _seat(game, index, spec, user).save()
        for invited in sorted({s.invited_id for s in game.seats.all() if s.invited_id}):
            notify.invited(game, invited)
        banks.attach(game, time_control)
        if not start_if_full(game, by=user.pk):
            after_commit(game)
    return game


def _seat(game: Game, index: int, spec: SeatSpec, user: AbstractBaseUser) -> Seat:
    """The Seat row a creation choice stands for; ScenarioError for a choice that cannot be."""
    seat = Seat(game=game, index=index)
    if spec.kind == "me":
        seat.user = user
    elif spec.kind == "bot":
        if spec.bot not in botkinds.slugs():
            raise ScenarioError(f"There is no bot called {spec.bot!r}.")
        seat.bot = spec.bot
    elif spec.kind == "invite":
        invited = get_user_model().objects.filter(username=spec.username).first()
        if invited is None:
            raise ScenarioError(f"There is no player called {spec.username!r}.")
        seat.invited = invited
    elif spec.kind != "open":
        raise ScenarioError(f"Unknown seat choice {spec.kind!r}.")
    return seat


@retried
def join(game_id: int, user: AbstractBaseUser, index: int | None = None, deck: Any = None) -> Seat:
    """Take an open seat (or the seat one was invited to); starts the game when full.

    `deck` (a config "decks" entry, see games.boards.feudal.decks) replaces the seat's deck in a game that has one.
    """
    with locked(game_id) as game:
        if game.status != Game.Status.OPEN:
            raise MoveRefused("This game is no longer waiting for players.", "closed")
        free = [s for s in game.seats.all() if not s.filled and (s.invited_id in (None, user.pk))]
        if index is not None:
            free = [s for s in free if s.index == index]
        if not free:
            raise MoveRefused("There is no seat here you can take.", "forbidden")
        seat = sorted(free, key=lambda s: (s.invited_id != user.pk, s.index))[0]
        if deck is not None:
            _choose_deck(game, seat.index, deck)
        seat.user = user
        seat.save()
        if not start_if_full(game, by=user.pk):
            after_commit(game, force=True)  # watchers of the open game see the seat taken
    return seat


def _choose_deck(game: Game, index: int, deck: Any) -> None:
    """Put a joining player's deck in the seat's place in the config, before the game is dealt."""
    decks = game.config.get("decks")
    if not isinstance(decks, list) or not 0 <= index < len(decks):
        raise MoveRefused("This game does not take a deck for that seat.", "malformed")
    config = json.loads(canonical_json(game.config))
    config["decks"][index] = deck
    errors = game.engine.validate_scenario(config)
    if errors:
        raise MoveRefused(" ".join(errors), "illegal")
    game.config = config
    game.save(update_fields=["config", "updated_at"])


def start_if_full(game: Game, by: Any = None) -> bool:
    """Deal the game with a fresh secret seed once every seat is taken; True when it started.

    `by` is the id of the user whose seat-taking filled the table (they need no "started" mail)."""
    if game.status != Game.Status.OPEN or not all(s.filled for s in game.seats.all()):
        return False
    engine = game.engine
    game.seed = secrets.randbits(62)
    game.state = engine.setup(game.seed, game.config, game.players)
    game.rules_version = engine.rules_version
    game.status = Game.Status.ACTIVE
    game.save()
    banks.game_started(game)
    notify.game_started(game, by)  # outbox rows in this transaction: never lost after the commit
    after_commit(game, force=True)
    return True


@retried
def resume(game_id: int, user: AbstractBaseUser) -> Game:
    """Let the bots of a paused game play on (a player of the game, or its creator, asks)."""
    with locked(game_id) as game:
        if not seats_of(game, user) and game.created_by_id != user.pk:
            raise MoveRefused("Only the players of this game can do that.", "forbidden")
        if not game.paused or game.status != Game.Status.ACTIVE:
            raise MoveRefused("The bots of this game are not paused.", "closed")
        game.paused = False
        game.bot_streak = 0
        game.save(update_fields=["paused", "bot_streak", "updated_at"])
        banks.settle(game)
        after_commit(game, force=True)
    return game


@retried
def hand_seat(game_id: int, index: int, staff: Any, user: Any = None, bot: str = "") -> Seat:
    """Staff give a seat to another player or to a bot (a stalled or abandoned seat); logged.

    The new player plays on from where the seat stands; a bot seat plays at once. A waiting game
    whose last seat this fills starts.
    """
    with locked(game_id) as game:
        if game.status == Game.Status.FINISHED:
            raise MoveRefused("This game is over: its seats cannot change.", "closed")
        if (user is None) == (not bot):
            raise MoveRefused(
                "Give the seat to a player or to a bot (one of the two).", "malformed"
            )
        if bot and bot not in botkinds.slugs():
            raise MoveRefused(f"There is no bot called {bot!r}.", "malformed")
        seat = game.seats.filter(index=index).first()
        if seat is None:
            raise MoveRefused(f"Game {game.pk} has no seat {index + 1}.", "malformed")
        before = seat.label()
        if user is not None:
            seat.user, seat.bot, seat.invited, seat.resigned_at = user, "", None, None
        else:
            seat.user, seat.bot, seat.invited = None, bot, None
            banks.drop_seat(game, index)  # a bot has no clock
        seat.save()
        forget_seats(game)
        log.warning(
            "staff %s handed seat %s of game %s from %s to %s",
            staff,
            index + 1,
            game.pk,
            before,
            seat.label(),
        )
        if not start_if_full(game, by=getattr(user, "pk", None)):
            game.bot_streak = 0
            game.paused = False
            game.save(update_fields=["bot_streak", "paused", "updated_at"])
            banks.settle(game)
            after_commit(game, force=True)
    return seat
