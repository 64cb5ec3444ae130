"""No bot can spin a game: after 500 moves by bots without a player's decision, the game pauses,
tells its players, logs it, and owes no more work until a player lets the bots go on."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from config import settings as default_settings
from games import jobs, services
from games.models import Game, Job, Outbox, Scenario
from games.services import moves
from rules.core.canonical import clone
from rules.core.engine import Engine, Event, Prompt, Result, State
from rules.core.registry import _ENGINES, get_engine

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("commits"),
]  # bots move after the commit


class LoopEngine(Engine):
    """A bot's endless turn, like EMA's greedy bot choosing and cancelling a Conquest for ever."""

    game_id = "loop"
    title = "Loop"

    def scenarios(self) -> list[dict[str, Any]]:
        return []

    def validate_scenario(self, config: dict[str, Any]) -> list[str]:
        return []

    def player_range(self, config: dict[str, Any]) -> tuple[int, int]:
        return (2, 2)

    def setup(self, seed: int, config: dict[str, Any], players: int) -> State:
        return {"players": players, "choosing": False, "over": False}

    def prompts(self, state: State) -> list[Prompt]:
        option = "cancel" if state["choosing"] else "conquest"
        label = option.capitalize()
        return [
            {
                "seat": 1,
                "kind": "turn",
                "text": "Your turn",
                "rule": "LOOP-1",
                "options": [{"action": {"do": option}, "label": label}],
            }
        ]

    def apply_trusted(self, state: State, seat: int, action: Any) -> list[Event]:
        state["choosing"] = not state["choosing"]
        return [{"rule": "LOOP-1", "public": f"Seat 2: {action['do']}.", "private": {}}]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return dict(state)

    def result(self, state: State) -> Result:
        return {"over": False, "seats": []}

    def determinize(self, state: State, seat: int, seed: int) -> State:
        new: State = clone(state)
        return new

    def check_invariants(self, state: State) -> None:
        return None


@pytest.fixture
def loop(db: None) -> Iterator[Scenario]:
    get_engine("hre")
    _ENGINES["loop"] = LoopEngine()
    yield Scenario.objects.create(
        game="loop", slug="base", title="Loop", min_players=2, max_players=2, config={}
    )
    del _ENGINES["loop"]


@pytest.mark.slow
def test_a_game_whose_bots_made_500_moves_in_a_row_pauses_and_says_so(
    loop: Scenario, alice: Any, caplog: Any, settings: Any
) -> None:
    assert moves.BOT_STREAK_LIMIT == 500 and default_settings.CHANCERY_BOT_STREAK_LIMIT == 500
    settings.CHANCERY_BOT_STREAK_LIMIT = 500  # the site's setting (the other tests lift it)
    caplog.set_level(logging.WARNING, logger="games.services.moves")
    specs = [services.SeatSpec("me"), services.SeatSpec("bot", bot="random")]
    game = services.create_game(alice, loop, 2, specs)  # bots play inline until they stop
    game.refresh_from_db()
    assert (game.seq, game.bot_streak, game.paused) == (500, 500, True)
    assert game.status == Game.Status.ACTIVE
    assert not Job.objects.filter(status=Job.Status.PENDING).exists(), "no work is owed"
    assert any(
        "paused" in r.getMessage() and str(game.pk) in r.getMessage() for r in caplog.records
    )
    assert Outbox.objects.filter(user=alice, game=game, kind="paused").exists()
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "The bots are paused." in page and "500 moves in a row" in page
    assert "is thinking" not in page
    assert services.resume(game.pk, alice).paused is False


def test_resuming_lets_the_bots_play_on_and_a_stranger_may_not(
    loop: Scenario, alice: Any, bob: Any, settings: Any, monkeypatch: Any
) -> None:
    settings.CHANCERY_BOT_STREAK_LIMIT = 10
    specs = [services.SeatSpec("me"), services.SeatSpec("bot", bot="random")]
    game = services.create_game(alice, loop, 2, specs)
    game.refresh_from_db()
    assert (game.seq, game.paused) == (10, True)
    with pytest.raises(services.MoveRefused):
        services.resume(game.pk, bob)
    owed: list[int] = []
    monkeypatch.setattr(jobs, "dispatch", lambda job_id, countdown=0: owed.append(job_id))
    client = Client()
    client.force_login(alice)
    client.post(reverse("resume", args=[game.pk]))
    game.refresh_from_db()
    assert not game.paused and game.bot_streak == 0
    assert Job.objects.get(pk=owed[0]).seq == 10, "the bot's turn is owed again"
