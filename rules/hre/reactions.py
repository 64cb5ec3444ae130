"""Reactions (HRE-BASE-REACT): the pushed-out disc's owner picks one of the two beside the card."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.hre import culture, handlers
from rules.hre.economy import advance_culture, gain
from rules.hre.handlers import option
from rules.hre.state import RESOURCES, Ctx, Frame

NAMES = {
    "recruit": "Recruit",
    "regroup": "Regroup",
    "cultural_exchange": "Cultural Exchange",
    "wood_or_stone": "Wood or Stone",
    "wood_or_leather": "Wood or Leather",
    "sell": "Sell Goods / Exchange Iron for Gold",
}


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    pair = ctx.d.board["reaction_layout"][frame["slot"]]
    return [option({"react": r}, NAMES[r]) for r in pair]


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    """The owner must choose one; an impossible one resolves with no effect (REACT-02, AMB-07)."""
    ctx.s["stack"].pop()
    seat, react = frame["seat"], action["react"]
    ctx.log("HRE-BASE-REACT-02", f"{ctx.name(seat)} reacts with {NAMES[react]}.")
    if react == "recruit":
        ctx.push({"kind": "recruit", "seat": seat, "stage": "choose"})
    elif react == "regroup":
        ctx.push({"kind": "regroup", "seat": seat, "regroup": True})
    else:
        ctx.push({"kind": "sell_goods" if react == "sell" else react, "seat": seat})


handlers.decision(
    "reaction",
    "HRE-BASE-REACT-02",
    lambda ctx, f: "Your Noble was pushed out: choose a reaction",
    _options,
    _choose,
)


def _exchange_options(ctx: Ctx, frame: Frame) -> list[Option]:
    me = ctx.seat(frame["seat"])
    opts = [
        option({"discard": c}, f"Discard {ctx.d.cards[c]['name']} for 1 Gold") for c in me["hand"]
    ]
    if me["gold"] >= 1:
        opts += [
            option({"take": i}, f"Pay 1 Gold to take {ctx.d.cards[c]['name']}")
            for i, c in enumerate(ctx.s["offer"])
        ]
    return opts or [option({"discard": None}, "No card to give or take: no effect")]


def _exchange_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    """Discard a card for 1 Gold, or pay 1 Gold for any offer card (CULTEX-01, -02)."""
    ctx.s["stack"].pop()
    seat = frame["seat"]
    me = ctx.seat(seat)
    if "take" in action:
        me["gold"] -= 1
        culture.take(ctx, seat, action["take"], "HRE-BASE-CULTEX-02")
    elif action["discard"] is not None:
        me["hand"].remove(action["discard"])
        ctx.s["discard"].append(action["discard"])
        me["gold"] += 1
        ctx.log(
            "HRE-BASE-CULTEX-01",
            f"{ctx.name(seat)} discards {ctx.d.cards[action['discard']]['name']} for 1 Gold.",
        )


handlers.decision(
    "cultural_exchange",
    "HRE-BASE-CULTEX-01",
    lambda ctx, f: "Cultural Exchange: discard a card for Gold, or buy any offer card",
    _exchange_options,
    _exchange_choose,
)


def _resource_choice(pair: tuple[str, str], rule: str) -> tuple[Any, Any]:
    def options(ctx: Ctx, frame: Frame) -> list[Option]:
        return [option({"gain": r}, f"Gain 1 {r}") for r in pair]

    def choose(ctx: Ctx, frame: Frame, action: Any) -> None:
        ctx.s["stack"].pop()
        gain(ctx, frame["seat"], {action["gain"]: 1}, rule)

    return options, choose


for _kind, _pair, _rule in (
    ("wood_or_stone", ("wood", "stone"), "HRE-BASE-RECV-01"),
    ("wood_or_leather", ("wood", "leather"), "HRE-BASE-RECV-02"),
):
    _opts, _pick = _resource_choice(_pair, _rule)
    handlers.decision(_kind, _rule, lambda ctx, f: "Receive a resource", _opts, _pick)


def _sell_options(ctx: Ctx, frame: Frame) -> list[Option]:
    me = ctx.seat(frame["seat"])
    value = ctx.d.board["trade_value"]
    opts = [option({"iron_for_gold": True}, "Pay 1 iron for 1 Gold")] if me["res"]["iron"] else []
    opts += [
        option({"sell": r}, f"Sell 1 {r} for {value[r]} Culture Points")
        for r in RESOURCES
        if me["res"][r]
    ]
    return opts or [option({"sell": None}, "No resources: no effect")]


def _sell_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    """Iron for Gold, or one resource for Culture Points at trade value (SELL-01, -02)."""
    ctx.s["stack"].pop()
    seat = frame["seat"]
    me = ctx.seat(seat)
    if action.get("iron_for_gold"):
        me["res"]["iron"] -= 1
        me["gold"] += 1
        ctx.log("HRE-BASE-SELL-01", f"{ctx.name(seat)} exchanges 1 iron for 1 Gold.")
    elif action.get("sell"):
        me["res"][action["sell"]] -= 1
        advance_culture(
            ctx,
            seat,
            int(ctx.d.board["trade_value"][action["sell"]]),
            "HRE-BASE-SELL-02",
            f" selling 1 {action['sell']}",
        )


handlers.decision(
    "sell_goods",
    "HRE-BASE-SELL-01",
    lambda ctx, f: "Sell Goods or exchange Iron for Gold",
    _sell_options,
    _sell_choose,
)
