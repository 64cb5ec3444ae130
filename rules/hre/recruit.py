"""Recruit, as an action or a reaction (HRE-BASE-RECRUIT)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.hre import handlers
from rules.hre.economy import Cost, affordable, discounted, gain, request_payment
from rules.hre.handlers import option
from rules.hre.state import UNITS, Ctx, Frame, in_supply, modifiers, unit_stats


def recruit_cost(ctx: Ctx, seat: int, unit: str) -> Cost:
    """The printed or top Military Technology cost, after discounts (RECRUIT-01)."""
    return discounted(ctx, seat, "recruit", dict(unit_stats(ctx.s, seat, unit)["cost"]))


def recruit_options(ctx: Ctx, seat: int) -> list[Option]:
    """Unit types in supply the seat can pay for, in each controlled province with a City."""
    cities = [
        p
        for p in sorted(ctx.s["prov"])
        if ctx.s["prov"][p]["owner"] == seat and ctx.s["prov"][p]["city"]
    ]
    opts = []
    for unit in UNITS:
        if in_supply(ctx.s, seat, unit) <= 0 or not affordable(
            ctx, seat, recruit_cost(ctx, seat, unit)
        ):
            continue
        for prov in cities:
            opts.append(
                option(
                    {"unit": unit, "prov": prov},
                    f"Recruit {unit} in {ctx.d.provinces[prov]['name']}",
                )
            )
    return opts


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    opts = recruit_options(ctx, frame["seat"])
    return opts or [option({"unit": None}, "Nothing can be recruited: no effect")]


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    seat, unit = frame["seat"], action["unit"]
    if unit is None:
        ctx.nothing_done()
        return
    after = {"do": "recruit_place", "unit": unit, "prov": action["prov"]}
    request_payment(ctx, seat, [recruit_cost(ctx, seat, unit)], after, "HRE-BASE-RECRUIT-01")


@handlers.then("recruit_place")
def _place(ctx: Ctx, seat: int, data: dict[str, Any]) -> None:
    """Place the unit; 'on Recruit' Technologies fire, for action and reaction alike (RECRUIT-03)."""
    prov, unit = data["prov"], data["unit"]
    ctx.s["prov"][prov]["units"][unit] += 1
    ctx.log(
        "HRE-BASE-RECRUIT-01",
        f"{ctx.name(seat)} recruits {unit} in {ctx.d.provinces[prov]['name']}.",
    )
    for mod in modifiers(ctx.s, seat, "on_recruit"):
        if "gain" in mod:
            gain(ctx, seat, mod["gain"], "HRE-BASE-RECRUIT-03", " from a Technology on Recruit")
        if "free_unit" in mod and in_supply(ctx.s, seat, mod["free_unit"]) > 0:
            ctx.s["prov"][prov]["units"][mod["free_unit"]] += 1
            ctx.log(
                "HRE-BASE-RECRUIT-03",
                f"{ctx.name(seat)} adds a free {mod['free_unit']} "
                f"in {ctx.d.provinces[prov]['name']} (Technology on Recruit).",
            )


handlers.decision(
    "recruit",
    "HRE-BASE-RECRUIT-01",
    lambda ctx, f: "Recruit: choose a unit type and a City you control",
    _options,
    _choose,
)
