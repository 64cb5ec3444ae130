"""Module 3, Grand Buildings (HRE L596-614; reference §1.25): wonders raised from Culture cards.

The six cards C049-C054 are Culture cards (`culture_cards.json`); their costs and effects are
authored in `rules/hre/data/m03_grand_buildings.json` (§2.10). State `m03`: `supply` (the
miniatures not yet built, HRE-M03-SETUP-02) and `built` (each built card: its province, and who
holds the card now, None while it lies beside the Title offer).

- Marozia and Henry the Fowler join the Rulers to choose from (7 Rulers in all, AMB-56); one
  starting card of each is a Grand Building only that Ruler may build (HRE-M03-SETUP-01). The
  four common ones are shuffled into the top half of the Culture deck (HRE-M03-SETUP-03) and taken like any card, counting
  toward the hand limit while in hand (HRE-M03-PLAY-01).
- Building one is the turn's choice instead of a Noble or a Pass, even with no Noble left: pay
  its cost and place it in a province you control that has none (HRE-M03-PLAY-02, -03). The
  card then lies face up beside its builder, its immediate effect happens and its ongoing one
  works for that province (HRE-M03-PLAY-04). It is no Noble action, so no Title repeats it
  (HRE-M03-PLAY-06).
- Lose the province and the card goes beside the Title offer; whoever controls the province
  next takes it and its ongoing effect, never its immediate one again (HRE-M03-PLAY-05). The
  module looks at control whenever a decision comes up (its `auto` hook).
- In solo you build them the same way; the Lordlings score a taken one and discard it, as
  Module 1 already does (HRE-M03-SOLO-01, LORDLING-DEV-07).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.core.machine import Extension
from rules.hre import handlers, passing
from rules.hre.economy import affordable, gain, request_payment
from rules.hre.handlers import option
from rules.hre.modules import declare, files, hook, part
from rules.hre.state import RESOURCES, Ctx, Frame, controlled, data, describe

ONGOING = ("pass_vp", "pass_cp", "produce", "defence")
PRODUCE = 8  # the Pass step that produces resources (HRE-BASE-PASS-11)


BOOK = files.Book("m03_grand_buildings.json")
_raw, specs = BOOK.raw, BOOK.cards


@hook
def validate() -> None:
    """C049-C054 are the Grand Buildings; two belong to Marozia and Henry (L604, L606)."""
    d = data()
    found = specs()
    gbs = sorted(c for c, spec in d.cards.items() if spec["type"] == "grand_building")
    if sorted(found) != gbs or gbs != [f"C0{n}" for n in range(49, 55)]:
        raise ValueError("m03_grand_buildings.json: expected the cards C049 to C054")
    owners = sorted(d.cards[c]["starting"] for c in gbs if d.cards[c]["starting"])
    if owners != ["henry_the_fowler", "marozia"] or len(found) != int(_raw()["miniatures"]):
        raise ValueError("m03_grand_buildings.json: 4 common and 2 Ruler Grand Buildings")
    for cid, spec in found.items():
        cost, now, later = spec["cost"], spec["immediate"], spec["ongoing"]
        if not cost or set(cost) - set(RESOURCES) or not all(n > 0 for n in cost.values()):
            raise ValueError(f"m03_grand_buildings.json: {cid} needs a resource cost")
        if set(now) - {"gold", "vp", "cp", *RESOURCES} or later["kind"] not in ONGOING:
            raise ValueError(f"m03_grand_buildings.json: {cid} has an unknown effect")
        if not (isinstance(later["n"], int) and later["n"] > 0):
            raise ValueError(f"m03_grand_buildings.json: {cid} ongoing amount must be positive")


m03 = part("m03")


def commons() -> list[str]:
    return sorted(c for c in specs() if data().cards[c]["starting"] is None)


@hook
def _setup(state: State) -> None:
    """The two Rulers join the draft; the miniatures wait beside the board (SETUP-01, -02)."""
    extra = [
        r
        for r, spec in data().rulers.items()
        if spec["module"] == "M03" and spec["players"] <= max(2, len(state["seats"]))
    ]
    state["rulers_open"] = sorted(state["rulers_open"] + extra)
    state["m03"] = {"supply": sorted(specs()), "built": {}}


def _shuffle_in(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """After the deck is made, the 4 common cards go into its top half (SETUP-03)."""
    inner(ctx, frame)
    if "m03" not in ctx.s:
        return
    s = ctx.s
    half = len(s["deck"]) // 2
    top = s["deck"][half:] + commons()  # the deck is drawn from its end: the end is the top
    rng.shuffle(s, top)
    s["deck"] = s["deck"][:half] + top
    s["cards_in_game"] += len(commons())
    ctx.log(
        "HRE-M03-SETUP-01",
        "Marozia and Henry the Fowler are among the Rulers; each starts with a Grand Building.",
    )
    ctx.log("HRE-M03-SETUP-02", "The six Grand Building miniatures wait beside the board.")
    ctx.log("HRE-M03-SETUP-03", "Four Grand Buildings are shuffled into the top half of the deck.")


handlers.MACHINE.wrap_step("setup_finish", _shuffle_in)
handlers.MACHINE.wrap_step("m01_setup", _shuffle_in)


# ---------------------------------------------------------------- building one


def _mine(ctx: Ctx, seat: int, card: str) -> bool:
    """A Ruler's own Grand Building only that Ruler builds (SETUP-01)."""
    owner = ctx.d.cards[card]["starting"]
    return owner is None or owner == ctx.seat(seat)["ruler"]


