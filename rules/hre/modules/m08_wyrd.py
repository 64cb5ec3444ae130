"""Module 8, The Wyrd (HRE L679-700; reference §1.30): fate tucked under the Culture offer.

Cards and penalties are authored (`rules/hre/data/m08_wyrd.json`, §2.10). State `m08`: the face
down `deck`, `under` (the Culture card each face-down Wyrd lies under: it slides with that card
because it is tied to the card, not to a space, HRE-M08-PLAY-01), each seat's `active` Wyrds with
their markers and its `fulfilled` ones (face down, kept), the Wyrds `removed` unseen, and
`forced` (the card taken only thanks to its Wyrd, HRE-M08-PLAY-05).

- After the offer is dealt, the top Wyrd goes under the rightmost card (HRE-M08-SETUP-01);
  markers are plentiful, so nobody runs short (HRE-M08-SETUP-02).
- A card carrying a Wyrd can be taken by anyone, whatever their Culture track (HRE-M08-PLAY-02):
  the Development of Culture prompt offers it beyond the seat's reach.
- Whoever takes such a card, before seeing the Wyrd, removes it unseen or activates it with one
  marker per player; activating takes one marker off each of every player's other active Wyrds
  (HRE-M08-PLAY-03, -04). Taken beyond reach, it must be activated (HRE-M08-PLAY-05). The module
  sees the taking at the next decision (its `auto` hook), whichever action took the card.
- A Wyrd with no marker left is fulfilled: its owner suffers one of its two penalties, one that
  can be paid in full; if neither can, the bottom one as far as it goes (HRE-M08-PLAY-06).
- Then the next Wyrd goes under the rightmost card without one (HRE-M08-PLAY-07); with none left,
  every active Wyrd is fulfilled at once (HRE-M08-PLAY-08).
- At the end the most Wyrds, active or fulfilled, score 7 VP, every tied player included (HRE-
  M08-END-01, AMB-59).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.core.machine import Extension
from rules.hre import culture, handlers
from rules.hre.economy import accessible
from rules.hre.handlers import option
from rules.hre.modules import (
    card_holder,
    category,
    declare,
    files,
    hook,
    majority,
    part,
)
from rules.hre.state import RESOURCES, Ctx, Frame, describe

LOSSES = ("vp", "gold", *RESOURCES)


def _check_card(where: str, card: dict[str, Any]) -> None:
    """Each card has a top and a bottom penalty (L696); the western half's are marked so."""
    if card.get("half") not in (None, "western"):
        raise ValueError(f'{where}: a card of this box, or of the western half ("western")')
    pens = card["penalties"]
    if len(pens) != 2 or any(not p or set(p) - set(LOSSES) for p in pens):
        raise ValueError(f"{where} needs two penalties of {LOSSES}")
    if not all(isinstance(n, int) and n > 0 for p in pens for n in p.values()):
        raise ValueError(f"{where} penalties must be positive")


# 12 cards CY01-CY12, and 24 with Module 2's western half, CY13-CY24 (L683)
BOOK = files.Book("m08_wyrd.json", "CY", 24, _check_card)
_raw, cards = BOOK.raw, BOOK.cards
TUCKED = {2: 1, 3: 1, 4: 1, 5: 2, 6: 2, 7: 2, 8: 2}  # Wyrds tucked at the start (L687)


@hook
def validate() -> None:
    """The cards; 12 of each half, the western ones at 5-8 players only; the book's tucks."""
    BOOK.check()
    if len(deck_for(4)) != 12 or len(deck_for(5)) != 24:
        raise ValueError("m08_wyrd.json: 12 Wyrds for 2-4 players, 24 for 5-8 (L683)")
    if {int(n): k for n, k in _raw()["tucked"].items()} != TUCKED:
        raise ValueError("m08_wyrd.json: one Wyrd tucked at the start, two at 5-8 players (L687)")


def deck_for(players: int) -> list[str]:
    """The Wyrds of this count: both halves' with 5 to 8 players (HRE-M08-SETUP-01)."""
    return sorted(c for c, spec in cards().items() if players > 4 or spec.get("half") is None)


