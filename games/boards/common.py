"""Helpers every game's board uses to tie board elements to the prompt's options."""

from __future__ import annotations

from typing import Any


def pick(indices: list[int] | None, prompt: dict[str, Any] | None) -> dict[str, Any] | None:
    """How a board element answers the prompt: one option submits it, several narrow the buttons."""
    if not indices or prompt is None:
        return None
    labels = [prompt["options"][i]["label"] for i in indices]
    return {
        "options": " ".join(str(i) for i in indices),
        "single": indices[0] if len(indices) == 1 else None,
        "label": labels[0] if len(labels) == 1 else f"{len(labels)} choices: " + "; ".join(labels),
    }
