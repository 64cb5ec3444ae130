"""Module 15A, Rise of Poland (HRE L855-892; reference §1.37): aid Poland, flip its cards.

Data in `rules/hre/data/m15a_poland.json` (authored but for names, ids, the first Veleti step
and the 7 VP; §2.10): Mieszko I and Boleslaw Chrobry (Culture cards CR01, CR02), six Chrobry
events (CR03-CR08) and a player's three Poland cards (CR09-CR20 by colour), each a category:
`veleti` (flipped: Polish Military Alliance), `santok` (Santok), `church` (Jordan's
Bishopric). State under "m15a": `open` (the cards handed out), per seat and category the
marker's `step`, the card's `side` ("aiding", "flipped" or "removed") and `ready`; `first`, the
first to flip each category; `farms` on the cards; `steps` taken; the Chrobry deck (`events`)
and where the Chrobry card is (`chrobry`).

- Mieszko I goes into the top 5 cards once the offer is dealt (HRE-M15A-SETUP-01); the Chrobry
  events lie face down under the Chrobry card (SETUP-02); each player's three cards, Veleti,
  Building Santok and Polish Church up, wait for Mieszko I to enter the offer (AMB-58; option
  `poland_cards`: "setup" hands them out at once) (SETUP-03).
- After a Noble action that resolved (AMB-65), its player may take the next step of one card
  whose step names that action, meeting what it asks, for its VP (AID-01), the marker moving
  down (AID-02). The last step flips the card (FLIP-01); the first to flip the Polish Military
  Alliance or Santok may levy the others, who pay the flipper and flip theirs, or remove theirs
  (FLIP-02); Jordan's Bishopric removes every other Polish Church (FLIP-03). A flip puts the
  leftmost Farm of the track on the card for good (FLIP-04); the marker of a flipped or removed
  card leaves (FLIP-05).
- A flipped card's benefit comes with a Noble placed on its Action (not a Title's repeat,
  AMB-65), exhausting it (BENEFIT-01); a Pass refreshes it (BENEFIT-02). 7 VP a flipped card at
  the end (END-01). Aid, flips and Levies are in `m15a_aid.py`, the Chrobry card and events in
  `m15a_chrobry.py`, the data and state readers they share in `m15a_state.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import rng
from rules.core.engine import State
from rules.core.errors import InvariantError
from rules.hre import handlers, passing
from rules.hre.economy import gain
from rules.hre.modules import (
    declare,
    hook,
    keep_out_of_hands,
    m15a_aid,
    m15a_chrobry,
    option_value,
)
from rules.hre.modules.m15a_state import (
    CATEGORIES,
    CHROBRY,
    MIESZKO,
    book,
    card,
    flipped,
    m15a,
    spec,
)
from rules.hre.research import place_free_unit
from rules.hre.state import Ctx, Frame, data, in_supply

FLIP_VP = 7  # a flipped Poland card at the end (L892)
REFRESH = 9  # the Pass step that refreshes Titles (HRE-BASE-PASS-13)
TOP_MIESZKO = 5  # Mieszko I goes into the top 5 cards (L865)


@hook
def validate() -> None:
    """CR01-CR20: two Culture cards, six events, four sets of three; the book's first step."""
    raw = book()
    ids = [c["id"] for c in raw["cards"]] + [e["id"] for e in raw["events"]]
    ids += [c for s in raw["sets"] for c in s]
    if ids != [f"CR{i:02d}" for i in range(1, 21)] or len(raw["sets"]) != 4:
        raise ValueError("m15a_poland.json: CR01-CR20 (2 cards, 6 events, 4 sets of 3)")
    if sorted(raw["poland"]) != sorted(CATEGORIES):
        raise ValueError("m15a_poland.json: the Veleti, Santok and Polish Church cards")
    first = spec("veleti")["steps"][0]
    if first != {"action": "manoeuvre", "remove_unit": True}:
        raise ValueError("m15a_poland.json: the first Veleti step is the book's (L873)")
    if spec("church")["levy"] is not None:
        raise ValueError("m15a_poland.json: Jordan's Bishopric has no Levy (L876)")


