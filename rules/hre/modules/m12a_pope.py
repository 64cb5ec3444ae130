"""Module 12A, The Pope (HRE L760-779; reference §1.34): a Title bought with a new Church.

The Pope card CP01 (`rules/hre/data/m12a_pope.json`: the book's cost table, nothing authored)
joins the Title offer (HRE-M12A-SETUP-01). State: `m12a.holder` (a seat, or None while it lies
in the offer) and `m12a.ready`.

- Whoever builds a Church may take it, from the offer or from its holder, for as many resources
  or Gold as the table gives for the Churches now on the board, the new one included (AMB-63,
  AMB-74); a holder cannot buy it from themselves (HRE-M12A-PLAY-01). The payment is a decision
  only where there is a real choice (AMB-35): one resource or Gold at a time.
- It arrives ready, whatever its last holder did with it, repeats a Noble action as a Kingdom
  Title does and scores nothing when taken (HRE-M12A-PLAY-02); Pass step 9 refreshes it
  (HRE-M12A-PLAY-03); its holder at the end scores 5 VP (HRE-M12A-END-01). It is a Title, so
  "per Title" counts see it.
- Solo: a Church of the Lordlings, once built, takes the Pope for them for free when they control
  at least as many Churches as you (HRE-M12A-SOLO-01, AMB-75); you buy it back by the rule above.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.core.machine import Extension
from rules.hre import flow, handlers, passing, titles
from rules.hre.handlers import option
from rules.hre.modules import declare, files, hook, part, plays
from rules.hre.state import RESOURCES, Ctx, Frame, resources_held

LORDLINGS = 1  # the automa's seat in a solo game (Module 1)
REFRESH = 9  # the Pass step that turns Titles upright (HRE-BASE-PASS-13)
PAYMENT = (*RESOURCES, "gold")


def card() -> dict[str, Any]:
    found: dict[str, Any] = files.load("m12a_pope.json")["card"]
    return found


@hook
def validate() -> None:
    """The card is the book's: CP01, 5 VP at the end, costs 1/2/3/4/5 for 1/2-3/4-5/6-8/9+."""
    spec = card()
    rows = [(r["from"], r["to"], r["cost"]) for r in spec["costs"]]
    book = [(1, 1, 1), (2, 3, 2), (4, 5, 3), (6, 8, 4), (9, 99, 5)]
    if spec["id"] != "CP01" or spec["end_vp"] != 5 or rows != book:
        raise ValueError("m12a_pope.json: CP01 must keep the book's costs and its 5 VP")


m12a = part("m12a")


def cost(churches: int) -> int:
    """What the Pope costs with this many Churches on the board (TC-37)."""
    return int(next(r["cost"] for r in card()["costs"] if r["from"] <= churches <= r["to"]))


def on_board(state: State) -> int:
    """Churches on the main board now (AMB-74: a Church the Raiders removed is gone)."""
    return sum(1 for here in state["prov"].values() if here["church"])


def controlled_churches(state: State, seat: int) -> int:
    return sum(1 for here in state["prov"].values() if here["church"] and here["owner"] == seat)


@hook
def _setup(state: State) -> None:
    state["m12a"] = {"holder": None, "ready": True}
    handlers.after_setup(state, "m12a_setup")


@handlers.once("m12a_setup")
def _log_setup(ctx: Ctx, frame: Frame) -> None:
    ctx.log("HRE-M12A-SETUP-01", "The Pope joins the Title offer.")


def _take(ctx: Ctx, seat: int, rule: str, how: str) -> None:
    """The Pope goes to the seat, ready, and scores nothing now (PLAY-02)."""
    state = m12a(ctx.s)
    before = state["holder"]
    state["holder"], state["ready"] = seat, True
    source = "the Title offer" if before is None else ctx.name(before)
    ctx.log(rule, f"{ctx.name(seat)} takes the Pope from {source}{how}; it is ready (no VP now).")


@hook
def _church_built(ctx: Ctx, seat: int, prov: str) -> None:
    state = m12a(ctx.s)
    if state["holder"] == seat:
        return  # no buying it from yourself (AMB-63)
    if plays(ctx.s, "M01") and seat == LORDLINGS:
        if controlled_churches(ctx.s, seat) >= controlled_churches(ctx.s, 1 - seat):
            _take(ctx, seat, "HRE-M12A-SOLO-01", " for free, with as many Churches as you")
        return
    price = cost(on_board(ctx.s))
    if _can_pay(ctx, seat, price):
        ctx.push({"kind": "m12a_claim", "seat": seat, "price": price})


def _claim_text(ctx: Ctx, frame: Frame) -> str:
    holder = m12a(ctx.s)["holder"]
    where = "from the Title offer" if holder is None else f"from {ctx.name(holder)}"
    if not _can_pay(ctx, frame["seat"], frame["price"]):
        return (
            f"Your new Church: the Pope {where} costs {frame['price']} resources or Gold, "
            "more than you hold now"
        )
    return (
        f"Your new Church: you may take the Pope {where} for {frame['price']} resources "
        f"or Gold ({on_board(ctx.s)} Churches on the board)"
    )


def _can_pay(ctx: Ctx, seat: int, price: int) -> bool:
    return resources_held(ctx.s, seat) + int(ctx.seat(seat)["gold"]) >= price


