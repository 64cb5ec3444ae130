"""Gold, Taxation and Plunder (16.0): one taxation point per Player-Turn, Area by Area."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.ema import handlers, rebellion
from rules.ema.empire import court_costs
from rules.ema.handlers import option
from rules.ema.pillage import plunder_gold
from rules.ema.state import SS, UNREST, Ctx, Frame, change_ss, holding_count


def start(ctx: Ctx, seat: int) -> None:
    """Open the taxation step; Enlargement pays +1 each (19.2, A-21); the Court is an Area to tax or plunder."""
    me = ctx.seat(seat)
    me["taxed"] = True
    gained = holding_count(ctx, seat, "demesne")
    if gained:
        me["gold"] += gained
        ctx.log(
            "EMA-19.2.Demesne", f"{ctx.name(seat)} collects {gained} gold from the King's Demesne."
        )
    ctx.push({"kind": "tax", "seat": seat, "stage": "area", "area": None, "done": []})


def _areas(ctx: Ctx, frame: Frame) -> list[str]:
    areas, done = ctx.s["areas"], frame["done"]
    return [
        a for a in sorted(court_costs(ctx.s, frame["seat"])) if a not in done and areas[a][SS] > -3
    ]


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    if frame["stage"] == "area":
        return [option({"finish": True}, "Taxation is finished")] + [
            option({"area": a}, f"Tax or plunder {ctx.aname(a)} (SS {ctx.area(a)[SS]})")
            for a in _areas(ctx, frame)
        ]
    aid = frame["area"]
    ss = ctx.area(aid)[SS]
    if (
        aid == ctx.seat(frame["seat"])["court"]
    ):  # 16.17: the Court pays its SS, no roll; or it is plundered
        opts = (
            [option({"tax": ss}, f"Collect {ss} gold from the Court (no roll)")] if ss > 0 else []
        )
    else:
        opts = [option({"tax": g}, f"Ask {g} gold") for g in range(1, ss + 1)]
    return opts + [option({"plunder": True}, "Plunder it")]


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    if "finish" in action:
        ctx.pop()
    elif "area" in action:
        frame["area"], frame["stage"] = action["area"], "how"
    else:
        aid = frame["area"]
        frame["done"].append(aid)  # 16.2: taxed or plundered, not both, once a turn
        frame["stage"], frame["area"] = "area", None
        if "tax" in action and aid == ctx.seat(frame["seat"])["court"]:
            ctx.seat(frame["seat"])["gold"] += action["tax"]
            ctx.log(
                "EMA-16.17",
                f"{ctx.name(frame['seat'])} collects {action['tax']} gold from the Court.",
            )
        elif "tax" in action:
            tax(ctx, frame["seat"], aid, action["tax"])
        else:
            plunder(ctx, frame["seat"], aid)


def _prompt_text(ctx: Ctx, frame: Frame) -> str:
    if frame["stage"] == "area":
        return "Taxation: choose an Area to tax or plunder, or finish"
    aid = frame["area"]
    # Plunder is the only option when no gold can be asked (`_options`): the SS is 0 or less,
    # whether the Area is the Court or not
    if ctx.area(aid)[SS] <= 0:
        return f"Taxation: {ctx.aname(aid)} can only be plundered"
    return f"Taxation: how much gold to ask of {ctx.aname(aid)}, or plunder it"


handlers.decision("tax", "EMA-16.0.Tax", _prompt_text, _options, _choose)


def tax(ctx: Ctx, seat: int, aid: str, amount: int) -> None:
    """Tax one Area: a Rebellion Check with RV +1 per gold asked; no gold on R (16.0, 17.4)."""
    result = rebellion.check(ctx, aid, amount, "EMA-17.0.Trig-Tax")
    if result != "R":
        ctx.seat(seat)["gold"] += amount
        ctx.log("EMA-16.0.Tax", f"{ctx.name(seat)} collects {amount} gold from {ctx.aname(aid)}.")


def plunder(ctx: Ctx, seat: int, aid: str) -> None:
    """Plunder: SS −1, Unrest or a check at 3 gold, then the Plunder Table (16.0 Plunder, A-22)."""
    here = ctx.area(aid)
    change_ss(ctx, aid, -1)
    court = aid == ctx.seat(seat)["court"]
    if court and ctx.s["options"]["court_plunder"] == "no_check":
        pass  # 7.5: the Court is never subject to Unrest or Rebellion during taxation
    elif not here[UNREST]:
        here[UNREST] = True
        ctx.log("EMA-16.0.Plunder-P2", f"{ctx.aname(aid)} is plundered and falls into Unrest.")
    elif rebellion.check(ctx, aid, 3, "EMA-17.0.Trig-Plunder") == "R":
        return
    die, gold = plunder_gold(ctx)
    ctx.seat(seat)["gold"] += gold
    ctx.log("EMA-16.0.Plunder-P4", f"Plunder of {ctx.aname(aid)}: die {die}, {gold} gold.")
