"""Shared helpers over the HRE state: the context of a step, control, levels, tracks, gains."""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.core.engine import State
from rules.core.frames import Frame as Frame  # re-exported: rule modules import it from here
from rules.core.frames import StepContext
from rules.hre import modules
from rules.hre.components import HreData, in_play, load

RESOURCES = ("wood", "leather", "stone", "iron")
UNITS = ("infantry", "archer", "cavalry")


# The validated component data (loaded once): the cached loader itself, so the many helpers
# that take a state rather than a step context make one call for it, not two.
data = load


# The board's numbers a module may lay out differently (Module 2's joined board keeps its own in
# state["table"]): the key there, and where board.json has it (per player count or not).
_BOARD_NUMBERS = {
    "cities": ("cities", True),
    "discs": ("discs", True),
    "exhausted": ("exhausted_at_setup", True),
    "offer_size": ("offer_size", False),
    "base_access": ("base_access", False),
    "react_at": ("react_at", False),
}


def board_number(state: State, key: str) -> int:
    """One number of the table this game is played on: board.json's for its player count, unless
    a module laid out another table ("table" in the state, only then)."""
    over = state.get("table")
    if over is not None:
        return int(over[key])
    board = data().board
    if key == "per_red":
        return 1  # each red Culture space unlocks one card (HRE-BASE-DEV-02)
    if key == "church_spaces":
        return int(board["church_track"]["spaces"])
    if key == "church_end":
        return int(board["church_track"]["end"][str(state["players"])])
    name, per_count = _BOARD_NUMBERS[key]
    return int(board[name][str(state["players"])] if per_count else board[name])


def token_sets(state: State) -> list[str]:
    """The token sets of this game, the one on the map first: the Barbarian tokens, unless a
    module put others in their place (Module 7's Skirmishers, HRE-M07-SETUP-01)."""
    found: list[str] = state.get("token_sets", ["barbarian"])
    return found


def game_tokens(state: State) -> list[str]:
    """Every token id this game plays with, in all its sets."""
    sets = load().token_sets
    return [t for name in token_sets(state) for t in sets[name]]


class Ctx(StepContext[HreData]):
    """One step of the HRE engine: the state being changed, its data and the events produced."""

    __slots__ = ()

    static_data = staticmethod(load)  # the cached loader itself: no Python call per step

    def nothing_done(self) -> None:
        """The Noble action just popped had no effect: its 'whenever you resolve' bonus is void."""
        stack = self.s["stack"]
        if stack and stack[-1]["kind"] == "after_action":
            stack[-1]["void"] = True

    def name(self, seat: int | None) -> str:
        """A seat's display name in the log: its Ruler, or its number before the draft."""
        if seat is None:
            return "the Barbarians"
        me = self.s["seats"][seat]
        if "name" in me:
            return str(me["name"])  # a seat a module plays itself (the solo Lordlings)
        ruler = me["ruler"]
        found = _NAMES.get((ruler, seat))
        if found is None:
            label = self.d.rulers[ruler]["name"] if ruler else f"Seat {seat + 1}"
            found = _NAMES[ruler, seat] = f"{label} (seat {seat + 1})"
        return found


# Display names by (Ruler, seat): the log names a seat on most steps, always in the same words.
_NAMES: dict[tuple[str | None, int], str] = {}


@cache
def _adjacent_in_play(players: int) -> dict[str, tuple[str, ...]]:
    d = data()
    live = in_play(d.provinces, players)
    return {p: tuple(q for q in d.adjacent[p] if q in live) for p in live}


def neighbours(state: State, prov: str) -> tuple[str, ...]:
    """In-play neighbours of a province, by land border or water link (HRE-BASE-GEN-04)."""
    # A module may lay out another map than its tables' (solo, 1: HRE-M01-SETUP-07).
    players = state["map_players"] if "map_players" in state else state["players"]
    return _adjacent_in_play(int(players))[prov]


def owner(state: State, prov: str) -> int | None:
    """The seat controlling a province, or None (HRE-BASE-GEN-05)."""
    value: int | None = state["prov"][prov]["owner"]
    return value


def controlled(state: State, seat: int) -> list[str]:
    """Provinces a seat controls, in id order."""
    return sorted(p for p, prov in state["prov"].items() if prov["owner"] == seat)


def capital(state: State, seat: int) -> str | None:
    """The seat's Capital province, once its Ruler is drafted."""
    ruler = state["seats"][seat]["ruler"]
    return data().rulers[ruler]["capital"] if ruler else None


