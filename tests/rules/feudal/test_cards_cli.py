"""`python -m rules cards feudal [--json]`: the card database as players read it."""

from __future__ import annotations

import json

import pytest

from rules.core.cli import main
from rules.feudal.components import load


def test_the_json_listing_has_one_object_per_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "feudal", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(r["id"] for r in rows) == sorted(load().cards)
    assert all({"id", "name", "type", "class", "numbers", "text"} <= set(r) for r in rows)
    bane = next(r for r in rows if r["id"] == "bane")
    assert bane["numbers"] == {
        "life": 3,
        "control": 3,
        "skills": 1,
        "weapons": 1,
        "df": [8, 11],
        "cc": [8, 10],
        "block": [10],
    }
    assert bane["class"] == "MC" and bane["generic"] is False
    scrap = next(r for r in rows if r["id"] == "scrap_holdings")
    assert "Forest" in scrap["text"]  # a Controlled Locations card lists its three locations


def test_the_text_listing_has_one_line_per_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "feudal"]) == 0
    out = capsys.readouterr().out
    assert "bane: Bane [character · MC · life 3, control 3" in out
    assert len(out.splitlines()) == len(load().cards)
