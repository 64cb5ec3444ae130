"""Helpers for Feudal Lords rules tests: games in a known position, driven through `apply`.

`duel()` gives a game past the opening discards, with plain decks (the Magistrate, the Scrap
Holdings locations of the rulebook's examples, no Artifacts). `blank()` empties the hands,
`field()` puts a character in an active area, `give()` puts cards in a hand, and
`action_phase()` makes it a seat's Action phase. `act()` goes through the checked `apply`.
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import Event
from rules.feudal import ENGINE
from rules.feudal.components import load

State = dict[str, Any]
PETER, RICHARD = 0, 1


def plain_deck(
    leader: str = "magistrate",
    locations: str = "scrap_holdings",
    artifacts: list[str] | None = None,
) -> dict[str, Any]:
    """The Under-City stockpile with a chosen leader, locations and artifacts."""
    return {
        "leader": leader,
        "locations": locations,
        "artifacts": artifacts or [],
        "stockpile": dict(load().decks["under_city"]["stockpile"]),
    }


def duel(
    seed: int = 1,
    options: dict[str, Any] | None = None,
    decks: list[Any] | None = None,
    mode: str = "duel",
    players: int = 2,
) -> State:
    """A game after set-up: every Artifact played, in deck order, on the first free locations,
    and each seat's first cards discarded."""
    config = {
        "mode": mode,
        "options": options or {},
        "decks": decks or [plain_deck() for _ in range(players)],
    }
    state = ENGINE.setup(seed, config, players)
    return finish_setup(state)


def finish_setup(state: State) -> State:
    """Answer the set-up prompts: the first option each time (Artifacts first, then discards)."""
    while state["stack"] and state["stack"][-1]["kind"] in ("setup_artifacts", "setup_discard"):
        prompt = ENGINE.prompts(state)[0]
        state, _ = ENGINE.apply(state, prompt["seat"], prompt["options"][0]["action"])
    return state


def blank(state: State, sup: int = 0, ld: int = 0) -> State:
    """Empty every hand into its discard pile and set everyone's Sup and Ld."""
    for me in state["seats"]:
        me["discard"] += me["hand"]
        me["hand"] = []
        me["sup"], me["ld"] = sup, ld
    return state


def give(state: State, seat: int, cards: list[str]) -> None:
    """Add cards to a seat's hand (they join the seat's cards)."""
    state["seats"][seat]["hand"] += cards
    state["seats"][seat]["cards"] += len(cards)


def field(
    state: State,
    seat: int,
    cid: str,
    weapons: list[str] | None = None,
    skills: list[str] | None = None,
) -> dict[str, Any]:
    """Put a character (with attachments) in a seat's active area."""
    uid = state["next_uid"]
    state["next_uid"] += 1
    character = {
        "uid": uid,
        "card": cid,
        "skills": list(skills or []),
        "weapons": list(weapons or []),
    }
    state["seats"][seat]["area"].append(character)
    state["seats"][seat]["cards"] += 1 + len(character["skills"]) + len(character["weapons"])
    return character


def turn(seat: int, phase: str) -> dict[str, Any]:
    """A turn frame at a phase."""
    return {"kind": "turn", "seat": seat, "phase": phase, "drafted": False, "combat": False}


def action_phase(state: State, seat: int) -> State:
    """Make it the seat's Action phase."""
    state["stack"] = [turn(seat, "resource"), {"kind": "action", "seat": seat}]
    state["active"] = seat
    return state


def draft_phase(state: State, seat: int) -> State:
    """Make it the seat's Draft phase."""
    state["stack"] = [turn(seat, "action"), {"kind": "draft", "seat": seat}]
    state["active"] = seat
    return state


def top(state: State) -> dict[str, Any]:
    """The frame deciding now."""
    frame: dict[str, Any] = state["stack"][-1]
    return frame


def actions(state: State, seat: int | None = None) -> list[Any]:
    """Legal actions of the first prompted seat (or of the given seat)."""
    for prompt in ENGINE.prompts(state):
        if seat is None or prompt["seat"] == seat:
            return [o["action"] for o in prompt["options"]]
    return []


def act(state: State, action: Any, seat: int | None = None) -> tuple[State, list[Event]]:
    """Apply an action for the first prompted seat (or the given one) through the checked path."""
    who = ENGINE.prompts(state)[0]["seat"] if seat is None else seat
    new, events = ENGINE.apply(state, who, action)
    ENGINE.check_invariants(new)
    return new, events


def pass_windows(state: State, count: int = 1) -> State:
    """Every seat passes at the next `count` Instant windows (stopping at any other decision)."""
    for _ in range(count):
        if not state["stack"] or top(state)["kind"] != "window":
            return state
        for _seat in list(top(state)["order"]):
            state, _ = act(state, {"do": "pass"})
    return state


def uid_of(state: State, seat: int, cid: str) -> int:
    """The uid of a seat's character in its active area."""
    return int(next(c["uid"] for c in state["seats"][seat]["area"] if c["card"] == cid))


def fight(state: State) -> dict[str, Any]:
    """The combat frame in progress."""
    found: dict[str, Any] = next(f for f in reversed(state["stack"]) if f["kind"] == "combat")
    return found
