"""Module 6, Commanders (HRE L650-666; reference §1.28): great captains beside the armies.

Cards and effects are authored (`rules/hre/data/m06_commanders.json`, §2.10; effects in the
vocabulary of `effects.py`). State `m06`: the Commanders laid out (`available`), those back in
the box (`returned`), each seat's Commander (`hired`: the card, the province of its miniature and
whether its card is ready) and a group it marches with (`riding`).

- N+1 Commanders are laid out at random, the rest go back (HRE-M06-SETUP-01). In solo one is
  drawn face down for you (HRE-M06-SOLO-01). The book's suggested balance, a fourth Lordling
  Ruler whose province gets a Lordling Farm and an Archer but no City (and no Barbarian token,
  AMB-72), is the option `solo_fourth_lordling` (off unless chosen: the book only suggests it).
- A Recruit, action or reaction, may also (or only) take one for 2 Gold: its miniature goes to a
  province with a City of yours; one a player for the whole game, never lost (HRE-M06-PLAY-01,
  -02). The Recruit prompt stays open after it, so the normal recruit can follow.
- It moves with a group by Manoeuvre or Regroup, or alone; alone it never enters a province held
  by a rival or Barbarians, and it may only stand where its player has a unit or a Farm (HRE-
  M06-PLAY-03, AMB-69). A group that marches off and leaves it alone where there is no Farm is
  handled like a beaten army's Commander below (our reading: the book forbids leaving it so).
- In a battle where it is present with its card ready, its player may use its effect first and
  exhaust the card; the attacker declares first (HRE-M06-PLAY-04). It is no unit: no damage, no
  Battle Result, no Army limit (HRE-M06-PLAY-05).
- Beaten, it goes back with the attacker's survivors; whenever it stands where its player has
  neither unit nor Farm (a lost province, every unit dead), it goes to the closest province where
  its player has some, the player choosing among equals (HRE-M06-PLAY-06). The module looks at
  this whenever a decision comes up (its `auto` hook).
- The card is made ready again when its player Passes (HRE-M06-PLAY-07).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.core.machine import Extension
from rules.hre import handlers, manoeuvre
from rules.hre.handlers import option
from rules.hre.modules import declare, effects, files, hook, part, plays
from rules.hre.state import Ctx, Frame, capital, neighbours, unit_count

HUMAN, LORDLINGS = 0, 1  # the seats of a solo game (Module 1)


def _check_card(where: str, card: dict[str, Any]) -> None:
    """Each card has a battle effect (L661)."""
    if not card["effects"]:
        raise ValueError(f"{where} has no effect")
    for e in card["effects"]:
        effects.check(where, e)


BOOK = files.Book("m06_commanders.json", "CG", 5, _check_card)  # 5 cards CG01-CG05 (L656)
_raw, cards = BOOK.raw, BOOK.cards


m06 = part("m06")


def label(cid: str) -> str:
    card = cards()[cid]
    return f"{card['name']} ({', '.join(effects.words(e) for e in card['effects'])})"


@hook
def _setup(state: State) -> None:
    """N+1 laid out (SETUP-01); in solo one face down for you (SOLO-01)."""
    deck = sorted(cards())
    rng.shuffle(state, deck)
    solo = plays(state, "M01")
    n = 1 if solo else len(state["seats"]) + 1
    state["m06"] = {
        "available": sorted(deck[:n]),
        "returned": sorted(deck[n:]),
        "hired": [None] * len(state["seats"]),
        "riding": None,
        "hidden": solo,
    }
    handlers.after_setup(state, "m06_setup")


def _fourth_lordling(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """The suggested fourth Lordling Ruler: a Farm and an Archer, no City (SOLO-01, AMB-72)."""
    inner(ctx, frame)
    s = ctx.s
    if "m06" not in s or not s["options"].get("solo_fourth_lordling"):
        return
    taken = {p for p, h in s["prov"].items() if h["owner"] is not None}
    free = sorted(r for r, spec in ctx.d.rulers.items() if spec["capital"] not in taken)
    free = [r for r in free if ctx.d.rulers[r]["capital"] in s["prov"]]
    if not free:
        return
    ruler = free[rng.below(s, len(free))]
    home = ctx.d.rulers[ruler]["capital"]
    here = s["prov"][home]
    if here["barb"] is not None:
        s["box_tokens"] = sorted([*s["box_tokens"], here["barb"]["token"]])
        here["barb"] = None
    here.update(owner=LORDLINGS, farms=1)
    here["units"]["archer"] = 1
    ctx.seat(LORDLINGS)["farms_track"] -= 1
    ctx.log(
        "HRE-M06-SOLO-01",
        f"A fourth Lordling Ruler, {ctx.d.rulers[ruler]['name']}: a Lordling Farm and an Archer "
        f"in {ctx.d.provinces[home]['name']}, no City (the book's suggested balance).",
    )


handlers.MACHINE.wrap_step("m01_setup", _fourth_lordling)


@handlers.once("m06_setup")
def _log_setup(ctx: Ctx, frame: Frame) -> None:
    t = m06(ctx.s)
    if t["hidden"]:
        ctx.log("HRE-M06-SOLO-01", "A Commander is drawn for you and laid face down.")
    else:
        names = ", ".join(cards()[c]["name"] for c in t["available"])
        ctx.log("HRE-M06-SETUP-01", f"The Commanders laid out beside the Titles: {names}.")


def commander(state: State, seat: int | None) -> dict[str, Any] | None:
    if seat is None or "m06" not in state:
        return None
    found: dict[str, Any] | None = m06(state)["hired"][seat]
    return found


# ---------------------------------------------------------------- hiring, with a Recruit


def _hire_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    t = ctx.s.get("m06")
    if t is None or t["hired"][seat] is not None or ctx.seat(seat)["gold"] < _raw()["price"]:
        return []
    if t["hidden"] and seat != HUMAN:
        return []
    cities = [p for p, h in sorted(ctx.s["prov"].items()) if h["owner"] == seat and h["city"]]
    return [
        option(
            {"do": "m06_hire", "cmd": c, "prov": p},
            f"Pay {_raw()['price']} Gold for "
            + ("the face-down Commander" if t["hidden"] else label(c))
            + f", placed in {ctx.d.provinces[p]['name']}",
        )
        for c in t["available"]
        for p in cities
    ]


def _hire(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    """2 Gold, the card beside the Ruler, the miniature in a City (PLAY-01, -02)."""
    t = m06(ctx.s)
    ctx.seat(seat)["gold"] -= int(_raw()["price"])
    t["available"].remove(action["cmd"])
    t["hired"][seat] = {"card": action["cmd"], "at": action["prov"], "ready": True}
    ctx.log(
        "HRE-M06-PLAY-01",
        f"{ctx.name(seat)} pays {_raw()['price']} Gold for the Commander {label(action['cmd'])} "
        f"in {ctx.d.provinces[action['prov']]['name']}.",
    )
    ctx.log("HRE-M06-PLAY-02", "It stays with that player for the whole game.")


handlers.MACHINE.extend("recruit", Extension(("m06_hire",), _hire_options, _hire))

# ---------------------------------------------------------------- moving


def can_stand(state: State, seat: int, prov: str) -> bool:
    """A Commander stands only where its player has a unit or a Farm (PLAY-03, AMB-69)."""
    here = state["prov"][prov]
    return bool(here["owner"] == seat and (here["farms"] or unit_count(here["units"])))


def _move_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    mine = commander(ctx.s, seat)
    if mine is None:
        return []
    at, names = mine["at"], ctx.d.provinces
    opts = []
    for q in neighbours(ctx.s, at):
        hostile = manoeuvre.hostile(ctx, seat, q)
        if not hostile and can_stand(ctx.s, seat, q):
            opts.append(
                option(
                    {"do": "m06_move", "to": q}, f"Move the Commander alone to {names[q]['name']}"
                )
            )
        if unit_count(ctx.s["prov"][at]["units"]) and not (frame["regroup"] and hostile):
            verb = "attack" if hostile else "move to"
            opts.append(
                option(
                    {"do": "m06_ride", "from": at, "to": q},
                    f"From {names[at]['name']}, {verb} {names[q]['name']} with the Commander",
                )
            )
    return opts


def _move(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    mine = commander(ctx.s, seat)
    assert mine is not None
    if action["do"] == "m06_move":
        ctx.s["stack"].pop()
        mine["at"] = action["to"]
        ctx.log(
            "HRE-M06-PLAY-03",
            f"{ctx.name(seat)}'s Commander moves alone to {ctx.d.provinces[action['to']]['name']}.",
        )
        return
    m06(ctx.s)["riding"] = {"seat": seat, "from": action["from"], "to": action["to"]}
    manoeuvre.move_choose(ctx, frame, {"from": action["from"], "to": action["to"]})


for _kind in ("move", "regroup"):
    handlers.MACHINE.extend(_kind, Extension(("m06_move", "m06_ride"), _move_options, _move))


def _busy(state: State) -> bool:
    """Units are on their way (counted, fighting or retreating): nothing is settled yet."""
    busy = ("move_count", "battle", "retreat", "m06_place")  # the last: already being asked
    return any(f["kind"] in busy for f in state["stack"])


@hook
def _auto(ctx: Ctx) -> bool:
    """A march ends with its group; a Commander left alone goes to the closest place (PLAY-06)."""
    t = ctx.s.get("m06")
    if t is None:
        return False
    if t["riding"] is None and all(
        mine is None or can_stand(ctx.s, seat, mine["at"]) for seat, mine in enumerate(t["hired"])
    ):
        return False  # the usual case, checked at every step: no march ends, nobody stands alone
    if _busy(ctx.s):
        return False
    ride = t["riding"]
    if ride is not None:
        t["riding"] = None
        mine = t["hired"][ride["seat"]]
        if can_stand(ctx.s, ride["seat"], ride["to"]):
            mine["at"] = ride["to"]
    for seat, mine in enumerate(t["hired"]):
        if mine is not None and not can_stand(ctx.s, seat, mine["at"]):
            places = closest(ctx.s, seat, mine["at"])
            if len(places) > 1:
                ctx.push({"kind": "m06_place", "seat": seat, "places": places})
                return True
            _place(ctx, seat, places[0])
    return False


def closest(state: State, seat: int, start: str) -> list[str]:
    """The nearest provinces where the seat has a unit or a Farm (its Capital at worst)."""
    seen, ring = {start}, [start]
    while ring:
        found = sorted(p for p in ring if can_stand(state, seat, p))
        if found:
            return found
        nxt = sorted({q for p in ring for q in neighbours(state, p)} - seen)
        seen |= set(nxt)
        ring = nxt
    home = state["seats"][seat]["ruler"]

    return [capital(state, seat) or start] if home else [start]


def _place(ctx: Ctx, seat: int, prov: str) -> None:
    mine = m06(ctx.s)["hired"][seat]
    mine["at"] = prov
    ctx.log(
        "HRE-M06-PLAY-06",
        f"{ctx.name(seat)}'s Commander falls back to {ctx.d.provinces[prov]['name']}.",
    )


def _place_options(ctx: Ctx, frame: Frame) -> list[Option]:
    return [
        option({"m06_to": p}, f"Send your Commander to {ctx.d.provinces[p]['name']}")
        for p in frame["places"]
    ]


def _place_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    _place(ctx, frame["seat"], action["m06_to"])


handlers.decision(
    "m06_place",
    "HRE-M06-PLAY-06",
    lambda ctx, f: "Your Commander is alone: choose the closest province it goes to",
    _place_options,
    _place_choose,
)

# ---------------------------------------------------------------- in battle


def present(state: State, frame: Frame, side: int) -> dict[str, Any] | None:
    """The side's Commander, if it is in this battle (marched in, or standing there)."""
    seat = frame["att"] if side == 0 else frame["def"]
    mine = commander(state, seat)
    if mine is None:
        return None
    ride = m06(state)["riding"]
    if side == 0:
        here = ride is not None and ride["seat"] == seat and ride["to"] == frame["prov"]
    else:
        here = mine["at"] == frame["prov"]
    return mine if here else None


