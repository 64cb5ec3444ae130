"""Module 2's joined board on the page: the join between the two halves, the joined Culture board.

The join (HRE-M02-SETUP-01) is drawn as the line that runs between the two halves' registers,
at an equal distance from the nearest register of each, with each half named beside it. The
joined Culture board (HRE-M02-SETUP-05, PLAY-02) keeps the track's length: each red space opens
two more offer cards, so each space and card says which it opens and where it opens.
Everything here is static data or the view's public numbers.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from rules.hre.metadata import module_data

ROW = 10  # sheet units between the rows where the join line is found
LABEL_ROOM = 26  # sheet units above the top row of registers, for the halves' names


@functools.cache
def western() -> frozenset[str]:
    """The provinces of the authored western half (rules/hre/data/m02_great_domain.json)."""
    return frozenset(p["id"] for p in module_data("M02")["provinces"])


Box = tuple[int, int, int, int]


def _gap(x: float, y: float, boxes: tuple[Box, ...]) -> float:
    """Distance from a point to the nearest of the boxes (0 inside one)."""
    best = math.inf
    for left, top, right, bottom in boxes:
        dx = max(left - x, 0, x - right)
        dy = max(top - y, 0, y - bottom)
        best = min(best, dx * dx + dy * dy)
    return math.sqrt(best)


def _crossing(y: float, west: tuple[Box, ...], central: tuple[Box, ...], span: Box) -> float | None:
    """Where, on the row at `y`, a point is as near the western half as the central one."""
    low, high = float(span[0]), float(span[2])
    if _gap(low, y, west) >= _gap(low, y, central) or _gap(high, y, west) <= _gap(high, y, central):
        return None
    for _ in range(12):
        mid = (low + high) / 2
        if _gap(mid, y, west) < _gap(mid, y, central):
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _simplify(points: list[tuple[float, float]], tolerance: float) -> list[tuple[float, float]]:
    """Ramer-Douglas-Peucker: the fewest points that stay within `tolerance` of the line."""
    if len(points) < 3:
        return points
    (x1, y1), (x2, y2) = points[0], points[-1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    far, at = 0.0, 0
    for i, (x, y) in enumerate(points[1:-1], 1):
        off = abs((y2 - y1) * x - (x2 - x1) * y + x2 * y1 - y2 * x1) / length
        if off > far:
            far, at = off, i
    if far <= tolerance:
        return [points[0], points[-1]]
    return _simplify(points[: at + 1], tolerance)[:-1] + _simplify(points[at:], tolerance)


@functools.lru_cache(maxsize=8)
def _seam(west: tuple[Box, ...], central: tuple[Box, ...], span: Box) -> dict[str, Any]:
    # The provinces in play never change during a game: worked out once per player count.
    points = []
    y = float(span[1])
    while y <= span[3]:
        x = _crossing(y, west, central, span)
        if x is not None:
            points.append((x, y))
        y += ROW
    kept = _simplify(points, 3.0)
    if not kept:
        return {}
    top_x = round(kept[0][0])
    return {
        "path": "M" + " L".join(f"{round(x)} {round(y)}" for x, y in kept),
        "label_x": top_x,
        "label_y": span[1] - 9,
    }


def seam(provinces: list[dict[str, Any]], reg_w: int, reg_h: int, viewbox: str) -> dict[str, Any]:
    """The join line between the halves as an SVG path, and where the halves' names go."""
    boxes: dict[bool, list[Box]] = {True: [], False: []}
    for p in provinces:
        boxes[p["id"] in western()].append((p["x"], p["y"], p["x"] + reg_w, p["y"] + reg_h))
    if not boxes[True] or not boxes[False]:
        return {}
    left, top, width, height = (int(v) for v in viewbox.split())  # before room_above
    return _seam(tuple(boxes[True]), tuple(boxes[False]), (left, top, left + width, top + height))


def room_above(viewbox: str) -> str:
    """The viewbox with room at the top for the halves' names."""
    left, top, width, height = (int(v) for v in viewbox.split())
    return f"{left} {top - LABEL_ROOM} {width} {height + LABEL_ROOM}"


def culture_board(table: dict[str, int], track: list[dict[str, Any]]) -> dict[str, Any]:
    """The joined Culture board: which offer cards each red space opens (HRE-M02-PLAY-02)."""
    opens: dict[int, tuple[int, int]] = {}
    reached = table["base_access"]
    for space in track:
        if space["red"]:
            opens[space["n"]] = (reached + 1, reached + table["per_red"])
            reached += table["per_red"]
    return {
        "offer_size": table["offer_size"],
        "base_access": table["base_access"],
        "per_red": table["per_red"],
        "opens": opens,
        # offer position (1-based) -> the Culture space that opens it; the first ones are open
        "opened_by": {pos: n for n, (a, b) in opens.items() for pos in range(a, b + 1)},
    }


def joined(view: dict[str, Any], track: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What the page draws of the joined Culture board, when the game plays on it."""
    found = view.get("great_domain")
    if not found:
        return None
    return culture_board(found["table"], track)
