"""The core frame machine on a toy game: decisions of one or several seats, extensions, free
actions, hooked steps, the runaway guard, and the engine built on it."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.engine import Result, State
from rules.core.errors import IllegalAction, InvariantError
from rules.core.frames import Frame, StepContext, option
from rules.core.machine import (
    STEP_CAP,
    Decision,
    Extension,
    FrameEngine,
    Machine,
    one_seat,
)
from rules.core.playout import play_random
from rules.core.registry import get_engine
from rules.core.replay import new_record


class Toy(StepContext[dict[str, int]]):
    __slots__ = ()

    def static_data(self) -> dict[str, int]:
        return {"goal": 3}


def toy_machine() -> Machine[Toy]:
    """Count to the goal: seat 0 adds 1 or 2, then both seats vote at once to go on or stop."""
    machine: Machine[Toy] = Machine(Toy)

    def add(ctx: Toy, frame: Frame, action: Any) -> None:
        ctx.s["n"] += action["add"]
        ctx.log("TOY-1", f"+{action['add']}")
        ctx.pop()
        ctx.push({"kind": "vote", "seats": [0, 1], "votes": {}})

    def vote(ctx: Toy, frame: Frame, seat: int, action: Any) -> None:
        frame["votes"][str(seat)] = action["go"]
        if len(frame["votes"]) == 2:
            ctx.pop()
            ctx.push({"kind": "check"})

    machine.decision(
        "add",
        one_seat(
            "TOY-1",
            lambda ctx, f: "Add",
            lambda ctx, f: [option({"add": 1}, "One"), option({"add": 2}, "Two")],
            add,
        ),
    )
    machine.decision(
        "vote",
        Decision(
            "TOY-2",
            lambda ctx, f, seat: f"Seat {seat + 1}: go on?",
            lambda ctx, f, seat: [option({"go": True}, "Yes"), option({"go": False}, "No")],
            vote,
            lambda ctx, f: [s for s in f["seats"] if str(s) not in f["votes"]],
            free=True,
        ),
    )

    @machine.step("check")
    def _check(ctx: Toy, frame: Frame) -> None:
        ctx.pop()
        if ctx.s["n"] >= ctx.d["goal"]:
            ctx.s["over"] = True
        else:
            ctx.push({"kind": "add", "seat": 0})

    return machine


class ToyEngine(FrameEngine[Toy]):
    game_id = "toy"
    machine = toy_machine()

    def scenarios(self) -> list[dict[str, Any]]:
        return [{"slug": "toy", "min_players": 2, "max_players": 2, "config": {}}]

    def validate_scenario(self, config: dict[str, Any]) -> list[str]:
        return []

    def player_range(self, config: dict[str, Any]) -> tuple[int, int]:
        return (2, 2)

    def setup(self, seed: int, config: dict[str, Any], players: int) -> State:
        return {"n": 0, "over": False, "players": 2, "stack": [{"kind": "add", "seat": 0}]}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"n": state["n"]}

    def result(self, state: State) -> Result:
        return {"over": state["over"], "seats": []}

    def determinize(self, state: State, seat: int, seed: int) -> State:
        return state

    def check_invariants(self, state: State) -> None:
        pass


def test_one_seat_then_several_at_once() -> None:
    engine = ToyEngine()
    state = engine.setup(1, {}, 2)
    assert [(p["seat"], p["rule"], p["text"]) for p in engine.prompts(state)] == [
        (0, "TOY-1", "Add")
    ]
    state, events = engine.apply(state, 0, {"add": 2})
    assert events == [{"rule": "TOY-1", "public": "+2", "private": {}}]
    assert [p["text"] for p in engine.prompts(state)] == ["Seat 1: go on?", "Seat 2: go on?"]
    state, _ = engine.apply(state, 1, {"go": True})
    assert [p["seat"] for p in engine.prompts(state)] == [0]
    state, _ = engine.apply(state, 0, {"go": False})
    assert state["stack"] == [{"kind": "add", "seat": 0}]  # the step ran: 2 is short of 3


def test_an_extension_adds_options_and_takes_its_answers() -> None:
    engine = ToyEngine()
    engine.machine = toy_machine()
    seen: list[Any] = []

    def bonus(ctx: Toy, frame: Frame, seat: int, action: Any) -> None:
        seen.append(action)
        ctx.s["n"] += 10

    engine.machine.extend(
        "add", Extension(("bonus",), lambda c, f, s: [option({"do": "bonus"}, "Bonus")], bonus)
    )
    state = engine.setup(1, {}, 2)
    labels = [o["label"] for o in engine.prompts(state)[0]["options"]]
    assert labels == ["One", "Two", "Bonus"]
    state, _ = engine.apply(state, 0, {"do": "bonus"})
    assert seen == [{"do": "bonus"}] and state["n"] == 10
    assert state["stack"] == [{"kind": "add", "seat": 0}]  # the decision itself is still open


def test_free_actions_join_free_decisions_only() -> None:
    machine = toy_machine()
    machine.free_action(
        Extension(("rest",), lambda c, f, s: [option({"do": "rest"}, "Rest")], lambda *a: None)
    )
    engine = ToyEngine()
    engine.machine = machine
    state = engine.setup(1, {}, 2)
    assert [o["label"] for o in engine.prompts(state)[0]["options"]] == ["One", "Two"]
    state, _ = engine.apply(state, 0, {"add": 1})
    assert [o["label"] for o in engine.prompts(state)[1]["options"]] == ["Yes", "No", "Rest"]


def test_a_hooked_step_runs_around_the_original() -> None:
    machine = toy_machine()
    calls: list[str] = []

    def hook(ctx: Toy, frame: Frame, inner: Any) -> None:
        calls.append("before")
        inner(ctx, frame)
        calls.append("after")

    machine.wrap_step("check", hook)
    ctx = Toy({"n": 5, "over": False, "stack": [{"kind": "check"}]})
    machine.advance(ctx)
    assert calls == ["before", "after"] and ctx.s["over"]


def test_the_runaway_guard_names_the_frame_that_spun() -> None:
    machine: Machine[Toy] = Machine(Toy)
    machine.step("spin")(lambda ctx, frame: None)
    with pytest.raises(InvariantError, match=f"{STEP_CAP:,}.*'spin'"):
        machine.advance(Toy({"over": False, "stack": [{"kind": "spin"}]}))


def test_an_unknown_frame_kind_is_an_invariant_error() -> None:
    with pytest.raises(InvariantError, match="'nowhere'"):
        toy_machine().advance(Toy({"over": False, "stack": [{"kind": "nowhere"}]}))


def test_two_extensions_may_not_take_the_same_answers() -> None:
    machine = toy_machine()
    rest = Extension[Toy](("rest",), lambda c, f, s: [], lambda *a: None)
    machine.extend("vote", rest)
    machine.free_action(rest)
    with pytest.raises(ValueError, match="'rest'"):
        machine.choose(Toy({"over": False, "stack": [{"kind": "vote"}]}), 0, {"go": True})


def test_a_kind_is_registered_once() -> None:
    machine = toy_machine()
    with pytest.raises(ValueError, match="'add'"):
        machine.decision("add", one_seat("X", lambda c, f: "", lambda c, f: [], lambda *a: None))
    with pytest.raises(ValueError, match="'check'"):
        machine.step("check")(lambda ctx, frame: None)
    with pytest.raises(ValueError, match="'vote'"):
        machine.step("vote")
    with pytest.raises(ValueError, match="'check'"):
        machine.decision("check", one_seat("X", lambda c, f: "", lambda c, f: [], lambda *a: None))


def test_an_option_not_offered_is_refused_and_changes_nothing() -> None:
    engine = ToyEngine()
    state = engine.setup(1, {}, 2)
    with pytest.raises(IllegalAction):
        engine.apply(state, 0, {"add": 3})
    with pytest.raises(IllegalAction):
        engine.apply(state, 1, {"add": 1})
    assert state == engine.setup(1, {}, 2)


def test_a_playout_record_is_the_replay_modules_record() -> None:
    engine = get_engine("hre")
    config = {"modules": [], "options": {}}
    playout = play_random(engine, 4, config, 2)
    assert {**playout.record, "moves": []} == new_record(engine, 4, config, 2)
