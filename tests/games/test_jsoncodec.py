"""The JSON columns' codec: orjson where it reads and writes as the standard library does."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from games.jsoncodec import Decoder, Encoder
from rules.core.registry import get_engine


@pytest.mark.parametrize(
    "text",
    [
        '{"rng": 18446744073709551615}',
        '{"rng": 18446744073709551616}',
        '{"n": -9223372036854775808}',
        '{"n": -9223372036854775809}',
        '{"n": 99999999999999999999, "s": "1234567890123456789012"}',
        '[0.12345678901234567890123, 1e300, -0.0, "x"]',
        '{"a": [1, 2, {"b": null, "c": true}], "d": "é\\u00e9"}',
        "[12345678901234567890, 1, -1234567890123456789, 18446744073709551615]",
        '["x18446744073709551616", -12345678901234567890, 0]',
        "[1.18446744073709551616e5, 123456789012345678901234567890]",
    ],
)
def test_every_text_is_read_as_the_standard_library_reads_it(text: str) -> None:
    """Big integers at and past orjson's range, fractions with long digit runs, strings."""
    read = json.loads(text, cls=Decoder)
    wanted = json.loads(text)
    assert read == wanted and repr(read) == repr(wanted)


@pytest.mark.parametrize("seed", range(1, 9))
def test_a_game_state_is_read_by_orjson(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Each state holds its 64-bit generator state (19 or 20 digits); that number alone must not
    send the read to the standard library (the slow path every render paid before)."""
    engine = get_engine("hre")
    config = next(s["config"] for s in engine.scenarios() if s["slug"] == "base")
    state = engine.setup(seed, config, 2)
    text = json.dumps(state, cls=Encoder)
    assert any(len(run) >= 19 for run in re.findall(r"\d+", text))  # the generator state

    def slow(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("fell back to the standard library")

    monkeypatch.setattr(json.JSONDecoder, "decode", slow)
    assert json.loads(text, cls=Decoder) == state


def test_writes_match_the_standard_library() -> None:
    """Compact text either way; non-string keys written as json.dumps writes them."""
    value = {"a": [1, 2**64 - 1], 3: "x", "big": 2**70}
    assert json.loads(json.dumps(value, cls=Encoder)) == json.loads(json.dumps(value))
