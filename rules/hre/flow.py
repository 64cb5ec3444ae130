"""The turn (HRE-BASE-TURN): Noble action or Pass, Title repeat, end of turn.

The stack of frames drives everything (rules.core.machine); free actions join the turn's
prompt from `freeacts`.
"""

from __future__ import annotations

from typing import Any

from rules.core.engine import Option
from rules.hre import endgame, handlers, modules, titles
from rules.hre.economy import gain
from rules.hre.handlers import option
from rules.hre.state import Ctx, Frame, board_number, modifiers

ACTION_NAMES = {
    "build": "Build",
    "culture": "Development of Culture",
    "research": "Research",
    "recruit": "Recruit",
    "manoeuvre": "Manoeuvre",
}
# The turn prompt's labels, worded once.
_NOBLE_LABELS = {action: f"Place a Noble on {name}" for action, name in ACTION_NAMES.items()}
_START_TEXT = "Place a Noble on an Action card, or Pass (free actions may come first)"
_AFTER_TEXTS = {
    action: f"{name} done: repeat it with a Title, take free actions, or end the turn"
    for action, name in ACTION_NAMES.items()
}


def start_turn(ctx: Ctx, seat: int, extra: int = 0) -> None:
    """Begin a seat's turn (HRE-BASE-TURN-01), unless a module in play runs it (an automa)."""
    if modules.turn_start(ctx, seat, extra):
        return
    ctx.push(
        {
            "kind": "turn",
            "seat": seat,
            "phase": "start",
            "action": None,
            "title_used": False,
            "battle": False,
            "extra": extra,
        }
    )
    ctx.s["active"] = seat


def may_pass(ctx: Ctx, seat: int) -> bool:
    """Passing is refused while every Noble disc is available (HRE-BASE-TURN-08, AMB-39)."""
    me = ctx.seat(seat)
    return bool(me["discs"] < me["total_discs"])


def _turn_text(ctx: Ctx, frame: Frame) -> str:
    if frame["phase"] == "start":
        return _START_TEXT
    return _AFTER_TEXTS[frame["action"]]


def _turn_options(ctx: Ctx, frame: Frame) -> list[Option]:
    seat = frame["seat"]
    opts: list[Option] = []
    if frame["phase"] == "start":
        me = ctx.s["seats"][seat]
        if me["discs"] > 0:
            labels = _NOBLE_LABELS
            opts = [
                {"action": {"do": "noble", "slot": i}, "label": labels[slot["action"]]}
                for i, slot in enumerate(ctx.s["slots"])
            ]
        if may_pass(ctx, seat):
            opts.append({"action": {"do": "pass"}, "label": "Pass"})
    else:
        opts.extend(titles.repeat_options(ctx, frame))
        opts.append(option({"do": "end"}, "End the turn"))
    return opts


def _turn_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    seat, do = frame["seat"], action["do"]
    if do == "noble":
        slot = ctx.s["slots"][action["slot"]]
        ctx.seat(seat)["discs"] -= 1
        slot["stack"].append(seat)
        frame["phase"], frame["action"] = "after", slot["action"]
        ctx.log(
            "HRE-BASE-TURN-03",
            f"{ctx.name(seat)} places a Noble on {ACTION_NAMES[slot['action']]}.",
        )
        begin_action(ctx, seat, slot["action"])
    elif do == "title":
        titles.repeat(ctx, frame, action["title"])
        begin_action(ctx, seat, frame["action"])
    elif do == "pass":
        _to_turn_end(ctx, frame)
        ctx.log("HRE-BASE-PASS-01", f"{ctx.name(seat)} passes.")
        endgame.push_pass(ctx, seat)
    else:
        _to_turn_end(ctx, frame)


def begin_action(ctx: Ctx, seat: int, action: str) -> None:
    """Start resolving a Noble action; 'whenever you resolve' bonuses follow it."""
    ctx.push({"kind": "after_action", "seat": seat, "action": action})
    ctx.push({"kind": action, "seat": seat, "stage": "choose"})


def _to_turn_end(ctx: Ctx, frame: Frame) -> None:
    ctx.s["stack"].pop()
    ctx.push({"kind": "turn_end", "seat": frame["seat"], "phase": "react", "extra": frame["extra"]})


