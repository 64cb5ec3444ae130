"""Module 14A, Crusades (HRE L820-854; reference §1.36): units sent far away, for VP or shame.

The Crusade cards CC01-CC12 (`rules/hre/data/m14a_crusades.json`, all values authored, §2.10)
come four to each of the First, Second and Third Crusades. State under "m14a": `line`, the three
drawn at setup (face down until revealed, First on top), `unseen` (the rest, out of play),
`revealed`, `gold` (the Churches still with Gold under them), `pool` (each seat's units sent to
the active Crusade), `resolved`, `last` (the last outcome, for the page) and `scored` (each
seat's Crusade VP, for the record).

- Setup draws one card of each Crusade face down and puts Gold under the 2nd, 4th and 6th
  Church of the track (HRE-M14A-SETUP-01, -02); every player has markers for hits (SETUP-03).
- Building a Church with Gold under it, once scored (and its Relic resolved), sends the Gold to
  the supply, reveals the next Crusade and resolves the one before (HRE-M14A-CALL-01).
- A Manoeuvre may first send any of the player's units on the board to the active Crusade,
  before the Army limit check; only while one is active (AMB-68). They count for no Army limit
  and never return to the supply to be recruited (HRE-M14A-CONTRIB-01, -02).
- The resolution is in `m14a_resolve.py`, step by step as the book lists them
  (HRE-M14A-RESOLVE-01..11).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.hre import handlers
from rules.hre.components import GAIN_KEYS
from rules.hre.handlers import option
from rules.hre.modules import declare, files, hook, part
from rules.hre.state import UNITS, Ctx, Frame, refresh_owner, unit_count

ORDERS = (1, 2, 3)  # the First, Second and Third Crusades
NAMES = {1: "First", 2: "Second", 3: "Third"}
WHO = ("everyone", "contributors", "others", "church")


BOOK = files.Book("m14a_crusades.json", "CC", 12)
book, cards = BOOK.raw, cache(BOOK.cards)


@hook
def validate() -> None:
    """CC01-CC12, four a Crusade; each value of the vocabulary; Gold under the book's Churches."""
    BOOK.check()
    found = cards()
    for order in ORDERS:
        if sum(1 for c in found.values() if c["crusade"] == order) != 4:
            raise ValueError(f"m14a_crusades.json: 4 cards of the {NAMES[order]} Crusade")
    for cid, c in found.items():
        dv, effect = c["defence"], c["effect"]
        fixed = dv.get("fixed", 1) >= 1 and set(dv) in ({"fixed"}, {"die", "plus"})
        ladder = c["ladder"]
        falling = all(a >= b > 0 for a, b in zip(ladder, ladder[1:], strict=False))
        amounts = effect.get("gain", effect.get("lose", {}))
        if not (fixed and ladder and falling and c["penalty"] >= 0 and effect["who"] in WHO):
            raise ValueError(f"m14a_crusades.json: {cid} has a bad Defence, ladder or effect")
        if len(effect) != 2 or not amounts or not set(amounts) <= set(GAIN_KEYS):
            raise ValueError(f"m14a_crusades.json: {cid}'s effect gains or loses known things")
    if book()["gold_under"]["3"] != [2, 4, 6] or book()["gold_under"]["5"] != [2, 5, 8]:
        raise ValueError("m14a_crusades.json: Gold under Churches 2, 4, 6 (2, 5, 8 for 5-8)")


m14a = part("m14a")


def active(state: State) -> str | None:
    """The Crusade card players may send units to now, if any (AMB-68)."""
    t = m14a(state)
    return t["line"][t["revealed"] - 1] if t["revealed"] and not t["ended"] else None


def no_units() -> dict[str, int]:
    return dict.fromkeys(UNITS, 0)


@hook
def _setup(state: State) -> None:
    """One card of each Crusade, face down, First on top; Gold under Churches (SETUP-01..03)."""
    line, unseen = [], []
    for order in ORDERS:
        pile = sorted(c for c, spec in cards().items() if spec["crusade"] == order)
        rng.shuffle(state, pile)
        line.append(pile[0])
        unseen += pile[1:]
    n = len(state["seats"])
    state["m14a"] = {
        "line": line,
        "unseen": sorted(unseen),
        "revealed": 0,
        "gold": list(book()["gold_under"][str(state["players"])]),
        "pool": [no_units() for _ in range(n)],
        "resolved": [],
        "ended": False,
        "last_pass": None,
        "last": None,
        "scored": [0] * n,
    }
    handlers.after_setup(state, "m14a_setup")


