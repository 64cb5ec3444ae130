"""The tables of the optional cases 23.0 and 24.0 (`data/optional_tables.json`), validated at load."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from rules.ema.components import DATA, DataError, load

RESULTS = ("U", "S", "-")
RAIDERS = ("vikings", "magyars", "saracens")


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise DataError(f"optional_tables.json: {message}")


@cache
def tables() -> dict[str, Any]:
    """The Schism Table (23.2), Raider schedules (24.4) and Magnate tables (24.91-24.93)."""
    with open(DATA / "optional_tables.json", encoding="utf-8") as handle:
        found: dict[str, Any] = json.load(handle)
    schism = found["schism_table"]
    _need(sorted(schism) == [str(k) for k in range(1, 7)], "23.2 has six conditions")
    for row, cells in schism.items():
        _need(len(cells) == 11 and set(cells) <= set(RESULTS), f"23.2 row {row}: 11 of U, S, -")
    _need(sorted(found["raider_schedules"]) == sorted(RAIDERS), "24.4 names three Raiders")
    for name, schedule in found["raider_schedules"].items():
        for gt, stature in schedule.items():
            _need(
                (int(gt) - 1) % 25 == 0 and 776 <= int(gt) <= 1076 and stature in (3, 5, 9),
                f"24.4 {name} {gt}: a Game-Turn of 776-1076 and a Stature 3, 5 or 9",
            )
    areas = load().areas
    for key in ("magnate_matrix_1", "magnate_matrix_2"):
        matrix = found[key]
        _need(len(matrix) == 6 and all(len(r) == 6 for r in matrix), f"24.92 {key} is 6 x 6")
        _need(all(a in areas for r in matrix for a in r), f"24.92 {key} names a Land Area")
    _need(found["syrian_table"] == [5, 5, 5, 9, 0, 0], "24.93: 1-3 Stature 5, 4 Stature 9")
    _need(len(found["magnate_appearance"]) == 6, "24.91 is rolled on one die")
    return found
