"""Replays: the downloaded record of a finished game replays with every hash; stepping through it."""

from __future__ import annotations

import html
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import replays
from rules.hre.state import data
from tests.games.helpers import make_game, play

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def finished(scenarios: None, alice: Any) -> Any:
    game = play(make_game(alice, "me", "bot:random"), alice, random.Random(5))
    assert game.status == "finished"
    return game


def run_replay(path: Path) -> tuple[int, dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode, json.loads(done.stdout.strip().splitlines()[-1])


def test_a_downloaded_record_replays_with_every_hash(
    finished: Any, alice: Any, tmp_path: Path
) -> None:
    client = Client()
    client.force_login(alice)
    response = client.get(reverse("record", args=[finished.pk]))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    assert set(record) == {
        "game",
        "rules_version",
        "seed",
        "config",
        "players",
        "setup_hash",
        "moves",
    }
    assert len(record["moves"]) == finished.seq
    path = tmp_path / "game.json"
    path.write_bytes(response.content)
    code, report = run_replay(path)
    assert code == 0 and report["ok"] and report["moves"] == finished.seq
    record["moves"][len(record["moves"]) // 2]["hash"] = "0" * 64
    path.write_text(json.dumps(record))
    code, report = run_replay(path)
    assert code == 1 and report["divergence"] == len(record["moves"]) // 2 + 1


def test_an_unfinished_game_has_no_record_or_replay(scenarios: None, alice: Any) -> None:
    game = make_game(alice, "me", "bot:random")
    client = Client()
    client.force_login(alice)
    assert client.get(reverse("record", args=[game.pk])).status_code == 404
    assert client.get(reverse("replay", args=[game.pk])).status_code == 404


def test_the_replay_steps_forwards_and_back_with_full_information(finished: Any) -> None:
    client = Client()
    page = client.get(reverse("replay", args=[finished.pk]) + "?seq=0").content.decode()
    assert (
        'id="replay"' in page and f"Move 0 of {finished.seq}" in page and "<h2>Hands</h2>" in page
    )
    step = client.get(
        reverse("replay", args=[finished.pk]) + "?seq=12", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert step.lstrip().startswith('<div id="replay"') and "<html" not in step
    assert "Move 12 of" in step and "?seq=11" in step and "?seq=13" in step
    mover = finished.moves.get(seq=12).seat
    name = finished.seats.get(index=mover).label()
    assert f"Move 12: {html.escape(name)}" in step and "Move 12: seat" not in step  # by name
    # Full information once the game is over: a spectator sees every seat's hand at that point.
    state = replays.state_at(finished, 12)
    for seat in state["seats"]:
        for card in seat["hand"]:
            assert html.escape(data().cards[card]["name"]) in step
    assert any(seat["hand"] for seat in state["seats"])
