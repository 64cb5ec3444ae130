"""Module 5, Alliances (HRE L631-648; reference §1.27): pacts made when two realms first meet.

Cards and benefits are authored (`rules/hre/data/m05_alliances.json`, §2.10). State `m05`: each
seat's Alliance `hands` (hidden, not Culture cards, so no hand limit sees them), its player
`markers` left, the `allies` in play (the card, who holds it, whose marker lies on it), the pairs
that have `met` (shared a border once), and the cards `unseen` (never dealt) or `out` (broken).

- Two players negotiate only the first time they share a border, and only if both hold an
  Alliance card (HRE-M05-PLAY-01). A border can appear through any move or placement, on any turn
  (AMB-67), so the module looks for new ones whenever a decision comes up (its `auto` hook) and
  keeps a flag per pair. The pairs found at once are negotiated in turn order from the active
  player, the one whose action made them; a player who meets several rivals declines the ones
  they do not want (so chooses "one or two", HRE-M05-PLAY-02), and runs out of cards after two.
- A negotiation: the first player offers a card (or nothing), the other sees it and offers one
  back (or refuses), the first sees that and agrees or refuses. Agreed, the deal is binding: each
  holds the other's card face up with the giver's marker on it (HRE-M05-PLAY-03); only the two of
  them see the cards offered before that.
- A "received" benefit pays at once, a "pass" benefit at every Pass of its holder
  (HRE-M05-PLAY-04).
- Attacking a player whose marker lies on one of your Alliances breaks it: the attacker loses 5 VP
  (not below 0) and exhausts every unused Noble disc, and the pair's cards and markers leave the
  game (HRE-M05-PLAY-05).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from operator import itemgetter
from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.hre import handlers
from rules.hre.economy import gain
from rules.hre.handlers import option
from rules.hre.modules import declare, files, hook, part
from rules.hre.state import Ctx, Frame, data, describe

WHEN = ("received", "pass")


def _check_card(where: str, card: dict[str, Any]) -> None:
    """Each card one benefit, received or at a Pass (L642-644)."""
    amounts = card["gain"]
    keys = {"gold", "vp", "cp", "wood", "leather", "stone", "iron"}
    if card["when"] not in WHEN or not amounts or set(amounts) - keys:
        raise ValueError(f"{where} needs a 'when' and a gain")
    if not all(isinstance(n, int) and n > 0 for n in amounts.values()):
        raise ValueError(f"{where} gains must be positive")


BOOK = files.Book("m05_alliances.json", "CA", 8, _check_card)  # 8 cards CA01-CA08 (L636)
_raw, cards = BOOK.raw, BOOK.cards


m05 = part("m05")


def label(cid: str) -> str:
    card = cards()[cid]
    when = "when received" if card["when"] == "received" else "at each of your Passes"
    return f"{card['name']} ({describe(card['gain'])} {when})"


@hook
def _setup(state: State) -> None:
    """Two Alliance cards each, hidden; two player markers each (SETUP-01)."""
    n, dealt = len(state["seats"]), int(_raw()["dealt"])
    deck = sorted(cards())
    rng.shuffle(state, deck)
    state["m05"] = {
        "hands": [sorted(deck[i * dealt : (i + 1) * dealt]) for i in range(n)],
        "markers": [int(_raw()["markers"])] * n,
        "allies": [],
        "met": [],
        "unseen": sorted(deck[n * dealt :]),
        "out": [],
    }
    handlers.after_setup(state, "m05_setup")


@handlers.once("m05_setup")
def _log_setup(ctx: Ctx, frame: Frame) -> None:
    ctx.log(
        "HRE-M05-SETUP-01",
        "Every player is dealt 2 Alliance cards, face down, and keeps 2 player markers.",
        {
            i: "Your Alliance cards: " + ", ".join(label(c) for c in h)
            for i, h in enumerate(m05(ctx.s)["hands"])
        },
    )


# ---------------------------------------------------------------- first borders


def _pair(a: int, b: int) -> str:
    return f"{min(a, b)}-{max(a, b)}"


def bordering(state: State) -> frozenset[str]:
    """Every pair of seats controlling neighbouring provinces now."""
    players = int(state["players"])
    # By id, never by the dict's own order (a database may store the keys in another order).
    provinces = _pick(players)(state["prov"])
    return _bordering(players, tuple(map(_OWNER, provinces)))


_OWNER = itemgetter("owner")


@cache
def _pick(players: int) -> itemgetter[Any]:
    return itemgetter(*_in_play(players))


@cache
def _in_play(players: int) -> tuple[str, ...]:
    """The provinces of the table, in the order the set-up lays them out (by id)."""
    return tuple(p for p, spec in sorted(data().provinces.items()) if spec["players"] <= players)


@lru_cache(maxsize=4096)
def _bordering(players: int, owners: tuple[int | None, ...]) -> frozenset[str]:
    """The pairs for one layout of owners (the same layout recurs turn after turn)."""
    pids = _in_play(players)
    held = {pid: who for pid, who in zip(pids, owners, strict=True) if who is not None}
    found = set()
    for pid, a in held.items():
        for q in data().adjacent[pid]:
            b = held.get(q)
            if b is not None and b != a:
                found.add(_pair(a, b))
    return frozenset(found)


@hook
def _auto(ctx: Ctx) -> bool:
    """New first borders start negotiations; True when one was pushed (PLAY-01, AMB-67)."""
    t = ctx.s.get("m05")
    if t is None or not ctx.s["prov"]:
        return False
    n = len(t["hands"])
    if len(t["met"]) == n * (n - 1) // 2:
        return False  # every pair has met: no first border is left to find
    found = bordering(ctx.s).difference(t["met"])
    if not found:
        return False
    new = sorted(found)
    t["met"] = sorted(t["met"] + new)
    n, first = len(ctx.s["seats"]), ctx.s["active"] or 0
    talks = []
    for pair in new:
        a, b = (int(x) for x in pair.split("-"))
        lead, other = sorted((a, b), key=lambda s: (s - first) % n)
        ctx.log(
            "HRE-M05-PLAY-01", f"{ctx.name(a)} and {ctx.name(b)} share a border for the first time."
        )
        if t["hands"][a] and t["hands"][b]:
            talks.append(((lead - first) % n, (other - first) % n, lead, other))
    for _, _, lead, other in sorted(talks, reverse=True):
        ctx.push({"kind": "m05_offer", "seat": lead, "with": other})
    return bool(talks)


# ---------------------------------------------------------------- the negotiation


def _offer_options(ctx: Ctx, frame: Frame) -> list[Option]:
    hand = m05(ctx.s)["hands"][frame["seat"]]
    if not hand or not m05(ctx.s)["hands"][frame["with"]]:
        return [option({"m05_offer": None}, "No Alliance is possible any more")]
    opts = [option({"m05_offer": c}, f"Offer {label(c)}") for c in hand]
    return [*opts, option({"m05_offer": None}, f"Seek no Alliance with {ctx.name(frame['with'])}")]


def _offer_made(ctx: Ctx, me: int, other: int, card: str, words: str, back: str = "") -> None:
    """A seat offers one of its cards: everyone reads `words`, only the two the card (PLAY-03)."""
    secret = {other: f"They offer you {label(card)}{back}.", me: f"You offer {label(card)}."}
    ctx.log("HRE-M05-PLAY-03", words, secret)


def _offer_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    card, lead, other = action["m05_offer"], frame["seat"], frame["with"]
    if card is None:
        ctx.log("HRE-M05-PLAY-02", f"{ctx.name(lead)} seeks no Alliance with {ctx.name(other)}.")
        return
    _offer_made(ctx, lead, other, card, f"{ctx.name(lead)} offers {ctx.name(other)} an Alliance.")
    ctx.push({"kind": "m05_answer", "seat": other, "with": lead, "offer": card})


def _answer_options(ctx: Ctx, frame: Frame) -> list[Option]:
    hand = m05(ctx.s)["hands"][frame["seat"]]
    opts = [
        option({"m05_answer": c}, f"Take {label(frame['offer'])}; offer {label(c)} in return")
        for c in hand
    ]
    return [*opts, option({"m05_answer": None}, "Refuse the Alliance")]


def _answer_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    card, me, lead = action["m05_answer"], frame["seat"], frame["with"]
    if card is None:
        ctx.log("HRE-M05-PLAY-03", f"{ctx.name(me)} refuses an Alliance with {ctx.name(lead)}.")
        return
    _offer_made(
        ctx, me, lead, card, f"{ctx.name(me)} answers with an offer of its own.", " in return"
    )
    ctx.push(
        {"kind": "m05_confirm", "seat": lead, "with": me, "offer": frame["offer"], "back": card}
    )


_confirm_options = handlers.yes_no(
    "m05_agree",
    lambda ctx, f: f"Agree: give {label(f['offer'])}, receive {label(f['back'])}",
    "Refuse the Alliance",
)


def _confirm_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    lead, other = frame["seat"], frame["with"]
    if not action["m05_agree"]:
        ctx.log("HRE-M05-PLAY-03", f"{ctx.name(lead)} refuses the Alliance with {ctx.name(other)}.")
        return
    _receive(ctx, other, frame["offer"], lead)
    _receive(ctx, lead, frame["back"], other)


def _receive(ctx: Ctx, holder: int, card: str, giver: int) -> None:
    """The card goes face up to its new holder with the giver's marker (PLAY-03, -04)."""
    t = m05(ctx.s)
    t["hands"][giver].remove(card)
    t["markers"][giver] -= 1
    t["allies"].append({"holder": holder, "card": card, "marker": giver})
    ctx.log(
        "HRE-M05-PLAY-03",
        f"{ctx.name(holder)} receives {label(card)} from {ctx.name(giver)}, with its marker.",
    )
    if cards()[card]["when"] == "received":
        gain(ctx, holder, cards()[card]["gain"], "HRE-M05-PLAY-04", " from the Alliance")


