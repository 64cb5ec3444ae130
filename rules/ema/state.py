"""Shared helpers over the EMA state: context of a step, relations, SS changes, tables."""

from __future__ import annotations

from contextvars import ContextVar, Token
from functools import cache, lru_cache
from typing import Any

from rules.core import rng
from rules.core.canonical import copier, plain_clone
from rules.core.engine import State
from rules.core.frames import Frame as Frame  # re-exported: rule modules import it from here
from rules.core.frames import StepContext
from rules.ema import mapindex
from rules.ema.components import EmaData, load

# Re-exported: rule modules import the row layout and the map's index from here.
from rules.ema.mapindex import in_order as in_order
from rules.ema.mapindex import owned as owned
from rules.ema.mapindex import owned_all as owned_all
from rules.ema.mapindex import tied as tied
from rules.ema.rows import AREA_FIELDS as AREA_FIELDS
from rules.ema.rows import CLAIMS as CLAIMS
from rules.ema.rows import CONV as CONV
from rules.ema.rows import FORT as FORT
from rules.ema.rows import LANG as LANG
from rules.ema.rows import OWNER as OWNER
from rules.ema.rows import PARTIAL as PARTIAL
from rules.ema.rows import REL as REL
from rules.ema.rows import SS as SS
from rules.ema.rows import TIES as TIES
from rules.ema.rows import UNREST as UNREST
from rules.ema.rows import Area as Area
from rules.ema.rows import area_dict as area_dict
from rules.ema.rows import area_ids as area_ids
from rules.ema.rows import area_row as area_row
from rules.ema.rows import has as has
from rules.ema.rows import mask_of as mask_of
from rules.ema.rows import seats_in as seats_in

CHRISTIAN = ("RC", "EO")


def copy_state(state: dict[str, Any]) -> Any:
    """Deep-copy an EMA state: the Area rows by hand, the rest by `plain_clone`.

    The 77 rows are flat lists (their Partial Conquest entries and conversion flat dicts), which
    Python copies in about half the time of a JSON round trip; what else the state holds is
    less regular and goes through `plain_clone`. A state of another layout (Areas as dicts,
    before rules_version 2) is copied by `plain_clone` whole.
    """
    areas = state.get("areas")
    if type(areas) is not dict:
        return plain_clone(state)
    rows: dict[str, Area] = {}
    for aid, row in areas.items():
        if type(row) is not list or len(row) != len(AREA_FIELDS):
            return plain_clone(state)
        row = row.copy()
        partial = row[PARTIAL]
        row[PARTIAL] = [dict(p) for p in partial] if partial else []
        if row[CONV] is not None:
            row[CONV] = dict(row[CONV])
        rows[aid] = row
    rest = dict(state)
    rest["areas"] = None  # keeps the key's place in the copy
    copied = plain_clone(rest)
    copied["areas"] = rows
    mapindex.copied(areas, rows)
    return copied


copier("ema", copy_state)


def data() -> EmaData:
    """The validated component data (loaded once)."""
    return load()


class Ctx(StepContext[EmaData]):
    """One step of the EMA engine: the state being changed, its data and the events produced."""

    __slots__ = ()

    static_data = staticmethod(load)  # the cached loader itself: no Python call per step

    def area(self, aid: str) -> Area:
        """The changing state of a Land Area (a row: OWNER, SS, … above)."""
        here: Area = self.s["areas"][aid]
        return here

    def name(self, seat: int | None) -> str:
        """A seat's display name in the log."""
        if seat is None:
            return "Independent"
        return f"{self.s['seats'][seat]['empire_name']} (seat {seat + 1})"

    def aname(self, aid: str) -> str:
        """An Area's display name."""
        return str(self.d.areas[aid]["name"])

    def roll2(self) -> int:
        """Two dice summed."""
        return rng.die(self.s) + rng.die(self.s)


def norm(aid: str) -> int:
    """The printed Social State Norm of an Area."""
    return int(data().areas[aid]["norm"])


def change_ss(ctx: Ctx, aid: str, delta: int) -> int:
    """Change SS within −3..Norm+2 (7.11, 7.12); return the change actually made."""
    here = ctx.area(aid)
    new = max(-3, min(norm(aid) + 2, here[SS] + delta))
    made = new - here[SS]
    here[SS] = new
    return int(made)


