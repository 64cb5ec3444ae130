"""Feudal Lords card pages, hover cards, and card names in the log linking to them."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import glossary
from rules.feudal.components import load
from tests.games.helpers import human_move
from tests.games.test_feudal_site import vs_bot

pytestmark = pytest.mark.django_db


def test_every_card_has_a_page_with_its_numbers_and_text() -> None:
    client = Client()
    for cid, spec in load().cards.items():
        page = client.get(reverse("feudal_card", args=[cid]))
        assert page.status_code == 200, cid
        assert spec["name"].replace("'", "&#x27;") in page.content.decode()
    bane = client.get(reverse("feudal_card", args=["bane"])).content.decode()
    assert "Life" in bane and "8/11" in bane and "sellsword" in bane
    assert "Outer-City Starter" in bane  # the starter decks that use it
    assert client.get(reverse("feudal_card", args=["no_such_card"])).status_code == 404


def test_the_card_index_lists_and_filters_the_whole_pool() -> None:
    client = Client()
    everything = client.get(reverse("feudal_cards")).content.decode()
    assert everything.count('class="fl-card ') == len(load().cards)
    leaders = client.get(reverse("feudal_cards"), {"type": "leader"}).content.decode()
    names = [s["name"] for s in load().cards.values() if s["type"] == "leader"]
    assert leaders.count('class="fl-card ') == len(names) and all(n in leaders for n in names)
    cheap = client.get(reverse("feudal_cards"), {"type": "character", "cost": "1"}).content
    assert b"Drum Boy" in cheap and b"Brass" not in cheap


def test_card_names_in_the_log_link_to_their_pages_with_a_hover_card() -> None:
    line = str(glossary.gloss_log("feudal", "Seat 1 sends Bane for 2 Ld (A-26)."))
    assert '<a class="card-link" href="/feudal/cards/bane/"' in line
    assert 'class="hovercard"' in line and "Life 3" in line
    assert "<abbr" in line and "A-26" not in line  # still glossed, internal ids still dropped
    longest = str(glossary.gloss_log("feudal", "Heavy Blade <b> & Light Blade"))
    assert "/feudal/cards/heavy_blade/" in longest and "/feudal/cards/light_blade/" in longest
    assert "&lt;b&gt;" in longest and "&amp;" in longest  # the rest is escaped
    assert "card-link" not in str(glossary.gloss_log("hre", "Bane"))


def test_the_game_page_log_and_table_link_card_names(scenarios: None, alice: Any) -> None:
    game = vs_bot(alice, "starter:over_city")  # a deck with an Artifact, played into the log
    picker = random.Random(3)
    for _ in range(6):  # the Artifacts and opening discards, named in the log
        game.refresh_from_db()
        if 0 not in game.prompted_seats():
            break
        human_move(game, alice, picker)
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'class="card-link"' in page and 'class="hovercard"' in page
    log = page[page.index('id="log"') :]
    assert 'class="card-link"' in log[: log.index("</section>")]  # e.g. the Artifacts played