def _prompt(words: str) -> Callable[[Ctx, Frame], str]:
    return lambda ctx, f: words.format(partner=ctx.name(f["with"]))


handlers.decision(
    "m05_offer",
    "HRE-M05-PLAY-03",
    _prompt("Alliance: offer {partner} one of your Alliance cards?"),
    _offer_options,
    _offer_choose,
    once=True,
)
handlers.decision(
    "m05_answer",
    "HRE-M05-PLAY-03",
    _prompt("Alliance: {partner} offers you a card; answer"),
    _answer_options,
    _answer_choose,
    once=True,
)
handlers.decision(
    "m05_confirm",
    "HRE-M05-PLAY-03",
    _prompt("Alliance: {partner} answers; agree?"),
    _confirm_options,
    _confirm_choose,
    once=True,
)


# ---------------------------------------------------------------- Passes and broken Alliances


@hook
def _push_pass(ctx: Ctx, seat: int, mode: str) -> bool:
    """Each "pass" Alliance the seat holds pays as it Passes (PLAY-04); the Pass goes on."""
    for ally in m05(ctx.s)["allies"]:
        spec = cards()[ally["card"]]
        if ally["holder"] == seat and spec["when"] == "pass":
            gain(ctx, seat, spec["gain"], "HRE-M05-PLAY-04", f" from the Alliance {spec['name']}")
    return False


