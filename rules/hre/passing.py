"""Passing, in the book's step order (HRE-BASE-PASS), with the end-game variants (END-07, -09)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.engine import Option
from rules.hre import culture, freeacts, handlers, modules, titles
from rules.hre.economy import advance_culture, gain
from rules.hre.handlers import option
from rules.hre.state import (
    RESOURCES,
    Ctx,
    Frame,
    describe,
    modifier_total,
    modifiers,
    resources_held,
)

# Which steps each kind of Pass runs: a normal Pass, the immediate Pass when the end is
# triggered (no offer cycling, END-07), and the final Pass after it (steps 1–3, END-09).
STEPS_BY_MODE = {
    "normal": (1, 2, 3, 4, 5, 6, 7, 8, 9),
    "immediate": (2, 3, 4, 5, 6, 7, 8, 9),
    "final": (1, 2, 3, 10),
}


def push(ctx: Ctx, seat: int, mode: str) -> None:
    """Start a Pass procedure for a seat, unless a module in play runs it (an automa's Pass)."""
    if modules.push_pass(ctx, seat, mode):
        return
    me = ctx.seat(seat)
    ctx.push(
        {
            "kind": "pass",
            "seat": seat,
            "mode": mode,
            "next": 0,
            "all_available": me["discs"] == me["total_discs"],
        }
    )


@handlers.step("pass")
def _pass_step(ctx: Ctx, frame: Frame) -> None:
    number = next_step(ctx, frame, STEPS_BY_MODE[frame["mode"]])
    if number is None:
        return
    if frame["next"] == 1 and frame["mode"] == "immediate":
        ctx.log("HRE-BASE-END-07", f"{ctx.name(frame['seat'])} passes at once, skipping step 1.")
    PASS_STEPS[number](ctx, frame)


def next_step(ctx: Ctx, frame: Frame, steps: tuple[int, ...]) -> int | None:
    """The number of a Pass frame's next step (now counted as taken), or None: the Pass is over
    and its frame leaves."""
    if frame["next"] >= len(steps):
        ctx.s["stack"].pop()
        return None
    frame["next"] += 1
    return steps[int(frame["next"]) - 1]


def after_step(
    number: int, key: str, then: Callable[[Ctx, Frame], None]
) -> Callable[[Ctx, Frame, Callable[[Ctx, Frame], None]], None]:
    """A wrapper of the "pass" step for a module: in a game holding `key` (the module's part of
    the state), `then` runs right after a Pass has run its step `number`."""

    def wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
        steps = STEPS_BY_MODE[frame["mode"]]
        running = key in ctx.s and frame["next"] < len(steps) and steps[frame["next"]] == number
        inner(ctx, frame)
        if running:
            then(ctx, frame)

    return wrapper


def _cycle_offer(ctx: Ctx, frame: Frame) -> None:
    culture.cycle_offer(ctx, "HRE-BASE-PASS-02")


def _claim_title(ctx: Ctx, frame: Frame) -> None:
    if titles.eligible(ctx, frame["seat"]):
        ctx.push({"kind": "claim", "seat": frame["seat"]})


def _take_back_discs(ctx: Ctx, frame: Frame) -> None:
    """Step 3: discs come back from the Action cards and Exhausted Nobles (PASS-06)."""
    seat = frame["seat"]
    me = ctx.seat(seat)
    for slot in ctx.s["slots"]:
        slot["stack"] = [s for s in slot["stack"] if s != seat]
    me["discs"], me["exhausted"] = me["total_discs"], 0
    ctx.log("HRE-BASE-PASS-06", f"{ctx.name(seat)} takes back all Noble discs.")


def _sell(ctx: Ctx, frame: Frame) -> None:
    seat = frame["seat"]
    limit = ctx.d.board["warehouse_track"][ctx.seat(seat)["warehouse"]]["sell"]
    limit += modifier_total(ctx.s, seat, "sell_bonus")
    if limit > 0 and resources_held(ctx.s, seat) > 0:
        ctx.push({"kind": "sell", "seat": seat, "left": limit})


def _hold(ctx: Ctx, frame: Frame) -> None:
    if resources_held(ctx.s, frame["seat"]) > hold_value(ctx, frame["seat"]):
        ctx.push({"kind": "discard_res", "seat": frame["seat"]})


def hold_value(ctx: Ctx, seat: int) -> int:
    """The Warehouse 'hold' value plus Technology bonuses (PASS-08)."""
    base = int(ctx.d.board["warehouse_track"][ctx.seat(seat)["warehouse"]]["hold"])
    return base + modifier_total(ctx.s, seat, "hold_bonus")


def _gold(ctx: Ctx, frame: Frame) -> None:
    """Step 6: 1 Gold, one more in the immediate Pass with every disc available (END-07)."""
    seat = frame["seat"]
    amount = 2 if frame["mode"] == "immediate" and frame["all_available"] else 1
    gain(ctx, seat, {"gold": amount}, "HRE-BASE-PASS-09", " for passing")
    for mod in modifiers(ctx.s, seat, "after_pass"):
        gain(ctx, seat, mod["gain"], "HRE-BASE-PASS-09", " from a Technology after passing")


def _cognomens(ctx: Ctx, frame: Frame) -> None:
    """Step 7: every Cognomen in hand is resolved; their order cannot change the VP (COG-02)."""
    seat = frame["seat"]
    for card in [c for c in ctx.seat(seat)["hand"] if ctx.d.cards[c]["type"] == "cognomen"]:
        freeacts.play_cognomen(ctx, seat, card, "HRE-BASE-PASS-10")


def _produce(ctx: Ctx, frame: Frame) -> None:
    """Step 8: each controlled province yields 1/3/5 per resource by buildings (PASS-11, -12)."""
    seat = frame["seat"]
    total = production(ctx, seat)
    for res, n in total.items():
        ctx.seat(seat)["res"][res] += n
    ctx.log("HRE-BASE-PASS-11", f"{ctx.name(seat)} produces {describe(total)}.")


def production(ctx: Ctx, seat: int) -> dict[str, int]:
    """What the seat's provinces would produce now."""
    yields = ctx.d.board["production_yield"]
    total = dict.fromkeys(RESOURCES, 0)
    for here in ctx.s["prov"].values():
        if here["owner"] == seat:
            for res in RESOURCES:
                total[res] += yields[min(here["bld"].count(res), 3)]
    return {k: v for k, v in total.items() if v}


def _refresh(ctx: Ctx, frame: Frame) -> None:
    """Step 9: every Title the seat holds is turned upright (PASS-13)."""
    held = [t for t in ctx.s["titles"].values() if t["holder"] == frame["seat"]]
    for title in held:
        title["ready"] = True
    if held:
        ctx.log("HRE-BASE-PASS-13", f"{ctx.name(frame['seat'])} refreshes their Titles.")


def _out(ctx: Ctx, frame: Frame) -> None:
    """After a final Pass the seat is out; unplayed Cognomens score first (END-09, AMB-31)."""
    if ctx.s["options"].get("unplayed_cognomens", "resolve") == "resolve":
        _cognomens(ctx, frame)
    ctx.seat(frame["seat"])["out"] = True
    ctx.log("HRE-BASE-END-09", f"{ctx.name(frame['seat'])} has made the final Pass and is out.")


PASS_STEPS: dict[int, Any] = {
    1: _cycle_offer,
    2: _claim_title,
    3: _take_back_discs,
    4: _sell,
    5: _hold,
    6: _gold,
    7: _cognomens,
    8: _produce,
    9: _refresh,
    10: _out,
}


def _sell_options(ctx: Ctx, frame: Frame) -> list[Option]:
    me = ctx.seat(frame["seat"])
    value = ctx.d.board["trade_value"]
    opts = [
        option({"sell": r}, f"Sell 1 {r} for {value[r]} Culture Points")
        for r in RESOURCES
        if me["res"][r] > 0
    ]
    return [*opts, option({"sell": None}, "Sell nothing more")]


def _sell_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    res = action["sell"]
    if res is None:
        ctx.s["stack"].pop()
        return
    ctx.seat(frame["seat"])["res"][res] -= 1
    advance_culture(
        ctx,
        frame["seat"],
        int(ctx.d.board["trade_value"][res]),
        "HRE-BASE-PASS-07",
        f" selling 1 {res}",
    )
    frame["left"] -= 1
    if frame["left"] <= 0 or resources_held(ctx.s, frame["seat"]) == 0:
        ctx.s["stack"].pop()


def _discard_options(ctx: Ctx, frame: Frame) -> list[Option]:
    me = ctx.seat(frame["seat"])
    return [option({"discard": r}, f"Discard 1 {r}") for r in RESOURCES if me["res"][r] > 0]


def _discard_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    seat = frame["seat"]
    ctx.seat(seat)["res"][action["discard"]] -= 1
    ctx.log(
        "HRE-BASE-PASS-08", f"{ctx.name(seat)} discards 1 {action['discard']} over the hold value."
    )


handlers.decision(
    "sell",
    "HRE-BASE-PASS-07",
    lambda ctx, f: f"Pass step 4: you may sell up to {f['left']} more resources",
    _sell_options,
    _sell_choose,
)
handlers.decision(
    "discard_res",
    "HRE-BASE-PASS-08",
    lambda ctx, f: f"Pass step 5: discard down to {hold_value(ctx, f['seat'])} resources",
    _discard_options,
    _discard_choose,
    until=lambda ctx, f: resources_held(ctx.s, f["seat"]) <= hold_value(ctx, f["seat"]),
)
