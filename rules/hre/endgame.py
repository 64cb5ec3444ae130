"""End of the game (HRE-BASE-END): the five triggers, the passes that follow, and the finish."""

from __future__ import annotations

from rules.hre import modules, passing, scoring
from rules.hre.state import Ctx, board_number


def push_pass(ctx: Ctx, seat: int) -> None:
    """A Pass chosen on a turn: a normal one, or the final one once the end is triggered."""
    passing.push(ctx, seat, "final" if ctx.s["end_triggered"] else "normal")


def triggers(ctx: Ctx) -> list[str]:
    """Which end-game conditions hold now, with their rule ids (END-02..06)."""
    s = ctx.s
    found = []
    if s["cities"] == 0:
        found.append("HRE-BASE-END-02")
    if s["churches"] >= board_number(s, "church_end"):
        found.append("HRE-BASE-END-03")
    last = len(ctx.d.board["culture_track"]) - 1
    seats = s["seats"]
    if max([seat["culture"] for seat in seats]) >= last:
        found.append("HRE-BASE-END-04")
    # Four Technologies at level 3 need a Common one there: the Military ones are one per unit
    # type, so a seat without such a Common one is not counted in full.
    for i, seat in enumerate(seats):
        common = [t for t in seat["techs"] if t["level"] >= 3]
        if len(common) + len(seat["mil"]) >= 4 and scoring.level_three_count(ctx, i) >= 4:
            found.append("HRE-BASE-END-05")
            break
    if s["deck_exhausted"]:
        found.append("HRE-BASE-END-06")
    return found + modules.triggers(ctx)


def check_triggers(ctx: Ctx, seat: int) -> None:
    """At the end of a turn: on a trigger everyone Passes at once, from this seat on (AMB-30)."""
    if ctx.s["end_triggered"]:
        return
    found = triggers(ctx)
    if not found:
        return
    ctx.s["end_triggered"] = True
    ctx.log(
        found[0],
        "The end of the game is triggered (" + ", ".join(found) + "): every player passes at once.",
    )
    n = len(ctx.s["seats"])
    for k in reversed(range(n)):
        passing.push(ctx, (seat + k) % n, "immediate")


def category_words(key: str) -> str:
    """A scoring category as the log words it: "vp_track" reads "VP track"."""
    return " ".join("VP" if w == "vp" else w for w in key.split("_"))


def finish(ctx: Ctx) -> None:
    """Every player is out: final scoring (HRE-BASE-END-10, SCORE).

    A module in play may first run frames of its own (then it calls this again).
    """
    if modules.before_finish(ctx):
        return
    ctx.s["over"] = True
    ctx.s["active"] = None
    for row in scoring.result(ctx.s)["seats"]:
        parts = ", ".join(f"{category_words(k)} {v}" for k, v in row["breakdown"].items() if v)
        ctx.log(
            "HRE-BASE-SCORE-01",
            f"{ctx.name(row['seat'])} scores {row['score']} (rank {row['rank']}): {parts}.",
        )
