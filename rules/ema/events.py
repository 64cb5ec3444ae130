"""Event cards (19.1): Plenty, Famine, Epidemic and the Black Death, Heresy, Leader Dies Heirless."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.ema import agreements, leaders, rebellion, religion, windows
from rules.ema.mapindex import drop_tie, set_claims
from rules.ema.state import (
    CHRISTIAN,
    CLAIMS,
    LANG,
    OWNER,
    REL,
    SS,
    TIES,
    UNREST,
    Ctx,
    change_ss,
    has,
    owned,
)
from rules.ema.territory import court_candidates, transfer

PLAGUE_SEAS = (
    "aegean_sea",
    "ionian_sea",
    "adriatic_sea",
    "tyrrhenian_sea",
    "western_mediterranean",
)


def draw(ctx: Ctx, seat: int) -> None:
    """Draw one card at the start of the Player-Turn; Events resolve at once, Holdings are kept (19.0 P)."""
    if not ctx.s["event_deck"]:
        ctx.s["event_deck"], ctx.s["event_discard"] = ctx.s["event_discard"], []
        rng.shuffle(ctx.s, ctx.s["event_deck"])
    if not ctx.s["event_deck"]:
        return
    card_id = ctx.s["event_deck"].pop()
    card = ctx.d.events[card_id]
    if card["kind"] in HANDLERS:
        ctx.s["event_discard"].append(card_id)
        ctx.s["current_event"] = (
            card_id  # public: Events resolve face up (a Holding drawn stays secret)
        )
        ctx.log("EMA-19.1", f"{ctx.name(seat)} draws the Event {card['kind'].title()}.")
        HANDLERS[card["kind"]](ctx, seat, card)
        return
    me = ctx.seat(seat)
    me["hand"].append(card_id)
    ctx.log(
        "EMA-19.0.P",
        f"{ctx.name(seat)} draws a Holding card.",
        {seat: f"You draw {card['kind']} ({card_id})."},
    )
    if len(me["hand"]) > ctx.d.tables["hand_limit"]:
        ctx.push({"kind": "hand_limit", "seat": seat})


def plenty(ctx: Ctx, seat: int, card: dict[str, Any]) -> None:
    """Each listed Area gains 1 SS, up to Norm+2 (19.1 Plenty)."""
    for aid in card["areas"]:
        change_ss(ctx, aid, 1)
    ctx.log(
        "EMA-19.1.Plenty",
        f"Year of Plenty: {', '.join(ctx.aname(a) for a in card['areas'])} +1 SS.",
    )


def famine(ctx: Ctx, seat: int, card: dict[str, Any]) -> None:
    """Each listed Area loses 1 SS, down to −3 (19.1 Famine)."""
    for aid in card["areas"]:
        change_ss(ctx, aid, -1)
    ctx.log(
        "EMA-19.1.Famine",
        f"Year of Famine: {', '.join(ctx.aname(a) for a in card['areas'])} −1 SS.",
    )


def epidemic(ctx: Ctx, seat: int, card: dict[str, Any]) -> None:
    """The drawer's Areas with Population > 0 lose 1 SS, unless it is the Black Death (19.1 Epidemic)."""
    hit = [a for a in owned(ctx.s, seat) if ctx.d.areas[a]["population"] > 0]
    late = ctx.s["year"] + 4 >= ctx.s["options"]["black_death_year"]
    coastal = any(s in PLAGUE_SEAS for a in hit for s in ctx.d.area_seas[a])
    if late and coastal and not ctx.s["black_death"]:
        black_death(ctx)
        return
    for aid in hit:
        change_ss(ctx, aid, -1)
    ctx.log(
        "EMA-19.1.Epidemic",
        f"Epidemic in the Empire of {ctx.name(seat)}: {len(hit)} Areas lose 1 SS.",
    )


def susceptible(ctx: Ctx, aid: str) -> bool:
    """Plague Susceptibility = SS + Population ≥ 1 (19.1 BD-2)."""
    return bool(ctx.area(aid)[SS] + ctx.d.areas[aid]["population"] >= 1)


def _plague_next(ctx: Ctx, aid: str) -> list[str]:
    """Areas the plague may reach from an Area: overland or through exactly one Sea (BD-3, BD-5)."""
    near = set(ctx.d.land_adj[aid])
    for sea in ctx.d.area_seas[aid]:
        near.update(ctx.d.sea_lands[sea])
    near.discard(aid)
    return sorted(near)


