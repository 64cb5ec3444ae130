"""The move path's reads of a game, in SQL composed once from the models' fields.

Every move reads the game under its lock, and every socket reads it again to render: the game
row, whether it has a clock, and its seats with their players and seat clocks; then the newest
moves (what the viewer may undo) and the moves its log has not shown yet; for turn mail,
whether a player has the game open; and the session row and user of each signed-in request
(games.sessions, games.auth). Each move also
writes its Move row and the game's moved columns (`insert`, `update`). Django's query
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
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model

from games.models import Game, GameClock, Move, Presence, Seat, SeatClock

Converter = Callable[[Any, Any, Any], Any]


class Columns:
    """One model's concrete fields as selected under a table alias, and how to read them back."""

    def __init__(self, model: type[Model], alias: str, names: Sequence[str] = ()) -> None:
        self.model = model
        # With names, these fields only (and the key); the others deferred, as .only() leaves them.
        self.fields: list[Field[Any, Any]] = [
            f
            for f in model._meta.concrete_fields
            if not names or f.attname in names or f.primary_key
        ]
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


# What the game's read takes of each seat's player and invitee (anything else is read on use).
SEAT_USER_FIELDS = ("username", "is_active")


@functools.cache
def _statements(vendor: str) -> tuple[str, str, Columns, Columns, Columns, Columns, Columns]:
    """The game's and the seats' SELECT statements for this database, with their columns."""
    quote = connection.ops.quote_name
    user = get_user_model()
    game, seat = Columns(Game, "g"), Columns(Seat, "s")
    # A seat's player is shown by name only: the rest of the user row (password hash, dates,
    # whose reading back is a fifth of a socket's read on SQLite) stays deferred.
    player, invited = Columns(user, "u", SEAT_USER_FIELDS), Columns(user, "i", SEAT_USER_FIELDS)
    bank = Columns(SeatClock, "c")
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


@functools.cache
def _moves_statement(vendor: str, fields: tuple[str, ...], newest: bool) -> tuple[str, Columns]:
    quote = connection.ops.quote_name
    columns = Columns(Move, "m", fields)
    sql = (
        f"SELECT {columns.sql} FROM {quote(Move._meta.db_table)} m WHERE m.{quote('game_id')} = %s"
    )
    if newest:
        return f"{sql} ORDER BY m.{quote('seq')} DESC LIMIT %s", columns
    return (
        f"{sql} AND m.{quote('seq')} > %s AND m.{quote('seq')} <= %s ORDER BY m.{quote('seq')}",
        columns,
    )


def newest_moves(game_id: int, limit: int, fields: tuple[str, ...]) -> list[Move]:
    """The game's newest `limit` moves, newest first, with these fields (as .only(*fields))."""
    sql, columns = _moves_statement(connection.vendor, fields, newest=True)
    return _moves(sql, [game_id, limit], columns)


def moves_between(game_id: int, after: int, upto: int, fields: tuple[str, ...]) -> list[Move]:
    """The game's moves after seq `after` up to `upto`, oldest first, with these fields."""
    sql, columns = _moves_statement(connection.vendor, fields, newest=False)
    return _moves(sql, [game_id, after, upto], columns)


def _moves(sql: str, params: list[int], columns: Columns) -> list[Move]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    moves = [columns.make(row, 0) for row in found]
    return [move for move in moves if isinstance(move, Move)]


@functools.cache
def _watching_statement(vendor: str) -> str:
    quote = connection.ops.quote_name
    table = quote(Presence._meta.db_table)
    return (
        f"SELECT 1 FROM {table} WHERE {quote('user_id')} = %s AND {quote('game_id')} = %s"
        f" AND {quote('opened_at')} >= %s LIMIT 1"
    )


def watching(user_id: int, game_id: int, since: datetime) -> bool:
    """Whether the user has a page open on the game that was opened (or renewed) since then."""
    since_value = connection.ops.adapt_datetimefield_value(since)
    with connection.cursor() as cursor:
        cursor.execute(_watching_statement(connection.vendor), [user_id, game_id, since_value])
        return cursor.fetchone() is not None


