"""Module 13A, Travels of Benjamin (HRE L780-819; reference §1.35): journal cards in the deck.

The 12 cards CB01-CB12 (`rules/hre/data/m13a_benjamin.json`: the book's rewards; names, stops
and markings authored) are Culture cards of their own type. State: `m13a.stacks[seat]`, the
cards each seat has collected (face up, in the order taken), and `m13a.fourth[seat]`, whether
it has taken the fourth reward.

- Cards marked for more players than the game has stay out; solo filters as 2 players (AMB-73)
  (HRE-M13A-SETUP-01). The rest go half into the top half of the shuffled Culture deck and half
  into the bottom half, before the offer is dealt (in solo, before the five piles,
  HRE-M01-SETUP-11) (HRE-M13A-SETUP-02). With 5 to 8 players (Module 2) the cards marked 4
  leave at 5 and 6 players, as every component so marked does (HRE-M02-SETUP-03, AMB-66), and
  the rest go half into the top third and half into the middle third (HRE-M13A-SETUP-02).
- Taken from the offer (Development of Culture, or Cultural Exchange), a card goes straight
  beside its taker's board: never in the hand, never a Technology (HRE-M13A-PLAY-01). The k-th
  card gives one reward among the first min(k, 5); the fourth only once (HRE-M13A-PLAY-02):
  1 Wood or 1 VP; 1 Gold or 2 VP; the leftmost Farm of the track into a province you control
  with room for it (a first Farm there settles it for nothing, AMB-64) or 3 VP; a third Farm
  allowed in each province you control, built by Build at a Farm's cost (AMB-64); 6 VP
  (HRE-M13A-PLAY-03).
- Solo: the Lordlings keep their cards and score 1 VP per card held, the new one included
  (HRE-M13A-SOLO-01). On hard (the hard switches, HRE-M01-DIFF-11), only 3 + 3 cards go into the
  deck and the Lordlings start with the other 2 (HRE-M13A-SOLO-02).
"""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.hre import handlers, modules
from rules.hre.economy import gain
from rules.hre.handlers import option
from rules.hre.modules import declare, files, hook, option_value, part, plays
from rules.hre.state import Ctx, Frame, controlled, data, describe

LORDLINGS = 1  # the automa's seat in a solo game (Module 1)
FOURTH = 4  # the reward taken once (L808)


def book() -> dict[str, Any]:
    return files.load("m13a_benjamin.json")


@hook
def validate() -> None:
    """12 cards CB01-CB12 marked 8/10/12 by player count; the book's five rewards, halves and
    thirds, each filled by the cards in play at its count."""
    raw = book()
    ids = [c["id"] for c in raw["cards"]]
    if ids != [f"CB{i:02d}" for i in range(1, 13)]:
        raise ValueError("m13a_benjamin.json: expected the cards CB01 to CB12")
    halves = {int(k): v for k, v in raw["halves"].items()}
    thirds = {int(k): v for k, v in raw["thirds"].items()}
    for n, half in (halves | thirds).items():
        if len(deck_for(n)) != 2 * half:
            raise ValueError(f"m13a_benjamin.json: {n} player(s) need {2 * half} cards")
    if halves != {1: 4, 2: 4, 3: 5, 4: 6} or thirds != {5: 5, 6: 5, 7: 6, 8: 6}:
        raise ValueError("m13a_benjamin.json: the book's halves and thirds (L790-794)")
    if [r["n"] for r in raw["rewards"]] != [1, 2, 3, 4, 5]:
        raise ValueError("m13a_benjamin.json: the book's rewards (L809-814)")
    harder = raw["solo_harder"]
    if 2 * harder["per_half"] + harder["lordlings"] != len(deck_for(1)):
        raise ValueError("m13a_benjamin.json: the harder solo split must use the 8 solo cards")


def deck_for(players: int) -> list[str]:
    """The cards at this count: none marked for more players; solo as 2 (SETUP-01, AMB-73);
    with Module 2 at 5 or 6 players none marked 4 (HRE-M02-SETUP-03, AMB-66)."""
    n = max(2, players)
    gone = 4 if n in (5, 6) else None
    return [c["id"] for c in book()["cards"] if c["players"] <= n and c["players"] != gone]


