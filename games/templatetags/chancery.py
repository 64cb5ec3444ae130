"""Small template helpers."""

from __future__ import annotations

import json
from typing import Any

from django import template

register = template.Library()


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """mapping[key], or None."""
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def as_json(value: Any) -> str:
    """Compact JSON for a form field (the template escapes it)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@register.filter
def plus_one(value: int) -> int:
    """Seat numbers as players count them."""
    return int(value) + 1


@register.simple_tag
def join_decks(user: Any, game: Any) -> list[Any]:
    """The deck menu for joining an open Feudal Lords game (empty for other games)."""
    from games.boards.feudal import decks

    return decks.join_choices(user, game)
