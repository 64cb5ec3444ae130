"""What every frame-stack engine shares: the context of a step, options and registrars.

An engine's turn is a stack of frames in its state; rule modules register decisions and
automatic steps by kind (rules.core.machine), and each step of the engine runs with a context
that changes the state and collects the events it produces.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rules.core.engine import Event, Option, State

Frame = dict[str, Any]
F = TypeVar("F", bound=Callable[..., Any])
D = TypeVar("D")
T = TypeVar("T")


class StepContext(Generic[D]):
    """One step of an engine: the state being changed, the game's static data, the events produced.

    Each game subclasses it, naming its static data in `static_data` and adding its own helpers.
    """

    __slots__ = ("s", "events", "d")

    def __init__(self, state: State) -> None:
        self.s = state
        self.events: list[Event] = []
        self.d: D = self.static_data()

    def static_data(self) -> D:
        """The game's validated component data, loaded once."""
        raise NotImplementedError

    def log(self, rule: str, text: str | None, private: dict[int, str] | None = None) -> None:
        """Record an event: public text, private text per seat, and the rule it applies."""
        if text and text.startswith("the "):  # a sentence opening on a name ("the Lordlings …")
            text = "T" + text[1:]
        priv = {str(k): v for k, v in private.items()} if private else {}
        self.events.append({"rule": rule, "public": text, "private": priv})

    def push(self, frame: Frame) -> None:
        """Put a decision or step on top of the stack."""
        self.s["stack"].append(frame)

    def pop(self) -> Frame:
        """Take the top frame off the stack."""
        top: Frame = self.s["stack"].pop()
        return top

    def only_or_ask(self, choices: list[T], take: Callable[[T], None], ask: Frame) -> None:
        """Take the only choice at once; with more, push the decision `ask` that offers them."""
        if len(choices) == 1:
            take(choices[0])
        else:
            self.push(ask)

    def seat(self, seat: int) -> dict[str, Any]:
        """The seat's part of the state."""
        me: dict[str, Any] = self.s["seats"][seat]
        return me


def option(action: Any, label: str) -> Option:
    """An option: the action and its label."""
    return {"action": action, "label": label}


def registrar(table: dict[str, F]) -> Callable[[str], Callable[[F], F]]:
    """A decorator factory that files functions in `table` under a name, each name once."""

    def register(name: str) -> Callable[[F], F]:
        def wrap(fn: F) -> F:
            if name in table:
                raise ValueError(f"{name!r} is registered twice")
            table[name] = fn
            return fn

        return wrap

    return register
