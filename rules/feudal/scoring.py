"""Victory points and winning (FL-WIN, FL-TEAM-02): tokens plus Supply cards against the target."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Result, SeatResult, State
from rules.feudal.state import Ctx, card

BASE_TARGET = 10
TEAM_TARGET = 16


def supplies(state: State, seat: int) -> int:
    """Supply cards in play, 1 VP each (FL-SUPPLY-06)."""
    return sum(1 for loc in state["seats"][seat]["locs"] if loc["supply"])


def total(state: State, seat: int) -> int:
    """VP tokens plus Supply cards in play (FL-WIN-02, A-15 option)."""
    extra = supplies(state, seat) if state["options"]["supply_vp"] else 0
    return int(state["seats"][seat]["vp"]) + extra


def artifact_target(state: State, seat: int) -> int:
    """How much the seat's Artifacts raise the VP target (FL-WIN-03)."""
    return sum(
        int(card(loc["artifact"])["vp_target"])
        for loc in state["seats"][seat]["locs"]
        if loc["artifact"]
    )


def sides(state: State) -> list[list[int]]:
    """Who wins together: single seats, or the two partners of each team (FL-TEAM-01)."""
    n = int(state["players"])
    if state["mode"] == "teams":
        return [[0, 2], [1, 3]]
    return [[i] for i in range(n)]


def side_score(state: State, members: list[int]) -> tuple[int, int]:
    """A side's VP and its target: 10 (or 16 for a team) plus Artifacts (FL-WIN-03, A-30)."""
    base = TEAM_TARGET if state["mode"] == "teams" else BASE_TARGET
    return (
        sum(total(state, s) for s in members),
        base + sum(artifact_target(state, s) for s in members),
    )


def check_end_of_turn(ctx: Ctx) -> bool:
    """The win check for everyone at the end of every turn, ties go on (FL-WIN-01..06, A-16)."""
    scored = [(side_score(ctx.s, m), m) for m in sides(ctx.s)]
    qualified = [(vp, m) for (vp, target), m in scored if vp >= target]
    if qualified:
        best = max(vp for vp, _ in qualified)
        leaders = [m for vp, m in qualified if vp == best]
        if len(leaders) == 1:
            return _finish(ctx, leaders[0], "FL-WIN-04" if len(qualified) == 1 else "FL-WIN-05")
        ctx.log("FL-WIN-06", "Several players are tied at the top: the game goes on.")
    if ctx.s["turns"] >= ctx.opt("turn_limit"):
        # by the book nobody below the target has won, so the cap draws the game; the
        # "leader" variant hands it to the single VP leader instead.
        best = max(vp for (vp, _t), _m in scored)
        leaders = [m for (vp, _t), m in scored if vp == best]
        ctx.s["ended_by"] = "turn_limit"
        sole = leaders[0] if len(leaders) == 1 else None
        return _finish(ctx, sole if ctx.opt("turn_limit_result") == "leader" else None, "FL-WIN-06")
    return False


def _finish(ctx: Ctx, winners: list[int] | None, rule: str) -> bool:
    ctx.s["over"] = True
    ctx.s["winner"] = winners
    ctx.s["stack"] = []
    if winners is None:
        ctx.log(rule, "The turn limit is reached and nobody has won: the game is drawn.")
    else:
        ctx.log(
            rule,
            f"{' and '.join(ctx.name(w) for w in winners)} {'win' if len(winners) > 1 else 'wins'} the game.",
        )
    return True


def result(state: State) -> Result:
    """Scores, ranks (the winner first, then by VP) and the breakdown of each seat."""
    rows: list[SeatResult] = []
    winners = state["winner"] or []
    for seat in range(int(state["players"])):
        if state["mode"] == "solitaire":
            rows.append(_solo_row(state))
            continue
        breakdown = {"tokens": int(state["seats"][seat]["vp"])}
        if state["options"]["supply_vp"]:
            breakdown["supplies"] = supplies(state, seat)
        rows.append(
            {"seat": seat, "score": sum(breakdown.values()), "rank": 0, "breakdown": breakdown}
        )
    key = {r["seat"]: _rank_key(state, r, winners) for r in rows}
    for r in rows:
        r["rank"] = 1 + sum(1 for o in rows if key[o["seat"]] > key[r["seat"]])
    return {"over": bool(state["over"]), "seats": rows}


def _rank_key(state: State, row: SeatResult, winners: list[int]) -> tuple[int, int]:
    team = (
        next(m for m in sides(state) if row["seat"] in m) if state["mode"] != "solitaire" else [0]
    )
    score = side_score(state, team)[0] if state["mode"] != "solitaire" else row["score"]
    return (1 if row["seat"] in winners else 0, score)


def _solo_row(state: State) -> SeatResult:
    solo: dict[str, Any] = state["solo"]
    breakdown = {"defenders_killed": int(solo["killed"])}
    return {"seat": 0, "score": breakdown["defenders_killed"], "rank": 1, "breakdown": breakdown}
