"""The chance an Endeavor succeeds, as a player works it out at the table (EMA 9.4).

The Year deck is reshuffled whole every Round and every card's rows are public (the card set is
printed); the cards already turned up this Round, by anyone, are known not to come. So the chance
is the share of the other cards whose row for this Endeavor gives the wanted result at this ER.
Each result is read on its own against the ER (9.4): (n►) applies at ER n or more, (◄n) at n or
less, a result without a number always.
"""

from __future__ import annotations

from typing import Any

from rules.ema.metadata import components

# What each Endeavor is after, as the results that bring it (column, effect), and how it reads.
WANTED: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {
    "conquest": ((("result", "C"),), "Conquest"),
    "pillage": ((("result", "G"),), "gold"),
    "fortification": ((("result", "F"),), "the fort"),
    "ruling": ((("base", "+1"),), "Social State +1"),
}


def _applies(result: dict[str, Any], er: int) -> bool:
    # The same reading as rules/ema/cards.matches; the site reads the engine through its
    # metadata only (ARCHITECTURE §1), so the three comparisons are written again here.
    if result["cmp"] == ">=":
        return er >= int(result["n"])
    if result["cmp"] == "<=":
        return er <= int(result["n"])
    return True


def _brings(card: dict[str, Any], kind: str, er: int) -> bool:
    """Whether this card gives the Endeavor what it is after at this ER (diplomacy: a Conquest)."""
    rows = card["rows"].get(kind, [])
    if kind == "diplomacy":  # T/C: a Diplomatic Conquest at ER n or more, else a Tie (9.4)
        return any(r["e"] in ("T/C", "C") and _applies(r, er) for r in rows)
    wanted = WANTED[kind][0]
    return any((r["col"], r["e"]) in wanted and _applies(r, er) for r in rows)


def _outcome(card: dict[str, Any], kind: str, er: int) -> str | None:
    """What one card's row does besides the wanted result, by Endeavor: a Diplomatic Tie
    (T, or T/C below its number, 9.4, 12.3), or the Base losing 1 SS in a Conquest."""
    rows = card["rows"].get(kind, [])
    if kind == "diplomacy":
        tie = any(r["e"] == "T/C" or (r["e"] == "T" and _applies(r, er)) for r in rows)
        return "tie" if tie else None
    if kind == "conquest":
        hurt = any((r["col"], r["e"]) == ("base", "-1") and _applies(r, er) for r in rows)
        return "base" if hurt else None
    return None


def _share(n: int, of: int) -> str:
    return f"{n} ({round(100 * n / of)}%)"


def unseen(view: dict[str, Any]) -> list[int]:
    """The Year Cards not turned up this Round by anyone (the viewer's own face-down ones too)."""
    shown = {n for s in view.get("seats", []) for n in s.get("revealed", [])}
    return [n for n in sorted(components().year_cards) if n not in shown]


def chance(view: dict[str, Any], kind: str | None, er: int | None) -> dict[str, Any] | None:
    """{hits, of, percent, text} for an Endeavor at an ER, or None where no odds apply."""
    if kind is None or er is None or (kind not in WANTED and kind != "diplomacy"):
        return None
    cards = components().year_cards
    pool = unseen(view)
    if not pool:
        return None
    hits = sum(1 for n in pool if _brings(cards[n], kind, er))
    what = "a Diplomatic Conquest" if kind == "diplomacy" else WANTED[kind][1]
    percent = round(100 * hits / len(pool))
    text = f"{what} on {hits} of the {len(pool)} unseen Year Cards: {percent}%"
    by_result: dict[str, int] = {"wanted": hits}
    if kind == "diplomacy":  # by result: a Conquest, else a Tie, else nothing
        ties = sum(
            1 for n in pool if not _brings(cards[n], kind, er) and _outcome(cards[n], kind, er)
        )
        nothing = len(pool) - hits - ties
        by_result.update(tie=ties, nothing=nothing)
        text += "".join(
            f"; {what} on {_share(n, len(pool))}"
            for what, n in (("a Tie", ties), ("nothing", nothing))
            if n
        )
    elif kind == "conquest":  # and, on its own, the Base's loss (9.4: each result on its own)
        hurt = sum(1 for n in pool if _outcome(cards[n], kind, er))
        by_result.update(base=hurt)
        text += f"; your Base loses 1 SS on {_share(hurt, len(pool))}" if hurt else ""
    return {"hits": hits, "of": len(pool), "percent": percent, "text": text, "by_result": by_result}
