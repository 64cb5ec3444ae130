"""Module 7, Skirmishers (HRE L668-677; reference §1.29): tougher Barbarians on the map.

The Skirmisher tokens (authored in `rules/hre/data/m07_skirmishers.json`, §2.10) take the place
of the Barbarian tokens: the map is dealt from them and every Barbarian rule then applies to them
unchanged, since the base rules read a token only through its id (HRE-M07-SETUP-01). The two
sets are not mixed at set-up. In the solo game (Module 1) the map takes Skirmishers while the
Raiding Party keeps drawing Barbarian tokens (HRE-M07-SOLO-01): Module 1 draws each from its own
set in the shared face-down pool. A province lost to the Raiders gets a Barbarian token, and a
Skirmisher a Lordling Manoeuvre removes goes back among the Skirmishers (AMB-78's reading).
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import State
from rules.core.errors import InvariantError
from rules.hre import handlers
from rules.hre.modules import declare, hook, plays
from rules.hre.state import Ctx, Frame, data

SET = "skirmisher"


@hook
def validate() -> None:
    """The Skirmisher tokens are loaded and checked with the component data (components.py)."""
    found = data().token_sets[SET]
    if len(found) != len(data().token_sets["barbarian"]):
        raise ValueError("m07_skirmishers.json: as many Skirmisher tokens as Barbarian tokens")


@hook
def _setup(state: State) -> None:
    """Skirmishers replace the Barbarian tokens (SETUP-01); in solo the Raiding Party still
    takes Barbarian tokens (SOLO-01). The board is dealt later, once the Rulers are chosen, so
    a step just above the final setup step logs it then."""
    state["token_sets"] = [SET, "barbarian"] if plays(state, "M01") else [SET]
    handlers.after_setup(state, "m07_setup")


@handlers.once("m07_setup")
def _log_setup(ctx: Ctx, frame: Frame) -> None:
    ctx.log(
        "HRE-M07-SETUP-01",
        "Skirmisher tokens take the place of the Barbarian tokens on the map; every Barbarian "
        "rule applies to them.",
    )
    if len(ctx.s["token_sets"]) > 1:
        ctx.log(
            "HRE-M07-SOLO-01",
            "The Raiding Party still draws regular Barbarian tokens, not Skirmishers.",
        )


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """Which set lies on the map is public (the tokens' colour shows it)."""
    found["token_set"] = SET


@hook
def _invariants(state: State) -> None:
    """The map never mixes the sets (SETUP-01): every token on it is a Skirmisher, but in solo
    the Barbarian token a Raider attack leaves in the province it took (AMB-78)."""
    wanted = set(data().token_sets[SET])
    if plays(state, "M01"):
        wanted |= set(data().token_sets["barbarian"])
    for pid, here in state["prov"].items():
        if here["barb"] is not None and here["barb"]["token"] not in wanted:
            raise InvariantError(f"a token of another set lies in {pid} beside the Skirmishers")


MODULE = declare(__name__, "M07", data_files=("m07_skirmishers.json",))
