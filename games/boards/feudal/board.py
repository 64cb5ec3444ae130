"""The Feudal Lords table: each seat's leader, locations and characters as cards, a combat in
progress, who decides now, and the viewer's hand — all from the engine's per-seat view.

Only the view is read, so nothing hidden reaches the page: other hands arrive as counts, the
Stockpile as a count, face-down Victory cards (and bluffs) as a back until revealed. Where a
card on the table or in the hand answers the prompt, it carries the indices of the options
naming it (like the HRE map's provinces), and the same choices stay buttons in the prompt bar.
"""

from __future__ import annotations

from typing import Any

from games.boards.common import pick as _pick
from games.boards.common import seat_mark
from games.boards.feudal import cards as feudal_cards
from games.boards.feudal.deciding import deciders, deciding, window
from games.boards.feudal.table import combat, seat_table


def _option_keys(action: Any) -> list[tuple[str, Any]]:
    """What an option names on the table: ("card", id), ("uid", n) or ("loc", i)."""
    if not isinstance(action, dict):
        return []
    found: list[tuple[str, Any]] = []
    for key in ("card", "discard"):
        if isinstance(action.get(key), str):
            found.append(("card", action[key]))
    for key in ("uid", "mine"):
        if isinstance(action.get(key), int):
            found.append(("uid", action[key]))
    if isinstance(action.get("loc"), int) and "pile" not in action:
        found.append(("loc", action["loc"]))
    return found


def picks(prompt: dict[str, Any] | None) -> dict[tuple[str, Any], list[int]]:
    """(kind, key) → indices of the prompt options naming that card, character or location."""
    found: dict[tuple[str, Any], list[int]] = {}
    for i, opt in enumerate(prompt["options"] if prompt else []):
        for key in _option_keys(opt["action"]):
            found.setdefault(key, []).append(i)
    return found


def _hand(
    view: dict[str, Any], chosen: dict[tuple[str, Any], list[int]], prompt: dict[str, Any] | None
) -> list[dict[str, Any]] | None:
    """The viewer's own hand (None for spectators), each card with the options naming it."""
    seat = view.get("seat")
    if seat is None:
        return None
    own = view["seats"][seat]["hand"] if view["mode"] != "solitaire" else view.get("hand")
    if own is None:
        return None
    cards = []
    for cid in sorted(own, key=feudal_cards.sort_key):
        shown = feudal_cards.card(cid)
        shown["pick"] = _pick(chosen.get(("card", cid)), prompt)
        cards.append(shown)
    return cards


def held(view: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The viewer's opening discards set aside but not yet shown (FL-SETUP-07): the view holds
    only the viewer's own, so spectators and rivals never see them. None when there are none."""
    pending = view.get("pending") or {}
    if (
        view.get("seat") is None
        or pending.get("kind") != "setup_discard"
        or not pending.get("held")
    ):
        return None
    return [feudal_cards.card(cid) for cid in pending["held"]]


def artifacts(
    chosen: dict[tuple[str, Any], list[int]], prompt: dict[str, Any] | None
) -> list[dict[str, Any]] | None:
    """The viewer's Artifacts still to place at set-up (FL-SETUP-04), read from its own prompt:
    each card narrows the buttons to its locations. None when the viewer is not placing any."""
    if prompt is None or prompt.get("kind") != "setup_artifacts":
        return None
    ids = dict.fromkeys(
        o["action"]["card"]
        for o in prompt["options"]
        if isinstance(o["action"], dict) and o["action"].get("do") == "artifact"
    )
    shown = []
    for cid in ids:
        c = feudal_cards.card(cid)
        c["pick"] = _pick(chosen.get(("card", cid)), prompt)
        shown.append(c)
    return shown


def solitaire(
    view: dict[str, Any], chosen: dict[tuple[str, Any], list[int]], prompt: dict[str, Any] | None
) -> dict[str, Any]:
    """The solitaire table: three defender piles (top face up), living attackers, marker pool."""
    piles = [
        {
            "index": i,
            "top": feudal_cards.card(p["top"]) if p["top"] else None,
            "hidden": p["hidden"],
        }
        for i, p in enumerate(view["defenders"])
    ]
    return {
        "piles": piles,
        "living": [feudal_cards.card(c) for c in view["living"]],
        "markers": view["markers"],
        "killed": view["killed"],
        "deck_count": view["deck_count"],
        "discard_count": len(view["discard"]),
        "fight": view.get("fight"),
    }


def board_context(view: dict[str, Any], prompt: dict[str, Any] | None) -> dict[str, Any]:
    """The table, the combat, who decides, the hand and seat summaries for one viewer."""
    chosen = picks(prompt)
    hand = _hand(view, chosen, prompt)
    if view["mode"] == "solitaire":
        solo = solitaire(view, chosen, prompt)
        seat = {
            "index": 0,
            "mark": seat_mark(0),
            "solo": True,
            "markers": view["markers"],
            "killed": view["killed"],
            "hand_count": view["hand_count"],
            "active": True,
            "deciding": bool(prompt),
            "out": False,
        }
        return {
            "provinces": [seat],
            "solo": solo,
            "seats": [seat],
            "tables": [],
            "combat": None,
            "deciding": None,
            "hand": hand,
            "choosing": False,
            "picking": bool(chosen),
            "marks": [seat_mark(0)],
            "window": None,
            "held": None,
            "artifacts": None,
            "mode": "solitaire",
        }
    now = deciders(view, prompt)[0]
    tables = [seat_table(view, s, chosen, prompt, now) for s in view["seats"]]
    me = view.get("seat")
    # The viewer's own side of the table is drawn last, nearest the hand, as at a real table.
    ordered = [t for t in tables if t["index"] != me] + [t for t in tables if t["index"] == me]
    return {
        "provinces": ordered,  # the game page draws the tableau only when this is non-empty
        "tables": ordered,
        "seats": tables,
        "combat": combat(view, chosen, prompt),
        "deciding": deciding(view, prompt),
        "hand": hand,
        "choosing": False,
        "picking": bool(chosen),
        "window": window(view),
        "held": held(view),
        "artifacts": artifacts(chosen, prompt),
        "marks": [seat_mark(i) for i in range(len(view["seats"]))],
        "mode": view["mode"],
        "starter": view.get("starter", False),
        "turn": view.get("turns", 0),
        "solo": None,
    }
