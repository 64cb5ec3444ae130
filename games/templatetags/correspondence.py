"""Template tags for correspondence play: seat clocks and the player's mail settings."""

from __future__ import annotations

from typing import Any

from django import template

from games import clocks, notify
from games.models import Game, MailPreference

register = template.Library()


@register.simple_tag
def seat_clock(game: Game, index: int) -> dict[str, Any] | None:
    """The clock of a seat (None when the game has no time control)."""
    return clocks.seat_clock(game, index)


@register.simple_tag
def mail_settings(user: Any) -> dict[str, Any]:
    """The player's mail mode and vacation allowance, for the profile page."""
    pref = notify.preference(user)
    return {
        "pref": pref,
        "modes": MailPreference.Mode.choices,
        "vacation_left": clocks.vacation_left(pref),
        "on_vacation": clocks.on_vacation(pref),
    }
