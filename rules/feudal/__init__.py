"""Dark Age: Feudal Lords — the card game engine."""

from rules.core.registry import register
from rules.feudal import (  # noqa: F401  (each module registers its frame handlers)
    action,
    arming,
    close_combat,
    combat_pre,
    distance_fire,
    draft,
    end_of_combat,
    flow,
    instants,
    markers,
    multiplayer,
    resources,
    sending,
    setup,
    solitaire,
    stockpile,
)
from rules.feudal.engine import FeudalEngine

ENGINE = register(FeudalEngine())
