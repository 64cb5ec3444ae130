"""Where the EMA map draws each Area register and Sea, and the lines that join them.

The data gives each Area's longitude and latitude; at that scale the registers of Central Europe
would sit on top of each other. So, as on the printed map, the registers are laid out on a
schematic grid authored here, each near its geographic place; anything the grid does not name is
placed from its data coordinates. A few sea lanes bend round a coast (Gibraltar, Dover) so that
no line runs under a register it does not join.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.ema.metadata import components

CELL_W, CELL_H = 126, 88
REG_W, REG_H = 98, 64
SEA_W, SEA_H = 108, 30
MARGIN = 24

# (column, row) of every Area and Sea on the schematic grid, north-west at the top left.
GRID: dict[str, tuple[float, float]] = {
    "north_atlantic": (0.2, 0.4),
    "norway": (5, 0),
    "sweden": (6.5, 0.3),
    "novgorod": (10.5, 0.3),
    "scotland": (2, 1),
    "livonia": (9.1, 1.5),
    "muscovy": (12, 1.2),
    "baltic_sea": (7.6, 1.5),
    "irish_sea": (1, 2),
    "northumbria": (2.5, 2),
    "north_sea": (4, 2),
    "denmark": (5.5, 2),
    "lithuania": (9, 2.5),
    "smolensk": (10.5, 2.3),
    "ryazan": (12.5, 2.4),
    "pomerania": (7, 2.6),
    "prussia": (8, 2.75),
    "ireland": (-0.6, 3.2),
    "wales": (1.5, 3),
    "mercia": (2.5, 3),
    "friesland": (4.4, 3.1),
    "saxony": (5.5, 3.2),
    "brandenburg": (6.5, 3.6),
    "poland": (8.2, 3.65),
    "flanders": (3.6, 4.1),
    "wessex": (2.4, 3.95),
    "volhynia": (9.5, 4.3),
    "kiev": (11, 4.2),
    "lorraine": (4.6, 4.3),
    "franconia": (5.5, 4.5),
    "bohemia": (6.5, 4.7),
    "silesia": (7.6, 4.55),
    "english_channel": (1.7, 4.9),
    "normandy": (2.6, 5.5),
    "ile_de_france": (3.5, 5.35),
    "champagne": (4.8, 5.45),
    "swabia": (5.9, 5.75),
    "bavaria": (6.9, 5.9),
    "austria": (7.8, 6.1),
    "the_steppes": (11.5, 5.8),
    "hungary": (8.8, 6.2),
    "brittany": (1.6, 6.3),
    "anjou": (2.8, 6.6),
    "burgundy": (4, 6.5),
    "switzerland": (5, 6.8),
    "croatia": (7.5, 7.15),
    "wallachia": (9.9, 7.1),
    "khazar": (14, 6.3),
    "bay_of_biscay": (0.2, 7.0),
    "aquitaine": (2.1, 7.7),
    "lombardy": (5.2, 7.8),
    "verona": (6.2, 7.5),
    "venice": (7.1, 8.4),
    "serbia": (8.6, 7.75),
    "toulouse": (3, 8.6),
    "provence": (4.2, 8.7),
    "tuscany": (5.9, 8.8),
    "adriatic_sea": (8.0, 9.0),
    "bulgaria": (9.9, 8.5),
    "black_sea": (12.6, 8.0),
    "georgia": (14.8, 8.4),
    "leon": (1.2, 8.9),
    "aragon": (2.2, 9.6),
    "corsica": (4.8, 9.8),
    "rome": (6.3, 9.8),
    "macedonia": (9.0, 9.7),
    "adrianople": (10.2, 9.6),
    "constantinople": (11.4, 9.3),
    "trebizond": (13.6, 9.5),
    "portugal": (0.2, 10.1),
    "castille": (1.2, 10.2),
    "western_mediterranean": (3.3, 11.9),
    "naples": (6.6, 10.9),
    "apulia": (7.6, 10.4),
    "sardinia": (4.6, 11),
    "armenia": (15, 10.5),
    "greece": (9, 11.3),
    "asia": (11.6, 11.3),
    "anatolia": (12.6, 10.7),
    "valencia": (2.2, 10.9),
    "tyrrhenian_sea": (5.4, 11.9),
    "cordova": (0.6, 11.5),
    "granada": (1.6, 12.1),
    "sicily": (6.6, 12.5),
    "ionian_sea": (8.6, 12.3),
    "aegean_sea": (10, 12.4),
    "cilicia": (13.6, 11.9),
    "syria": (14.6, 13.1),
    "eastern_mediterranean": (11.6, 13.4),
    "jerusalem": (13.9, 14.3),
}
# Sea lanes drawn through a bend, so that they pass round a coast instead of under a register.
VIA: dict[tuple[str, str], tuple[float, float]] = {
    ("bay_of_biscay", "western_mediterranean"): (-0.9, 13.6),
    ("english_channel", "north_sea"): (3.0, 4.8),
    ("north_atlantic", "north_sea"): (2.3, 0.42),
    ("english_channel", "north_atlantic"): (-0.1, 4.1),
}


def _grid_xy(col: float, row: float) -> tuple[int, int]:
    return round(col * CELL_W), round(row * CELL_H)


def _from_data(x: int, y: int) -> tuple[int, int]:
    """Data coordinates (longitude, latitude × 10) → sheet, for anything the grid does not place."""
    return _grid_xy((x + 130) / 41.4, (620 - y) / 19.5)


@cache
def centres() -> dict[str, tuple[int, int]]:
    """Sheet centre of every Area and Sea."""
    d = components()
    out = {}
    for key, spec in [*d.areas.items(), *d.seas.items()]:
        out[key] = _grid_xy(*GRID[key]) if key in GRID else _from_data(spec["x"], spec["y"])
    return out


def size(key: str) -> tuple[int, int]:
    """Width and height of a register (Area) or label (Sea)."""
    return (SEA_W, SEA_H) if key in components().seas else (REG_W, REG_H)


def _path(a: str, b: str) -> list[tuple[int, int]]:
    pos = centres()
    bend = VIA.get((a, b)) or VIA.get((b, a))
    return [pos[a], _grid_xy(*bend), pos[b]] if bend else [pos[a], pos[b]]


def _pairs() -> dict[str, list[tuple[str, str]]]:
    """The three kinds of line, from the derived adjacency, each pair once."""
    d = components()
    land = sorted({(min(a, b), max(a, b)) for a, ns in d.land_adj.items() for b in ns})
    coast = sorted((a, s) for a, seas in d.area_seas.items() for s in seas)
    sea = sorted({(min(s, t), max(s, t)) for s, ns in d.sea_adj.items() for t in ns})
    return {"land": land, "coast": coast, "sea": sea}


@cache
def links() -> tuple[dict[str, Any], ...]:
    """Every land–land, land–sea and sea–sea line, as polyline points with its kind."""
    return tuple(
        {"kind": kind, "a": a, "b": b, "points": " ".join(f"{x},{y}" for x, y in _path(a, b))}
        for kind, pairs in _pairs().items()
        for a, b in pairs
    )


@cache
def viewbox() -> str:
    """The sheet rectangle that holds every register and Sea."""
    pos = centres()
    left = min(x - size(k)[0] // 2 for k, (x, _) in pos.items()) - MARGIN
    top = min(y - size(k)[1] // 2 for k, (_, y) in pos.items()) - MARGIN
    right = max(x + size(k)[0] // 2 for k, (x, _) in pos.items()) + MARGIN
    bottom = max(y + size(k)[1] // 2 for k, (_, y) in pos.items()) + MARGIN
    return f"{left} {top} {right - left} {bottom - top}"


def midpoint(a: str, b: str) -> tuple[int, int]:
    """Halfway along the line from a to b (where a Partial Conquest marker sits, 10.3)."""
    (x1, y1), (x2, y2) = centres()[a], centres()[b]
    return (x1 + x2) // 2, (y1 + y2) // 2
