"""The Build action (HRE-BASE-BUILD): City, Production building, Church, Keep, Farm, Warehouse."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.hre import handlers, modules
from rules.hre.economy import Cost, affordable, discounted, gain, request_payment
from rules.hre.handlers import option
from rules.hre.state import Ctx, Frame, board_number, neighbours

RULE = "HRE-BASE-BUILD-01"


def _free_slot(ctx: Ctx, prov: str) -> bool:
    here = ctx.s["prov"][prov]
    return bool(here["city"] and len(here["bld"]) + here["church"] < ctx.d.board["city_slots"])


def production_cost(ctx: Ctx, seat: int, prov: str, res: str) -> Cost | None:
    """Local or neighbouring resource cost, or None when it cannot be built (BUILD-06..08)."""
    costs = ctx.d.board["costs"]
    if ctx.d.provinces[prov]["resource"] == res:
        return discounted(ctx, seat, "production", costs["production_local"])
    # Blocked neighbours count only with the AMB-10 option; by default only in-play ones do.
    near = (
        ctx.d.adjacent[prov]
        if ctx.s["options"].get("blocked_resources")
        else neighbours(ctx.s, prov)
    )
    if any(ctx.d.provinces[q]["resource"] == res for q in near):
        return discounted(ctx, seat, "production", costs["production_neighbour"])
    return None


def relic_plan(ctx: Ctx, seat: int, relic: str | None) -> tuple[Cost, dict[str, int]]:
    """The Church cost and the before-payment gain with an optional Relic (BUILD-13)."""
    cost = discounted(ctx, seat, "church", ctx.d.board["costs"]["church"])
    if relic is None:
        return cost, {}
    spec = ctx.d.cards[relic]["relic"]
    if spec.get("when", "before") != "before":
        return cost, {}
    for res, n in spec.get("discount", {}).items():
        if res in cost:
            cost[res] = max(0, cost[res] - int(n))
    return {k: v for k, v in cost.items() if v}, dict(spec.get("gain", {}))


def _church_affordable(ctx: Ctx, seat: int, relic: str | None) -> bool:
    cost, before = relic_plan(ctx, seat, relic)
    me = ctx.seat(seat)
    short = sum(max(0, n - me["res"][r] - before.get(r, 0)) for r, n in cost.items())
    return bool(short <= me["gold"] + before.get("gold", 0))


def relics_in_hand(ctx: Ctx, seat: int) -> list[str]:
    """Relic cards the seat holds."""
    return [c for c in ctx.seat(seat)["hand"] if ctx.d.cards[c]["type"] == "relic"]


def _province_options(ctx: Ctx, seat: int, prov: str) -> list[Option]:
    here, name = ctx.s["prov"][prov], ctx.d.provinces[prov]["name"]
    costs = ctx.d.board["costs"]
    opts = []
    if (
        not here["city"]
        and ctx.s["cities"] > 0
        and affordable(ctx, seat, discounted(ctx, seat, "city", costs["city"]))
    ):
        opts.append(option({"build": "city", "prov": prov}, f"Build a City in {name}"))
    if _free_slot(ctx, prov):
        for res in ("wood", "leather", "stone", "iron"):
            cost = production_cost(ctx, seat, prov, res)
            if cost is not None and affordable(ctx, seat, cost):
                opts.append(
                    option(
                        {"build": "production", "prov": prov, "res": res},
                        f"Build a {res} Production building in {name}",
                    )
                )
        churches_left = ctx.s["churches"] < board_number(ctx.s, "church_spaces")
        if (
            not here["church"]
            and churches_left
            and any(_church_affordable(ctx, seat, r) for r in [None, *relics_in_hand(ctx, seat)])
        ):
            opts.append(option({"build": "church", "prov": prov}, f"Build a Church in {name}"))
    if (
        here["city"]
        and here["keep"] < 3
        and affordable(ctx, seat, discounted(ctx, seat, "keep", costs["keep"][here["keep"]]))
    ):
        opts.append(
            option(
                {"build": "keep", "prov": prov},
                f"Raise the Keep in {name} to level {here['keep'] + 1}",
            )
        )
    if (
        1 <= here["farms"] < modules.farm_cap(ctx.s, seat)  # a third only by a module (M13A)
        and ctx.seat(seat)["farms_track"] > 0
        and affordable(ctx, seat, discounted(ctx, seat, "farm", costs["farm"]))
    ):
        nth = "second" if here["farms"] == 1 else "third"
        opts.append(option({"build": "farm", "prov": prov}, f"Build a {nth} Farm in {name}"))
    return opts


def warehouse_costs(ctx: Ctx, seat: int) -> list[Cost]:
    """The alternative costs of the next Warehouse, or [] at the bottom (BUILD-20)."""
    track = ctx.d.board["warehouse_track"]
    row = ctx.seat(seat)["warehouse"] + 1
    if row >= len(track):
        return []
    return [discounted(ctx, seat, "warehouse", c) for c in track[row]["cost"]]


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat = frame["seat"]
    opts: list[Option] = []
    for prov in sorted(ctx.s["prov"]):
        if ctx.s["prov"][prov]["owner"] == seat:
            opts.extend(_province_options(ctx, seat, prov))
    if any(affordable(ctx, seat, c) for c in warehouse_costs(ctx, seat)):
        opts.append(option({"build": "warehouse"}, "Build a Warehouse"))
    return opts or [option({"build": None}, "Nothing can be built: the action has no effect")]


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    seat, what = frame["seat"], action["build"]
    costs = ctx.d.board["costs"]
    if what is None:
        ctx.nothing_done()
        return
    prov = action.get("prov")
    after = {"do": f"build_{what}", "prov": prov, "res": action.get("res")}
    if what == "church":
        relics = [r for r in relics_in_hand(ctx, seat) if _church_affordable(ctx, seat, r)]
        if relics:
            ctx.push({"kind": "relic", "seat": seat, "prov": prov})
            return
        cost: list[Cost] = [relic_plan(ctx, seat, None)[0]]
    elif what == "city":
        cost = [discounted(ctx, seat, "city", costs["city"])]
    elif what == "production":
        found = production_cost(ctx, seat, prov, action["res"])
        assert found is not None
        cost = [found]
    elif what == "keep":
        cost = [discounted(ctx, seat, "keep", costs["keep"][ctx.s["prov"][prov]["keep"]])]
    elif what == "farm":
        cost = [discounted(ctx, seat, "farm", costs["farm"])]
    else:
        cost = [c for c in warehouse_costs(ctx, seat) if affordable(ctx, seat, c)]
    request_payment(ctx, seat, cost, after, f"HRE-BASE-BUILD-{_COST_RULE[what]}")


_COST_RULE = {
    "city": "02",
    "production": "06",
    "church": "10",
    "keep": "15",
    "farm": "19",
    "warehouse": "20",
}

handlers.decision("build", RULE, lambda ctx, f: "Build: choose what and where", _options, _choose)


def _relic_options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat = frame["seat"]
    opts = [
        option({"relic": r}, f"Play the Relic {ctx.d.cards[r]['name']}")
        for r in relics_in_hand(ctx, seat)
        if _church_affordable(ctx, seat, r)
    ]
    if _church_affordable(ctx, seat, None):
        opts.append(option({"relic": None}, "Play no Relic"))
    return opts


def _relic_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    seat, relic = frame["seat"], action["relic"]
    cost, before = relic_plan(ctx, seat, relic)
    if relic is not None:
        ctx.seat(seat)["hand"].remove(relic)
        ctx.log(
            "HRE-BASE-BUILD-13", f"{ctx.name(seat)} plays the Relic {ctx.d.cards[relic]['name']}."
        )
        if before:
            gain(ctx, seat, before, "HRE-BASE-BUILD-13", " from the Relic")
    after = {"do": "build_church", "prov": frame["prov"], "relic": relic}
    request_payment(ctx, seat, [cost], after, "HRE-BASE-BUILD-10")


handlers.decision(
    "relic",
    "HRE-BASE-BUILD-13",
    lambda ctx, f: "You may play one Relic with this Church",
    _relic_options,
    _relic_choose,
)


@handlers.then("build_city")
def _city(ctx: Ctx, seat: int, data: dict[str, Any]) -> None:
    """A City from the supply, then 2 Culture Points (BUILD-02, -03)."""
    ctx.s["prov"][data["prov"]]["city"] = True
    ctx.s["cities"] -= 1
    ctx.log(
        "HRE-BASE-BUILD-02",
        f"{ctx.name(seat)} builds a City in {ctx.d.provinces[data['prov']]['name']}.",
    )
    gain(ctx, seat, {"cp": 2}, "HRE-BASE-BUILD-03", " for the City")


@handlers.then("build_production")
def _production(ctx: Ctx, seat: int, data: dict[str, Any]) -> None:
    ctx.s["prov"][data["prov"]]["bld"].append(data["res"])
    ctx.log(
        "HRE-BASE-BUILD-06",
        f"{ctx.name(seat)} builds a {data['res']} Production building in "
        f"{ctx.d.provinces[data['prov']]['name']}.",
    )


def church_vp(ctx: Ctx, prov: str) -> int:
    """5 VP, +1 for a Region's first Church, +1 per other neighbouring Region with none (AMB-09)."""
    region = ctx.d.provinces[prov]["region"]

    def has_church(reg: str) -> bool:
        return any(
            ctx.s["prov"][p]["church"] for p in ctx.d.region_provinces[reg] if p in ctx.s["prov"]
        )

    near = (
        ctx.d.adjacent[prov]
        if ctx.s["options"].get("blocked_in_regions")
        else neighbours(ctx.s, prov)
    )
    others = {ctx.d.provinces[q]["region"] for q in near} - {region}
    return 5 + (0 if has_church(region) else 1) + sum(1 for r in others if not has_church(r))


