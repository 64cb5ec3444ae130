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
  the end (END-01). The Chrobry card and events are in `m15a_chrobry.py`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.hre import handlers, passing
from rules.hre.components import DATA_DIR
from rules.hre.economy import Cost, affordable, gain, request_payment
from rules.hre.handlers import option
from rules.hre.modules import Module, keep_out_of_hands, option_value, register, scenario
from rules.hre.research import place_free_unit
from rules.hre.state import UNITS, Ctx, Frame, in_supply, refresh_owner, unit_stats

CATEGORIES = ("veleti", "santok", "church")
MIESZKO, CHROBRY = "CR01", "CR02"
FLIP_VP = 7  # a flipped Poland card at the end (L892)
REFRESH = 9  # the Pass step that refreshes Titles (HRE-BASE-PASS-13)
TOP_MIESZKO = 5  # Mieszko I goes into the top 5 cards (L865)


@cache
def book() -> dict[str, Any]:
    raw: dict[str, Any] = json.loads((DATA_DIR / "m15a_poland.json").read_text("utf-8"))
    return raw


def spec(cat: str) -> dict[str, Any]:
    found: dict[str, Any] = book()["poland"][cat]
    return found


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


def m15a(state: State) -> dict[str, Any]:
    found: dict[str, Any] = state["m15a"]
    return found


def card(state: State, seat: int, cat: str) -> dict[str, Any]:
    found: dict[str, Any] = m15a(state)["cards"][seat][cat]
    return found


def flipped(state: State, seat: int) -> int:
    return sum(1 for c in CATEGORIES if card(state, seat, c)["side"] == "flipped")


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
        ctx.log("HRE-M15A-SETUP-03", "Every player takes their three Poland cards (AMB-58 option).")


handlers.MACHINE.wrap_step("setup_finish", _setup_finish)


def offer_enter(ctx: Ctx, cid: str) -> None:
    """Mieszko I in the offer hands out the Poland cards (SETUP-03, AMB-58)."""
    t = m15a(ctx.s)
    if cid == MIESZKO and not t["open"]:
        t["open"] = True
        ctx.log(
            "HRE-M15A-SETUP-03",
            "Mieszko I appears in the offer: every player takes their three Poland cards, Veleti, "
            "Building Santok and Polish Church up, a marker above each first step (AMB-58).",
        )
    elif cid == CHROBRY:
        from rules.hre.modules import m15a_chrobry  # on use: it reads this module's state

        m15a_chrobry.revealed(ctx)


# ---------------------------------------------------------------- aiding Poland


def unit_cost(ctx: Ctx, seat: int, unit: str) -> int:
    """How many resources a unit costs to recruit: the Veleti VP (AID-01, TC-19)."""
    return sum(int(n) for n in unit_stats(ctx.s, seat, unit)["cost"].values())


def _payable(ctx: Ctx, seat: int, cost: Cost) -> bool:
    gold = int(cost.get("gold", 0))
    if ctx.seat(seat)["gold"] < gold:
        return False
    rest = {k: v for k, v in cost.items() if k != "gold"}
    ctx.seat(seat)["gold"] -= gold
    fits = affordable(ctx, seat, rest)
    ctx.seat(seat)["gold"] += gold
    return fits


def _aid_options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat, action, names = frame["seat"], frame["action"], ctx.d.provinces
    opts = []
    for cat in CATEGORIES:
        mine = card(ctx.s, seat, cat)
        steps = spec(cat)["steps"]
        if mine["side"] != "aiding" or steps[mine["step"]]["action"] != action:
            continue
        step, label = (
            steps[mine["step"]],
            f"Aid Poland, {spec(cat)['name']} step {mine['step'] + 1}",
        )
        if step.get("remove_unit"):
            for p, here in sorted(ctx.s["prov"].items()):
                for u in UNITS:
                    if here["owner"] == seat and here["units"][u]:
                        vp = unit_cost(ctx, seat, u) + int(step.get("plus", 0))
                        opts.append(
                            option(
                                {"m15a": cat, "prov": p, "unit": u},
                                f"{label}: remove 1 {u} from {names[p]['name']} (+{vp} VP)",
                            )
                        )
        elif _payable(ctx, seat, step["pay"]):
            paid = ", ".join(f"{n} {k}" for k, n in sorted(step["pay"].items()))
            opts.append(option({"m15a": cat}, f"{label}: pay {paid} (+{step['vp']} VP)"))
    return opts


def aid_choices(ctx: Ctx, seat: int, action: str) -> bool:
    return bool(_aid_options(ctx, {"seat": seat, "action": action}))


