"""Canonical JSON, state hashing and fast cloning of plain JSON states."""

from __future__ import annotations

import hashlib
import json
import marshal
from typing import Any


def canonical_json(value: Any) -> str:
    """Serialize with sorted keys and no whitespace, so equal states give equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(state: Any) -> str:
    """The sha256 of the canonical JSON of a state."""
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


def clone(state: Any) -> Any:
    """Deep-copy a JSON state.

    marshal round-trips dicts, lists, ints, strings, bools and None exactly and is several
    times faster than copy.deepcopy, which matters on the playout hot path.
    """
    return marshal.loads(marshal.dumps(state))
