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


def test_a_scenario_chooses_its_modules_from_a_list(db: None) -> None:
    """Issue 17: the admin lists the playable modules; the engine judges the combination."""
    picked = _form(modules=["M03", "M08"])
    assert picked.is_valid(), picked.errors
    assert picked.cleaned_data["config"]["modules"] == ["M03", "M08"]
    too_few = _form(modules=["M05"], min_players=2, max_players=4)
    assert not too_few.is_valid()
    assert "takes 3–4" in str(too_few.errors)
    other_game = _form(game="feudal", modules=["M03"], config=json.dumps({}))
    assert not other_game.is_valid() and "modules" in other_game.errors
    choices = dict(ScenarioForm().fields["modules"].choices)
    assert choices["M09"] == "HRE M09: The Ages of War (3–8 players)"
    assert choices["M02"] == "HRE M02: The Great Domain (5–8 players)"  # built since issue 19


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
    copies = Scenario.objects.filter(game="hre", shipped=False).order_by("slug")
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


def test_a_shipped_scenario_is_read_only_except_enabled(scenarios: None, staff: Client) -> None:
    base = Scenario.objects.get(game="hre", slug="base")
    url = reverse("admin:games_scenario_change", args=[base.pk])
    page = staff.get(url).content.decode()
    assert "Shipped with the game" in page and "Copy as a new variant" in page
    assert 'name="title"' not in page and 'name="config"' not in page and 'name="enabled"' in page
    response = staff.post(url, {"title": "Hacked", "config": "{}", "max_players": 6})
    assert response.status_code == 302
    base.refresh_from_db()
    assert base.title != "Hacked" and base.max_players == 4 and not base.enabled, (
        "only 'enabled' is taken (an unticked box: off)"
    )
    delete = reverse("admin:games_scenario_delete", args=[base.pk])
    assert staff.post(delete, {"post": "yes"}).status_code == 403
    assert Scenario.objects.filter(pk=base.pk).exists()


def test_bootstrap_restores_an_edited_shipped_scenario_and_says_so(scenarios: None) -> None:
    from io import StringIO

    from django.core.management import call_command

    Scenario.objects.filter(game="hre", slug="base").update(
        title="Edited", max_players=6, enabled=False
    )
    out = StringIO()
    call_command("bootstrap", "--no-demo-users", stdout=out)
    said = out.getvalue()
    assert "reset hre/base: title, max_players differed from the engine's" in said
    base = Scenario.objects.get(game="hre", slug="base")
    assert (base.title, base.max_players) == ("Holy Roman Empire — base game", 4)
    assert not base.enabled, "whether the site offers it is the site's own choice"
    again = StringIO()
    call_command("bootstrap", "--no-demo-users", stdout=again)
    assert "reset" not in again.getvalue()


def test_the_scenario_form_takes_an_empty_config_and_offers_only_registered_games(
    staff: Client,
) -> None:
    assert _form(config="{}").is_valid()
    empty = _form(config="")
    assert empty.is_valid() and empty.cleaned_data["config"] == {}
    chess = _form(game="chess")
    assert not chess.is_valid() and "Select a valid choice" in chess.errors["game"][0]
    bad = _form(config=json.dumps({"options": {"title_chaining": "yes"}}))
    assert not bad.is_valid()
    assert "Option title_chaining must be one of false, true." in bad.errors["config"]
    page = staff.get(reverse("admin:games_scenario_add")).content.decode()
    assert '<select name="game"' in page
    for name in ("title_chaining", "natural_one", "turn_limit"):
        assert f"<code>{name}</code>" in page
    assert "(recommended)" in page and "JSON spelling" in page


def test_games_moves_and_seats_are_searchable(
    scenarios: None, alice: Any, bob: Any, staff: Client
) -> None:
    game = make_game(alice, "me", "bot:random")
    other = make_game(bob, "me", "bot:random")
    found = staff.get(reverse("admin:games_game_changelist"), {"q": "alice"}).content.decode()
    assert f"/admin/games/game/{game.pk}/change/" in found
    assert f"/admin/games/game/{other.pk}/change/" not in found
    by_id = staff.get(reverse("admin:games_game_changelist"), {"q": str(other.pk)}).content
    assert f"/admin/games/game/{other.pk}/change/".encode() in by_id
    moves = staff.get(reverse("admin:games_move_changelist"), {"q": str(game.pk)}).content
    assert moves.count(b"/admin/games/move/") >= 1
    seats = staff.get(reverse("admin:games_seat_changelist"), {"q": "bob"}).content.decode()
    assert f"Game {other.pk} (hre)" in seats and f"Game {game.pk} (hre)" not in seats


def test_staff_hand_a_stalled_seat_to_another_player_or_a_bot(
    scenarios: None, alice: Any, bob: Any, carol: Any, staff: Client
) -> None:
    game = make_game(alice, "me", bob)
    seat = game.seats.get(index=1)
    url = reverse("admin:games_seat_change", args=[seat.pk])
    page = staff.get(url).content.decode()
    assert 'name="to_player"' in page and 'name="to_bot"' in page
    both = staff.post(url, {"to_player": "carol", "to_bot": "random"})
    assert both.status_code == 200 and "one of the two" in both.content.decode()
    nobody = staff.post(url, {"to_player": "zed"})
    assert nobody.status_code == 200 and "no player called" in nobody.content.decode()
    assert staff.post(url, {"to_player": "carol"}).status_code == 302
    seat.refresh_from_db()
    assert seat.user == carol and not seat.bot
    assert staff.post(url, {"to_bot": "random"}).status_code == 302
    seat.refresh_from_db()
    assert seat.bot == "random" and seat.user is None
    game.refresh_from_db()
    assert 1 not in game.prompted_seats(), "the bot plays at once when the seat must decide"
    from django.contrib.admin.models import LogEntry

    assert LogEntry.objects.filter(object_id=str(seat.pk)).count() == 2


def test_api_tokens_are_not_added_in_the_admin_but_can_be_revoked(
    alice: Any, staff: Client
) -> None:
    from games.models import ApiToken

    token, _ = ApiToken.issue(alice, "script")
    assert staff.get(reverse("admin:games_apitoken_add")).status_code == 403
    change = reverse("admin:games_apitoken_change", args=[token.pk])
    assert token.digest not in staff.get(change).content.decode()
    assert staff.post(change, {"name": "renamed"}).status_code == 403
    delete = reverse("admin:games_apitoken_delete", args=[token.pk])
    assert staff.post(delete, {"post": "yes"}).status_code == 302
    assert not ApiToken.objects.filter(pk=token.pk).exists()


def test_the_game_page_names_the_scenario_and_its_chosen_options(
    scenarios: None, alice: Any
) -> None:
    game = make_game(alice, "me", "bot:random", options={"natural_one": "natural"})
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert f'Holy Roman Empire — base game <span class="muted">#{game.pk}</span>' in page
    spec = next(s for s in game.engine.option_specs() if s["name"] == "natural_one")
    chosen = next(c["label"] for c in spec["choices"] if c["value"] == "natural")
    shown = page.split("Options: ")[1].split("</p>")[0]
    assert f"{spec['label']}: {chosen}" in shown
    plain = make_game(alice, "me", "bot:random")
    assert "Options: " not in client.get(reverse("game", args=[plain.pk])).content.decode()