handlers.decision("turn", "HRE-BASE-TURN-02", _turn_text, _turn_options, _turn_choose)


@handlers.step("after_action")
def _after_action(ctx: Ctx, frame: Frame) -> None:
    """Technologies that trigger whenever their owner resolves this action."""
    ctx.s["stack"].pop()
    if frame.get("void"):
        return  # an action with no effect was not resolved: nothing to trigger (TITLE-03)
    for mod in modifiers(ctx.s, frame["seat"], "on_action"):
        if mod["action"] == frame["action"]:
            gain(ctx, frame["seat"], mod["gain"], "HRE-BASE-RESEARCH-06", " from a Technology")


@handlers.step("turn_end")
def _turn_end(ctx: Ctx, frame: Frame) -> None:
    """Reactions, hand limit, end-game check, then the next turn (HRE-BASE-TURN-06).

    The phases follow one another in this one call for as long as none puts a frame above this
    one: the machine would run this frame again at once, so the order is the same.
    """
    seat = frame["seat"]
    while True:
        phase = frame["phase"]
        if phase == "react":
            if _push_reaction(ctx):
                return
            frame["phase"] = "hand"
        elif phase == "hand":
            frame["phase"] = "end"
            if len(ctx.s["seats"][seat]["hand"]) > ctx.d.board["hand_limit"]:
                ctx.push({"kind": "hand_limit", "seat": seat})
                return
        elif phase == "end":
            frame["phase"] = "next"
            endgame.check_triggers(ctx, seat)
            if ctx.s["over"] or ctx.s["stack"][-1] is not frame:
                return
        else:
            ctx.s["stack"].pop()
            _next_turn(ctx, seat, frame["extra"])
            return


def _push_reaction(ctx: Ctx) -> bool:
    """Slide out the bottom disc of a full stack; its owner must react (HRE-BASE-REACT-01..03)."""
    react_at = board_number(ctx.s, "react_at")
    for i, slot in enumerate(ctx.s["slots"]):
        if len(slot["stack"]) >= react_at:
            owner = slot["stack"].pop(0)
            ctx.seat(owner)["exhausted"] += 1
            ctx.log(
                "HRE-BASE-REACT-01",
                f"The bottom Noble on {ACTION_NAMES[slot['action']]} "
                f"is pushed out: {ctx.name(owner)} reacts.",
            )
            ctx.push({"kind": "reaction", "seat": owner, "slot": i})
            return True
    return False


def _next_turn(ctx: Ctx, seat: int, extra: int) -> None:
    """Another turn for an extra-turn reward (AMB-03), else the next seat clockwise still in."""
    seats = ctx.s["seats"]
    if extra > 0 and not seats[seat]["out"]:
        ctx.log("HRE-BASE-BARB-09", f"{ctx.name(seat)} takes another turn.")
        start_turn(ctx, seat, extra - 1)
        return
    n = len(seats)
    for k in range(1, n + 1):
        nxt = (seat + k) % n
        if not seats[nxt]["out"]:
            start_turn(ctx, nxt)
            return
    endgame.finish(ctx)


def _hand_limit_options(ctx: Ctx, frame: Frame) -> list[Option]:
    hand = ctx.seat(frame["seat"])["hand"]
    return [option({"discard": c}, f"Discard {ctx.d.cards[c]['name']}") for c in sorted(set(hand))]


def _hand_limit_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    me = ctx.seat(frame["seat"])
    me["hand"].remove(action["discard"])
    ctx.s["discard"].append(action["discard"])
    ctx.log(
        "HRE-BASE-GEN-18",
        f"{ctx.name(frame['seat'])} discards "
        f"{ctx.d.cards[action['discard']]['name']} to the hand limit.",
    )


handlers.decision(
    "hand_limit",
    "HRE-BASE-GEN-18",
    lambda ctx, f: f"Discard down to {ctx.d.board['hand_limit']} Culture cards",
    _hand_limit_options,
    _hand_limit_choose,
    until=lambda ctx, f: len(ctx.seat(f["seat"])["hand"]) <= ctx.d.board["hand_limit"],
)
