"""Free actions open whenever a seat is prompted: +1 markers (FL-MARK), the 2 Sup for 1 Ld
exchange (FL-GEN-12/13) and, in team play, the Leadership Swap (FL-TEAM-06)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.core.machine import Extension
from rules.feudal import handlers
from rules.feudal.handlers import option
from rules.feudal.state import MAX_RES, Ctx, Frame, partner

FREE = ("exchange", "marker", "swap")


def may_spend_marker(ctx: Ctx, seat: int) -> bool:
    """One marker per window from a seat's turn to its next (FL-MARK-03..05, A-18)."""
    me = ctx.seat(seat)
    return bool(me["markers"] > 0 and not me["marker_spent"])


def spend_marker(ctx: Ctx, seat: int) -> None:
    """Use up a marker and close the seat's marker window."""
    me = ctx.seat(seat)
    me["markers"] -= 1
    me["marker_spent"] = True


def _drained(ctx: Ctx, seat: int) -> bool:
    """A Sup loss aimed at the seat is pending: no exchange in reaction to it (FL-GEN-13)."""
    return any(
        p["target"] == seat and p["drain"]
        for frame in ctx.s["stack"]
        if frame["kind"] == "window"
        for p in frame["played"]
    )


def options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    """The free actions open to the seat now, whatever it is deciding."""
    me = ctx.seat(seat)
    opts: list[Option] = []
    if me["sup"] >= 2 and me["ld"] < MAX_RES and not _drained(ctx, seat):
        opts.append(option({"do": "exchange"}, "Exchange 2 Sup for 1 Ld"))
    if may_spend_marker(ctx, seat):
        if me["sup"] < MAX_RES:
            opts.append(option({"do": "marker", "res": "sup"}, "Spend a +1 marker: +1 Sup"))
        if me["ld"] < MAX_RES:
            opts.append(option({"do": "marker", "res": "ld"}, "Spend a +1 marker: +1 Ld"))
    mate = partner(ctx, seat)
    if mate is not None and me["ld"] >= 2 and ctx.seat(mate)["ld"] < MAX_RES:
        opts.append(option({"do": "swap"}, "Leadership Swap: spend 2 Ld to give your partner 1 Ld"))
    return opts


def choose(ctx: Ctx, frame: Frame, seat: int, action: dict[str, Any]) -> None:
    """Carry out a free action; the decision it was taken in stays open."""
    me = ctx.seat(seat)
    if action["do"] == "exchange":
        me["sup"] -= 2
        me["ld"] += 1
        ctx.log("FL-GEN-12", f"{ctx.name(seat)} exchanges 2 Sup for 1 Ld.")
    elif action["do"] == "marker":
        spend_marker(ctx, seat)
        me[action["res"]] += 1
        ctx.log(
            "FL-MARK-02", f"{ctx.name(seat)} spends a +1 marker: +1 {action['res'].capitalize()}."
        )
    else:
        mate = partner(ctx, seat)
        assert mate is not None
        me["ld"] -= 2
        ctx.seat(mate)["ld"] += 1
        ctx.log("FL-TEAM-06", f"{ctx.name(seat)} gives 1 Ld to {ctx.name(mate)} (Leadership Swap).")


handlers.MACHINE.free_action(Extension(FREE, options, choose))
