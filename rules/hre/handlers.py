"""HRE's frame machine, filled by each rule module at import.

A frame on the state's stack is either a decision (one seat is prompted with options) or a
step the engine runs by itself. Continuations name what to do once a payment is made, so
frames stay plain JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.engine import Option, Prompt, State
from rules.core.frames import option as option  # re-exported: rule modules import it from here
from rules.core.machine import Machine, one_seat
from rules.hre import modules
from rules.hre.state import Ctx, Frame


class HreMachine(Machine[Ctx]):
    """The frame machine, where a module in play may answer decisions itself (an automa).

    A base game (no module in play) runs on `base`: the tables as the base rules left them,
    before any module added its options to their decisions or wrapped their steps. Every such
    addition offers nothing and passes straight through where its module is not in play, so the
    two give the same prompts and play; the base tables skip the module calls made on every
    prompt and step (`tests/rules/hre/test_base_machine.py` compares them).
    """

    base: Machine[Ctx] | None = None

    def keep_base(self) -> None:
        """Copy the tables as they stand: called once, after the base rules and before any module."""
        if modules.REGISTRY:
            raise ValueError("the base tables are kept before any module registers")
        base: Machine[Ctx] = Machine(self.context)
        base.decisions.update(self.decisions)
        base.steps.update(self.steps)
        base.continuations.update(self.continuations)
        base.extensions.update({kind: list(extras) for kind, extras in self.extensions.items()})
        base.free_actions.extend(self.free_actions)
        self.base = base

    def _base_for(self, ctx: Ctx) -> Machine[Ctx] | None:
        """The base tables when this is a base game (and they are kept), else None."""
        return None if ctx.s.get("modules") else self.base

    def prompts(self, ctx: Ctx) -> list[Prompt]:
        base = self._base_for(ctx)
        return base.prompts(ctx) if base is not None else super().prompts(ctx)

    def answer(self, ctx: Ctx, seat: int, action: Any) -> None:
        base = self._base_for(ctx)
        if base is not None:
            base.answer(ctx, seat, action)
        else:
            super().answer(ctx, seat, action)

    def advance(self, ctx: Ctx) -> None:
        base = self._base_for(ctx)
        if base is not None:
            base.advance(ctx)
            return
        super().advance(ctx)
        if not ctx.s.get("modules"):
            return  # a base game before the base tables are kept: no module answers anything
        while not ctx.s["over"] and ctx.s["stack"] and modules.auto(ctx):
            super().advance(ctx)


MACHINE = HreMachine(Ctx)


def decision(
    kind: str,
    rule: str,
    text: Callable[[Ctx, Frame], str],
    options: Callable[[Ctx, Frame], list[Option]],
    choose: Callable[[Ctx, Frame, Any], None],
    until: Callable[[Ctx, Frame], bool] | None = None,
    once: bool = False,
) -> None:
    """Register a decision frame kind (HRE prompts one seat at a time).

    With `until`, the seat is asked again after each answer until it holds; then the frame leaves.
    With `once`, the frame leaves as soon as it is answered, before `choose` runs.
    """
    if once:
        choose = _leaving(choose)
    elif until is not None:
        choose = _repeat(choose, until)
    MACHINE.decision(kind, one_seat(rule, text, options, choose))


def yes_no(
    key: str, yes: Callable[[Ctx, Frame], str], no: str
) -> Callable[[Ctx, Frame], list[Option]]:
    """The options of a yes-or-no decision: {key: True} worded by `yes`, {key: False} by `no`."""
    return lambda ctx, frame: [option({key: True}, yes(ctx, frame)), option({key: False}, no)]


def _leaving(choose: Callable[[Ctx, Frame, Any], None]) -> Callable[[Ctx, Frame, Any], None]:
    def answer(ctx: Ctx, frame: Frame, action: Any) -> None:
        ctx.s["stack"].pop()
        choose(ctx, frame, action)

    return answer


def _repeat(
    choose: Callable[[Ctx, Frame, Any], None], until: Callable[[Ctx, Frame], bool]
) -> Callable[[Ctx, Frame, Any], None]:
    def answer(ctx: Ctx, frame: Frame, action: Any) -> None:
        choose(ctx, frame, action)
        if until(ctx, frame):
            ctx.s["stack"].pop()

    return answer


# Register an automatic step frame kind: @step("kind").
step = MACHINE.step


def once(kind: str) -> Callable[[Callable[[Ctx, Frame], None]], Callable[[Ctx, Frame], None]]:
    """Register a step that runs once: its frame leaves the stack, then it runs (@once("kind"))."""

    def register(fn: Callable[[Ctx, Frame], None]) -> Callable[[Ctx, Frame], None]:
        def run(ctx: Ctx, frame: Frame) -> None:
            ctx.s["stack"].pop()
            fn(ctx, frame)

        step(kind)(run)
        return fn

    return register


def after_setup(state: State, kind: str) -> None:
    """Queue a step of this kind just above the final setup step: it runs once the Rulers are
    drafted and the board dealt (a module logs or deals its own set-up there)."""
    state["stack"].insert(1, {"kind": kind, "seat": state["stack"][0]["seat"]})


# Register a continuation run after a payment: @then("name").
then = MACHINE.then
run_then = MACHINE.run_then
