"""Year Cards (3.2, 9.4): dealing face down, turning up, and reading results against an ER."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.ema.state import Ctx


def matches(result: dict[str, Any], er: int) -> bool:
    """Does a result apply at this ER: (#►) needs ER ≥ #, (◄#) needs ER ≤ #, no number always (9.4)."""
    if result["cmp"] == ">=":
        return er >= int(result["n"])
    if result["cmp"] == "<=":
        return er <= int(result["n"])
    return True


def results(card: dict[str, Any], endeavor: str, er: int) -> list[dict[str, Any]]:
    """Every result of a card's row that applies; each is tested on its own (9.4)."""
    return [r for r in card["rows"][endeavor] if matches(r, er)]


def deal(ctx: Ctx) -> None:
    """Shuffle the whole Year deck and deal five face down to each seat (6.0 III.1)."""
    deck = sorted(ctx.d.year_cards)
    rng.shuffle(ctx.s, deck)
    per = ctx.d.tables["cards_per_round"]
    for me in ctx.s["seats"]:
        me["years"], deck = deck[:per], deck[per:]
        me["revealed"] = []
        me["card_uses"] = []
        me["defenses"] = 0
    ctx.s["year_deck"] = deck


def turn_up(ctx: Ctx, seat: int, use: dict[str, Any] | None = None) -> dict[str, Any]:
    """Turn up the next face-down card of a seat; nobody saw it before (9.0 P6).

    `use` records, publicly, what the card was played for: {"use": "endeavor" | "defense" | "unplayed",
    "endeavor": kind or None, "target": Area or None}.
    """
    me = ctx.seat(seat)
    number = me["years"].pop(0)
    me["revealed"].append(number)
    if use is not None:
        me.setdefault("card_uses", []).append({"number": number, **use})
    card: dict[str, Any] = ctx.d.year_cards[number]
    return card


def describe(card: dict[str, Any], endeavor: str) -> str:
    """The card's row in book notation, for the log."""
    row = card["text"][endeavor]
    return f"Year Card {card['number']}: {row['result']} / {row['target']} / {row['base']}"