@functools.cache
def _session_statement(vendor: str) -> tuple[str, Columns]:
    quote = connection.ops.quote_name
    columns = Columns(Session, "d")
    sql = (
        f"SELECT {columns.sql} FROM {quote(Session._meta.db_table)} d"
        f" WHERE d.{quote('session_key')} = %s AND d.{quote('expire_date')} > %s"
    )
    return sql, columns


def session(session_key: str, now: datetime) -> Session | None:
    """The session row with this key, unless it has expired (what every signed-in request reads)."""
    sql, columns = _session_statement(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [session_key, connection.ops.adapt_datetimefield_value(now)])
        row = cursor.fetchone()
    found = None if row is None else columns.make(row, 0)
    return found if isinstance(found, Session) else None


@functools.cache
def _user_statement(vendor: str) -> tuple[str, Columns]:
    quote = connection.ops.quote_name
    model = get_user_model()
    columns = Columns(model, "u")
    sql = (
        f"SELECT {columns.sql} FROM {quote(model._meta.db_table)} u"
        f" WHERE u.{quote(model._meta.pk.column)} = %s"
    )
    return sql, columns


def user(user_id: Any) -> Any:
    """The user with this key, or None (what every signed-in request and socket reads)."""
    sql, columns = _user_statement(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id])
        row = cursor.fetchone()
    return None if row is None else columns.make(row, 0)


def _prefetched(game: Game, seats: list[Seat]) -> None:
    """Make `game.seats.all()` answer with these seats, as prefetch_related("seats") does."""
    queryset = game.seats.get_queryset()
    queryset._result_cache = seats
    queryset._prefetch_done = True  # type: ignore[attr-defined]
    game._prefetched_objects_cache = {"seats": queryset}  # type: ignore[attr-defined]


# --- the move's two writes -------------------------------------------------------------------
#
# The Move row and the game's update, as Model.save would make them (each field's pre_save, so
# auto_now dates are set on the instance, then get_db_prep_save, so JSON goes through the
# field's encoder), in statements composed once: through the ORM they cost ~0.8 ms each a move
# against ~0.1 ms for the statements (bench/README.md, "Move path"). Neither model has a save
# signal or a custom save() to skip (games.signals listens to the user model only).


@functools.cache
def _insert_statement(vendor: str, model: type[Model]) -> tuple[str, list[Field[Any, Any]]]:
    quote = connection.ops.quote_name
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    pk = quote(model._meta.pk.column)
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks}) RETURNING {pk}"
    return sql, fields


def insert(obj: Model) -> None:
    """Insert a new instance with an automatic key, as obj.save() would, and set its key."""
    if not connection.features.can_return_columns_from_insert:
        obj.save(force_insert=True)
        return
    sql, fields = _insert_statement(connection.vendor, type(obj))
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    assert row is not None
    obj.pk = row[0]
    obj._state.adding, obj._state.db = False, DEFAULT_DB_ALIAS


@functools.cache
def _update_statement(
    vendor: str, model: type[Model], names: tuple[str, ...]
) -> tuple[str, list[Field[Any, Any]]]:
    quote = connection.ops.quote_name
    fields = [f for f in model._meta.concrete_fields if f.attname in names]
    assert len(fields) == len(names), f"not columns of {model.__name__}: {names}"
    assigned = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    pk = quote(model._meta.pk.column)
    return f"UPDATE {quote(model._meta.db_table)} SET {assigned} WHERE {pk} = %s", fields


def update(obj: Model, names: tuple[str, ...]) -> None:
    """Write these fields of a saved instance, as obj.save(update_fields=names) would."""
    sql, fields = _update_statement(connection.vendor, type(obj), names)
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, obj.pk])
        if cursor.rowcount != 1:
            raise RuntimeError(f"{type(obj).__name__} {obj.pk} was not there to update")
