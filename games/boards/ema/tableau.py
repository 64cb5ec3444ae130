"""Everything of the EMA board beside the map: treasuries, Statures, Rounds, initiative, cards, Parleys, offers.

Built from the per-seat view only. Year Cards not yet played are counts (nobody, not even their
holder, has seen them, 6.0); another seat's Holding cards are a count; a Parley shows who has
voted and only the viewer's own ballot.
"""

from __future__ import annotations

from typing import Any

from games.boards.common import Mark
from games.boards.ema import cards as ema_cards
from games.boards.ema import er as ema_er
from games.boards.ema import odds as ema_odds
from rules.ema.metadata import PARLEY_TITLES, WINDOW_REASONS, components

STATURE_LEVELS = (1, 2, 3, 5, 9)
STATURES = (("c", "Combat"), ("a", "Administrative"), ("d", "Diplomacy"))


def area_name(aid: str | None) -> str:
    """An Area's printed name."""
    return str(components().areas[aid]["name"]) if aid in components().areas else "—"


def deciding_seats(view: dict[str, Any]) -> set[int]:
    """Seats the top decision waits for: every voter yet to vote in a Parley, else the one seat."""
    frame = view.get("deciding") or {}
    if frame.get("kind") == "parley":
        return {s for s in frame["voters"] if s not in frame["voted"]}
    return {frame["seat"]} if isinstance(frame.get("seat"), int) else set()


