"""Scenario options: switches named by each engine, checked the same way everywhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypedDict


def option_errors(options: Any, allowed: dict[str, tuple[Any, ...]]) -> list[str]:
    """Readable errors for an options object against the allowed values of each switch.

    The first allowed value is the default (the reference's recommended reading); a value must
    be one of them and of the same JSON type (so 1 is not taken for true).
    """
    if not isinstance(options, dict):
        return ["options must be a JSON object."]
    errors = []
    for key, value in options.items():
        if key not in allowed:
            errors.append(f"Unknown option {key!r}; options are {', '.join(sorted(allowed))}.")
        elif value not in allowed[key] or type(value) is not type(allowed[key][0]):
            # JSON spelling (true, "final"), as the value is written in a config or an API call.
            choices = ", ".join(json.dumps(v) for v in allowed[key])
            errors.append(f"Option {key} must be one of {choices}.")
    return errors


class Choice(TypedDict):
    """One allowed value of an option and how a player reads it."""

    value: Any
    label: str
    recommended: bool


class OptionSpec(TypedDict):
    """An option as a form shows it: a label, a sentence of help, and its choices or its range."""

    name: str
    label: str
    help: str
    default: Any
    choices: list[Choice]  # empty for a whole number in a range
    low: int | None
    high: int | None


# How a game words its options: name -> (label, help, {value: label}) for a choice among readings,
# or name -> (label, help, (low, high)) for a whole number in a range.
OptionText = dict[str, tuple[str, str, dict[Any, str] | tuple[int, int]]]


def option_text(path: Path) -> OptionText:
    """A game's option wording from its data file (`data/option_text.json`), checked as read.

    Each option has a label, a sentence of help, and either its choices as [value, label] pairs
    or the range [low, high] of a whole number.
    """
    found: OptionText = {}
    for name, entry in json.loads(path.read_text(encoding="utf-8")).items():
        if set(entry) not in ({"label", "help", "choices"}, {"label", "help", "range"}):
            raise ValueError(f"{path.name}: option {name} needs a label, help and choices or range")
        if "range" in entry:
            low, high = entry["range"]
            found[name] = (entry["label"], entry["help"], (int(low), int(high)))
        else:
            found[name] = (
                entry["label"],
                entry["help"],
                {v: shown for v, shown in entry["choices"]},
            )
    return found


def option_specs(allowed: dict[str, tuple[Any, ...]], text: OptionText) -> list[OptionSpec]:
    """Every option of a game with its wording, in the engine's order; the default is first.

    Raises ValueError when an option or an allowed value has no wording, so a new switch cannot
    reach the new-game form as a bare name.
    """
    missing = set(allowed) - set(text)
    if missing:
        raise ValueError(f"options without wording: {', '.join(sorted(missing))}")
    specs: list[OptionSpec] = []
    for name, values in allowed.items():
        label, help_text, shown = text[name]
        if isinstance(shown, tuple):
            low, high = shown
            specs.append(
                OptionSpec(
                    name=name, label=label, help=help_text, default=values[0], choices=[],
                    low=low, high=high,
                )
            )  # fmt: skip
            continue
        unworded = [v for v in values if v not in shown]
        if unworded:
            raise ValueError(f"option {name}: values without wording: {unworded!r}")
        choices = [
            Choice(value=v, label=shown[v], recommended=i == 0) for i, v in enumerate(values)
        ]
        specs.append(
            OptionSpec(
                name=name, label=label, help=help_text, default=values[0], choices=choices,
                low=None, high=None,
            )
        )  # fmt: skip
    return specs
