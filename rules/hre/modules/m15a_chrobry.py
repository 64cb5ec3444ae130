"""Module 15A, Boleslaw Chrobry (HRE L883-889; reference §1.37, HRE-M15A-CHROBRY-01, -02).

The Chrobry card (CR02) waits on the face-down Chrobry events until the first Poland card is
flipped; then it goes into the top 8 cards of the Culture deck (CHROBRY-01). Dealt, it never
enters the offer: the top event happens to every player, from the player whose turn it is,
and leaves the game; with events left the card goes back into the top 8, else it leaves too,
and the offer space is filled as usual (CHROBRY-02). The six events (authored, in
`m15a_poland.json`) need no choice.
"""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.hre import culture
from rules.hre.economy import gain, lose
from rules.hre.modules.m15a_state import CATEGORIES, CHROBRY, book, card, flipped, m15a
from rules.hre.state import Ctx

TOP = 8  # Chrobry goes into the top 8 cards (L883, L888)


def into_deck(ctx: Ctx, rule: str) -> None:
    """Shuffle the Chrobry card into the top 8 of the Culture deck; no deck left, it leaves."""
    t = m15a(ctx.s)
    deck = ctx.s["deck"]
    if not deck:
        t["chrobry"] = "gone"
        ctx.log(rule, "The Culture deck is empty: Boleslaw Chrobry leaves the game.")
        return
    deck.insert(len(deck) - rng.below(ctx.s, min(TOP, len(deck)) + 1), CHROBRY)
    t["chrobry"] = "deck"
    ctx.log(rule, "Boleslaw Chrobry is shuffled into the top 8 cards of the Culture deck.")


def _event(event_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in book()["events"] if e["id"] == event_id)
    return found


def _removed(ctx: Ctx, seat: int) -> int:
    return sum(1 for c in CATEGORIES if card(ctx.s, seat, c)["side"] == "removed")


def _times(ctx: Ctx, seat: int, event: dict[str, Any]) -> int:
    """How often the event applies to a seat: 0 if it does not concern them."""
    steps = m15a(ctx.s)["steps"][seat]
    concerned = {
        "all": True,
        "flipped": flipped(ctx.s, seat) > 0,
        "removed": _removed(ctx, seat) > 0,
        "none": steps == 0 and flipped(ctx.s, seat) == 0,
    }[event["who"]]
    per = {None: 1, "flipped": flipped(ctx.s, seat), "steps": steps}[event["per"]]
    return per if concerned else 0


def revealed(ctx: Ctx) -> None:
    """Dealt into the offer: the top event instead, then back into the deck or out (CHROBRY-02)."""
    s, t = ctx.s, m15a(ctx.s)
    s["offer"].remove(CHROBRY)
    event = _event(t["events"].pop())
    t["done"].append(event["id"])
    ctx.log(
        "HRE-M15A-CHROBRY-02",
        f"Boleslaw Chrobry is revealed: it stays out of the offer, and {event['name']} happens.",
    )
    n = len(s["seats"])
    first = s["active"] if s["active"] is not None else 0
    for seat in [(first + k) % n for k in range(n)]:
        times = _times(ctx, seat, event)
        if times and "gain" in event:
            amounts = {k: v * times for k, v in event["gain"].items()}
            gain(ctx, seat, amounts, "HRE-M15A-CHROBRY-02", f" ({event['name']})")
        elif times:
            amounts = {k: v * times for k, v in event["lose"].items()}
            lose(ctx, seat, amounts, "HRE-M15A-CHROBRY-02", f" ({event['name']})")
    if t["events"]:
        into_deck(ctx, "HRE-M15A-CHROBRY-02")
    else:
        t["chrobry"] = "gone"
        ctx.log("HRE-M15A-CHROBRY-02", "No Chrobry event is left: the Chrobry card leaves.")
    culture.refill(ctx)
