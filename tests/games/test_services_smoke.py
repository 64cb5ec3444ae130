"""The move service end to end, on the test database, with bots run inline."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Game, Scenario
from rules.core.canonical import state_hash

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]


def _game(user: Any, *kinds: str) -> Game:
    scenario = Scenario.objects.get(game="hre", slug="base")
    specs = [
        services.SeatSpec(k) if not k.startswith("bot:") else services.SeatSpec("bot", bot=k[4:])
        for k in kinds
    ]
    return services.create_game(user, scenario, len(specs), specs)


def test_an_all_bot_game_plays_to_the_end(scenarios: None, alice: Any) -> None:
    game = _game(alice, "bot:random", "bot:greedy")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result is not None and len(game.result["seats"]) == 2
    last = game.moves.order_by("-seq").first()
    assert last is not None and last.state_hash == state_hash(game.state)


def test_a_stale_move_changes_nothing(scenarios: None, alice: Any) -> None:
    game = _game(alice, "me", "bot:random")
    game.refresh_from_db()
    prompt = game.engine.prompt_for(game.state, 0)
    assert prompt is not None, "bots play inline until the human must decide"
    before = (game.seq, state_hash(game.state))
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(
            game.pk, alice, prompt["options"][0]["action"], game.seq - 1 if game.seq else 99
        )
    assert refused.value.code == "stale"
    game.refresh_from_db()
    assert (game.seq, state_hash(game.state)) == before
