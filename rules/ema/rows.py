"""The layout of a Land Area's changing state: a row of fields (rules_version 2 on)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from rules.ema.components import load

# The changing state of a Land Area is a row, a list (rules_version 2; a dict before): kept
# compact so that copying a state is cheap. Its fields, at these places: the owner (a seat or
# None), SS, Unrest, fortification (0, 2 or 3), the seats with a Diplomatic Tie and with a Claim
# there as bitmasks (bit i: seat i), the partial Conquest results, Language, Religion and a
# conversion under way (or None). Views show it as a dict with these names (`area_dict`).
OWNER, SS, UNREST, FORT, TIES, CLAIMS, PARTIAL, LANG, REL, CONV = range(10)
AREA_FIELDS = ("owner", "ss", "unrest", "fort", "ties", "claims", "partial", "lang", "rel", "conv")
Area = list[Any]


def has(mask: int, seat: int) -> bool:
    """Whether a seat's bit is set in a bitmask of seats (Ties, Claims)."""
    return bool(mask >> seat & 1)


@cache
def seats_in(mask: int) -> tuple[int, ...]:
    """The seats of a bitmask, in seat order."""
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


def mask_of(seats: Iterable[int]) -> int:
    """The bitmask of some seats."""
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def area_dict(row: Area) -> dict[str, Any]:
    """An Area's row as the dict the views show (Ties and Claims as sorted lists of seats)."""
    shown = dict(zip(AREA_FIELDS, row, strict=True))
    shown["ties"], shown["claims"] = list(seats_in(row[TIES])), list(seats_in(row[CLAIMS]))
    shown["partial"] = [dict(p) for p in row[PARTIAL]]
    shown["conv"] = None if row[CONV] is None else dict(row[CONV])
    return shown


def area_row(fields: dict[str, Any]) -> Area:
    """An Area's row from the dict layout (that of views, and of states of rules_version 1)."""
    row = [fields[name] for name in AREA_FIELDS]
    row[TIES], row[CLAIMS] = mask_of(fields["ties"]), mask_of(fields["claims"])
    row[PARTIAL] = [dict(p) for p in fields["partial"]]
    row[CONV] = None if fields["conv"] is None else dict(fields["conv"])
    return row


@cache
def area_ids() -> tuple[str, ...]:
    """Every Land Area's id, sorted (the state's `areas` has exactly these keys)."""
    return tuple(sorted(load().areas))
