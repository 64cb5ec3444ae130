"""Pre-combat (FL-COMBAT-PRE, FL-COMBAT-VC): announce, pools, Victory cards, target, reaction.

One `combat` frame carries a whole attack: its `stage` names the next step, and each stage
either does its work or pushes a decision and moves on, so the frame resumes where it stopped.
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.feudal import handlers, instants
from rules.feudal.combatants import combat as combat_frame
from rules.feudal.flow import turn_frame
from rules.feudal.handlers import option
from rules.feudal.sending import push_send
from rules.feudal.state import Ctx, Frame, card, partner


def attack_options(ctx: Ctx, seat: int) -> list[Option]:
    """Whom the seat may attack: any opponent but a partner (FL-COMBAT-PRE-01, FL-TEAM-03)."""
    if not ctx.seat(seat)["area"]:
        return []
    n = int(ctx.s["players"])
    return [
        option({"do": "attack", "target": t}, f"Attack {ctx.name(t)}")
        for t in range(n)
        if t != seat and t != partner(ctx, seat)
    ]


def between(ctx: Ctx, att: int, target: int) -> list[int]:
    """Seats strictly between attacker and target, clockwise from the attacker's left (FL-MP-04)."""
    n = int(ctx.s["players"])
    return [(att + k) % n for k in range(1, (target - att) % n)]


def start_attack(ctx: Ctx, seat: int, target: int) -> None:
    """Announce the attack and open the combat frame (FL-COMBAT-PRE-01)."""
    ctx.log("FL-COMBAT-PRE-01", f"{ctx.name(seat)} attacks {ctx.name(target)}.")
    ctx.push(
        {
            "kind": "combat",
            "seat": seat,
            "att": seat,
            "target": target,
            "def": target,
            "loc": 0,
            "site": "loc",
            "fight": "target",
            "stage": "send_a",
            "a": [],
            "d": [],
            "vc": {"a": None, "d": None},
            "boost": {"a": {}, "d": {}},
            "dead": {"a": [], "d": []},
            "queue": between(ctx, seat, target),
            "round": 0,
            "mover": "a",
            "spent": False,
            "lone_tried": False,
            "sacked": False,
        }
    )


@handlers.step("combat")
def _combat(ctx: Ctx, frame: Frame) -> None:
    """Run the stage the combat frame is at."""
    handlers.COMBAT_STAGES[frame["stage"]](ctx, frame)


handlers.combat_then("send_a", "check_a", lambda ctx, f: push_send(ctx, f["att"], "a", "attack"))


@handlers.combat_stage("check_a")
def _check_a(ctx: Ctx, frame: Frame) -> None:
    """An empty attack pool aborts the attack (A-24); whether it used the combat is an option.

    The recommended reading ("spent") counts it only if Ld was actually paid; a declined or
    unaffordable Lone attempt costs nothing (FL-COMBAT-SEND-05), so the seat may attack again.
    """
    if frame["a"]:
        frame["stage"] = "vc_a"
        return
    rule = ctx.opt("aborted_attack")
    counts = (
        rule == "always"
        or (rule == "spent" and frame["spent"])
        or (rule == "attempted" and (frame["lone_tried"] or frame["spent"]))
    )
    turn = turn_frame(ctx)
    # Nothing in the rules stops a seat re-announcing a free attack (the default); the "once"
    # variant of repeat_abort makes a second called-off attack in a turn use the combat.
    turn["aborted"] = turn.get("aborted", 0) + 1
    turn["combat"] = counts or (ctx.opt("repeat_abort") == "once" and turn["aborted"] >= 2)
    ctx.log(
        "FL-COMBAT-SEND-06", f"{ctx.name(frame['att'])} sends nobody: the attack is called off."
    )
    ctx.pop()


handlers.combat_then("vc_a", "target", lambda ctx, f: push_vc(ctx, f["att"], "a"))
handlers.combat_then(
    "target", "react", lambda ctx, f: ctx.push({"kind": "target_loc", "seat": f["att"]})
)
# The defender may react first; anyone may then answer (FL-COMBAT-PRE-06, FL-INST-04).
handlers.combat_then(
    "react", "after_react", lambda ctx, f: instants.open_window(ctx, "react", f["target"])
)