def _battle_wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """Before the first roll each present, ready Commander may act, the attacker first (PLAY-04)."""
    if "m06" in ctx.s and "m06" not in frame:
        frame["m06"] = True
        pushed = False
        for side in (1, 0):  # the attacker's question on top: it declares first
            mine = present(ctx.s, frame, side)
            if mine is not None and mine["ready"]:
                seat = frame["att"] if side == 0 else frame["def"]
                ctx.push({"kind": "m06_use", "seat": seat, "side": side})
                pushed = True
        if pushed:
            return
    finishing = "m06" in ctx.s and frame["stage"] == "result"
    inner(ctx, frame)
    if finishing:
        _after_battle(ctx, frame)


def _after_battle(ctx: Ctx, frame: Frame) -> None:
    """The attacker's Commander stays with its survivors, won or beaten (PLAY-06)."""
    ride = m06(ctx.s)["riding"]
    if ride is None or ride["seat"] != frame["att"] or ride["to"] != frame["prov"]:
        return
    m06(ctx.s)["riding"] = None
    seat, mine = ride["seat"], m06(ctx.s)["hired"][ride["seat"]]
    for place in (frame["prov"], frame["origin"]):
        if can_stand(ctx.s, seat, place) and unit_count(ctx.s["prov"][place]["units"]):
            mine["at"] = place
            if place != frame["prov"]:
                ctx.log("HRE-M06-PLAY-06", f"{ctx.name(seat)}'s Commander retreats with its units.")
            return
    mine["at"] = frame["prov"]  # every unit died: the check at the next decision moves it


