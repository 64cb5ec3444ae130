"""Module 2, the Great Domain (HRE L566-595; reference §1.24): 5 to 8 players on a joined board.

The western half of the joined board is authored (`rules/hre/data/m02_great_domain.json`, checked
and joined to the map by `m02_board.py`; see the data README): its provinces are marked for 5
players or more, so the base rules see one big map once a game has 5 seats or more. What changes
is the table's numbers, which the module lays out in `state["table"]` and the base rules read
through `rules.hre.state.board_number`:

- one board, both halves joined, and one set of the five Action cards (HRE-M02-SETUP-01, -02);
- provinces marked for more players than sit at the table are blocked, and with 5 or 6 players
  the components marked "4 players only" leave the game (HRE-M02-SETUP-03, AMB-66);
- Rulers are drafted as usual from both halves; the option `ruler_balance` ("balanced") keeps
  the book's recommended balance: neither half gives more than half the seats, rounded up
  (HRE-M02-SETUP-04);
- one deck of every Culture card in play and an offer of 12 spaces; 16 Churches on the joined
  track; 18/20/23/25 Cities; 4 Noble discs each, and the first players exhaust one or two of
  them (HRE-M02-SETUP-05..09);
- reactions at 3 stacked discs with 5 players, 4 with 6 to 8; each red Culture space unlocks two
  cards; neighbours across the join are neighbours (HRE-M02-PLAY-01..03);
- the end triggers of the base game, the Church one at the 11th/12th/14th/15th (HRE-M02-END-01).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.engine import State
from rules.core.errors import InvariantError
from rules.hre import handlers, setup
from rules.hre.components import in_play
from rules.hre.modules import declare, files, hook, option_value
from rules.hre.state import Ctx, Frame, board_number, data

FILE = "m02_great_domain.json"
TOKENS = "great_domain"  # both boxes' Barbarian tokens (data README)
FOUR_ONLY = 4  # the marking removed at 5 and 6 players (HRE-M02-SETUP-03, AMB-66)


def table(players: int) -> dict[str, int]:
    """The joined board's numbers for this many players, as the state keeps them."""
    raw = files.load(FILE)["table"]
    row = raw["by_players"][str(players)]
    return {
        "offer_size": raw["offer_size"],
        "base_access": raw["base_access"],
        "per_red": raw["per_red"],
        "church_spaces": raw["church_spaces"],
        "cities": row["cities"],
        "discs": row["discs"],
        "exhausted": row["exhausted"][0],
        "second": row["exhausted"][1],
        "church_end": row["church_end"],
        "react_at": row["react_at"],
    }


def western(ruler: str) -> bool:
    """Whether a Ruler comes from the western half (the other box's, HRE-M02-SETUP-04)."""
    return bool(data().rulers[ruler].get("origin") == "western")


@hook
def _new_state(seed: int, config: dict[str, Any], players: int) -> State:
    """The base set-up on the joined table (its numbers in the state)."""
    return setup.new_state(seed, config, players, table=table(players))


@hook
def _setup(state: State) -> None:
    """Western Rulers join the draft; both boxes' tokens go on the map (SETUP-04, -01)."""
    n = len(state["seats"])
    west = [r for r, spec in data().rulers.items() if spec["module"] == "M02"]
    state["rulers_open"] = sorted(
        state["rulers_open"] + [r for r in west if data().rulers[r]["players"] <= n]
    )
    state["token_sets"] = [TOKENS]


@hook
def _deck_built(ctx: Ctx, deck: list[str]) -> None:
    """With 5 or 6 players the cards marked "4 players only" leave the deck (SETUP-03, -05)."""
    if ctx.s["players"] > 6:
        return
    gone = [c for c in deck if ctx.d.cards[c]["players"] == FOUR_ONLY]
    for c in gone:
        deck.remove(c)
    ctx.log(
        "HRE-M02-SETUP-03",
        f"{len(gone)} Culture cards marked for 4 players only go back to the box.",
    )


