"""The move path's two reads of a game, in SQL composed once from the models' fields.

Every move reads the game under its lock, and every socket reads it again to render: the game
row, whether it has a clock, and its seats with their players and seat clocks. Django's query
compiler costs several times what these queries cost to run (about 0.4 ms a query here, against
0.04 ms for the statement itself), so the statements are composed once from the models' own
field lists and each row is made into model instances with Django's converters and `from_db`,
as a queryset would (bench/README.md, "Move path"). The instances are those `select_related`
and `prefetch_related("seats")` would give: `game.seats.all()`, `seat.user`, `seat.invited`,
`seat.clock` and `game.clock` are read without a further query.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model

from games.models import Game, GameClock, Seat, SeatClock

Converter = Callable[[Any, Any, Any], Any]


class Columns:
    """One model's concrete fields as selected under a table alias, and how to read them back."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        self.fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]
        quote = connection.ops.quote_name
        self.sql = ", ".join(f"{alias}.{quote(f.column)}" for f in self.fields)
        self.width = len(self.fields)
        self.columns = [f.get_col(alias) for f in self.fields]
        # Converters are the connection's (its operations object), and each thread has its own.
        self._converters: weakref.WeakKeyDictionary[Any, list[tuple[int, list[Converter]]]] = (
            weakref.WeakKeyDictionary()
        )

    def converters(self, wrapper: Any) -> list[tuple[int, list[Converter]]]:
        """(index, converters) of each column this connection converts, as a queryset would."""
        found = self._converters.get(wrapper)
        if found is None:
            found = []
            for index, column in enumerate(self.columns):
                each = wrapper.ops.get_db_converters(column) + column.get_db_converters(wrapper)
                if each:
                    found.append((index, each))
            self._converters[wrapper] = found
        return found

    def make(self, row: Sequence[Any], start: int) -> Model | None:
        """The instance in row[start:start + width], or None for the empty side of a LEFT JOIN."""
        values = list(row[start : start + self.width])
        if values[0] is None:
            return None
        wrapper = connections[DEFAULT_DB_ALIAS]
        for index, converters in self.converters(wrapper):
            for convert in converters:
                values[index] = convert(values[index], self.columns[index], wrapper)
        return self.model.from_db(DEFAULT_DB_ALIAS, self.names, values)


@functools.cache
def _statements(vendor: str) -> tuple[str, str, Columns, Columns, Columns, Columns, Columns]:
    """The game's and the seats' SELECT statements for this database, with their columns."""
    quote = connection.ops.quote_name
    user = get_user_model()
    game, seat = Columns(Game, "g"), Columns(Seat, "s")
    player, invited, bank = Columns(user, "u"), Columns(user, "i"), Columns(SeatClock, "c")
    table = {m: quote(m._meta.db_table) for m in (Game, GameClock, Seat, SeatClock, user)}
    has_clock = (
        f"EXISTS (SELECT 1 FROM {table[GameClock]} k WHERE k.{quote('game_id')} = g.{quote('id')})"
    )
    game_sql = f"SELECT {game.sql}, {has_clock} FROM {table[Game]} g WHERE g.{quote('id')} = %s"
    user_pk = quote(user._meta.pk.column)
    seats_sql = (
        f"SELECT {seat.sql}, {player.sql}, {invited.sql}, {bank.sql} FROM {table[Seat]} s"
        f" LEFT JOIN {table[user]} u ON u.{user_pk} = s.{quote('user_id')}"
        f" LEFT JOIN {table[user]} i ON i.{user_pk} = s.{quote('invited_id')}"
        f" LEFT JOIN {table[SeatClock]} c ON c.{quote('seat_id')} = s.{quote('id')}"
        f" WHERE s.{quote('game_id')} = %s ORDER BY s.{quote('index')}"
    )
    return game_sql, seats_sql, game, seat, player, invited, bank


def game_with_seats(game_id: int, for_update: bool = False) -> Game | None:
    """The game, with its clock and its seats (players, seat clocks) at hand; None if unknown.

    `for_update` takes the row lock (inside the caller's transaction), as select_for_update.
    """
    game_sql, seats_sql, columns, seat_columns, player, invited, bank = _statements(
        connection.vendor
    )
    if for_update and connection.features.has_select_for_update:
        game_sql += " FOR UPDATE"
    with connection.cursor() as cursor:
        cursor.execute(game_sql, [game_id])
        row = cursor.fetchone()
        if row is None:
            return None
        game = columns.make(row, 0)
        assert isinstance(game, Game)
        if not row[columns.width]:
            Game.clock.related.set_cached_value(game, None)  # no clock: game.clock raises
        cursor.execute(seats_sql, [game_id])
        seat_rows = cursor.fetchall()
    seats = []
    for row in seat_rows:
        seat = seat_columns.make(row, 0)
        assert isinstance(seat, Seat)
        at = seat_columns.width
        Seat.game.field.set_cached_value(seat, game)
        Seat.user.field.set_cached_value(seat, player.make(row, at))
        Seat.invited.field.set_cached_value(seat, invited.make(row, at + player.width))
        clock = bank.make(row, at + 2 * player.width)
        Seat.clock.related.set_cached_value(seat, clock)
        if clock is not None:
            SeatClock.seat.field.set_cached_value(clock, seat)
        seats.append(seat)
    _prefetched(game, seats)
    return game


def _prefetched(game: Game, seats: list[Seat]) -> None:
    """Make `game.seats.all()` answer with these seats, as prefetch_related("seats") does."""
    queryset = game.seats.get_queryset()
    queryset._result_cache = seats
    queryset._prefetch_done = True  # type: ignore[attr-defined]
    game._prefetched_objects_cache = {"seats": queryset}  # type: ignore[attr-defined]
