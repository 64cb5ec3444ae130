"""Canonical JSON, state hashing and fast cloning of plain JSON states."""

from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Callable
from typing import Any

import orjson  # deterministic C serializer (a dependency of the project): `clone`, hashes


def canonical_json(value: Any) -> str:
    """Serialize with sorted keys and no whitespace, so equal states give equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_bytes(value: Any) -> bytes:
    """`canonical_json(value)` as UTF-8, for what an engine makes (states, views, prompts).

    orjson writes the same text several times faster (a move hashes its state, and `simulate`
    and the bots hash every position) for the plain JSON of the engine contract: strings, ints
    within 64 bits, bools, None, lists and dicts with string keys (no floats: orjson would write
    1e-05 as 0.00001). Anything it refuses (a key that is not a string, a larger int, nesting
    deeper than 254) goes to `canonical_json`. A player's action is not engine-made and is
    compared by `canonical_json` itself (orjson would write NaN as null).
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return canonical_json(value).encode("utf-8")


def state_hash(state: Any) -> str:
    """The sha256 of the canonical JSON of a state."""
    return hashlib.sha256(canonical_bytes(state)).hexdigest()


# A game whose states have a known bulky part may register a faster copy of its states here
# (`copier`); `clone` uses it for a dict whose "game" names that game. Such a copy must give
# back what `plain_clone` would, and fall back to it for anything it does not expect.
_COPIERS: dict[str, Callable[[dict[str, Any]], Any]] = {}


def copier(game: str, copy: Callable[[dict[str, Any]], Any]) -> None:
    """Register the deep copy `clone` uses for the states of one game."""
    _COPIERS[game] = copy


def clone(state: Any) -> Any:
    """Deep-copy a JSON state: by its game's registered copy if any, else `plain_clone`."""
    if type(state) is dict:
        game = state.get("game")
        if type(game) is str:
            copy = _COPIERS.get(game)
            if copy is not None:
                return copy(state)
    return plain_clone(state)


def plain_clone(state: Any) -> Any:
    """Deep-copy any plain JSON value.

    An orjson round trip builds the copy about a third faster than marshal's (both several
    times faster than copy.deepcopy), which matters on the playout hot path and for bots.
    It gives back the same plain JSON (a tuple comes back a list, as from the database);
    anything it refuses (a key that is not a string, an int past 64 bits) is copied by
    marshal, which round-trips every builtin exactly.
    """
    try:
        return orjson.loads(orjson.dumps(state))
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return marshal.loads(marshal.dumps(state))
