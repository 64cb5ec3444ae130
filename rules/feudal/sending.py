"""Sending combatants (FL-COMBAT-SEND): the Standard method or one Lone combatant."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.feudal import dice, handlers
from rules.feudal.combatants import enter
from rules.feudal.handlers import option
from rules.feudal.state import Ctx, Frame, card, combat_frame, send_value


def standard_cost(ctx: Ctx, seat: int, character: dict[str, Any], as_side: str) -> int:
    """Control minus Attack or Defend Send, at least 1 (FL-COMBAT-SEND-02, A-26)."""
    return max(1, int(card(character["card"])["control"]) - send_value(ctx, seat, as_side))


def push_send(ctx: Ctx, seat: int, side: str, as_side: str) -> None:
    """Ask a seat to build its part of a pool (attacker, aiding partner, defender, intervener)."""
    ctx.push({"kind": "send", "seat": seat, "side": side, "as": as_side, "added": 0})


def _options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    me = ctx.seat(seat)
    opts = [option({"do": "done"}, "Stop adding combatants" if frame["added"] else "Send nobody")]
    for ch in me["area"]:
        cost = standard_cost(ctx, seat, ch, frame["as"])
        if cost <= me["ld"]:
            opts.append(
                option(
                    {"do": "add", "uid": ch["uid"]},
                    f"Send {card(ch['card'])['name']} for {cost} Ld (Standard)",
                )
            )
    if not frame["added"]:
        opts += [
            option(
                {"do": "lone", "uid": ch["uid"]},
                f"Try {card(ch['card'])['name']} as a Lone combatant",
            )
            for ch in me["area"]
        ]
    return opts


def _choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    me = ctx.seat(seat)
    if action["do"] == "done":
        ctx.pop()
        return
    character = next(ch for ch in me["area"] if ch["uid"] == action["uid"])
    name = card(character["card"])["name"]
    if action["do"] == "add":
        cost = standard_cost(ctx, seat, character, frame["as"])
        me["ld"] -= cost
        frame["added"] += 1
        _into_pool(ctx, seat, frame["side"], character)
        ctx.log("FL-COMBAT-SEND-02", f"{ctx.name(seat)} sends {name} for {cost} Ld.")
        return
    ctx.pop()  # a Lone attempt forbids the Standard method (FL-COMBAT-SEND-06)
    combat = combat_frame(ctx)
    assert combat is not None
    combat["lone_tried"] = True
    roll = dice.d6(ctx.s)
    cost = max(0, int(card(character["card"])["control"]) - roll)
    ctx.log(
        "FL-COMBAT-SEND-04",
        f"{ctx.name(seat)} tries {name} as a Lone combatant: rolls {roll}, cost {cost} Ld.",
    )
    ctx.push(
        {
            "kind": "lone_pay",
            "seat": seat,
            "side": frame["side"],
            "uid": character["uid"],
            "cost": cost,
        }
    )


def _into_pool(ctx: Ctx, seat: int, side: str, character: dict[str, Any]) -> None:
    """Move a character from the active area into the combat pool (FL-COMBAT-SEND-07)."""
    combat = combat_frame(ctx)
    assert combat is not None
    ctx.seat(seat)["area"].remove(character)
    combat[side].append(enter(character, seat))
    combat["spent"] = True


def _lone_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    opts = [option({"do": "decline"}, "Do not send (no Ld is lost; no other method this combat)")]
    if ctx.seat(seat)["ld"] >= frame["cost"]:
        opts.insert(0, option({"do": "pay"}, f"Pay {frame['cost']} Ld and send the Lone combatant"))
    return opts


def _lone_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    ctx.pop()
    me = ctx.seat(seat)
    character = next(ch for ch in me["area"] if ch["uid"] == frame["uid"])
    if action["do"] == "pay":
        me["ld"] -= frame["cost"]
        _into_pool(ctx, seat, frame["side"], character)
        ctx.log(
            "FL-COMBAT-SEND-04",
            f"{ctx.name(seat)} pays {frame['cost']} Ld: "
            f"{card(character['card'])['name']} goes in alone.",
        )
    else:
        ctx.log("FL-COMBAT-SEND-05", f"{ctx.name(seat)} cannot or will not pay: nobody is sent.")


handlers.decision(
    "send",
    "FL-COMBAT-SEND-01",
    lambda ctx, f, s: f"Build your {'attack' if f['as'] == 'attack' else 'defense'} pool",
    _options,
    _choose,
)
handlers.decision(
    "lone_pay",
    "FL-COMBAT-SEND-05",
    lambda ctx, f, s: f"The Lone combatant costs {f['cost']} Ld: pay it?",
    _lone_options,
    _lone_choose,
)
