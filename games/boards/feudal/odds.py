"""The chance of a Feudal Lords roll, as a player works it out at the table.

A draft (FL-DRAFT-04): one die, plus the Leadership paid as sway, must reach the character's
Control; a natural 1 fails (FL-DRAFT-06, A-12) unless a +1 marker rescues it afterwards, which the
chance shown here leaves out (it is offered, when it helps, after the roll).
"""

from __future__ import annotations

from typing import Any

from rules.feudal.metadata import components


def draft(control: int, sway: int) -> dict[str, Any]:
    """{needs, percent, text}: the faces 2-6 that reach Control with the sway, over six."""
    hits = sum(1 for face in range(2, 7) if face + sway >= control)
    needs = max(2, control - sway)
    percent = round(100 * hits / 6)
    if hits == 0:
        return {"needs": None, "percent": 0, "text": "cannot succeed: 0%"}
    return {"needs": needs, "percent": percent, "text": f"needs {needs}+ on a die: {percent}%"}


def notes(prompt: dict[str, Any] | None) -> list[str]:
    """One note per option of the prompt ("" where no roll is involved)."""
    if not prompt:
        return []
    out = []
    for option in prompt["options"]:
        action = option["action"]
        note = ""
        if isinstance(action, dict) and action.get("do") == "draft":
            spec = components().cards.get(str(action.get("card")))
            if spec is not None and isinstance(action.get("sway"), int):
                note = draft(int(spec["control"]), action["sway"])["text"]
        out.append(note)
    return out
