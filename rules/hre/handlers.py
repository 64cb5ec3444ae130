"""Tables of frame handlers, filled by each rule module at import.

A frame on the state's stack is either a decision (a seat is prompted with options) or a
step the engine runs by itself. Continuations name what to do once a payment is made, so
frames stay plain JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.core.engine import Option
from rules.hre.state import Ctx, Frame

OptionsFn = Callable[[Ctx, Frame], list[Option]]
ChooseFn = Callable[[Ctx, Frame, Any], None]
TextFn = Callable[[Ctx, Frame], str]
StepFn = Callable[[Ctx, Frame], None]
ThenFn = Callable[[Ctx, int, dict[str, Any]], None]


@dataclass(frozen=True)
class Decision:
    """How a decision frame is prompted and answered."""

    rule: str
    text: TextFn
    options: OptionsFn
    choose: ChooseFn


DECISIONS: dict[str, Decision] = {}
STEPS: dict[str, StepFn] = {}
THEN: dict[str, ThenFn] = {}


def decision(kind: str, rule: str, text: TextFn, options: OptionsFn, choose: ChooseFn) -> None:
    """Register a decision frame kind."""
    DECISIONS[kind] = Decision(rule, text, options, choose)


def step(kind: str) -> Callable[[StepFn], StepFn]:
    """Register an automatic step frame kind."""

    def wrap(fn: StepFn) -> StepFn:
        STEPS[kind] = fn
        return fn

    return wrap


def then(name: str) -> Callable[[ThenFn], ThenFn]:
    """Register a continuation run after a payment."""

    def wrap(fn: ThenFn) -> ThenFn:
        THEN[name] = fn
        return fn

    return wrap


def option(action: Any, label: str) -> Option:
    """An option: the action and its label."""
    return {"action": action, "label": label}


def run_then(ctx: Ctx, seat: int, after: dict[str, Any]) -> None:
    """Run a named continuation."""
    THEN[after["do"]](ctx, seat, after)
