"""The Feudal Lords frame machine, filled by each rule module at import.

A frame on the state's stack is either a decision (a seat is prompted with options) or a
step the engine runs by itself; a decision may prompt several seats at once (set-up discards).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.engine import Option
from rules.core.frames import option as option  # re-exported: rule modules import it from here
from rules.core.frames import registrar
from rules.core.machine import Decision, Machine
from rules.feudal.state import Ctx, Frame

MACHINE: Machine[Ctx] = Machine(Ctx)


def decision(
    kind: str,
    rule: str,
    text: Callable[[Ctx, Frame, int], str],
    options: Callable[[Ctx, Frame, int], list[Option]],
    choose: Callable[[Ctx, Frame, int, Any], None],
    seats: Callable[[Ctx, Frame], list[int]] | None = None,
    free: bool = True,
) -> None:
    """Register a decision; `seats` names who decides (the frame's seat by default)."""
    MACHINE.decision(kind, Decision(rule, text, options, choose, seats, free))


# Register an automatic step frame kind: @step("kind").
step = MACHINE.step

Stage = Callable[[Ctx, Frame], None]
COMBAT_STAGES: dict[str, Stage] = {}
# Register one stage of the combat frame's sequence: @combat_stage("name").
combat_stage = registrar(COMBAT_STAGES)


def combat_then(name: str, after: str, run: Stage) -> None:
    """Register a stage that moves the combat on to `after`, then runs `run` (which may push)."""

    def stage(ctx: Ctx, frame: Frame) -> None:
        frame["stage"] = after
        run(ctx, frame)

    combat_stage(name)(stage)
