"""Random playouts of whole games with invariants after every step, and replay determinism."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.core.playout import play_and_replay
from rules.feudal import ENGINE

ROOT = Path(__file__).resolve().parents[3]
# mode → players and games played by make test-slow (350 in all).
GAMES = {"duel": (2, 200), "melee": (3, 50), "teams": (4, 50), "solitaire": (1, 50)}


def _check_game(mode: str, players: int, seed: int) -> None:
    """One random game ends scored, with invariants kept and an exact replay."""
    playout = play_and_replay(ENGINE, 7000 + seed, {"mode": mode, "options": {}}, players)
    where = f"{mode}, seed {seed}"
    assert playout.over, where
    assert playout.replay is not None and playout.replay.ok, (where, playout.replay)
    seats = playout.result["seats"] if playout.result else []
    assert [s["seat"] for s in seats] == list(range(players)), where
    for row in seats:
        assert row["score"] == sum(row["breakdown"].values()), where


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(GAMES))
def test_random_games_end_with_invariants_and_replay(mode: str) -> None:
    """FL-WIN-01, FL-MP-01, FL-TEAM-07: every game ends scored, with invariants kept and an exact replay."""
    players, games = GAMES[mode]
    for seed in range(games):
        _check_game(mode, players, seed)


def test_a_random_game_of_each_mode_ends_with_invariants_and_replays() -> None:
    """FL-WIN-01, FL-MP-01, FL-TEAM-07: the unit suite's sample of the playouts above."""
    for mode, (players, games) in GAMES.items():
        _check_game(mode, players, games)


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"natural_one_control_vp": True},
        {"supply_vp": False},
        {"wounds": "attack"},
        {"aborted_attack": "attempted"},
        {"aborted_attack": "always"},
        {"priority": "holders"},
        {"starter_rules": "on"},
        {"turn_limit": 20},
    ],
)
def test_games_with_each_ambiguity_option_finish(options: dict[str, object]) -> None:
    """The options for A-12, A-15, A-17, A-24, A-21, A-35 and A-43 play through."""
    for seed in range(3):
        playout = play_and_replay(ENGINE, seed, {"mode": "melee", "options": options}, 3)
        assert playout.over and playout.replay is not None and playout.replay.ok, seed


def test_cli_simulate_reports_replay_ok() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "rules",
            "simulate",
            "feudal",
            "--players",
            "2",
            "--games",
            "2",
            "--seed",
            "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows and all(r["over"] and r["replay_ok"] for r in rows)


def test_cli_refuses_a_bad_option_clearly() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "rules",
            "simulate",
            "feudal",
            "--options",
            '{"wounds": "sometimes"}',
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "wounds" in done.stderr
