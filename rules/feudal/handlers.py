"""Tables of frame handlers, filled by each rule module at import.

A frame on the state's stack is either a decision (a seat is prompted with options) or a
step the engine runs by itself; a decision may prompt several seats at once (set-up discards).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.core.engine import Option
from rules.core.frames import option as option  # re-exported: rule modules import it from here
from rules.core.frames import registrar
from rules.feudal.state import Ctx, Frame

OptionsFn = Callable[[Ctx, Frame, int], list[Option]]
ChooseFn = Callable[[Ctx, Frame, int, Any], None]
TextFn = Callable[[Ctx, Frame, int], str]
SeatsFn = Callable[[Ctx, Frame], list[int]]
StepFn = Callable[[Ctx, Frame], None]


def _one_seat(ctx: Ctx, frame: Frame) -> list[int]:
    return [int(frame["seat"])]


@dataclass(frozen=True)
class Decision:
    """How a decision frame is prompted and answered; `free` adds the seat's free actions."""

    rule: str
    text: TextFn
    options: OptionsFn
    choose: ChooseFn
    seats: SeatsFn
    free: bool


DECISIONS: dict[str, Decision] = {}
STEPS: dict[str, StepFn] = {}


def decision(
    kind: str,
    rule: str,
    text: TextFn,
    options: OptionsFn,
    choose: ChooseFn,
    seats: SeatsFn = _one_seat,
    free: bool = True,
) -> None:
    """Register a decision frame kind."""
    DECISIONS[kind] = Decision(rule, text, options, choose, seats, free)


# Register an automatic step frame kind: @step("kind").
step = registrar(STEPS)


COMBAT_STAGES: dict[str, StepFn] = {}


# Register one stage of the combat frame's sequence: @combat_stage("name").
combat_stage = registrar(COMBAT_STAGES)
