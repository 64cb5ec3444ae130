"""Feudal Lords card names as links to their pages, with a hover card (games.boards.feudal.cards)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.boards.feudal import cards

register = template.Library()


@register.filter
def card_link(cid: str) -> SafeString:
    """A card's name linking to its page, its face shown on hover or focus."""
    return mark_safe(cards.card_link(cid))  # noqa: S308 (card_link escapes every piece)
