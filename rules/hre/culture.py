"""The Culture card offer and the Development of Culture action (HRE-BASE-DEV)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.hre import handlers, modules
from rules.hre.economy import accessible
from rules.hre.handlers import option
from rules.hre.state import Ctx, Frame, board_number


def refill(ctx: Ctx) -> None:
    """Deal the top deck card to the rightmost space; the last card triggers the end (DEV-04).

    Once the deck is empty the offer is no longer refilled (AMB-13).
    """
    s = ctx.s
    if s["deck"] and len(s["offer"]) < board_number(s, "offer_size"):
        card = s["deck"].pop()
        s["offer"].append(card)
        ctx.log("HRE-BASE-DEV-03", f"{ctx.d.cards[card]['name']} is dealt into the offer.")
        modules.offer_enter(ctx, card)
        if not s["deck"]:
            s["deck_exhausted"] = True
            ctx.log("HRE-BASE-END-06", "The last card of the Culture deck has been drawn.")


def take(ctx: Ctx, seat: int, index: int, rule: str) -> None:
    """Take an offer card into hand, slide the rest left and refill (DEV-01, DEV-03)."""
    card = ctx.s["offer"].pop(index)
    ctx.seat(seat)["hand"].append(card)
    ctx.log(rule, f"{ctx.name(seat)} takes {ctx.d.cards[card]['name']} from the offer.")
    modules.card_taken(ctx, seat, card)
    refill(ctx)


def cycle_offer(ctx: Ctx, rule: str) -> None:
    """Discard the leftmost offer card, slide and refill (Pass step 1)."""
    if not ctx.s["offer"]:
        return
    card = ctx.s["offer"].pop(0)
    ctx.s["discard"].append(card)
    ctx.log(rule, f"{ctx.d.cards[card]['name']} leaves the offer.")
    modules.offer_leave(ctx, card)
    refill(ctx)


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    reach = min(accessible(ctx, frame["seat"]), len(ctx.s["offer"]))
    opts = [
        option({"take": i}, f"Take {ctx.d.cards[ctx.s['offer'][i]]['name']}") for i in range(reach)
    ]
    return opts or [option({"take": None}, "No card can be taken: the action has no effect")]


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    if action["take"] is None:
        ctx.nothing_done()
    else:
        take(ctx, frame["seat"], action["take"], "HRE-BASE-DEV-01")


handlers.decision(
    "culture",
    "HRE-BASE-DEV-01",
    lambda ctx, f: "Development of Culture: take an accessible card from the offer",
    _options,
    _choose,
)
