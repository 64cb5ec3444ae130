"""Effectiveness Ratings as players read them: each term of Section A and B, as the engine's view gives them.

The engine puts the announced Endeavor's ER in view["endeavor"]["er"] and, for the seat choosing a
Target, each Target's ER in view["targets"]; this module only lays them out (signs, operators,
names). Terms that do not add up to the engine's raw ER are not shown, so a mismatch shows as a
missing breakdown, never as a wrong one.
"""

from __future__ import annotations

from typing import Any

KIND_NAMES = {
    "conquest": "Conquest",
    "pillage": "Pillage",
    "convert": "Conversion",
    "ruling": "Ruling",
    "fortification": "Fortification",
    "diplomacy": "Diplomacy",
}


def _terms(rating: dict[str, Any]) -> list[dict[str, Any]]:
    """The terms with the operator players write before each, the first one bare."""
    terms = rating.get("terms") or []
    if sum(int(t["value"]) for t in terms) != rating.get("raw"):
        return []
    return [
        {
            "label": t["label"],
            "value": t["value"],
            "abs": abs(t["value"]),
            "op": ("−" if t["value"] < 0 else "") if i == 0 else ("−" if t["value"] < 0 else "+"),
        }
        for i, t in enumerate(terms)
    ]


def present(rating: dict[str, Any] | None, kind: str | None = None) -> dict[str, Any] | None:
    """An ER from the view, ready for the template (before gold and Defense unless it has `final`)."""
    if not rating:
        return None
    return {**rating, "kind": KIND_NAMES.get(kind or "", kind or ""), "terms": _terms(rating)}


def announced(view: dict[str, Any]) -> dict[str, Any] | None:
    """The Endeavor announced and not yet resolved: its ER step by step, Defense and gold included."""
    en = view.get("endeavor")
    if not en:
        return None
    return present(en.get("er"), en["kind"])


def targets(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Area → ER of each Target the viewer may choose now (the view has them only for the chooser)."""
    frame = view.get("deciding") or {}
    kind = frame.get("endeavor") if frame.get("kind") == "declare" else None
    out: dict[str, dict[str, Any]] = {}
    for row in view.get("targets") or []:
        found = present(row["er"], kind)
        if found is not None:
            out[row["area"]] = found
    return out
