"""Multi-player attacks (FL-MP) and team aid (FL-TEAM-05): interventions in the open,
continue or withdraw, and partners adding troops to the attack pool."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.feudal import handlers
from rules.feudal.combatants import combat as combat_frame
from rules.feudal.end_of_combat import discard_victory, return_pool
from rules.feudal.handlers import option
from rules.feudal.sending import push_send
from rules.feudal.state import Ctx, Frame, partner


def new_fight(frame: Frame, defender: int, fight: str) -> None:
    """Reset the per-fight parts of the combat frame for a new defender."""
    frame.update(defender_reset(frame), **{"def": defender, "fight": fight, "stage": "send_d"})


def defender_reset(frame: Frame) -> dict[str, Any]:
    """Fresh counters for a new fight; the attack pool keeps its survivors (FL-MP-11).

    Instant boosts last one fight only: each intervention is a combat of its own (FL-MP-07, A-29).
    """
    for c in frame["a"]:
        c.update(hits=0, m=None, sup=None, tgt=None, hit_by=None)
    return {
        "d": [],
        "dead": {"a": [], "d": []},
        "round": 0,
        "mover": "a",
        "boost": {"a": {}, "d": {}},
    }


@handlers.combat_stage("intervene")
def _intervene(ctx: Ctx, frame: Frame) -> None:
    """Offer each seat between attacker and target its chance, in order (FL-MP-04, FL-MP-10)."""
    if not frame["queue"]:
        new_fight(frame, frame["target"], "target")
        return
    seat = frame["queue"].pop(0)
    ctx.push({"kind": "intervene", "seat": seat})


def _options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    combat = combat_frame(ctx)
    opts = [option({"do": "pass"}, "Let the attack pass")]
    if not ctx.seat(seat)["area"]:
        return opts
    if partner(ctx, seat) == combat["att"]:
        opts.append(option({"do": "aid"}, "Aid your partner: add troops to the attack pool"))
    else:
        opts.append(option({"do": "intervene"}, "Intervene: fight the attacker in the open"))
    return opts


def _choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    ctx.pop()
    combat = combat_frame(ctx)
    if action["do"] == "intervene":
        ctx.log("FL-MP-06", f"{ctx.name(seat)} intervenes: a combat in the open.")
        new_fight(combat, seat, "intervention")
    elif action["do"] == "aid":
        ctx.log("FL-TEAM-05", f"{ctx.name(seat)} aids the attack.")
        push_send(ctx, seat, "a", "attack")
    else:
        ctx.log("FL-MP-04", f"{ctx.name(seat)} does not intervene.")


def _continue_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    ctx.pop()
    if action["do"] == "continue":
        ctx.log("FL-MP-09", f"{ctx.name(seat)} presses on toward the original target.")
        return
    combat = combat_frame(ctx)
    ctx.log("FL-MP-12", f"{ctx.name(seat)} withdraws.")
    discard_victory(ctx, combat, "FL-MP-12")
    return_pool(ctx, combat, "a")
    ctx.pop()


handlers.decision(
    "intervene", "FL-MP-04", lambda ctx, f, s: "An attack passes you: intervene?", _options, _choose
)
handlers.decision(
    "continue",
    "FL-MP-09",
    lambda ctx, f, s: "Continue the attack or withdraw?",
    lambda ctx, f, s: [
        option({"do": "continue"}, "Continue to the original target"),
        option({"do": "withdraw"}, "Withdraw"),
    ],
    _continue_choose,
)
