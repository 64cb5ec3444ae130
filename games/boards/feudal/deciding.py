"""Who decides now on the Feudal Lords table, and about what: the public parts of the decision frame.

Set-up decisions are answered by several seats at once, each in its own time; the view names
them all only where that is public, so the board says "and perhaps" where it cannot know.
"""

from __future__ import annotations

from typing import Any

from games.boards.common import seat_mark
from games.boards.feudal import cards as feudal_cards
from rules.feudal.metadata import INSTANT_STOPS as STOP_NAMES
from rules.feudal.metadata import components

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


def window_stop(view: dict[str, Any]) -> str | None:
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
    kind = components().cards[cid]["effects"][0]["kind"]
    combat_frame = view.get("combat")
    if kind == "drain" and isinstance(target, int):
        return f"on Seat {target + 1}"
    if kind == "boost":
        return "for the attackers" if target == "a" else "for the defenders"
    if kind == "relocate" and isinstance(target, int) and combat_frame:
        where = view["seats"][combat_frame["target"]]["locations"]
        return f"to {components().cards[where]['sites'][target]['name']}"
    if isinstance(target, int) and combat_frame:
        found = [c for side in ("a", "d") for c in combat_frame[side] if c["uid"] == target]
        return f"on {components().cards[found[0]['card']]['name']}" if found else ""
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
            f"may answer Seat {last['seat'] + 1}'s {components().cards[last['card']]['name']} "
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
