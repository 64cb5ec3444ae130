"""Standing answers for the off-turn prompts of EMA (ARCHITECTURE §2: standing_options/standing_answer).

Each named answer is a test on an option's action; the first option that passes it is given,
and when none does the player is asked. Every kind also keeps the engine's default "pass"/"first".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.engine import Option, StandingChoice

Test = Callable[[Any], bool]


def _key(name: str, value: Any) -> Test:
    return lambda action: isinstance(action, dict) and action.get(name) == value


# kind -> [(name, label, test)]
CHOICES: dict[str, list[tuple[str, str, Test]]] = {
    "defend": [
        ("never", "Never defend", _key("defend", False)),
        ("always", "Always defend when I can (no card played first)", _key("defend", True)),
    ],
    "def_gold": [("none", "Never spend extra gold on a Defense", _key("gold", 0))],
    "influence": [("none", "Never play Influence cards", _key("cards", 0))],
    "parley": [
        ("against", "Always vote against the caller", _key("vote", "against")),
        ("for", "Always vote for the caller", _key("vote", "for")),
    ],
    "contest": [
        ("always", "Always contest by Parley", _key("contest", True)),
        ("never", "Never contest", _key("contest", False)),
    ],
    "offer_reply": [("decline", "Always decline", _key("accept", False))],
    "agree_reply": [("decline", "Always decline", _key("accept", False))],
    "asylum": [("refuse", "Always refuse asylum", _key("grant", False))],
    "card_window": [("pass", "Never play a Holding card out of turn", _key("play", None))],
}


def options(kind: str) -> list[StandingChoice]:
    """The named answers of a kind, beyond the defaults."""
    return [{"name": name, "label": label} for name, label, _ in CHOICES.get(kind, [])]


def answer(kind: str, name: str, opts: list[Option]) -> Option | None:
    """The option a named answer picks, or None when it is not one of this kind's."""
    for known, _, test in CHOICES.get(kind, []):
        if known == name:
            return next((o for o in opts if test(o["action"])), None)
    return None
