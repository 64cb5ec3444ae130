"""The bots: a registry of bot kinds over the engine contract, and one call to make a decision.

The site and the command line read `BOTS` (what to offer) and call `choose`. Each bot is one
module here giving a `Bot` (its kind and its chooser); adding one is a file and a line below.
See ARCHITECTURE §bots and /work/brief/BOTS-INTERFACE.md for the interface.
"""

from __future__ import annotations

from typing import Any

from rules.bots import greedy, random_bot, search
from rules.bots.base import Bot, BotKind, Budget
from rules.core.engine import Engine, State

# Weakest first: the order the site lists them in.
REGISTRY: list[Bot] = [random_bot.BOT, greedy.BOT, *search.BOTS]
BOTS: list[BotKind] = [bot.kind for bot in REGISTRY]
_BY_SLUG = {bot.kind.slug: bot for bot in REGISTRY}

__all__ = ["BOTS", "BotKind", "Budget", "choose", "get_bot"]


def get_bot(slug: str) -> BotKind:
    """The bot kind with this slug; KeyError with a readable message when there is none."""
    bot = _BY_SLUG.get(slug)
    if bot is None:
        known = ", ".join(k.slug for k in BOTS)
        raise KeyError(f"There is no bot called {slug!r} (known: {known}).")
    return bot.kind


def choose(
    slug: str, engine: Engine, state: State, seat: int, seed: int, budget: Budget | None = None
) -> Any:
    """The action (one of the seat's prompt options) a bot of this kind picks.

    Pure for a given (state, seed, budget with iterations): `state` is never changed.
    Raises ValueError when the seat has nothing to decide.
    """
    get_bot(slug)
    bot = _BY_SLUG[slug]
    prompt = engine.prompt_for(state, seat)
    if prompt is None or not prompt["options"]:
        raise ValueError(f"Seat {seat + 1} has nothing to decide now.")
    options = prompt["options"]
    if len(options) == 1:
        return options[0]["action"]
    return bot.choose(engine, state, seat, options, seed, budget or bot.kind.budget)["action"]
