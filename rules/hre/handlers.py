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
from rules.core.frames import option as option  # re-exported: rule modules import it from here
from rules.core.frames import registrar
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


# Register an automatic step frame kind: @step("kind").
step = registrar(STEPS)


# Register a continuation run after a payment: @then("name").
then = registrar(THEN)


def run_then(ctx: Ctx, seat: int, after: dict[str, Any]) -> None:
    """Run a named continuation."""
    THEN[after["do"]](ctx, seat, after)
