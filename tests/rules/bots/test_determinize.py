"""Determinize gives a legal state of the game, in all three games and every shipped scenario.

A determinized state (ARCHITECTURE §hidden information: the hidden things re-dealt from one
seat's view) must pass the engine's invariants, which check that each hand and deck holds only
cards of its own kind and in the right number, and a random playout from it must run without
error. The measured EMA failure: Event cards dealt into rivals' Holding hands (EMA-19.0.P),
crashing later prompts with KeyError('famine').
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import rng
from rules.core.canonical import clone
from rules.core.engine import Engine, State
from rules.core.errors import InvariantError
from rules.core.registry import get_engine
from rules.ema.events import HANDLERS
from rules.ema.invariants import EVENT_KINDS
from tests.rules.bots.helpers import position, scenario_seats
from tests.rules.bots.test_arena_scenarios import SHORTER
from tests.rules.tables import distinct_tables


def _check_point(engine: Engine, state: State, seed: int, playout: int | None) -> None:
    """Determinize for every seat; each passes the invariants and plays on without error."""
    for seat in range(engine.seats(state)):
        world = engine.determinize(state, seat, seed + seat)
        engine.check_invariants(world)
        assert engine.view(world, seat) == engine.view(state, seat)
        chooser = {"rng": rng.seed_state(seed ^ seat)}
        steps = 0
        while not engine.is_over(world) and (playout is None or steps < playout):
            prompt = rng.choice(chooser, engine.prompts(world))
            action = rng.choice(chooser, prompt["options"])["action"]
            engine.apply_trusted(world, prompt["seat"], action)
            if steps < 60:
                engine.check_invariants(world)
            steps += 1


def _play(engine: Engine, state: State, seed: int, keep: set[int] | None) -> list[State]:
    """Play a random game to its end; copies of the positions at the kept action numbers."""
    chooser = {"rng": rng.seed_state(seed)}
    kept, steps = [], 0
    while not engine.is_over(state):
        if keep is not None and steps in keep:
            kept.append(clone(state))
        prompt = rng.choice(chooser, engine.prompts(state))
        engine.apply_trusted(
            state, prompt["seat"], rng.choice(chooser, prompt["options"])["action"]
        )
        steps += 1
    return kept if keep is not None else [state] * steps


def _points(engine: Engine, scenario: dict[str, Any], players: int, count: int) -> list[State]:
    """`count` positions spread over random games of the scenario (20 a game, all stages)."""
    points: list[State] = []
    game = 0
    while len(points) < count:
        game += 1
        length = len(_play(engine, engine.setup(game, scenario["config"], players), game, None))
        wanted = min(20, count - len(points))
        keep = {length * k // wanted for k in range(wanted)}
        points += _play(engine, engine.setup(game, scenario["config"], players), game, keep)
    return points


def test_ema_event_kinds_are_the_events_that_resolve_when_drawn() -> None:
    assert frozenset(HANDLERS) == EVENT_KINDS


def test_an_event_card_in_a_hand_breaks_the_ema_invariants() -> None:
    """EMA-19.0.P: Events are never held; the old determinize dealt them into hands."""
    engine = get_engine("ema")
    state = position(engine, "28-millenium", 3, 400)
    event = next(c for c in state["event_deck"] if not _is_holding(c))
    state["event_deck"].remove(event)
    state["seats"][1]["hand"].append(event)
    with pytest.raises(InvariantError, match="Event cards"):
        engine.check_invariants(state)


def _is_holding(card: str) -> bool:
    from rules.ema.invariants import is_holding

    return is_holding(card)


def test_a_stray_card_in_a_hand_breaks_the_hre_and_feudal_invariants() -> None:
    hre = get_engine("hre")
    state = position(hre, "base", 2, 60)
    state["seats"][0]["hand"].append("no-such-card")
    state["cards_in_game"] += 1
    with pytest.raises(InvariantError, match="not Action cards"):
        hre.check_invariants(state)
    feudal = get_engine("feudal")
    duel = position(feudal, "duel", 2, 40)
    leader = duel["seats"][1]["leader"]
    duel["seats"][0]["hand"].append(leader)
    duel["seats"][0]["cards"] += 1
    with pytest.raises(InvariantError, match="hand or Stockpile"):
        feudal.check_invariants(duel)


@pytest.mark.parametrize(("engine", "scenario", "players"), scenario_seats())
def test_determinized_states_are_legal_states(
    engine: Engine, scenario: dict[str, Any], players: int
) -> None:
    for index, state in enumerate(_points(engine, scenario, players, 4)):
        _check_point(engine, state, 100 + index, playout=60)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("engine", "scenario"),
    [(e, s) for e, s, n in distinct_tables(every_count=False) if n == s["max_players"]],
    ids=lambda v: getattr(v, "game_id", None) or v["slug"],
)
def test_two_hundred_determinized_points_play_to_the_end(
    engine: Engine, scenario: dict[str, Any]
) -> None:
    """200 points of random games per scenario (at its largest table), every seat re-dealt,
    each result checked and played on at random for 400 actions (or to the game's end).

    Playing every re-deal to the end cost about 3 CPU-minutes per EMA scenario and far more in
    the Grand Scenario (140 Rounds), which is also played here at 10 Rounds (see
    test_arena_scenarios.SHORTER): the slow suite must stay within a CI run.
    """
    players = scenario["max_players"]
    if scenario["slug"] in SHORTER:
        options = {**scenario["config"].get("options", {}), **SHORTER[scenario["slug"]]}
        scenario = {**scenario, "config": {**scenario["config"], "options": options}}
    for index, state in enumerate(_points(engine, scenario, players, 200)):
        _check_point(engine, state, 1000 + index, playout=400)
