"""Diplomacy (12.0): Ties, Diplomatic Conquest and the contest it may provoke."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.ema import claims, endeavors, handlers
from rules.ema.handlers import option
from rules.ema.mapindex import add_tie, drop_tie
from rules.ema.state import OWNER, TIES, Ctx, Frame, has, is_christian, tied
from rules.ema.territory import transfer


def tie_forbidden(ctx: Ctx, seat: int, aid: str) -> bool:
    """Diplomatic Isolation of the Turk (31.7)."""
    if "diplomatic_isolation" not in ctx.s["special"]:
        return False
    owner = ctx.area(aid)[OWNER]
    if owner is None or owner == seat:
        return False
    turk = {ctx.seat(seat)["empire"], ctx.seat(owner)["empire"]}
    return "TUR" in turk and (is_christian(ctx, seat) or is_christian(ctx, owner))


def tie(ctx: Ctx, seat: int, aid: str) -> None:
    """Place a Tie; further T results are ignored (12.14, 12.15)."""
    here = ctx.area(aid)
    if has(here[TIES], seat) or tie_forbidden(ctx, seat, aid):
        return
    add_tie(ctx.s, aid, seat)
    ctx.log("EMA-12.3", f"{ctx.name(seat)} forms a Diplomatic Tie with {ctx.aname(aid)}.")
    claims.auto_claim(ctx, seat, aid)


def annex(ctx: Ctx, seat: int, aid: str) -> None:
    """Diplomatic Conquest: total, no Unrest, forts kept (12.31, 14.42); a Christian victim may contest first."""
    here = ctx.area(aid)
    victim = here[OWNER]
    if victim == seat:
        return
    ctx.log("EMA-12.31", f"{ctx.name(seat)} annexes {ctx.aname(aid)} by Diplomacy.")
    if (
        victim is not None
        and is_christian(ctx, seat)
        and is_christian(ctx, victim)
        and not ctx.seat(victim)["excom"]
    ):
        # 20.41: the owner keeps the Area while he contests; it moves only if he accepts or loses
        ctx.push(
            {"kind": "contest", "seat": victim, "against": seat, "areas": [aid], "why": "diplomacy"}
        )
        return
    transfer(ctx, aid, seat, "diplomacy")


def _drop_options(ctx: Ctx, frame: Frame) -> list[Option]:
    mine = [option({"area": a}, ctx.aname(a)) for a in tied(ctx.s, frame["seat"])]
    return [option({"area": None}, "Keep them all"), *handlers.paged(ctx, frame, mine)]


def _drop_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    """12.43, 20.1: a Tie is removed by its owner at will (and by Heirless or a Coup)."""
    if handlers.turn_page(frame, action):
        return
    ctx.pop()
    if action["area"] is not None:
        drop_tie(ctx.s, action["area"], frame["seat"])
        ctx.log(
            "EMA-12.43",
            f"{ctx.name(frame['seat'])} removes his Tie to {ctx.aname(action['area'])}.",
        )


handlers.decision(
    "drop_tie",
    "EMA-12.43",
    lambda ctx, f: "Remove which of your Ties?",
    _drop_options,
    _drop_choose,
)


def resolve(ctx: Ctx, en: dict[str, Any], card: dict[str, Any], value: int) -> None:
    """Apply T, C and T/C results (12.3, 9.4)."""
    if value < 0:
        return
    seat, target = en["seat"], en["target"]
    for result in card["rows"]["diplomacy"]:
        if result["e"] == "T/C":
            if value >= result["n"]:
                annex(ctx, seat, target)
            else:
                tie(ctx, seat, target)
        elif result["e"] == "T" and value >= result["n"]:
            tie(ctx, seat, target)
        elif result["e"] == "C" and value >= result["n"]:
            annex(ctx, seat, target)


endeavors.RESOLVERS["diplomacy"] = resolve