@handlers.once("m14a_setup")
def _log_setup(ctx: Ctx, frame: Frame) -> None:
    where = ", ".join(str(n) for n in m14a(ctx.s)["gold"])
    ctx.log(
        "HRE-M14A-SETUP-01",
        "One card of each of the First, Second and Third Crusades lies face down, First on top.",
    )
    ctx.log("HRE-M14A-SETUP-02", f"Gold lies under Churches {where} of the Church track.")
    ctx.log("HRE-M14A-SETUP-03", "Every player takes their markers, to count Crusade hits.")


# ---------------------------------------------------------------- calling a Crusade


@hook
def _church_built(ctx: Ctx, seat: int, prov: str) -> None:
    """A Church over Gold: the Gold to the supply, the next Crusade revealed, the last resolved."""
    t = m14a(ctx.s)
    number = int(ctx.s["churches"])
    if number not in t["gold"] or t["revealed"] >= len(t["line"]):
        return
    t["gold"].remove(number)
    ctx.log(
        "HRE-M14A-CALL-01",
        f"Church {number} had Gold under it: the Gold goes back to the supply, not to "
        f"{ctx.name(seat)}, and a Crusade is called.",
    )
    before = active(ctx.s)
    pool = t["pool"]
    t["pool"] = [no_units() for _ in pool]
    t["revealed"] += 1
    card = cards()[t["line"][t["revealed"] - 1]]
    ctx.log(
        "HRE-M14A-CALL-01",
        f"The {NAMES[card['crusade']]} Crusade is revealed: {card['name']}. Units may now be sent.",
    )
    if before is not None:
        start_resolution(ctx, before, pool, seat, final=False)


def start_resolution(
    ctx: Ctx, card: str, pool: list[dict[str, int]], first: int, final: bool
) -> None:
    """Resolve a Crusade from this seat on, clockwise (RESOLVE-01, -02)."""
    n = len(ctx.s["seats"])
    ctx.push(
        {
            "kind": "m14a_resolve",
            "seat": first,
            "card": card,
            "pool": pool,
            "order": [(first + k) % n for k in range(n)],
            "final": final,
            "phase": "effect",
        }
    )


# ---------------------------------------------------------------- sending units, in a Manoeuvre


def _sendable(ctx: Ctx, seat: int) -> list[str]:
    return sorted(
        p
        for p, here in ctx.s["prov"].items()
        if here["owner"] == seat and unit_count(here["units"])
    )


def _manoeuvre_wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """Before the Army limit check, units may go to the active Crusade (CONTRIB-01)."""
    seat = frame["seat"]
    if (
        "m14a" in ctx.s
        and not frame.get("m14a")
        and active(ctx.s) is not None
        and _sendable(ctx, seat)
    ):
        frame["m14a"] = True  # asked once for this Manoeuvre; then the base step runs
        ctx.push({"kind": "m14a_send", "seat": seat, "sent": 0})
        return
    inner(ctx, frame)


handlers.MACHINE.wrap_step("manoeuvre", _manoeuvre_wrapper)


def _send_options(ctx: Ctx, frame: Frame) -> list[Option]:
    card = cards()[str(active(ctx.s))]["name"]
    opts = [option({"m14a_send": None}, "Send no more units" if frame["sent"] else "Send no units")]
    for p in _sendable(ctx, frame["seat"]):
        for u in UNITS:
            if ctx.s["prov"][p]["units"][u]:
                opts.append(
                    option(
                        {"m14a_send": u, "prov": p},
                        f"Send 1 {u} from {ctx.d.provinces[p]['name']} to {card}",
                    )
                )
    return opts


