"""One seat's side of the Feudal Lords table, and a combat in progress, from a seat's view."""

from __future__ import annotations

from typing import Any

from games.boards.common import pick as _pick
from games.boards.common import seat_mark
from games.boards.feudal import cards as feudal_cards
from games.boards.feudal.deciding import WINDOWS, deciders, window_stop
from rules.feudal.metadata import components, vp_target

Chosen = dict[tuple[str, Any], list[int]]
SIDE_NAMES = {"a": "Attack pool", "d": "Defense pool"}
STAGES = {
    "send_a": "The attacker builds the attack pool",
    "check_a": "The attacker builds the attack pool",
    "vc_a": "The attacker's Victory card",
    "target": "The attacker chooses the location",
    "intervene": "Interventions",
    "react": "The defender's reaction",
    "after_react": "The defender's reaction",
    "send_d": "The defender builds the defense pool",
    "vc_d": "The defender's Victory card",
    "before_df": "Before Distance Fire",
    "close": "Before End Combat",
    "end": "End of combat",
}
# Until the attacker names the location, the combat frame's default location means nothing.
BEFORE_TARGET = ("send_a", "check_a", "vc_a", "target", "intervene")


def _stage(stage: str | None, rnd: int, stop: str | None = None) -> str:
    """A combat stage for people; while an Instant window is open, the window's moment."""
    if stop in WINDOWS:
        if stop.startswith("cc_"):
            return f"Close Combat, round {max(rnd, 1)}: {WINDOWS[stop][0]}"
        return WINDOWS[stop][0]
    if not stage:
        return ""
    if stage.startswith("df_"):
        return "Distance Fire"
    if stage.startswith("cc_"):
        return f"Close Combat, round {max(rnd, 1)}"
    return STAGES.get(stage, "")


def character(
    c: dict[str, Any],
    chosen: dict[tuple[str, Any], list[int]],
    prompt: dict[str, Any] | None,
    names: dict[int, str] | None = None,
) -> dict[str, Any]:
    """A character with its Skills and Weapons, and in combat its hits, wounds and match-up."""
    shown = feudal_cards.card(c["card"])
    life = components().cards[c["card"]]["life"]
    shown.update(
        uid=c["uid"],
        skills=[feudal_cards.card(s) for s in c["skills"]],
        weapons=[feudal_cards.card(w) for w in c["weapons"]],
        pick=_pick(chosen.get(("uid", c["uid"])), prompt),
        owner=c.get("owner"),
        combat="wounds" in c,
    )
    if "wounds" in c:
        extra = sum(
            e["amount"]
            for a in c["skills"] + c["weapons"]
            for e in components().cards[a]["effects"]
            if e["kind"] == "life"
        )
        shown.update(
            wounds=c["wounds"],
            hits=c["hits"],
            life=life + extra,
            matched=(names or {}).get(c["m"]) if c["m"] is not None else None,
            supports=(names or {}).get(c["sup"]) if c["sup"] is not None else None,
            aims=(names or {}).get(c["tgt"]) if c["tgt"] is not None else None,
        )
    return shown


def _locations(
    s: dict[str, Any],
    attacked: int | None,
    chosen: dict[tuple[str, Any], list[int]],
    prompt: dict[str, Any] | None,
    loc_seat: int | None,
) -> list[dict[str, Any]]:
    """The seat's three locations: name, effect, token (or sacked), Supply and Artifact."""
    sites = components().cards[s["locations"]]["sites"]
    out = []
    for i, (site, loc) in enumerate(zip(sites, s["locs"], strict=False)):
        out.append(
            {
                "index": i,
                "name": site["name"],
                "text": site["text"],
                "token": loc["token"],
                "supply": feudal_cards.card(loc["supply"]) if loc["supply"] else None,
                "artifact": feudal_cards.card(loc["artifact"]) if loc["artifact"] else None,
                "attacked": attacked == i,
                "pick": _pick(chosen.get(("loc", i)), prompt) if loc_seat == s["seat"] else None,
            }
        )
    return out