def _sections(deck: list[str], count: int) -> list[list[str]]:
    """The deck cut into `count` even sections, bottom first (the top is the deck's end); a
    deck that does not divide evenly has its larger sections on top."""
    size, extra = divmod(len(deck), count)
    cuts = [0]
    for i in range(count):
        cuts.append(cuts[-1] + size + (1 if i >= count - extra else 0))
    return [deck[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]


m13a = part("m13a")


def _harder(state: State) -> bool:
    """Solo on hard: the book's harder Benjamin split (SOLO-02) is one of the hard switches."""
    return plays(state, "M01") and option_value(state, "difficulty") == "hard"


@hook
def _setup(state: State) -> None:
    state["m13a"] = {
        "stacks": [[] for _ in state["seats"]],
        "fourth": [False] * len(state["seats"]),
    }


@hook
def _deck_built(ctx: Ctx, deck: list[str]) -> None:
    """Half the cards into each half of the shuffled deck (SETUP-01, -02; SOLO-02 on hard); with
    5 to 8 players, into the top and the middle third."""
    solo = plays(ctx.s, "M01")
    players = int(ctx.s["players"])
    cards = deck_for(1 if solo else players)
    rng.shuffle(ctx.s, cards)
    parts = "thirds" if players > 4 else "halves"
    per_half = int(book()[parts]["1" if solo else str(players)])
    if _harder(ctx.s):
        per_half = int(book()["solo_harder"]["per_half"])
        given = sorted(cards[2 * per_half :])
        m13a(ctx.s)["stacks"][LORDLINGS] = given
        ctx.log(
            "HRE-M13A-SOLO-02",
            f"Hard: only {per_half} + {per_half} Benjamin cards go into the deck; the Lordlings "
            f"start with the other {len(given)}.",
        )
    top, lower = cards[:per_half], cards[per_half : 2 * per_half]
    sections = _sections(deck, 3 if parts == "thirds" else 2)
    for section, added in zip(sections[-2:], (lower, top), strict=True):
        section += added
        rng.shuffle(ctx.s, section)
    deck[:] = [card for section in sections for card in section]
    upper, under = (
        ("top third", "middle third") if parts == "thirds" else ("top half", "bottom half")
    )
    ctx.log(
        "HRE-M13A-SETUP-02",
        f"{per_half} Travels of Benjamin cards are shuffled into the {upper} of the Culture deck "
        f"and {per_half} into the {under}.",
    )


# ---------------------------------------------------------------- taking a card, its reward


@hook
def _card_taken(ctx: Ctx, seat: int, card: str) -> bool:
    if ctx.d.cards[card]["type"] != "benjamin":
        return False
    hand = ctx.seat(seat)["hand"]
    if card in hand:
        hand.remove(card)
    stack = m13a(ctx.s)["stacks"][seat]
    stack.append(card)
    if plays(ctx.s, "M01") and seat == LORDLINGS:
        ctx.seat(seat)["vp"] += len(stack)
        ctx.log(
            "HRE-M13A-SOLO-01",
            f"The Lordlings keep {ctx.d.cards[card]['name']} and score {len(stack)} VP, "
            f"one for each of their {len(stack)} Benjamin cards.",
        )
        return True
    ctx.log(
        "HRE-M13A-PLAY-01",
        f"{ctx.name(seat)} lays {ctx.d.cards[card]['name']} beside their board "
        f"(Benjamin card {len(stack)}; not in the hand, not a Technology).",
    )
    ctx.push({"kind": "m13a_reward", "seat": seat, "count": len(stack)})
    return True


def unlocked(state: State, seat: int, count: int) -> list[int]:
    """The rewards the count-th card offers: the first min(count, 5), the fourth once (PLAY-02)."""
    found = list(range(1, min(count, 5) + 1))
    return [n for n in found if not (n == FOURTH and m13a(state)["fourth"][seat])]


def farm_places(ctx: Ctx, seat: int) -> list[str]:
    """Provinces you control with room for one more Farm (AMB-64); none with an empty track."""
    if ctx.seat(seat)["farms_track"] <= 0:
        return []
    cap = modules.farm_cap(ctx.s, seat)
    return [p for p in controlled(ctx.s, seat) if ctx.s["prov"][p]["farms"] < cap]


def _reward_options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat, opts = frame["seat"], []
    for n in unlocked(ctx.s, seat, frame["count"]):
        for choice in book()["rewards"][n - 1]["choices"]:
            if "gain" in choice:
                opts.append(
                    option(
                        {"m13a": n, "gain": choice["gain"]},
                        f"Reward {n}: {describe(choice['gain'])}",
                    )
                )
            elif "farm" in choice:
                for p in farm_places(ctx, seat):
                    name = ctx.d.provinces[p]["name"]
                    opts.append(
                        option(
                            {"m13a": n, "prov": p}, f"Reward {n}: a Farm from your track in {name}"
                        )
                    )
            else:
                opts.append(
                    option({"m13a": n}, f"Reward {n}: from now on a third Farm in each province")
                )
    return opts


def _reward_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    seat, n = frame["seat"], int(action["m13a"])
    if "gain" in action:
        gain(ctx, seat, action["gain"], "HRE-M13A-PLAY-03", f" (Benjamin reward {n})")
    elif "prov" in action:
        _place_farm(ctx, seat, action["prov"])
    else:
        m13a(ctx.s)["fourth"][seat] = True
        ctx.log(
            "HRE-M13A-PLAY-03",
            f"{ctx.name(seat)} may now build a third Farm in each province they control "
            "(Build, at a Farm's cost).",
        )


def _place_farm(ctx: Ctx, seat: int, prov: str) -> None:
    """The leftmost Farm of the track into the province; a first Farm there settles it."""
    here = ctx.s["prov"][prov]
    ctx.seat(seat)["farms_track"] -= 1
    here["farms"] += 1
    ctx.log(
        "HRE-M13A-PLAY-03",
        f"{ctx.name(seat)} places a Farm from their track in {ctx.d.provinces[prov]['name']} "
        f"({here['farms']} there).",
    )
    if here["farms"] == 1:
        modules.settled(ctx, seat, prov)


handlers.decision(
    "m13a_reward",
    "HRE-M13A-PLAY-02",
    lambda ctx, f: f"Travels of Benjamin, card {f['count']}: choose one reward",
    _reward_options,
    _reward_choose,
)


# ---------------------------------------------------------------- views and checks


@hook
def _card_holder(state: State, card: str) -> int | None:
    return next((i for i, s in enumerate(m13a(state)["stacks"]) if card in s), None)


@hook
def _farm_cap(state: State, seat: int) -> int:
    return 3 if m13a(state)["fourth"][seat] else 2


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """Collected cards lie face up; the rest of the route is in the deck or the offer."""
    t = m13a(state)
    found["benjamin"] = {
        "stacks": [list(s) for s in t["stacks"]],
        "fourth": list(t["fourth"]),
        "route": deck_for(1 if plays(state, "M01") else int(state["players"])),
    }


@hook
def _determinize(state: State, seat: int) -> None:
    """A re-deal never puts a Benjamin card in a hand: they go straight beside the board."""
    modules.keep_out_of_hands(state, seat, data().cards)


@hook
def _held(state: State, kind: str) -> list[str]:
    return [c for s in m13a(state)["stacks"] for c in s] if kind == "cards" else []


@hook
def _invariants(state: State) -> None:
    t = m13a(state)
    for stack in t["stacks"]:
        if any(data().cards[c]["type"] != "benjamin" for c in stack):
            raise InvariantError("a card that is no Benjamin card lies on a Benjamin stack")
    for me in state["seats"]:
        if any(data().cards[c]["type"] == "benjamin" for c in me["hand"]):
            raise InvariantError("a Benjamin card is in a hand")


MODULE = declare(__name__, "M13A", data_files=("m13a_benjamin.json",))
