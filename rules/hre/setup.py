"""Setup (HRE-BASE-SETUP): shuffles, the Ruler draft, then the board by player count."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.words import counted
from rules.hre import flow, handlers, modules
from rules.hre.handlers import option
from rules.hre.state import RESOURCES, UNITS, Ctx, Frame, board_number, data, token_sets


def new_state(
    seed: int, config: dict[str, Any], players: int, table: dict[str, int] | None = None
) -> State:
    """Shuffle the Action cards, pick the starting player and open the Ruler draft.

    A module laying out another table (Module 2's joined board) gives its numbers as `table`."""
    d = data()
    board = d.board
    state: State = {
        "game": "hre",
        "players": players,
        "options": dict(config.get("options", {})),
        "rng": rng.seed_state(seed),
        "seats": [],
        "prov": {},
        "slots": [],
        "offer": [],
        "deck": [],
        "discard": [],
        "red_claimed": [],
        "churches": 0,
        "cities": 0,
        "titles": {},
        "box_tokens": [],
        "start": 0,
        "active": None,
        "stack": [],
        "end_triggered": False,
        "deck_exhausted": False,
        "over": False,
        "rulers_open": [],
        "cards_in_game": 0,
    }
    if table is not None:
        state["table"] = dict(table)
    actions = list(board["actions"])
    rng.shuffle(state, actions)
    state["slots"] = [{"action": a, "stack": []} for a in actions]
    for _ in range(players):
        state["seats"].append(_new_seat(board_number(state, "discs")))
    state["rulers_open"] = sorted(
        r for r, spec in d.rulers.items() if spec["module"] is None and spec["players"] <= players
    )
    start = rng.below(state, players)
    state["start"] = start
    ctx = Ctx(state)
    ctx.log("HRE-BASE-SETUP-07", f"Seat {start + 1} is the starting player.")
    # The draft runs counter-clockwise from the starting player's right (SETUP-08):
    # push the finishing step first, then the picks so that the first picker is on top.
    ctx.push({"kind": "setup_finish", "seat": start})
    for k in range(players):
        ctx.push({"kind": "draft", "seat": (start + k) % players})
    return state


def _new_seat(discs: int) -> dict[str, Any]:
    board = data().board
    return {
        "ruler": None,
        "vp": 0,
        "gold": int(board["start_resources"]["gold"]),
        "res": {r: int(board["start_resources"][r]) for r in RESOURCES},
        "hand": [],
        "techs": [],
        "mil": dict.fromkeys(UNITS),
        "mil_under": [],
        "culture": 0,
        "warehouse": 0,
        "farms_track": int(board["farms_per_player"]) - 1,
        "farms_boxed": 0,
        "discs": discs,
        "total_discs": discs,
        "exhausted": 0,
        "trophies": [],
        "out": False,
    }


def _draft_options(ctx: Ctx, frame: Frame) -> list[Option]:
    opts = []
    for rid in ctx.s["rulers_open"]:
        ruler = ctx.d.rulers[rid]
        cards = " and ".join(ctx.d.cards[c]["name"] for c in ruler["starting_cards"])
        opts.append(
            option(
                {"ruler": rid},
                f"{ruler['name']} (Capital "
                f"{ctx.d.provinces[ruler['capital']]['name']}; starts with {cards})",
            )
        )
    return opts


def _draft_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    rid = action["ruler"]
    me = ctx.seat(frame["seat"])
    me["ruler"] = rid
    me["hand"].extend(ctx.d.rulers[rid]["starting_cards"])
    ctx.s["rulers_open"].remove(rid)
    ctx.log(
        "HRE-BASE-SETUP-08",
        f"Seat {frame['seat'] + 1} takes {ctx.d.rulers[rid]['name']} and its two starting cards.",
    )


handlers.decision(
    "draft", "HRE-BASE-SETUP-08", lambda ctx, f: "Choose your Ruler", _draft_options, _draft_choose
)


def exhaust_first(ctx: Ctx, count: int) -> None:
    """The first `count` players from the start seat each exhaust one Noble disc."""
    n = int(ctx.s["players"])
    for k in range(count):
        seat = ctx.seat((ctx.s["start"] + k) % n)
        seat["discs"] -= 1
        seat["exhausted"] += 1


@handlers.step("setup_finish")
def _finish(ctx: Ctx, frame: Frame) -> None:
    """Cities, Capitals, Barbarians, buildings, the deck and discs; then the first turn."""
    s, d, n = ctx.s, ctx.d, int(ctx.s["players"])
    s["stack"].pop()
    s["rulers_open"] = []
    capitals = {d.rulers[seat["ruler"]]["capital"]: i for i, seat in enumerate(s["seats"])}
    s["cities"] = board_number(s, "cities") - len(capitals)
    tokens = list(d.token_sets[token_sets(s)[0]])
    rng.shuffle(s, tokens)
    for pid in sorted(d.provinces):
        if d.provinces[pid]["players"] > n:
            continue  # blocked: marked for more players (SETUP-13)
        here = empty_province(pid)
        if pid in capitals:
            here.update(owner=capitals[pid], farms=1, city=True)
            here["units"]["infantry"] = int(d.board["start_infantry"])
        else:
            here["barb"] = {"token": tokens.pop(), "face": "reward" if rng.below(s, 2) else "units"}
        s["prov"][pid] = here
    s["box_tokens"] = sorted(tokens)
    _deal_culture(ctx, n)
    s["titles"] = {
        t: {"holder": None, "ready": True, "established": False}
        for t, spec in d.titles.items()
        if spec["players"] <= n
    }
    first = board_number(s, "exhausted")
    exhaust_first(ctx, first)
    ctx.log(
        "HRE-BASE-SETUP-24",
        f"The first {'player' if first == 1 else counted(first, 'player')} from the start "
        f"{'exhausts' if first == 1 else 'exhaust'} one Noble{'' if first == 1 else ' each'}.",
    )
    flow.start_turn(ctx, s["start"])


def empty_province(pid: str) -> dict[str, Any]:
    """A province as laid out before anything is placed: its starting Production building only."""
    return {
        "owner": None,
        "units": dict.fromkeys(UNITS, 0),
        "farms": 0,
        "city": False,
        "bld": [data().provinces[pid]["resource"]],
        "church": False,
        "keep": 0,
        "barb": None,
    }


def _deal_culture(ctx: Ctx, n: int) -> None:
    """Shuffle the deck of cards marked for this player count and deal the offer (SETUP-04, -21)."""
    s, d = ctx.s, ctx.d
    deck = sorted(
        c
        for c, spec in d.cards.items()
        if spec["players"] <= n and spec["starting"] is None and spec["module"] is None
    )
    rng.shuffle(s, deck)
    modules.deck_built(ctx, deck)
    s["deck"] = deck
    s["cards_in_game"] = len(deck) + sum(len(seat["hand"]) for seat in s["seats"])
    s["cards_in_game"] += len(modules.held(s, "cards"))  # dealt by a module at setup
    for _ in range(board_number(s, "offer_size")):
        s["offer"].append(s["deck"].pop())
