"""The Feudal Lords table: each seat's leader, locations and characters as cards, a combat in
progress, who decides now, and the viewer's hand — all from the engine's per-seat view.

Only the view is read, so nothing hidden reaches the page: other hands arrive as counts, the
Stockpile as a count, face-down Victory cards (and bluffs) as a back until revealed. Where a
card on the table or in the hand answers the prompt, it carries the indices of the options
naming it (like the HRE map's provinces), and the same choices stay buttons in the prompt bar.
"""

from __future__ import annotations

from typing import Any

from games.boards import feudal_cards
from games.boards.common import pick as _pick
from games.boards.hre import seat_mark
from rules.feudal.components import load
from rules.feudal.instants import STOP_NAMES

BASE_TARGET, TEAM_TARGET = 10, 16
SIDE_NAMES = {"a": "Attack pool", "d": "Defense pool"}
# What a seat deciding now is doing, for the "now deciding" line (the prompt text is the viewer's own).
DECIDING = {
    "setup_artifacts": "choosing which Artifacts to play and where",
    "setup_discard": "discarding two cards to form an opening hand",
    "stock": "in the Stockpile phase",
    "draft": "choosing whether to draft",
    "draft_marker": "deciding on a +1 marker for the Draft roll",
    "action": "in the Action phase",
    "arm_target": "choosing who takes a card",
    "resource": "keeping or rerolling the Resource dice",
    "send": "building a combat pool",
    "lone_pay": "deciding whether to pay for a Lone combatant",
    "vc": "deciding on a Victory card or bluff",
    "target_loc": "choosing the location to attack",
    "window": "may play an Instant",
    "df_target": "choosing a Distance Fire target",
    "match": "matching up combatants",
    "support": "placing a supporting combatant",
    "intervene": "deciding whether to intervene",
    "continue": "deciding whether to continue the attack",
    "solo_pick": "choosing an attacker and a defender",
    "solo_adjust": "deciding on markers for the roll",
    "solo_keep": "deciding about a wounded attacker",
}
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
# A priority window (FL-INST-04) by its stop: the stage a combat is at while it is open, and when
# the seat deciding may play an Instant (an Action-phase window has no combat around it).
WINDOWS = {
    "react": ("The defender's reaction", "in reaction to the attack"),
    "before_df": ("Before Distance Fire", "before Distance Fire"),
    "after_df": ("After the Distance Fire rolls", "after the Distance Fire rolls"),
    "cc_att_hits": ("after the attackers' hits", "after the attackers' Close Combat hits"),
    "cc_def_hits": ("after the defenders' hits", "after the defenders' Close Combat hits"),
    "before_end": ("Before End Combat", "before End Combat"),
    "action": ("Action phase", "in the Action phase"),
}
# Set-up decisions several seats answer at once, each in its own time (FL-SETUP-04, FL-SETUP-07).
TOGETHER = ("setup_artifacts", "setup_discard")
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


def _option_keys(action: Any) -> list[tuple[str, Any]]:
    """What an option names on the table: ("card", id), ("uid", n) or ("loc", i)."""
    if not isinstance(action, dict):
        return []
    found: list[tuple[str, Any]] = []
    for key in ("card", "discard"):
        if isinstance(action.get(key), str):
            found.append(("card", action[key]))
    for key in ("uid", "mine"):
        if isinstance(action.get(key), int):
            found.append(("uid", action[key]))
    if isinstance(action.get("loc"), int) and "pile" not in action:
        found.append(("loc", action["loc"]))
    return found


def picks(prompt: dict[str, Any] | None) -> dict[tuple[str, Any], list[int]]:
    """(kind, key) → indices of the prompt options naming that card, character or location."""
    found: dict[tuple[str, Any], list[int]] = {}
    for i, opt in enumerate(prompt["options"] if prompt else []):
        for key in _option_keys(opt["action"]):
            found.setdefault(key, []).append(i)
    return found