def _claim_options(ctx: Ctx, frame: Frame) -> list[Option]:
    leave = option({"m12a": None}, "Leave the Pope where it is")
    if not _can_pay(ctx, frame["seat"], frame["price"]):
        # What the seat held when its Church went up was spent by a step run before this offer
        # came up (found by the search bot's self-play): the Pope is out of reach now.
        return [leave]
    return [
        option({"m12a": "claim"}, f"Pay {frame['price']} resources or Gold for the Pope"),
        leave,
    ]


def _claim_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    if action["m12a"] is None:
        return
    pay = {"kind": "m12a_pay", "seat": frame["seat"], "left": frame["price"], "paid": {}}
    ctx.push(pay)
    _pay_forced(ctx, pay)


def _kinds(ctx: Ctx, seat: int) -> list[str]:
    me = ctx.seat(seat)
    return [k for k in PAYMENT if (me["gold"] if k == "gold" else me["res"][k]) > 0]


def _give(ctx: Ctx, frame: Frame, kind: str) -> None:
    me = ctx.seat(frame["seat"])
    if kind == "gold":
        me["gold"] -= 1
    else:
        me["res"][kind] -= 1
    frame["paid"][kind] = frame["paid"].get(kind, 0) + 1
    frame["left"] -= 1


def _pay_forced(ctx: Ctx, frame: Frame) -> None:
    """Pay what leaves no choice (one kind left, or everything needed); done, take the Pope."""
    seat = frame["seat"]
    while frame["left"] > 0:
        kinds = _kinds(ctx, seat)
        if len(kinds) > 1 and resources_held(ctx.s, seat) + ctx.seat(seat)["gold"] > frame["left"]:
            return  # a real choice: the player says what goes
        _give(ctx, frame, kinds[0])
    ctx.s["stack"].remove(frame)
    paid = ", ".join(f"{n} {k}" for k, n in sorted(frame["paid"].items()))
    ctx.log("HRE-M12A-PLAY-01", f"{ctx.name(seat)} pays {paid} for the Pope.")
    _take(ctx, seat, "HRE-M12A-PLAY-02", "")


def _pay_options(ctx: Ctx, frame: Frame) -> list[Option]:
    return [
        option({"m12a_pay": k}, f"Pay 1 {k} ({frame['left']} still to pay)")
        for k in _kinds(ctx, frame["seat"])
    ]


def _pay_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    _give(ctx, frame, action["m12a_pay"])
    _pay_forced(ctx, frame)


handlers.decision("m12a_claim", "HRE-M12A-PLAY-01", _claim_text, _claim_options, _claim_choose)
handlers.decision(
    "m12a_pay",
    "HRE-M12A-PLAY-01",
    lambda ctx, f: f"The Pope: choose what you pay ({f['left']} more resources or Gold)",
    _pay_options,
    _pay_choose,
)


# ---------------------------------------------------------------- a Title's repeat, and refresh


def _repeat_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    if "m12a" not in ctx.s or frame["phase"] != "after" or not titles.may_repeat(ctx, frame):
        return []
    state = m12a(ctx.s)
    if state["holder"] != seat or not state["ready"]:
        return []
    return [option({"do": "m12a_repeat"}, "Exhaust the Pope to repeat the action")]


def _repeat(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    """Exhausted like a Kingdom Title: the same action again, without a disc (PLAY-02)."""
    m12a(ctx.s)["ready"] = False
    frame["title_used"] = True
    ctx.log("HRE-M12A-PLAY-02", f"{ctx.name(seat)} exhausts the Pope to repeat the action.")
    flow.begin_action(ctx, seat, frame["action"])


handlers.MACHINE.extend("turn", Extension(("m12a_repeat",), _repeat_options, _repeat))


def _pass_wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """Pass step 9 turns the Pope upright with the other Titles (PLAY-03)."""
    steps = passing.STEPS_BY_MODE[frame["mode"]]
    refreshing = "m12a" in ctx.s and frame["next"] < len(steps) and steps[frame["next"]] == REFRESH
    inner(ctx, frame)
    state = m12a(ctx.s) if refreshing else None
    if state is not None and state["holder"] == frame["seat"] and not state["ready"]:
        state["ready"] = True
        ctx.log("HRE-M12A-PLAY-03", f"{ctx.name(frame['seat'])} refreshes the Pope.")


handlers.MACHINE.wrap_step("pass", _pass_wrapper)


# ---------------------------------------------------------------- scoring, views and checks


@hook
def _scores(state: State, seat: int) -> dict[str, int]:
    """Its holder at the end scores 5 VP (END-01)."""
    return {"pope": int(card()["end_vp"]) if m12a(state)["holder"] == seat else 0}


@hook
def _titles_held(state: State, seat: int) -> int:
    return 1 if m12a(state)["holder"] == seat else 0


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """The Pope lies face up: who holds it, whether it is ready, what the next Church pays."""
    churches = on_board(state)
    found["pope"] = {
        "holder": m12a(state)["holder"],
        "ready": m12a(state)["ready"],
        "churches": churches,
        "next_cost": cost(churches + 1),
        "costs": [dict(r) for r in card()["costs"]],
    }


@hook
def _invariants(state: State) -> None:
    holder, ready = m12a(state)["holder"], m12a(state)["ready"]
    if holder is not None and not 0 <= holder < len(state["seats"]):
        raise InvariantError(f"the Pope is held by seat {holder!r}")
    if not isinstance(ready, bool) or (holder is None and not ready):
        raise InvariantError("the Pope in the offer must be ready")


MODULE = declare(__name__, "M12A", data_files=("m12a_pope.json",))