def seats(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """What everyone may see of each seat: counts for hidden cards, everything public in full."""
    waiting = deciding_seats(view)
    out = []
    for i, s in enumerate(view["seats"]):
        owned = sum(1 for here in view["areas"].values() if here["owner"] == i)
        out.append(
            {
                "index": i,
                "mark": mark(i),
                "empire": s["empire_name"],
                "leader": s["leader"],
                "st": [{"key": k, "name": name, "n": s["st"][k]} for k, name in STATURES],
                "gold": s["gold"],
                "areas": owned,
                "court": area_name(s["court"]) if s["court"] else None,
                "vp": s.get("vp"),
                "years_down": s["year_cards_face_down"],
                "years_played": len(s["revealed"]),
                "hand_count": s["hand_count"],
                "defenses": s["defenses"],
                "endeavors": s["endeavors"],
                "inplay": [ema_cards.event_card(c) for c in s["inplay"]],
                "excom": s["excom"],
                "exile": s["exile"],
                "asylum": s["asylum"],
                "taxed": s["taxed"],
                "handicap": s["handicap"],
                "active": view["active"] == i,
                "deciding": i in waiting,
            }
        )
    return out


def stature_display(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """The Leader Stature Display: one row per Stature, the seats standing on each level."""
    return [
        {
            "name": name,
            "cells": [
                {
                    "level": level,
                    "seats": [
                        mark(i) for i, s in enumerate(view["seats"]) if s["st"][key] == level
                    ],
                }
                for level in STATURE_LEVELS
            ],
        }
        for key, name in STATURES
    ]


TRACK = 20  # a longer game (the Grand Scenario's 140 Rounds) shows a window of the track


def end_year(view: dict[str, Any]) -> int:
    """The last year of the game: its last Round's fifth year (6.0, 32.1)."""
    first = int(view["year"]) - 5 * (int(view["round"]) - 1)
    return first + 5 * int(view["rounds"]) - 1


def round_track(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The Rounds of the game with their years; a Game-Turn starts before x01, x26, x51 and x76 (6.0)."""
    first = view["year"] - 5 * (view["round"] - 1)
    low = 1
    if view["rounds"] > TRACK:
        low = max(1, min(view["round"] - 5, view["rounds"] - TRACK + 1))
    return [
        {
            "n": r,
            "year": first + 5 * (r - 1),
            "now": r == view["round"],
            "done": r < view["round"],
            "gt": (first + 5 * (r - 1) - 1) % 25 == 0,
        }
        for r in range(low, min(view["rounds"], low + TRACK - 1) + 1)
    ]


def optional_rules(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """One line per optional rule or Grand Scenario state in play (23.0-25.0, 32.0)."""
    lines: list[dict[str, Any]] = []
    name = {i: s["empire_name"] for i, s in enumerate(view["seats"])}
    if "schism" in view:
        now = "Union: the Roman and Eastern Churches are one" if view["schism"] == "union" else (
            "Schism: the Roman and Eastern Churches are apart")  # fmt: skip
        lines.append({"rule": "23.1", "text": f"{now} (condition {view.get('schism_row')})."})
    if "raiders" in view:
        active = view["raiders"]["scheduled"]
        text = ", ".join(f"{k.title()} (Stature {v})" for k, v in active.items()) or "none"
        stopped = ", ".join(k.title() for k in view["raiders"]["stopped"])
        lines.append({"rule": "24.4", "text": f"Raiders on the schedule this Game-Turn: {text}"
                      + (f"; stopped for good: {stopped}" if stopped else "") + "."})  # fmt: skip
        for m in view.get("magnates", []):
            count = sum(1 for k in view["npc_areas"].values() if k == m["key"])
            lines.append({"rule": "24.5", "text": f"Magnate of {area_name(m['court'])}: Stature "
                          f"{m['stature']}, {count} Area(s), since {m['since']}."})  # fmt: skip
    for col in view.get("colonies", []):
        lines.append({"rule": "25.0", "who": mark(col["seat"]), "text": f"{name[col['seat']]} "
                      f"colonizes {area_name(col['area'])}: {col['points']} points."})  # fmt: skip
    grand = view.get("grand")
    if grand:
        if grand["phase"] == "prelude":
            text = "Prelude: the Franks and Byzantium until the Frankish second Stature Check."
        else:
            text = "The kingdoms: " + ", ".join(
                f"{n} {name[int(s)]}" for s, n in sorted(grand["numbers"].items(), key=lambda x: x[1])
            )  # fmt: skip
        lines.append(
            {
                "rule": "32.0",
                "text": text
                + (
                    f" Waiting: {', '.join(name[s] for s in grand['waiting'])}."
                    if grand["waiting"]
                    else ""
                ),
            }
        )
    return lines


def initiative(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """The order of play this Round; empty slots are still to be chosen."""
    return [
        {
            "slot": i + 1,
            "who": mark(s) if s is not None else None,
            "empire": view["seats"][s]["empire_name"] if s is not None else None,
            "active": s is not None and s == view["active"],
        }
        for i, s in enumerate(view["order"])
    ]


def card_use(played: dict[str, Any]) -> str:
    """What a turned-up Year Card was used for, as players say it."""
    kind = ema_er.KIND_NAMES.get(played.get("endeavor") or "", played.get("endeavor") or "")
    where = f" of {area_name(played['target'])}" if played.get("target") else ""
    if played.get("use") == "endeavor":
        return f"{kind}{where}"
    if played.get("use") == "defense":
        return f"Defense against {kind}{where}" if kind else "Defense"
    if played.get("use") == "unplayed":
        return "turned up unplayed"
    return ""


def _played(s: dict[str, Any]) -> list[dict[str, Any]]:
    """A seat's played cards with their use; a view without uses gives the bare numbers (older games)."""
    rows = s.get("played")
    if rows is None:
        rows = [{"number": n, "use": None, "endeavor": None, "target": None} for n in s["revealed"]]
    out = []
    for p in rows:
        row = "conquest" if p.get("endeavor") == "convert" else p.get("endeavor")
        card = ema_cards.year_card(p["number"], row if p.get("use") == "endeavor" else None)
        out.append({**card, "use": card_use(p), "defense": p.get("use") == "defense"})
    return out


def year_cards(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """Per seat: how many Year Cards lie face down, and the ones played this Round face up, with their use."""
    return [
        {
            "mark": mark(i),
            "empire": s["empire_name"],
            "down": range(s["year_cards_face_down"]),
            "down_count": s["year_cards_face_down"],
            "played": _played(s),
        }
        for i, s in enumerate(view["seats"])
    ]


def _pending(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every pending decision, top first (older views: the top one only)."""
    stack = view.get("deciding_stack")
    if stack is None:
        stack = [view["deciding"]] if view.get("deciding") else []
    return list(reversed(stack))


def parley(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """A Parley in progress: who called it, on what, who votes and who has voted; one's own ballot only.

    It stays shown while the voters declare their Influence cards, the declaration being on top of it."""
    frame = next((f for f in _pending(view) if f.get("kind") == "parley"), None)
    if frame is None:
        return None
    top = view.get("deciding") or {}
    declaring = top.get("seat") if top.get("kind") == "influence" else None
    declared = frame.get("influence") or {}
    mine = frame.get("my_ballot")
    return {
        "title": PARLEY_TITLES.get(frame["type"], frame["type"]),
        "caller": mark(frame["caller"]),
        "caller_name": view["seats"][frame["caller"]]["empire_name"],
        "other": mark(frame["other"]) if frame.get("other") is not None else None,
        "areas": [area_name(a) for a in frame["areas"]],
        "voters": [
            {
                "mark": mark(s),
                "empire": view["seats"][s]["empire_name"],
                "voted": s in frame["voted"],
                "votes": view["seats"][s]["st"]["d"],
                "influence": declared.get(str(s)),
                "declaring": s == declaring,
            }
            for s in frame["voters"]
        ],
        "declaring": declaring is not None,
        "my_ballot": mine,
    }


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
        return {
            "pending": True,
            "from": mark(frame["from"]),
            "from_name": view["seats"][frame["from"]]["empire_name"],
            "to": mark(frame["seat"]),
            "to_name": view["seats"][frame["seat"]]["empire_name"],
            "give": _item(frame["give"]),
            "ask": _item(frame["ask"]),
        }
    if frame.get("kind") == "agree_reply":
        what = (
            "the cancellation of agreement " + str(frame["id"])
            if frame.get("id") is not None
            else "a binding agreement"
        )
        return {
            "pending": True,
            "agreement": what,
            "from": mark(frame["from"]),
            "from_name": view["seats"][frame["from"]]["empire_name"],
            "to": mark(frame["seat"]),
            "to_name": view["seats"][frame["seat"]]["empire_name"],
        }
    if frame.get("kind") == "offer" and frame.get("partner") is not None:
        return {
            "pending": False,
            "from": mark(frame["seat"]),
            "from_name": view["seats"][frame["seat"]]["empire_name"],
            "to": mark(frame["partner"]),
            "to_name": view["seats"][frame["partner"]]["empire_name"],
            "give": _item(frame.get("give")) if frame.get("give") else "…",
            "ask": _item(frame.get("ask")) if frame.get("ask") else "…",
        }
    return None


def agreements(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """Binding agreements in force (20.3): their parties and the year they were made."""
    return [
        {
            "id": a.get("id"),
            "year": a.get("year"),
            "parties": [
                {"mark": mark(p), "empire": view["seats"][p]["empire_name"]} for p in a["parties"]
            ],
        }
        for a in view.get("agreements", [])
    ]


def endeavor(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """The announced Endeavor: who, where, cost, Defense, and the ER term by term before the card turns."""
    en = view.get("endeavor")
    if not en:
        return None
    frame = view.get("deciding") or {}
    rating = ema_er.announced(view)
    return {
        "who": mark(en["seat"]),
        "empire": view["seats"][en["seat"]]["empire_name"],
        "kind": ema_er.KIND_NAMES.get(en["kind"], en["kind"]),
        "base": area_name(en["base"]) if en["base"] else None,
        "target": area_name(en["target"]),
        "cost": en["cost"],
        "seas": en["seas"],
        "gold": en["gold"],
        "defender": mark(en["defender"]),
        "dgold": en["dgold"],
        "awaiting_defense": frame.get("kind") == "defend",
        "defender_pending": mark(frame["seat"]) if frame.get("kind") == "defend" else None,
        "er": rating,
        # The odds at the ER as it stands (final once gold and any Defense are in).
        "odds": ema_odds.chance(view, en["kind"], _standing_er(rating)),
    }


def _standing_er(rating: dict[str, Any] | None) -> int | None:
    if not rating:
        return None
    value = rating.get("final", rating.get("raw"))
    return None if value is None else int(value)


def holdings_hand(view: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The viewer's own Holding cards, or None for a spectator."""
    hand = view.get("hand")
    seat = view.get("seat")
    if hand is None and seat is not None:
        hand = view["seats"][seat]["hand"]
    return None if hand is None else [ema_cards.event_card(c) for c in hand]


def current_event(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """The Event card drawn this Player-Turn, face up, and who drew it (19.1)."""
    cid = view.get("current_event")
    if not cid:
        return None
    drawer = view.get("active")
    return {
        **ema_cards.event_card(cid),
        "who": mark(drawer),
        "empire": view["seats"][drawer]["empire_name"] if drawer is not None else None,
    }


DOING = {
    "main": "plays the Player-Turn",
    "declare": "is choosing an Endeavor's {stage}",
    "att_gold": "fixes the extra gold of the Endeavor",
    "defend": "decides whether to defend",
    "def_gold": "fixes the extra gold of the Defense",
    "influence": "declares Influence cards face up before the ballot",
    "parley": "votes in secret",
    "contest": "decides whether to contest the loss by Parley",
    "give_up": "gives up the Area or is excommunicated",
    "offer": "prepares an exchange",
    "offer_reply": "answers an exchange offer",
    "agree_reply": "answers a proposed binding agreement",
    "asylum": "answers a request for asylum",
    "initiative": "chooses a place in the order of play",
    "hand_limit": "discards down to three Holding cards",
    "holding": "chooses the Area of a Holding card",
    "drop_tie": "chooses which of his Diplomatic Ties to remove",
    "claim_parley": "chooses the Area of a Claim Parley",
    "reduce_fort": "chooses a Fortification to reduce",
    "tax": "collects taxes",
    "court_move": "chooses a new Court",
    "court_return": "decides on moving the Court back",
}


def _doing(view: dict[str, Any], frame: dict[str, Any]) -> str:
    kind = frame.get("kind", "")
    if kind == "card_window":
        return f"may play a Holding card {WINDOW_REASONS.get(frame.get('why', ''), 'now')}, or pass"
    if kind == "holding" and frame.get("card"):
        return f"plays {ema_cards.event_card(frame['card'])['name']}: choosing the Area"
    if kind == "parley":
        return f"{PARLEY_TITLES.get(frame.get('type', ''), 'Parley')}: the voters decide in secret"
    return str(DOING.get(kind, kind.replace("_", " "))).format(stage=frame.get("stage", "Target"))


def deciding(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """What is being decided now, top first, and what it interrupts: public parts only."""
    out = []
    for frame in _pending(view):
        seat = frame.get("seat") if isinstance(frame.get("seat"), int) else frame.get("caller")
        out.append(
            {
                "kind": frame.get("kind"),
                "who": mark(seat) if isinstance(seat, int) else None,
                "empire": view["seats"][seat]["empire_name"] if isinstance(seat, int) else None,
                "text": _doing(view, frame),
                "why": frame.get("why"),
            }
        )
    return out


def tableau(view: dict[str, Any], prompt: dict[str, Any] | None, mark: Mark) -> dict[str, Any]:
    """Everything beside the map, for the board template."""
    me = view.get("seat")
    return {
        "seats": seats(view, mark),
        "statures": stature_display(view, mark),
        "rounds": round_track(view),
        "round": view["round"],
        "rounds_total": view["rounds"],
        "end_year": end_year(view),
        "optional": optional_rules(view, mark),
        "year": view["year"],
        "initiative": initiative(view, mark),
        "year_cards": year_cards(view, mark),
        "parley": parley(view, mark),
        "offer": offer(view, mark),
        "agreements": agreements(view, mark),
        "endeavor": endeavor(view, mark),
        "hand": holdings_hand(view),
        "event": current_event(view, mark),
        "deciding": deciding(view, mark),
        "me": me,
        "my_years": view["seats"][me]["year_cards_face_down"] if me is not None else 0,
        "inplay_any": any(s["inplay"] for s in view["seats"]),
        "event_deck": view["event_deck_count"],
        "year_deck": view["year_deck_count"],
        "discards": ema_cards.discard_summary(view["event_discard"]),
        "black_death": view["black_death"],
        "over": view["over"],
    }
