"""Draft phase (FL-DRAFT): one attempt, 1 Ld plus sway, a d6 against Control, the Named rule."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.feudal import dice, handlers, markers
from rules.feudal.handlers import option
from rules.feudal.state import Ctx, Frame, card, in_play_named, new_character

ATTEMPT_COST = 1


def draftable(ctx: Ctx, seat: int) -> list[str]:
    """Characters in hand that may be drafted: no Named one already in play (FL-GEN-05/06)."""
    named = in_play_named(ctx)
    hand = ctx.seat(seat)["hand"]
    return sorted({c for c in hand if card(c)["type"] == "character" and c not in named})


def can_draft(ctx: Ctx, seat: int) -> bool:
    """Whether the Draft phase has anything to offer (FL-DRAFT-01/02).

    Ld is not required: the seat may still raise it by the exchange or a +1 marker, which the
    prompt offers as free actions (FL-GEN-12, FL-MARK-02).
    """
    return bool(draftable(ctx, seat))


def _options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    me = ctx.seat(seat)
    opts = [option({"do": "skip"}, "Do not draft this turn")]
    if me["ld"] < ATTEMPT_COST:
        return opts
    most = min(int(card(me["leader"])["max_draft"]), me["ld"] - ATTEMPT_COST)
    return opts + [
        option(
            {"do": "draft", "card": cid, "sway": sway},
            f"Draft {card(cid)['name']} (Control {card(cid)['control']}), sway {sway}",
        )
        for cid in draftable(ctx, seat)
        for sway in range(most + 1)
    ]


def _choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    ctx.pop()
    if action["do"] == "skip":
        return
    me, cid, sway = ctx.seat(seat), action["card"], action["sway"]
    me["ld"] -= ATTEMPT_COST + sway
    me["hand"].remove(cid)
    roll = dice.d6(ctx.s)
    ctx.log(
        "FL-DRAFT-04",
        f"{ctx.name(seat)} tries to draft {card(cid)['name']} "
        f"(Control {card(cid)['control']}) paying {ATTEMPT_COST + sway} Ld: rolls {roll}, sway {sway}.",
    )
    result = {"kind": "draft_marker", "seat": seat, "card": cid, "roll": roll, "sway": sway}
    if not _succeeds(roll, sway, 0, card(cid)["control"]) and _marker_helps(ctx, seat, result):
        ctx.push(result)
    else:
        finish(ctx, result, 0)


def _succeeds(roll: int, sway: int, after: int, control: int) -> bool:
    """A natural 1 fails unless something is added after the roll (FL-GEN-08/09, A-12)."""
    if roll == 1 and after == 0:
        return False
    return roll + sway + after >= control


def _marker_helps(ctx: Ctx, seat: int, frame: Frame) -> bool:
    """Offer the +1 marker only when it would turn the failure into a success (FL-DRAFT-07)."""
    control = card(frame["card"])["control"]
    return markers.may_spend_marker(ctx, seat) and _succeeds(
        frame["roll"], frame["sway"], 1, control
    )


def finish(ctx: Ctx, frame: Frame, after: int) -> None:
    """Place the character in the active area on success, else discard it (FL-DRAFT-05)."""
    seat, cid = frame["seat"], frame["card"]
    me = ctx.seat(seat)
    if _succeeds(frame["roll"], frame["sway"], after, card(cid)["control"]):
        me["area"].append(new_character(ctx, cid))
        ctx.log("FL-DRAFT-05", f"{card(cid)['name']} joins {ctx.name(seat)}'s active area.")
    else:
        me["discard"].append(cid)
        ctx.log("FL-DRAFT-05", f"The draft fails: {card(cid)['name']} is discarded.")


def _marker_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    return [
        option({"do": "marker_roll"}, "Spend a +1 marker on the Draft roll"),
        option({"do": "accept"}, "Accept the failed draft"),
    ]


def _marker_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    ctx.pop()
    if action["do"] == "marker_roll":
        markers.spend_marker(ctx, seat)
        ctx.log("FL-MARK-06", f"{ctx.name(seat)} spends a +1 marker on the Draft roll.")
        finish(ctx, frame, 1)
    else:
        finish(ctx, frame, 0)


handlers.decision(
    "draft",
    "FL-DRAFT-02",
    lambda ctx, f, s: "Draft phase: attempt to draft a character?",
    _options,
    _choose,
)
handlers.decision(
    "draft_marker",
    "FL-DRAFT-07",
    lambda ctx, f, s: f"The Draft roll of {f['roll']} fails: spend a +1 marker?",
    _marker_options,
    _marker_choose,
    free=False,
)
