"""Module 10, Distant Campaigns (HRE L736-746; reference §1.32): armies sent far away.

Campaign cards (authored targets in `rules/hre/data/m10_campaigns.json`, §2.10) are dealt 3 a
player from those marked for the player count; each player removes 1 unseen and keeps 2, apart
from the hand (HRE-M10-SETUP-01). A Manoeuvre may play one instead of a normal move, sending the
group straight to the card's province (HRE-M10-PLAY-01). Beaten there, the survivors die unless
the player controls a neighbour of the target, where they retreat; the card is removed
(HRE-M10-PLAY-02). Winning, or finding the target empty (AMB-61), leaves the card in play: the
province may be settled at the Ruler's lowest cost until it is used or the player's next Pass
(HRE-M10-PLAY-03). With 5 to 8 players (Module 2) the deck holds the western half's 15 cards
too (authored, CM16-CM30), and the cards marked 4 leave at 5 and 6 players (AMB-66).

The players remove their card one after another, once the Rulers are drafted; each sees only
their own cards, so the order reveals nothing. Where several neighbours could take a beaten
army the player names one when playing the card (AMB-61 leaves it to them), which decides the same
thing before the dice rather than after.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.core.machine import Extension
from rules.core.words import counted
from rules.hre import handlers, manoeuvre
from rules.hre.handlers import option
from rules.hre.modules import declare, drop_unseen, files, hook, part
from rules.hre.state import Ctx, Frame, data, neighbours, unit_count

DEALT, KEPT = 3, 2  # L742
GREAT_DOMAIN = (5, 6, 7, 8)  # Module 2's counts, where the deck is doubled (L740)
FOUR, GREAT_DOMAIN_FOUR = 4, 7  # cards marked 4 leave the 5-6 player game (L742, AMB-66)


@cache
def _dying(n: int) -> str:
    """ "no unit survives to die", "its 1 surviving unit dies", "its 3 surviving units die"."""
    if n == 0:
        return "no unit of it survives"
    return f"its {counted(n, 'surviving unit')} {'dies' if n == 1 else 'die'}"


def cards() -> dict[str, dict[str, Any]]:
    """The Campaign cards by id, read once like every module's (shared: treat as read-only)."""
    return files.cards("m10_campaigns.json")


def _first_count(card: dict[str, Any]) -> int:
    """The fewest players with whom the card is in play: its marking for this box's cards; the
    western half's (Module 2's companion cards) from 5 players, from 7 if marked 4 (AMB-66)."""
    if card.get("half") != "western":
        return int(card["players"])
    return GREAT_DOMAIN_FOUR if card["players"] == FOUR else min(GREAT_DOMAIN)


@hook
def validate() -> None:
    """15 cards CM01-CM15 and the western half's CM16-CM30, each naming a province in play
    whenever the card is and not a Capital; enough of them to deal 3 each at every count."""
    found = cards()
    if sorted(found) != [f"CM{i:02d}" for i in range(1, 31)]:
        raise ValueError("m10_campaigns.json: expected the cards CM01 to CM30")
    capitals = {r["capital"] for r in data().rulers.values()}
    for cid, card in found.items():
        target = data().provinces.get(card["target"])
        if target is None or card["target"] in capitals:
            raise ValueError(f"m10_campaigns.json: {cid} must name a province that is no Capital")
        half = card.get("half")
        if half not in (None, "western") or (half == "western") != (target["players"] > FOUR):
            raise ValueError(f"m10_campaigns.json: {cid} names a province of its own half")
        if card["players"] not in (2, 3, 4) or target["players"] > _first_count(card):
            raise ValueError(f"m10_campaigns.json: {cid}'s province is not in play at its marking")
    for n in (2, 3, 4, *GREAT_DOMAIN):
        if len(deck_for(n)) < DEALT * n:
            raise ValueError(f"m10_campaigns.json: too few cards for {n} players")


m10 = part("m10")


def deck_for(players: int) -> list[str]:
    """The cards used at this player count (the others are marked for more, SETUP-01): with 5
    to 8 players (Module 2) both halves' cards but for those marked 4 at 5 and 6 (AMB-66)."""
    if players not in GREAT_DOMAIN:
        return sorted(c for c, spec in cards().items() if _first_count(spec) <= players)
    gone = FOUR if players < GREAT_DOMAIN_FOUR else None
    return sorted(c for c, spec in cards().items() if spec["players"] != gone)


