"""Modules 12A-15A beside the map: the Pope and its costs, Benjamin's route, the Crusades and
Poland's cards, from the seat's view and the modules' shipped data (face-down cards unnamed).
"""

from __future__ import annotations

from typing import Any

from games.boards.common import Mark
from rules.hre.metadata import components, module_data

UNIT_NAMES = {"infantry": "Infantry", "archer": "Archer", "cavalry": "Cavalry"}
CRUSADES = {1: "First", 2: "Second", 3: "Third"}
ACTIONS = {
    "build": "Build",
    "culture": "Development of Culture",
    "research": "Research",
    "recruit": "Recruit",
    "manoeuvre": "Manoeuvre",
}


def _amounts(values: dict[str, int]) -> str:
    return ", ".join(
        f"{n} {'VP' if k == 'vp' else 'CP' if k == 'cp' else k}" for k, n in values.items()
    )


def pope(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """The Pope card (M12A): holder, ready, and its cost table with the next Church's price."""
    found = view.get("pope")
    if found is None:
        return None
    after = found["churches"] + 1  # the next Church counts itself (AMB-63)
    costs = [
        {
            "churches": str(r["from"])
            if r["from"] == r["to"]
            else (f"{r['from']}+" if r["to"] >= 99 else f"{r['from']}–{r['to']}"),
            "cost": r["cost"],
            "next": r["from"] <= after <= r["to"],
        }
        for r in found["costs"]
    ]
    return {
        "holder": mark(found["holder"]),
        "ready": found["ready"],
        "churches": found["churches"],
        "next_cost": found["next_cost"],
        "costs": costs,
        "vp": module_data("M12A")["card"]["end_vp"],
    }


def benjamin(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """Benjamin's route (M13A): every page in play, in journey order, with who collected it."""
    found = view.get("benjamin")
    if found is None:
        return None
    cards = components().cards
    owner = {c: seat for seat, stack in enumerate(found["stacks"]) for c in stack}
    route = [
        {"n": i + 1, "stop": cards[c]["stop"], "name": cards[c]["name"], "who": mark(owner.get(c))}
        for i, c in enumerate(found["route"])
    ]
    rewards = [
        " or ".join(_reward(choice) for choice in r["choices"])
        for r in module_data("M13A")["rewards"]
    ]
    seats = [
        {"mark": mark(seat), "seat": seat, "count": len(stack), "fourth": found["fourth"][seat]}
        for seat, stack in enumerate(found["stacks"])
    ]
    return {"route": route, "rewards": rewards, "seats": seats}


def _reward(choice: dict[str, Any]) -> str:
    if "gain" in choice:
        return _amounts(choice["gain"])
    if "farm" in choice:
        return "a Farm from your track"
    return "a third Farm in each province (once)"


def _crusade_card(cid: str) -> dict[str, Any]:
    spec = next(c for c in module_data("M14A")["cards"] if c["id"] == cid)
    dv = spec["defence"]
    return {
        "name": spec["name"],
        "defence": str(dv["fixed"]) if "fixed" in dv else f"1 die + {dv['plus']}",
        "ladder": " / ".join(str(v) for v in spec["ladder"]),
        "penalty": spec["penalty"],
        "effect": spec["text"],
    }


def crusades(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """The three Crusades (M14A): face down, active or resolved; units sent; the last outcome."""
    found = view.get("crusades")
    if found is None:
        return None
    line = []
    for slot in found["line"]:
        cid = slot["card"]
        state = (
            "face down"
            if cid is None
            else "resolved"
            if cid in found["resolved"]
            else "active"
            if cid == found["active"]
            else "revealed"
        )
        line.append(
            {
                "crusade": CRUSADES[slot["crusade"]],
                "state": state,
                "card": None if cid is None else _crusade_card(cid),
            }
        )
    sent = [
        {
            "mark": mark(seat),
            "seat": seat,
            "units": ", ".join(f"{n} {UNIT_NAMES[u]}" for u, n in units.items() if n),
        }
        for seat, units in enumerate(found["pool"])
        if any(units.values())
    ]
    return {"line": line, "sent": sent, "gold": found["gold"], "last": _last(found, mark)}


def _last(found: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    last = found["last"]
    if last is None:
        return None
    markers = last["markers"] or []
    return {
        "name": _crusade_card(last["card"])["name"],
        "victory": last["victory"],
        "dv": last["dv"],
        "rows": [
            {"mark": mark(seat), "seat": seat, "markers": n, "vp": (last["vp"] or [0] * 9)[seat]}
            for seat, n in enumerate(markers)
        ],
    }


def _steps(cat: str, done: int) -> list[dict[str, Any]]:
    steps = module_data("M15A")["poland"][cat]["steps"]
    rows = []
    for i, step in enumerate(steps):
        if step.get("remove_unit"):
            what = "remove a unit: its cost in VP" + (
                f" + {step['plus']}" if step.get("plus") else ""
            )
        else:
            what = f"pay {_amounts(step['pay'])}: {step['vp']} VP"
        rows.append(
            {"action": ACTIONS[step["action"]], "what": what, "done": i < done, "next": i == done}
        )
    return rows


def poland(view: dict[str, Any], mark: Mark) -> dict[str, Any] | None:
    """Poland (M15A): each seat's three cards, their steps and side, and Chrobry's deck."""
    found = view.get("poland")
    if found is None:
        return None
    data = module_data("M15A")
    seats = []
    for seat, mine in enumerate(found["cards"]):
        cards = []
        for cat, c in mine.items():
            spec = data["poland"][cat]
            benefit = spec["benefit"]
            cards.append(
                {
                    "name": spec["flipped"] if c["side"] == "flipped" else spec["name"],
                    "side": c["side"],
                    "ready": c["ready"],
                    "first": found["first"][cat] == seat,
                    "steps": _steps(cat, c["step"]),
                    "benefit": f"with a Noble on {ACTIONS[benefit['action']]}: "
                    + (_amounts(benefit["gain"]) if "gain" in benefit else "a free Infantry"),
                    "levy": _amounts(spec["levy"]) if spec["levy"] else None,
                }
            )
        seats.append(
            {"mark": mark(seat), "seat": seat, "cards": cards, "farms": found["farms"][seat]}
        )
    events = {e["id"]: e for e in data["events"]}
    return {
        "open": found["open"],
        "seats": seats,
        "chrobry": {
            "events": "on the Chrobry events",
            "deck": "in the Culture deck",
            "gone": "out of the game",
        }[found["chrobry"]],
        "events_left": found["events_left"],
        "done": [{"name": events[e]["name"], "text": events[e]["text"]} for e in found["done"]],
    }


def panels(view: dict[str, Any], mark: Mark) -> dict[str, Any]:
    """Every panel of these modules (None for a module not in play)."""
    return {
        "pope": pope(view, mark),
        "benjamin": benjamin(view, mark),
        "crusades": crusades(view, mark),
        "poland": poland(view, mark),
    }