m08 = part("m08")


@hook
def _setup(state: State) -> None:
    n = len(state["seats"])
    deck = deck_for(n)
    rng.shuffle(state, deck)
    state["m08"] = {
        "deck": deck,
        "under": {},
        "active": [[] for _ in range(n)],
        "fulfilled": [[] for _ in range(n)],
        "removed": [],
        "forced": None,
    }


def _setup_wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """Once the offer is dealt, a Wyrd goes face down under its rightmost card, one under each
    of the two rightmost with 5 to 8 players (SETUP-01)."""
    inner(ctx, frame)
    if "m08" in ctx.s:
        ctx.log("HRE-M08-SETUP-02", "Every player takes their markers for the Wyrd.")
        for _ in range(int(_raw()["tucked"][str(ctx.s["players"])])):
            _tuck(ctx, "HRE-M08-SETUP-01")


def _tuck(ctx: Ctx, rule: str) -> None:
    """The next Wyrd under the rightmost offer card without one; none left, all resolve."""
    t = m08(ctx.s)
    if not t["deck"]:
        _resolve_all(ctx)
        return
    free = [c for c in ctx.s["offer"] if c not in t["under"]]
    if not free:
        return
    t["under"][free[-1]] = t["deck"].pop()
    ctx.log(rule, f"A Wyrd card is tucked face down under {ctx.d.cards[free[-1]]['name']}.")


handlers.MACHINE.wrap_step("setup_finish", _setup_wrapper)


@hook
def _offer_leave(ctx: Ctx, card: str) -> None:
    """A discarded card's Wyrd moves under the rightmost card without one (PLAY-01)."""
    t = m08(ctx.s)
    wyrd = t["under"].pop(card, None)
    if wyrd is None:
        return
    free = [c for c in ctx.s["offer"] if c not in t["under"]]
    if free:
        t["under"][free[-1]] = wyrd
        ctx.log("HRE-M08-PLAY-01", f"Its Wyrd moves under {ctx.d.cards[free[-1]]['name']}.")
    else:
        t["deck"].insert(0, wyrd)  # no card to carry it: back under the Wyrd deck, unseen


# ---------------------------------------------------------------- taking a card with a Wyrd


def _reach_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    """Cards beyond the seat's reach that carry a Wyrd (PLAY-02)."""
    if "m08" not in ctx.s:
        return []
    reach = accessible(ctx, seat)
    return [
        option(
            {"do": "m08_take", "take": i},
            f"Take {ctx.d.cards[c]['name']} (beyond your reach, thanks to its Wyrd)",
        )
        for i, c in enumerate(ctx.s["offer"])
        if i >= reach and c in m08(ctx.s)["under"]
    ]