def _battle_wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """Starting a battle against an ally breaks the Alliance first (PLAY-05)."""
    if "m05" in ctx.s and "m05" not in frame:
        frame["m05"] = True
        att, dfn = frame["att"], frame["def"]
        if dfn is not None and any(
            a["holder"] == att and a["marker"] == dfn for a in m05(ctx.s)["allies"]
        ):
            break_alliance(ctx, att, dfn)
    inner(ctx, frame)


def break_alliance(ctx: Ctx, att: int, dfn: int) -> None:
    """-5 VP and every unused Noble exhausted for the attacker; the pair leaves play (PLAY-05)."""
    t = m05(ctx.s)
    me = ctx.seat(att)
    lost = min(int(_raw()["break_vp"]), int(me["vp"]))
    me["vp"] -= lost
    discs, me["discs"] = me["discs"], 0
    me["exhausted"] += discs
    gone = [a for a in t["allies"] if {a["holder"], a["marker"]} == {att, dfn}]
    t["allies"] = [a for a in t["allies"] if a not in gone]
    t["out"] = sorted(t["out"] + [a["card"] for a in gone])
    ctx.log(
        "HRE-M05-PLAY-05",
        f"{ctx.name(att)} attacks its ally {ctx.name(dfn)}: the Alliance is broken, "
        f"{ctx.name(att)} loses {lost} VP and exhausts {discs} unused Noble(s); both Alliance "
        "cards and markers leave the game.",
    )