@cache
def lang_relation(leader_lang: str, area_lang: str) -> int:
    """0 same Language, 1 related, 2 unrelated (7.31, 7.32; Turkish only to itself, A-52)."""
    if leader_lang == area_lang:
        return 0
    langs = data().languages
    if leader_lang not in langs or area_lang not in langs:
        return 2
    group = langs[leader_lang]["group"]
    if group == "turkish":
        return 2
    return 1 if group == langs[area_lang]["group"] else 2


@cache
def rel_relation(leader_rel: str, area_rel: str, excommunicated: bool = False) -> int:
    """0 same Religion and Church, 1 other Church, 2 other Religion (7.21, 7.22, 22.11)."""
    if excommunicated or leader_rel.startswith("pagan") or area_rel.startswith("pagan"):
        return 2
    if leader_rel == area_rel:
        return 0
    if leader_rel in CHRISTIAN and area_rel in CHRISTIAN:
        return 1
    if leader_rel.startswith("moslem") and area_rel.startswith("moslem"):
        return 0
    return 2


def is_christian(ctx: Ctx, seat: int) -> bool:
    """A Christian Leader (excommunication aside)."""
    return ctx.seat(seat)["rel"] in CHRISTIAN


def relations(ctx: Ctx, seat: int, aid: str) -> tuple[int, int]:
    """Language and Religion relationships between a seat's Leader and an Area."""
    me, here = ctx.seat(seat), ctx.area(aid)
    union = ctx.s.get("schism") == "union"
    return relation_pair(me["lang"], me["rel"], me["excom"], union, here[LANG], here[REL])


@cache
def relation_pair(
    lang: str, rel: str, excom: bool, union: bool, area_lang: str, area_rel: str
) -> tuple[int, int]:
    """The Language and Religion relationships of a Leader and an Area, from their values (kept
    once per combination: the Target searches ask it for every Area)."""
    found = rel_relation(rel, area_rel, excom)
    if found == 1 and union:
        found = 0  # 23.11 U: the two Churches count as one (the optional Schism rule)
    return lang_relation(lang, area_lang), found


def in_play(state: State) -> list[int]:
    """Seats taking part now: all but a Grand Scenario Player still waiting for a kingdom (32.0)."""
    return [i for i, me in enumerate(state["seats"]) if not me.get("waiting")]


# While the prompts are listed nothing changes the state, so what the options ask of the map
# again and again (whose Areas a seat owns, which of them reach its Court) is worked out once per
# listing: `reading` names the state being read and holds those answers; outside it (in steps,
# which change the state) every question scans anew.
_READING: ContextVar[tuple[State, dict[Any, Any]] | None] = ContextVar("ema_reading", default=None)


def reading(state: State) -> Token[tuple[State, dict[Any, Any]] | None]:
    """Remember map scans of this state until `done_reading` (the state must not change meanwhile)."""
    return _READING.set((state, {}))


def done_reading(token: Token[tuple[State, dict[Any, Any]] | None]) -> None:
    """Forget what `reading` remembered."""
    _READING.reset(token)


def memo(state: State) -> dict[Any, Any] | None:
    """The answers remembered for this state while it is being read, or None."""
    found = _READING.get()
    return found[1] if found is not None and found[0] is state else None


@cache
def _printed_seafaring() -> tuple[str, ...]:
    return tuple(sorted(a for a, v in data().areas.items() if v["seafaring"]))


def seafaring(state: State) -> tuple[str, ...]:
    """Seafaring Areas: the six of 9.53 plus any the scenario adds (the same tuple each time for
    the same Areas, so callers may compare it by identity)."""
    extra = state["seafaring_extra"]
    return _with_extra(tuple(extra)) if extra else _printed_seafaring()


@lru_cache(maxsize=64)
def _with_extra(extra: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(_printed_seafaring() + extra))


def holding_count(ctx: Ctx, seat: int, kind: str) -> int:
    """How many played persistent Holding cards of a kind the seat has in play."""
    events = ctx.d.events
    return sum(1 for c in ctx.seat(seat)["inplay"] if events[c]["kind"] == kind)


def tech_bonus(ctx: Ctx, seat: int) -> int:
    """+3 per Technological Weapons or Tactical Systems card in play (19.2)."""
    inplay = ctx.s["seats"][seat]["inplay"]
    if not inplay:
        return 0
    events = ctx.d.events
    return 3 * sum(1 for c in inplay if events[c]["kind"] in ("weapons", "tactics"))
