"""Victory Points (26.0) with the scenario handicaps and bonuses (27.9x, 28.8, 29.7, 30.7, 31.9)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Result, SeatResult, State
from rules.ema.empire import court_costs
from rules.ema.state import CLAIMS, OWNER, REL, SS, Ctx, data, has, owned, rel_relation


def breakdown(state: State, seat: int) -> dict[str, int]:
    """VP by category: Areas at 3 + SS, Claims, Conversions, handicap and bonus (26.0)."""
    me = state["seats"][seat]
    linked = court_costs(state, seat)
    mine = owned(state, seat)
    areas = sum(3 + state["areas"][a][SS] for a in mine if a in linked)
    claimed = sum(
        3
        for a in mine
        if has(state["areas"][a][CLAIMS], seat)  # a Claim of another
        and rel_relation(me["rel"], state["areas"][a][REL]) < 2
    )  # Religion is dormant, no VP
    bonus = 0
    scen = data().scenarios[state["scenario"]]
    for extra in scen["bonus"]:
        if extra["empire"] == me["empire"] and state["areas"][extra["area"]][OWNER] == seat:
            bonus += extra["points"]
    found = {
        "areas": int(areas),
        "claims": claimed,
        "conversions": int(me["vp_conv"]),
        "handicap": int(me["handicap"]) if state["players"] > 1 else 0,
        "bonus": bonus,
    }
    if state["options"].get("colonization"):
        found["colonizations"] = int(me.get("vp_colony", 0))  # 26.0, 25.3: 5 VP each
    return found


def result(state: State) -> Result:
    """Scores and ranks; ties share a rank."""
    scores = [sum(breakdown(state, i).values()) for i in range(len(state["seats"]))]
    rows: list[SeatResult] = []
    for i, score in enumerate(scores):
        rank = 1 + sum(1 for other in scores if other > score)
        rows.append({"seat": i, "score": score, "rank": rank, "breakdown": breakdown(state, i)})
    return {"over": bool(state["over"]), "seats": rows}


def solitaire_level(state: State, score: int) -> str:
    """The performance level of the solitaire game (27.91)."""
    levels: list[Any] = data().scenarios[state["scenario"]].get("solitaire_levels", [])
    for floor, name in levels:
        if score >= floor:
            return str(name)
    return ""


def finish(ctx: Ctx) -> None:
    """The last Round is over: score the game (26.0)."""
    ctx.s["over"] = True
    ctx.s["stack"] = []
    res = result(ctx.s)
    text = ", ".join(f"{ctx.name(r['seat'])} {r['score']} VP" for r in res["seats"])
    if ctx.s["players"] == 1:
        text += f" — {solitaire_level(ctx.s, res['seats'][0]['score'])}"
    ctx.log("EMA-26.0", f"The game ends: {text}.")