@hook
def _setup(state: State) -> None:
    """Deal 3 each, the rest removed unseen; then each removes one (SETUP-01)."""
    n = len(state["seats"])
    deck = deck_for(n)
    rng.shuffle(state, deck)
    hands = [sorted(deck[i * DEALT : (i + 1) * DEALT]) for i in range(n)]
    state["m10"] = {
        "hands": hands,
        "unseen": sorted(deck[n * DEALT :]),  # removed face down: at setup, and the dropped ones
        "spent": [],  # removed face up after use
        "played": [None] * n,
    }
    for seat in range(n):  # seat 1 removes first
        state["stack"].insert(1, {"kind": "m10_drop", "seat": seat})


def _name(cid: str) -> str:
    return f"{cid} ({data().provinces[cards()[cid]['target']]['name']})"


def _drop_options(ctx: Ctx, frame: Frame) -> list[Option]:
    return [
        option({"drop": c}, f"Remove the Campaign to {_name(c)}")
        for c in m10(ctx.s)["hands"][frame["seat"]]
    ]


def _drop_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    seat, card = frame["seat"], action["drop"]
    words = f"{ctx.name(seat)} removes one of three Campaign cards unseen and keeps {KEPT}."
    name = f"the Campaign to {_name(card)}"
    drop_unseen(ctx, m10(ctx.s), seat, card, "HRE-M10-SETUP-01", words, name)


handlers.decision(
    "m10_drop",
    "HRE-M10-SETUP-01",
    lambda ctx, f: (
        "Distant Campaigns: remove one of your three Campaign cards (the others are kept)"
    ),
    _drop_options,
    _drop_choose,
    once=True,
)


# ---------------------------------------------------------------- playing a Campaign


def _fallbacks(ctx: Ctx, seat: int, target: str) -> list[str]:
    """Provinces the seat controls next to the target: where a beaten army may retreat."""
    return [p for p in neighbours(ctx.s, target) if ctx.s["prov"][p]["owner"] == seat]


def _campaign_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    if "m10" not in ctx.s or frame["regroup"] or m10(ctx.s)["played"][seat] is not None:
        return []
    opts = []
    names = ctx.d.provinces
    for card in m10(ctx.s)["hands"][seat]:
        target = cards()[card]["target"]
        if target not in ctx.s["prov"] or ctx.s["prov"][target]["owner"] == seat:
            continue
        sources = [
            p
            for p, here in sorted(ctx.s["prov"].items())
            if here["owner"] == seat and unit_count(here["units"]) and p != target
        ]
        for src in sources:
            backs: list[str | None] = [*_fallbacks(ctx, seat, target)] or [None]
            for back in backs:
                where = f"; beaten, retreat to {names[back]['name']}" if back else ""
                opts.append(
                    option(
                        {"do": "m10_campaign", "card": card, "from": src, "fallback": back},
                        f"Campaign: from {names[src]['name']} straight to "
                        f"{names[target]['name']}{where}",
                    )
                )
    return opts


