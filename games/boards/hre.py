"""The HRE board: provinces, links and pieces as SVG-ready data, from a seat's view.

Where the prompt chooses a province, the province carries the option's index so the board can
submit it, and the same choice stays a button in the prompt bar.
"""

from __future__ import annotations

from typing import Any

from rules.hre.components import load

COLOURS = ["#c0392b", "#2471a3", "#d4ac0d", "#7d3c98"]
MARKS = ["▲", "●", "■", "◆"]


def _choices(prompt: dict[str, Any] | None) -> dict[str, int]:
    """Province id → option index, for prompts whose options each name one province."""
    if prompt is None:
        return {}
    found: dict[str, int] = {}
    for i, opt in enumerate(prompt["options"]):
        action = opt["action"]
        if isinstance(action, dict):
            prov = action.get("prov") or action.get("to")
            if isinstance(prov, str) and prov not in found:
                found[prov] = i
    return found


def board_context(view: dict[str, Any], prompt: dict[str, Any] | None) -> dict[str, Any]:
    """Provinces with position, region colour, owner and pieces; links as line segments."""
    data = load()
    choices = _choices(prompt)
    provinces = []
    for pid, here in sorted(view["provinces"].items()):
        spec = data.provinces[pid]
        owner = here["owner"]
        provinces.append({
            "id": pid, "name": spec["name"], "x": spec["x"], "y": spec["y"],
            "region": data.regions[spec["region"]]["colour"], "resource": spec["resource"],
            "owner": owner, "colour": COLOURS[owner] if owner is not None else "#ffffff",
            "mark": MARKS[owner] if owner is not None else "",
            "units": here["units"], "farms": here["farms"], "city": here["city"],
            "church": here["church"], "keep": here["keep"], "bld": here["bld"], "barb": here["barb"],
            "choice": choices.get(pid),
        })
    live = {p["id"] for p in provinces}
    links = []
    for pid in sorted(live):
        spec = data.provinces[pid]
        for kind in ("land", "water"):
            for other in spec[kind]:
                if other in live and pid < other:
                    far = data.provinces[other]
                    links.append({"x1": spec["x"], "y1": spec["y"], "x2": far["x"], "y2": far["y"],
                                  "water": kind == "water"})
    return {"provinces": provinces, "links": links, "colours": COLOURS, "marks": MARKS,
            "cards": data.cards, "rulers": data.rulers, "titles": data.titles}
