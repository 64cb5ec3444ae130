"""Final scoring (HRE-BASE-SCORE) and the counts used by Cognomens and Technologies."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Result, SeatResult, State
from rules.hre import modules
from rules.hre.state import Ctx, army_limit, farm_space, neighbours


def army_limit_of(ctx: Ctx, seat: int) -> int:
    """The seat's Army limit."""
    return army_limit(ctx.s, seat)


def city_vp(ctx: Ctx, prov: str) -> int:
    """VP of a City by its buildings, Production and Church (SCORE-03)."""
    here = ctx.s["prov"][prov]
    buildings = len(here["bld"]) + (1 if here["church"] else 0)
    return int(ctx.d.board["city_vp"][min(buildings, 3)])


def keep_vp(ctx: Ctx, seat: int, prov: str) -> int:
    """Keep level times the controlled neighbouring provinces (SCORE-04)."""
    level = int(ctx.s["prov"][prov]["keep"])
    mine = sum(1 for q in neighbours(ctx.s, prov) if ctx.s["prov"][q]["owner"] == seat)
    return level * mine


def count(ctx: Ctx, seat: int, what: str) -> int:
    """How many of a thing a seat has, for 'VP per …' scoring."""
    mine = [p for p, here in ctx.s["prov"].items() if here["owner"] == seat]
    provs = ctx.s["prov"]
    me = ctx.seat(seat)
    counters: dict[str, Any] = {
        "city": lambda: sum(1 for p in mine if provs[p]["city"]),
        "church": lambda: sum(1 for p in mine if provs[p]["church"]),
        "keep_level": lambda: sum(provs[p]["keep"] for p in mine),
        "title": lambda: (
            sum(1 for t in ctx.s["titles"].values() if t["holder"] == seat)
            + modules.titles_held(ctx.s, seat)
        ),
        "trophy": lambda: len(me["trophies"]),
        "farm": lambda: sum(provs[p]["farms"] for p in mine),
        "province": lambda: len(mine),
        "common_tech": lambda: len(me["techs"]),
        "military_tech": lambda: sum(1 for m in me["mil"].values() if m is not None),
        "gold": lambda: me["gold"],
        "region_presence": lambda: len({ctx.d.provinces[p]["region"] for p in mine}),
    }
    return int(counters[what]())


def score_items(ctx: Ctx, seat: int, items: list[dict[str, Any]]) -> int:
    """VP of a list of 'VP per …' items, each capped by its max."""
    total = 0
    for item in items:
        vp = int(item["vp"]) * count(ctx, seat, item["per"])
        total += min(vp, int(item["max"])) if "max" in item else vp
    return total


def level_three_count(ctx: Ctx, seat: int) -> int:
    """Technologies at level 3: Common at level 3 plus Military shown at level III (AMB-37)."""
    me = ctx.seat(seat)
    common = sum(1 for t in me["techs"] if t["level"] >= 3)
    military = sum(
        1
        for m in me["mil"].values()
        if m is not None and ctx.d.cards[m["card"]]["halves"][m["half"]]["level"] == 3
    )
    return common + military


def breakdown(ctx: Ctx, seat: int) -> dict[str, int]:
    """Every final-scoring category for a seat (SCORE-01..09)."""
    me = ctx.seat(seat)
    mine = [p for p, here in ctx.s["prov"].items() if here["owner"] == seat]
    techs = 0
    for tech in me["techs"]:
        card = ctx.d.cards[tech["card"]]
        techs += int(card["levels"][tech["level"] - 1]["vp"]) + score_items(
            ctx, seat, card.get("scoring", [])
        )
    board = ctx.d.board
    return {
        "vp_track": int(me["vp"]),
        "technologies": techs,
        "cities": sum(city_vp(ctx, p) for p in mine if ctx.s["prov"][p]["city"]),
        "keeps": sum(keep_vp(ctx, seat, p) for p in mine if ctx.s["prov"][p]["keep"]),
        "culture": int(board["culture_track"][me["culture"]]["vp"]),
        "warehouse": int(board["warehouse_track"][me["warehouse"]]["vp"]),
        "farms": int(farm_space(ctx.s, seat)["vp"]),
        "titles": sum(
            int(ctx.d.titles[t]["vp"]) for t, v in ctx.s["titles"].items() if v["holder"] == seat
        ),
        "gold": int(me["gold"]),
        **modules.scores(ctx.s, seat),
    }


def result(state: State) -> Result:
    """Scores and ranks; tied players share the rank, with no tie-breaker (SCORE-10)."""
    ctx = Ctx(state)
    rows: list[SeatResult] = []
    for seat in range(len(state["seats"])):
        parts = breakdown(ctx, seat)
        rows.append({"seat": seat, "score": sum(parts.values()), "rank": 0, "breakdown": parts})
    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if other["score"] > row["score"])
    return {"over": bool(state["over"]), "seats": rows}
