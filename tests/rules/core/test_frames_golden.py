"""The frame machine reproduces every engine's play exactly: same seeds and actions, same hashes.

The fixture was recorded from the engines before the frame machine moved into rules/core (issue
13.1); `golden.py` says what a fingerprint digests. The first seed at each scenario's smallest
seat count runs in the unit suite, every case in the slow one.
"""

from __future__ import annotations

import json

import pytest

from rules.core.registry import get_engine
from tests.rules.core.golden import FIXTURE, cases, fingerprint, key

GOLDEN = json.loads(FIXTURE.read_text())
CASES = cases()
QUICK = [c for c in CASES if c[3] == 1 and not any(o[:2] == c[:2] and o[2] < c[2] for o in CASES)]


def _check(game: str, slug: str, players: int, seed: int) -> None:
    found = fingerprint(get_engine(game), slug, players, seed)
    assert found == GOLDEN[key(game, slug, players, seed)], key(game, slug, players, seed)


def test_the_fixture_covers_every_shipped_scenario_and_seat_count() -> None:
    assert sorted(GOLDEN) == sorted(key(*c) for c in CASES)


@pytest.mark.parametrize("case", QUICK, ids=[key(*c) for c in QUICK])
def test_play_is_unchanged_at_the_smallest_table(case: tuple[str, str, int, int]) -> None:
    _check(*case)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[key(*c) for c in CASES])
def test_play_is_unchanged(case: tuple[str, str, int, int]) -> None:
    _check(*case)