def _reach_take(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    ctx.s["stack"].pop()
    m08(ctx.s)["forced"] = ctx.s["offer"][action["take"]]
    culture.take(ctx, seat, action["take"], "HRE-M08-PLAY-02")


handlers.MACHINE.extend("culture", Extension(("m08_take",), _reach_options, _reach_take))


@hook
def _auto(ctx: Ctx) -> bool:
    """A card taken with its Wyrd: its taker decides the Wyrd's fate now (PLAY-03)."""
    t: dict[str, Any] = ctx.s.get("m08") or {"under": {}}  # no part yet: nothing was taken
    offer = ctx.s["offer"]
    if all(c in offer for c in t["under"]):
        return False  # the usual case, checked at every step: every Wyrd still lies in the offer
    taken = [c for c in sorted(t["under"]) if c not in offer]
    for card in taken:
        taker = card_holder(ctx.s, card)  # a hand, or beside a board (a Benjamin card, M13A)
        wyrd = t["under"].pop(card)
        if taker is None:  # gone another way (cannot happen: only taking moves it off)
            t["removed"].append(wyrd)
            continue
        ctx.push({"kind": "m08_fate", "seat": taker, "card": card, "wyrd": wyrd})
        return True
    return False


def _fate_options(ctx: Ctx, frame: Frame) -> list[Option]:
    name = ctx.d.cards[frame["card"]]["name"]
    activate = option({"m08_fate": "activate"}, f"Activate the Wyrd that came with {name}")
    if m08(ctx.s)["forced"] == frame["card"]:
        return [activate]  # taken only thanks to it (PLAY-05)
    return [activate, option({"m08_fate": "remove"}, "Remove the Wyrd from play unseen")]


def _fate_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    t, seat, wyrd = m08(ctx.s), frame["seat"], frame["wyrd"]
    if t["forced"] == frame["card"]:
        t["forced"] = None
    if action["m08_fate"] == "remove":
        t["removed"].append(wyrd)
        ctx.log("HRE-M08-PLAY-03", f"{ctx.name(seat)} removes the Wyrd from play unseen.")
    else:
        activate(ctx, seat, wyrd)
    _tuck(ctx, "HRE-M08-PLAY-07")


handlers.decision(
    "m08_fate",
    "HRE-M08-PLAY-03",
    lambda ctx, f: "The Wyrd: remove it unseen, or activate it?",
    _fate_options,
    _fate_choose,
)


def activate(ctx: Ctx, seat: int, wyrd: str) -> None:
    """Face up with a marker per player; one marker off every other active Wyrd (PLAY-03, -04)."""
    t = m08(ctx.s)
    n = len(ctx.s["seats"])
    ctx.log(
        "HRE-M08-PLAY-03",
        f"{ctx.name(seat)} activates the Wyrd {cards()[wyrd]['name']} with {n} markers.",
    )
    for owner in range(n):
        for entry in t["active"][owner]:
            entry["markers"] -= 1
    t["active"][seat].append({"card": wyrd, "markers": n})
    ctx.log("HRE-M08-PLAY-04", "Every player takes one marker off each of their other Wyrds.")
    for owner in range(n):
        for entry in [e for e in t["active"][owner] if e["markers"] <= 0]:
            fulfil(ctx, owner, entry)


def fulfil(ctx: Ctx, seat: int, entry: dict[str, Any]) -> None:
    """The curse comes due: a penalty now, the card kept face down (PLAY-06)."""
    t = m08(ctx.s)
    t["active"][seat].remove(entry)
    t["fulfilled"][seat].append(entry["card"])
    pens = cards()[entry["card"]]["penalties"]
    full = [i for i, p in enumerate(pens) if _payable(ctx, seat, p)]
    name = cards()[entry["card"]]["name"]
    if len(full) == 2:
        ctx.push({"kind": "m08_penalty", "seat": seat, "wyrd": entry["card"]})
        return
    which = full[0] if full else 1  # neither in full: the bottom one, as far as it goes
    _suffer(ctx, seat, entry["card"], which, "" if full else " (as far as it goes)")
    ctx.log("HRE-M08-PLAY-06", f"The Wyrd {name} of {ctx.name(seat)} is fulfilled.")


def _payable(ctx: Ctx, seat: int, penalty: dict[str, int]) -> bool:
    me = ctx.seat(seat)
    have = {"vp": me["vp"], "gold": me["gold"], **me["res"]}
    return all(have[k] >= n for k, n in penalty.items())


def _suffer(ctx: Ctx, seat: int, wyrd: str, which: int, how: str = "") -> None:
    me = ctx.seat(seat)
    paid = {}
    for key, n in cards()[wyrd]["penalties"][which].items():
        if key == "vp":
            paid[key] = min(n, int(me["vp"]))
            me["vp"] -= paid[key]
        elif key == "gold":
            paid[key] = min(n, int(me["gold"]))
            me["gold"] -= paid[key]
        else:
            paid[key] = min(n, int(me["res"][key]))
            me["res"][key] -= paid[key]
    ctx.log(
        "HRE-M08-PLAY-06",
        f"{ctx.name(seat)} suffers the Wyrd {cards()[wyrd]['name']}: loses {describe(paid)}{how}.",
    )


def _penalty_options(ctx: Ctx, frame: Frame) -> list[Option]:
    """The penalties payable in full now; if another curse paid first left none, the bottom
    one as far as it goes (PLAY-06), as `fulfil` does when none is payable at once."""
    pens = cards()[frame["wyrd"]]["penalties"]
    where = ("top", "bottom")
    found = [
        option({"m08_penalty": i}, f"Suffer the {where[i]} penalty: lose {describe(p)}")
        for i, p in enumerate(pens)
        if _payable(ctx, frame["seat"], p)
    ]
    last = len(pens) - 1
    words = f"Suffer the bottom penalty as far as it goes: lose {describe(pens[last])}"
    return found or [option({"m08_penalty": last}, words)]


def _penalty_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    full = _payable(ctx, frame["seat"], cards()[frame["wyrd"]]["penalties"][action["m08_penalty"]])
    how = "" if full else " (as far as it goes)"
    _suffer(ctx, frame["seat"], frame["wyrd"], action["m08_penalty"], how)


handlers.decision(
    "m08_penalty",
    "HRE-M08-PLAY-06",
    lambda ctx, f: f"The Wyrd {cards()[f['wyrd']]['name']} is fulfilled: choose your penalty",
    _penalty_options,
    _penalty_choose,
    once=True,
)


def _resolve_all(ctx: Ctx) -> None:
    """No Wyrd left to tuck: every active one is fulfilled now, markers or not (PLAY-08)."""
    t = m08(ctx.s)
    if not any(t["active"]):
        return
    ctx.log("HRE-M08-PLAY-08", "The Wyrd deck is empty: every active Wyrd comes due at once.")
    for seat in range(len(t["active"])):
        for entry in list(t["active"][seat]):
            fulfil(ctx, seat, entry)


# ---------------------------------------------------------------- score, views, checks


def wyrd_vp(state: State) -> dict[int, int]:
    """7 VP to the most Wyrds, active or fulfilled; ties all score (END-01, AMB-59)."""
    t = m08(state)
    counts = [len(a) + len(f) for a, f in zip(t["active"], t["fulfilled"], strict=True)]
    return majority(counts, [int(_raw()["majority_vp"])])


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """Face-down Wyrds show only where they lie; active and fulfilled ones are known."""
    t = m08(state)
    found["wyrd"] = {
        "deck_count": len(t["deck"]),
        "under": sorted(c for c in t["under"]),
        "active": [[dict(e) for e in a] for a in t["active"]],
        "fulfilled": [list(f) for f in t["fulfilled"]],
        "removed_count": len(t["removed"]),
    }


def _hidden(state: State) -> list[str]:
    t = m08(state)
    held = [f["wyrd"] for f in state["stack"] if f["kind"] == "m08_fate"]
    return sorted(t["deck"] + list(t["under"].values()) + t["removed"] + held)


@hook
def _determinize(state: State, seat: int) -> None:
    """Every face-down Wyrd is re-dealt: the deck, those under cards, those removed."""
    t = m08(state)
    pool = _hidden(state)
    rng.shuffle(state, pool)
    for frame in state["stack"]:
        if frame["kind"] == "m08_fate":
            frame["wyrd"] = pool.pop()
    for card in sorted(t["under"]):
        t["under"][card] = pool.pop()
    t["removed"] = sorted(pool[: len(t["removed"])])
    t["deck"] = pool[len(t["removed"]) :]


@hook
def _invariants(state: State) -> None:
    t = m08(state)
    shown = [e["card"] for a in t["active"] for e in a] + [c for f in t["fulfilled"] for c in f]
    if sorted(shown + _hidden(state)) != deck_for(int(state["players"])):
        raise InvariantError("Wyrd cards are not conserved")
    if any(e["markers"] <= 0 for a in t["active"] for e in a) and not any(
        f["kind"] == "m08_penalty" for f in state["stack"]
    ):
        raise InvariantError("an active Wyrd without markers")


@hook
def _undo_barrier(before: State, after: State) -> bool:
    """An activated Wyrd shows its face: no undo past it."""
    return bool(m08(before)["active"] != m08(after)["active"])


MODULE = declare(__name__, "M08", BOOK, scores=category("wyrd", wyrd_vp))
