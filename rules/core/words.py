"""Counted words and ordinals as players read them, shared by every engine's prompts and log."""

from __future__ import annotations


def counted(n: int, word: str, many: str | None = None) -> str:
    """ "1 card", "3 cards"; `many` where the plural is not the word and an s ("3 Areas")."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def ordinal(n: int) -> str:
    """ "1st", "2nd", "3rd", "4th", "11th", "21st"."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"