def black_death(ctx: Ctx) -> None:
    """Constantinople −2, Venice always hit; then spread breadth-first to susceptible Areas (BD-1..6, A-59)."""
    ctx.s["black_death"] = True
    hit = ["constantinople", "venice"]
    queue = list(hit)
    while queue:
        here = queue.pop(0)
        for nxt in _plague_next(ctx, here):
            if nxt not in hit and susceptible(ctx, nxt):
                hit.append(nxt)
                queue.append(nxt)
    for aid in hit:
        change_ss(ctx, aid, -2)
    ctx.log(
        "EMA-19.1.BD-4",
        f"The Black Death strikes {len(hit)} Areas from Constantinople (−2 SS each).",
    )


def heresy(ctx: Ctx, seat: int, card: dict[str, Any]) -> None:
    """The drawer's Christian Area in Unrest with the highest SS + Population turns heretical (19.1 Heresy)."""
    me = ctx.seat(seat)
    pool = [
        a
        for a in owned(ctx.s, seat)
        if ctx.area(a)[UNREST] and ctx.area(a)[REL] in CHRISTIAN and a != me["court"]
    ]
    if me["rel"] not in CHRISTIAN or not pool:
        ctx.log("EMA-19.1.Heresy-0", "Outbreak of Heresy: no effect.")
        return
    score = {a: ctx.area(a)[SS] + ctx.d.areas[a]["population"] for a in pool}
    best = [a for a in pool if score[a] == max(score.values())]
    aid = best[0] if len(best) == 1 else rng.choice(ctx.s, best)  # a die roll breaks ties
    make_heretic(ctx, aid)
    ctx.s["heresy"] = {"seat": seat, "area": aid}


def make_heretic(ctx: Ctx, aid: str) -> None:
    """An Area turns heretical: Independent, Religion Christian Heretic (19.1 Heresy-2)."""
    ctx.area(aid)[REL] = "heretic"
    ctx.log("EMA-19.1.Heresy-2", f"{ctx.aname(aid)} turns heretical and becomes Independent.")
    if ctx.area(aid)[OWNER] is not None:
        transfer(ctx, aid, None, "heresy")


def spread_heresy(ctx: Ctx) -> None:
    """At the end of the drawer's turn, unless he reconquered it, the heresy spreads once (Heresy-3)."""
    pending = ctx.s["heresy"]
    ctx.s["heresy"] = None
    if pending is None or ctx.area(pending["area"])[OWNER] == pending["seat"]:
        return
    source = pending["area"]
    courts = {m["court"] for m in ctx.s["seats"]}
    for aid in ctx.d.land_adj[source]:
        here = ctx.area(aid)
        if here[REL] in CHRISTIAN and here[LANG] == ctx.area(source)[LANG] and aid not in courts:
            ctx.log("EMA-19.1.Heresy-3", f"The heresy spreads to {ctx.aname(aid)}.")
            make_heretic(ctx, aid)


def heirless(ctx: Ctx, seat: int, card: dict[str, Any]) -> None:
    """Leader Dies Heirless (19.1): check, lose Ties and bare Claims, Unrest, checks, Court choice."""
    if leaders.exempt(ctx, seat):
        ctx.log("EMA-27.7", "Charlemagne's Longevity: the Heirless card is ignored.")
        return
    me = ctx.seat(seat)
    leaders.stature_check(ctx, seat, "EMA-19.1.Heirless")
    for aid, here in ctx.s["areas"].items():
        if has(here[TIES], seat):
            drop_tie(ctx.s, aid, seat)
        if has(here[CLAIMS], seat) and here[OWNER] != seat:
            set_claims(ctx.s, aid, here[CLAIMS] & ~(1 << seat))
    lost = [c for c in me["inplay"] if ctx.d.events[c]["kind"] == "demesne"]
    me["inplay"] = [c for c in me["inplay"] if c not in lost]
    ctx.s["event_discard"] += lost
    religion.readmit(ctx, seat, "EMA-22.13")
    agreements.release(ctx, seat)
    me["heirless_guard"] = True
    windows.open_window(
        ctx, "heirless", seat
    )  # 19.2, §6.1: after the whole draw is resolved (opened first)
    for aid in owned(ctx.s, seat):
        if card["variant"] == "all" or ctx.area(aid)[LANG] != me["lang"]:
            ctx.area(aid)[UNREST] = True
    for aid in owned(ctx.s, seat):
        here = ctx.area(aid)
        if (
            here[UNREST]
            and here[OWNER] == seat
            and rebellion.check(ctx, aid, 0, "EMA-17.0.Trig-Heirless") == "-"
        ):
            here[UNREST] = False  # 19.1 (e): here a "-" removes the Unrest
    if me["court"] is not None and len(court_candidates(ctx, seat, language_only=True)) > 1:
        ctx.push({"kind": "court_move", "seat": seat, "why": "heirless"})


HANDLERS = {
    "plenty": plenty,
    "famine": famine,
    "epidemic": epidemic,
    "heresy": heresy,
    "heirless": heirless,
}
