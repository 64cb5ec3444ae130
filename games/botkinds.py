"""The bots the site offers, read from the bot registry `rules.bots.BOTS` (a leaf module).

Seat choices on the new-game page, in the API, in the admin and for a timed-out seat all come
from here, so adding a bot to the registry is all it takes to offer it.
"""

from __future__ import annotations

from rules.bots import BOTS, BotKind, Budget, get_bot

# A new bot seat, and a seat a bot takes over (timeout, resignation), gets the normal search bot.
DEFAULT = "search"
TAKEOVER = "search"
# A bot turn whose worker died is given to another once its claim is this much older than its
# budget; with the 5 s sweep a lost turn is back within budget + 11 s (the strong bot: 14 s).
LEASE_MARGIN_S = 6


def label(kind: BotKind) -> str:
    """How a seat choice names a bot kind: 'Search — normal'."""
    return f"{kind.name} — {kind.level}"


def choices() -> list[tuple[str, str]]:
    """(slug, label) for every bot kind, weakest first: the Seat model's choices."""
    return [(kind.slug, label(kind)) for kind in BOTS]


def offered() -> list[tuple[str, str]]:
    """The seat choices of the new-game page: the default bot first, then the others."""
    return sorted(choices(), key=lambda choice: choice[0] != DEFAULT)


def slugs() -> set[str]:
    """Every bot slug the registry knows."""
    return {kind.slug for kind in BOTS}


def name_of(slug: str) -> str:
    """A bot's label by slug; the slug itself for one the registry no longer has."""
    try:
        return label(get_bot(slug))
    except KeyError:
        return slug


def budget_of(slug: str) -> Budget | None:
    """The budget a bot of this kind thinks within on the site (None: the kind's own)."""
    try:
        return get_bot(slug).budget
    except KeyError:
        return None


def lease_seconds(slug: str) -> int:
    """How long a claimed bot turn may run before the sweep gives it to another worker."""
    budget = budget_of(slug)
    thinking = (budget.ms or 0) // 1000 if budget is not None else 0
    return thinking + LEASE_MARGIN_S
