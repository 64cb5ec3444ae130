"""A tiny engine for site tests: turns, an off-turn reaction prompt, a die roll, three rounds.

It lets tests reach an off-turn prompt, a barrier and the end of a game in a few moves,
which the real games take hundreds of moves to do.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.models import Scenario
from rules.core import rng
from rules.core.canonical import clone
from rules.core.engine import Engine, Event, Option, Prompt, Result, State
from rules.core.registry import _ENGINES, get_engine

ROUNDS = 2
GAIN: Option = {"action": {"do": "gain"}, "label": "Gain 1 gold"}
POKE: Option = {"action": {"do": "poke"}, "label": "Poke the others"}
ROLL: Option = {"action": {"do": "roll"}, "label": "Roll a die for gold"}
END: Option = {"action": {"do": "end"}, "label": "End your turn"}
PASS: Option = {"action": {"react": None}, "label": "Pass"}
TAKE: Option = {"action": {"react": "gold"}, "label": "Take 1 gold"}


class ToyEngine(Engine):
    """Each turn: gain, poke (every other seat reacts), roll, or end; two rounds."""

    game_id = "toy"
    title = "Toy"

    def scenarios(self) -> list[dict[str, Any]]:
        return [
            {
                "slug": "base",
                "title": "Toy",
                "description": "",
                "min_players": 1,
                "max_players": 4,
                "config": {"options": {}},
            }
        ]

    def validate_scenario(self, config: dict[str, Any]) -> list[str]:
        return []

    def player_range(self, config: dict[str, Any]) -> tuple[int, int]:
        return (1, 4)

    def setup(self, seed: int, config: dict[str, Any], players: int) -> State:
        return {
            "players": players,
            "rng": rng.seed_state(seed),
            "turn": 0,
            "react": [],
            "gold": [0] * players,
            "rounds": 0,
            "over": False,
        }

    def prompts(self, state: State) -> list[Prompt]:
        if state["over"]:
            return []
        if state["react"]:
            return [
                {
                    "seat": s,
                    "kind": "reaction",
                    "text": "You were poked",
                    "rule": "TOY-2",
                    "options": [PASS, TAKE],
                }
                for s in state["react"]
            ]
        return [
            {
                "seat": state["turn"],
                "kind": "turn",
                "text": "Your turn",
                "rule": "TOY-1",
                "options": [GAIN, POKE, ROLL, END],
            }
        ]

    def apply_trusted(self, state: State, seat: int, action: Any) -> list[Event]:
        if "react" in action:
            state["react"].remove(seat)
            state["gold"][seat] += action["react"] == "gold"
            return [{"rule": "TOY-2", "public": f"Seat {seat + 1} reacts.", "private": {}}]
        do = action["do"]
        if do == "gain":
            state["gold"][seat] += 1
        elif do == "poke":
            state["react"] = [s for s in range(state["players"]) if s != seat]
        elif do == "roll":
            state["gold"][seat] += rng.die(state)
        else:
            state["turn"] = (seat + 1) % state["players"]
            state["rounds"] += state["turn"] == 0
            state["over"] = state["rounds"] >= ROUNDS
        return [
            {
                "rule": "TOY-1",
                "public": f"Seat {seat + 1}: {do}.",
                "private": {str(seat): f"You {do}."},
            }
        ]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {k: v for k, v in state.items() if k != "rng"}

    def is_over(self, state: State) -> bool:
        return bool(state["over"])

    def result(self, state: State) -> Result:
        gold = state["gold"]
        return {
            "over": state["over"],
            "seats": [
                {
                    "seat": i,
                    "score": g,
                    "rank": 1 + sum(1 for h in gold if h > g),
                    "breakdown": {"gold": g, "pokes": 0},
                }
                for i, g in enumerate(gold)
            ],
        }

    def evaluate(self, state: State, seat: int) -> int:
        return int(state["gold"][seat])

    def determinize(self, state: State, seat: int, seed: int) -> State:
        new: State = clone(state)
        return new

    def check_invariants(self, state: State) -> None:
        return None

    def prompt_kinds(self) -> dict[str, str]:
        return {"reaction": "a reaction when another seat pokes you"}

    def active_seat(self, state: State) -> int | None:
        return int(state["turn"])


@pytest.fixture
def toy(db: None) -> Iterator[Scenario]:
    """The toy engine registered for one test, and its scenario row."""
    get_engine("hre")  # fill the registry first, so the toy is not dropped by a later load
    _ENGINES["toy"] = ToyEngine()
    yield Scenario.objects.create(
        game="toy", slug="base", title="Toy", min_players=1, max_players=4, config={"options": {}}
    )
    del _ENGINES["toy"]


def toy_game(creator: Any, *kinds: Any, public: bool = True) -> Any:
    """A toy game; users in `kinds` are invited and then join, so the game starts."""
    from games import services
    from tests.games.helpers import spec

    scenario = Scenario.objects.get(game="toy")
    game = services.create_game(
        creator, scenario, len(kinds), [spec(k) for k in kinds], None, public
    )
    for index, kind in enumerate(kinds):
        if not isinstance(kind, str):
            services.join(game.pk, kind, index)
    game.refresh_from_db()
    return game


def act(game: Any, user: Any, option: Option, seat: int) -> Any:
    """Submit an option for a seat at the game's current seq; returns the Move."""
    from games import services

    game.refresh_from_db()
    move = services.submit(game.pk, user, option["action"], game.seq, seat=seat)
    game.refresh_from_db()
    return move
