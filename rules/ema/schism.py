"""The Schism (23.0, 23.1x, 23.2; optional): Union or Schism of the Roman and Eastern Churches.

With the option `schism_crusades` the state keeps `schism` ("schism" or "union") and
`schism_row`, the Byzantine-influence condition last rolled for. Without the rule the Churches
are always in Schism (23.0 GR), which is what the rest of the engine assumes.
"""

from __future__ import annotations

from rules.ema import handlers
from rules.ema.optional_data import tables
from rules.ema.state import OWNER, TIES, Ctx, has, seats_in

ROWS = {
    1: "the Byzantine possesses Rome and alone has a Tie to it",
    2: "the Byzantine possesses Rome, and others have Ties to it (or he has none)",
    3: "the Byzantine has a Tie to Rome, which no Player possesses",
    4: "no Player possesses Rome or has a Tie to it",
    5: "no Player possesses Rome, and other Players have Ties to it",
    6: "a Player other than the Byzantine possesses Rome",
}
ROME = "rome"


def active(ctx: Ctx) -> bool:
    """Is the optional rule in use in this game?"""
    return bool(ctx.s["options"].get("schism_crusades"))


def in_union(state: dict[str, object]) -> bool:
    """RC and EO count as one Church (23.11 U); never without the rule (23.0 GR)."""
    return state.get("schism") == "union"


def byzantine(ctx: Ctx) -> int | None:
    """The Byzantine Player's seat, if the Byzantine Empire is in play."""
    return next((i for i, me in enumerate(ctx.s["seats"]) if me["empire"] == "BYZ"), None)


def condition(ctx: Ctx) -> int:
    """Which of the six Byzantine-influence conditions holds (23.0 Procedure, 23.2, A-44).

    A-44: the Byzantine holding Rome without a Tie reads row 2; a Magnate or Crusader State in Rome
    (no Player's) counts as no possession; with no Byzantine Player rows 4-6 apply; row 6 is any
    other Player's possession, Tie or not. A Byzantine Tie beside other Players' Ties (Rome
    unheld) reads row 3, the Byzantine's influence being the one the table measures.
    """
    rome = ctx.area(ROME)
    byz, owner, ties = byzantine(ctx), rome[OWNER], rome[TIES]
    if owner is not None and owner == byz:
        return 1 if seats_in(ties) == (byz,) else 2
    if owner is not None:
        return 6
    if byz is not None and has(ties, byz):
        return 3
    return 5 if ties else 4


def roll(ctx: Ctx, rule: str) -> None:
    """Roll 2d6 on the Schism Table for the condition now holding and apply it (23.11)."""
    row = condition(ctx)
    dice = ctx.roll2()
    result = tables()["schism_table"][str(row)][dice - 2]
    ctx.s["schism_row"] = row
    old = ctx.s.get("schism", "schism")
    if result == "U":
        ctx.s["schism"] = "union"
    elif result == "S":
        ctx.s["schism"] = "schism"
    else:
        ctx.s["schism"] = old
    now = "Union" if ctx.s["schism"] == "union" else "Schism"
    change = "no change" if result == "-" else ("Union" if result == "U" else "Schism")
    ctx.log(
        rule,
        f"Schism Table, condition {row} ({ROWS[row]}): roll {dice}, {change}; "
        f"the Churches are now in {now} (EMA-23.11).",
    )


def game_turn(ctx: Ctx) -> None:
    """The Theological Politics Segment at each Game-Turn's start (6.0 II, 23.0 Procedure)."""
    if active(ctx):
        ctx.s.setdefault("schism", "schism")  # the game starts in Schism
        roll(ctx, "EMA-23.0.P-Schism")


def recheck(ctx: Ctx) -> None:
    """Roll again as soon as the Byzantine-influence condition changes (23.12)."""
    watching = active(ctx) and "schism_row" in ctx.s and not ctx.s["over"]
    if watching and condition(ctx) != ctx.s["schism_row"]:
        roll(ctx, "EMA-23.12")


handlers.GAME_TURN.append(game_turn)
handlers.AFTER_ACTION.append(recheck)
