"""Module 11, Tribute (HRE L748-759; reference §1.33): beaten Capitals pay their suzerain.

State: `m11.free[seat]` counts the player markers still on each Ruler card (3 at setup,
HRE-M11-SETUP-01) and `m11.at[capital]` names the seat whose marker lies in that Capital: the
Capital's owner is that seat's tributary. A Capital holds one marker, so a tributary has exactly
one suzerain (AMB-62).

- Winning a battle in an opponent's Capital places one of your free markers there, sending any
  other marker back to its owner (HRE-M11-PLAY-01). With no free marker left no tribute is
  imposed (AMB-62).
- A tributary is freed by winning a battle in its suzerain's Capital (which, by the rule above,
  makes it the suzerain if it has a marker free), or by paying its suzerain 2 Gold as a free
  action on its turn (HRE-M11-PLAY-02); the marker goes back either way.
- Each Pass of a tributary, right after its production step, it gives the suzerain one resource
  of its choice from what that step produced; nothing produced, nothing given (HRE-M11-PLAY-03,
  AMB-62).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.core.machine import Extension
from rules.hre import handlers, passing
from rules.hre.handlers import option
from rules.hre.modules import declare, hook, part
from rules.hre.state import Ctx, Frame, capital, data

MARKERS = 3  # on each Ruler card at setup (L752)
PRICE = 2  # Gold a tributary pays to go free (L757)
PRODUCE = 8  # the Pass step that produces resources (HRE-BASE-PASS-11)


m11 = part("m11")


def suzerain(state: State, seat: int) -> int | None:
    """The seat this one pays tribute to, if any."""
    home = capital(state, seat)
    found: int | None = m11(state)["at"].get(home) if home else None
    return found


@hook
def _setup(state: State) -> None:
    state["m11"] = {"free": [MARKERS] * len(state["seats"]), "at": {}}
    handlers.after_setup(state, "m11_setup")


@handlers.once("m11_setup")
def _log_setup(ctx: Ctx, frame: Frame) -> None:
    ctx.log("HRE-M11-SETUP-01", f"Every player puts {MARKERS} player markers on their Ruler card.")


def _release(ctx: Ctx, home: str, rule: str, how: str) -> None:
    """The marker in a Capital goes back to its owner's Ruler card."""
    lord = m11(ctx.s)["at"].pop(home)
    m11(ctx.s)["free"][lord] += 1
    ctx.log(
        rule,
        f"The marker of {ctx.name(lord)} leaves {ctx.d.provinces[home]['name']} {how}: "
        "its Ruler no longer pays tribute.",
    )


@hook
def _battle_won(ctx: Ctx, frame: dict[str, Any]) -> None:
    att, dfn, prov = frame["att"], frame["def"], frame["prov"]
    if dfn is None or capital(ctx.s, dfn) != prov:
        return
    state = m11(ctx.s)
    own_home = capital(ctx.s, att)
    if own_home is not None and state["at"].get(own_home) == dfn:  # PLAY-02, by battle
        _release(ctx, own_home, "HRE-M11-PLAY-02", f"as {ctx.name(att)} wins in its Capital")
    if state["free"][att] <= 0:
        ctx.log("HRE-M11-PLAY-01", f"{ctx.name(att)} has no marker left: no tribute.")
        return
    if prov in state["at"]:
        if state["at"][prov] == att:
            return  # already its tributary
        _release(ctx, prov, "HRE-M11-PLAY-01", f"for {ctx.name(att)}'s")
    state["free"][att] -= 1
    state["at"][prov] = att
    ctx.log(
        "HRE-M11-PLAY-01",
        f"{ctx.name(att)} places a marker in {ctx.d.provinces[prov]['name']}: "
        f"{ctx.name(dfn)} now pays tribute to {ctx.name(att)}.",
    )


# ---------------------------------------------------------------- paying off, a free action


def _pay_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    if "m11" not in ctx.s:
        return []
    lord = suzerain(ctx.s, seat)
    if lord is None or ctx.seat(seat)["gold"] < PRICE:
        return []
    return [option({"do": "m11_pay"}, f"Pay {ctx.name(lord)} {PRICE} Gold to end your tribute")]


def _pay(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    lord = suzerain(ctx.s, seat)
    home = capital(ctx.s, seat)
    assert lord is not None and home is not None
    ctx.seat(seat)["gold"] -= PRICE
    ctx.seat(lord)["gold"] += PRICE
    _release(ctx, home, "HRE-M11-PLAY-02", f"as {ctx.name(seat)} pays {PRICE} Gold")


handlers.MACHINE.extend("turn", Extension(("m11_pay",), _pay_options, _pay))


# ---------------------------------------------------------------- tribute at each Pass


def _pass_wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """After a tributary's production step, it owes one of the resources just produced."""
    steps = passing.STEPS_BY_MODE[frame["mode"]]
    producing = "m11" in ctx.s and frame["next"] < len(steps) and steps[frame["next"]] == PRODUCE
    made = passing.production(ctx, frame["seat"]) if producing else {}
    inner(ctx, frame)
    if not producing:
        return
    seat = frame["seat"]
    lord = suzerain(ctx.s, seat)
    if lord is None:
        return
    if not made:
        ctx.log("HRE-M11-PLAY-03", f"{ctx.name(seat)} produced nothing: no tribute.")
        return
    ctx.push({"kind": "m11_tribute", "seat": seat, "to": lord, "made": sorted(made)})


def _tribute_options(ctx: Ctx, frame: Frame) -> list[Option]:
    return [
        option({"tribute": r}, f"Give 1 {r} to {ctx.name(frame['to'])}")
        for r in frame["made"]
        if ctx.seat(frame["seat"])["res"][r] > 0
    ] or [option({"tribute": None}, "Nothing of this production is left to give")]


def _tribute_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    r = action["tribute"]
    if r is None:
        return
    ctx.seat(frame["seat"])["res"][r] -= 1
    ctx.seat(frame["to"])["res"][r] += 1
    ctx.log(
        "HRE-M11-PLAY-03",
        f"{ctx.name(frame['seat'])} pays tribute: 1 {r} to {ctx.name(frame['to'])}.",
    )


handlers.MACHINE.wrap_step("pass", _pass_wrapper)
handlers.decision(
    "m11_tribute",
    "HRE-M11-PLAY-03",
    lambda ctx, f: f"Tribute: give {ctx.name(f['to'])} one resource you just produced",
    _tribute_options,
    _tribute_choose,
)


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """Markers are public: who holds how many, and who pays whom."""
    found["tribute"] = {
        "free": list(m11(state)["free"]),
        "tributaries": sorted(
            [i, suzerain(state, i)]
            for i in range(len(state["seats"]))
            if suzerain(state, i) is not None
        ),
    }


@hook
def _invariants(state: State) -> None:
    """Each seat's 3 markers are on its card or in other seats' Capitals, one per Capital."""
    t = m11(state)
    for seat, free in enumerate(t["free"]):
        placed = sum(1 for lord in t["at"].values() if lord == seat)
        if free < 0 or free + placed != MARKERS:
            raise InvariantError(f"seat {seat} has {free} + {placed} tribute markers")
    for home, lord in t["at"].items():
        if capital(state, lord) == home or home not in data().provinces:
            raise InvariantError(f"a tribute marker of seat {lord} in {home}")


MODULE = declare(
    __name__,
    "M11",
)
