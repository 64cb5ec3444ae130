"""Scenario options: switches named by each engine, checked the same way everywhere."""

from __future__ import annotations

from typing import Any


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
            choices = ", ".join(repr(v) for v in allowed[key])
            errors.append(f"Option {key} must be one of {choices}.")
    return errors
