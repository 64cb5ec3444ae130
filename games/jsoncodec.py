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
from collections.abc import Iterator
from typing import Any

import orjson

LOWEST, HIGHEST = -(2**63), 2**64 - 1  # the integers orjson reads as integers
# Every digit as 9, so that runs of digits are found by substring search (a regex scan of a 6 KB
# state costs as much as the standard library's whole read). A run of 19 digits always fits;
# 20 digits fit up to HIGHEST (a generator state often has 20); a minus and 19 down to LOWEST.
NINES = bytes.maketrans(b"0123456789", b"9" * 10)
NINE = ord("9")


def _runs(raw: bytes, marks: bytes, head: bytes) -> Iterator[int]:
    """The value of each run in `raw` that starts where `marks` (raw with digits as 9) holds
    `head`, taken to the run's last digit."""
    start = marks.find(head)
    while start != -1:
        end = start + len(head)
        while end < len(marks) and marks[end] == NINE:
            end += 1
        yield int(raw[start:end])
        start = marks.find(head, end)


def _orjson_reads(text: str) -> bool:
    """Whether orjson reads every number in the text as the standard library would: every run of
    digits (a number, or digits in a string or a fraction, where either reading is the same) is
    within orjson's integers."""
    raw = text.encode()
    marks = raw.translate(NINES)
    return all(n <= HIGHEST for n in _runs(raw, marks, b"9" * 20)) and all(
        n >= LOWEST for n in _runs(raw, marks, b"-" + b"9" * 19)
    )


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
