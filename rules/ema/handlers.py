"""Tables of frame handlers, filled by each rule module at import.

A frame on the state's stack is a decision of one seat, a decision several seats take at
once in secret (parley ballots), or a step the engine runs by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.core.engine import Option
from rules.ema.state import Ctx, Frame

OptionsFn = Callable[[Ctx, Frame], list[Option]]
ChooseFn = Callable[[Ctx, Frame, Any], None]
TextFn = Callable[[Ctx, Frame], str]
StepFn = Callable[[Ctx, Frame], None]
SeatsFn = Callable[[Ctx, Frame], list[int]]
SeatOptionsFn = Callable[[Ctx, Frame, int], list[Option]]
SeatChooseFn = Callable[[Ctx, Frame, int, Any], None]


@dataclass(frozen=True)
class Decision:
    """How a one-seat decision frame is prompted and answered."""

    rule: str
    text: TextFn
    options: OptionsFn
    choose: ChooseFn


@dataclass(frozen=True)
class Multi:
    """A decision several seats answer at once, each secretly."""

    rule: str
    text: TextFn
    seats: SeatsFn
    options: SeatOptionsFn
    choose: SeatChooseFn


DECISIONS: dict[str, Decision] = {}
MULTI: dict[str, Multi] = {}
STEPS: dict[str, StepFn] = {}


def decision(kind: str, rule: str, text: TextFn, options: OptionsFn, choose: ChooseFn) -> None:
    """Register a one-seat decision frame kind."""
    DECISIONS[kind] = Decision(rule, text, options, choose)


def multi(kind: str, rule: str, text: TextFn, seats: SeatsFn, options: SeatOptionsFn,
          choose: SeatChooseFn) -> None:
    """Register a simultaneous decision frame kind."""
    MULTI[kind] = Multi(rule, text, seats, options, choose)


def step(kind: str) -> Callable[[StepFn], StepFn]:
    """Register an automatic step frame kind."""

    def wrap(fn: StepFn) -> StepFn:
        STEPS[kind] = fn
        return fn

    return wrap


def option(action: Any, label: str) -> Option:
    """An option: the action and its label."""
    return {"action": action, "label": label}
