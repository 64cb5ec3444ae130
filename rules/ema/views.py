"""Per-seat views: Year Cards, Holding cards and ballots of others stay hidden (ARCHITECTURE §3)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import State


def _seat_view(me: dict[str, Any], mine: bool) -> dict[str, Any]:
    shown = {k: v for k, v in me.items() if k not in ("hand", "years")}
    shown["st"] = dict(me["st"])
    shown["inplay"] = list(me["inplay"])
    shown["revealed"] = list(me["revealed"])
    shown["year_cards_face_down"] = len(me["years"])  # hidden even from their holder until played (6.0)
    shown["hand_count"] = len(me["hand"])
    shown["hand"] = sorted(me["hand"]) if mine else None
    return shown


def _frame_view(frame: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A stack frame without anything secret: ballots show only who has voted, and one's own."""
    if frame["kind"] != "parley":
        return {k: v for k, v in frame.items() if k not in ("queue",)}
    ballots = frame["ballots"]
    return {"kind": "parley", "type": frame["type"], "caller": frame["caller"], "other": frame["other"],
            "areas": list(frame["areas"]), "voters": list(frame["voters"]),
            "voted": sorted(int(k) for k in ballots), "influence": dict(frame.get("influence", {})),
            "my_ballot": ballots.get(str(seat)) if seat is not None else None}


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as one seat may see it; never the decks' order or the generator."""
    top = state["stack"][-1] if state["stack"] else None
    return {
        "game": "ema", "scenario": state["slug"], "players": state["players"], "seat": seat,
        "year": state["year"], "round": state["round"], "rounds": state["rounds"], "order": list(state["order"]),
        "active": state["active"], "areas": {a: dict(h) for a, h in state["areas"].items()},
        "seats": [_seat_view(me, seat == i) for i, me in enumerate(state["seats"])],
        "year_deck_count": len(state["year_deck"]), "event_deck_count": len(state["event_deck"]),
        "event_discard": sorted(state["event_discard"]), "endeavor": state["endeavor"],
        "deciding": _frame_view(top, seat) if top else None, "black_death": state["black_death"],
        "options": dict(state["options"]), "over": state["over"],
        "agreements": [dict(a, parties=list(a["parties"])) for a in state.get("agreements", [])],
    }
