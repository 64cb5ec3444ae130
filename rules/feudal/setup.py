"""Set-up (FL-SETUP): leaders, locations, artifacts, Stockpiles, dice, the opening hands."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import ScenarioError
from rules.feudal import flow, handlers
from rules.feudal.components import deck_errors
from rules.feudal.handlers import option
from rules.feudal.resources import roll_resources
from rules.feudal.state import Ctx, Frame, card, data, draw

STARTERS = ("under_city", "outer_city", "over_city", "tunnel_mixed")
START_MARKERS = 5
OPENING_DRAW = 10
OPENING_DISCARD = 2


def resolve_decks(config: dict[str, Any], players: int) -> list[dict[str, Any]]:
    """The deck of each seat: a starter id or a full deck; starters by default."""
    chosen = config.get("decks") or [STARTERS[i % len(STARTERS)] for i in range(players)]
    if len(chosen) != players:
        raise ScenarioError(f"{len(chosen)} decks were given for {players} players.")
    decks = []
    for entry in chosen:
        deck = data().decks.get(entry) if isinstance(entry, str) else entry
        if deck is None:
            raise ScenarioError(f"There is no starter deck {entry!r}.")
        problems = deck_errors(deck, data().cards)
        if problems:
            raise ScenarioError(" ".join(problems))
        decks.append(deck)
    return decks


def starter_mode(config: dict[str, Any], players: int) -> bool:
    """Class designations are ignored with starter decks only (FL-GEN-02, A-35)."""
    setting = config.get("options", {}).get("starter_rules", "auto")
    if setting != "auto":
        return bool(setting == "on")
    chosen = config.get("decks") or []
    return all(isinstance(d, str) for d in chosen)


def new_state(seed: int, config: dict[str, Any], players: int, options: dict[str, Any]) -> State:
    """Lay out each seat, shuffle, roll, draw ten and prompt every seat to discard two."""
    decks = resolve_decks(config, players)
    state: State = {
        "game": "feudal", "mode": config.get("mode", "duel"), "players": players, "options": options,
        "rng": rng.seed_state(seed), "seats": [], "stack": [], "active": None, "first": 0,
        "turns": 0, "over": False, "winner": None, "next_uid": 1,
        "starter": starter_mode(config, players), "ended_by": None,
    }
    ctx = Ctx(state)
    for deck in decks:
        state["seats"].append(_lay_out(ctx, deck))
    for i in range(players):
        roll_resources(ctx, i, "FL-SETUP-06")
    for i in range(players):
        draw(ctx, i, OPENING_DRAW, "FL-SETUP-07")
    state["first"] = rng.below(state, players)
    ctx.log("FL-SETUP-08", f"{ctx.name(state['first'])} goes first.")
    ctx.push({"kind": "setup_discard", "seat": state["first"],
              "left": {str(i): OPENING_DISCARD for i in range(players)}})
    return state


def _lay_out(ctx: Ctx, deck: dict[str, Any]) -> dict[str, Any]:
    """One seat's leader, locations with tokens, artifacts and shuffled Stockpile (SETUP-01..05)."""
    arts = list(deck.get("artifacts", []))
    locs = [{"token": True, "supply": None, "artifact": arts[i] if i < len(arts) else None} for i in range(3)]
    stock = sorted(cid for cid, n in deck["stockpile"].items() for _ in range(n))
    rng.shuffle(ctx.s, stock)
    extra = sum(e["amount"] for a in arts for e in card(a)["effects"] if e["kind"] == "markers")
    return {
        "leader": deck["leader"], "locations": deck["locations"], "locs": locs, "hand": [],
        "stock": stock, "discard": [], "area": [], "constants": [], "sup": 0, "ld": 0,
        "markers": START_MARKERS + extra, "marker_spent": False, "vp": 0, "later_draw": 0,
        "cards": len(stock),
    }


def _seats(ctx: Ctx, frame: Frame) -> list[int]:
    return sorted(int(k) for k, n in frame["left"].items() if n > 0)


def _options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    hand = ctx.seat(seat)["hand"]
    return [option({"discard": c}, f"Discard {card(c)['name']}") for c in sorted(set(hand))]


def _choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    me = ctx.seat(seat)
    me["hand"].remove(action["discard"])
    me["discard"].append(action["discard"])
    frame["left"][str(seat)] -= 1
    ctx.log("FL-SETUP-07", f"{ctx.name(seat)} discards {card(action['discard'])['name']}.")
    if not _seats(ctx, frame):
        ctx.pop()
        flow.start_turn(ctx, ctx.s["first"])


handlers.decision("setup_discard", "FL-SETUP-07",
                  lambda ctx, f, s: f"Discard {f['left'][str(s)]} more card(s) to form your opening hand",
                  _options, _choose, seats=_seats, free=False)
