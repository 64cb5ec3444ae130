"""`python -m rules arena`: figures, rotation, determinism, and the exit codes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.bots import arena
from rules.core.cli import main
from rules.core.registry import get_engine


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(["arena", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if "--json" in argv and out else out), err


def test_wilson_interval_matches_known_values() -> None:
    lo, hi = arena.wilson(8, 10)
    assert round(lo, 3) == 0.490 and round(hi, 3) == 0.943
    assert arena.wilson(0, 10)[0] == 0.0
    assert arena.percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.0


def test_the_json_has_every_field_and_bots_rotate_through_the_seats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _err = _run(
        capsys,
        "feudal",
        "--scenario",
        "duel",
        "--bots",
        "greedy,random",
        "--games",
        "4",
        "--seed",
        "5",
        "--json",
    )
    assert code == 0
    assert set(out) == {"game", "scenario", "players", "games", "unfinished", "errors", "bots"}
    assert (out["game"], out["scenario"], out["players"], out["games"]) == ("feudal", "duel", 2, 4)
    assert out["unfinished"] == 0 and out["errors"] == 0
    for row in out["bots"].values():
        assert set(row) == {"games", "wins", "win_rate", "ci95", "mean_score", "think_ms"}
        assert row["games"] == 4
        assert set(row["think_ms"]) == {"p50", "p95", "max"}
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    assert sum(row["wins"] for row in out["bots"].values()) == pytest.approx(4)


def test_same_seed_and_iterations_give_the_same_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = (
        "hre",
        "--bots",
        "search,greedy",
        "--games",
        "2",
        "--seed",
        "3",
        "--iterations",
        "5",
        "--json",
    )
    first, second = _run(capsys, *argv)[1], _run(capsys, *argv)[1]
    for out in (first, second):
        for row in out["bots"].values():
            row.pop("think_ms")  # CPU time, the one thing that varies
    assert first == second


def test_a_solitaire_scenario_counts_wins_by_its_own_conditions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(
        capsys, "feudal", "--scenario", "solitaire", "--bots", "greedy", "--games", "2", "--json"
    )
    assert code == 0 and out["players"] == 1 and out["bots"]["greedy"]["games"] == 2


@pytest.mark.parametrize(
    "argv",
    [
        ("nogame", "--bots", "random,random"),
        ("hre", "--bots", "random,nobody"),
        ("hre", "--bots", "random,random,random,random,random"),
        ("hre", "--bots", "random,random", "--players", "3"),
        ("hre", "--scenario", "nowhere", "--bots", "random,random"),
        ("hre", "--bots", "random,random", "--games", "0"),
        ("hre", "--bots", "random,random", "--iterations", "0"),
    ],
)
def test_bad_input_exits_2_with_a_readable_message(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, _out, err = _run(capsys, *argv)
    assert code == 2
    assert err.startswith("error: ") and "Traceback" not in err


def test_a_loop_is_an_error_and_exits_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that cancels every Endeavor it declares (the old greedy loop) is caught."""

    def looping(slug: str, engine: Any, state: Any, seat: int, seed: int, budget: Any) -> Any:
        options = [o["action"] for o in engine.prompt_for(state, seat)["options"]]
        for action in options:
            if action == {"cancel": True}:
                return action
        for action in options:
            if isinstance(action, dict) and action.get("do") == "endeavor":
                return action
        return options[0]

    monkeypatch.setattr(arena.bots, "choose", looping)
    code, out, err = _run(
        capsys,
        "ema",
        "--scenario",
        "27-charlemagne",
        "--bots",
        "random,random",
        "--games",
        "1",
        "--json",
    )
    assert code == 1 and out["errors"] == 1
    assert "loop" in err


def test_the_action_guard_follows_the_scenario_s_length() -> None:
    """The Grand Scenario's 140 Rounds get a guard far past the 20,000 actions its bots take;
    a short scenario keeps the floor; fewer Rounds chosen, a smaller guard."""
    engine = get_engine("ema")
    full = engine.setup(1, {"scenario": "32-grand"}, 4)
    short = engine.setup(1, {"scenario": "32-grand", "options": {"rounds": 10}}, 4)
    assert engine.expected_length(full) >= 140 * 4 * 28  # random play's 28 actions a seat-Round
    assert arena.action_cap(engine, full) >= 10 * 20_000
    assert arena.action_cap(engine, short) == arena.CAP_FLOOR < arena.action_cap(engine, full)
    duel = get_engine("feudal")
    assert arena.action_cap(duel, duel.setup(1, {"mode": "duel"}, 2)) == arena.CAP_FLOOR


def test_a_game_past_its_guard_is_unfinished_and_exits_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guard is the engine's expected length times CAP_FACTOR: a tiny one stops the game."""
    monkeypatch.setattr(arena, "CAP_FLOOR", 0)
    monkeypatch.setattr(get_engine("feudal"), "expected_length", lambda state: 3)
    code, out, err = _run(
        capsys, "feudal", "--scenario", "duel", "--bots", "random,random", "--games", "1", "--json"
    )
    assert code == 1 and out["unfinished"] == 1
    assert f"no end within {3 * arena.CAP_FACTOR} actions" in err
