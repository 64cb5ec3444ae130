"""Per-seat views (ARCHITECTURE §3, A-33): hands, Stockpile order and face-down cards hidden."""

from __future__ import annotations

from typing import Any

from rules.core.engine import State
from rules.feudal import scoring, solitaire

SEAT_PUBLIC = ("leader", "locations", "constants", "sup", "ld", "markers", "marker_spent", "vp")
# "open" and "left" say which seats still choose at set-up and how many discards each owes:
# who is being asked is public, what they hold back is not.
FRAME_PUBLIC = ("kind", "seat", "stage", "stop", "side", "round", "open", "left")


def _seat(state: State, i: int, viewer: int | None) -> dict[str, Any]:
    me = state["seats"][i]
    shown = {k: me[k] for k in SEAT_PUBLIC}
    shown.update(
        seat=i,
        locs=[dict(loc) for loc in me["locs"]],
        discard=list(me["discard"]),
        area=[_character(c) for c in me["area"]],
        hand_count=len(me["hand"]),
        stock_count=len(me["stock"]),
        total=scoring.total(state, i),
        hand=sorted(me["hand"]) if viewer == i else None,
    )
    return shown


def _character(c: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in c.items()}


def _vc(vc: dict[str, Any] | None, viewer: int | None) -> dict[str, Any] | None:
    """A face-down card shows only its back to everyone but its owner (FL-COMBAT-VC-02)."""
    if vc is None:
        return None
    if vc["up"] or vc["seat"] == viewer:
        return dict(vc)
    return {"seat": vc["seat"], "up": False, "card": None}


def _combat(frame: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    keys = ("att", "target", "def", "loc", "site", "fight", "stage", "round", "queue", "sacked")
    shown = {k: frame[k] for k in keys}
    shown.update(
        a=[_character(c) for c in frame["a"]],
        d=[_character(c) for c in frame["d"]],
        vc={s: _vc(frame["vc"][s], viewer) for s in ("a", "d")},
        dead={s: list(frame["dead"][s]) for s in ("a", "d")},
        boost=dict(frame["boost"]),
    )
    return shown


def _pending(frame: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """A decision frame as others may see it: who is deciding what, never a hidden card."""
    shown = {k: frame[k] for k in FRAME_PUBLIC if k in frame}
    if frame["kind"] == "window":
        shown["played"] = [
            {"seat": p["seat"], "card": p["card"], "target": p["target"]} for p in frame["played"]
        ]
    elif frame["kind"] == "setup_discard" and viewer is not None:
        shown["held"] = list(frame["held"][str(viewer)])  # only one's own, until all have chosen
    return shown


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as one seat may see it; spectators (None) see no hand."""
    if state["mode"] == "solitaire":
        return solitaire.view(state, seat)
    combat = next((f for f in reversed(state["stack"]) if f["kind"] == "combat"), None)
    top = state["stack"][-1] if state["stack"] else None
    return {
        "game": "feudal",
        "mode": state["mode"],
        "players": state["players"],
        "seat": seat,
        "active": state["active"],
        "turns": state["turns"],
        "starter": state["starter"],
        "seats": [_seat(state, i, seat) for i in range(int(state["players"]))],
        # The viewer's own hand again at the top, as every engine's view offers it (None for spectators).
        "hand": sorted(state["seats"][seat]["hand"]) if seat is not None else None,
        "combat": _combat(combat, seat) if combat else None,
        "pending": _pending(top, seat) if top else None,
        "over": state["over"],
        "winner": state["winner"],
    }