def _send_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    unit, seat = action["m14a_send"], frame["seat"]
    if unit is None:
        ctx.s["stack"].pop()
        return
    prov = action["prov"]
    ctx.s["prov"][prov]["units"][unit] -= 1
    m14a(ctx.s)["pool"][seat][unit] += 1
    frame["sent"] += 1
    refresh_owner(ctx.s, prov)
    ctx.log(
        "HRE-M14A-CONTRIB-01",
        f"{ctx.name(seat)} sends 1 {unit} from {ctx.d.provinces[prov]['name']} on the Crusade "
        "(it counts for no Army limit, CONTRIB-02).",
    )
    if not _sendable(ctx, seat):
        ctx.s["stack"].pop()


handlers.decision(
    "m14a_send",
    "HRE-M14A-CONTRIB-01",
    lambda ctx, f: "Crusade: before the Army limit check, you may send units to the Crusade",
    _send_options,
    _send_choose,
)


# ---------------------------------------------------------------- the end, views and checks


def _pass_wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """Remember who passed last: the final resolution starts with them (RESOLVE-02)."""
    if "m14a" in ctx.s:
        m14a(ctx.s)["last_pass"] = frame["seat"]
    inner(ctx, frame)


handlers.MACHINE.wrap_step("pass", _pass_wrapper)


@hook
def _before_finish(ctx: Ctx) -> bool:
    """At final scoring the active Crusade resolves, then scoring goes on (RESOLVE-01)."""
    t = m14a(ctx.s)
    card = active(ctx.s)
    if card is None:
        return False
    t["ended"] = True
    first = t["last_pass"] if t["last_pass"] is not None else 0
    start_resolution(ctx, card, t["pool"], int(first), final=True)
    t["pool"] = [no_units() for _ in t["pool"]]
    return True


@hook
def _held(state: State, kind: str) -> list[str]:
    """Units on a Crusade, or being resolved: still the seat's, never in its supply."""
    if kind != "units":
        return []
    pools = [m14a(state)["pool"]]
    pools += [f["pool"] for f in state["stack"] if f["kind"] == "m14a_resolve"]
    found = [
        f"{s}:{u}"
        for pool in pools
        for s, units in enumerate(pool)
        for u in UNITS
        for _ in range(units[u])
    ]
    for f in state["stack"]:
        if f["kind"] in ("m14a_redeploy", "m14a_return"):
            found += [f"{f['seat']}:{u}" for u in UNITS for _ in range(f["units"][u])]
    return found


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """The line (face-down cards unnamed), units sent, Gold left under Churches, the last result."""
    t = m14a(state)
    found["crusades"] = {
        "line": [
            {"crusade": cards()[c]["crusade"], "card": c if i < t["revealed"] else None}
            for i, c in enumerate(t["line"])
        ],
        "active": active(state),
        "resolved": list(t["resolved"]),
        "pool": [dict(p) for p in t["pool"]],
        "gold": list(t["gold"]),
        "last": t["last"],
        "scored": list(t["scored"]),
    }


@hook
def _determinize(state: State, seat: int) -> None:
    """The face-down Crusades are re-drawn from the unseen cards of the same Crusade."""
    t = m14a(state)
    for i in range(t["revealed"], len(t["line"])):
        order = cards()[t["line"][i]]["crusade"]
        pool = sorted([t["line"][i]] + [c for c in t["unseen"] if cards()[c]["crusade"] == order])
        rng.shuffle(state, pool)
        t["line"][i] = pool[0]
        t["unseen"] = sorted([c for c in t["unseen"] if cards()[c]["crusade"] != order] + pool[1:])


@hook
def _invariants(state: State) -> None:
    t = m14a(state)
    if sorted(t["line"] + t["unseen"]) != sorted(cards()):
        raise InvariantError("Crusade cards are not conserved")
    if [cards()[c]["crusade"] for c in t["line"]] != list(ORDERS):
        raise InvariantError("the Crusade line is not First, Second, Third")
    if any(n < 0 for pool in t["pool"] for n in pool.values()):
        raise InvariantError("a negative number of units on a Crusade")


MODULE = declare(
    __name__,
    "M14A",
    BOOK,
    undo_barrier=lambda before, after: before["m14a"]["revealed"] != after["m14a"]["revealed"],
)
