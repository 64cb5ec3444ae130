"""The registry of game engines, filled lazily from the known game packages."""

from __future__ import annotations

import importlib

from rules.core.engine import Engine

# Packages that register an engine when imported; a game joins the site by being listed here.
GAME_PACKAGES = ("rules.hre", "rules.feudal", "rules.ema")

_ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add an engine under its game id."""
    if not engine.game_id:
        raise ValueError("an engine needs a game_id")
    _ENGINES[engine.game_id] = engine
    return engine


def _load() -> None:
    for package in GAME_PACKAGES:
        importlib.import_module(package)


def all_engines() -> list[Engine]:
    """Every registered engine, ordered by game id."""
    _load()
    return [_ENGINES[key] for key in sorted(_ENGINES)]


def get_engine(game_id: str) -> Engine:
    """The engine of a game id; KeyError with the known ids otherwise."""
    _load()
    try:
        return _ENGINES[game_id]
    except KeyError:
        known = ", ".join(sorted(_ENGINES))
        raise KeyError(f"unknown game {game_id!r}; known games: {known}") from None
