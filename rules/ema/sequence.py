"""The Game-Turn and Round sequence (5.0, 6.0): events, deal, initiative, Player-Turns, end of Round."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import Option
from rules.core.words import ordinal
from rules.ema import cards, events, handlers, leaders, victory
from rules.ema.handlers import option
from rules.ema.state import Ctx, Frame, in_play, owned


def gt_start(year: int) -> bool:
    """A Game-Turn begins before the Rounds of x01, x26, x51 and x76 (6.0)."""
    return (year - 1) % 25 == 0


@handlers.step("round")
def _round(ctx: Ctx, frame: Frame) -> None:
    """Run one Round: start, the Player-Turns in initiative order, then the end of Round."""
    if frame["phase"] == "start":
        start_round(ctx)
        frame["phase"], frame["i"] = "turns", 0
    elif frame["phase"] == "turns":
        order = ctx.s["order"]
        if frame["i"] >= len(order):
            frame["phase"] = "end"
            return
        seat = order[frame["i"]]
        frame["i"] += 1
        ctx.s["active"] = seat
        ctx.push({"kind": "turn", "seat": seat, "phase": "draw"})
    else:
        end_round(ctx)
        frame["phase"] = "start"
        if ctx.s["round"] > ctx.s["rounds"]:
            ctx.pop()
            victory.finish(ctx)


def start_round(ctx: Ctx) -> None:
    """Event Card Segment at a Game-Turn start, Year deal, initiative (6.0 I, III.1, III.6)."""
    s = ctx.s
    if gt_start(s["year"]) or s["round"] == 1:
        s["event_deck"] += s["event_discard"]
        s["event_discard"] = []
        rng.shuffle(s, s["event_deck"])
        ctx.log("EMA-SOP-I", f"Game-Turn {s['year']}: the Event deck is reshuffled.")
        for hook in handlers.GAME_TURN:
            hook(ctx)
    s["parleys_round"] = []
    cards.deal(ctx)
    ctx.log("EMA-6.0.GR-b", f"Round {s['year']}: five Year Cards dealt face down to each Player.")
    depth = len(s["stack"])
    ctx.push({"kind": "initiative_start"})
    for _, hook in sorted(handlers.ROUND_PHASES.items(), reverse=True):
        hook(ctx)  # each pushes its phase's step when its option is on; the first runs first
    if len(s["stack"]) == depth + 1:
        ctx.pop()
        push_initiative(ctx)


@handlers.step("initiative_start")
def _initiative_start(ctx: Ctx, frame: Frame) -> None:
    """The Initiative Determination Phase after the optional phases of the Round (6.0 III.6)."""
    ctx.pop()
    push_initiative(ctx)


def push_initiative(ctx: Ctx) -> None:
    """Rank the seats and ask the first to choose his slot (6.0 III.6)."""
    s = ctx.s
    ranked = initiative_rank(ctx)
    s["order"] = [None] * len(ranked)
    if len(ranked) == 1:
        s["order"] = ranked
        return
    ctx.push({"kind": "initiative", "seat": ranked[0], "queue": ranked})


def initiative_rank(ctx: Ctx) -> list[int]:
    """Order of choice: Stature total, then Areas controlled, then a die roll, high first (6.0 III.6, A-03)."""
    keys = []
    for seat in in_play(ctx.s):
        keys.append((-leaders.total(ctx, seat), -len(owned(ctx.s, seat)), -rng.die(ctx.s), seat))
    return [k[3] for k in sorted(keys)]


def _initiative_options(ctx: Ctx, frame: Frame) -> list[Option]:
    order = ctx.s["order"]
    return [
        option({"slot": i}, f"Play {ordinal(i + 1)} this Round")
        for i in range(len(order))
        if order[i] is None
    ]


def _initiative_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    order = ctx.s["order"]
    order[action["slot"]] = frame["seat"]
    ctx.log("EMA-SOP-III.6", f"{ctx.name(frame['seat'])} takes turn slot {action['slot'] + 1}.")
    frame["queue"] = frame["queue"][1:]
    if len(frame["queue"]) == 1:
        order[order.index(None)] = frame["queue"][0]
        ctx.pop()
    else:
        frame["seat"] = frame["queue"][0]


handlers.decision(
    "initiative",
    "EMA-SOP-III.6",
    lambda ctx, f: "Choose your place in the order of play",
    _initiative_options,
    _initiative_choose,
)


def end_round(ctx: Ctx) -> None:
    """Unplayed cards are turned up for Administrative Stature Checks; the Round marker moves (8.22)."""
    for seat, me in enumerate(ctx.s["seats"]):
        if me.get("waiting"):  # 32.0 Step 6: no part in the Round, his cards go back unseen
            ctx.s["year_deck"] += me["years"]
            me["years"] = []
        unplayed(ctx, seat)
        ctx.s["year_deck"] += me["revealed"]
        me["revealed"] = []
        me["card_uses"] = []
    for hook in handlers.ROUND_END:
        hook(ctx)
    ctx.s["round"] += 1
    ctx.s["year"] += 5


def unplayed(ctx: Ctx, seat: int) -> None:
    """Turn up every card not played and check on those listing the Administrative Stature (8.22, 21.1)."""
    me = ctx.seat(seat)
    while me["years"]:
        card = cards.turn_up(ctx, seat, {"use": "unplayed", "endeavor": None, "target": None})
        ctx.log("EMA-8.22", f"{ctx.name(seat)} turns up unplayed Year Card {card['number']}.")
        if leaders.card_calls_check(card, me["st"]["a"]):
            leaders.stature_check(ctx, seat, "EMA-8.22")


@handlers.step("turn")
def _turn(ctx: Ctx, frame: Frame) -> None:
    """A Player-Turn: the Event draw first (A-05), the main decisions, then the exile's cards and the Heresy spread."""
    seat = frame["seat"]
    me = ctx.seat(seat)
    if frame["phase"] == "draw":
        me["taxed"], me["endeavors"] = False, 0
        ctx.s[
            "turn_asks"
        ] = {}  # the per-turn caps on offers, proposals, asylum requests and waivers
        ctx.s["current_event"] = None
        frame["phase"] = "main"
        events.draw(ctx, seat)
    elif frame["phase"] == "main":
        frame["phase"] = "end"
        ctx.push({"kind": "main", "seat": seat})
    else:
        ctx.pop()
        ctx.s["current_event"] = None  # the Event drawn was in force for this Player-Turn only
        me["heirless_guard"] = (
            False  # 19.2 Dynastic: the Heirless shelter ends with his turn at the latest
        )
        if me["exile"] and me["asylum"] is None:
            unplayed(
                ctx, seat
            )  # 21.1: still without asylum at the end of his turn, his cards go up unused
        events.spread_heresy(ctx)
