"""Scenario options are checked the same way by every engine."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from rules.core import get_engine
from rules.core.options import option_errors, option_specs

ALLOWED = {"natural_one": ("final", "natural"), "chaining": (False, True)}


def test_known_values_pass() -> None:
    assert option_errors({"natural_one": "natural", "chaining": True}, ALLOWED) == []


def test_unknown_keys_and_values_are_named() -> None:
    errors = option_errors({"colour": "red", "natural_one": "sometimes"}, ALLOWED)
    assert any("'colour'" in e and "natural_one" in e for e in errors)
    assert any('natural_one must be one of "final", "natural"' in e for e in errors)


def test_a_value_of_another_type_is_refused() -> None:
    assert option_errors({"chaining": 1}, ALLOWED) == [
        "Option chaining must be one of false, true."
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


# --- the options as the new-game form shows them ------------------------------------------------


@pytest.mark.parametrize("game", ["hre", "ema", "feudal"])
def test_every_option_of_every_game_is_worded_with_its_recommended_reading_first(game: str) -> None:
    engine = get_engine(game)
    specs = engine.option_specs()
    allowed = dict(importlib.import_module(f"rules.{game}.engine").OPTIONS)
    module_of: dict[str, str] = {}
    if game == "hre":  # a module's options come after the base ones, valid with that module
        from rules.hre.modules import REGISTRY

        for m, module in REGISTRY.items():
            allowed.update(module.options)
            module_of.update(dict.fromkeys(module.options, m))
    assert [s["name"] for s in specs] == list(allowed)
    for spec in specs:
        assert spec["label"] and spec["help"].endswith((".", "?"))
        assert spec["default"] == allowed[spec["name"]][0]
        if spec["choices"]:
            assert [c["value"] for c in spec["choices"]] == list(allowed[spec["name"]])
            assert [c["recommended"] for c in spec["choices"]][0] is True
            assert sum(c["recommended"] for c in spec["choices"]) == 1
            assert all(c["label"] for c in spec["choices"])
        else:
            assert spec["low"] is not None and spec["high"] is not None
            assert spec["low"] <= spec["default"] <= spec["high"]
        # What the form offers, the engine accepts.
        for choice in spec["choices"]:
            config = {"options": {spec["name"]: choice["value"]}}
            if spec["name"] in module_of:
                config["modules"] = [module_of[spec["name"]]]
            errors = [e for e in engine.validate_scenario({**_base_config(game), **config})]
            assert not [e for e in errors if spec["name"] in e], errors


@pytest.mark.parametrize("game", ["hre", "ema", "feudal"])
def test_each_scenario_s_options_are_those_its_config_plays_and_all_are_accepted(game: str) -> None:
    engine = get_engine(game)
    every = {s["name"]: s for s in engine.option_specs()}
    for scenario in engine.scenarios():
        config = scenario["config"]
        specs = engine.option_specs(config)
        assert specs, scenario["slug"]
        for spec in specs:
            assert spec["label"] == every[spec["name"]]["label"]
            assert spec["choices"][0]["recommended"] if spec["choices"] else True
            for choice in spec["choices"]:
                options = {**config.get("options", {}), spec["name"]: choice["value"]}
                assert engine.validate_scenario({**config, "options": options}) == [], (
                    scenario["slug"],
                    spec["name"],
                    choice["value"],
                )


def test_options_follow_the_scenario() -> None:
    hre, ema, feudal = get_engine("hre"), get_engine("ema"), get_engine("feudal")
    names = lambda engine, config: [s["name"] for s in engine.option_specs(config)]  # noqa: E731
    assert "difficulty" in names(hre, {"modules": ["M01"]})
    assert "difficulty" not in names(hre, {})
    assert names(feudal, {"mode": "solitaire"}) == ["solo_level", "solo_wounds"]
    assert "solo_level" not in names(feudal, {"mode": "duel"})
    rounds = next(
        s for s in ema.option_specs({"scenario": "27-charlemagne"}) if s["name"] == "rounds"
    )
    assert [c["value"] for c in rounds["choices"]] == [0, 1, 2, 3, 4, 5, 6, 8]


def _base_config(game: str) -> dict[str, Any]:
    return dict(get_engine(game).scenarios()[-1]["config"])


def test_an_option_without_wording_is_refused() -> None:
    with pytest.raises(ValueError, match="without wording: extra"):
        option_specs({"extra": (True, False)}, {})
    with pytest.raises(ValueError, match="values without wording"):
        option_specs({"x": ("a", "b")}, {"x": ("X", "Help.", {"a": "A"})})
