"""Empires of the Middle Ages: VP now, plus Areas held, Social State, gold and Statures."""

from __future__ import annotations

import math

from rules.core.engine import Engine, State
from rules.ema.state import OWNER, SS

SCALE = 12.0
AREA = 1.5  # an Area held, linked to the Court or not, is VP to come
SOCIAL = 0.5  # Social State of held Areas beyond what the VP already count
GOLD = 0.3
STATURE = 0.6  # per step of a Stature (1, 2, 3, 5, 9): better Endeavors
STEPS = {1: 0, 2: 1, 3: 2, 5: 3, 9: 4}
# The solitaire levels of 27.91 (EMA-27.9): a win counts from "Good" (91 VP) up.
SOLO_GOOD = 91


def potentials(engine: Engine, state: State) -> list[float]:
    """Per seat: VP if the game ended now plus Areas held, their SS, gold and Statures."""
    rows = engine.result(state)["seats"]
    values = [float(row["score"]) for row in rows]
    for here in state["areas"].values():
        owner = here[OWNER]
        if isinstance(owner, int) and not isinstance(owner, bool) and 0 <= owner < len(values):
            values[owner] += AREA + SOCIAL * here[SS]
    for i, me in enumerate(state["seats"]):
        values[i] += GOLD * me["gold"]
        values[i] += STATURE * sum(STEPS.get(v, 0) for v in me["st"].values())
    return values


def solo_won(engine: Engine, state: State) -> bool:
    """The solitaire game is won at the "Good" level of 27.91 or better (EMA-27.9)."""
    return engine.result(state)["seats"][0]["score"] >= SOLO_GOOD


def solo_reward(engine: Engine, state: State) -> float:
    """A reward in [0, 1] centred on the "Good" level."""
    if engine.is_over(state):
        return 1.0 if solo_won(engine, state) else 0.0
    return 1.0 / (1.0 + math.exp(-(potentials(engine, state)[0] - SOLO_GOOD) / 20.0))
