"""Each game's page, mid-game, for a player and for a spectator, is the same HTML as the golden copy.

The goldens in tests/games/golden/ were rendered before the boards moved into one package per
game; any change to what a page shows must be deliberate. Only what differs from run to run is
normalised: CSRF tokens and the game's id. After a deliberate change to a page,
rewrite them with `CHANCERY_UPDATE_GOLDEN=1 .venv/bin/pytest tests/games/test_golden_pages.py`
and read the diff before committing it.
"""

from __future__ import annotations

import copy
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games import services
from games.models import Game, Scenario

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("CHANCERY_UPDATE_GOLDEN") == "1"
SEED = 20240601
# game, scenario, seats' deck choices (Feudal Lords only), moves played before the page is drawn
GAMES = [
    ("hre", "base", None, 60),
    ("ema", "27-charlemagne", None, 60),
    ("feudal", "duel", ["under_city", "over_city"], 40),
]
NORMALISE = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*'), r"\1CSRF"),
    (re.compile(r'("X-CSRFToken": ")[^"]*'), r"\1CSRF"),
    (re.compile(r"/games/\d+/"), "/games/ID/"),
    (re.compile(r'(data-game=")\d+'), r"\1ID"),
]


def _normalised(html: str) -> str:
    for pattern, replacement in NORMALISE:
        html = pattern.sub(replacement, html)
    return html


def _users() -> list[Any]:
    from django.contrib.auth import get_user_model

    return [
        get_user_model().objects.create_user(name, f"{name}@example.com", "correct horse battery")
        for name in ("alice", "bob")
    ]


def _game(game: str, slug: str, decks: list[str] | None, users: list[Any]) -> Game:
    """A two-player game between alice and bob, dealt from a fixed seed."""
    scenario = copy.copy(Scenario.objects.get(game=game, slug=slug))
    if decks is not None:  # the game's config gets the decks, the stored scenario does not
        scenario.config = {**scenario.config, "decks": decks}
    specs = [services.SeatSpec("me"), services.SeatSpec("invite", username=users[1].username)]
    created = services.create_game(users[0], scenario, 2, specs)
    services.join(created.pk, users[1])
    row = Game.objects.get(pk=created.pk)
    Game.objects.filter(pk=row.pk).update(
        seed=SEED, state=row.engine.setup(SEED, row.config, row.players)
    )
    return Game.objects.get(pk=row.pk)


def _play(game: Game, users: list[Any], moves: int) -> None:
    """Seeded random legal moves, each by the user holding the first seat that must decide."""
    picker = random.Random(SEED)
    for _ in range(moves):
        game.refresh_from_db()
        seat = game.prompted_seats()[0]
        prompt = game.engine.prompt_for(game.state, seat)
        action = picker.choice(prompt["options"])["action"]
        services.submit(game.pk, users[seat], action, game.seq, seat=seat)


def _check(name: str, html: str) -> None:
    path = GOLDEN / f"{name}.html"
    html = _normalised(html)
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(html, encoding="utf-8")
    assert path.is_file(), f"no golden page {path.name}: run with CHANCERY_UPDATE_GOLDEN=1"
    assert html == path.read_text(encoding="utf-8"), f"{name} differs from {path}"


@pytest.mark.parametrize(("game", "slug", "decks", "moves"), GAMES)
def test_a_game_page_mid_game_is_unchanged_for_a_player_and_a_spectator(
    scenarios: None, game: str, slug: str, decks: list[str] | None, moves: int
) -> None:
    users = _users()
    row = _game(game, slug, decks, users)
    _play(row, users, moves)
    row.refresh_from_db()
    assert row.status == Game.Status.ACTIVE, "the golden position must be mid-game"
    player = Client()
    player.force_login(users[row.prompted_seats()[0]])  # the page of the seat deciding now
    _check(f"{game}-player", player.get(f"/games/{row.pk}/").content.decode())
    _check(f"{game}-spectator", Client().get(f"/games/{row.pk}/").content.decode())


@pytest.mark.parametrize("game", ["hre", "ema", "feudal"])
def test_each_rules_page_is_unchanged(game: str) -> None:
    _check(f"{game}-rules", Client().get(f"/rules/{game}/").content.decode())