def _campaign(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    card, src = action["card"], action["from"]
    target = cards()[card]["target"]
    state = m10(ctx.s)
    state["hands"][seat].remove(card)
    empty = not manoeuvre.hostile(ctx, seat, target)
    state["played"][seat] = {
        "card": card,
        "target": target,
        "fallback": action["fallback"],
        "won": empty,  # an empty target: no battle, the card stays (AMB-61)
    }
    ctx.log(
        "HRE-M10-PLAY-01",
        f"{ctx.name(seat)} plays the Campaign card to {ctx.d.provinces[target]['name']}: the group "
        f"marches there from {ctx.d.provinces[src]['name']}, however far.",
    )
    if empty:
        ctx.log(
            "HRE-M10-PLAY-03",
            "Nobody holds the target: no battle, and the card stays in play for a cheap settle.",
        )
    manoeuvre.move_choose(ctx, frame, {"from": src, "to": target})


@hook
def _attacker_retreats(ctx: Ctx, frame: dict[str, Any], units: dict[str, int]) -> bool:
    """A Campaign lost: survivors die, or go to the named neighbour; the card goes (PLAY-02)."""
    seat = frame["att"]
    played = m10(ctx.s)["played"][seat] if seat is not None else None
    if played is None or played["won"] or played["target"] != frame["prov"]:
        return False
    back = played["fallback"]
    if back is not None and ctx.s["prov"][back]["owner"] != seat:
        back = next(iter(_fallbacks(ctx, seat, played["target"])), None)
    name = ctx.d.provinces
    if back is None:
        ctx.log(
            "HRE-M10-PLAY-02",
            f"The Campaign fails with no province of {ctx.name(seat)} beside "
            f"{name[played['target']]['name']}: {_dying(unit_count(units))}.",
        )
    else:
        for u, n in units.items():
            ctx.s["prov"][back]["units"][u] += n
        ctx.log(
            "HRE-M10-PLAY-02",
            f"The Campaign fails: the survivors retreat to {name[back]['name']}.",
        )
    _spend(ctx, seat, "HRE-M10-PLAY-02", "the failed Campaign card is removed")
    return True


@hook
def _battle_won(ctx: Ctx, frame: dict[str, Any]) -> None:
    seat = frame["att"]
    played = m10(ctx.s)["played"][seat]
    if played is not None and not played["won"] and played["target"] == frame["prov"]:
        played["won"] = True
        ctx.log(
            "HRE-M10-PLAY-03",
            f"The Campaign succeeds: {ctx.name(seat)} may settle "
            f"{ctx.d.provinces[frame['prov']]['name']} at its lowest settling cost.",
        )


def _spend(ctx: Ctx, seat: int, rule: str, why: str) -> None:
    played = m10(ctx.s)["played"][seat]
    m10(ctx.s)["spent"].append(played["card"])
    m10(ctx.s)["played"][seat] = None
    ctx.log(rule, f"{ctx.name(seat)}: {why}.")


@hook
def _settle_cost(ctx: Ctx, seat: int, prov: str) -> int | None:
    """The won Campaign's province costs the Ruler's leftmost cost, lowered by nothing."""
    played = m10(ctx.s)["played"][seat]
    if played is None or not played["won"] or played["target"] != prov:
        return None
    return int(ctx.d.rulers[ctx.seat(seat)["ruler"]]["costs"][0])


@hook
def _settled(ctx: Ctx, seat: int, prov: str) -> None:
    played = m10(ctx.s)["played"][seat]
    if played is not None and played["won"] and played["target"] == prov:
        _spend(ctx, seat, "HRE-M10-PLAY-03", "the Campaign card is used and removed")


@hook
def _push_pass(ctx: Ctx, seat: int, mode: str) -> bool:
    """The card in play goes at its player's next Pass (PLAY-03); the Pass itself goes on."""
    if m10(ctx.s)["played"][seat] is not None:
        _spend(ctx, seat, "HRE-M10-PLAY-03", "the Campaign card in play is removed at the Pass")
    return False


handlers.MACHINE.extend("move", Extension(("m10_campaign",), _campaign_options, _campaign))


# ---------------------------------------------------------------- views and checks


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """Campaign cards in hand are hidden, their number is not; cards in play are face up."""
    t = m10(state)
    found["campaigns"] = {
        "hand_counts": [len(h) for h in t["hands"]],
        "mine": [{"card": c, "target": cards()[c]["target"]} for c in t["hands"][seat]]
        if seat is not None
        else [],
        "played": [dict(p) if p else None for p in t["played"]],
        "spent": list(t["spent"]),
    }


@hook
def _determinize(state: State, seat: int) -> None:
    """Other seats' Campaign cards are re-dealt from every card the seat has not seen."""
    t = m10(state)
    others = [i for i in range(len(t["hands"])) if i != seat]
    pool = sorted(t["unseen"] + [c for i in others for c in t["hands"][i]])
    rng.shuffle(state, pool)
    for i in others:
        size = len(t["hands"][i])
        t["hands"][i], pool = sorted(pool[:size]), pool[size:]
    t["unseen"] = sorted(pool)


@hook
def _invariants(state: State) -> None:
    t = m10(state)
    everything = t["unseen"] + t["spent"] + [c for h in t["hands"] for c in h]
    everything += [p["card"] for p in t["played"] if p]
    if sorted(everything) != deck_for(len(t["hands"])):
        raise InvariantError("Campaign cards are not conserved")
    if any(len(h) > KEPT for h in t["hands"]) and not any(
        f["kind"] == "m10_drop" for f in state["stack"]
    ):
        raise InvariantError("a player keeps more than 2 Campaign cards")


MODULE = declare(__name__, "M10", data_files=("m10_campaigns.json",))
