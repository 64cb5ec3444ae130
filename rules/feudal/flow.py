"""The turn (FL-TURN): the four phases in order, then the next turn.

The stack of frames drives everything (rules.core.machine); the turn frame pushes each phase's
decision.
"""

from __future__ import annotations

from rules.core.errors import InvariantError
from rules.feudal import draft, handlers, resources, scoring
from rules.feudal.state import Ctx, Frame, draw


def start_turn(ctx: Ctx, seat: int) -> None:
    """Begin a seat's turn; its +1 marker window opens again (FL-TURN-01, A-18)."""
    ctx.s["active"] = seat
    ctx.s["turns"] += 1
    ctx.seat(seat)["marker_spent"] = False
    ctx.push({"kind": "turn", "seat": seat, "phase": "stock", "drafted": False, "combat": False})
    ctx.log("FL-TURN-01", f"Turn {ctx.s['turns']}: {ctx.name(seat)}.")


def turn_frame(ctx: Ctx) -> Frame:
    """The frame of the turn being played."""
    for frame in ctx.s["stack"]:
        if frame["kind"] == "turn":
            found: Frame = frame
            return found
    raise InvariantError("no turn in progress")


@handlers.step("turn")
def _turn(ctx: Ctx, frame: Frame) -> None:
    """Push each phase's decision in order, then end the turn (FL-TURN-01)."""
    seat, phase = frame["seat"], frame["phase"]
    if phase == "stock":
        frame["phase"] = "draft"
        ctx.push({"kind": "stock", "seat": seat, "discarded": 0})
    elif phase == "draft":
        frame["phase"] = "action"
        if draft.can_draft(ctx, seat):
            ctx.push({"kind": "draft", "seat": seat})
    elif phase == "action":
        frame["phase"] = "resource"
        ctx.push({"kind": "action", "seat": seat})
    elif phase == "resource":
        frame["phase"] = "end"
        resources.hand_check(ctx, seat)
        ctx.push({"kind": "resource", "seat": seat})
    else:
        ctx.pop()
        _later_draws(ctx)
        if not scoring.check_end_of_turn(ctx):
            start_turn(ctx, (seat + 1) % int(ctx.s["players"]))


def _later_draws(ctx: Ctx) -> None:
    """Victory-card effects that resolve later in the attacking player's turn (FL-COMBAT-VC-05)."""
    for i, me in enumerate(ctx.s["seats"]):
        if me["later_draw"]:
            draw(ctx, i, me["later_draw"], "FL-COMBAT-VC-05")
            me["later_draw"] = 0