def seat_table(
    view: dict[str, Any],
    s: dict[str, Any],
    chosen: dict[tuple[str, Any], list[int]],
    prompt: dict[str, Any] | None,
    now: list[int] | None = None,
) -> dict[str, Any]:
    """One seat's side of the table and its summary for the seat card."""
    i = s["seat"]
    combat = view.get("combat")
    attacked = (
        combat["loc"]
        if combat
        and combat["target"] == i
        and combat["site"] == "loc"
        and combat["stage"] not in BEFORE_TARGET
        else None
    )
    # Locations named by options are the attacked seat's when choosing a target, else one's own.
    targeting = prompt is not None and prompt["kind"] == "target_loc" and combat
    loc_seat = combat["target"] if targeting and combat else view.get("seat")
    return {
        "index": i,
        "mark": seat_mark(i),
        "me": view.get("seat") == i,
        "leader": feudal_cards.card(s["leader"]),
        "vp": s["vp"],
        "total": s["total"],
        "target": vp_target(
            view["mode"], [loc["artifact"] for loc in s["locs"] if loc["artifact"]]
        ),
        "vp_tokens": list(range(s["vp"])),
        "sup": s["sup"],
        "ld": s["ld"],
        "markers": s["markers"],
        "marker_spent": s["marker_spent"],
        "hand_count": s["hand_count"],
        "stock_count": s["stock_count"],
        "discard_count": len(s["discard"]),
        "discard": [feudal_cards.card(c) for c in reversed(s["discard"])],
        "locations": _locations(s, attacked, chosen, prompt, loc_seat),
        "locations_card": components().cards[s["locations"]]["name"],
        "area": [character(c, chosen, prompt) for c in s["area"]],
        "constants": [feudal_cards.card(c) for c in s["constants"]],
        "active": view["active"] == i,
        "deciding": i in (now if now is not None else deciders(view, prompt)[0]),
        "out": False,
        "partner": (i + 2) % 4 if view["mode"] == "teams" else None,
    }


def _vc(vc: dict[str, Any] | None) -> dict[str, Any] | None:
    """A Victory card played in combat: its face once up (or to its owner), else only its back."""
    if vc is None:
        return None
    return {
        "seat": vc["seat"],
        "up": vc["up"],
        "card": feudal_cards.card(vc["card"]) if vc["card"] else None,
    }


def combat(
    view: dict[str, Any], chosen: dict[tuple[str, Any], list[int]], prompt: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The combat in progress: who attacks whom where, both pools, Victory cards, the fallen."""
    frame = view.get("combat")
    if not frame:
        return None
    names = {
        c["uid"]: components().cards[c["card"]]["name"] for side in ("a", "d") for c in frame[side]
    }
    target = view["seats"][frame["target"]]
    site = (
        "in the open"
        if frame["site"] == "open" or frame["fight"] == "intervention"
        else (
            "cancelled"
            if frame["site"] == "cancelled"
            else f"at {components().cards[target['locations']]['sites'][frame['loc']]['name']}"
            if frame["loc"] is not None and frame["stage"] not in BEFORE_TARGET
            else ""
        )
    )
    sides = []
    for side in ("a", "d"):
        who = frame["att"] if side == "a" else frame["def"]
        boost = ", ".join(
            f"{k.replace('_', ' ').upper()} {v:+d}" for k, v in frame["boost"][side].items() if v
        )
        sides.append(
            {
                "key": side,
                "name": SIDE_NAMES[side],
                "who": seat_mark(who),
                "combatants": [character(c, chosen, prompt, names) for c in frame[side]],
                "dead": [
                    {"name": components().cards[d["card"]]["name"], "owner": d["owner"]}
                    for d in frame["dead"][side]
                ],
                "vc": _vc(frame["vc"][side]),
                "boost": boost,
            }
        )
    return {
        "attacker": seat_mark(frame["att"]),
        "target": seat_mark(frame["target"]),
        "defender": seat_mark(frame["def"]) if frame["def"] is not None else None,
        "intervention": frame["fight"] == "intervention",
        "site": site,
        "sacked": frame["sacked"],
        "stage": _stage(frame["stage"], frame["round"], window_stop(view)),
        "sides": sides,
    }