def _use_options(ctx: Ctx, frame: Frame) -> list[Option]:
    mine = commander(ctx.s, frame["seat"])
    assert mine is not None
    return [
        option({"m06_use": True}, f"Use {label(mine['card'])} and exhaust its card"),
        option({"m06_use": False}, "Keep the Commander's card ready"),
    ]


def _use_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    if not action["m06_use"]:
        return
    mine = commander(ctx.s, frame["seat"])
    assert mine is not None
    battle = next(f for f in reversed(ctx.s["stack"]) if f["kind"] == "battle")
    mine["ready"] = False
    ctx.log(
        "HRE-M06-PLAY-04", f"{ctx.name(frame['seat'])} uses its Commander {label(mine['card'])}."
    )
    for e in cards()[mine["card"]]["effects"]:
        effects.apply(ctx, battle, frame["side"], e, "HRE-M06-PLAY-04", " from the Commander")


handlers.decision(
    "m06_use",
    "HRE-M06-PLAY-04",
    lambda ctx, f: "Your Commander is in this battle: use its effect?",
    _use_options,
    _use_choose,
)
handlers.MACHINE.wrap_step("battle", _battle_wrapper)


@hook
def _push_pass(ctx: Ctx, seat: int, mode: str) -> bool:
    """The Commander's card is made ready again with the Titles (PLAY-07)."""
    mine = m06(ctx.s)["hired"][seat]
    if mine is not None and not mine["ready"]:
        mine["ready"] = True
        ctx.log("HRE-M06-PLAY-07", f"{ctx.name(seat)} makes its Commander's card ready again.")
    return False