def _build_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    if "m03" not in ctx.s or frame["phase"] != "start":
        return []
    built = {b["prov"] for b in m03(ctx.s)["built"].values()}
    names = ctx.d.provinces
    opts = []
    for card in sorted(set(ctx.seat(seat)["hand"])):
        if card not in specs() or not _mine(ctx, seat, card):
            continue
        cost = specs()[card]["cost"]
        if not affordable(ctx, seat, cost):
            continue
        name, pay = ctx.d.cards[card]["name"], describe(cost)
        opts += [
            option(
                {"do": "m03_build", "card": card, "prov": p},
                f"Build {name} in {names[p]['name']} (pay {pay})",
            )
            for p in controlled(ctx.s, seat)
            if p not in built
        ]
    return opts


def _build(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    """The turn's choice: pay, then build; no Title can repeat it (PLAY-02, -06)."""
    card, prov = action["card"], action["prov"]
    ctx.s["stack"].pop()
    ctx.push({"kind": "turn_end", "seat": seat, "phase": "react", "extra": frame["extra"]})
    ctx.seat(seat)["hand"].remove(card)
    after = {"do": "m03_built", "card": card, "prov": prov}
    request_payment(ctx, seat, [specs()[card]["cost"]], after, "HRE-M03-PLAY-02")


@handlers.then("m03_built")
def _built(ctx: Ctx, seat: int, after: dict[str, Any]) -> None:
    """The miniature in the province, the card face up, its immediate effect (PLAY-02..04)."""
    card, prov = after["card"], after["prov"]
    t = m03(ctx.s)
    t["supply"].remove(card)
    t["built"][card] = {"prov": prov, "holder": seat}
    ctx.log(
        "HRE-M03-PLAY-02",
        f"{ctx.name(seat)} builds {ctx.d.cards[card]['name']} in {ctx.d.provinces[prov]['name']}.",
    )
    ctx.log("HRE-M03-PLAY-04", "Its card lies face up beside the builder's board.")
    now = specs()[card]["immediate"]
    if now:
        gain(ctx, seat, now, "HRE-M03-PLAY-04", f" from {ctx.d.cards[card]['name']}")


handlers.MACHINE.extend("turn", Extension(("m03_build",), _build_options, _build))


# ---------------------------------------------------------------- control and ongoing effects


@hook
def _auto(ctx: Ctx) -> bool:
    """The card follows control of its province (PLAY-05); never a decision of its own."""
    t = ctx.s.get("m03")
    if t is None:
        return False
    prov, built = ctx.s["prov"], t["built"]
    if all(prov[b["prov"]]["owner"] == b["holder"] for b in built.values()):
        return False  # the usual case, checked at every step: no card changes hands
    for card, b in sorted(built.items()):
        owner = prov[b["prov"]]["owner"]
        if owner == b["holder"]:
            continue
        name = ctx.d.cards[card]["name"]
        if owner is None:
            ctx.log(
                "HRE-M03-PLAY-05", f"{name} is left ungoverned: its card goes beside the Titles."
            )
        else:
            ctx.log("HRE-M03-PLAY-05", f"{ctx.name(owner)} controls {name} now and takes its card.")
        b["holder"] = owner
    return False


def held_by(state: State, seat: int, kind: str) -> list[tuple[str, dict[str, Any]]]:
    """The seat's built Grand Buildings with an ongoing effect of this kind."""
    return [
        (c, b)
        for c, b in sorted(m03(state)["built"].items())
        if b["holder"] == seat and specs()[c]["ongoing"]["kind"] == kind
    ]


@hook
def _push_pass(ctx: Ctx, seat: int, mode: str) -> bool:
    """Ongoing VP and Culture at each Pass of the holder (PLAY-04); the Pass goes on."""
    for what in ("pass_vp", "pass_cp"):
        for card, _ in held_by(ctx.s, seat, what):
            amount = {what[5:]: int(specs()[card]["ongoing"]["n"])}
            gain(ctx, seat, amount, "HRE-M03-PLAY-04", f" from {ctx.d.cards[card]['name']}")
    return False


def _produce(ctx: Ctx, frame: Frame) -> None:
    """Right after the holder's production step, a producing Grand Building adds its share."""
    for card, b in held_by(ctx.s, frame["seat"], "produce"):
        res = ctx.d.provinces[b["prov"]]["resource"]
        extra = {res: int(specs()[card]["ongoing"]["n"])}
        gain(ctx, frame["seat"], extra, "HRE-M03-PLAY-04", f" from {ctx.d.cards[card]['name']}")


def _battle_wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """A defending holder adds its building's defence to its Battle Result (PLAY-04)."""
    if "m03" in ctx.s and "m03" not in frame:
        frame["m03"] = True
        for card, b in held_by(ctx.s, frame["def"], "defence") if frame["def"] is not None else []:
            if b["prov"] == frame["prov"]:
                frame.setdefault("bonus", [0, 0])[1] += int(specs()[card]["ongoing"]["n"])
                ctx.log(
                    "HRE-M03-PLAY-04",
                    f"{ctx.d.cards[card]['name']} strengthens the defenders' Battle Result.",
                )
    inner(ctx, frame)


handlers.MACHINE.wrap_step("pass", passing.after_step(PRODUCE, "m03", _produce))
handlers.MACHINE.wrap_step("battle", _battle_wrapper)


# ---------------------------------------------------------------- views and checks


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    t = m03(state)
    found["grand_buildings"] = {
        "supply": list(t["supply"]),
        "built": {c: dict(b) for c, b in t["built"].items()},
    }


@hook
def _held(state: State, kind: str) -> list[str]:
    """Built cards, and one being paid for, are outside the deck, offer and hands."""
    if kind != "cards":
        return []
    paying = [
        f["then"]["card"]
        for f in state["stack"]
        if f["kind"] == "pay" and f["then"].get("do") == "m03_built"
    ]
    return sorted(m03(state)["built"]) + paying


@hook
def _invariants(state: State) -> None:
    t = m03(state)
    if set(t["supply"]) & set(t["built"]) or len(t["supply"]) + len(t["built"]) != 6:
        raise InvariantError("Grand Building miniatures are not conserved")
    places = [b["prov"] for b in t["built"].values()]
    if len(places) != len(set(places)):
        raise InvariantError("two Grand Buildings in one province")


MODULE = declare(__name__, "M03", BOOK)