@hook
def _setup(state: State) -> None:
    events = [e["id"] for e in book()["events"]]
    rng.shuffle(state, events)
    n = len(state["seats"])
    state["m15a"] = {
        "open": option_value(state, "poland_cards") == "setup",
        "cards": [
            {c: {"step": 0, "side": "aiding", "ready": True} for c in CATEGORIES} for _ in range(n)
        ],
        "first": dict.fromkeys(CATEGORIES),
        "farms": [0] * n,
        "steps": [0] * n,
        "events": events,
        "chrobry": "events",
        "done": [],
    }


def _setup_finish(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """Once the offer is dealt, Mieszko I goes into the top 5 cards (SETUP-01)."""
    inner(ctx, frame)
    if "m15a" not in ctx.s:
        return
    deck = ctx.s["deck"]
    deck.insert(len(deck) - rng.below(ctx.s, min(TOP_MIESZKO, len(deck)) + 1), MIESZKO)
    ctx.s["cards_in_game"] += 1  # Mieszko; the base setup counted Chrobry among held cards
    ctx.log("HRE-M15A-SETUP-01", "Mieszko I is shuffled into the top 5 cards of the Culture deck.")
    ctx.log(
        "HRE-M15A-SETUP-02", "The Chrobry events lie face down, the Chrobry card on top of them."
    )
    if m15a(ctx.s)["open"]:
        ctx.log(
            "HRE-M15A-SETUP-03", "Every player takes their three Poland cards (the variant chosen)."
        )


handlers.MACHINE.wrap_step("setup_finish", _setup_finish)


@hook
def offer_enter(ctx: Ctx, cid: str) -> None:
    """Mieszko I in the offer hands out the Poland cards (SETUP-03, AMB-58)."""
    t = m15a(ctx.s)
    if cid == MIESZKO and not t["open"]:
        t["open"] = True
        ctx.log(
            "HRE-M15A-SETUP-03",
            "Mieszko I appears in the offer: every player takes their three Poland cards, Veleti, "
            "Building Santok and Polish Church up, a marker above each first step.",
        )
    elif cid == CHROBRY:
        m15a_chrobry.revealed(ctx)


# ---------------------------------------------------------------- after an action; benefits


def _disc_placed(ctx: Ctx, seat: int) -> bool:
    """Whether the action now resolved came with a Noble, not a Title's repeat (AMB-65)."""
    turn = next((f for f in reversed(ctx.s["stack"]) if f["kind"] == "turn"), None)
    return turn is not None and turn["seat"] == seat and not turn["title_used"]


def usable(ctx: Ctx, seat: int, cat: str, action: str) -> bool:
    mine, benefit = card(ctx.s, seat, cat), spec(cat)["benefit"]
    if mine["side"] != "flipped" or not mine["ready"] or benefit["action"] != action:
        return False
    return "gain" in benefit or in_supply(ctx.s, seat, benefit["free_unit"]) > 0


def _after_action(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    seat, action, void = frame["seat"], frame["action"], frame.get("void", False)
    placed = "m15a" in ctx.s and _disc_placed(ctx, seat)
    inner(ctx, frame)
    if "m15a" not in ctx.s or not m15a(ctx.s)["open"]:
        return
    if not void and m15a_aid.aid_choices(ctx, seat, action):
        ctx.push({"kind": "m15a_aid", "seat": seat, "action": action})
    for cat in CATEGORIES:
        if placed and usable(ctx, seat, cat, action):
            ctx.push({"kind": "m15a_use", "seat": seat, "cat": cat})


handlers.MACHINE.wrap_step("after_action", _after_action)


def _benefit_words(cat: str) -> str:
    benefit = spec(cat)["benefit"]
    if "gain" in benefit:
        return ", ".join(f"{n} {k}" for k, n in benefit["gain"].items())
    return f"a free {benefit['free_unit']} in your Capital"


def _use_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    seat, cat = frame["seat"], frame["cat"]
    if not action["use"]:
        return
    card(ctx.s, seat, cat)["ready"] = False
    ctx.log("HRE-M15A-BENEFIT-01", f"{ctx.name(seat)} exhausts {spec(cat)['flipped']}.")
    benefit = spec(cat)["benefit"]
    if "gain" in benefit:
        gain(ctx, seat, benefit["gain"], "HRE-M15A-BENEFIT-01", f" from {spec(cat)['flipped']}")
    else:
        place_free_unit(ctx, seat, benefit["free_unit"], "HRE-M15A-BENEFIT-01")


handlers.decision(
    "m15a_use",
    "HRE-M15A-BENEFIT-01",
    lambda ctx, f: f"{spec(f['cat'])['flipped']}: use it with this Noble (it is then exhausted)?",
    handlers.yes_no("use", lambda ctx, f: f"Use it: {_benefit_words(f['cat'])}", "Keep it ready"),
    _use_choose,
    once=True,
)


def _refresh(ctx: Ctx, frame: Frame) -> None:
    """A Pass refreshes the seat's exhausted Poland cards with its Titles (BENEFIT-02)."""
    tired = [c for c in CATEGORIES if card(ctx.s, frame["seat"], c)["side"] == "flipped"]
    tired = [c for c in tired if not card(ctx.s, frame["seat"], c)["ready"]]
    for cat in tired:
        card(ctx.s, frame["seat"], cat)["ready"] = True
    if tired:
        ctx.log("HRE-M15A-BENEFIT-02", f"{ctx.name(frame['seat'])} refreshes their Poland cards.")


handlers.MACHINE.wrap_step("pass", passing.after_step(REFRESH, "m15a", _refresh))


# ---------------------------------------------------------------- scoring, views and checks


@hook
def _scores(state: State, seat: int) -> dict[str, int]:
    return {"poland": FLIP_VP * flipped(state, seat)}


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """Poland cards lie face up; the Chrobry deck's order stays hidden (only its size)."""
    t = m15a(state)
    found["poland"] = {
        "open": t["open"],
        "cards": [{c: dict(v) for c, v in mine.items()} for mine in t["cards"]],
        "first": dict(t["first"]),
        "farms": list(t["farms"]),
        "events_left": len(t["events"]),
        "chrobry": t["chrobry"],
        "done": list(t["done"]),
    }


@hook
def _held(state: State, kind: str) -> list[str]:
    t = m15a(state)
    if kind == "farms":
        return [str(i) for i, n in enumerate(t["farms"]) for _ in range(n)]
    if kind == "cards" and t["chrobry"] != "deck":
        return [CHROBRY]  # on the event deck, or removed from play
    return []


@hook
def _determinize(state: State, seat: int) -> None:
    """The Chrobry events' order is hidden; a re-deal keeps Chrobry out of every hand."""
    events = sorted(m15a(state)["events"])
    rng.shuffle(state, events)
    m15a(state)["events"] = events
    keep_out_of_hands(state, seat, data().cards)


@hook
def _invariants(state: State) -> None:
    t = m15a(state)
    every = sorted(t["events"] + t["done"])
    if every != sorted(e["id"] for e in book()["events"]):
        raise InvariantError("Chrobry events are not conserved")
    for mine in t["cards"]:
        for cat, c in mine.items():
            if c["side"] not in ("aiding", "flipped", "removed") or not 0 <= c["step"] <= 3:
                raise InvariantError(f"a {cat} Poland card is in a bad state: {c}")
    if min(t["farms"]) < 0:
        raise InvariantError("a negative number of Farms on Poland cards")


MODULE = declare(
    __name__,
    "M15A",
    data_files=("m15a_poland.json",),
    options={"poland_cards": ("mieszko", "setup")},
    option_text={
        "poland_cards": (
            "When the Poland cards arrive (Rise of Poland only)",
            "The book deals them at setup but shuffles Mieszko I into the deck; the maker's "
            "preview hands them out when Mieszko I reaches the offer.",
            {"mieszko": "When Mieszko I enters the offer", "setup": "At setup"},
        )
    },
)
