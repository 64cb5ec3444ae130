"""Everything of the HRE board beside the map: seats, tracks, offer, Action cards, Titles, battle.

Built from the per-seat view only; card and track data come from the static component files.
"""

from __future__ import annotations

from typing import Any

from games.boards.common import Mark
from games.boards.hre import cards as hre_cards
from games.boards.hre import domain, expansions
from rules.hre.metadata import RESOURCES, components, offer_reach

ACTION_NAMES = {
    "build": "Build",
    "culture": "Development of Culture",
    "research": "Research",
    "recruit": "Recruit",
    "manoeuvre": "Manoeuvre",
}
REACTION_NAMES = {
    "recruit": "Recruit",
    "regroup": "Regroup",
    "cultural_exchange": "Cultural Exchange",
    "wood_or_stone": "Wood or Stone",
    "wood_or_leather": "Wood or Leather",
    "sell": "Sell Goods",
}
PHASES = ("Volley", "Charge", "Melee")


def _table(view: dict[str, Any]) -> dict[str, int] | None:
    """Module 2's joined table's numbers, when the game plays on it."""
    joined = view.get("great_domain")
    return joined["table"] if joined else None


def culture_track(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """The Culture track's spaces, each with its VP, red flag and the seats standing there."""
    track = components().board["culture_track"]
    return [
        {
            "n": i,
            "vp": space["vp"],
            "red": space["red"],
            "claimed": i in view["red_claimed"],
            "seats": [mark(s["seat"]) for s in view["seats"] if s["culture"] == i],
        }
        for i, space in enumerate(track)
    ]


def offer(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """The offer, left to right, with the seats whose Culture marker reaches each card."""
    reaches = [(s["seat"], offer_reach(s["culture"], _table(view))) for s in view["seats"]]
    under = set(view["wyrd"]["under"]) if "wyrd" in view else set()  # Module 8: anyone reaches
    return [
        {
            **hre_cards.card(cid),
            "pos": i + 1,
            "reached_by": [mark(seat) for seat, n in reaches if i < n or cid in under],
            "wyrd": cid in under,
        }
        for i, cid in enumerate(view["offer"])
    ]


def slots(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """Action cards in their places, disc stacks bottom first, with the two reactions beside each."""
    layout = components().board["reaction_layout"]
    table = _table(view)
    react_at = int(table["react_at"] if table else components().board["react_at"])
    return [
        {
            "action": ACTION_NAMES.get(s["action"], s["action"]),
            "stack": [mark(d) for d in s["stack"]],
            "reactions": [REACTION_NAMES.get(r, r) for r in layout[i]] if i < len(layout) else [],
            "full": len(s["stack"]) >= react_at - 1,
        }
        for i, s in enumerate(view["slots"])
    ]


def titles(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """Titles in play with their Region colour, VP, holder and whether they are ready."""
    data = components()
    rows = []
    for tid, held in view["titles"].items():
        spec = data.titles[tid]
        rows.append(
            {
                "name": spec["name"],
                "vp": spec["vp"],
                "colour": data.regions[spec["region"]]["colour"],
                "region": data.regions[spec["region"]]["name"],
                "holder": mark(held["holder"]),
                "ready": held["ready"],
                "established": held["established"],
            }
        )
    return sorted(rows, key=lambda t: (-t["vp"], t["name"]))


def church_track(view: dict[str, Any]) -> dict[str, Any]:
    """Churches built out of the track's spaces, the one whose building ends the game, and the
    Gold still under a space (Module 14A's Crusade calls)."""
    spec = dict(components().board["church_track"])
    table = _table(view)
    if table:  # Module 2's joined track (HRE-M02-SETUP-06, END-01)
        spec = {
            "spaces": table["church_spaces"],
            "end": {str(view["players"]): table["church_end"]},
        }
    end = int(spec["end"].get(str(view["players"]), spec["spaces"]))
    gold = view["crusades"]["gold"] if "crusades" in view else []
    return {
        "built": view["churches"],
        "end": end,
        "spaces": [
            {"n": i, "built": i <= view["churches"], "end": i == end, "gold": i in gold}
            for i in range(1, int(spec["spaces"]) + 1)
        ],
    }


def _techs(seat: dict[str, Any]) -> list[str]:
    """A seat's Technologies on its board, as short names with levels."""
    cards = components().cards
    common = [
        f"{cards[t['card']]['name']} {hre_cards.ROMAN.get(t['level'], t['level'])}"
        for t in seat["techs"]
    ]
    military = [
        hre_cards.half_text(cards[m["card"]]["halves"][m["half"]])
        for m in seat["mil"].values()
        if m
    ]
    return common + military


def seats(view: dict[str, Any], mark: Mark) -> list[dict[str, Any]]:
    """What everyone may see of each seat; trophies as a count, hands as a count."""
    rulers = components().rulers
    out = []
    for s in view["seats"]:
        out.append(
            {
                "index": s["seat"],
                "mark": mark(s["seat"]),
                "ruler": rulers[s["ruler"]]["name"] if s["ruler"] else None,
                "vp": s["vp"],
                "gold": s["gold"],
                "res": [{"name": r, "n": s["res"].get(r, 0)} for r in RESOURCES],
                "discs": s["discs"],
                "total_discs": s["total_discs"],
                "exhausted": s["exhausted"],
                "hand_count": s["hand_count"],
                "army_limit": s["army_limit"],
                "culture": s["culture"],
                "reach": offer_reach(s["culture"], _table(view)),
                "warehouse": s["warehouse"],
                "trophies": len(s["trophies"]),
                # Module 4: resources on the seat's Alchemist card (None: no card)
                "alchemist": view["alchemists"][s["seat"]] if "alchemists" in view else None,
                # Module 11: markers left on the Ruler card, and whom this seat pays tribute to
                "tribute": _tribute(view, s["seat"], mark),
                "campaigns": _campaigns(view, s["seat"]),
                "techs": _techs(s),
                "out": s["out"],
                "active": view["active"] == s["seat"],
                "deciding": view["deciding"] == s["seat"],
            }
        )
    return out


def _tribute(view: dict[str, Any], seat: int, mark: Mark) -> dict[str, Any] | None:
    """A seat's Tribute markers (HRE-M11): how many are free, and its suzerain if any."""
    if "tribute" not in view:
        return None
    lords = [lord for who, lord in view["tribute"]["tributaries"] if who == seat]
    return {
        "free": view["tribute"]["free"][seat],
        "pays_to": mark(lords[0]) if lords else None,
        "pays_to_seat": lords[0] if lords else None,
    }


def _campaigns(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """A seat's Campaign cards (HRE-M10): how many, the one in play; its own targets for itself."""
    if "campaigns" not in view:
        return None
    names = components().provinces
    found = view["campaigns"]
    played = found["played"][seat]
    return {
        "count": found["hand_counts"][seat],
        "played": None
        if played is None
        else names[played["target"]]["name"] + (" (won: cheap settle)" if played["won"] else ""),
        "mine": [names[c["target"]]["name"] for c in found["mine"]]
        if view.get("seat") == seat
        else [],
    }


def _unit(u: dict[str, Any], mark: Mark) -> dict[str, Any]:
    """One unit in a battle: type, owner (None for Barbarians), damage, and whether it fell."""
    return {
        "type": u["t"],
        "transient": u["tr"],
        "owner": mark(u["own"]),
        "damage": u["d"],
        "dead": u["dead"],
        "pending": u.get("p", 0),
    }


def battle(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """A battle in progress: who fights where, the phase, last rolls and each side's units."""
    frame = view.get("battle")
    if not frame:
        return None
    provinces = components().provinces
    names = ("Attacker", "Defender")
    who = (mark(frame["attacker"]), mark(frame["defender"]))
    sides = [
        {
            "name": names[i],
            "who": who[i],
            "rolls": frame["rolls"][i] if i < len(frame["rolls"]) else [],
            "units": [_unit(u, mark) for u in side],
        }
        for i, side in enumerate(frame["sides"])
    ]
    return {
        "prov": provinces[frame["prov"]]["name"],
        "origin": provinces[frame["origin"]]["name"] if frame.get("origin") else None,
        "phase": PHASES[frame["phase"]] if frame["phase"] < len(PHASES) else "Result",
        "barbarians": frame["defender"] is None,
        "sides": sides,
    }


UNIT_NAMES = {"infantry": "Infantry", "archer": "Archers", "cavalry": "Cavalry"}


def solo(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """The solo module's opponents: the Lordlings (seat 2, played by the engine) and the Raiders.

    Only what the view carries: their deck is a count, its order never leaves the engine.
    """
    found = view.get("solo")
    if not found:
        return None
    lords, raiders = found["lordlings"], found["raiders"]
    target = raiders["target"]
    return {
        "difficulty": found["difficulty"],
        "mark": mark(1),
        "lordlings": {
            **lords,
            "prep": [ACTION_NAMES[a] for a in ("research", "manoeuvre") if lords["prep"][a]],
            "levels": [{"unit": UNIT_NAMES[u], "level": n} for u, n in lords["levels"].items()],
            "discard": lords["discard"][-3:],
        },
        "raiders": {
            "party": [{"unit": UNIT_NAMES[u], "n": n} for u, n in raiders["party"].items()],
            "size": sum(raiders["party"].values()),
            "tokens": raiders["tokens"],
            "levels": [{"unit": UNIT_NAMES[u], "level": n} for u, n in raiders["levels"].items()],
            "target": components().provinces[target]["name"] if target else None,
        },
    }


def tableau(view: dict[str, Any], mark: Mark) -> dict[str, Any]:
    """Everything beside the map, for the board template."""
    track = culture_track(view, mark)
    return {
        "seats": seats(view, mark),
        "culture_track": track,
        "joined": domain.joined(view, track),  # Module 2's joined Culture board
        "offer": offer(view, mark),
        "slots": slots(view, mark),
        "titles": titles(view, mark),
        "church_track": church_track(view),
        "battle": battle(view, mark),
        "deck_count": view["deck_count"],
        "discard_count": len(view["discard"]),
        "cities_left": view["cities"],
        "hand": [hre_cards.card(c) for c in view["hand"]] if view.get("hand") is not None else None,
        "end_triggered": view.get("end_triggered", False),
        "solo": solo(view, mark),
        **expansions.panels(view, mark),
    }
