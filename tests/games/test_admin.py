"""The admin: scenarios checked by the engine and copyable; a running game's secrets stay hidden."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import services
from games.admin import ScenarioForm
from games.models import Game, Scenario
from rules.core.errors import ScenarioError
from tests.games.helpers import TOKEN_IDS, make_game, play

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]


@pytest.fixture
def staff(db: None) -> Client:
    admin = get_user_model().objects.create_superuser(
        "root", "root@example.com", "correct horse battery"
    )
    client = Client()
    client.force_login(admin)
    return client


def _form(**changes: Any) -> ScenarioForm:
    data = {
        "game": "hre",
        "slug": "variant",
        "title": "A variant",
        "description": "",
        "min_players": 2,
        "max_players": 4,
        "config": json.dumps({"modules": [], "options": {}}),
        "enabled": "on",
    }
    data.update(changes)
    return ScenarioForm(data=data)


def test_a_scenario_config_is_validated_by_the_engine(db: None) -> None:
    assert _form().is_valid()
    bad_option = _form(config=json.dumps({"modules": [], "options": {"natural_one": "sometimes"}}))
    assert not bad_option.is_valid()
    assert any("natural_one" in e for e in bad_option.errors["config"])
    unknown = _form(config=json.dumps({"modules": [], "options": {"house_rule": True}}))
    assert not unknown.is_valid() and "Unknown option" in unknown.errors["config"][0]
    module = _form(config=json.dumps({"modules": ["M99"], "options": {}}))
    assert not module.is_valid() and "no module" in module.errors["config"][0]
    assert not _form(game="chess").is_valid()
    assert not _form(min_players=4, max_players=2).is_valid()


def test_the_admin_refuses_a_bad_scenario_with_the_engines_message(staff: Client) -> None:
    response = staff.post(
        reverse("admin:games_scenario_add"),
        {
            "game": "hre",
            "slug": "odd",
            "title": "Odd",
            "description": "",
            "min_players": 2,
            "max_players": 4,
            "config": json.dumps({"modules": [], "options": {"title_chaining": "yes"}}),
            "enabled": "on",
        },
    )
    assert response.status_code == 200
    assert "Option title_chaining must be one of" in response.content.decode()
    assert not Scenario.objects.filter(slug="odd").exists()


def test_copy_makes_an_editable_variant(scenarios: None, staff: Client) -> None:
    base = Scenario.objects.get(game="hre", slug="base")
    for _ in range(2):
        response = staff.post(
            reverse("admin:games_scenario_changelist"),
            {"action": "copy", "_selected_action": [base.pk]},
        )
        assert response.status_code == 302
    copies = Scenario.objects.filter(game="hre").exclude(pk=base.pk).order_by("slug")
    assert [c.slug for c in copies] == ["base-copy", "base-copy-2"]
    for copy in copies:
        assert (
            not copy.shipped and copy.title == f"{base.title} (copy)" and copy.config == base.config
        )
    base.refresh_from_db()
    assert base.shipped and base.slug == "base"


def _secrets(game: Game) -> list[str]:
    """Strings only the full state reveals: every hand card, the deck, box tokens and the seed."""
    state = game.state
    cards = [c for seat in state["seats"] for c in seat["hand"]] + state["deck"]
    tokens = [here["barb"]["token"] for here in state["prov"].values() if here["barb"]] + state[
        "box_tokens"
    ]
    return [rf"\b{c}\b" for c in cards + tokens] + [rf"\b{game.seed}\b"]


def test_a_running_games_state_seed_and_moves_are_not_shown(
    scenarios: None, alice: Any, staff: Client
) -> None:
    game = make_game(alice, "me", "bot:random")
    game = play(game, alice, random.Random(3), moves=6)
    assert game.status == Game.Status.ACTIVE
    page = staff.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "hidden while the game is in progress" in page
    assert [s for s in _secrets(game) if re.search(s, page)] == []
    move = game.moves.order_by("seq").last()
    page = staff.get(reverse("admin:games_move_change", args=[move.pk])).content.decode()
    assert "hidden while the game is in progress" in page
    assert not any(re.search(rf"\b{t}\b", page) for t in TOKEN_IDS)
    listing = staff.get(reverse("admin:games_game_changelist")).content.decode()
    assert not any(re.search(s, listing) for s in _secrets(game))


def test_a_finished_games_state_is_shown(scenarios: None, alice: Any, staff: Client) -> None:
    game = make_game(alice, "bot:random", "bot:random")
    assert game.status == Game.Status.FINISHED
    page = staff.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "hidden while the game is in progress" not in page
    assert "&#x27;deck&#x27;" in page and "&#x27;seats&#x27;" in page
    assert [s for s in _secrets(game)[:-1] if re.search(s, page)], "the final hands are shown"
    move = game.moves.order_by("seq").first()
    page = staff.get(reverse("admin:games_move_change", args=[move.pk])).content.decode()
    assert "hidden while the game is in progress" not in page


def test_games_and_moves_are_read_only(scenarios: None, alice: Any, staff: Client) -> None:
    game = make_game(alice, "me", "bot:random")
    assert staff.get(reverse("admin:games_game_add")).status_code == 403
    response = staff.post(
        reverse("admin:games_game_change", args=[game.pk]), {"status": "finished"}
    )
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


@pytest.mark.parametrize(
    ("game", "config", "low", "high", "field"),
    [
        ("hre", {"modules": [], "options": {}}, 0, 4, "min_players"),
        ("hre", {"modules": [], "options": {}}, 1, 4, "min_players"),
        ("hre", {"modules": [], "options": {}}, 2, 6, "max_players"),
        ("ema", {"scenario": "27-charlemagne", "options": {}}, 2, 6, "max_players"),
        ("feudal", {"mode": "melee", "options": {}}, 2, 2, "min_players"),
        ("feudal", {"mode": "duel", "options": {}}, 1, 2, "min_players"),
    ],
)
def test_the_admin_refuses_player_counts_the_engine_cannot_deal(
    db: None, game: str, config: dict[str, Any], low: int, high: int, field: str
) -> None:
    form = _form(game=game, config=json.dumps(config), min_players=low, max_players=high)
    assert not form.is_valid()
    assert "with this configuration takes" in form.errors[field][0]


def test_the_admin_page_shows_why_a_count_is_refused(staff: Client) -> None:
    response = staff.post(
        reverse("admin:games_scenario_add"),
        {
            "game": "hre",
            "slug": "six",
            "title": "Six",
            "description": "",
            "min_players": 2,
            "max_players": 6,
            "config": json.dumps({"modules": [], "options": {}}),
            "enabled": "on",
        },
    )
    assert response.status_code == 200
    assert "takes 2–4 players, not 6" in response.content.decode()
    assert not Scenario.objects.filter(slug="six").exists()


def test_a_scenario_saved_before_the_check_cannot_make_a_game_that_never_starts(
    scenarios: None, alice: Any, bob: Any
) -> None:
    """A row with 2–6 seats (as the old admin allowed) offers and creates only 2–4."""
    six = Scenario.objects.create(
        game="hre", slug="six", title="Six", min_players=2, max_players=6, config={"options": {}}
    )
    assert six.player_range() == (2, 4) and six.players_text() == "2–4 players"
    with pytest.raises(ScenarioError, match="Six takes 2–4 players"):
        services.create_game(
            alice, six, 6, [services.SeatSpec("me")] + [services.SeatSpec("open")] * 5
        )
    broken = Scenario.objects.create(
        game="hre", slug="broken", title="Broken", min_players=5, max_players=6, config={}
    )
    assert broken.player_range() is None
    with pytest.raises(ScenarioError, match="cannot be played"):
        services.create_game(
            alice, broken, 5, [services.SeatSpec("me")] + [services.SeatSpec("open")] * 4
        )
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("new_game")).content.decode()
    assert "Six (2–4 players)" in page and "Broken" not in page
    assert Game.objects.count() == 0