@handlers.then("build_church")
def _church(ctx: Ctx, seat: int, data: dict[str, Any]) -> None:
    """Take the next Church from the track and score it (BUILD-10..12); the Relic is discarded."""
    prov = data["prov"]
    vp = church_vp(ctx, prov)
    ctx.s["prov"][prov]["church"] = True
    ctx.s["churches"] += 1
    ctx.seat(seat)["vp"] += vp
    ctx.log(
        "HRE-BASE-BUILD-12",
        f"{ctx.name(seat)} builds Church {ctx.s['churches']} in "
        f"{ctx.d.provinces[prov]['name']}: +{vp} VP.",
    )
    relic = data.get("relic")
    if relic is not None:
        spec = ctx.d.cards[relic]["relic"]
        if spec.get("when") == "after" and spec.get("gain"):
            gain(ctx, seat, spec["gain"], "HRE-BASE-BUILD-13", " from the Relic")
        ctx.s["discard"].append(relic)
    modules.church_built(ctx, seat, prov)


@handlers.then("build_keep")
def _keep(ctx: Ctx, seat: int, data: dict[str, Any]) -> None:
    here = ctx.s["prov"][data["prov"]]
    here["keep"] += 1
    ctx.log(
        "HRE-BASE-BUILD-16",
        f"{ctx.name(seat)} raises the Keep in "
        f"{ctx.d.provinces[data['prov']]['name']} to level {here['keep']}.",
    )


@handlers.then("build_farm")
def _farm(ctx: Ctx, seat: int, data: dict[str, Any]) -> None:
    here = ctx.s["prov"][data["prov"]]
    here["farms"] += 1
    ctx.seat(seat)["farms_track"] -= 1
    second = here["farms"] == 2
    ctx.log(
        "HRE-BASE-BUILD-19" if second else "HRE-M13A-PLAY-03",
        f"{ctx.name(seat)} builds a {'second' if second else 'third'} Farm in "
        f"{ctx.d.provinces[data['prov']]['name']}.",
    )


@handlers.then("build_warehouse")
def _warehouse(ctx: Ctx, seat: int, data: dict[str, Any]) -> None:
    ctx.seat(seat)["warehouse"] += 1
    ctx.log(
        "HRE-BASE-BUILD-20", f"{ctx.name(seat)} builds Warehouse {ctx.seat(seat)['warehouse']}."
    )
