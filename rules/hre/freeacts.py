"""Free actions on your own turn: Settling (HRE-BASE-SETTLE) and Cognomen cards (HRE-BASE-COG)."""

from __future__ import annotations

from itertools import product
from typing import Any

from rules.core.engine import Option
from rules.core.machine import Extension
from rules.hre import handlers, modules, scoring
from rules.hre.handlers import option
from rules.hre.state import UNITS, Ctx, Frame, capital, neighbours, refresh_owner, unit_level


def settle_cost(ctx: Ctx, seat: int, prov: str) -> int:
    """The Ruler's 1st, 2nd or 3rd settlement cost by closeness to the Capital (SETTLE-03..05)."""
    fixed = modules.settle_cost(ctx, seat, prov)
    if fixed is not None:
        return fixed
    ruler = ctx.d.rulers[ctx.seat(seat)["ruler"]]
    home = capital(ctx.s, seat)
    assert home is not None
    near = prov in neighbours(ctx.s, home)
    same = ctx.d.provinces[prov]["region"] == ctx.d.provinces[home]["region"]
    band = 0 if near and same else 1 if near or same else 2
    return int(ruler["costs"][band])


def payments(ctx: Ctx, seat: int, prov: str) -> list[dict[str, int]]:
    """Minimal sets of units in the province whose levels cover the cost (SETTLE-06, AMB-06)."""
    cost = settle_cost(ctx, seat, prov)
    have = ctx.s["prov"][prov]["units"]
    level = {u: unit_level(ctx.s, seat, u) for u in UNITS}
    found = []
    for counts in product(*(range(have[u] + 1) for u in UNITS)):
        pick = dict(zip(UNITS, counts, strict=True))
        weight = sum(level[u] * pick[u] for u in UNITS)
        minimal = all(weight - level[u] < cost for u in UNITS if pick[u])
        if weight >= cost and minimal:
            found.append({u: n for u, n in pick.items() if n})
    return found


def settle_options(ctx: Ctx, seat: int) -> list[Option]:
    """Settle a controlled province with no Farm whose units can pay its cost (SETTLE-01..06).

    This runs on every turn prompt, so it reads each province once and the unit levels once.
    Units whose levels add up to the cost always contain a minimal set that does (drop units
    while the rest still covers it), so "the levels in the province reach the cost" is the
    same test as "`payments` finds a way", without listing the ways.
    """
    if ctx.s["seats"][seat]["farms_track"] <= 0:
        return []
    provinces = ctx.s["prov"]
    # One comprehension over the board (the cheapest scan in CPython); the few provinces left
    # are sorted, so the options come in province order as before.
    mine = [p for p, here in provinces.items() if here["owner"] == seat and not here["farms"]]
    if not mine:
        return []  # the usual case: every province the seat holds has its Farm
    level: dict[str, int] = {}
    opts = []
    for p in sorted(mine):
        have = provinces[p]["units"]
        if not (have["infantry"] or have["archer"] or have["cavalry"]):
            continue
        if not level:
            level = {u: unit_level(ctx.s, seat, u) for u in UNITS}
        cost = settle_cost(ctx, seat, p)
        if sum(level[u] * have[u] for u in UNITS) >= cost:
            opts.append(
                option(
                    {"do": "settle", "prov": p},
                    f"Settle {ctx.d.provinces[p]['name']} (cost {cost})",
                )
            )
    return opts


def options(ctx: Ctx, seat: int) -> list[Option]:
    """The free actions open to the seat now."""
    opts = settle_options(ctx, seat)
    cards = ctx.d.cards
    for card in ctx.s["seats"][seat]["hand"]:
        if cards[card]["type"] == "cognomen":
            opts.append(
                option(
                    {"do": "cognomen", "card": card},
                    f"Play the Cognomen {ctx.d.cards[card]['name']}",
                )
            )
    return opts


def choose(ctx: Ctx, seat: int, action: dict[str, Any]) -> None:
    """Carry out a free action."""
    if action["do"] == "cognomen":
        play_cognomen(ctx, seat, action["card"], "HRE-BASE-COG-01")
        return
    prov = action["prov"]
    ctx.only_or_ask(
        payments(ctx, seat, prov),
        lambda paid: settle(ctx, seat, prov, paid),
        {"kind": "settle_pay", "seat": seat, "prov": prov},
    )


def settle(ctx: Ctx, seat: int, prov: str, paid: dict[str, int]) -> None:
    """Return the paying units and place the leftmost Farm (SETTLE-06, -07)."""
    here = ctx.s["prov"][prov]
    for unit, n in paid.items():
        here["units"][unit] -= n
    me = ctx.seat(seat)
    me["farms_track"] -= 1
    here["farms"] = 1
    spent = ", ".join(f"{n} {u}" for u, n in sorted(paid.items()))
    ctx.log(
        "HRE-BASE-SETTLE-07",
        f"{ctx.name(seat)} settles {ctx.d.provinces[prov]['name']}, "
        f"returning {spent}; Army limit now {scoring.army_limit_of(ctx, seat)}.",
    )
    refresh_owner(ctx.s, prov)
    modules.settled(ctx, seat, prov)


def _settle_pay_options(ctx: Ctx, frame: Frame) -> list[Option]:
    return [
        option({"units": w}, "Return " + ", ".join(f"{n} {u}" for u, n in sorted(w.items())))
        for w in payments(ctx, frame["seat"], frame["prov"])
    ]


handlers.decision(
    "settle_pay",
    "HRE-BASE-SETTLE-06",
    lambda ctx, f: f"Choose the units that pay for settling {ctx.d.provinces[f['prov']]['name']}",
    _settle_pay_options,
    lambda ctx, f, action: settle(ctx, f["seat"], f["prov"], action["units"]),
    once=True,
)


# Free actions join the turn's prompt, before and after its Noble action (HRE-BASE-TURN-06).
handlers.MACHINE.extend(
    "turn",
    Extension(
        ("settle", "cognomen"),
        lambda ctx, frame, seat: options(ctx, seat),
        lambda ctx, frame, seat, action: choose(ctx, seat, action),
    ),
)


def play_cognomen(ctx: Ctx, seat: int, card: str, rule: str) -> None:
    """Score a Cognomen's condition and discard it (COG-01, PASS-10)."""
    me = ctx.seat(seat)
    me["hand"].remove(card)
    ctx.s["discard"].append(card)
    vp = scoring.score_items(ctx, seat, ctx.d.cards[card]["scoring"])
    me["vp"] += vp
    ctx.log(rule, f"{ctx.name(seat)} plays the Cognomen {ctx.d.cards[card]['name']}: +{vp} VP.")
