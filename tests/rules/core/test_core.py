"""The engine contract of rules.core: generator, canonical JSON, hashing, clone, replay."""

from __future__ import annotations

import json

import pytest

from rules.core import rng
from rules.core.canonical import canonical_bytes, canonical_json, clone, state_hash
from rules.core.errors import RulesVersionError
from rules.core.playout import play_random
from rules.core.registry import all_engines, get_engine
from rules.core.replay import replay


def test_generator_is_reproducible_from_its_seed() -> None:
    a, b = {"rng": rng.seed_state(7)}, {"rng": rng.seed_state(7)}
    assert [rng.die(a) for _ in range(50)] == [rng.die(b) for _ in range(50)]
    assert a == b


def test_generator_state_is_one_json_int() -> None:
    state = {"rng": rng.seed_state(3)}
    rng.below(state, 10)
    assert json.loads(json.dumps(state)) == state
    assert isinstance(state["rng"], int)


def test_dice_are_uniform_enough_and_in_range() -> None:
    state = {"rng": rng.seed_state(11)}
    rolls = [rng.die(state) for _ in range(6000)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert all(800 < rolls.count(face) < 1200 for face in range(1, 7))


def test_shuffle_is_a_permutation_and_depends_on_the_seed() -> None:
    items = list(range(30))
    one, two = list(items), list(items)
    rng.shuffle({"rng": rng.seed_state(1)}, one)
    rng.shuffle({"rng": rng.seed_state(2)}, two)
    assert sorted(one) == items and sorted(two) == items
    assert one != two


def test_canonical_json_ignores_key_order() -> None:
    assert canonical_json({"b": 1, "a": [1, {"y": 2, "x": 3}]}) == '{"a":[1,{"x":3,"y":2}],"b":1}'
    assert state_hash({"a": 1, "b": 2}) == state_hash({"b": 2, "a": 1})


def test_canonical_bytes_write_what_canonical_json_writes() -> None:
    """The fast hash text is the canonical text: over random positions of every shipped
    scenario (each state, the views of the first seat and of a spectator, the prompts), and
    for values orjson refuses (non-string keys, an int past 64 bits, deep nesting)."""
    checked = 0
    for engine in all_engines():
        for scenario in engine.scenarios():
            state = engine.setup(3, scenario.get("config", {}), scenario["min_players"])
            for step in range(60):
                prompts = engine.prompts(state)
                for value in (state, engine.view(state, 0), engine.view(state, None), prompts):
                    assert canonical_bytes(value) == canonical_json(value).encode()
                    checked += 1
                if not prompts:
                    break
                options = prompts[0]["options"]
                choice = options[rng.die({"rng": rng.seed_state(step)}, len(options)) - 1]
                state, _ = engine.apply(state, prompts[0]["seat"], choice["action"])
    assert checked > 1000
    deep: object = 1
    for _ in range(400):
        deep = [deep]
    for odd in ({2: "a", 1: "b"}, {"n": 2**70}, deep, {"é": "\u2028\x01"}):
        assert canonical_bytes(odd) == canonical_json(odd).encode()


def test_clone_is_deep_and_equal() -> None:
    state = {"a": [1, {"b": [2, 3]}], "n": None, "t": True, "big": 2**63 + 5}
    copy = clone(state)
    assert copy == state
    copy["a"][1]["b"].append(4)
    assert state["a"][1]["b"] == [2, 3]


def test_registry_lists_the_hre_engine() -> None:
    assert "hre" in [e.game_id for e in all_engines()]
    assert get_engine("hre").title


def test_unknown_game_names_the_known_ones() -> None:
    try:
        get_engine("chess")
    except KeyError as error:
        assert "hre" in str(error)
    else:
        raise AssertionError("an unknown game must raise KeyError")


def test_replay_reports_the_first_divergent_move() -> None:
    engine = get_engine("hre")
    playout = play_random(engine, 5, {"modules": [], "options": {}}, 2, cap=50_000)
    assert replay(engine, playout.record).ok
    forged = json.loads(json.dumps(playout.record))
    forged["moves"][9]["hash"] = "0" * 64
    report = replay(engine, forged)
    assert not report.ok and report.divergence == 10


def test_replay_refuses_an_illegal_move_in_a_record() -> None:
    engine = get_engine("hre")
    playout = play_random(engine, 6, {"modules": [], "options": {}}, 2)
    forged = json.loads(json.dumps(playout.record))
    forged["moves"][3]["action"] = {"do": "teleport"}
    report = replay(engine, forged)
    assert not report.ok and report.divergence == 4 and "refused" in report.message


def test_replay_refuses_a_record_of_another_rules_version_saying_why() -> None:
    engine = get_engine("hre")
    playout = play_random(engine, 7, {"modules": [], "options": {}}, 2)
    for version in (engine.rules_version - 1, engine.rules_version + 1):
        other = dict(playout.record, rules_version=version)
        report = replay(engine, other)
        assert not report.ok and report.steps == 0
        assert f"rules version {version}" in report.message


def test_upgrade_reads_states_of_the_same_layout_and_refuses_others() -> None:
    for engine in all_engines():
        state = engine.setup(
            1, engine.scenarios()[0]["config"], engine.scenarios()[0]["min_players"]
        )
        assert engine.upgrade(state, engine.rules_version) is state
        with pytest.raises(RulesVersionError, match=f"rules version {engine.rules_version + 1}"):
            engine.upgrade(state, engine.rules_version + 1)
        with pytest.raises(RulesVersionError):
            engine.upgrade(state, 0)
    hre = get_engine("hre")
    assert hre.layout_since == 1 and hre.upgrade({"any": 1}, 1) == {"any": 1}
