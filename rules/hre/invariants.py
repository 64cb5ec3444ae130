"""Invariants for tests and fuzzing: conservation of pieces and cards, tracks in range."""

from __future__ import annotations

from collections import Counter

from rules.core.engine import State
from rules.core.errors import InvariantError
from rules.hre import modules
from rules.hre.state import (
    RESOURCES,
    UNITS,
    Ctx,
    board_number,
    capital,
    game_tokens,
    in_supply,
    unit_count,
)


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise InvariantError(message)


def check(state: State) -> None:
    """Raise InvariantError on the first broken invariant."""
    ctx = Ctx(state)
    if state["rulers_open"] and not state["prov"]:
        return  # still drafting: the board is not laid out yet
    _check_seats(ctx)
    _check_board(ctx)
    _check_cards(ctx)
    _check_tokens(ctx)


def _check_seats(ctx: Ctx) -> None:
    board = ctx.d.board
    for i, me in enumerate(ctx.s["seats"]):
        _check(
            me["gold"] >= 0 and all(me["res"][r] >= 0 for r in RESOURCES),
            f"seat {i} owes resources",
        )
        for unit in UNITS:
            _check(in_supply(ctx.s, i, unit) >= 0, f"seat {i} has too many {unit} in play")
        on_cards = sum(slot["stack"].count(i) for slot in ctx.s["slots"])
        _check(
            me["discs"] + on_cards + me["exhausted"] == me["total_discs"], f"seat {i} discs lost"
        )
        farms = sum(p["farms"] for p in ctx.s["prov"].values() if p["owner"] == i)
        farms += modules.held(ctx.s, "farms").count(str(i))  # e.g. on a Poland card (M15A)
        total = farms + me["farms_track"] + me["farms_boxed"]
        _check(total == board["farms_per_player"], f"seat {i} has {total} Farms, not 12")
        _check(0 <= me["culture"] < len(board["culture_track"]), f"seat {i} Culture off the track")
        _check(
            0 <= me["warehouse"] < len(board["warehouse_track"]),
            f"seat {i} Warehouse off the track",
        )
        _check(
            len(me["techs"]) <= 4 and all(1 <= t["level"] <= 3 for t in me["techs"]),
            f"seat {i} Technologies out of range",
        )
        home = capital(ctx.s, i)
        _check(home is None or ctx.s["prov"][home]["owner"] == i, f"seat {i} lost its Capital")


def _check_board(ctx: Ctx) -> None:
    s = ctx.s
    cities = sum(1 for p in s["prov"].values() if p["city"]) + len(modules.held(s, "cities"))
    _check(cities + s["cities"] == board_number(s, "cities"), "Cities not conserved")
    churches = sum(1 for p in s["prov"].values() if p["church"]) + len(modules.held(s, "churches"))
    _check(churches == s["churches"] <= board_number(s, "church_spaces"), "Churches not conserved")
    for pid, here in s["prov"].items():
        count = unit_count(here["units"])
        _check(min(here["units"].values()) >= 0, f"{pid} has negative units")
        _check(
            not (here["barb"] and here["owner"] is not None), f"{pid} is both Barbarian and owned"
        )
        if here["owner"] is None:
            _check(count == 0 and here["farms"] == 0, f"{pid} has pieces but no owner")
        cap = 2 if here["owner"] is None else modules.farm_cap(s, here["owner"])
        _check(
            0 <= here["farms"] <= cap and 0 <= here["keep"] <= 3,
            f"{pid} Farms or Keep out of range",
        )
        slots = len(here["bld"]) + here["church"]
        _check(
            slots <= (ctx.d.board["city_slots"] if here["city"] else 1),
            f"{pid} has too many buildings",
        )


def _check_cards(ctx: Ctx) -> None:
    s = ctx.s
    cards = list(s["deck"]) + list(s["offer"]) + list(s["discard"])
    for me in s["seats"]:
        cards += me["hand"] + [t["card"] for t in me["techs"]] + me["mil_under"]
        cards += [m["card"] for m in me["mil"].values() if m]
    for frame in s["stack"]:
        if frame["kind"] == "pay" and frame["then"].get("relic"):
            cards.append(frame["then"]["relic"])
    cards += modules.held(s, "cards")
    dupes = [c for c, k in Counter(cards).items() if k > 1]
    _check(not dupes, f"cards in two places: {dupes}")
    _check(
        len(cards) == s["cards_in_game"],
        f"{len(cards)} cards found, {s['cards_in_game']} in the game",
    )
    _check(len(s["offer"]) <= board_number(s, "offer_size"), "offer too large")
    # The deck, the offer and the hands hold only Action cards dealt from the deck (a bad re-deal,
    # e.g. by determinize, would show here): known cards, never a Grand Building.
    dealt = list(s["deck"]) + list(s["offer"])
    for me in s["seats"]:
        dealt += me["hand"]
    playing = s.get("modules") or []  # a module's own cards may be in play (Module 3)
    strays = [
        c
        for c in dealt
        if c not in ctx.d.cards
        or (ctx.d.cards[c]["type"] == "grand_building" and ctx.d.cards[c]["module"] not in playing)
    ]
    _check(not strays, f"cards that are not Action cards in the deck, offer or a hand: {strays}")


def _check_tokens(ctx: Ctx) -> None:
    s = ctx.s
    tokens = list(s["box_tokens"]) + [p["barb"]["token"] for p in s["prov"].values() if p["barb"]]
    for me in s["seats"]:
        tokens += me["trophies"]
    tokens += [f["token"] for f in s["stack"] if f["kind"] == "battle" and f["token"]]
    tokens += modules.held(s, "tokens")
    _check(sorted(tokens) == sorted(game_tokens(s)), "Barbarian tokens not conserved")
