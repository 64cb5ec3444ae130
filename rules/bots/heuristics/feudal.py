"""Feudal Lords: VP, characters in play and their strength, Supply and Leadership, cards in hand."""

from __future__ import annotations

import math
from functools import cache

from rules.core.engine import Engine, Option, State
from rules.feudal.state import card

SCALE = 3.0
STRENGTH = 0.12  # per point of a character's strength (below)
SUPPLY = 0.1  # Supply and Leadership resources
CARD = 0.15  # a card in hand
LOCATION = 0.4  # a Location with its token still up
# Under the default reading of A-24 an attack with nobody sent is called off for free and the
# seat may announce another, so a bot that prefers "attack" to "end" at every step (a search
# values the longer branch a little higher) would go round attack, "Send nobody", attack... for
# ever; a Lone attempt's die roll makes each round a new position. After this many called-off
# attacks in a turn the bots announce no more.
CALLED_OFF_ATTACKS = 2


@cache
def _strength(cid: str) -> float:
    """A character's strength: Life, plus its hit numbers in both kinds of fight, plus slots."""
    spec = card(cid)
    if spec.get("type") != "character":
        return 0.0
    fights = len(spec.get("df", [])) + len(spec.get("cc", [])) + len(spec.get("block", []))
    slots = int(spec.get("skills", 0)) + int(spec.get("weapons", 0))
    return float(spec.get("life", 0)) * 1.5 + fights + slots


def potentials(engine: Engine, state: State) -> list[float]:
    """Per seat: VP (tokens and Supplies), characters in play, resources and hand."""
    rows = engine.result(state)["seats"]
    values = [float(row["score"]) for row in rows]
    if state.get("mode") == "solitaire":
        return values
    for i, me in enumerate(state["seats"]):
        fighters = sum(
            _strength(c["card"]) + len(c["skills"]) + len(c["weapons"]) for c in me["area"]
        )
        values[i] += STRENGTH * fighters + SUPPLY * (me["sup"] + me["ld"]) + CARD * len(me["hand"])
        values[i] += LOCATION * sum(1 for loc in me["locs"] if loc["token"])
    for frame in state["stack"]:
        if frame["kind"] != "combat":
            continue
        for side in ("a", "d"):  # characters away fighting are still the owner's
            for c in frame[side]:
                strength = _strength(c["card"]) + len(c["skills"]) + len(c["weapons"])
                values[int(c["owner"])] += STRENGTH * strength
    return values


def restrain(state: State, seat: int, options: list[Option]) -> list[Option]:
    """No further attack once the seat has called off CALLED_OFF_ATTACKS this turn."""
    turn = next((frame for frame in state["stack"] if frame["kind"] == "turn"), None)
    if turn is None or turn.get("aborted", 0) < CALLED_OFF_ATTACKS:
        return options
    return [
        o
        for o in options
        if not (isinstance(o["action"], dict) and o["action"].get("do") == "attack")
    ]


def solo_won(engine: Engine, state: State) -> bool:
    """The solitaire game is won when all nine defenders are dead (FL-SOLO-18)."""
    return bool(state.get("winner") == [0])


def solo_reward(engine: Engine, state: State) -> float:
    """1 for a win, 0 for a loss; on the way, defenders killed and markers left."""
    if engine.is_over(state):
        return 1.0 if solo_won(engine, state) else 0.0
    solo = state["solo"]
    progress = solo["killed"] / 9.0 + 0.02 * solo["markers"]
    return 1.0 / (1.0 + math.exp(-4.0 * (progress - 0.5)))
