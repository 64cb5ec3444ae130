"""Which expansion modules a game plays, on the site (issue 17): the rules page's paragraph of
each module, the new-game form and the game page naming them, and the admin's list of modules."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import boards, rulebook, scenarios, services
from games.admin import ScenarioForm
from games.models import Scenario
from rules.hre import ENGINE
from tests.games.test_admin import _form as admin_form
from tests.games.test_views import browser

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]


def _form(modules: list[str], config: dict[str, Any] | None = None, **changes: Any) -> ScenarioForm:
    """The admin's scenario form with these modules ticked and this config in the JSON box."""
    box = json.dumps({"options": {}} if config is None else config)
    return admin_form(modules=modules, config=box, **changes)


def test_every_built_module_has_a_paragraph_opening_its_rules_section() -> None:
    sections = {s["area"]: s for s in rulebook.sections("hre")}
    for spec in ENGINE.module_specs():
        section = sections[spec["id"]]
        assert section["intro"] is not None and section["intro"]["id"] == spec["rule"]
        assert len(section["intro"]["text"]) > 80  # a paragraph, not a line
        assert section["title"] == boards.BOARDS["hre"].headings[spec["id"]]


def test_the_rules_page_shows_a_modules_paragraph_before_its_rules(client: Client) -> None:
    html = client.get("/rules/hre/").content.decode()
    at = html.index('id="HRE-M04"')
    assert html.index("<h2>Module 4: Alchemists</h2>") < at < html.index('id="HRE-M04-PLAY-01"')


def test_the_admin_chooses_modules_from_a_list_that_the_engine_checks() -> None:
    form = _form(["M04", "M07"])
    assert form.is_valid(), form.errors
    assert form.cleaned_data["config"] == {"options": {}, "modules": ["M04", "M07"]}
    solo_with_tribute = _form(["M01", "M11"], min_players=1, max_players=1)
    assert not solo_with_tribute.is_valid()
    assert "Tribute" in str(solo_with_tribute.errors)
    assert not _form(["M99"]).is_valid()  # not one of the list's choices
    other_game = _form(["M04"], game="ema", config={}, min_players=1, max_players=2)
    assert not other_game.is_valid() and "no such modules" in str(other_game.errors["modules"])
    labels = dict(ScenarioForm().fields["modules"].choices)
    assert labels["M12A"] == "HRE M12A: The Pope (1–8 players)"
    assert list(labels) == [m["id"] for m in ENGINE.module_specs()]


def test_the_admin_shows_a_variants_modules_in_the_list_and_the_rest_in_the_json() -> None:
    row = Scenario.objects.create(
        game="hre",
        slug="pair",
        title="Pair",
        min_players=2,
        max_players=4,
        config={"modules": ["M04", "M11"], "options": {}},
    )
    form = ScenarioForm(instance=row)
    assert form.initial["modules"] == ["M04", "M11"]
    assert form.initial["config"] == {"options": {}}
    admin = get_user_model().objects.create_superuser("root", "r@example.com", "horse battery")
    client = Client()
    client.force_login(admin)
    page = client.get(reverse("admin:games_scenario_change", args=[row.pk])).content.decode()
    assert 'name="modules"' in page and "HRE M11: Tribute (2–8 players)" in page


def test_the_new_game_form_and_the_game_page_name_the_modules_with_their_summary(
    scenarios: None, alice: Any
) -> None:
    client = browser(alice)
    form = client.get(reverse("new_game")).content.decode()
    summary = rulebook.summaries("hre")["HRE-M11"]
    assert "scenario-modules" in form and summary in form
    scenario = Scenario.objects.get(game="hre", slug="tribute")
    game = services.create_game(
        alice, scenario, 2, [services.SeatSpec("me"), services.SeatSpec("bot", bot="random")]
    )
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Modules: Module 11: Tribute" in page and summary in page
    assert 'href="/rules/hre/#HRE-M11"' in page
    base = Scenario.objects.get(game="hre", slug="base")
    plain = services.create_game(
        alice, base, 2, [services.SeatSpec("me"), services.SeatSpec("bot", bot="random")]
    )
    assert "game-modules" not in client.get(reverse("game", args=[plain.pk])).content.decode()


def test_a_game_without_modules_names_none() -> None:
    from rules.core import get_engine

    assert scenarios.chosen_modules("ema", {"options": {}}, get_engine("ema")) == []
    assert get_engine("feudal").module_specs() == []
