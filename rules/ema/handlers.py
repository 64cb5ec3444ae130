"""Tables of frame handlers, filled by each rule module at import.

A frame on the state's stack is a decision of one seat, a decision several seats take at
once in secret (parley ballots), or a step the engine runs by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.core.engine import Option
from rules.core.frames import option as option  # re-exported: rule modules import it from here
from rules.core.frames import registrar
from rules.ema.state import Ctx, Frame

OptionsFn = Callable[[Ctx, Frame], list[Option]]
ChooseFn = Callable[[Ctx, Frame, Any], None]
TextFn = Callable[[Ctx, Frame], str]
StepFn = Callable[[Ctx, Frame], None]
SeatsFn = Callable[[Ctx, Frame], list[int]]
SeatOptionsFn = Callable[[Ctx, Frame, int], list[Option]]
SeatChooseFn = Callable[[Ctx, Frame, int, Any], None]


@dataclass(frozen=True)
class Decision:
    """How a one-seat decision frame is prompted and answered."""

    rule: str
    text: TextFn
    options: OptionsFn
    choose: ChooseFn


@dataclass(frozen=True)
class Multi:
    """A decision several seats answer at once, each secretly."""

    rule: str
    text: TextFn
    seats: SeatsFn
    options: SeatOptionsFn
    choose: SeatChooseFn


DECISIONS: dict[str, Decision] = {}
MULTI: dict[str, Multi] = {}
STEPS: dict[str, StepFn] = {}


def decision(kind: str, rule: str, text: TextFn, options: OptionsFn, choose: ChooseFn) -> None:
    """Register a one-seat decision frame kind."""
    DECISIONS[kind] = Decision(rule, text, options, choose)


def multi(
    kind: str, rule: str, text: TextFn, seats: SeatsFn, options: SeatOptionsFn, choose: SeatChooseFn
) -> None:
    """Register a simultaneous decision frame kind."""
    MULTI[kind] = Multi(rule, text, seats, options, choose)


# Register an automatic step frame kind: @step("kind").
step = registrar(STEPS)


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
