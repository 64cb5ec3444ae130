"""Reading what clients send, the same way at every endpoint (a leaf module).

One JSON reader (a size limit, a nesting limit, no NaN, no control characters in any string),
strict integers (ASCII digits only, bounded, so `?seat=²` or a 5,000-digit number is a clear
400 and never a crash), and text fields without NUL or other control characters (PostgreSQL
refuses NUL in text; others have no business in a name or a message). Anything refused raises
BadInput, whose message is for the sender; the middleware (games.middleware) checks every query
string and form field of every request the same way.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_BODY = 64 * 1024
MAX_DEPTH = 32
MAX_INT = 10**9
# C0 controls but tab, newline and carriage return; DEL; C1 controls; lone surrogates (which no
# database can store).
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
INTEGER = re.compile(r"-?[0-9]{1,10}")
STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
BRACKETS = re.compile(r"[\[\]{}]")


class BadInput(ValueError):
    """A request refused before anything happens; the message is for the sender (a 400)."""


def has_control(text: str) -> bool:
    """Whether a text holds a character no field accepts."""
    return CONTROL.search(text) is not None


def text(value: Any, name: str, max_length: int, required: bool = False) -> str:
    """A text field: a string, without control characters, at most `max_length` characters."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise BadInput(f"{name} must be text.")
    if has_control(value):
        raise BadInput(f"{name} contains a control character, which is not allowed.")
    if len(value) > max_length:
        raise BadInput(f"{name} is longer than {max_length} characters.")
    if required and not value.strip():
        raise BadInput(f"{name} is required.")
    return value


def integer(
    value: str | None, name: str, default: int | None = None, low: int = 0, high: int = MAX_INT
) -> int | None:
    """A whole number from a query string or form field (default when absent or empty)."""
    if value is None or value == "":
        return default
    if not INTEGER.fullmatch(value):
        raise BadInput(f"{name} must be a whole number.")
    return _bounded(int(value), name, low, high)


def json_integer(
    body: dict[str, Any], key: str, low: int = 0, high: int = MAX_INT, required: bool = False
) -> int | None:
    """An integer field of a JSON object (None when absent or null, unless required)."""
    value = body.get(key)
    if value is None:
        if required:
            raise BadInput(f'"{key}" is required and must be a whole number.')
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f'"{key}" must be a whole number.')
    return _bounded(value, f'"{key}"', low, high)


def _bounded(value: int, name: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise BadInput(f"{name} must be between {low} and {high}.")
    return value


def parse_json(raw: bytes | str, what: str = "The request body") -> Any:
    """JSON text checked before and after parsing: size, nesting depth, constants, control chars."""
    if len(raw) > MAX_BODY:
        raise BadInput(f"{what} is larger than {MAX_BODY // 1024} KB.")
    try:
        source = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as error:
        raise BadInput(f"{what} is not UTF-8 text.") from error
    if _depth(source) > MAX_DEPTH:
        raise BadInput(f"{what} is nested more than {MAX_DEPTH} levels deep.")
    try:
        value = json.loads(source, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise BadInput(f"{what} is not valid JSON.") from error
    _check_strings(value, what)
    return value


def _depth(source: str) -> int:
    """How deep brackets nest outside strings (a cheap pass before the parser recurses)."""
    depth = deepest = 0
    for bracket in BRACKETS.findall(STRINGS.sub("", source)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _check_strings(value: Any, what: str) -> None:
    """Refuse control characters in every key and string, however deep."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if has_control(item):
                raise BadInput(f"{what} contains a control character, which is not allowed.")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def json_object(raw: bytes | str, what: str = "The request body") -> dict[str, Any]:
    """A JSON object (an empty body is an empty object)."""
    value = parse_json(raw or b"{}", what)
    if not isinstance(value, dict):
        raise BadInput(f"{what} must be a JSON object.")
    return value
