"""EMA's state layout of rules version 8: Areas as rows, upgrades from 1-7.

The Areas' rows carry exactly what the dicts of versions 1-7 carried (every view is unchanged): a
state of version 7 is upgraded to the same position and the views show each Area as the dict they
always showed. A record made at version 7 (fixtures/record_v7.json, 27 solo seed 5, recorded at
main 0ee978c) replayed with its own hashes until rules version 11 changed the map; it is refused
now, saying why.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.core import rng
from rules.core.canonical import clone, plain_clone
from rules.core.errors import InvariantError, RulesVersionError
from rules.core.replay import replay
from rules.ema.state import AREA_FIELDS, CLAIMS, CONV, PARTIAL, TIES, area_dict
from tests.rules.ema.helpers import ENGINE, new

RECORD = Path(__file__).parent / "fixtures" / "record_v7.json"


def _played(state: dict, steps: int, seed: int) -> dict:
    """The state after some random actions (in place), stopping at the end."""
    chooser = {"rng": rng.seed_state(seed)}
    for _ in range(steps):
        if ENGINE.is_over(state):
            break
        prompt = rng.choice(chooser, ENGINE.prompts(state))
        ENGINE.apply_trusted(
            state, prompt["seat"], rng.choice(chooser, prompt["options"])["action"]
        )
    return state


def test_a_record_of_an_older_version_is_refused_with_a_reason() -> None:
    """Rules version 11 changed the map (data README), so records of 7-10 no longer replay."""
    record = json.loads(RECORD.read_text())
    assert record["rules_version"] == 7 and len(record["moves"]) == 223
    for version in (6, 7, 10):
        record["rules_version"] = version
        report = replay(ENGINE, record)
        assert not report.ok and report.steps == 0
        assert (
            f"rules version {version}" in report.message
            and f"versions 11 to {ENGINE.rules_version}" in report.message
        )


def test_a_version_7_state_is_upgraded_to_the_same_position_and_plays_on() -> None:
    state = _played(new("28-millenium", 4, seed=3), 600, seed=3)
    old = ENGINE.earlier_layout(state)
    assert all(isinstance(h, dict) and set(h) == set(AREA_FIELDS) for h in old["areas"].values())
    upgraded = ENGINE.upgrade(clone(old), 7)
    assert upgraded == state
    ENGINE.check_invariants(upgraded)
    assert ENGINE.earlier_layout(upgraded) == old
    for seat in (None, 0, 1):
        assert ENGINE.view(upgraded, seat) == ENGINE.view(state, seat)
    twin = clone(state)
    assert _played(upgraded, 400, seed=9) == _played(twin, 400, seed=9)


def test_upgrade_refuses_what_it_cannot_read() -> None:
    state = new("27-charlemagne", 2)
    assert ENGINE.upgrade(state, 8) is state
    newer = ENGINE.rules_version + 1
    with pytest.raises(RulesVersionError, match=f"rules version {newer}"):
        ENGINE.upgrade(state, newer)
    with pytest.raises(RulesVersionError, match="Areas of rules version 7"):
        ENGINE.upgrade(state, 7)  # already rows: not a state of version 7


def test_views_show_each_area_as_the_dict_of_before() -> None:
    state = _played(new("28-millenium", 3, seed=5), 900, seed=5)
    assert any(h[TIES] for h in state["areas"].values())
    assert any(h[CLAIMS] for h in state["areas"].values())
    old = ENGINE.earlier_layout(state)["areas"]
    for seat in (None, 0):
        shown = ENGINE.view(state, seat)["areas"]
        assert shown == old
        assert all(list(h) == list(AREA_FIELDS) for h in shown.values())
        assert all(h["ties"] == sorted(h["ties"]) for h in shown.values())


def test_invariants_check_the_rows() -> None:
    state = new("27-charlemagne", 2)
    bad = clone(state)
    bad["areas"]["saxony"][TIES] = 1 << 2  # a Tie of a seat that does not exist
    with pytest.raises(InvariantError, match="saxony"):
        ENGINE.check_invariants(bad)
    bad = clone(state)
    bad["areas"]["saxony"] = area_dict(bad["areas"]["saxony"])  # the old layout
    with pytest.raises(InvariantError, match="saxony"):
        ENGINE.check_invariants(bad)


def _same(a: object, b: object) -> bool:
    """Equal, with the same types and key order at every level."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _containers(value: object) -> list[object]:
    """Every dict and list inside a value, itself included."""
    if isinstance(value, dict):
        return [value, *(c for v in value.values() for c in _containers(v))]
    if isinstance(value, list):
        return [value, *(c for v in value for c in _containers(v))]
    return []


def test_clone_copies_the_rows_by_hand_as_the_json_round_trip_would() -> None:
    state = _played(new("28-millenium", 6, seed=4), 700, seed=4)
    state["areas"]["saxony"][PARTIAL] = [{"seat": 1, "base": "bavaria", "n": 1}]
    state["areas"]["saxony"][CONV] = {"seat": 2, "n": 1}
    copied = clone(state)
    assert _same(copied, plain_clone(state))
    assert not {id(c) for c in _containers(copied)} & {id(c) for c in _containers(state)}
    old = ENGINE.earlier_layout(state)  # Areas as dicts: the whole state by the round trip
    assert _same(clone(old), plain_clone(old))
