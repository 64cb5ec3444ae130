"""Parleys (20.4, 20.5): secret ballots weighted by Diplomacy Stature, revealed together."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.engine import Option
from rules.core.words import counted
from rules.ema import claims, handlers, religion
from rules.ema.handlers import option
from rules.ema.state import OWNER, REL, Ctx, Frame, is_christian
from rules.ema.territory import transfer

TITLES = {
    "contest": "contest of a Diplomatic Conquest",
    "dynastic": "contest of a Dynastic Inheritance",
    "claim": "Claim Resolution Parley",
    "readmit": "readmission Parley",
    "breach": "Parley on a broken binding agreement",
    "turk": "Parley on an agreement with the Turk",
}
# Parleys other modules add (the Crusade Parley, 23.0): what follows their tally.
EXTRA: dict[str, Callable[[Ctx, dict[str, Any], bool], None]] = {}
RULES = {
    "contest": "EMA-20.41",
    "dynastic": "EMA-20.43",
    "claim": "EMA-20.42",
    "readmit": "EMA-20.45",
    "breach": "EMA-20.44",
    "turk": "EMA-31.7",
}


def voters(ctx: Ctx, kind: str, caller: int) -> list[int]:
    """Christian Leaders not excommunicated vote; the excommunicated only on his own readmission (20.5, 22.12)."""
    out = []
    for seat, me in enumerate(ctx.s["seats"]):
        if is_christian(ctx, seat) and (not me["excom"] or (kind == "readmit" and seat == caller)):
            out.append(seat)
    return out


def call(ctx: Ctx, kind: str, caller: int, other: int | None, areas: list[str]) -> None:
    """Open a Parley: each voter in turn order declares Influence cards face up (maybe 0), then votes in secret (A-38)."""
    eligible = voters(ctx, kind, caller)
    ctx.push(
        {
            "kind": "parley",
            "type": kind,
            "caller": caller,
            "other": other,
            "areas": list(areas),
            "voters": eligible,
            "ballots": {},
            "influence": {},
        }
    )
    ctx.log(
        RULES[kind],
        f"{ctx.name(caller)} calls a {TITLES[kind]}"
        + (f" on {', '.join(ctx.aname(a) for a in areas)}." if areas else "."),
    )
    order = [s for s in ctx.s["order"] if s is not None] or list(range(len(ctx.s["seats"])))
    queue = [
        s for s in order if s in eligible
    ]  # every voter is asked, so no one learns who holds cards
    if queue:
        ctx.push({"kind": "influence", "seat": queue[0], "queue": queue})


def _declared(ctx: Ctx, frame: Frame, seat: int) -> int:
    return int(frame.get("influence", {}).get(str(seat), 0))


def _influence_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    parley_frame = ctx.s["stack"][-2]
    seat = frame["seat"]
    parley_frame["influence"][str(seat)] = action["cards"]
    if action["cards"]:
        ctx.log(
            "EMA-19.2.Influence",
            f"{ctx.name(seat)} plays {counted(action['cards'], 'Influence in Church Hierarchy card')}: "
            f"+{5 * action['cards']} votes.",
        )
    frame["queue"] = frame["queue"][1:]
    if frame["queue"]:
        frame["seat"] = frame["queue"][0]
    else:
        ctx.pop()


handlers.decision(
    "influence",
    "EMA-19.2.Influence",
    lambda ctx, f: "Parley: play Influence in Church Hierarchy cards face up before the vote?",
    lambda ctx, f: [
        option({"cards": k}, f"Play {counted(k, 'Influence card')}" if k else "Play none")
        for k in range(len(_influence_cards(ctx, f["seat"])) + 1)
    ],
    _influence_choose,
)


def weight(ctx: Ctx, frame: Frame, seat: int, influence: int) -> int:
    """Diplomacy Stature, +5 per Influence card, +5 Byzantine on Eastern Orthodox Areas (20.5–20.52)."""
    votes = ctx.seat(seat)["st"]["d"] + 5 * influence
    areas = frame["areas"]
    if (
        ctx.seat(seat)["empire"] == "BYZ"
        and ctx.s.get("schism") != "union"  # 23.11 U: the Byzantine loses his +5
        and areas
        and all(ctx.area(a)[REL] == "EO" for a in areas)
    ):
        votes += 5
    return int(votes)


def _influence_cards(ctx: Ctx, seat: int) -> list[str]:
    return [c for c in ctx.seat(seat)["hand"] if ctx.d.events[c]["kind"] == "influence"]


def _ballot_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    k = _declared(ctx, frame, seat)
    extra = f" (with {counted(k, 'Influence card')} played)" if k else ""
    return [
        option({"vote": side, "influence": k}, f"Vote {side} the caller{extra}")
        for side in ("for", "against")
    ]


def _ballot_seats(ctx: Ctx, frame: Frame) -> list[int]:
    return [s for s in frame["voters"] if str(s) not in frame["ballots"]]


def _ballot_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    frame["ballots"][str(seat)] = {"vote": action["vote"], "influence": action["influence"]}
    ctx.log("EMA-20.5", None, {seat: f"You vote {action['vote']}."})
    if not _ballot_seats(ctx, frame):
        ctx.pop()
        tally(ctx, frame)


def tally(ctx: Ctx, frame: Frame) -> None:
    """Reveal every ballot together and apply the decision with its tie rule (20.41–20.45)."""
    totals = {"for": 0, "against": 0}
    for key, ballot in sorted(frame["ballots"].items()):
        seat = int(key)
        for card in _influence_cards(ctx, seat)[: ballot["influence"]]:
            ctx.seat(seat)["hand"].remove(card)
            ctx.s["event_discard"].append(card)
        totals[ballot["vote"]] += weight(ctx, frame, seat, ballot["influence"])
    kind, caller = frame["type"], frame["caller"]
    ctx.s["tallies"] = (
        int(ctx.s.get("tallies", 0)) + 1
    )  # the ballots are now public: an undo barrier
    won = (
        totals["for"] > totals["against"]
        if kind in ("readmit", "crusade")  # a Crusade Parley needs a majority
        else totals["for"] >= totals["against"]
    )
    ctx.log(
        RULES[kind],
        f"The {TITLES[kind]} is decided {totals['for']}–{totals['against']}: "
        + ("for" if won else "against")
        + f" {ctx.name(caller)}.",
    )
    if kind in EXTRA:
        EXTRA[kind](ctx, frame, won)
    elif kind in ("contest", "dynastic"):
        _settle(ctx, frame, won)
    elif not won:
        return
    elif kind == "claim":
        claims.add(ctx, caller, frame["areas"][0], "EMA-20.42")
    elif kind == "readmit":
        religion.readmit(ctx, caller, "EMA-20.45")
    else:
        religion.excommunicate(
            ctx, frame["other"], RULES[kind]
        )  # a tie excommunicates (20.44, A-38)


def _settle(ctx: Ctx, frame: Frame, won: bool) -> None:
    """20.41/20.43: the caller is the owner; winning (a tie too) he keeps the Area, losing he must give it up."""
    kind, caller = frame["type"], frame["caller"]
    if won:
        ctx.log(
            RULES[kind],
            f"{ctx.name(caller)} keeps {', '.join(ctx.aname(a) for a in frame['areas'])}.",
        )
        return
    ctx.push(
        {
            "kind": "give_up",
            "seat": caller,
            "to": frame["other"],
            "areas": frame["areas"],
            "why": kind,
        }
    )


handlers.multi(
    "parley",
    "EMA-20.5",
    lambda ctx, f: f"Secret ballot: {TITLES[f['type']]} called by {ctx.name(f['caller'])}",
    _ballot_seats,
    _ballot_options,
    _ballot_choose,
)


HOW = {"diplomacy": "diplomacy", "contest": "diplomacy", "dynastic": "inheritance"}


def concede(ctx: Ctx, loser: int, winner: int, areas: list[str], why: str) -> None:
    """The owner lets the Areas go to the taker: by Diplomatic Conquest or Inheritance (12.31, 19.2)."""
    for aid in areas:
        if ctx.area(aid)[OWNER] == loser:
            ctx.log(
                RULES.get(why, "EMA-12.31"),
                f"{ctx.aname(aid)} passes from {ctx.name(loser)} to {ctx.name(winner)}.",
            )
            transfer(ctx, aid, winner, HOW[why])


def _contest_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    """Contest now (20.54) or accept: the Area moves only once the loss is accepted or decided."""
    ctx.pop()
    if action["contest"]:
        call(
            ctx,
            "dynastic" if frame["why"] == "dynastic" else "contest",
            frame["seat"],
            frame["against"],
            frame["areas"],
        )
    else:
        concede(ctx, frame["seat"], frame["against"], frame["areas"], frame["why"])


def _give_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    """The losing caller gives the Area up, or keeps it and is excommunicated (20.41, 20.43, 22.1)."""
    ctx.pop()
    seat = frame["seat"]
    if action["give"]:
        concede(ctx, seat, frame["to"], frame["areas"], frame["why"])
        return
    ctx.log(
        RULES[frame["why"]],
        f"{ctx.name(seat)} refuses to give up {', '.join(ctx.aname(a) for a in frame['areas'])}.",
    )
    religion.excommunicate(ctx, seat, RULES[frame["why"]])


handlers.decision(
    "contest",
    "EMA-12.32",
    lambda ctx, f: (
        f"{ctx.name(f['against'])} would take "
        f"{', '.join(ctx.aname(a) for a in f['areas'])}: contest it by Parley?"
    ),
    lambda ctx, f: [
        option({"contest": True}, "Call a Parley"),
        option({"contest": False}, "Accept the loss"),
    ],
    _contest_choose,
)
handlers.decision(
    "give_up",
    "EMA-20.41",
    lambda ctx, f: (
        f"The Parley went against you: give {'the Areas' if len(f['areas']) > 1 else 'the Area'} up "
        "or be excommunicated"
    ),
    lambda ctx, f: [
        option({"give": True}, "Give them up" if len(f["areas"]) > 1 else "Give it up"),
        option({"give": False}, "Refuse (excommunication)"),
    ],
    _give_choose,
)
