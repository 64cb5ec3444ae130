"""The active Player's choices in his turn (9.1x, 16.1, 19.2, 20.x, 21.2, 14.43)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.ema import agreements, claims, endeavors, gold, handlers, holding, parley, targets
from rules.ema.handlers import option
from rules.ema.state import FORT, OWNER, Ctx, Frame, in_play, is_christian, owned, tied

KINDS = ("conquest", "pillage", "diplomacy", "ruling", "fortification", "convert")


def may_end(ctx: Ctx, seat: int, legal: list[str] | None = None) -> bool:
    """At least one Year Card must be played while one is held and some Endeavor is legal (9.12, A-51).

    `legal`, when the caller has it, lists the kinds of Endeavor legal now (so they are not
    searched for twice).
    """
    me = ctx.seat(seat)
    if me["endeavors"] or not me["years"]:
        return True
    if legal is not None:
        return not legal
    return not any(targets.any_endeavor(ctx, seat, k) for k in KINDS)


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat = frame["seat"]
    me = ctx.seat(seat)
    opts: list[Option] = []
    legal = [k for k in KINDS if targets.any_endeavor(ctx, seat, k)] if me["years"] else []
    opts += [option({"do": "endeavor", "kind": k}, endeavors.NAMES[k]) for k in legal]
    if not me["taxed"] and me["court"] is not None:
        opts.append(option({"do": "tax"}, "Taxation and Plunder"))
    opts += [
        option({"do": "holding", "card": c}, f"Play {holding.NAMES[holding.kind_of(ctx, c)]}")
        for c in holding.playable(ctx, seat)
    ]
    opts += _diplomacy_options(ctx, seat)
    backs, areas = int(ctx.s.get("turn_asks", {}).get("back", 0)), ctx.s["areas"]
    if backs < endeavors.BACKS and any(areas[a][FORT] for a in owned(ctx.s, seat)):
        opts.append(option({"do": "reduce_fort"}, "Reduce a Fortification of your own"))
    for hook in handlers.MENU:
        opts += hook(ctx, seat)
    if may_end(ctx, seat, legal):
        opts.append(option({"do": "end"}, "End the Player-Turn"))
    return opts


CAPS = {
    "offer": 4,
    "agree": 4,
    "cancel": 4,
    "asylum": 3,
    "waive": 4,
}  # asks a Player-Turn: no endless turn
CAPPED = {
    "offer": "offer",
    "agree": "agree",
    "cancel_agreement": "cancel",
    "asylum": "asylum",
    "waive": "waive",
    "unwaive": "waive",
}


def _diplomacy_options(ctx: Ctx, seat: int) -> list[Option]:
    me = ctx.seat(seat)
    opts: list[Option] = []
    asks = ctx.s.get("turn_asks", {})  # the kinds asked as often as a turn allows go
    full = {key for key, cap in CAPS.items() if int(asks.get(key, 0)) >= cap}
    if is_christian(ctx, seat) and not me["excom"] and claims.parley_candidates(ctx, seat):
        opts.append(option({"do": "claim_parley"}, "Call a Claim Resolution Parley"))
    if me["excom"] and f"readmit:{seat}" not in ctx.s["parleys_round"]:
        opts.append(option({"do": "readmit"}, "Call a Parley on your readmission"))
    if len(ctx.s["seats"]) > 1:
        opts.append(option({"do": "offer"}, "Offer an exchange to another Player"))
        opts += agreements.menu(ctx, seat, full)  # what is capped is not even listed
    if me["exile"] and me["asylum"] is None:
        opts += [
            option({"do": "asylum", "host": h}, f"Ask {ctx.name(h)} for asylum")
            for h in in_play(ctx.s)
            if h != seat and not ctx.seat(h)["exile"]
        ]
    if "waive" not in full:
        opts += _waiver_options(ctx, seat)
    opts += [
        option({"do": "revoke", "exile": x}, f"Revoke the asylum of {ctx.name(x)}")
        for x in range(len(ctx.s["seats"]))
        if ctx.seat(x)["asylum"] == seat
    ]
    if tied(ctx.s, seat):
        opts.append(option({"do": "drop_tie"}, "Remove one of your own Diplomatic Ties"))
    return [o for o in opts if CAPPED.get(o["action"]["do"]) not in full] if full else opts


def _waiver_options(ctx: Ctx, seat: int) -> list[Option]:
    """Waive, or take back, one's Ties' +2 on the Rebellion Checks of another Player (12.42)."""
    waived = ctx.seat(seat).get("waive", [])
    areas = ctx.s["areas"]
    owners = sorted(
        {
            h[OWNER]
            for h in (areas[a] for a in tied(ctx.s, seat))
            if h[OWNER] is not None and h[OWNER] != seat
        }
    )
    opts = [
        option(
            {"do": "waive", "owner": p},
            f"Waive the effect of your Ties on the Areas of {ctx.name(p)}",
        )
        for p in owners
        if p not in waived
    ]
    return opts + [
        option({"do": "unwaive", "owner": p}, f"Withdraw your waiver for {ctx.name(p)}")
        for p in waived
    ]


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    seat, do = frame["seat"], action["do"]
    if do in CAPPED:
        asks = ctx.s.setdefault("turn_asks", {})
        asks[CAPPED[do]] = int(asks.get(CAPPED[do], 0)) + 1
    if do == "end":
        ctx.pop()
    elif do == "endeavor":
        endeavors.begin(ctx, seat, action["kind"])
    elif do == "tax":
        gold.start(ctx, seat)
    elif do == "holding":
        holding.play(ctx, seat, action["card"])
    elif do == "readmit":
        ctx.s["parleys_round"].append(f"readmit:{seat}")
        parley.call(ctx, "readmit", seat, None, [])
    elif do in ("agree", "cancel_agreement", "breach", "turk_parley"):
        agreements.choose(ctx, seat, action)
    elif do in handlers.MENU_DO:
        handlers.MENU_DO[do](ctx, seat, action)
    else:
        _choose_more(ctx, seat, action)


def _choose_more(ctx: Ctx, seat: int, action: Any) -> None:
    do = action["do"]
    if do in ("claim_parley", "reduce_fort", "drop_tie"):
        ctx.push({"kind": do, "seat": seat})
    elif do == "offer":
        ctx.push(
            {
                "kind": "offer",
                "seat": seat,
                "stage": "partner",
                "partner": None,
                "item_kind": None,
                "give": None,
                "ask": None,
            }
        )
    elif do == "asylum":
        ctx.push({"kind": "asylum", "seat": action["host"], "exile": seat})
    elif do in ("waive", "unwaive"):
        me = ctx.seat(seat)
        me["waive"] = sorted(
            set(me.get("waive", [])) - {action["owner"]}
            | ({action["owner"]} if do == "waive" else set())
        )
        ctx.log(
            "EMA-12.42",
            f"{ctx.name(seat)} "
            + ("waives" if do == "waive" else "withdraws the waiver of")
            + f" the effect of his Ties on the Areas of {ctx.name(action['owner'])}.",
        )
    else:
        ctx.seat(action["exile"])["asylum"] = None
        ctx.log("EMA-21.2", f"{ctx.name(seat)} revokes the asylum of {ctx.name(action['exile'])}.")


handlers.decision(
    "main",
    "EMA-9.0.GR",
    lambda ctx, f: "Your Player-Turn: choose what to do next",
    _options,
    _choose,
)


def _claim_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    if handlers.turn_page(frame, action):
        return
    ctx.pop()
    ctx.s["parleys_round"].append(f"claim:{action['area']}")
    parley.call(ctx, "claim", frame["seat"], None, [action["area"]])


handlers.decision(
    "claim_parley",
    "EMA-18.2",
    lambda ctx, f: "Claim Parley: choose the Area",
    lambda ctx, f: handlers.paged(
        ctx,
        f,
        [option({"area": a}, ctx.aname(a)) for a in claims.parley_candidates(ctx, f["seat"])],
    ),
    _claim_choose,
)


def _fort_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.pop()
    if action["area"] is None:
        endeavors.count_back(ctx)  # counted with the cancelled Endeavors (Grand Scenario)
    else:
        here = ctx.area(action["area"])
        here[FORT] = 2 if here[FORT] == 3 else 0
        ctx.log(
            "EMA-14.43",
            f"{ctx.name(frame['seat'])} reduces the forts of {ctx.aname(action['area'])}.",
        )


handlers.decision(
    "reduce_fort",
    "EMA-14.43",
    lambda ctx, f: "Reduce which Fortification?",
    lambda ctx, f: (
        [option({"area": None}, "None")]
        + [option({"area": a}, ctx.aname(a)) for a in owned(ctx.s, f["seat"]) if ctx.area(a)[FORT]]
    ),
    _fort_choose,
)