def _aid_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    cat, seat = action["m15a"], frame["seat"]
    if cat is None:
        return
    step = spec(cat)["steps"][card(ctx.s, seat, cat)["step"]]
    if step.get("remove_unit"):
        prov, unit = action["prov"], action["unit"]
        ctx.s["prov"][prov]["units"][unit] -= 1
        refresh_owner(ctx.s, prov)
        ctx.log(
            "HRE-M15A-AID-01",
            f"{ctx.name(seat)} removes 1 {unit} from {ctx.d.provinces[prov]['name']} "
            "to fight the Veleti.",
        )
        complete(ctx, seat, cat, unit_cost(ctx, seat, unit) + int(step.get("plus", 0)))
        return
    cost = dict(step["pay"])
    ctx.seat(seat)["gold"] -= int(cost.pop("gold", 0))
    after = {"do": "m15a_aided", "cat": cat, "vp": int(step["vp"])}
    request_payment(ctx, seat, [cost], after, "HRE-M15A-AID-01")


@handlers.then("m15a_aided")
def _aided(ctx: Ctx, seat: int, data: dict[str, Any]) -> None:
    complete(ctx, seat, data["cat"], int(data["vp"]))


def complete(ctx: Ctx, seat: int, cat: str, vp: int) -> None:
    """The step is done: its VP, the marker down; the last step flips the card (AID-02)."""
    mine = card(ctx.s, seat, cat)
    mine["step"] += 1
    m15a(ctx.s)["steps"][seat] += 1
    gain(ctx, seat, {"vp": vp}, "HRE-M15A-AID-01", f" for aiding Poland ({spec(cat)['name']})")
    ctx.log(
        "HRE-M15A-AID-02",
        f"{ctx.name(seat)}'s marker moves down the {spec(cat)['name']} card "
        f"(step {mine['step']} of {len(spec(cat)['steps'])} done).",
    )
    if mine["step"] == len(spec(cat)["steps"]):
        flip(ctx, seat, cat, "HRE-M15A-FLIP-01")


def flip(ctx: Ctx, seat: int, cat: str, rule: str) -> None:
    """Turn a card to its strong side, with a Farm on it for good (FLIP-01, -04, -05)."""
    t = m15a(ctx.s)
    first_ever = not any(flipped(ctx.s, i) for i in range(len(t["cards"])))
    mine = card(ctx.s, seat, cat)
    mine.update(side="flipped", ready=True)
    ctx.log(rule, f"{ctx.name(seat)} flips {spec(cat)['name']}: {spec(cat)['flipped']}.")
    me = ctx.seat(seat)
    if me["farms_track"] > 0:
        me["farms_track"] -= 1
        t["farms"][seat] += 1
        ctx.log(
            "HRE-M15A-FLIP-04",
            f"The leftmost Farm of {ctx.name(seat)}'s track goes onto it for good.",
        )
    ctx.log("HRE-M15A-FLIP-05", "Its marker goes back to the box.")
    if first_ever:
        from rules.hre.modules import m15a_chrobry  # on use: it reads this module's state

        m15a_chrobry.into_deck(ctx, "HRE-M15A-CHROBRY-01")
    if rule != "HRE-M15A-FLIP-01" or t["first"][cat] is not None:
        return
    t["first"][cat] = seat
    others = [i for i in _clockwise(ctx, seat) if card(ctx.s, i, cat)["side"] == "aiding"]
    if spec(cat)["levy"] is None:
        for i in others:
            remove(ctx, i, cat, "HRE-M15A-FLIP-03")
    elif others:
        ctx.push({"kind": "m15a_impose", "seat": seat, "cat": cat})


def remove(ctx: Ctx, seat: int, cat: str, rule: str) -> None:
    card(ctx.s, seat, cat).update(side="removed", ready=False)
    ctx.log(rule, f"{ctx.name(seat)} removes their {spec(cat)['name']} card; its marker leaves.")


def _clockwise(ctx: Ctx, seat: int) -> list[int]:
    n = len(ctx.s["seats"])
    return [(seat + k) % n for k in range(1, n)]


handlers.decision(
    "m15a_aid",
    "HRE-M15A-AID-01",
    lambda ctx, f: "Rise of Poland: you may aid Poland with the action you just took",
    lambda ctx, f: [*_aid_options(ctx, f), option({"m15a": None}, "Do not aid Poland now")],
    _aid_choose,
)


# ---------------------------------------------------------------- the Levy


def _levy_words(cat: str) -> str:
    return ", ".join(
        f"{n} {'VP' if k == 'vp' else k.capitalize()}" for k, n in spec(cat)["levy"].items()
    )


def _impose_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    seat, cat = frame["seat"], frame["cat"]
    if not action["levy"]:
        ctx.log("HRE-M15A-FLIP-01", f"{ctx.name(seat)} imposes no Levy (AMB-65).")
        return
    ctx.log("HRE-M15A-FLIP-02", f"{ctx.name(seat)} imposes the Levy of {_levy_words(cat)}.")
    others = [i for i in _clockwise(ctx, seat) if card(ctx.s, i, cat)["side"] == "aiding"]
    for i in reversed(others):  # the next seat clockwise answers first
        ctx.push({"kind": "m15a_levy", "seat": i, "cat": cat, "to": seat})


def _can_pay(ctx: Ctx, seat: int, cat: str) -> bool:
    me = ctx.seat(seat)
    return all(me["vp" if k == "vp" else "gold"] >= n for k, n in spec(cat)["levy"].items())