@handlers.combat_stage("after_react")
def _after_react(ctx: Ctx, frame: Frame) -> None:
    if frame["site"] == "cancelled":
        ctx.log("FL-COMBAT-PRE-08", "The combat is cancelled: no DF or CC is fought.")
        frame["stage"] = "end"
    else:
        frame["stage"] = "intervene" if frame["queue"] else "send_d"


def push_vc(ctx: Ctx, seat: int, side: str) -> None:
    """Ask a side for its Victory card (or bluff)."""
    ctx.push({"kind": "vc", "seat": seat, "side": side})


def _vc_d(ctx: Ctx, frame: Frame) -> None:
    """Interveners play no Victory card (FL-COMBAT-VC-07)."""
    if frame["fight"] == "target":
        push_vc(ctx, frame["def"], "d")


handlers.combat_then("send_d", "vc_d", lambda ctx, f: push_send(ctx, f["def"], "d", "defend"))
handlers.combat_then("vc_d", "before_df", _vc_d)


@handlers.combat_stage("before_df")
def _before_df(ctx: Ctx, frame: Frame) -> None:
    """The pools are set (FL-COMBAT-PRE-11); no defenders means the location falls (PRE-12).

    An intervener who sends nobody has not intervened: the attack goes on as if he had passed,
    with no Continue/Withdraw choice (FL-MP-04, FL-MP-06).
    """
    if not frame["d"] and frame["fight"] == "intervention":
        ctx.log(
            "FL-MP-04", f"{ctx.name(frame['def'])} sends nobody: the intervention counts as a pass."
        )
        frame.update(fight="target", stage="intervene", **{"def": frame["target"]})
        return
    if not frame["d"]:
        frame["stage"] = "close"
        return
    frame["stage"] = "df_aim_a"
    instants.open_window(ctx, "before_df", frame["att"])


def _vc_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    hand = sorted(set(ctx.seat(seat)["hand"]))
    opts = [option({"do": "none"}, "Play no Victory card")]
    opts += [
        option({"do": "up", "card": c}, f"Play {card(c)['name']} face-up")
        for c in hand
        if card(c)["type"] == "victory"
    ]
    opts += [option({"do": "down", "card": c}, f"Play {card(c)['name']} face-down") for c in hand]
    return opts


def _vc_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    """One Victory card or bluff, face-up or face-down, at no cost (FL-COMBAT-VC-01/02, A-23)."""
    ctx.pop()
    if action["do"] == "none":
        return
    combat = combat_frame(ctx)
    ctx.seat(seat)["hand"].remove(action["card"])
    up = action["do"] == "up"
    combat["vc"][frame["side"]] = {"card": action["card"], "up": up, "seat": seat}
    shown = (
        f"{card(action['card'])['name']} face-up" if up else "a card face-down as a Victory card"
    )
    ctx.log(
        "FL-COMBAT-VC-01",
        f"{ctx.name(seat)} plays {shown}.",
        {seat: f"You play {card(action['card'])['name']} {'face-up' if up else 'face-down'}."},
    )


def _loc_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    combat = combat_frame(ctx)
    target = ctx.seat(combat["target"])
    sites = card(target["locations"])["sites"]
    return [
        option({"loc": i}, f"{site['name']}{'' if target['locs'][i]['token'] else ' (sacked)'}")
        for i, site in enumerate(sites)
    ]


def _loc_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    """Any of the three locations, sacked ones too (FL-COMBAT-PRE-04)."""
    ctx.pop()
    combat = combat_frame(ctx)
    combat["loc"] = action["loc"]
    name = card(ctx.seat(combat["target"])["locations"])["sites"][action["loc"]]["name"]
    ctx.log(
        "FL-COMBAT-PRE-04", f"The target of the attack is {ctx.name(combat['target'])}'s {name}."
    )


handlers.decision(
    "vc",
    "FL-COMBAT-VC-01",
    lambda ctx, f, s: "Play a Victory card (or bluff)?",
    _vc_options,
    _vc_choose,
)
handlers.decision(
    "target_loc",
    "FL-COMBAT-PRE-04",
    lambda ctx, f, s: "Which location do you attack?",
    _loc_options,
    _loc_choose,
)
