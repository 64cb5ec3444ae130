"""The new-game page offers EMA's optional rules 23-25 as choices, read from the engine."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.models import Game, Scenario
from rules.core.registry import get_engine
from tests.games.test_views import browser, post

OPTIONAL = ("schism_crusades", "raiders_magnates", "colonization")


def test_the_new_game_page_lists_the_optional_rules_EMA_23_0_GR_Schism(
    scenarios: None, alice: Any
) -> None:
    """EMA-23.0.GR-Schism EMA-24.0.GR EMA-25.0.GR: each optional rule is a field of the EMA
    options, worded from the engine's option text, off unless chosen."""
    page = browser(alice).get(reverse("new_game")).content.decode()
    specs = {s["name"]: s for s in get_engine("ema").option_specs()}
    for name in OPTIONAL:
        assert f'name="opt_ema_{name}"' in page, name
        assert specs[name]["label"] in page and specs[name]["default"] is False


def test_a_game_created_with_the_optional_rules_plays_them_EMA_24_0_GR(
    scenarios: None, alice: Any
) -> None:
    """EMA-24.0.GR EMA-25.0.GR EMA-23.0.GR-Schism: chosen on the form, the optional rules are
    stored in the game's options and the engine plays them."""
    client = browser(alice)
    scenario = Scenario.objects.get(game="ema", slug="28-millenium")
    chosen = {f"opt_ema_{name}": "true" for name in OPTIONAL}
    seats = {"seat0": "me", "seat1": "bot:random"}
    response = post(
        client, reverse("new_game"), {"scenario": scenario.pk, "players": 2, **seats, **chosen}
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert {k: game.config["options"][k] for k in OPTIONAL} == dict.fromkeys(OPTIONAL, True)
    assert game.state["options"]["schism_crusades"] and "schism" in game.state
