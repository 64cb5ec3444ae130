"""Holding cards (19.2): kept secret, played in the holder's turn, hand limit three."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rules.core.engine import Option
from rules.ema import claims, handlers
from rules.ema.handlers import option
from rules.ema.mapindex import claimed, drop_tie, tied
from rules.ema.state import (
    CLAIMS,
    OWNER,
    REL,
    TIES,
    Ctx,
    Frame,
    has,
    is_christian,
    owned,
    rel_relation,
    seats_in,
)
from rules.ema.territory import transfer

PERSISTENT = ("demesne", "weapons", "tactics", "fervor")
NAMES = {
    "recognition": "Recognition of Claim",
    "dynastic": "Dynastic Inheritance",
    "influence": "Influence in Church Hierarchy",
    "coup": "Diplomatic Coup",
    "demesne": "Enlargement of King's Personal Demesne",
    "weapons": "Technological Weapons Advance",
    "tactics": "Tactical Systems Advance",
    "fervor": "Missionary Fervor",
}


def kind_of(ctx: Ctx, card: str) -> str:
    """The kind of an Event/Holding card."""
    return str(ctx.d.events[card]["kind"])


def targets(ctx: Ctx, seat: int, card: str, group: list[str] | None = None) -> list[str]:
    """Areas a Holding card can be played on now."""
    pool = list(_pool(ctx, seat, card))
    if group is None or kind_of(ctx, card) != "dynastic":
        return pool
    return [
        a
        for a in pool
        if a not in group and (not group or any(n in group for n in ctx.d.land_adj[a]))
    ]


def _pool(ctx: Ctx, seat: int, card: str) -> Iterator[str]:
    """Areas a Holding card can be played on, one by one (a Dynastic group aside)."""
    kind, areas = kind_of(ctx, card), ctx.s["areas"]
    if kind == "recognition":
        # no own Claim yet, allowed by Religion (`claims.allowed`), and no other Player's Claim
        # (`claims.others_claim`) unless the seat has a Tie there: inline, for each own Area
        rel, bit = ctx.s["seats"][seat]["rel"], 1 << seat
        for a in owned(ctx.s, seat):
            h = areas[a]
            held = h[CLAIMS]
            if (
                not held & bit
                and rel_relation(rel, h[REL]) < 2
                and (not held & ~bit or h[TIES] & bit)
            ):
                yield a
    elif kind == "coup":
        yield from (a for a in owned(ctx.s, seat) if areas[a][TIES] & ~(1 << seat))
    elif kind == "dynastic":
        # 19.2 sets no Court exception for Dynastic Inheritance: a Court inherited is a Court
        # lost (7.52); only Areas with the seat's Tie or Claim can qualify (the map's index)
        for a in sorted({*tied(ctx.s, seat), *claimed(ctx.s, seat)}):
            h = areas[a]
            if (
                h[TIES] >> seat & 1 and not h[CLAIMS] >> seat & 1 and claims.allowed(ctx, seat, a)
            ) or (h[CLAIMS] >> seat & 1 and h[OWNER] != seat):
                yield a


def playable(ctx: Ctx, seat: int) -> list[str]:
    """Holding cards the seat may play in its own turn (Influence only in Parleys)."""
    out = []
    events = ctx.d.events
    for card in sorted(set(ctx.s["seats"][seat]["hand"])):
        kind = events[card]["kind"]  # `kind_of`
        if kind in PERSISTENT or next(_pool(ctx, seat, card), None) is not None:
            out.append(card)
    return out


def play(ctx: Ctx, seat: int, card: str) -> None:
    """Play a Holding card: persistent ones go in play, the others ask for their Area."""
    me = ctx.seat(seat)
    kind = kind_of(ctx, card)
    me["hand"].remove(card)
    ctx.log("EMA-19.2", f"{ctx.name(seat)} plays {NAMES[kind]}.")
    if kind in PERSISTENT:
        me["inplay"].append(card)
        return
    group: list[str] | None = [] if ctx.d.events[card].get("variant") == "group" else None
    ctx.push({"kind": "holding", "seat": seat, "card": card, "group": group, "area": None})


def _options(ctx: Ctx, frame: Frame) -> list[Option]:
    if frame.get("area"):  # 19.2 Coup: which one of the foreign Ties goes
        return [
            option({"tie": t}, f"Remove the Tie of {ctx.name(t)}")
            for t in _foreign_ties(ctx, frame)
        ]
    group = frame["group"]
    opts = [
        option({"area": a}, ctx.aname(a)) for a in targets(ctx, frame["seat"], frame["card"], group)
    ]
    if group is not None and group:
        opts.insert(0, option({"done": True}, "The group is complete"))
    if not opts:
        opts.append(option({"done": True}, "No Area: discard the card"))
    return handlers.paged(ctx, frame, opts)


def _foreign_ties(ctx: Ctx, frame: Frame) -> list[int]:
    return [t for t in seats_in(ctx.area(frame["area"])[TIES]) if t != frame["seat"]]


def _choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    group = frame["group"]
    if handlers.turn_page(frame, action):
        return
    if "area" in action and group is not None:
        group.append(action["area"])
        frame["page"] = None  # the next Area of the group may be in another language group
        return
    kind = kind_of(ctx, frame["card"])
    if kind == "coup" and "area" in action:
        frame["area"] = action["area"]
        if len(_foreign_ties(ctx, frame)) > 1:
            return  # ask which Tie: the Coup removes one only
        action = {"tie": _foreign_ties(ctx, frame)[0]}
    ctx.pop()
    ctx.s["event_discard"].append(frame["card"])
    areas = group if group is not None else ([action["area"]] if "area" in action else [])
    if kind == "recognition" and areas:
        claims.add(ctx, frame["seat"], areas[0], "EMA-19.2.Recognition")
    elif kind == "coup" and "tie" in action:
        drop_tie(ctx.s, frame["area"], action["tie"])
        ctx.log(
            "EMA-19.2.Coup",
            f"A Diplomatic Coup removes the Tie of {ctx.name(action['tie'])} on "
            f"{ctx.aname(frame['area'])}.",
        )
    elif areas:
        inherit(ctx, frame["seat"], areas)


handlers.decision(
    "holding",
    "EMA-19.2",
    lambda ctx, f: f"{NAMES[kind_of(ctx, f['card'])]}: choose the Area",
    _options,
    _choose,
)


def inherit(ctx: Ctx, seat: int, areas: list[str]) -> None:
    """Dynastic Inheritance: a Tie gives the Claim, a Claim gives the Area; owners may contest (19.2, 20.43)."""
    taken: dict[int, list[str]] = {}
    for aid in areas:
        here = ctx.area(aid)
        if not has(here[CLAIMS], seat):
            claims.add(ctx, seat, aid, "EMA-18.0.P4")
            continue
        victim = here[OWNER]
        ctx.log("EMA-19.2.Dynastic", f"{ctx.name(seat)} inherits {ctx.aname(aid)}.")
        if victim is not None and may_contest(ctx, victim):
            taken.setdefault(victim, []).append(aid)  # 20.43: he keeps it while he may contest
        else:
            transfer(ctx, aid, seat, "inheritance")
    for victim, lost in sorted(taken.items()):
        ctx.push(
            {"kind": "contest", "seat": victim, "against": seat, "areas": lost, "why": "dynastic"}
        )


def may_contest(ctx: Ctx, victim: int) -> bool:
    """A Christian, not excommunicated, not just dead heirless before his first Endeavor (19.2, 22.12)."""
    them = ctx.seat(victim)
    return is_christian(ctx, victim) and not them["excom"] and not them["heirless_guard"]


def _discard_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    me = ctx.seat(frame["seat"])
    me["hand"].remove(action["discard"])
    ctx.s["event_discard"].append(action["discard"])
    ctx.log("EMA-19.2", f"{ctx.name(frame['seat'])} discards a Holding card to the limit of three.")
    if len(me["hand"]) <= ctx.d.tables["hand_limit"]:
        ctx.pop()


handlers.decision(
    "hand_limit",
    "EMA-19.2",
    lambda ctx, f: "You hold four Holding cards: discard one",
    lambda ctx, f: [
        option({"discard": c}, f"Discard {NAMES[kind_of(ctx, c)]}")
        for c in sorted(ctx.seat(f["seat"])["hand"])
    ],
    _discard_choose,
)
