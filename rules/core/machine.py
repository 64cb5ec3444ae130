"""The frame machine: decisions, steps and continuations by kind, and the loop that runs them.

The state holds a stack of frames (plain JSON, each with a `kind`). The top frame is either a
decision, where seats are prompted and the engine waits, or a step the engine runs by itself.
`prompts` reads the top decision, `choose` answers it and `advance` runs steps until the next
decision, the end of the game or an empty stack. Rule modules fill one `Machine` per game at
import; `FrameEngine` is the engine contract over it.

A module that a scenario switches on (a game's expansion modules) adds its own decisions and
steps, and may reach into decisions it does not own: an `Extension` adds options to a decision's
prompt and claims the answers it offered; `wrap_step` hooks a step. Both are registered once, at
import, for every game of the engine: they offer nothing and pass through where their module is
not in play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rules.core.engine import Engine, Event, Option, Prompt, State
from rules.core.errors import InvariantError
from rules.core.frames import Frame, StepContext, registrar

C = TypeVar("C", bound=StepContext[Any])

# The runaway guard: this many automatic steps in a row without a decision is a bug.
STEP_CAP = 100_000

TextFn = Callable[[C, Frame, int], str]
OptionsFn = Callable[[C, Frame, int], list[Option]]
ChooseFn = Callable[[C, Frame, int, Any], None]
SeatsFn = Callable[[C, Frame], list[int]]
StepFn = Callable[[C, Frame], None]
ThenFn = Callable[[C, int, dict[str, Any]], None]
StepWrapper = Callable[[C, Frame, Callable[[C, Frame], None]], None]


@dataclass(frozen=True)
class Decision(Generic[C]):
    """How a decision frame is prompted and answered.

    `seats` says who decides now: by default the one seat named in the frame, or several at
    once, each answering on its own (a secret ballot keeps the answers in the frame, out of the
    views, until the last is in).
    `text`, `options` and `choose` are asked per seat; `rule` is the rule id the prompt names.
    A `free` decision also offers the machine's free actions (`Machine.free_action`).
    """

    rule: str
    text: TextFn[C]
    options: OptionsFn[C]
    choose: ChooseFn[C]
    seats: SeatsFn[C] | None = None
    free: bool = False


@dataclass(frozen=True)
class Extension(Generic[C]):
    """Options a module adds to a decision it does not own, and the answers it takes back.

    Every action its `options` offer is a dict whose "do" is one of `does`; answers with those
    go to its `choose`, never to the decision's own.
    """

    does: tuple[str, ...]
    options: OptionsFn[C]
    choose: ChooseFn[C]


def one_seat(
    rule: str,
    text: Callable[[C, Frame], str],
    options: Callable[[C, Frame], list[Option]],
    choose: Callable[[C, Frame, Any], None],
) -> Decision[C]:
    """A decision of the frame's one seat, from handlers that take no seat argument."""
    return Decision(
        rule,
        lambda ctx, frame, seat: text(ctx, frame),
        lambda ctx, frame, seat: options(ctx, frame),
        lambda ctx, frame, seat, action: choose(ctx, frame, action),
    )