def _finish(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """After the base set-up on the joined table: the second discs, and what it laid out."""
    inner(ctx, frame)
    s = ctx.s
    if "table" not in s:
        return
    n = int(s["players"])
    for title in [t for t in s["titles"] if n <= 6 and ctx.d.titles[t]["players"] == FOUR_ONLY]:
        del s["titles"][title]  # no Title is so marked in this box; the rule holds all the same
    blocked = sorted(set(ctx.d.provinces) - in_play(ctx.d.provinces, n))
    ctx.log(
        "HRE-M02-SETUP-01",
        f"Both halves are joined into one board: {len(s['prov'])} provinces in play.",
    )
    ctx.log("HRE-M02-SETUP-02", "One set of the five Action cards is used.")
    if blocked:
        names = ", ".join(ctx.d.provinces[p]["name"] for p in blocked)
        ctx.log("HRE-M02-SETUP-03", f"Marked for more players and blocked: {names}.")
    ctx.log(
        "HRE-M02-SETUP-05",
        f"One Culture deck; the offer has {board_number(s, 'offer_size')} spaces.",
    )
    ctx.log("HRE-M02-SETUP-06", f"{board_number(s, 'church_spaces')} Churches on the joined track.")
    ctx.log(
        "HRE-M02-SETUP-07",
        f"{board_number(s, 'cities')} Cities for {n} players, {s['cities']} left after the Capitals.",
    )
    ctx.log("HRE-M02-SETUP-08", f"Each player has {board_number(s, 'discs')} Noble discs.")
    second = board_number(s, "second")
    setup.exhaust_first(ctx, second)
    ctx.log(
        "HRE-M02-SETUP-09",
        f"The first {board_number(s, 'exhausted')} players exhaust one Noble, "
        f"and the first {second} a second one.",
    )


handlers.MACHINE.wrap_step("setup_finish", _finish)


@hook
def _auto(ctx: Ctx) -> bool:
    """The balanced draft: a half that gave half the seats (rounded up) gives no more (SETUP-04)."""
    s = ctx.s
    if not s["rulers_open"] or option_value(s, "ruler_balance") != "balanced":
        return False
    cap = (len(s["seats"]) + 1) // 2
    picked = [western(me["ruler"]) for me in s["seats"] if me["ruler"]]
    for side in (True, False):
        if picked.count(side) >= cap:
            s["rulers_open"] = [r for r in s["rulers_open"] if western(r) != side]
    return False


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """The joined table's numbers and each seated Ruler's half are public."""
    found["great_domain"] = {
        "table": dict(state["table"]),
        "western": [bool(me["ruler"] and western(me["ruler"])) for me in state["seats"]],
    }


@hook
def _invariants(state: State) -> None:
    """The table is the book's for the player count; 4 discs a seat; one set of Action cards."""
    if state.get("table") != table(int(state["players"])):
        raise InvariantError("the joined table's numbers are not the book's for this count")
    if len(state["slots"]) != len(data().board["actions"]):
        raise InvariantError("more than one set of Action cards")
    if any(me["total_discs"] != board_number(state, "discs") for me in state["seats"]):
        raise InvariantError("a seat has other than 4 Noble discs")


MODULE = declare(
    __name__,
    "M02",
    # Modules not laid out for the joined table: the other box's Skirmishers (M07) and the
    # western Rulers' and Titles' Combat cards (M09) are not authored. M01 and M15A take fewer
    # players. The Wyrd (M08), Distant Campaigns (M10) and Benjamin (M13A) have their 5-8
    # player numbers in their own files.
    excludes=("M01", "M07", "M09", "M15A"),
    options={"ruler_balance": ("free", "balanced")},
    option_text={
        "ruler_balance": (
            "Ruler draft",
            "The book recommends a balance of Western and Central Rulers (HRE-M02-SETUP-04).",
            {"free": "Any Ruler, as usual", "balanced": "At most half from either half"},
        )
    },
    data_files=(FILE,),
)
