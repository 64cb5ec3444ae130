"""End of combat (FL-COMBAT-END): sacking, Victory cards, Control/VP rolls, survivors return;
after a fight in the open, the attack goes on or ends (FL-MP-09/12)."""

from __future__ import annotations

from typing import Any

from rules.feudal import dice, handlers, instants
from rules.feudal.combatants import leave, other, side_seat
from rules.feudal.state import Ctx, Frame, card

SACK_VP = 3
RESACK_VP = 1


# A last Instant window once the fighting is done, before End Combat (FL-INST-04, A-21).
handlers.combat_then(
    "close", "end", lambda ctx, f: instants.open_window(ctx, "before_end", f["att"])
)


@handlers.combat_stage("end")
def _end(ctx: Ctx, frame: Frame) -> None:
    """Steps 1-4 of End Combat; an intervention hands over to the multi-player rules."""
    if frame["site"] == "cancelled":
        discard_victory(ctx, frame, "FL-COMBAT-PRE-08")  # no refunds, no effect
    elif frame["fight"] == "target":
        _sack(ctx, frame)
        _victory(ctx, frame)
        control_rolls(ctx, frame)
    else:
        control_rolls(ctx, frame)
        return_pool(ctx, frame, "d")
        _after_intervention(ctx, frame)
        return
    return_pool(ctx, frame, "d")
    return_pool(ctx, frame, "a")
    ctx.pop()
    ctx.log("FL-COMBAT-END-09", "The combat is over: back to the attacker's Action phase.")


def _after_intervention(ctx: Ctx, frame: Frame) -> None:
    """With attackers left, continue or withdraw; without, the attack is over (FL-MP-09/12)."""
    if ctx.opt("wounds") == "clear":
        for c in frame["a"]:
            c["wounds"] = 0
    if frame["a"]:
        frame["stage"] = "intervene"
        ctx.push({"kind": "continue", "seat": frame["att"]})
        return
    ctx.log("FL-MP-12", "No attackers are left: the attack is over.")
    discard_victory(ctx, frame, "FL-MP-12")
    ctx.pop()


def _sack(ctx: Ctx, frame: Frame) -> None:
    """Attackers left and no defenders at a location: it is sacked (END-01..04, PRE-12)."""
    if frame["site"] != "loc" or not frame["a"] or frame["d"]:
        return
    target = ctx.seat(frame["target"])
    loc = target["locs"][frame["loc"]]
    name = card(target["locations"])["sites"][frame["loc"]]["name"]
    frame["sacked"] = True
    if loc["token"]:
        loc["token"] = False
        if loc["supply"]:
            target["discard"].append(loc["supply"])  # FL-SUPPLY-07: its VP goes with it
            loc["supply"] = None
        gain = SACK_VP
    else:
        gain = RESACK_VP
    ctx.seat(frame["att"])["vp"] += gain
    ctx.log(
        "FL-COMBAT-END-02" if gain == SACK_VP else "FL-COMBAT-END-03",
        f"{name} is sacked: {ctx.name(frame['att'])} gains {gain} VP.",
    )


def _met(frame: Frame, side: str, spec: dict[str, Any]) -> bool:
    """Whether a Victory card's condition was met in this combat (FL-COMBAT-VC-04)."""
    when = spec["when"]
    if when == "sacked":
        return side == "a" and bool(frame["sacked"])
    if when == "kills":
        return len(frame["dead"][other(side)]) >= int(spec["min"])
    if when == "repelled":
        return side == "d" and not frame["sacked"]
    return not frame["dead"][side]


def _victory(ctx: Ctx, frame: Frame) -> None:
    """Reveal every face-down card, score real Victory cards, discard all (VC-04..06)."""
    for side in ("a", "d"):
        vc = frame["vc"][side]
        if vc is None:
            continue
        spec, seat = card(vc["card"]), vc["seat"]
        if spec["type"] == "victory" and _met(frame, side, spec):
            ctx.seat(seat)["vp"] += spec["vp"]
            ctx.seat(seat)["later_draw"] += spec["later_draw"]
            ctx.log(
                "FL-COMBAT-VC-04", f"{ctx.name(seat)} reveals {spec['name']}: +{spec['vp']} VP."
            )
        else:
            ctx.log(
                "FL-COMBAT-VC-04", f"{ctx.name(seat)} reveals {spec['name']}: no Victory result."
            )
        ctx.seat(seat)["discard"].append(vc["card"])
        frame["vc"][side] = None


def discard_victory(ctx: Ctx, frame: Frame, rule: str) -> None:
    """Victory cards and bluffs go to the discard pile without effect (FL-MP-12, A-36)."""
    for side in ("a", "d"):
        vc = frame["vc"][side]
        if vc is not None:
            ctx.seat(vc["seat"])["discard"].append(vc["card"])
            ctx.log(
                rule,
                f"{ctx.name(vc['seat'])}'s {card(vc['card'])['name']} is discarded without effect.",
            )
            frame["vc"][side] = None


def control_rolls(ctx: Ctx, frame: Frame) -> None:
    """A d6 per enemy killed; under its Control gains 1 VP (FL-COMBAT-END-06, A-12, A-47).

    The roll is made, and the VP credited, by the owner of the combatant that killed it, so an
    aiding partner scores his own kills (FL-TEAM-04, A-30); otherwise by the side's seat.
    """
    strict_one = ctx.opt("natural_one_control_vp")
    for side in ("a", "d"):
        for dead in frame["dead"][other(side)]:
            roller = side_seat(frame, side) if dead["by"] is None else int(dead["by"])
            roll, control = dice.d6(ctx.s), card(dead["card"])["control"]
            won = roll < control and not (strict_one and roll == 1)
            if won:
                ctx.seat(roller)["vp"] += 1
            ctx.log(
                "FL-COMBAT-END-06",
                f"{ctx.name(roller)} rolls {roll} for {card(dead['card'])['name']} "
                f"(Control {control}): {'+1 VP' if won else 'no VP'}.",
            )


def return_pool(ctx: Ctx, frame: Frame, side: str) -> None:
    """Survivors go back to their owners' active areas; wounds are cleared (END-07, A-17)."""
    for c in frame[side]:
        ctx.seat(c["owner"])["area"].append(leave(c))
    frame[side] = []
