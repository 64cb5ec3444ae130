"""Holy Roman Empire: VP now, and what turns into VP (Culture, resources, Titles, buildings, army)."""

from __future__ import annotations

from rules.core.engine import Engine, State

SCALE = 8.0
# Resources pay for buildings and technologies that score; a unit holds and takes provinces;
# a card in hand is a future action. Weights are in VP, set by arena play.
RESOURCE = 0.4
UNIT = 0.6
PROVINCE = 1.2
CITY = 1.0
CARD = 0.3
CULTURE_STEP = 0.3


def potentials(engine: Engine, state: State) -> list[float]:
    """Per seat: the final score if the game ended now (Titles, Cities, Culture… included)
    plus resources, units, provinces held, Cities and the Culture track's progress."""
    rows = engine.result(state)["seats"]
    values = [float(row["score"]) for row in rows]
    for here in state["prov"].values():
        owner = here["owner"]
        if owner is None:
            continue
        values[owner] += PROVINCE + UNIT * sum(here["units"].values())
        values[owner] += CITY if here["city"] else 0.0
    for i, me in enumerate(state["seats"]):
        values[i] += RESOURCE * sum(me["res"].values()) + CARD * len(me["hand"])
        values[i] += CULTURE_STEP * me["culture"]
    return values


def solo_reward(engine: Engine, state: State) -> float:
    """HRE has no solitaire scenario; a lone seat's reward is its score, squashed."""
    return min(1.0, max(0.0, potentials(engine, state)[0] / 100.0))


def solo_won(engine: Engine, state: State) -> bool:
    """No solitaire scenario: a lone seat always ranks first."""
    return engine.returns(state)[0] > 0
