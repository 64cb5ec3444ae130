"""Invariants for tests and fuzzing: cards conserved, resources in range, slots and rules kept."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.core.engine import State
from rules.core.errors import InvariantError
from rules.feudal import solitaire
from rules.feudal.setup import START_MARKERS
from rules.feudal.state import card


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise InvariantError(message)


# Cards that live in a Stockpile and a hand; Leaders, Locations and Artifacts never do.
STOCK_TYPES = frozenset(
    {"character", "weapon", "instant", "skill", "supply", "victory", "constant"}
)


def check(state: State) -> None:
    """Raise InvariantError on the first broken invariant."""
    if state["mode"] == "solitaire":
        solitaire.check(state)
        return
    held = _cards_by_seat(state)
    named: Counter[str] = Counter()
    for i, me in enumerate(state["seats"]):
        _check(0 <= me["sup"] <= 6 and 0 <= me["ld"] <= 6, f"seat {i} Sup/Ld out of 0..6")
        _check(
            0 <= me["markers"] <= _marker_cap(me) and me["vp"] >= 0,
            f"seat {i} markers or VP out of range",
        )
        _check(held[i] == me["cards"], f"seat {i} has {held[i]} cards, not {me['cards']}")
        strays = [c for c in me["hand"] + me["stock"] if card(c)["type"] not in STOCK_TYPES]
        _check(not strays, f"seat {i} has {strays} in its hand or Stockpile")
        for loc in me["locs"]:
            _check(
                loc["token"] or loc["supply"] is None, f"seat {i} has a Supply on a sacked location"
            )
        for c in _characters(state, i):
            _check_character(c, i)
            if not card(c["card"])["generic"]:
                named[c["card"]] += 1
    dupes = [c for c, k in named.items() if k > 1]
    _check(not dupes, f"Named characters in play twice: {dupes}")
    for frame in state["stack"]:
        if frame["kind"] == "combat":
            _check_combat(frame)


def _marker_cap(me: dict[str, Any]) -> int:
    """5 markers plus those the seat's Artifacts in play give (FL-SETUP-03, FL-MARK-01); a deck may
    hold several copies of one Artifact, so the bound follows the Artifacts, not a fixed 6."""
    arts = [loc["artifact"] for loc in me["locs"] if loc["artifact"]]
    return START_MARKERS + sum(
        int(e["amount"]) for a in arts for e in card(a)["effects"] if e["kind"] == "markers"
    )


def _characters(state: State, seat: int) -> list[dict[str, Any]]:
    found = list(state["seats"][seat]["area"])
    for frame in state["stack"]:
        if frame["kind"] == "combat":
            found += [c for c in frame["a"] + frame["d"] if c["owner"] == seat]
    return found


def _check_character(c: dict[str, Any], seat: int) -> None:
    body = card(c["card"])
    _check(
        len(c["skills"]) <= body["skills"] and len(c["weapons"]) <= body["weapons"],
        f"seat {seat}: {body['name']} over its slots",
    )
    _check(
        len(set(c["skills"])) == len(c["skills"]) and len(set(c["weapons"])) == len(c["weapons"]),
        f"seat {seat}: {body['name']} holds duplicates",
    )
    families = [card(w)["family"] for w in c["weapons"] if card(w)["family"]]
    _check(
        len(set(families)) == len(families), f"seat {seat}: {body['name']} holds Light and Heavy"
    )


def _check_combat(frame: dict[str, Any]) -> None:
    for side in ("a", "d"):
        for c in frame[side]:
            _check(c["hits"] >= 0 and c["wounds"] >= 0, "negative hits or wounds")
    supporters = {side for side in ("a", "d") for c in frame[side] if c["sup"] is not None}
    _check(len(supporters) <= 1, "both sides have supporting combatants (FL-COMBAT-MU-05)")


def _cards_by_seat(state: State) -> list[int]:
    """Every card each seat owns, wherever it is."""
    counts = [0] * len(state["seats"])
    for i, me in enumerate(state["seats"]):
        counts[i] += len(me["hand"]) + len(me["stock"]) + len(me["discard"]) + len(me["constants"])
        counts[i] += sum(1 for loc in me["locs"] if loc["supply"])
        counts[i] += sum(1 + len(c["skills"]) + len(c["weapons"]) for c in me["area"])
    for frame in state["stack"]:
        if frame["kind"] == "combat":
            for c in frame["a"] + frame["d"]:
                counts[c["owner"]] += 1 + len(c["skills"]) + len(c["weapons"])
            for vc in frame["vc"].values():
                if vc:
                    counts[vc["seat"]] += 1
        elif frame["kind"] == "window":
            for play in frame["played"]:
                counts[play["seat"]] += 1
        elif frame["kind"] == "draft_marker":
            counts[frame["seat"]] += 1
        elif frame["kind"] == "setup_discard":
            for seat, held in frame["held"].items():
                counts[int(seat)] += len(held)
    return counts
