"""An index of the map kept beside an EMA state: each seat's Areas, Diplomatic Ties and Claims.

Prompts ask again and again which Areas a seat owns and where it has Ties or Claims, and
scanning the 77 Areas for each answer was a tenth of a playout. The index answers from one
sorted list per seat, changed only where an Area changes hands or a Tie or Claim comes or goes:
every change of an owner goes through `set_owner`, of Ties through `set_ties` (`add_tie`,
`drop_tie`), of Claims through `set_claims`, and code that rewrites many rows at once calls
`forget` after it. A list, once handed out, is never
changed (a change makes a new one), so a caller may keep iterating it while Areas change hands.

The index lives outside the state (the state's JSON, hash and rules_version are unchanged), in a
table keyed by the state's `areas` dict, which the table keeps alive (at most KEEP of them, the
oldest dropped first; a dropped or missing index is rebuilt by one scan of the map when asked).

Tests set positions up by writing rows directly. With CHECK on (tests/conftest.py), every
answer is checked against a scan: a difference found while the engine applies an action, or at
its end, is an error (a write that went around the setters); anywhere else the index is rebuilt.
"""

from __future__ import annotations

import threading
from bisect import insort
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from rules.core.engine import State
from rules.core.errors import InvariantError
from rules.ema.rows import CLAIMS, OWNER, TIES, Area, area_ids, seats_in

KEEP = 64
CHECK = False  # tests/conftest.py turns it on: every answer checked against a scan

Lists = dict[int, list[str]]


class MapIndex:
    """Each seat's Areas, Ties and Claims (sorted lists, never changed once made), the Areas
    with their rows in id order, and each seat's `empire.court_costs` with its inputs."""

    __slots__ = ("areas", "owned", "tied", "claimed", "order", "courts")

    def __init__(self, areas: dict[str, Area], owned: Lists, tied: Lists, claimed: Lists) -> None:
        self.areas = areas
        self.owned = owned
        self.tied = tied
        self.claimed = claimed
        self.order: list[tuple[str, Area]] | None = None
        # per seat: (the owned list, the Court and the seafaring Areas it came from, the answer)
        self.courts: dict[int, tuple[list[str] | None, str, tuple[str, ...], dict[str, int]]] = {}


_TABLE: dict[int, MapIndex] = {}
# The index asked for last: a playout or a page asks of one state many times in a row, so this is
# looked at before the table. It is the one `_known` answers for its map (setters included),
# whether or not the table still holds it.
_LAST: MapIndex | None = None
_LOCK = threading.Lock()
_APPLYING: ContextVar[bool] = ContextVar("ema_index_applying", default=False)


def _ids(areas: dict[str, Area]) -> tuple[str, ...]:
    ids = area_ids()
    return ids if len(areas) == len(ids) else tuple(sorted(areas))


def _scan(areas: dict[str, Area]) -> tuple[Lists, Lists, Lists]:
    """Every seat's Areas, Ties and Claims, from one pass over the map in id order."""
    owned: Lists = {}
    tied: Lists = {}
    claimed: Lists = {}
    for a in _ids(areas):
        row = areas[a]
        owner = row[OWNER]
        if owner is not None:
            owned.setdefault(owner, []).append(a)
        if row[TIES]:
            for seat in seats_in(row[TIES]):
                tied.setdefault(seat, []).append(a)
        if row[CLAIMS]:
            for seat in seats_in(row[CLAIMS]):
                claimed.setdefault(seat, []).append(a)
    return owned, tied, claimed


def _register(found: MapIndex) -> MapIndex:
    global _LAST
    with _LOCK:
        _TABLE[id(found.areas)] = found
        _LAST = found
        while len(_TABLE) > KEEP:
            del _TABLE[next(iter(_TABLE))]
    return found


def _build(areas: dict[str, Area]) -> MapIndex:
    return _register(MapIndex(areas, *_scan(areas)))


def _stale(found: MapIndex) -> bool:
    owned, tied, claimed = _scan(found.areas)
    order = found.order
    return (
        owned != {k: v for k, v in found.owned.items() if v}
        or tied != {k: v for k, v in found.tied.items() if v}
        or claimed != {k: v for k, v in found.claimed.items() if v}
        or (order is not None and any(found.areas[a] is not row for a, row in order))
    )


def _checked(found: MapIndex) -> MapIndex:
    """CHECK: the index if it matches the map; else an error inside an action, a new one outside."""
    if not _stale(found):
        return found
    if _APPLYING.get():
        raise InvariantError("an Area's owner, Ties or Claims changed around mapindex's setters")
    return _build(found.areas)


def index(state: State) -> MapIndex:
    """The index of this state's map (built by one scan if there is none)."""
    found = _known(state)
    if found is None:
        return _build(state["areas"])
    return _checked(found) if CHECK else found


