"""Everything of the EMA board beside the map: treasuries, Statures, Rounds, initiative, cards, Parleys, offers.

Built from the per-seat view only. Year Cards not yet played are counts (nobody, not even their
holder, has seen them, 6.0); another seat's Holding cards are a count; a Parley shows who has
voted and only the viewer's own ballot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.boards import ema_cards, ema_er
from rules.ema import victory
from rules.ema.components import load
from rules.ema.parley import TITLES as PARLEY_TITLES

Mark = Callable[[int | None], dict[str, Any] | None]
STATURE_LEVELS = (1, 2, 3, 5, 9)
STATURES = (("c", "Combat"), ("a", "Administrative"), ("d", "Diplomacy"))


def area_name(aid: str | None) -> str:
    """An Area's printed name."""
    return str(load().areas[aid]["name"]) if aid in load().areas else "—"


def deciding_seats(view: dict[str, Any]) -> set[int]:
    """Seats the top decision waits for: every voter yet to vote in a Parley, else the one seat."""
    frame = view.get("deciding") or {}
    if frame.get("kind") == "parley":
        return {s for s in frame["voters"] if s not in frame["voted"]}
    return {frame["seat"]} if isinstance(frame.get("seat"), int) else set()


def _vp(view: dict[str, Any], seat: int) -> int | None:
    """VP if the game ended now (26.0), from public facts only."""
    try:
        return sum(victory.breakdown(ema_er.public_state(view), seat).values())
    except (KeyError, TypeError):
        return None


