"""The driver: prompts read the top frame, choose answers it, advance runs automatic steps."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Prompt
from rules.core.errors import InvariantError
from rules.ema import handlers
from rules.ema.state import Ctx


def prompts(ctx: Ctx) -> list[Prompt]:
    """Every seat deciding now: one for a plain decision, several for secret ballots."""
    stack = ctx.s["stack"]
    if not stack or ctx.s["over"]:
        return []
    frame = stack[-1]
    kind = frame["kind"]
    if kind in handlers.MULTI:
        spec = handlers.MULTI[kind]
        text = spec.text(ctx, frame)
        return [
            {
                "seat": seat,
                "kind": kind,
                "text": text,
                "rule": spec.rule,
                "options": spec.options(ctx, frame, seat),
            }
            for seat in spec.seats(ctx, frame)
        ]
    one = handlers.DECISIONS[kind]
    return [
        {
            "seat": frame["seat"],
            "kind": kind,
            "text": one.text(ctx, frame),
            "rule": one.rule,
            "options": one.options(ctx, frame),
        }
    ]


def choose(ctx: Ctx, seat: int, action: Any) -> None:
    """Answer the top decision for a seat and run on to the next decision."""
    frame = ctx.s["stack"][-1]
    kind = frame["kind"]
    if kind in handlers.MULTI:
        handlers.MULTI[kind].choose(ctx, frame, seat, action)
    else:
        handlers.DECISIONS[kind].choose(ctx, frame, action)
    advance(ctx)


def advance(ctx: Ctx) -> None:
    """Run automatic steps until a decision is on top or the game is over."""
    stack = ctx.s["stack"]
    for _ in range(100_000):
        if ctx.s["over"] or not stack:
            return
        kind = stack[-1]["kind"]
        if kind in handlers.DECISIONS or kind in handlers.MULTI:
            return
        handlers.STEPS[kind](ctx, stack[-1])
    raise InvariantError("the engine ran 100,000 automatic steps without a decision")
