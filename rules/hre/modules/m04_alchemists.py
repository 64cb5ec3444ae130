"""Module 4, Alchemists (HRE L615-629; reference §1.26): store resources, turn them into Gold.

Every player has an Alchemist card beside their Ruler (HRE-M04-SETUP-01; it is not a hand card,
so no hand limit sees it). The four cards are identical reminders (AMB-57), so the card is just a
count per seat in the state: what lies on it is no longer its owner's, and once there its kind no
longer matters, since it can only go back to the supply.

- During a Research action its player may put resources (never Gold) on it (HRE-M04-PLAY-01):
  the Research prompt offers them until the Technology is chosen.
- At any time, 3 resources from the card go back to the supply for 1 Gold (HRE-M04-PLAY-02).
  "Any time" is every prompt that seat answers, its own turn, its reactions and its Pass
  included, plus a last chance before final scoring (AMB-57), taken for them since Gold scores
  and the resources on the card do not.
- In solo you have one and the Lordlings none (HRE-M04-SOLO-01).
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.core.machine import Extension
from rules.hre import handlers
from rules.hre.handlers import option
from rules.hre.modules import declare, hook, plays
from rules.hre.state import RESOURCES, Ctx, Frame

RATE = 3  # resources returned for 1 Gold (L626)
LORDLINGS = 1  # the automa's seat in a solo game (Module 1)


def held(state: State) -> list[int | None]:
    """Resources on each seat's Alchemist card; None for a seat without one (the Lordlings)."""
    found: list[int | None] = state["m04"]["held"]
    return found


@hook
def _setup(state: State) -> None:
    """An Alchemist card for every player; none for the Lordlings (SETUP-01, SOLO-01)."""
    solo = plays(state, "M01")
    state["m04"] = {
        "held": [None if solo and i == LORDLINGS else 0 for i in range(len(state["seats"]))]
    }
    handlers.after_setup(state, "m04_setup")


@handlers.once("m04_setup")
def _log_setup(ctx: Ctx, frame: Frame) -> None:
    ctx.log("HRE-M04-SETUP-01", "Every player puts an Alchemist card beside their Ruler.")
    if None in held(ctx.s):
        ctx.log("HRE-M04-SOLO-01", "You have an Alchemist; the Lordlings get none.")


# ---------------------------------------------------------------- storing, during Research


def _store_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    if "m04" not in ctx.s or held(ctx.s)[seat] is None:
        return []
    opts = []
    for r in RESOURCES:
        have = int(ctx.seat(seat)["res"][r])
        if have >= 1:
            opts.append(
                option({"do": "m04_store", "res": r, "n": 1}, f"Alchemist: put 1 {r} on it")
            )
        if have >= 2:
            opts.append(
                option({"do": "m04_store", "res": r, "n": have}, f"Alchemist: put all {have} {r}")
            )
    return opts


def _store(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    """The resources leave their owner for good (PLAY-01); the Research prompt stays open."""
    r, n = action["res"], int(action["n"])
    ctx.seat(seat)["res"][r] -= n
    held(ctx.s)[seat] = int(held(ctx.s)[seat] or 0) + n
    ctx.log(
        "HRE-M04-PLAY-01",
        f"{ctx.name(seat)} puts {n} {r} on their Alchemist card "
        f"({held(ctx.s)[seat]} on it; they are no longer theirs).",
    )


handlers.MACHINE.extend("research", Extension(("m04_store",), _store_options, _store))


# ---------------------------------------------------------------- Gold, at any time


def _gold_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    if "m04" not in ctx.s or int(held(ctx.s)[seat] or 0) < RATE:
        return []
    return [option({"do": "m04_gold"}, f"Alchemist: return {RATE} resources from it for 1 Gold")]


def _to_gold(ctx: Ctx, seat: int, rule_note: str = "") -> None:
    held(ctx.s)[seat] = int(held(ctx.s)[seat] or 0) - RATE
    ctx.seat(seat)["gold"] += 1
    ctx.log(
        "HRE-M04-PLAY-02",
        f"{ctx.name(seat)} returns {RATE} resources from their Alchemist card to the supply "
        f"and gains 1 Gold{rule_note}.",
    )


def _gold(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    """The prompt that offered it stays open (PLAY-02: it does not use up the decision)."""
    _to_gold(ctx, seat)


def _extend_every_decision() -> None:
    """Offer the exchange on every decision of the game, whoever's turn it is (AMB-57)."""
    gold = Extension(("m04_gold",), _gold_options, _gold)
    for kind in sorted(handlers.MACHINE.decisions):
        handlers.MACHINE.extend(kind, gold)


@hook
def _before_finish(ctx: Ctx) -> bool:
    """The last "any time" before final scoring: every full set of 3 becomes Gold (AMB-57)."""
    for seat, n in enumerate(held(ctx.s)):
        while n is not None and n >= RATE:
            _to_gold(ctx, seat, " before final scoring")
            n = held(ctx.s)[seat]
    return False


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """The Alchemist cards lie face up: everyone sees how much each holds."""
    found["alchemists"] = list(held(state))


@hook
def _invariants(state: State) -> None:
    for n in held(state):
        if n is not None and (not isinstance(n, int) or n < 0):
            raise InvariantError(f"an Alchemist card holds {n!r} resources")


MODULE = declare(__name__, "M04", ready=_extend_every_decision)