class Machine(Generic[C]):
    """One game's tables of frame handlers, and the prompts/choose/advance loop over them."""

    def __init__(self, context: Callable[[State], C]) -> None:
        self.context = context  # the game's step context, made around a state for each call
        self.decisions: dict[str, Decision[C]] = {}
        self.steps: dict[str, StepFn[C]] = {}
        self.continuations: dict[str, ThenFn[C]] = {}
        self.extensions: dict[str, list[Extension[C]]] = {}
        self.free_actions: list[Extension[C]] = []
        self._extras: dict[str, tuple[Extension[C], ...]] = {}
        self._claims: dict[str, dict[str, Extension[C]]] = {}
        self._step = registrar(self.steps)
        # Register a continuation (named in a frame, run once paid for): @machine.then("name").
        self.then = registrar(self.continuations)

    def decision(self, kind: str, decision: Decision[C]) -> None:
        """Register a decision frame kind."""
        if kind in self.decisions or kind in self.steps:
            raise ValueError(f"frame kind {kind!r} is registered twice")
        self.decisions[kind] = decision
        self._extras.clear()
        self._claims.clear()

    def step(self, kind: str) -> Callable[[StepFn[C]], StepFn[C]]:
        """Register an automatic step frame kind: @machine.step("kind")."""
        if kind in self.decisions:
            raise ValueError(f"frame kind {kind!r} is registered twice")
        return self._step(kind)

    def extend(self, kind: str, extension: Extension[C]) -> None:
        """Add options (and the answers to them) to another module's decision."""
        self.extensions.setdefault(kind, []).append(extension)
        self._extras.clear()
        self._claims.clear()

    def free_action(self, extension: Extension[C]) -> None:
        """Add options (and the answers to them) to every free decision."""
        self.free_actions.append(extension)
        self._extras.clear()
        self._claims.clear()

    def wrap_step(self, kind: str, wrapper: StepWrapper[C]) -> None:
        """Hook a registered step: the wrapper runs instead, and calls the step it was given."""
        inner = self.steps[kind]
        self.steps[kind] = lambda ctx, frame: wrapper(ctx, frame, inner)

    def run_then(self, ctx: C, seat: int, after: dict[str, Any]) -> None:
        """Run the continuation named in `after["do"]`."""
        self.continuations[after["do"]](ctx, seat, after)

    def is_decision(self, kind: str) -> bool:
        """Whether frames of this kind prompt seats (rather than run by themselves)."""
        return kind in self.decisions

    def extras(self, kind: str) -> tuple[Extension[C], ...]:
        """Extensions that add to a decision kind's options: its own, then the free actions."""
        found = self._extras.get(kind)
        if found is None:
            own = tuple(self.extensions.get(kind, ()))
            found = own + tuple(self.free_actions) if self.decisions[kind].free else own
            self._extras[kind] = found
        return found

    def claims(self, kind: str) -> dict[str, Extension[C]]:
        """The extension that takes each "do" added to a decision kind; a "do" is taken once."""
        found = self._claims.get(kind)
        if found is None:
            found = {}
            for extra in self.extras(kind):
                for name in extra.does:
                    if name in found:
                        raise ValueError(f"two extensions of {kind!r} take {name!r}")
                    found[name] = extra
            self._claims[kind] = found
        return found

    def prompts(self, ctx: C) -> list[Prompt]:
        """Every seat deciding now, with its options (empty when the game is over)."""
        stack = ctx.s["stack"]
        if not stack or ctx.s["over"]:
            return []
        frame = stack[-1]
        kind = frame["kind"]
        spec = self.decisions[kind]
        extras = self._extras.get(kind)
        if extras is None:
            extras = self.extras(kind)
        found: list[Prompt] = []
        for seat in [frame["seat"]] if spec.seats is None else spec.seats(ctx, frame):
            opts = spec.options(ctx, frame, seat)
            for extra in extras:
                more = extra.options(ctx, frame, seat)
                if more:
                    opts = opts + more
            text = spec.text(ctx, frame, seat)
            found.append(
                {"seat": seat, "kind": kind, "text": text, "rule": spec.rule, "options": opts}
            )
        return found

    def choose(self, ctx: C, seat: int, action: Any) -> None:
        """Answer the top decision for a seat (an action from its options), then advance."""
        self.answer(ctx, seat, action)
        self.advance(ctx)

    def answer(self, ctx: C, seat: int, action: Any) -> None:
        """Answer the top decision for a seat, running nothing after it."""
        frame = ctx.s["stack"][-1]
        kind = frame["kind"]
        claims = self._claims.get(kind)
        if claims is None:
            claims = self.claims(kind)
        do = action.get("do") if claims and type(action) is dict else None
        extra = claims.get(do) if isinstance(do, str) else None
        if extra is None:
            self.decisions[kind].choose(ctx, frame, seat, action)
        else:
            extra.choose(ctx, frame, seat, action)

    def advance(self, ctx: C) -> None:
        """Run automatic steps until a decision is on top, the stack is empty or the game ends."""
        state, decisions, steps = ctx.s, self.decisions, self.steps
        stack = state["stack"]
        for _ in range(STEP_CAP):
            if state["over"] or not stack:
                return
            top = stack[-1]
            kind = top["kind"]
            if kind in decisions:
                return
            step = steps.get(kind)
            if step is None:
                raise InvariantError(f"no decision or step handles the frame kind {kind!r}")
            step(ctx, top)
        raise InvariantError(
            f"the engine ran {STEP_CAP:,} automatic steps without a decision; "
            f"a {stack[-1]['kind']!r} frame was on top"
        )


class FrameEngine(Engine, Generic[C]):
    """An engine whose turn is a stack of frames run by its game's Machine."""

    machine: Machine[C]

    def prompts(self, state: State) -> list[Prompt]:
        return self.machine.prompts(self.machine.context(state))

    def apply_trusted(self, state: State, seat: int, action: Any) -> list[Event]:
        ctx = self.machine.context(state)
        self.machine.choose(ctx, seat, action)
        return ctx.events