def unit_count(units: dict[str, int]) -> int:
    """Number of units in a units-by-type dict."""
    return units["infantry"] + units["archer"] + units["cavalry"]


def refresh_owner(state: State, prov: str) -> None:
    """A province with no units and no Farm becomes uncontrolled, except a Capital (GEN-07)."""
    here = state["prov"][prov]
    if here["owner"] is None or here["farms"] or unit_count(here["units"]):
        return
    if capital(state, here["owner"]) == prov:
        return
    here["owner"] = None


def on_board(state: State, seat: int, unit: str) -> int:
    """Units of one type a seat has on the board and in a battle (not in supply)."""
    total: int = sum(p["units"][unit] for p in state["prov"].values() if p["owner"] == seat)
    for frame in state["stack"]:
        if frame["kind"] == "battle":
            for side in frame["sides"]:
                total += sum(
                    1
                    for u in side
                    if u["own"] == seat and not u["tr"] and not u["dead"] and u["t"] == unit
                )
        elif frame.get("carry") is not None and frame["seat"] == seat:
            total += frame["carry"].get(unit, 0)
    if "modules" in state:  # units a module holds off the map (on a Crusade, M14A)
        total += modules.held(state, "units").count(f"{seat}:{unit}")
    return total


def in_supply(state: State, seat: int, unit: str) -> int:
    """Units of one type still in the seat's supply (HRE-COMP-06)."""
    return int(data().board["unit_supply"][unit]) - on_board(state, seat, unit)


def army_size(state: State, seat: int) -> int:
    """Non-Transient units a seat has on the main board (AMB-24)."""
    return sum(unit_count(p["units"]) for p in state["prov"].values() if p["owner"] == seat)


def farm_space(state: State, seat: int) -> dict[str, int]:
    """The rightmost visible space of the seat's Farm track."""
    track = data().board["farm_track"]
    space: dict[str, int] = track[len(track) - 1 - state["seats"][seat]["farms_track"]]
    return space


def army_limit(state: State, seat: int) -> int:
    """The Army limit: the rightmost visible value of the Farm track (HRE-BASE-MANOEUVRE-01).

    The book also calls it the Army Upkeep limit; one rule, one name here (AMB-70)."""
    return farm_space(state, seat)["army_limit"]


def unit_level(state: State, seat: int, unit: str) -> int:
    """A unit type's level: its top Military Technology, or the printed level I."""
    me = state["seats"][seat]
    mil = me["mil"][unit]
    if mil is None:
        # A seat a module plays keeps its own unit levels (the Lordlings, HRE-M01-UPG-02).
        return int(me["levels"][unit]["level"]) if "levels" in me else 1
    level: int = data().cards[mil["card"]]["halves"][mil["half"]]["level"]
    return level


def unit_stats(state: State, seat: int, unit: str) -> dict[str, Any]:
    """Combat values and recruit cost of a unit type for a seat (HRE-BASE-GEN-14)."""
    me = state["seats"][seat]
    mil = me["mil"][unit]
    if mil is None:
        if "levels" in me:
            own: dict[str, Any] = me["levels"][unit]["stats"]
            return own
        stats: dict[str, Any] = data().board["units"][unit]
        return stats
    half: dict[str, Any] = data().cards[mil["card"]]["halves"][mil["half"]]
    return half


def modifiers(state: State, seat: int, kind: str) -> list[dict[str, Any]]:
    """Active ongoing modifiers of one kind from the seat's Common Technologies."""
    techs = state["seats"][seat]["techs"]
    if not techs:
        return []
    ongoing = load().ongoing
    return [
        m for tech in techs for m in ongoing[tech["card"]][tech["level"] - 1] if m["kind"] == kind
    ]


def modifier_total(state: State, seat: int, kind: str) -> int:
    """The summed amount of every active modifier of one kind."""
    return sum(int(m["amount"]) for m in modifiers(state, seat, kind))


def resources_held(state: State, seat: int) -> int:
    """Resources a seat holds; Gold is not a resource (HRE-BASE-GEN-08)."""
    res = state["seats"][seat]["res"]
    return int(res["wood"] + res["leather"] + res["stone"] + res["iron"])


def describe(amounts: dict[str, int]) -> str:
    """Readable text for a dict of amounts, e.g. '1 wood, 2 stone'."""
    names = {"cp": "Culture Points", "vp": "VP", "gold": "Gold"}
    parts = [f"{n} {names.get(k, k)}" for k, n in sorted(amounts.items()) if n]
    return ", ".join(parts) if parts else "nothing"
