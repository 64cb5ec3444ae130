"""The seat for modules (issue 14.1): the registry, config checks, hooks, and an unchanged base."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.core.canonical import state_hash
from rules.core.engine import Result, State
from rules.core.errors import ScenarioError
from rules.core.playout import play_and_replay
from rules.hre import ENGINE, modules
from rules.hre.modules import CATALOGUE, REGISTRY, Module, config_errors
from rules.hre.state import Ctx
from tests.rules.core.golden import FIXTURE, fingerprint, key

BASE = {"modules": [], "options": {}}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_base_game_plays_exactly_as_before_the_seat(players: int) -> None:
    """Same seed, same play, same hashes and views as the fingerprints recorded before issue 14."""
    golden = json.loads(FIXTURE.read_text())
    assert fingerprint(ENGINE, "base", players, 1) == golden[key("hre", "base", players, 1)]


def test_a_base_game_state_names_no_module() -> None:
    state = ENGINE.setup(5, BASE, 2)
    assert "modules" not in state
    assert modules.in_play(state) == ()
    playout = play_and_replay(ENGINE, 5, BASE, 2)
    assert playout.over and "modules" not in playout.state


def test_the_catalogue_lists_the_fifteen_modules_of_the_book() -> None:
    assert len(CATALOGUE) == 15
    assert CATALOGUE["M01"].min_players == CATALOGUE["M01"].max_players == 1
    assert (CATALOGUE["M15A"].min_players, CATALOGUE["M15A"].max_players) == (2, 4)
    assert set(REGISTRY) <= set(CATALOGUE)


def test_unknown_or_unbuilt_modules_are_refused_with_readable_errors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert config_errors(["M99"]) == [
        f"There is no module 'M99'; modules are {', '.join(CATALOGUE)}."
    ]
    # every module is built now: pretend one is not (a copy: the registry's order is the hooks')
    monkeypatch.setattr(modules, "REGISTRY", {m: v for m, v in REGISTRY.items() if m != "M02"})
    assert config_errors(["M02"]) == ["Module M02 (The Great Domain) is not playable yet."]
    assert config_errors("M01") == ['modules must be a list of module ids such as ["M01"].']
    assert "A module is listed twice." in config_errors(["M05", "M05"])
    errors = ENGINE.validate_scenario({"modules": ["M02"], "options": {}})
    assert errors == ["Module M02 (The Great Domain) is not playable yet."]


def test_needs_exclusions_and_player_counts_are_checked() -> None:
    fake = {
        "M04": Module("M04", requires=("M06",)),
        "M06": Module("M06", excludes=("M07",)),
        "M07": Module("M07", excludes=("M06",)),
        "M05": Module("M05"),
    }
    assert config_errors(["M04"], registry=fake) == ["Module M04 needs module M06 (Commanders)."]
    assert config_errors(["M06", "M07"], registry=fake) == [
        "Modules M06 and M07 cannot be played together."
    ]
    assert config_errors(["M05"], players=2, registry=fake) == [
        "Module M05 (Alliances) is played by 3 to 8 player(s), not 2."
    ]
    assert config_errors(["M05"], players=3, registry=fake) == []


def test_a_module_registers_once_and_only_if_the_book_has_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ValueError, match="not a module of the book"):
        modules.register(Module("M99"))
    with pytest.raises(ValueError, match="registered twice"):
        modules.register(Module("M02"))
    monkeypatch.setattr(modules, "REGISTRY", {m: v for m, v in REGISTRY.items() if m != "M02"})
    with pytest.raises(ValueError, match="unknown module"):
        modules.register(Module("M02", requires=("M42",)))


def test_a_module_declares_its_hooks_by_name_and_its_scenarios_as_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`@hook` fills the field its name says; `declare` gathers a file's hooks, its scenarios
    from module_scenarios.json, and refuses a hook given twice or a name that is no hook."""
    with pytest.raises(ValueError, match="not named after a hook"):

        @modules.hook
        def _sertup(state: State) -> None: ...

    @modules.hook
    def _setup(state: State) -> None: ...

    @modules.hook
    def validate() -> None: ...

    # a copy without M05: deleting and restoring it would move it last, and the registry's
    # order is the order hooks run in (so later tests would play differently)
    monkeypatch.setattr(modules, "REGISTRY", {m: v for m, v in REGISTRY.items() if m != "M05"})
    made = modules.declare(__name__, "M05", excludes=("M01",))
    assert made.setup is _setup and made.validate is validate and made.excludes == ("M01",)
    assert [s["slug"] for s in made.scenarios] == ["alliances"]
    assert made.scenarios == REGISTRY["M05"].scenarios
    assert made.scenarios[0]["min_players"] == 3 and made.view is None

    @modules.hook
    def _view(state: State, seat: int | None, found: dict[str, Any]) -> None: ...

    monkeypatch.setattr(modules, "REGISTRY", {m: v for m, v in REGISTRY.items() if m != "M05"})
    with pytest.raises(ValueError, match="view given twice"):
        modules.declare(__name__, "M05", view=_view)


class _Recorder:
    """A module built only from hooks, to see the base game call each one."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def module(self) -> Module:
        def setup(state: State) -> None:
            self.calls.append("setup")
            state["fake"] = {"entered": 0}

        def enter(ctx: Ctx, card: str) -> None:
            ctx.s["fake"]["entered"] += 1

        def view(state: State, seat: int | None, found: dict[str, Any]) -> None:
            found["fake"] = dict(state["fake"])

        def result(state: State, found: Result) -> Result:
            self.calls.append("result")
            return found

        return Module(
            "M04",
            options={"fake_switch": (False, True)},
            setup=setup,
            offer_enter=enter,
            view=view,
            result=result,
            invariants=lambda state: self.calls.append("invariants"),
        )


def test_hooks_run_for_a_module_in_play_and_its_options_are_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorder = _Recorder()
    monkeypatch.setitem(REGISTRY, "M04", recorder.module())
    config = {"modules": ["M04"], "options": {"fake_switch": True}}
    assert ENGINE.validate_scenario(config) == []
    # Without the module its option is unknown.
    assert ENGINE.validate_scenario({"modules": [], "options": {"fake_switch": True}})
    playout = play_and_replay(ENGINE, 3, config, 2)
    assert playout.over and playout.replay is not None and playout.replay.ok
    assert playout.state["modules"] == ["M04"]
    fresh = ENGINE.setup(3, config, 2)
    assert fresh["modules"] == ["M04"] and recorder.calls[0] == "setup"
    assert ENGINE.view(fresh, None)["fake"] == {"entered": 0}
    ENGINE.check_invariants(fresh)
    ENGINE.result(fresh)
    assert {"setup", "invariants", "result"} <= set(recorder.calls)
    assert playout.state["fake"]["entered"] > 0  # refills during play reached the module


def test_player_counts_are_refused_at_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(REGISTRY, "M05", Module("M05"))
    assert ENGINE.player_range({"modules": ["M05"], "options": {}}) == (3, 4)
    with pytest.raises(ScenarioError, match="takes 3–4 players, not 2"):
        ENGINE.setup(1, {"modules": ["M05"], "options": {}}, 2)
    state = ENGINE.setup(1, {"modules": ["M05"], "options": {}}, 3)
    assert state["modules"] == ["M05"] and state_hash(state)