def seats(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """What everyone may see of each seat: counts for hidden cards, everything public in full."""
    waiting = deciding_seats(view)
    out = []
    for i, s in enumerate(view["seats"]):
        owned = sum(1 for here in view["areas"].values() if here["owner"] == i)
        out.append({
            "index": i, "mark": mark(i), "empire": s["empire_name"], "leader": s["leader"],
            "st": [{"key": k, "name": name, "n": s["st"][k]} for k, name in STATURES],
            "gold": s["gold"], "areas": owned, "court": area_name(s["court"]) if s["court"] else None,
            "vp": _vp(view, i), "years_down": s["year_cards_face_down"], "years_played": len(s["revealed"]),
            "hand_count": s["hand_count"], "defenses": s["defenses"], "endeavors": s["endeavors"],
            "inplay": [ema_cards.event_card(c) for c in s["inplay"]], "excom": s["excom"], "exile": s["exile"],
            "asylum": s["asylum"], "taxed": s["taxed"], "handicap": s["handicap"],
            "active": view["active"] == i, "deciding": i in waiting,
        })
    return out


def stature_display(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """The Leader Stature Display: one row per Stature, the seats standing on each level."""
    return [{"name": name, "cells": [{"level": level, "seats": [mark(i) for i, s in enumerate(view["seats"])
                                                                 if s["st"][key] == level]}
                                     for level in STATURE_LEVELS]}
            for key, name in STATURES]


def round_track(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The Rounds of the game with their years; a Game-Turn starts before x01, x26, x51 and x76 (6.0)."""
    first = view["year"] - 5 * (view["round"] - 1)
    return [{"n": r, "year": first + 5 * (r - 1), "now": r == view["round"], "done": r < view["round"],
             "gt": (first + 5 * (r - 1) - 1) % 25 == 0}
            for r in range(1, view["rounds"] + 1)]


def initiative(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """The order of play this Round; empty slots are still to be chosen."""
    return [{"slot": i + 1, "who": mark(s) if s is not None else None,
             "empire": view["seats"][s]["empire_name"] if s is not None else None,
             "active": s is not None and s == view["active"]}
            for i, s in enumerate(view["order"])]


def year_cards(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """Per seat: how many Year Cards lie face down, and the ones played this Round face up."""
    en = view.get("endeavor") or {}
    row = "conquest" if en.get("kind") == "convert" else en.get("kind")
    return [{"mark": mark(i), "empire": s["empire_name"], "down": range(s["year_cards_face_down"]),
             "down_count": s["year_cards_face_down"],
             "played": [ema_cards.year_card(n, row if i == en.get("seat") else None) for n in s["revealed"]]}
            for i, s in enumerate(view["seats"])]


def parley(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """A Parley in progress: who called it, on what, who votes and who has voted; one's own ballot only."""
    frame = view.get("deciding") or {}
    if frame.get("kind") != "parley":
        return None
    mine = frame.get("my_ballot")
    return {"title": PARLEY_TITLES.get(frame["type"], frame["type"]), "caller": mark(frame["caller"]),
            "caller_name": view["seats"][frame["caller"]]["empire_name"],
            "other": mark(frame["other"]) if frame.get("other") is not None else None,
            "areas": [area_name(a) for a in frame["areas"]],
            "voters": [{"mark": mark(s), "empire": view["seats"][s]["empire_name"], "voted": s in frame["voted"],
                        "votes": view["seats"][s]["st"]["d"]} for s in frame["voters"]],
            "my_ballot": mine}


def _item(item: dict[str, Any] | None) -> str:
    if not item:
        return "nothing"
    if "gold" in item:
        return f"{item['gold']} gold"
    if "area" in item:
        return area_name(item["area"])
    return f"the Claim to {area_name(item.get('claim'))}"


def offer(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """An exchange waiting for its answer, or being put together (20.1)."""
    frame = view.get("deciding") or {}
    if frame.get("kind") == "offer_reply":
        return {"pending": True, "from": mark(frame["from"]), "from_name": view["seats"][frame["from"]]["empire_name"],
                "to": mark(frame["seat"]), "to_name": view["seats"][frame["seat"]]["empire_name"],
                "give": _item(frame["give"]), "ask": _item(frame["ask"])}
    if frame.get("kind") == "agree_reply":
        what = "the cancellation of agreement " + str(frame["id"]) if frame.get("id") is not None else "a binding agreement"
        return {"pending": True, "agreement": what, "from": mark(frame["from"]),
                "from_name": view["seats"][frame["from"]]["empire_name"], "to": mark(frame["seat"]),
                "to_name": view["seats"][frame["seat"]]["empire_name"]}
    if frame.get("kind") == "offer" and frame.get("partner") is not None:
        return {"pending": False, "from": mark(frame["seat"]), "from_name": view["seats"][frame["seat"]]["empire_name"],
                "to": mark(frame["partner"]), "to_name": view["seats"][frame["partner"]]["empire_name"],
                "give": _item(frame.get("give")) if frame.get("give") else "…",
                "ask": _item(frame.get("ask")) if frame.get("ask") else "…"}
    return None


def agreements(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """Binding agreements in force (20.3): their parties and the year they were made."""
    return [{"id": a.get("id"), "year": a.get("year"),
             "parties": [{"mark": mark(p), "empire": view["seats"][p]["empire_name"]} for p in a["parties"]]}
            for a in view.get("agreements", [])]


def endeavor(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """The announced Endeavor: who, where, cost, Defense, and the ER term by term before the card turns."""
    en = view.get("endeavor")
    if not en:
        return None
    frame = view.get("deciding") or {}
    return {"who": mark(en["seat"]), "empire": view["seats"][en["seat"]]["empire_name"],
            "kind": ema_er.KIND_NAMES.get(en["kind"], en["kind"]), "base": area_name(en["base"]) if en["base"] else None,
            "target": area_name(en["target"]), "cost": en["cost"], "seas": en["seas"], "gold": en["gold"],
            "defender": mark(en["defender"]), "dgold": en["dgold"],
            "awaiting_defense": frame.get("kind") == "defend",
            "defender_pending": mark(frame["seat"]) if frame.get("kind") == "defend" else None,
            "er": ema_er.announced(view)}


def holdings_hand(view: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The viewer's own Holding cards, or None for a spectator."""
    seat = view.get("seat")
    if seat is None or view["seats"][seat]["hand"] is None:
        return None
    return [ema_cards.event_card(c) for c in view["seats"][seat]["hand"]]


def tableau(view: dict[str, Any], prompt: dict[str, Any] | None, mark: Mark) -> dict[str, Any]:
    """Everything beside the map, for the board template."""
    me = view.get("seat")
    return {
        "seats": seats(view, mark), "statures": stature_display(view, mark), "rounds": round_track(view),
        "round": view["round"], "rounds_total": view["rounds"], "year": view["year"],
        "initiative": initiative(view, mark), "year_cards": year_cards(view, mark),
        "parley": parley(view, mark), "offer": offer(view, mark), "agreements": agreements(view, mark), "endeavor": endeavor(view, mark),
        "hand": holdings_hand(view), "me": me, "my_years": view["seats"][me]["year_cards_face_down"] if me is not None else 0,
        "inplay_any": any(s["inplay"] for s in view["seats"]),
        "event_deck": view["event_deck_count"], "year_deck": view["year_deck_count"],
        "discards": ema_cards.discard_summary(view["event_discard"]), "black_death": view["black_death"],
        "over": view["over"],
    }
