"""Scenario options are checked the same way by every engine."""

from __future__ import annotations

from rules.core import get_engine
from rules.core.options import option_errors

ALLOWED = {"natural_one": ("final", "natural"), "chaining": (False, True)}


def test_known_values_pass() -> None:
    assert option_errors({"natural_one": "natural", "chaining": True}, ALLOWED) == []


def test_unknown_keys_and_values_are_named() -> None:
    errors = option_errors({"colour": "red", "natural_one": "sometimes"}, ALLOWED)
    assert any("'colour'" in e and "natural_one" in e for e in errors)
    assert any("natural_one must be one of 'final', 'natural'" in e for e in errors)


def test_a_value_of_another_type_is_refused() -> None:
    assert option_errors({"chaining": 1}, ALLOWED) == [
        "Option chaining must be one of False, True."
    ]


def test_options_must_be_an_object() -> None:
    assert option_errors(["natural"], ALLOWED) == ["options must be a JSON object."]


def test_every_engine_refuses_an_unknown_option() -> None:
    for game, config in (
        ("hre", {"modules": []}),
        ("ema", {"scenario": "28-millenium"}),
        ("feudal", {"mode": "duel"}),
    ):
        errors = get_engine(game).validate_scenario({**config, "options": {"nonsense": True}})
        assert errors and "nonsense" in errors[0], (game, errors)
