"""Helpers for EMA rule tests: a set-up state and a context over it."""

from __future__ import annotations

from typing import Any

from rules.core.registry import get_engine
from rules.ema.state import AREA_FIELDS, CLAIMS, TIES, Area, Ctx, mask_of

ENGINE = get_engine("ema")


def new(
    slug: str = "28-millenium", players: int = 2, seed: int = 1, **options: Any
) -> dict[str, Any]:
    """A fresh game state."""
    return ENGINE.setup(seed, {"scenario": slug, "options": options}, players)


def ctx(state: dict[str, Any]) -> Ctx:
    """A context over a state, collecting events."""
    return Ctx(state)


def fill(row: Area, fields: dict[str, Any] | None = None, **more: Any) -> None:
    """Set an Area row's fields by name (Ties and Claims given as lists of seats)."""
    for name, value in {**(fields or {}), **more}.items():
        place = AREA_FIELDS.index(name)
        row[place] = mask_of(value) if place in (TIES, CLAIMS) else value


ROWS = ("conquest", "pillage", "ruling", "fortification", "diplomacy")


def r(e: str, col: str = "result", cmp: str = "auto", n: int = 0) -> dict[str, Any]:
    """One result of a Year Card row: effect, column, comparison (>=, <=, auto) and threshold."""
    return {"e": e, "col": col, "cmp": cmp, "n": n}


def fake_card(
    monkeypatch: Any, number: int = 900, checks: tuple[int, ...] = (), **rows: Any
) -> int:
    """Add a Year Card with chosen rows to the loaded data for one test; return its number."""
    from rules.ema.components import load

    full = {k: list(rows.get(k, [])) for k in ROWS}
    text = {k: {"result": "-", "target": "-", "base": "-"} for k in ROWS}
    monkeypatch.setitem(
        load().year_cards,
        number,
        {"number": number, "checks": list(checks), "rows": full, "text": text},
    )
    return number


def prompt(state: dict[str, Any]) -> dict[str, Any]:
    """The first prompt now."""
    found: dict[str, Any] = ENGINE.prompts(state)[0]
    return found


def actions(state: dict[str, Any]) -> list[Any]:
    """The actions offered by the first prompt."""
    return [o["action"] for o in prompt(state)["options"]]


def act(state: dict[str, Any], action: Any) -> list[Any]:
    """Apply an offered action for the seat of the first prompt; return its events."""
    assert action in actions(state), (action, prompt(state)["kind"], actions(state))
    events: list[Any] = ENGINE.apply_trusted(state, prompt(state)["seat"], action)
    return events


def to_main(
    slug: str = "28-millenium", players: int = 2, seed: int = 1, **options: Any
) -> dict[str, Any]:
    """A fresh game at the first Player-Turn's main menu, with no Event drawn (an empty Event deck)."""
    state = new(slug, players, seed, **options)
    state["event_deck"], state["event_discard"] = [], []
    while prompt(state)["kind"] != "main":
        act(state, actions(state)[0])
    return state


def endeavor(
    state: dict[str, Any], kind: str, target: str, base: str | None = None, gold: int = 0
) -> list[Any]:
    """Announce an Endeavor from the main menu, up to the attacker's extra gold (inclusive)."""
    events = act(state, {"do": "endeavor", "kind": kind})
    if base is not None:
        events += act(state, {"base": base})
    if kind == "diplomacy":
        from rules.ema.endeavors import group_of
        from rules.ema.state import Ctx

        events += act(state, {"group": group_of(Ctx(state), target)})
    events += act(state, {"target": target})
    if prompt(state)["kind"] == "att_gold":
        offered = actions(state)
        events += act(state, {"gold": gold} if {"gold": gold} in offered else offered[0])
    return events


def rules_of(events: list[Any]) -> list[str]:
    """The rule ids of a list of events."""
    return [e["rule"] for e in events]
