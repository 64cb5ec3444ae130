"""Our one-line summaries of each game's rules, keyed by the rule ids that logs and prompts cite.

The summaries live beside the engine's data (named by rules.<game>.metadata.RULE_SUMMARIES) so
they change with the rules, but only the site reads them: engines never need prose. Each game's
board package (games/boards/<game>/rulebook.py) heads them with its rulebook's own sections.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from django.urls import reverse

from games import boards


class UnknownGame(LookupError):
    """A rules page was asked for a game the site does not know."""


@functools.cache
def summaries(game: str) -> dict[str, str]:
    """Rule id → our summary for a game; empty when the site does not know the game."""
    board = boards.find(game)
    if board is None or not board.summaries.is_file():
        return {}
    loaded = json.loads(board.summaries.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in loaded.items()}


def sections(game: str) -> list[dict[str, Any]]:
    """Summaries grouped by the game's rulebook sections, in rulebook order, rules in id order.

    Raises UnknownGame for a game without a board package (the rules page answers 404).
    """
    board = boards.find(game)
    if board is None:
        raise UnknownGame(game)
    groups: dict[str, list[dict[str, str]]] = {}
    intros: dict[str, dict[str, str]] = {}
    for rule, text in sorted(summaries(game).items()):
        area = board.area(rule)
        if board.intro is not None and board.intro(area) == rule:
            intros[area] = {"id": rule, "text": text}
        else:
            groups.setdefault(area, []).append({"id": rule, "text": text})
    order = list(board.headings)
    keys = sorted(
        set(groups) | set(intros),
        key=lambda a: (order.index(a) if a in order else len(order), a),
    )
    return [
        {
            "area": a or "other",
            "title": board.headings.get(a) or a.title() or "Other",
            "intro": intros.get(a),
            "rules": groups.get(a, []),
        }
        for a in keys
    ]


def link(game: str, rule: str) -> dict[str, str] | None:
    """A rule reference for the page: id, link to our summary, and the summary as a tooltip."""
    if not rule:
        return None
    text = summaries(game).get(rule, "")
    return {"id": rule, "url": f"{reverse('rules', args=[game])}#{rule}", "summary": text}
