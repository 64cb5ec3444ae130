"""Excommunication and Religious Conversion (22.0) with the Conversion Rating Chart (22.3)."""

from __future__ import annotations

from rules.ema import rebellion
from rules.ema.state import CONV, OWNER, REL, TIES, UNREST, Ctx, has, holding_count

GROUPS = ("pagan_norse", "pagan_wslav", "pagan_eslav", "pagan_sslav")


def differential(ctx: Ctx, seat: int, aid: str) -> int:
    """C results needed: Convictional Strength − Proselytic Ability, halved by Fervor and by a Tie (22.2–22.24)."""
    chart = ctx.d.tables["conversion"]
    me = ctx.seat(seat)
    need = int(chart[ctx.area(aid)[REL]][1] - chart[me["rel"]][0])
    holds_fervor = holding_count(ctx, seat, "fervor") or any(
        ctx.d.events[c]["kind"] == "fervor" for c in me["hand"]
    )
    if holds_fervor:
        need //= 2
    if has(ctx.area(aid)[TIES], seat):
        need //= 2
    return max(1, need)


def progress(ctx: Ctx, seat: int, aid: str) -> None:
    """One C result towards converting an own Area (22.2, 22.21)."""
    here = ctx.area(aid)
    if here[CONV] is None or here[CONV]["seat"] != seat:
        here[CONV] = {"seat": seat, "n": 0}
    here[CONV]["n"] += 1
    need = differential(ctx, seat, aid)
    if here[CONV]["n"] < need:
        ctx.log(
            "EMA-22.2", f"Conversion of {ctx.aname(aid)}: {here[CONV]['n']} of {need} C results."
        )
        return
    convert(ctx, seat, aid)


def convert(ctx: Ctx, seat: int, aid: str) -> None:
    """The Area takes the Leader's Religion: 5 VP, and Pagan groups follow (22.25, 22.28)."""
    here = ctx.area(aid)
    old, new = here[REL], ctx.seat(seat)["rel"]
    here[REL], here[CONV] = new, None
    ctx.seat(seat)["vp_conv"] += 5
    ctx.log("EMA-22.28", f"{ctx.aname(aid)} is converted by {ctx.name(seat)} (+5 VP).")
    if old not in GROUPS:
        return
    for other, there in sorted(ctx.s["areas"].items()):
        if there[REL] != old:
            continue
        owner = there[OWNER]
        if owner is not None and ctx.seat(owner)["rel"] != new:
            continue  # 22.25: an Area held by a Player of another Religion keeps its own
        there[REL] = new
        ctx.log("EMA-22.25", f"{ctx.aname(other)} follows its group and converts too.")


def conversion_unrest(ctx: Ctx, aid: str, was_unrest: bool) -> None:
    """Each SS loss from a Conversion Endeavor brings Unrest and a Rebellion Check (22.2)."""
    here = ctx.area(aid)
    if here[OWNER] is None:
        return
    here[UNREST] = True
    rebellion.check(ctx, aid, 0, "EMA-22.2")


def excommunicate(ctx: Ctx, seat: int, rule: str) -> None:
    """Excommunication: counts as Pagan for ER and RV, out of Parleys (22.11, 22.12)."""
    me = ctx.seat(seat)
    if me["rel"] in ("RC", "EO") and not me["excom"]:
        me["excom"] = True
        ctx.log(rule, f"{ctx.name(seat)} is excommunicated.")


def readmit(ctx: Ctx, seat: int, rule: str) -> None:
    """Readmission by Parley or on the Leader's death heirless (22.13)."""
    me = ctx.seat(seat)
    if me["excom"]:
        me["excom"] = False
        ctx.log(rule, f"{ctx.name(seat)} is readmitted to the Church.")