def _levy_options(ctx: Ctx, frame: Frame) -> list[Option]:
    cat, name = frame["cat"], spec(frame["cat"])["name"]
    opts = [option({"levy": "remove"}, f"Remove your {name} card from play")]
    if _can_pay(ctx, frame["seat"], cat):
        opts.insert(
            0,
            option(
                {"levy": "pay"},
                f"Pay {_levy_words(cat)} to {ctx.name(frame['to'])} and flip your {name} card",
            ),
        )
    return opts


def _levy_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    seat, cat, to = frame["seat"], frame["cat"], frame["to"]
    if action["levy"] == "remove":
        remove(ctx, seat, cat, "HRE-M15A-FLIP-02")
        return
    for key, n in spec(cat)["levy"].items():
        ctx.seat(seat)[key] -= n
        ctx.seat(to)[key] += n
    ctx.log("HRE-M15A-FLIP-02", f"{ctx.name(seat)} pays {ctx.name(to)} {_levy_words(cat)}.")
    flip(ctx, seat, cat, "HRE-M15A-FLIP-02")


handlers.decision(
    "m15a_impose",
    "HRE-M15A-FLIP-01",
    lambda ctx, f: f"You are first to flip {spec(f['cat'])['name']}: impose the Levy?",
    lambda ctx, f: [
        option({"levy": True}, f"Impose the Levy ({_levy_words(f['cat'])} each, or their card)"),
        option({"levy": False}, "Impose no Levy"),
    ],
    _impose_choose,
)
handlers.decision(
    "m15a_levy",
    "HRE-M15A-FLIP-02",
    lambda ctx, f: f"{ctx.name(f['to'])} levies you for {spec(f['cat'])['flipped']}",
    _levy_options,
    _levy_choose,
)


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
    if not void and aid_choices(ctx, seat, action):
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
    ctx.s["stack"].pop()
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
    lambda ctx, f: [
        option({"use": True}, f"Use it: {_benefit_words(f['cat'])}"),
        option({"use": False}, "Keep it ready"),
    ],
    _use_choose,
)


def _pass_wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """A Pass refreshes the seat's exhausted Poland cards with its Titles (BENEFIT-02)."""
    steps = passing.STEPS_BY_MODE[frame["mode"]]
    refreshing = "m15a" in ctx.s and frame["next"] < len(steps) and steps[frame["next"]] == REFRESH
    inner(ctx, frame)
    if not refreshing:
        return
    tired = [c for c in CATEGORIES if card(ctx.s, frame["seat"], c)["side"] == "flipped"]
    tired = [c for c in tired if not card(ctx.s, frame["seat"], c)["ready"]]
    for cat in tired:
        card(ctx.s, frame["seat"], cat)["ready"] = True
    if tired:
        ctx.log("HRE-M15A-BENEFIT-02", f"{ctx.name(frame['seat'])} refreshes their Poland cards.")


handlers.MACHINE.wrap_step("pass", _pass_wrapper)


# ---------------------------------------------------------------- scoring, views and checks


def _scores(state: State, seat: int) -> dict[str, int]:
    return {"poland": FLIP_VP * flipped(state, seat)}


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


def _held(state: State, kind: str) -> list[str]:
    t = m15a(state)
    if kind == "farms":
        return [str(i) for i, n in enumerate(t["farms"]) for _ in range(n)]
    if kind == "cards" and t["chrobry"] != "deck":
        return [CHROBRY]  # on the event deck, or removed from play
    return []


def _determinize(state: State, seat: int) -> None:
    """The Chrobry events' order is hidden; a re-deal keeps Chrobry out of every hand."""
    events = sorted(m15a(state)["events"])
    rng.shuffle(state, events)
    m15a(state)["events"] = events
    keep_out_of_hands(state, seat, {CHROBRY})


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


SCENARIO = scenario(
    "poland",
    "Holy Roman Empire — Module 15A: Rise of Poland",
    "The base game with Poland rising: aid it against the Veleti, build Santok, strengthen its "
    "Church; the first to finish may levy the others, and Chrobry's moods shake everyone "
    "(2 to 4 players).",
    ["M15A"],
)

MODULE = register(
    Module(
        "M15A",
        data_files=("m15a_poland.json",),
        validate=validate,
        options={"poland_cards": ("mieszko", "setup")},  # AMB-58
        option_text={
            "poland_cards": (
                "When the Poland cards arrive (Rise of Poland only)",
                "The book deals them at setup but shuffles Mieszko I into the deck; the maker's "
                "preview hands them out when Mieszko I reaches the offer.",
                {"mieszko": "When Mieszko I enters the offer", "setup": "At setup"},
            )
        },
        scenarios=(SCENARIO,),
        setup=_setup,
        offer_enter=offer_enter,
        scores=_scores,
        view=_view,
        held=_held,
        invariants=_invariants,
        determinize=_determinize,
    )
)
