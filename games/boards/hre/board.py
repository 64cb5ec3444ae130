"""The HRE board: provinces, links and pieces as SVG-ready data, from a seat's view.

Only the engine's per-seat view is read, so nothing hidden can reach the page: Barbarian tokens
arrive as the side facing up, hands as counts. Where the prompt chooses a province, the province
carries the indices of the options naming it, so the board can submit or narrow them, and the
same choices stay buttons in the prompt bar.
"""

from __future__ import annotations

import functools
from typing import Any

import orjson

from games.boards.common import Prompt, View, seat_mark
from games.boards.common import pick as _pick
from games.boards.hre import domain, tableau
from games.boards.hre import modules as hre_modules
from games.boards.hre.cards import amounts
from games.kept import Kept
from rules.hre.metadata import components

UNIT_LETTERS = {"infantry": "I", "archer": "A", "cavalry": "C"}
RESOURCE_LETTERS = {"wood": "W", "leather": "L", "stone": "S", "iron": "I"}

# The data's coordinates sit on a 1000×1000 sheet; stretching it a little gives registers
# (W×H sheet units) room to hold their pieces without overlapping the nearest neighbours.
SCALE_X, SCALE_Y = 1.3, 1.15
REG_W, REG_H = 88, 76
MARGIN = 14
SHORT_NAMES = {
    "Lower Lotharingia": "L. Lotharingia",
    "Upper Lotharingia": "U. Lotharingia",
    "Upper Burgundy": "U. Burgundy",
}


def _option_province(action: Any) -> tuple[str | None, str | None]:
    """The province an option chooses, and where a move comes from (for drawing its arrow)."""
    if not isinstance(action, dict):
        return None, None
    for key in ("prov", "to", "from"):
        if isinstance(action.get(key), str):
            src = action.get("from") if key == "to" else None
            return action[key], src if isinstance(src, str) else None
    return None, None


def picks(prompt: dict[str, Any] | None) -> dict[str, list[int]]:
    """Province id → indices of the prompt options that choose it."""
    found: dict[str, list[int]] = {}
    for i, opt in enumerate(prompt["options"] if prompt else []):
        prov, _src = _option_province(opt["action"])
        if prov is not None:
            found.setdefault(prov, []).append(i)
    return found


def _sheet(x: int, y: int) -> tuple[int, int]:
    """Data coordinates → sheet coordinates (centre of the register)."""
    return round(x * SCALE_X), round(y * SCALE_Y)


def _barbarians(barb: dict[str, Any] | None, token_set: str) -> dict[str, Any] | None:
    """The face-up side of a Barbarian token, as short text; the other side is not in the view.

    Module 7's Skirmisher tokens (HRE-M07-SETUP-01) are named and tinted as such."""
    if barb is None:
        return None
    name = "Skirmishers" if token_set == "skirmisher" else "Barbarians"
    shows = barb["shows"]
    if barb["face"] == "units":
        text = " ".join(f"{UNIT_LETTERS[u]}{n}" for u, n in shows.items() if n)
        full = ", ".join(f"{n} {u}" for u, n in shows.items() if n)
        return {
            "face": "units",
            "text": text,
            "squeeze": False,
            "set": token_set,
            "title": f"{name} (army side): {full}",
        }
    reward = "extra turn" if shows.get("extra_turn") else amounts(shows.get("gain", {}))
    return {
        "face": "reward",
        "text": f"+{reward}",
        "squeeze": len(reward) > 12,
        "set": token_set,
        "title": f"{name} (reward side): {reward}",
    }


def _describe(
    spec: dict[str, Any], here: dict[str, Any], region: str, barb: dict[str, Any] | None
) -> str:
    """One sentence for a tooltip and screen readers."""
    parts = [f"{spec['name']} ({region}, {spec['resource']})"]
    parts.append(f"seat {here['owner'] + 1}" if here["owner"] is not None else "unclaimed")
    units = ", ".join(f"{n} {u}" for u, n in here["units"].items() if n)
    pieces = [p for p, on in (("City", here["city"]), ("Church", here["church"])) if on]
    if here["keep"]:
        pieces.append(f"Keep {here['keep']}")
    if here["farms"]:
        pieces.append(f"{here['farms']} Farm{'s' if here['farms'] > 1 else ''}")
    pieces.append("buildings: " + (", ".join(here["bld"]) or "none"))
    return "; ".join(
        p for p in [*parts, units, ", ".join(pieces), barb["title"] if barb else ""] if p
    )


def _pieces(here: dict[str, Any]) -> list[dict[str, Any]]:
    """City, Church, Keep and Farms as icons laid out left to right (x in register units)."""
    icons: list[dict[str, Any]] = []
    if here["city"]:
        icons.append({"icon": "city", "n": None, "label": "City"})
    if here["church"]:
        icons.append({"icon": "church", "n": None, "label": "Church"})
    if here["keep"]:
        icons.append({"icon": "keep", "n": here["keep"], "label": f"Keep level {here['keep']}"})
    if here["farms"]:
        icons.append({"icon": "farm", "n": here["farms"], "label": f"{here['farms']} Farm(s)"})
    x = 4
    for icon in icons:
        icon["x"] = x
        x += 14 if icon["n"] is None else 22
    return icons


def province(
    pid: str,
    here: dict[str, Any],
    indices: list[int] | None,
    prompt: dict[str, Any] | None,
    battle_at: str | None,
    token_set: str = "barbarian",
) -> dict[str, Any]:
    """One province register, ready to draw."""
    drawn = _register(pid, here, token_set)
    # A fresh dict and pieces list: a module's pieces are appended to them (_add_pieces).
    return {
        **drawn,
        "pieces": list(drawn["pieces"]),
        "battle": pid == battle_at,
        "pick": _pick(indices, prompt),
    }


