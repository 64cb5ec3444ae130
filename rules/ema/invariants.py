"""Invariants for tests and fuzzing: cards conserved, tracks in range, Courts held."""

from __future__ import annotations

from collections import Counter

from rules.core.engine import State
from rules.core.errors import InvariantError
from rules.ema import mapindex
from rules.ema.state import AREA_FIELDS, CLAIMS, FORT, OWNER, PARTIAL, SS, TIES, data

# The Event kinds (19.1): resolved when drawn, never held; every other card is a Holding card.
EVENT_KINDS = frozenset({"plenty", "famine", "epidemic", "heresy", "heirless"})


def is_holding(card: str) -> bool:
    """Whether a card of the Event deck is a Holding card (kept in hand, 19.0 P)."""
    return data().events[card]["kind"] not in EVENT_KINDS


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise InvariantError(message)


def check(state: State) -> None:
    """Raise InvariantError on the first broken invariant."""
    d = data()
    seats = 1 << len(state["seats"])  # Ties and Claims: bits of seats only
    for aid, here in state["areas"].items():
        _check(isinstance(here, list) and len(here) == len(AREA_FIELDS), f"{aid} is not a row")
        _check(-3 <= here[SS] <= d.areas[aid]["norm"] + 2, f"{aid} SS {here[SS]} out of range")
        _check(here[FORT] in (0, 2, 3), f"{aid} fort {here[FORT]}")
        _check(0 <= here[TIES] < seats and 0 <= here[CLAIMS] < seats, f"{aid} Ties or Claims")
        _check(
            all(p["n"] > 0 and p["seat"] != here[OWNER] for p in here[PARTIAL]),
            f"{aid} bad partials",
        )
    for i, me in enumerate(state["seats"]):
        _check(me["gold"] >= 0, f"seat {i} owes gold")
        _check(
            all(v in (1, 2, 3, 5, 9) for v in me["st"].values()), f"seat {i} stature out of range"
        )
        _check(
            me["court"] is None or state["areas"][me["court"]][OWNER] == i,
            f"seat {i} lost its Court",
        )
        _check(len(me["years"]) + len(me["revealed"]) <= 5, f"seat {i} has too many Year Cards")
        _check(me["defenses"] <= 4, f"seat {i} defended more than four times")
        _check(not (me["exile"] and me["court"] is not None), f"seat {i} is in exile with a Court")
    _check_cards(state)
    check_colonies(state)
    _check(state.get("schism", "schism") in ("schism", "union"), "the Schism is Union or Schism")
    _check_nonplayers(state)
    _check_grand(state)
    if not mapindex.CHECK:  # with CHECK on (tests) every answer is checked, and rows set by hand
        mapindex.verify(state)


def check_colonies(state: State) -> None:
    """25.11-25.15: at most two per Player, one colonization per Area or Base, totals not negative."""
    used: list[str] = []
    for col in state.get("colonies", []):
        used += [col["area"], *col["bases"]]
        _check(col["points"] >= 0 and col["bases"], f"colonization of {col['area']} is malformed")
    _check(len(used) == len(set(used)), "an Area serves two colonizations")
    for i in range(len(state["seats"])):
        mine = sum(1 for c in state.get("colonies", []) if c["seat"] == i)
        _check(mine <= 2, f"seat {i} has {mine} colonizations")


def _check_cards(state: State) -> None:
    years = list(state["year_deck"])
    events = list(state["event_deck"]) + list(state["event_discard"])
    for i, me in enumerate(state["seats"]):
        years += me["years"] + me["revealed"]
        events += me["hand"] + me["inplay"]
        held = [c for c in me["hand"] + me["inplay"] if not is_holding(c)]
        _check(not held, f"seat {i} holds Event cards {held} (19.0 P: Events are never kept)")
        _check(
            len(me["hand"]) <= data().tables["hand_limit"] + 1,
            f"seat {i} holds {len(me['hand'])} cards, over the limit even while discarding",
        )
    events += [f["card"] for f in state["stack"] if f["kind"] == "holding"]
    years += state.get("npc_played", [])  # Raiders' and Magnates' cards (24.0, A-47)
    years += [m["defense_card"] for m in state.get("magnates", []) if m["defense_card"] is not None]
    if state["year_deck"] or any(me["years"] or me["revealed"] for me in state["seats"]):
        _check(sorted(years) == sorted(data().year_cards), "Year Cards not conserved")
    dupes = [c for c, k in Counter(events).items() if k > 1]
    _check(not dupes, f"Event cards in two places: {dupes}")
    _check(len(events) == 55 + (state["options"]["event_deck"] == 56), "Event cards not conserved")


def _check_nonplayers(state: State) -> None:
    """24.0, 24.5x: at most three Magnates, each in his Court; their and the Vikings' Areas no Player's."""
    held = state.get("npc_areas", {})
    mags = state.get("magnates", [])
    _check(len(mags) <= 3, "more than three Magnates")
    for mag in mags:
        _check(held.get(mag["court"]) == mag["key"], f"{mag['key']} is not in his Court")
        _check(mag["stature"] in (5, 9), f"{mag['key']} has Stature {mag['stature']}")
    for aid in held:
        _check(state["areas"][aid][OWNER] is None, f"{aid} is a Player's and a Magnate's")


def _check_grand(state: State) -> None:
    """32.0: a Player waiting for his kingdom holds no Area and no Court; numbers are distinct."""
    grand = state.get("grand")
    if grand is None:
        return
    numbers = list(grand["numbers"].values())
    _check(len(numbers) == len(set(numbers)), "two Players hold one kingdom number")
    for i, me in enumerate(state["seats"]):
        if me.get("waiting"):
            _check(me["court"] is None, f"waiting seat {i} has a Court")
            _check(
                all(h[OWNER] != i for h in state["areas"].values()),
                f"waiting seat {i} holds Areas",
            )
    _check(len(state["seats"]) == state["players"], "a seat for every Player")
