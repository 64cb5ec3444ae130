"""orjson behind the JSON columns that every move writes and every render reads.

A game's state is its largest column (6-15 KB); the standard library takes ~10x longer to write
it and ~2.5x longer to read it (bench/README.md, "Move path"). The classes plug into Django's
own JSONField(encoder=..., decoder=...) hooks, so SQLite and PostgreSQL both use them. What
orjson would read or write differently falls back to the standard library: a number of 19 or
more digits (orjson reads one past 64 bits as a float) and anything orjson cannot serialise.
Stored text is compact JSON either way; PostgreSQL's jsonb keeps no text at all.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

LONG_NUMBER = re.compile(r"\d{19}")


class Encoder(json.JSONEncoder):
    """json.dumps(value, cls=Encoder) through orjson, keys that are not strings as json.dumps."""

    def encode(self, o: Any) -> str:
        try:
            return orjson.dumps(o, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # a type orjson does not know, or an int past 64 bits
            return super().encode(o)


class Decoder(json.JSONDecoder):
    """json.loads(text, cls=Decoder) through orjson, unless a number might not fit 64 bits."""

    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        if not LONG_NUMBER.search(s):
            try:
                return orjson.loads(s)
            except orjson.JSONDecodeError:
                pass  # the standard library's error (or reading) is the one to give
        return super().decode(s, *args, **kwargs)