# Registers as drawn from (province, what the view shows there, token set): a move changes a
# few provinces, and every board drawn works out all of them (a third of HRE's board context).
_REGISTERS: Kept[bytes, dict[str, Any]] = Kept(4096)


def _register(pid: str, here: dict[str, Any], token_set: str) -> dict[str, Any]:
    key = orjson.dumps([pid, here, token_set], option=orjson.OPT_NON_STR_KEYS)
    found = _REGISTERS.get(key)
    if found is not None:
        return found
    data = components()
    spec = data.provinces[pid]
    region = data.regions[spec["region"]]
    cx, cy = _sheet(spec["x"], spec["y"])
    barb = _barbarians(here["barb"], token_set)
    drawn = {
        "id": pid,
        "name": spec["name"],
        "short": SHORT_NAMES.get(spec["name"], spec["name"]),
        "squeeze_name": len(SHORT_NAMES.get(spec["name"], spec["name"])) > 13,
        "cx": cx,
        "cy": cy,
        "x": cx - REG_W // 2,
        "y": cy - REG_H // 2,
        "fill": region["colour"],
        "region": region["name"],
        "owner": seat_mark(here["owner"]),
        "resource": {"res": spec["resource"], "letter": RESOURCE_LETTERS[spec["resource"]]},
        "units": [
            {"letter": UNIT_LETTERS[u], "n": n, "name": u} for u, n in here["units"].items() if n
        ],
        "pieces": _pieces(here),
        "bld": [
            {"res": r, "letter": RESOURCE_LETTERS[r], "x": 4 + 14 * i}
            for i, r in enumerate(here["bld"])
        ],
        "barb": barb,
        "title": _describe(spec, here, region["name"], barb),
    }
    _REGISTERS.put(key, drawn)
    return drawn


def _links(live: set[str]) -> list[dict[str, Any]]:
    """Land borders and water links between provinces in play, each once."""
    return list(_links_among(frozenset(live)))


@functools.lru_cache(maxsize=64)
def _links_among(live: frozenset[str]) -> tuple[dict[str, Any], ...]:
    # The same provinces are in play all game: the links are worked out once (never changed).
    data = components()
    links = []
    for pid in sorted(live):
        spec = data.provinces[pid]
        for kind in ("land", "water"):
            for other in spec[kind]:
                if other in live and pid < other:
                    x1, y1 = _sheet(spec["x"], spec["y"])
                    x2, y2 = _sheet(data.provinces[other]["x"], data.provinces[other]["y"])
                    links.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2, "water": kind == "water"})
    return tuple(links)


def _arrows(prompt: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Arrows for options that move units, stopping short of the destination register."""
    data = components()
    arrows = []
    for opt in prompt["options"] if prompt else []:
        dest, src = _option_province(opt["action"])
        if dest is None or src is None or src not in data.provinces:
            continue
        x1, y1 = _sheet(data.provinces[src]["x"], data.provinces[src]["y"])
        x2, y2 = _sheet(data.provinces[dest]["x"], data.provinces[dest]["y"])
        # Stop at the register's edge, so the arrowhead stays visible above the box.
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, 1 - 1 / max(abs(dx) / (REG_W / 2 + 4), abs(dy) / (REG_H / 2 + 4), 1.0))
        arrows.append({"x1": x1, "y1": y1, "x2": round(x1 + dx * t), "y2": round(y1 + dy * t)})
    return arrows


def _viewbox(provinces: list[dict[str, Any]]) -> str:
    """Just the part of the sheet the provinces in play cover, so small maps draw larger."""
    if not provinces:
        return "0 0 1000 1000"
    left = min(p["x"] for p in provinces) - MARGIN
    top = min(p["y"] for p in provinces) - MARGIN
    right = max(p["x"] for p in provinces) + REG_W + MARGIN
    bottom = max(p["y"] for p in provinces) + REG_H + MARGIN
    return f"{left} {top} {right - left} {bottom - top}"


def board_context(view: View, prompt: Prompt | None) -> dict[str, Any]:
    """Map, tracks, offer, action cards, Titles, battle and seat summaries for one viewer."""
    chosen = picks(prompt)
    battle_at = view["battle"]["prov"] if view.get("battle") else None
    provinces = [
        province(pid, here, chosen.get(pid), prompt, battle_at, view.get("token_set", "barbarian"))
        for pid, here in sorted(view["provinces"].items())
    ]
    extra = hre_modules.map_pieces(view, seat_mark)
    for p in provinces:
        if p["id"] in extra:
            _add_pieces(p, extra[p["id"]])
    viewbox = _viewbox(provinces)
    seam = domain.seam(provinces, REG_W, REG_H, viewbox) if view.get("great_domain") else {}
    return {
        "provinces": provinces,
        "links": _links({p["id"] for p in provinces}),
        "arrows": _arrows(prompt),
        "viewbox": domain.room_above(viewbox) if seam else viewbox,
        "seam": seam,  # Module 2: the join between the two halves (HRE-M02-SETUP-01)
        "choosing": bool(chosen),
        "marks": [seat_mark(i) for i in range(len(view["seats"]))],
        "reg_w": REG_W,
        "reg_h": REG_H,
        **tableau.tableau(view, seat_mark),
        "modules": hre_modules.modules(view, seat_mark),
    }


def _add_pieces(drawn: dict[str, Any], pieces: list[dict[str, Any]]) -> None:
    """A module's pieces after the base ones, in the same row, and in the tooltip."""
    x = max((i["x"] + (14 if i["n"] is None else 22) for i in drawn["pieces"]), default=4)
    for piece in pieces:
        drawn["pieces"].append({**piece, "x": x})
        x += 14
    drawn["title"] += "; " + "; ".join(piece["label"] for piece in pieces)
