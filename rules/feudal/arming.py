"""Arming characters (FL-ARM): slots, class, no duplicates, no Light with Heavy, no removal."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.feudal import handlers
from rules.feudal.components import GROUPS
from rules.feudal.handlers import option
from rules.feudal.state import Ctx, Frame, card

SLOT = {"skill": ("skills", "skills"), "weapon": ("weapons", "weapons")}


def affordable(ctx: Ctx, seat: int, cid: str) -> bool:
    """Whether the seat can pay a card's Sup and Ld costs (FL-GEN-11, A-40)."""
    me, spec = ctx.seat(seat), card(cid)
    return bool(me["sup"] >= spec.get("cost_sup", 0) and me["ld"] >= spec.get("cost_ld", 0))


def pay(ctx: Ctx, seat: int, cid: str) -> None:
    """Pay a card's printed costs."""
    me, spec = ctx.seat(seat), card(cid)
    me["sup"] -= spec.get("cost_sup", 0)
    me["ld"] -= spec.get("cost_ld", 0)


def fits(character: dict[str, Any], cid: str, starter: bool) -> bool:
    """Whether the card may be attached to this character (FL-ARM-03..07)."""
    spec, body = card(cid), card(character["card"])
    stat, held = SLOT[spec["type"]]
    if len(character[held]) >= body[stat] or cid in character[held]:
        return False
    family = spec["type"] == "weapon" and spec["family"]
    if family and any(card(w)["family"] == family for w in character["weapons"]):
        return False
    limit = spec["class"]
    if limit is None or starter:
        return True  # FL-GEN-02: starter decks ignore class designations
    if limit.startswith("XX-"):
        return bool(body["class"] in GROUPS[limit[3:]])
    return bool(body["class"] == limit)


def targets(ctx: Ctx, seat: int, cid: str) -> list[dict[str, Any]]:
    """Characters in the seat's own active area that may take the card (FL-ARM-01)."""
    return [ch for ch in ctx.seat(seat)["area"] if fits(ch, cid, ctx.s["starter"])]


def options(ctx: Ctx, seat: int) -> list[Option]:
    """Arm options of the Action phase: one per card that some character could take now."""
    opts = []
    for cid in sorted(set(ctx.seat(seat)["hand"])):
        if card(cid)["type"] in SLOT and affordable(ctx, seat, cid) and targets(ctx, seat, cid):
            opts.append(
                option({"do": "arm", "card": cid}, f"Arm a character with {card(cid)['name']}")
            )
    return opts


def start(ctx: Ctx, seat: int, cid: str) -> None:
    """Attach at once when one character fits, else ask which one."""
    ctx.only_or_ask(
        targets(ctx, seat, cid),
        lambda character: attach(ctx, seat, cid, character),
        {"kind": "arm_target", "seat": seat, "card": cid},
    )


def attach(ctx: Ctx, seat: int, cid: str, character: dict[str, Any]) -> None:
    """Pay and attach for good: cards never move once placed (FL-ARM-02, FL-ARM-08)."""
    pay(ctx, seat, cid)
    ctx.seat(seat)["hand"].remove(cid)
    character[SLOT[card(cid)["type"]][1]].append(cid)
    ctx.log(
        "FL-ARM-02",
        f"{ctx.name(seat)} arms {card(character['card'])['name']} with {card(cid)['name']}.",
    )


def _target_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    return [
        option({"uid": ch["uid"]}, f"{card(ch['card'])['name']}")
        for ch in targets(ctx, seat, frame["card"])
    ]


def _target_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    ctx.pop()
    character = next(ch for ch in ctx.seat(seat)["area"] if ch["uid"] == action["uid"])
    attach(ctx, seat, frame["card"], character)


handlers.decision(
    "arm_target",
    "FL-ARM-01",
    lambda ctx, f, s: f"Which character takes {card(f['card'])['name']}?",
    _target_options,
    _target_choose,
    free=False,
)
