"""Holy Roman Empire: VP now, and what turns into VP (Culture, resources, Titles, buildings, army)."""

from __future__ import annotations

import math

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
# Modules (their end scoring is already in the result; these value what leads to more of it):
WAR_TOKEN = 1.0  # Module 9: each token won, beyond the majority's step
COMBAT_CARD = 0.3  # a Combat card in hand is a stronger attack to come
WYRD_DEBT = 1.5  # Module 8: an active Wyrd's penalty still to come (3-6 VP, some turns away)
GRAND_BUILDING = 1.0  # Module 3: a held building's effect at every Pass or battle to come
ALLIANCE = 1.0  # Module 5: a held Alliance paying at every Pass
# Modules 12A-15A score through the result (the Pope's 5 VP, 7 VP a flipped Poland card, the VP
# of Benjamin rewards and Crusades on the track); what is on its way: a unit on a Crusade still
# counts as a unit (it comes home or scores), a Poland step leads to a 7 VP flip and a Farm, a
# Benjamin page unlocks better rewards.
CRUSADER = UNIT
POLAND_STEP = 2.0
BENJAMIN_PAGE = 0.5


def potentials(engine: Engine, state: State) -> list[float]:
    """Per seat: the final score if the game ended now (Titles, Cities, Culture… included)
    plus resources, units, provinces held, Cities and the Culture track's progress."""
    rows = engine.result(state)["seats"]
    values = [float(row["score"]) for row in rows]
    seats = len(values)  # solo: the Lordlings hold a seat of the state but no seat of the result
    for here in state["prov"].values():
        owner = here["owner"]
        if owner is None or owner >= seats:
            continue
        values[owner] += PROVINCE + UNIT * sum(here["units"].values())
        values[owner] += CITY if here["city"] else 0.0
    for i, me in enumerate(state["seats"][:seats]):
        values[i] += RESOURCE * sum(me["res"].values()) + CARD * len(me["hand"])
        values[i] += CULTURE_STEP * me["culture"]
    _modules(state, values)
    if "m01" in state:  # the solo game: what counts is the lead over the Lordlings' score
        values[0] -= float(rows[0]["breakdown"].get("lordlings", 0))
    return values


def _modules(state: State, values: list[float]) -> None:
    """What the modules in play add toward VP still to come, per seat."""
    seats = len(values)
    if "m09" in state:
        for i in range(seats):
            values[i] += WAR_TOKEN * state["m09"]["won"][i]
            values[i] += COMBAT_CARD * len(state["m09"]["hands"][i])
    if "m08" in state:
        for i in range(min(seats, len(state["m08"]["active"]))):
            values[i] -= WYRD_DEBT * len(state["m08"]["active"][i])
    if "m03" in state:
        for built in state["m03"]["built"].values():
            if built["holder"] is not None and built["holder"] < seats:
                values[built["holder"]] += GRAND_BUILDING
    if "m05" in state:
        for ally in state["m05"]["allies"]:
            values[ally["holder"]] += ALLIANCE
    _later_modules(state, values)


def _later_modules(state: State, values: list[float]) -> None:
    """What Modules 13A-15A have on its way to score, per seat (a seat of the result)."""
    seats = len(values)
    if "m14a" in state:
        for i, units in enumerate(state["m14a"]["pool"][:seats]):
            values[i] += CRUSADER * sum(units.values())
    if "m15a" in state:
        for i, cards in enumerate(state["m15a"]["cards"][:seats]):
            values[i] += POLAND_STEP * sum(
                c["step"] for c in cards.values() if c["side"] == "aiding"
            )
    if "m13a" in state:
        for i, stack in enumerate(state["m13a"]["stacks"][:seats]):
            values[i] += BENJAMIN_PAGE * len(stack)


def solo_reward(engine: Engine, state: State) -> float:
    """The solo game (M01): the lead over the Lordlings, squashed into [0, 1] around a tie."""
    if "m01" in state:
        return 1.0 / (1.0 + math.exp(-potentials(engine, state)[0] / SCALE))
    return min(1.0, max(0.0, potentials(engine, state)[0] / 100.0))


def solo_won(engine: Engine, state: State) -> bool:
    """The solo game is won only with strictly more VP than the Lordlings (HRE-M01-SCORE-03):
    the result ranks the seat first only then."""
    return engine.returns(state)[0] > 0
