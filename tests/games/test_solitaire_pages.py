"""The one-player scenarios are playable on the site: Charlemagne solitaire and FL solitaire."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Scenario

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]


@pytest.mark.parametrize(
    ("game", "slug"), [("ema", "27-charlemagne-solo"), ("feudal", "solitaire")]
)
def test_a_solitaire_game_starts_and_takes_moves_in_the_browser(
    scenarios: None, alice: Any, game: str, slug: str
) -> None:
    scenario = Scenario.objects.get(game=game, slug=slug)
    created = services.create_game(alice, scenario, 1, [services.SeatSpec("me")])
    created.refresh_from_db()
    assert created.status == Game.Status.ACTIVE and created.prompted_seats() == [0]
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("game", args=[created.pk]))
    assert page.status_code == 200 and 'id="board"' in page.content.decode()
    for _ in range(5):
        created.refresh_from_db()
        if created.status != Game.Status.ACTIVE:
            break
        prompt = created.engine.prompt_for(created.state, 0)
        assert prompt is not None
        response = client.post(
            reverse("act", args=[created.pk]),
            {
                "action": json.dumps(prompt["options"][0]["action"]),
                "expected_seq": created.seq,
                "seat": 0,
            },
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200 and 'class="error"' not in response.content.decode()
    created.refresh_from_db()
    assert created.seq >= 5 or created.status == Game.Status.FINISHED
