"""Module 15A, aiding Poland and flipping its cards (HRE L870-878; reference §1.37).

After a Noble action that resolved (AMB-65), its player may take the next step of one of their
Poland cards whose step names that action, meeting what it asks, for its VP (HRE-M15A-AID-01);
the marker moves down (AID-02). The last step flips the card (FLIP-01): the leftmost Farm of the
track goes onto it for good (FLIP-04) and its marker leaves (FLIP-05). The first to flip the
Polish Military Alliance or Santok may levy the others, who pay and flip theirs or remove it
(FLIP-02, the Levy optional, AMB-65); Jordan's Bishopric removes every other Polish Church
(FLIP-03). The first flip of all sends Chrobry into the deck (CHROBRY-01).
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.hre import handlers
from rules.hre.economy import Cost, affordable, gain, request_payment
from rules.hre.handlers import option
from rules.hre.modules import m15a_chrobry
from rules.hre.modules.m15a_state import CATEGORIES, card, flipped, m15a, spec
from rules.hre.state import UNITS, Ctx, Frame, refresh_owner, unit_stats


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
    seat, cat = frame["seat"], frame["cat"]
    if not action["levy"]:
        ctx.log("HRE-M15A-FLIP-01", f"{ctx.name(seat)} imposes no Levy.")
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
    handlers.yes_no(
        "levy",
        lambda ctx, f: f"Impose the Levy ({_levy_words(f['cat'])} each, or their card)",
        "Impose no Levy",
    ),
    _impose_choose,
    once=True,
)
handlers.decision(
    "m15a_levy",
    "HRE-M15A-FLIP-02",
    lambda ctx, f: f"{ctx.name(f['to'])} levies you for {spec(f['cat'])['flipped']}",
    _levy_options,
    _levy_choose,
)
