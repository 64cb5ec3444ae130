"""Gains, costs, payments with Gold standing in for resources, and the Culture track."""

from __future__ import annotations

from itertools import product
from typing import Any

from rules.core.engine import Option
from rules.hre import handlers
from rules.hre.handlers import option
from rules.hre.state import RESOURCES, Ctx, Frame, board_number, describe, modifiers

Cost = dict[str, int]


def discounted(ctx: Ctx, seat: int, target: str, cost: Cost) -> Cost:
    """A cost after the seat's Technology discounts for that target (never below 0)."""
    result = dict(cost)
    for mod in modifiers(ctx.s, seat, "discount"):
        if mod["target"] == target:
            for res, n in mod["cost"].items():
                if res in result:
                    result[res] = max(0, result[res] - int(n))
    return {k: v for k, v in result.items() if v}


def affordable(ctx: Ctx, seat: int, cost: Cost) -> bool:
    """Whether the seat can pay, Gold replacing missing resources (HRE-BASE-GEN-08)."""
    me = ctx.seat(seat)
    short = sum(max(0, n - me["res"][r]) for r, n in cost.items())
    return bool(short <= me["gold"])


def payment_ways(ctx: Ctx, seat: int, alternatives: list[Cost]) -> list[Cost]:
    """Every distinct way to pay one of the alternatives, fewest Gold first (AMB-35)."""
    me = ctx.seat(seat)
    ways: dict[tuple[tuple[str, int], ...], Cost] = {}
    for cost in alternatives:
        items = sorted(cost.items())
        ranges = [range(max(0, n - me["res"][r]), n + 1) for r, n in items]
        for golds in product(*ranges):
            if sum(golds) > me["gold"]:
                continue
            paid = {r: n - g for (r, n), g in zip(items, golds, strict=True) if n - g}
            if sum(golds):
                paid["gold"] = sum(golds)
            ways[tuple(sorted(paid.items()))] = paid
    return sorted(ways.values(), key=lambda w: (w.get("gold", 0), sorted(w.items())))


def pay(ctx: Ctx, seat: int, paid: Cost) -> None:
    """Take a chosen payment from the seat."""
    me = ctx.seat(seat)
    for res, n in paid.items():
        if res == "gold":
            me["gold"] -= n
        else:
            me["res"][res] -= n


def request_payment(
    ctx: Ctx, seat: int, alternatives: list[Cost], after: dict[str, Any], rule: str
) -> None:
    """Pay a cost then run a continuation; prompt only when there is a real choice."""
    ways = payment_ways(ctx, seat, alternatives)
    if len(ways) == 1:
        pay(ctx, seat, ways[0])
        if ways[0]:
            ctx.log(rule, f"{ctx.name(seat)} pays {describe(ways[0])}.")
        handlers.run_then(ctx, seat, after)
        return
    ctx.push({"kind": "pay", "seat": seat, "ways": ways, "then": after, "rule": rule})


def _pay_options(ctx: Ctx, frame: Frame) -> list[Option]:
    return [option({"pay": w}, f"Pay {describe(w)}") for w in frame["ways"]]


def _pay_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    pay(ctx, frame["seat"], action["pay"])
    ctx.log(frame["rule"], f"{ctx.name(frame['seat'])} pays {describe(action['pay'])}.")
    handlers.run_then(ctx, frame["seat"], frame["then"])


handlers.decision(
    "pay",
    "HRE-BASE-GEN-08",
    lambda ctx, f: "Choose how to pay (Gold may replace a resource)",
    _pay_options,
    _pay_choose,
)


def gain(ctx: Ctx, seat: int, amounts: dict[str, int], rule: str, why: str = "") -> None:
    """Give a seat resources, Gold, VP and Culture Points, logging it."""
    me = ctx.seat(seat)
    for key, n in sorted(amounts.items()):
        if key in RESOURCES:
            me["res"][key] += n
        elif key == "gold":
            me["gold"] += n
        elif key == "vp":
            me["vp"] += n
    if any(k != "cp" for k in amounts):
        rest = {k: v for k, v in amounts.items() if k != "cp"}
        ctx.log(rule, f"{ctx.name(seat)} gains {describe(rest)}{why}.")
    if amounts.get("cp"):
        advance_culture(ctx, seat, amounts["cp"], rule, why)


def lose(ctx: Ctx, seat: int, amounts: dict[str, int], rule: str, why: str = "") -> dict[str, int]:
    """Take resources, Gold or VP from a seat, only as much as it has (never below 0); what went."""
    me = ctx.seat(seat)
    taken = {}
    for key, n in sorted(amounts.items()):
        pile, name = (me, key) if key in ("gold", "vp") else (me["res"], key)
        taken[key] = min(int(n), int(pile[name]))
        pile[name] -= taken[key]
    ctx.log(rule, f"{ctx.name(seat)} loses {describe(taken)}{why}.")
    return taken


def advance_culture(ctx: Ctx, seat: int, points: int, rule: str, why: str = "") -> None:
    """Move the Culture marker; first to a red space gains 1 Gold (HRE-BASE-GEN-09/10, AMB-11)."""
    start, end, reds = move_culture(ctx, seat, points)
    ctx.log(rule, f"{ctx.name(seat)} gains {points} Culture Points{why} (track {start} → {end}).")
    for pos in reds:
        ctx.seat(seat)["gold"] += 1
        ctx.log("HRE-BASE-GEN-10", f"{ctx.name(seat)} is first to red space {pos}: +1 Gold.")


def move_culture(ctx: Ctx, seat: int, points: int) -> tuple[int, int, list[int]]:
    """Move a seat's Culture marker: where it starts and ends, and the red spaces it claims first."""
    track = ctx.d.board["culture_track"]
    me = ctx.seat(seat)
    start = me["culture"]
    end = me["culture"] = min(len(track) - 1, start + points)
    reds = [
        p for p in range(start + 1, end + 1) if track[p]["red"] and p not in ctx.s["red_claimed"]
    ]
    ctx.s["red_claimed"] += reds
    return start, end, reds


def accessible(ctx: Ctx, seat: int) -> int:
    """How many offer cards from the left the seat may take (HRE-BASE-DEV-02)."""
    pos = ctx.seat(seat)["culture"]
    track = ctx.d.board["culture_track"]
    reds = sum(1 for i in range(pos + 1) if track[i]["red"])
    return board_number(ctx.s, "base_access") + reds * board_number(ctx.s, "per_red")
