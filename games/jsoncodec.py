"""orjson behind the JSON columns that every move writes and every render reads.

A game's state is its largest column (6-15 KB); the standard library takes ~10x longer to write
it and ~2.5x longer to read it (bench/README.md, "Move path"). The classes plug into Django's
own JSONField(encoder=..., decoder=...) hooks, so SQLite and PostgreSQL both use them. What
orjson would read or write differently falls back to the standard library: an integer outside
-2**63 .. 2**64 - 1 (orjson reads it as a float) and anything orjson cannot serialise. Every
state holds one 64-bit number, its random generator's state (`rules.core.rng`), so the check is
by value, not by length alone: a length test sent every state read to the slower reader.
Stored text is compact JSON either way; PostgreSQL's jsonb keeps no text at all.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

LONG_NUMBER = re.compile(r"-?\d{19,}")
LOWEST, HIGHEST = -(2**63), 2**64 - 1  # the integers orjson reads as integers
# Every digit as 9: a run of 20 digits, or a minus and 19, is then one substring test (a regex
# scan of a 6 KB state costs as much as the standard library's whole read).
NINES = bytes.maketrans(b"0123456789", b"9" * 10)
TWENTY, MINUS_NINETEEN = b"9" * 20, b"-" + b"9" * 19


def _orjson_reads(text: str) -> bool:
    """Whether orjson reads every number in the text as the standard library would: each run of
    19 or more digits (a number, or digits in a string or a fraction, where either way is the
    same) is within orjson's integers. A run of 19 digits alone always is."""
    runs = text.encode().translate(NINES)
    if TWENTY not in runs and MINUS_NINETEEN not in runs:
        return True
    return all(LOWEST <= int(m.group()) <= HIGHEST for m in LONG_NUMBER.finditer(text))


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
        if _orjson_reads(s):
            try:
                return orjson.loads(s)
            except orjson.JSONDecodeError:
                pass  # the standard library's error (or reading) is the one to give
        return super().decode(s, *args, **kwargs)
