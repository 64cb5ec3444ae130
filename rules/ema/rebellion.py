"""Unrest and Rebellion (17.0): Rebellion Values, checks on the table, and rebellion itself."""

from __future__ import annotations

from rules.ema.state import FORT, LANG, OWNER, REL, TIES, UNREST, Ctx, has, relations, seats_in
from rules.ema.territory import transfer

RESULT_NAMES = {"-": "no effect", "U": "Unrest", "R": "Rebellion"}


def rebellion_value(ctx: Ctx, aid: str, gold: int) -> int:
    """RV by the recommended formula of the reference (17.2x, A-23, A-27)."""
    here = ctx.area(aid)
    seat = here[OWNER]
    lang, rel = relations(ctx, seat, aid)
    rv = 5 * here[UNREST] + lang + rel + gold - here[FORT]
    if _independent_kin(ctx, aid):
        rv += 1
    if has(here[TIES], seat):
        rv -= 2
    if opposing_ties(ctx, aid):
        rv += 2  # 12.42: opponents' Ties, +2 in all unless every one of them waives
    return int(rv)


def opposing_ties(ctx: Ctx, aid: str) -> bool:
    """Do opponents' Ties count against the owner: some opponent has a Tie and has not waived (12.42)?"""
    here = ctx.area(aid)
    owner = here[OWNER]
    return any(
        t != owner and owner not in ctx.seat(t).get("waive", []) for t in seats_in(here[TIES])
    )


def _independent_kin(ctx: Ctx, aid: str) -> bool:
    """Directly linked to an Independent Area of the same Language and Religion (17.22, A-23)."""
    here = ctx.area(aid)
    for other in ctx.d.land_adj[aid]:
        there = ctx.area(other)
        if there[OWNER] is None and there[LANG] == here[LANG] and there[REL] == here[REL]:
            return True
    return False


def table_result(ctx: Ctx, rv: int, roll: int) -> str:
    """Read the Unrest and Rebellion Table (17.5); RV ≥ 13 rebels, RV < 1 per option (A-25)."""
    if rv >= 13:
        return "R"
    if rv < 1:
        if ctx.s["options"]["low_rv"] == "never_checked":
            return "-"
        rv = 1
    return str(ctx.d.tables["rebellion"][str(roll)][rv - 1])


def check(ctx: Ctx, aid: str, gold: int = 0, rule: str = "EMA-17.3") -> str:
    """Make a Rebellion Check on an owned Area and apply U or R; return the result letter."""
    here = ctx.area(aid)
    rv = rebellion_value(ctx, aid, gold)
    roll = (
        ctx.roll2()
        if 1 <= rv < 13 or (rv < 1 and ctx.s["options"]["low_rv"] == "column_one")
        else 0
    )
    result = table_result(ctx, rv, roll)
    shown = f"roll {roll}" if roll else "no roll"
    ctx.log(rule, f"Rebellion Check in {ctx.aname(aid)}: RV {rv}, {shown}: {RESULT_NAMES[result]}.")
    if result == "U":
        here[UNREST] = True
    elif result == "R":
        rebel(ctx, aid)
    return result


def rebel(ctx: Ctx, aid: str) -> None:
    """The Area rebels: Independent, SS kept, Unrest removed, forts reduced (17.15)."""
    owner = ctx.area(aid)[OWNER]
    ctx.log(
        "EMA-17.15", f"{ctx.aname(aid)} rebels against {ctx.name(owner)} and becomes Independent."
    )
    transfer(ctx, aid, None, "rebellion")


def failed_endeavor(ctx: Ctx, aid: str, was_unrest: bool) -> None:
    """An Area already in Unrest whose SS an own Endeavor lowered must be checked (9.19, 17.0)."""
    if was_unrest and ctx.area(aid)[OWNER] is not None:
        check(ctx, aid, 0, "EMA-9.19")
