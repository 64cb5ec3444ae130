"""EMA's frame machine, filled by each rule module at import; long Area lists split in pages.

A frame on the state's stack is a decision of one seat, a decision several seats take at
once in secret (parley ballots), or a step the engine runs by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.engine import Option
from rules.core.frames import option as option  # re-exported: rule modules import it from here
from rules.core.machine import Decision, Machine, one_seat
from rules.ema.state import Ctx, Frame

MACHINE: Machine[Ctx] = Machine(Ctx)
TextFn = Callable[[Ctx, Frame], str]


def decision(
    kind: str,
    rule: str,
    text: TextFn,
    options: Callable[[Ctx, Frame], list[Option]],
    choose: Callable[[Ctx, Frame, Any], None],
) -> None:
    """Register a one-seat decision frame kind."""
    MACHINE.decision(kind, one_seat(rule, text, options, choose))


def reply(
    kind: str, rule: str, text: TextFn, declined: TextFn, accepted: Callable[[Ctx, Frame], None]
) -> None:
    """Register a seat's yes or no to a proposal: a refusal is logged, a yes runs `accepted`."""

    def choose(ctx: Ctx, frame: Frame, action: Any) -> None:
        ctx.pop()
        if action["accept"]:
            accepted(ctx, frame)
        else:
            ctx.log(rule, declined(ctx, frame))

    decision(
        kind,
        rule,
        text,
        lambda ctx, f: [option({"accept": True}, "Accept"), option({"accept": False}, "Decline")],
        choose,
    )


def multi(
    kind: str,
    rule: str,
    text: TextFn,
    seats: Callable[[Ctx, Frame], list[int]],
    options: Callable[[Ctx, Frame, int], list[Option]],
    choose: Callable[[Ctx, Frame, int, Any], None],
) -> None:
    """Register a decision several seats answer at once, each secretly."""
    MACHINE.decision(
        kind, Decision(rule, lambda ctx, f, seat: text(ctx, f), options, choose, seats)
    )


# Register an automatic step frame kind: @step("kind").
step = MACHINE.step

# Hooks through which the optional rules (23.0-25.0) and the Grand Scenario (32.0) join the
# sequence without the core modules importing them; each is empty unless its module is loaded
# and only acts when its option is on.
MenuHook = Callable[[Ctx, int], list[Option]]
MENU: list[MenuHook] = []  # extra choices on the active Player's main menu
MENU_DO: dict[str, Callable[[Ctx, int, Any], None]] = {}  # what those choices do, by "do"
GAME_TURN: list[Callable[[Ctx], None]] = []  # after the Event Card Segment (6.0 II)
# after the Year deal, before initiative, by their step of 6.0 III (2 Crusade, 3 Raiders, ...)
ROUND_PHASES: dict[int, Callable[[Ctx], None]] = {}
ROUND_END: list[Callable[[Ctx], None]] = []  # after the unplayed cards, before the marker moves
AFTER_ACTION: list[Callable[[Ctx], None]] = []  # after every answered prompt and its steps
ANNOUNCE: list[Callable[[Ctx, dict[str, Any]], None]] = []  # an Endeavor just announced (9.0 P4)

PAGE = 40  # more Area options than this are split by language group, so every Area stays reachable
GROUPS = ("germanic", "romanic", "slavonic", "celtic", "hellenic", "baltic", "turkish", "other")


def area_group(ctx: Ctx, aid: str) -> str:
    """The language group of an Area's printed Language (7.3), for splitting long lists."""
    lang = ctx.d.areas[aid]["language"]
    return str(ctx.d.languages[lang]["group"]) if lang in ctx.d.languages else "other"


def _area_of(action: Any) -> str | None:
    for key in ("area", "claim", "court"):
        if isinstance(action, dict) and isinstance(action.get(key), str):
            return str(action[key])
    return None


def paged(ctx: Ctx, frame: Frame, opts: list[Option]) -> list[Option]:
    """A long list of Area options: first the language groups, then the chosen group's Areas."""
    if len(opts) <= PAGE and frame.get("page") is None:
        return opts
    found = {area_group(ctx, a) for a in (_area_of(o["action"]) for o in opts) if a is not None}
    page = frame.get("page")
    plain = [o for o in opts if _area_of(o["action"]) is None]
    if page is None:
        return plain + [
            option({"page": g}, f"Areas of the {g} languages") for g in GROUPS if g in found
        ]
    return plain + [
        o for o in opts if (a := _area_of(o["action"])) is not None and area_group(ctx, a) == page
    ]


def turn_page(frame: Frame, action: Any) -> bool:
    """Take a group choice of `paged`; True when the action was one."""
    if isinstance(action, dict) and "page" in action:
        frame["page"] = action["page"]
        return True
    return False