def character(
    c: dict[str, Any],
    chosen: dict[tuple[str, Any], list[int]],
    prompt: dict[str, Any] | None,
    names: dict[int, str] | None = None,
) -> dict[str, Any]:
    """A character with its Skills and Weapons, and in combat its hits, wounds and match-up."""
    shown = feudal_cards.card(c["card"])
    life = load().cards[c["card"]]["life"]
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
            for e in load().cards[a]["effects"]
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
    sites = load().cards[s["locations"]]["sites"]
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


def _target(s: dict[str, Any], mode: str) -> int:
    """The seat's VP target: 10 (16 for a team) plus its Artifacts (FL-WIN-03)."""
    base = TEAM_TARGET if mode == "teams" else BASE_TARGET
    cards = load().cards
    return base + sum(
        int(cards[loc["artifact"]]["vp_target"]) for loc in s["locs"] if loc["artifact"]
    )


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
    loc_seat = combat["target"] if targeting else view.get("seat")
    return {
        "index": i,
        "mark": seat_mark(i),
        "me": view.get("seat") == i,
        "leader": feudal_cards.card(s["leader"]),
        "vp": s["vp"],
        "total": s["total"],
        "target": _target(s, view["mode"]),
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
        "locations_card": load().cards[s["locations"]]["name"],
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
    names = {c["uid"]: load().cards[c["card"]]["name"] for side in ("a", "d") for c in frame[side]}
    target = view["seats"][frame["target"]]
    site = (
        "in the open"
        if frame["site"] == "open" or frame["fight"] == "intervention"
        else (
            "cancelled"
            if frame["site"] == "cancelled"
            else f"at {load().cards[target['locations']]['sites'][frame['loc']]['name']}"
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
                    {"name": load().cards[d["card"]]["name"], "owner": d["owner"]}
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
        "stage": _stage(frame["stage"], frame["round"], _window_stop(view)),
        "sides": sides,
    }


def _window_stop(view: dict[str, Any]) -> str | None:
    """The stop of the Instant window open now, if one is."""
    pending = view.get("pending") or {}
    return pending.get("stop") if pending.get("kind") == "window" else None


def deciders(view: dict[str, Any], prompt: dict[str, Any] | None) -> tuple[list[int], bool]:
    """The seats deciding now, and whether the view says that is all of them.

    Most decisions have one seat (the frame's). At set-up several seats decide at once: the view
    names them all when it shows the frame's `open` (Artifacts) or `left` (discards); otherwise
    all the board knows is the frame's seat (the first still choosing its Artifacts, FL-SETUP-04)
    and whether the viewer has a prompt of its own.
    """
    pending = view.get("pending")
    if not pending or view.get("over"):
        return [], True
    kind, me, n = pending["kind"], view.get("seat"), len(view["seats"])
    if kind not in TOGETHER:
        return ([pending["seat"]] if pending.get("seat") is not None else []), True
    for key in ("open", "left"):
        if isinstance(pending.get(key), dict):
            return sorted(int(k) for k, v in pending[key].items() if v), True
    mine = me is not None and prompt is not None and prompt.get("kind") == kind
    if kind == "setup_discard":  # everyone at first; the viewer knows only whether it has finished
        return [i for i in range(n) if i != me or mine], False
    first = int(pending["seat"])
    known = sorted({first, me} if mine and me is not None else {first})
    return known, not [i for i in range(first + 1, n) if i != me]


def _instant_target(view: dict[str, Any], cid: str, target: Any) -> str:
    """Whom or what an Instant waiting in a window is aimed at, for people."""
    if target is None:
        return ""
    kind = load().cards[cid]["effects"][0]["kind"]
    combat_frame = view.get("combat")
    if kind == "drain" and isinstance(target, int):
        return f"on Seat {target + 1}"
    if kind == "boost":
        return "for the attackers" if target == "a" else "for the defenders"
    if kind == "relocate" and isinstance(target, int) and combat_frame:
        where = view["seats"][combat_frame["target"]]["locations"]
        return f"to {load().cards[where]['sites'][target]['name']}"
    if isinstance(target, int) and combat_frame:
        found = [c for side in ("a", "d") for c in combat_frame[side] if c["uid"] == target]
        return f"on {load().cards[found[0]['card']]['name']}" if found else ""
    return ""


def window(view: dict[str, Any]) -> dict[str, Any] | None:
    """An Instant window open now, with the Instants played into it and waiting to resolve.

    A played Instant is public (FL-INST-01): everyone sees it, spectators too.
    """
    pending = view.get("pending")
    if not pending or pending["kind"] != "window" or view.get("over"):
        return None
    stop = pending.get("stop")
    played = [
        {
            "who": seat_mark(p["seat"]),
            "card": feudal_cards.card(p["card"]),
            "target": _instant_target(view, p["card"], p["target"]),
        }
        for p in pending.get("played", [])
    ]
    when = WINDOWS.get(stop, (STOP_NAMES.get(stop, ""), STOP_NAMES.get(stop, "")))
    moment = when[0] if not str(stop).startswith("cc_") else f"Close Combat, {when[0]}"
    return {"stop": stop, "moment": moment, "played": played, "seat": seat_mark(pending["seat"])}


def deciding(view: dict[str, Any], prompt: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """Who decides now and what about (from the view's public decision frame).

    `seats` lists every seat known to be deciding, the viewer first as "you"; `more` says that
    other seats may be deciding too when the view does not name them all.
    """
    pending = view.get("pending")
    if not pending or view.get("over"):
        return None
    kind, me = pending["kind"], view.get("seat")
    what = DECIDING.get(kind, kind.replace("_", " "))
    now, complete = deciders(view, prompt)
    stop = pending.get("stop")
    if kind == "window" and pending.get("played"):
        last = pending["played"][-1]
        what = (
            f"may answer Seat {last['seat'] + 1}'s {load().cards[last['card']]['name']} "
            "with an Instant, or pass"
        )
    elif kind == "window" and stop in WINDOWS:
        what = f"may play an Instant {WINDOWS[stop][1]}, or pass"
    elif kind == "window" and stop in STOP_NAMES:
        what = f"may play an Instant ({STOP_NAMES[stop]})"
    if kind == "send" and view.get("combat"):
        what = (
            "building the attack pool"
            if pending["seat"] == view["combat"]["att"]
            else "building the defense pool"
        )
    held = pending.get("held") if kind == "setup_discard" and me is not None else None
    done = kind == "setup_discard" and me is not None and me not in now
    if kind == "setup_discard" and not complete:
        # Who else is still choosing is not in the view: the discards are everyone's at once.
        now = [me] if me in now else []
    seats = sorted(now, key=lambda i: (i != me, i))
    more = ""
    if not complete and kind == "setup_artifacts":
        more = "and perhaps any other seat with Artifacts still to place"
    played = [
        {
            "who": seat_mark(p["seat"]),
            "card": feudal_cards.card(p["card"]),
            "target": _instant_target(view, p["card"], p["target"]),
        }
        for p in pending.get("played", [])
    ]
    return {
        "seats": [{"mark": seat_mark(i), "me": i == me} for i in seats],
        "who": seat_mark(seats[0]) if seats else None,
        # "Seat 2 may play…" but "Seat 2 is choosing…", "You and Seat 1 are choosing…".
        "predicate": what
        if what.startswith("may ")
        else f"{'are' if len(seats) > 1 or (seats and seats[0] == me) else 'is'} {what}",
        "what": what,
        "more": more,
        "mine": me is not None and me in now,
        "everyone": kind == "setup_discard" and not complete and not done,
        "done": done,
        "held": len(held or []),
        "played": played,
    }


def _hand(
    view: dict[str, Any], chosen: dict[tuple[str, Any], list[int]], prompt: dict[str, Any] | None
) -> list[dict[str, Any]] | None:
    """The viewer's own hand (None for spectators), each card with the options naming it."""
    seat = view.get("seat")
    if seat is None:
        return None
    own = view["seats"][seat]["hand"] if view["mode"] != "solitaire" else view.get("hand")
    if own is None:
        return None
    cards = []
    for cid in sorted(own, key=feudal_cards.sort_key):
        shown = feudal_cards.card(cid)
        shown["pick"] = _pick(chosen.get(("card", cid)), prompt)
        cards.append(shown)
    return cards


def held(view: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The viewer's opening discards set aside but not yet shown (FL-SETUP-07): the view holds
    only the viewer's own, so spectators and rivals never see them. None when there are none."""
    pending = view.get("pending") or {}
    if (
        view.get("seat") is None
        or pending.get("kind") != "setup_discard"
        or not pending.get("held")
    ):
        return None
    return [feudal_cards.card(cid) for cid in pending["held"]]


def artifacts(
    chosen: dict[tuple[str, Any], list[int]], prompt: dict[str, Any] | None
) -> list[dict[str, Any]] | None:
    """The viewer's Artifacts still to place at set-up (FL-SETUP-04), read from its own prompt:
    each card narrows the buttons to its locations. None when the viewer is not placing any."""
    if prompt is None or prompt.get("kind") != "setup_artifacts":
        return None
    ids = dict.fromkeys(
        o["action"]["card"]
        for o in prompt["options"]
        if isinstance(o["action"], dict) and o["action"].get("do") == "artifact"
    )
    shown = []
    for cid in ids:
        c = feudal_cards.card(cid)
        c["pick"] = _pick(chosen.get(("card", cid)), prompt)
        shown.append(c)
    return shown


def solitaire(
    view: dict[str, Any], chosen: dict[tuple[str, Any], list[int]], prompt: dict[str, Any] | None
) -> dict[str, Any]:
    """The solitaire table: three defender piles (top face up), living attackers, marker pool."""
    piles = [
        {
            "index": i,
            "top": feudal_cards.card(p["top"]) if p["top"] else None,
            "hidden": p["hidden"],
        }
        for i, p in enumerate(view["defenders"])
    ]
    return {
        "piles": piles,
        "living": [feudal_cards.card(c) for c in view["living"]],
        "markers": view["markers"],
        "killed": view["killed"],
        "deck_count": view["deck_count"],
        "discard_count": len(view["discard"]),
        "fight": view.get("fight"),
    }


def board_context(view: dict[str, Any], prompt: dict[str, Any] | None) -> dict[str, Any]:
    """The table, the combat, who decides, the hand and seat summaries for one viewer."""
    chosen = picks(prompt)
    hand = _hand(view, chosen, prompt)
    if view["mode"] == "solitaire":
        solo = solitaire(view, chosen, prompt)
        seat = {
            "index": 0,
            "mark": seat_mark(0),
            "solo": True,
            "markers": view["markers"],
            "killed": view["killed"],
            "hand_count": view["hand_count"],
            "active": True,
            "deciding": bool(prompt),
            "out": False,
        }
        return {
            "provinces": [seat],
            "solo": solo,
            "seats": [seat],
            "tables": [],
            "combat": None,
            "deciding": None,
            "hand": hand,
            "choosing": False,
            "picking": bool(chosen),
            "marks": [seat_mark(0)],
            "window": None,
            "held": None,
            "artifacts": None,
            "mode": "solitaire",
        }
    now = deciders(view, prompt)[0]
    tables = [seat_table(view, s, chosen, prompt, now) for s in view["seats"]]
    me = view.get("seat")
    # The viewer's own side of the table is drawn last, nearest the hand, as at a real table.
    ordered = [t for t in tables if t["index"] != me] + [t for t in tables if t["index"] == me]
    return {
        "provinces": ordered,  # the game page draws the tableau only when this is non-empty
        "tables": ordered,
        "seats": tables,
        "combat": combat(view, chosen, prompt),
        "deciding": deciding(view, prompt),
        "hand": hand,
        "choosing": False,
        "picking": bool(chosen),
        "window": window(view),
        "held": held(view),
        "artifacts": artifacts(chosen, prompt),
        "marks": [seat_mark(i) for i in range(len(view["seats"]))],
        "mode": view["mode"],
        "starter": view.get("starter", False),
        "turn": view.get("turns", 0),
        "solo": None,
    }
