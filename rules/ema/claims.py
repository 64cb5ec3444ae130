"""Claims (18.0): automatic Claims, the Religion limit, and who may claim what."""

from __future__ import annotations

from rules.ema.mapindex import set_claims, tied
from rules.ema.state import CLAIMS, OWNER, REL, TIES, Ctx, has, rel_relation


def allowed(ctx: Ctx, seat: int, aid: str) -> bool:
    """Never a Claim to an Area of another Religion; a Church difference is allowed (18.14)."""
    return rel_relation(ctx.seat(seat)["rel"], ctx.area(aid)[REL]) < 2


def add(ctx: Ctx, seat: int, aid: str, rule: str) -> bool:
    """Give a Claim if the seat has none there and 18.14 allows it (18.11)."""
    here = ctx.area(aid)
    if has(here[CLAIMS], seat) or not allowed(ctx, seat, aid):
        return False
    set_claims(ctx.s, aid, here[CLAIMS] | 1 << seat)
    ctx.log(rule, f"{ctx.name(seat)} gains a Claim to {ctx.aname(aid)}.")
    return True


def others_claim(ctx: Ctx, seat: int, aid: str) -> bool:
    """Does another Player claim this Area?"""
    return bool(ctx.area(aid)[CLAIMS] & ~(1 << seat))


def auto_claim(ctx: Ctx, seat: int, aid: str) -> None:
    """Possession plus a Tie gives a Claim when no other Player claims the Area (18.0 P2, A-29)."""
    here = ctx.area(aid)
    if here[OWNER] == seat and has(here[TIES], seat) and not others_claim(ctx, seat, aid):
        add(ctx, seat, aid, "EMA-18.0.P2")


def parley_candidates(ctx: Ctx, seat: int) -> list[str]:
    """Own Areas with a Tie but claimed by others: a Claim Parley may be called (18.0 P3, 20.53)."""
    called, areas = ctx.s["parleys_round"], ctx.s["areas"]
    return [
        a
        for a in tied(ctx.s, seat)  # the seat's Ties, in id order (the map's index)
        if (here := areas[a])[OWNER] == seat
        and not has(here[CLAIMS], seat)
        and others_claim(ctx, seat, a)
        and allowed(ctx, seat, a)
        and f"claim:{a}" not in called
    ]