# ---------------------------------------------------------------- views and checks


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """Hired Commanders and those laid out are face up; the solo one stays face down."""
    t = m06(state)
    found["commanders"] = {
        "available": [] if t["hidden"] else list(t["available"]),
        "face_down": len(t["available"]) if t["hidden"] else 0,
        "hired": [dict(h) if h else None for h in t["hired"]],
    }


@hook
def _determinize(state: State, seat: int) -> None:
    """The solo face-down Commander is drawn again from those not seen."""
    t = m06(state)
    if not t["hidden"] or not t["available"]:
        return
    pool = sorted(t["available"] + t["returned"])
    rng.shuffle(state, pool)
    t["available"], t["returned"] = [pool[0]], sorted(pool[1:])


@hook
def _invariants(state: State) -> None:
    t = m06(state)
    everything = t["available"] + t["returned"] + [h["card"] for h in t["hired"] if h]
    if sorted(everything) != sorted(cards()):
        raise InvariantError("Commanders are not conserved")
    for seat, h in enumerate(t["hired"]):
        if h is not None and h["at"] not in state["prov"]:
            raise InvariantError(f"seat {seat}'s Commander is off the board")


MODULE = declare(
    __name__,
    "M06",
    BOOK,
    options={"solo_fourth_lordling": (False, True)},
    option_text={
        "solo_fourth_lordling": (
            "A fourth Lordling Ruler (solo with Commanders only)",
            "The book suggests it to balance your Commander: a Lordling Farm and an Archer "
            "in one more Ruler's province.",
            {False: "No", True: "Yes"},
        )
    },
)