def owned(state: State, seat: int) -> list[str]:
    """Areas a seat possesses, in id order (the caller must not change the list)."""
    found = index(state).owned.get(seat)
    return [] if found is None else found


def owned_all(state: State) -> dict[int, list[str]]:
    """Every seat's Areas, in id order (seats owning none left out; the lists must not change)."""
    return {seat: mine for seat, mine in index(state).owned.items() if mine}


def tied(state: State, seat: int) -> list[str]:
    """Areas where a seat has a Diplomatic Tie, in id order (the caller must not change the list)."""
    found = index(state).tied.get(seat)
    return [] if found is None else found


def claimed(state: State, seat: int) -> list[str]:
    """Areas a seat has a Claim to, in id order (the caller must not change the list)."""
    found = index(state).claimed.get(seat)
    return [] if found is None else found


def in_order(state: State) -> list[tuple[str, Area]]:
    """Every Area with its changing state, in id order (the caller must not change the list)."""
    found = index(state)
    if found.order is None:
        areas = found.areas
        found.order = [(a, areas[a]) for a in _ids(areas)]
    return found.order


def _known(state: State) -> MapIndex | None:
    """The index of this state's map if there is one (the setters keep only that one current)."""
    global _LAST
    areas = state["areas"]
    last = _LAST
    if last is not None and last.areas is areas:
        return last
    found = _TABLE.get(id(areas))
    if found is not None and found.areas is areas:
        _LAST = found
        return found
    return None


def set_owner(state: State, aid: str, seat: int | None) -> None:
    """Give an Area to a seat (None: Independent), keeping the index current."""
    here = state["areas"][aid]
    old = here[OWNER]
    here[OWNER] = seat
    found = _known(state)
    if found is None or old == seat:
        return
    lists = found.owned
    if old is not None:
        lists[old] = [a for a in lists.get(old, ()) if a != aid]
    if seat is not None:
        mine = list(lists.get(seat, ()))
        insort(mine, aid)
        lists[seat] = mine


def set_ties(state: State, aid: str, mask: int) -> None:
    """Set the seats with a Diplomatic Tie in an Area (a bitmask), keeping the index current."""
    _set_mask(state, aid, TIES, mask)


def set_claims(state: State, aid: str, mask: int) -> None:
    """Set the seats with a Claim to an Area (a bitmask), keeping the index current."""
    _set_mask(state, aid, CLAIMS, mask)


def _set_mask(state: State, aid: str, column: int, mask: int) -> None:
    here = state["areas"][aid]
    changed = here[column] ^ mask
    here[column] = mask
    found = _known(state)
    if found is None or not changed:
        return
    lists = found.tied if column == TIES else found.claimed
    for seat in seats_in(changed):
        if mask >> seat & 1:
            mine = list(lists.get(seat, ()))
            insort(mine, aid)
        else:
            mine = [a for a in lists.get(seat, ()) if a != aid]
        lists[seat] = mine


def add_tie(state: State, aid: str, seat: int) -> None:
    """Give a seat a Diplomatic Tie in an Area."""
    set_ties(state, aid, state["areas"][aid][TIES] | 1 << seat)


def drop_tie(state: State, aid: str, seat: int) -> None:
    """Remove a seat's Diplomatic Tie from an Area."""
    set_ties(state, aid, state["areas"][aid][TIES] & ~(1 << seat))


def forget(state: State) -> None:
    """Drop the index of a map whose rows were rewritten wholesale (rebuilt when next asked)."""
    global _LAST
    with _LOCK:
        _TABLE.pop(id(state["areas"]), None)
        if _LAST is not None and _LAST.areas is state["areas"]:
            _LAST = None


def copied(source: dict[str, Area], copy: dict[str, Area]) -> None:
    """Index a copy of a map as its source is indexed (no scan; the lists are shared)."""
    last = _LAST
    found = last if last is not None and last.areas is source else _TABLE.get(id(source))
    if found is None or found.areas is not source or (CHECK and _stale(found)):
        return
    twin = MapIndex(copy, dict(found.owned), dict(found.tied), dict(found.claimed))
    twin.courts = dict(found.courts)
    _register(twin)


@contextmanager
def applying(state: State) -> Iterator[None]:
    """CHECK: while an action is applied, a stale index is an error (on entry it is rebuilt)."""
    found = _known(state)
    if found is not None:
        _checked(found)
    token = _APPLYING.set(True)
    try:
        yield
        found = _known(state)
        if found is not None:
            _checked(found)
    finally:
        _APPLYING.reset(token)


def verify(state: State) -> None:
    """Raise InvariantError when the state's index no longer matches its map."""
    found = _known(state)
    if found is not None and _stale(found):
        raise InvariantError("the map index does not match the Areas' owners, Ties and Claims")
