"""Close Combat (FL-COMBAT-MU, FL-COMBAT-CC): match-ups, supporters, hits, armor and blocks.

Round 2 re-matching follows A-27: match-ups whose two members survived stay; everyone else,
round-1 supporters included, is unassigned; the sides alternate matching (starting with the
side whose opponents died), and the leftovers support.
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.feudal import handlers, instants
from rules.feudal.combatants import (
    answer_into,
    block_roll,
    combat,
    effects,
    find,
    named,
    other,
    plural,
    roll_for,
    side_seat,
    wound,
)
from rules.feudal.handlers import option
from rules.feudal.state import Ctx, Frame, card

ROUNDS = 2


def unassigned(frame: Frame, side: str) -> list[dict[str, Any]]:
    """Combatants of a side neither matched nor supporting."""
    return [c for c in frame[side] if c["m"] is None and c["sup"] is None]


@handlers.combat_stage("cc_round")
def _round(ctx: Ctx, frame: Frame) -> None:
    """Start a CC round: clear or keep match-ups and choose who matches first (MU-01, MU-06..08)."""
    frame["round"] += 1
    lost = {"a": False, "d": False}
    for side in ("a", "d"):
        for c in frame[side]:
            c["sup"] = None
            if c["m"] is not None and find(frame, c["m"]) is None:
                c["m"], lost[side] = None, True
    frame["mover"] = "d" if lost["d"] and not lost["a"] else "a"
    frame["stage"] = "cc_match"
    ctx.log("FL-COMBAT-CC-01", f"Close Combat, round {frame['round']}.")


def pair(ctx: Ctx, frame: Frame, mine: dict[str, Any], theirs: dict[str, Any]) -> None:
    """Put two combatants head-to-head; the other side matches next (MU-01..03)."""
    mine["m"], theirs["m"] = theirs["uid"], mine["uid"]
    frame["mover"] = other(frame["mover"])
    ctx.log(
        "FL-COMBAT-MU-01",
        f"{card(mine['card'])['name']} is matched against {card(theirs['card'])['name']}.",
    )


@handlers.combat_stage("cc_match")
def _match(ctx: Ctx, frame: Frame) -> None:
    side = frame["mover"]
    mine, theirs = unassigned(frame, side), unassigned(frame, other(side))
    if not mine or not theirs:
        frame["stage"] = "cc_support"
    elif len(mine) == 1 and len(theirs) == 1:
        pair(ctx, frame, mine[0], theirs[0])
    else:
        ctx.push({"kind": "match", "seat": side_seat(frame, side), "side": side})


@handlers.combat_stage("cc_support")
def _support(ctx: Ctx, frame: Frame) -> None:
    """Leftovers of the one side that has them support existing match-ups (MU-04, MU-05)."""
    for side in ("a", "d"):
        left = unassigned(frame, side)
        if not left:
            continue
        matched = [c for c in frame[side] if c["m"] is not None]
        if len(matched) == 1:
            for c in left:
                c["sup"] = matched[0]["uid"]
            continue
        # The owner places his own supporter, an aiding partner too (FL-TEAM-04, A-30).
        ctx.push({"kind": "support", "seat": left[0]["owner"], "uid": left[0]["uid"]})
        return
    frame["stage"] = "cc_hits_a"


def _victim(frame: Frame, c: dict[str, Any]) -> dict[str, Any]:
    """Whom a combatant's CC hits land on: its opponent, or its friend's opponent (CC-03/04)."""
    if c["m"] is not None:
        found = find(frame, c["m"])
    else:
        friend = find(frame, c["sup"])
        assert friend is not None
        found = find(frame, friend[1]["m"])
    assert found is not None
    return found[1]


def _hits(ctx: Ctx, frame: Frame, side: str) -> None:
    """2d6 per combatant, matched or supporting; a supporter hits at most once (CC-02..05)."""
    for c in frame[side]:
        hits, rolled = roll_for(ctx, frame, side, c, "cc_hit")
        capped = c["sup"] is not None and hits > 1
        if c["sup"] is not None:
            hits = min(1, hits)
        target = _victim(frame, c)
        target["hits"] += hits
        if hits:
            target["hit_by"] = c["owner"]
        how = "supports against" if c["sup"] is not None else "strikes"
        ctx.log(
            "FL-COMBAT-CC-02",
            f"{card(c['card'])['name']} {how} {card(target['card'])['name']}: "
            f"{rolled} → {plural(hits, 'hit')}"
            f"{' (a supporter hits at most once)' if capped else ''}.",
        )


def _blocks(ctx: Ctx, frame: Frame, side: str) -> None:
    """Armor blocks first, then normal blocks, for combatants hit this round (CC-07..10)."""
    for c in frame[side]:
        for e in effects(c):
            if e["kind"] == "armor" and c["hits"]:
                saved, rolled = block_roll(ctx, c, e["blocks"])
                ctx.log(
                    "FL-COMBAT-CC-07",
                    f"{card(c['card'])['name']}'s armor {rolled} → {plural(saved, 'block')}.",
                )
        if c["hits"]:
            blocks, rolled = roll_for(ctx, frame, side, c, "cc_block")
            saved = min(c["hits"], blocks)
            c["hits"] -= saved
            ctx.log(
                "FL-COMBAT-CC-08",
                f"{card(c['card'])['name']} blocks: {rolled} → "
                f"{plural(saved, 'block')} of {plural(saved + c['hits'], 'hit')}.",
            )


def _strike(side: str, stop: str) -> handlers.Stage:
    """A side's hits, then an Instant window; defenders strike back even when carrying lethal
    hits (FL-COMBAT-CC-11)."""

    def run(ctx: Ctx, frame: Frame) -> None:
        _hits(ctx, frame, side)
        instants.open_window(ctx, stop, frame["att"])

    return run


handlers.combat_then("cc_hits_a", "cc_blocks_d", _strike("a", "cc_att_hits"))
handlers.combat_then("cc_blocks_d", "cc_hits_d", lambda ctx, frame: _blocks(ctx, frame, "d"))
handlers.combat_then("cc_hits_d", "cc_blocks_a", _strike("d", "cc_def_hits"))
handlers.combat_then("cc_blocks_a", "cc_wounds", lambda ctx, frame: _blocks(ctx, frame, "a"))


@handlers.combat_stage("cc_wounds")
def _wounds(ctx: Ctx, frame: Frame) -> None:
    """Unblocked hits become wounds; the dead leave; two rounds at most (CC-13, CC-14, CC-16)."""
    wound(ctx, frame, "FL-COMBAT-CC-14")
    done = not frame["a"] or not frame["d"] or frame["round"] >= ROUNDS
    frame["stage"] = "close" if done else "cc_round"


def _match_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    fight, side = combat(ctx), frame["side"]
    return [
        option(
            {"mine": m["uid"], "theirs": t["uid"]},
            f"Match {card(m['card'])['name']} against {card(t['card'])['name']}",
        )
        for m in unassigned(fight, side)
        for t in unassigned(fight, other(side))
    ]


def _match_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    ctx.pop()
    fight = combat(ctx)
    mine, theirs = find(fight, action["mine"]), find(fight, action["theirs"])
    assert mine is not None and theirs is not None
    pair(ctx, fight, mine[1], theirs[1])


def _support_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    fight, side, _ = named(ctx, frame)
    return [
        option({"uid": c["uid"]}, f"Support {card(c['card'])['name']}")
        for c in fight[side]
        if c["m"] is not None
    ]


handlers.decision(
    "match",
    "FL-COMBAT-MU-02",
    lambda ctx, f, s: "Match up one of your combatants",
    _match_options,
    _match_choose,
)
handlers.decision(
    "support",
    "FL-COMBAT-MU-04",
    lambda ctx, f, s: "Which match-up does this combatant support?",
    _support_options,
    answer_into("sup"),
)