handlers.MACHINE.wrap_step("battle", _battle_wrapper)


# ---------------------------------------------------------------- views and checks


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """Alliances in play are face up; hands are hidden (their sizes are not)."""
    t = m05(state)
    found["alliances"] = {
        "allies": [dict(a) for a in t["allies"]],
        "hand_counts": [len(h) for h in t["hands"]],
        "markers": list(t["markers"]),
        "met": list(t["met"]),
        "out": list(t["out"]),
        "mine": list(t["hands"][seat]) if seat is not None else [],
    }


@hook
def _determinize(state: State, seat: int) -> None:
    """Other seats' Alliance hands are re-dealt from every card the seat has not seen; a card
    offered in a negotiation under way stays with its owner (both parties have seen it)."""
    t = m05(state)
    pinned = _offered(state)
    others = [i for i in range(len(t["hands"])) if i != seat]
    pool = sorted(t["unseen"] + [c for i in others for c in t["hands"][i] if c not in pinned])
    rng.shuffle(state, pool)
    for i in others:
        kept = [c for c in t["hands"][i] if c in pinned]
        size = len(t["hands"][i]) - len(kept)
        t["hands"][i], pool = sorted(kept + pool[:size]), pool[size:]
    t["unseen"] = sorted(pool)


def _offered(state: State) -> set[str]:
    """Cards named by a negotiation under way."""
    found = set()
    for f in state["stack"]:
        if f["kind"] == "m05_answer":
            found.add(f["offer"])
        elif f["kind"] == "m05_confirm":
            found |= {f["offer"], f["back"]}
    return found


@hook
def _invariants(state: State) -> None:
    t = m05(state)
    everything = t["unseen"] + t["out"] + [a["card"] for a in t["allies"]]
    everything += [c for h in t["hands"] for c in h]
    if sorted(everything) != sorted(cards()):
        raise InvariantError("Alliance cards are not conserved")
    for seat, left in enumerate(t["markers"]):
        placed = sum(1 for a in t["allies"] if a["marker"] == seat)
        if left < 0 or left + placed > int(_raw()["markers"]):
            raise InvariantError(f"seat {seat} has {left} + {placed} Alliance markers")


def _talks(state: State) -> list[Any]:
    return [f for f in state["stack"] if f["kind"] in ("m05_answer", "m05_confirm")]


@hook
def _undo_barrier(before: State, after: State) -> bool:
    """An offer shown to the other party, or an Alliance made, cannot be taken back."""
    return _talks(before) != _talks(after) or m05(before)["allies"] != m05(after)["allies"]


MODULE = declare(__name__, "M05", BOOK)
