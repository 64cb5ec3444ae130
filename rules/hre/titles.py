"""Titles: repeating a Noble action (HRE-BASE-TITLE) and claiming at Pass step 2 (PASS-03..05)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.hre import handlers, modules
from rules.hre.handlers import option
from rules.hre.state import Ctx, Frame


def may_repeat(ctx: Ctx, turn: Frame) -> bool:
    """Whether a Title may repeat the action just resolved: one a turn unless chained (AMB-02),
    never after a Manoeuvre that fought (TITLE-04, -05)."""
    if turn["title_used"] and not ctx.s["options"].get("title_chaining"):
        return False
    return not (turn["action"] == "manoeuvre" and turn["battle"])


def repeat_options(ctx: Ctx, turn: Frame) -> list[Option]:
    """Ready Titles that may repeat the action just resolved (TITLE-01, -04, -05, AMB-02)."""
    seat = turn["seat"]
    if not may_repeat(ctx, turn):
        return []
    return [
        option(
            {"do": "title", "title": tid},
            f"Exhaust {ctx.d.titles[tid]['name']} to repeat the action",
        )
        for tid, title in sorted(ctx.s["titles"].items())
        if title["holder"] == seat and title["ready"]
    ]


def repeat(ctx: Ctx, turn: Frame, tid: str) -> None:
    """Exhaust a Title to resolve the same action again without a disc (TITLE-01..03)."""
    ctx.s["titles"][tid]["ready"] = False
    turn["title_used"] = True
    ctx.log(
        "HRE-BASE-TITLE-01",
        f"{ctx.name(turn['seat'])} exhausts {ctx.d.titles[tid]['name']} to repeat the action.",
    )


def region_in_play(ctx: Ctx, region: str) -> list[str]:
    """Provinces of a Region that count: in-play ones, or all with the AMB-21 option."""
    if ctx.s["options"].get("blocked_in_regions"):
        return list(ctx.d.region_provinces[region])
    return [p for p in ctx.d.region_provinces[region] if p in ctx.s["prov"]]


def eligible(ctx: Ctx, seat: int) -> list[str]:
    """Titles the seat may claim now (HRE-BASE-PASS-04)."""
    found = []
    discs = ctx.seat(seat)["discs"]
    for tid, title in sorted(ctx.s["titles"].items()):
        if title["holder"] == seat:
            continue
        provinces = region_in_play(ctx, ctx.d.titles[tid]["region"])
        mine = sum(1 for p in provinces if p in ctx.s["prov"] and ctx.s["prov"][p]["owner"] == seat)
        need = (len(provinces) + 1) // 2
        if provinces and mine >= need and discs >= len(provinces) - mine:
            found.append(tid)
    return found


def claim(ctx: Ctx, seat: int, tid: str) -> None:
    """Take a Title; its VP go only to the first player ever to claim it (PASS-05, AMB-29)."""
    title = ctx.s["titles"][tid]
    name = ctx.d.titles[tid]["name"]
    previous = title["holder"]
    title["holder"] = seat
    if previous is not None:
        ctx.log("HRE-BASE-PASS-05", f"{ctx.name(seat)} takes {name} from {ctx.name(previous)}.")
    else:
        ctx.log("HRE-BASE-PASS-03", f"{ctx.name(seat)} claims {name}.")
    if not title["established"]:
        title["established"] = True
        vp = int(ctx.d.titles[tid]["vp"])
        ctx.seat(seat)["vp"] += vp
        ctx.log("HRE-BASE-PASS-05", f"{ctx.name(seat)} establishes {name}: +{vp} VP.")
    modules.title_gained(ctx, seat, tid)


def _claim_options(ctx: Ctx, frame: Frame) -> list[Option]:
    opts = [
        option({"claim": tid}, f"Claim {ctx.d.titles[tid]['name']}")
        for tid in eligible(ctx, frame["seat"])
    ]
    return [*opts, option({"claim": None}, "Claim no Title")]


def _claim_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    if action["claim"] is not None:
        claim(ctx, frame["seat"], action["claim"])


handlers.decision(
    "claim",
    "HRE-BASE-PASS-03",
    lambda ctx, f: "Pass step 2: you may claim one Title",
    _claim_options,
    _claim_choose,
)
