"""Empires of the Middle Ages (SPI, 1980) — the rules engine."""

from rules.core.registry import register
from rules.ema import (  # noqa: F401  (each module registers its frame handlers)
    colonization,
    conquest,
    crusades,
    defense,
    diplomacy,
    domestic,
    events,
    exchange,
    gold,
    grand,
    holding,
    magnates,
    parley,
    pillage,
    raiders,
    schism,
    sequence,
    territory,
    turn,
    windows,
)
from rules.ema.engine import EmaEngine

ENGINE = register(EmaEngine())
