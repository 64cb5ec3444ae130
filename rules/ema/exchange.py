"""Exchanges of gold, Claims and Areas as offers the other Player accepts or declines (20.1), and asylum (21.2)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.ema import claims, handlers
from rules.ema.handlers import option
from rules.ema.mapindex import claimed, set_claims
from rules.ema.state import CLAIMS, FORT, OWNER, Ctx, Frame, has, in_play, owned
from rules.ema.territory import transfer

GOLD_STEPS = (1, 2, 3, 5, 10)


def items(ctx: Ctx, giver: int, taker: int, kind: str) -> list[Option]:
    """What one seat can hand another: gold, an Area (never the Court), a Claim the taker may hold."""
    me = ctx.seat(giver)
    if kind == "gold":
        return [option({"gold": g}, f"{g} gold") for g in GOLD_STEPS if g <= me["gold"]]
    if (
        kind == "area"
    ):  # 20.1: the forts' fate is negotiable: they pass with the Area or are razed first
        return [
            option({"area": a, "forts": keep}, ctx.aname(a) + _forts_label(ctx, a, keep))
            for a in owned(ctx.s, giver)
            if a != me["court"]
            for keep in ((True, False) if ctx.area(a)[FORT] else (True,))
        ]
    areas = ctx.s["areas"]
    return [
        option({"claim": a}, f"Claim to {ctx.aname(a)}")
        for a in claimed(ctx.s, giver)
        if not areas[a][CLAIMS] >> taker & 1 and claims.allowed(ctx, taker, a)
    ]


def _forts_label(ctx: Ctx, aid: str, keep: bool) -> str:
    if not ctx.area(aid)[FORT]:
        return ""
    return " with its forts" if keep else ", its forts razed first"


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat, stage = frame["seat"], frame["stage"]
    if stage == "partner":
        return [option({"cancel": True}, "Cancel")] + [
            option({"partner": p}, f"Offer an exchange to {ctx.name(p)}")
            for p in in_play(ctx.s)
            if p != seat
        ]
    giver, taker = (
        (seat, frame["partner"]) if stage.startswith("give") else (frame["partner"], seat)
    )
    if stage.endswith("kind"):
        kinds = [k for k in ("gold", "area", "claim") if items(ctx, giver, taker, k)]
        return [option({"kind": "none"}, "Nothing")] + [
            option({"kind": k}, k.title()) for k in kinds
        ]
    return handlers.paged(ctx, frame, items(ctx, giver, taker, frame["item_kind"]))


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    stage = frame["stage"]
    if handlers.turn_page(frame, action):
        return
    if "cancel" in action:
        ctx.pop()
    elif stage == "partner":
        frame["partner"], frame["stage"] = action["partner"], "give_kind"
    elif stage.endswith("kind"):
        side = stage.split("_")[0]
        if action["kind"] == "none":
            frame[side] = None
            _next(ctx, frame, side)
        else:
            frame["item_kind"], frame["stage"] = action["kind"], f"{side}_item"
    else:
        side = stage.split("_")[0]
        frame[side] = action
        _next(ctx, frame, side)


def _next(ctx: Ctx, frame: Frame, side: str) -> None:
    frame["page"] = None
    if side == "give":
        frame["stage"] = "ask_kind"
        return
    ctx.pop()
    if frame["give"] is None and frame["ask"] is None:
        return
    ctx.push(
        {
            "kind": "offer_reply",
            "seat": frame["partner"],
            "from": frame["seat"],
            "give": frame["give"],
            "ask": frame["ask"],
        }
    )


def describe(ctx: Ctx, item: dict[str, Any] | None) -> str:
    """Readable text of one side of an offer."""
    if item is None:
        return "nothing"
    if "gold" in item:
        return f"{item['gold']} gold"
    if "area" in item:
        return ctx.aname(item["area"]) + _forts_label(ctx, item["area"], item.get("forts", True))
    return f"the Claim to {ctx.aname(item['claim'])}"


def _hand_over(ctx: Ctx, giver: int, taker: int, item: dict[str, Any] | None) -> bool:
    """Move one item if it is still the giver's to give."""
    if item is None:
        return True
    if "gold" in item:
        if ctx.seat(giver)["gold"] < item["gold"]:
            return False
        ctx.seat(giver)["gold"] -= item["gold"]
        ctx.seat(taker)["gold"] += item["gold"]
    elif "area" in item:
        if ctx.area(item["area"])[OWNER] != giver or ctx.seat(giver)["court"] == item["area"]:
            return False
        if not item.get("forts", True):
            ctx.area(item["area"])[FORT] = 0
        transfer(ctx, item["area"], taker, "trade")  # 20.1: Unrest stays, Ties never move
    else:
        here = ctx.area(item["claim"])
        if not has(here[CLAIMS], giver):
            return False
        set_claims(ctx.s, item["claim"], here[CLAIMS] & ~(1 << giver))
        claims.add(ctx, taker, item["claim"], "EMA-20.1")
    return True


def _accepted(ctx: Ctx, frame: Frame) -> None:
    proposer, seat = frame["from"], frame["seat"]
    if _hand_over(ctx, proposer, seat, frame["give"]) and _hand_over(
        ctx, seat, proposer, frame["ask"]
    ):
        ctx.log(
            "EMA-20.1",
            f"{ctx.name(seat)} accepts: {describe(ctx, frame['give'])} for "
            f"{describe(ctx, frame['ask'])} with {ctx.name(proposer)}.",
        )


def _reply_text(ctx: Ctx, frame: Frame) -> str:
    return (
        f"{ctx.name(frame['from'])} offers {describe(ctx, frame['give'])} and asks "
        f"{describe(ctx, frame['ask'])}"
    )


handlers.decision(
    "offer",
    "EMA-20.1",
    lambda ctx, f: f"Exchange: {f['stage'].replace('_', ' ')}",
    _options,
    _choose,
)
handlers.reply(
    "offer_reply",
    "EMA-20.1",
    _reply_text,
    lambda ctx, f: f"{ctx.name(f['seat'])} declines the offer of {ctx.name(f['from'])}.",
    _accepted,
)


def _asylum_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    exile = ctx.seat(frame["exile"])
    if action["grant"] and exile["exile"]:
        exile["asylum"] = frame["seat"]
        ctx.log(
            "EMA-21.2", f"{ctx.name(frame['seat'])} grants asylum to {ctx.name(frame['exile'])}."
        )
    else:
        ctx.log(
            "EMA-21.2", f"{ctx.name(frame['seat'])} refuses asylum to {ctx.name(frame['exile'])}."
        )


handlers.decision(
    "asylum",
    "EMA-21.2",
    lambda ctx, f: f"{ctx.name(f['exile'])} asks you for asylum",
    lambda ctx, f: [option({"grant": True}, "Grant asylum"), option({"grant": False}, "Refuse")],
    _asylum_choose,
)
