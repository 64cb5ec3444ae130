"""Set-up (FL-SETUP): leaders, locations, artifacts, Stockpiles, dice, the opening hands."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import ScenarioError
from rules.core.words import counted
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
        "game": "feudal",
        "mode": config.get("mode", "duel"),
        "players": players,
        "options": options,
        "rng": rng.seed_state(seed),
        "seats": [],
        "stack": [],
        "active": None,
        "first": 0,
        "turns": 0,
        "over": False,
        "winner": None,
        "next_uid": 1,
        "starter": starter_mode(config, players),
        "ended_by": None,
    }
    ctx = Ctx(state)
    for deck in decks:
        state["seats"].append(_lay_out(ctx, deck))
    deciding = {str(i): bool(me["artifacts"]) for i, me in enumerate(state["seats"])}
    if any(deciding.values()):
        ctx.push(
            {
                "kind": "setup_artifacts",
                "seat": min(int(k) for k, v in deciding.items() if v),
                "open": deciding,
            }
        )
    else:
        _deal(ctx)
    return state


def _deal(ctx: Ctx) -> None:
    """Roll the dice, draw ten, pick the first player, and ask every seat for two discards."""
    players = int(ctx.s["players"])
    for i in range(players):
        roll_resources(ctx, i, "FL-SETUP-06")
    for i in range(players):
        draw(ctx, i, OPENING_DRAW, "FL-SETUP-07")
    ctx.s["first"] = rng.below(ctx.s, players)
    ctx.log("FL-SETUP-08", f"{ctx.name(ctx.s['first'])} goes first.")
    ctx.push(
        {
            "kind": "setup_discard",
            "seat": ctx.s["first"],
            "left": {str(i): OPENING_DISCARD for i in range(players)},
            "held": {str(i): [] for i in range(players)},
        }
    )


def _lay_out(ctx: Ctx, deck: dict[str, Any]) -> dict[str, Any]:
    """One seat's leader, locations with tokens and shuffled Stockpile (SETUP-01..05).

    Its Artifacts wait in `artifacts` until the seat decides which to play where (FL-SETUP-04).
    """
    locs = [{"token": True, "supply": None, "artifact": None} for _ in range(3)]
    stock = sorted(cid for cid, n in deck["stockpile"].items() for _ in range(n))
    rng.shuffle(ctx.s, stock)
    return {
        "leader": deck["leader"],
        "locations": deck["locations"],
        "locs": locs,
        "hand": [],
        "stock": stock,
        "discard": [],
        "area": [],
        "constants": [],
        "sup": 0,
        "ld": 0,
        "markers": START_MARKERS,
        "marker_spent": False,
        "vp": 0,
        "later_draw": 0,
        "cards": len(stock),
        "artifacts": list(deck.get("artifacts", [])),
    }


def _art_seats(ctx: Ctx, frame: Frame) -> list[int]:
    return sorted(int(k) for k, deciding in frame["open"].items() if deciding)


def _art_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    me = ctx.seat(seat)
    sites = card(me["locations"])["sites"]
    free = [i for i, loc in enumerate(me["locs"]) if loc["artifact"] is None]
    opts = [
        option(
            {"do": "artifact", "card": a, "loc": i}, f"Play {card(a)['name']} at {sites[i]['name']}"
        )
        for a in dict.fromkeys(me["artifacts"])
        for i in free
    ]
    return [*opts, option({"do": "done"}, "Play no more Artifacts")]


def _art_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    """Play an Artifact, at most one per location, or stop; unplayed ones stay out of the game
    (FL-SETUP-04, FL-ART-01). Seats decide at once, each in its own time."""
    me = ctx.seat(seat)
    if action["do"] == "artifact":
        cid, loc = action["card"], action["loc"]
        me["artifacts"].remove(cid)
        me["locs"][loc]["artifact"] = cid
        me["markers"] += sum(e["amount"] for e in card(cid)["effects"] if e["kind"] == "markers")
        site = card(me["locations"])["sites"][loc]["name"]
        ctx.log(
            "FL-SETUP-04", f"{ctx.name(seat)} plays the Artifact {card(cid)['name']} at {site}."
        )
    full = all(loc["artifact"] for loc in me["locs"])
    if action["do"] == "done" or full or not me["artifacts"]:
        frame["open"][str(seat)] = False
    if _art_seats(ctx, frame):
        frame["seat"] = _art_seats(ctx, frame)[0]
        return
    ctx.pop()
    _deal(ctx)


def _seats(ctx: Ctx, frame: Frame) -> list[int]:
    return sorted(int(k) for k, n in frame["left"].items() if n > 0)


def _options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    hand = ctx.seat(seat)["hand"]
    return [option({"discard": c}, f"Discard {card(c)['name']}") for c in sorted(set(hand))]


def _choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    """Set a discard aside, unseen: all are shown together once every seat has chosen, so no
    seat can wait to see the others' discards (FL-SETUP-07, A-33)."""
    me = ctx.seat(seat)
    me["hand"].remove(action["discard"])
    frame["held"][str(seat)].append(action["discard"])
    frame["left"][str(seat)] -= 1
    ctx.log(
        "FL-SETUP-07", None, {seat: f"You set {card(action['discard'])['name']} aside to discard."}
    )
    if _seats(ctx, frame):
        return
    ctx.pop()
    for i in range(int(ctx.s["players"])):
        held = frame["held"][str(i)]
        ctx.seat(i)["discard"].extend(held)
        ctx.log(
            "FL-SETUP-07", f"{ctx.name(i)} discards {', '.join(card(c)['name'] for c in held)}."
        )
    flow.start_turn(ctx, ctx.s["first"])


handlers.decision(
    "setup_artifacts",
    "FL-SETUP-04",
    lambda ctx, f, s: "Play your Artifacts: at most one on each location",
    _art_options,
    _art_choose,
    seats=_art_seats,
    free=False,
)
handlers.decision(
    "setup_discard",
    "FL-SETUP-07",
    lambda ctx, f, s: (
        f"Discard {counted(f['left'][str(s)], 'more card')} to form your opening hand"
    ),
    _options,
    _choose,
    seats=_seats,
    free=False,
)
