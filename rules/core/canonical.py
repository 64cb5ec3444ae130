"""Canonical JSON, state hashing and fast cloning of plain JSON states."""

from __future__ import annotations

import hashlib
import json
import marshal
from typing import Any

import orjson  # deterministic C serializer (a dependency of the project): for `clone`


def canonical_json(value: Any) -> str:
    """Serialize with sorted keys and no whitespace, so equal states give equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(state: Any) -> str:
    """The sha256 of the canonical JSON of a state."""
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


def clone(state: Any) -> Any:
    """Deep-copy a JSON state.

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
