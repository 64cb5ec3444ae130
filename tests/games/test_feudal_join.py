"""Feudal Lords: a player joining an open or invited seat brings their own deck (or a starter)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.boards.feudal import decks
from games.models import Game, Scenario
from rules.feudal.components import load

pytestmark = pytest.mark.django_db


def _open_duel(creator: Any, second: services.SeatSpec | None = None) -> Game:
    scenario = Scenario.objects.get(game="feudal", slug="duel")
    specs = [services.SeatSpec("me"), second or services.SeatSpec("open")]
    return decks.create_game(
        creator, scenario, 2, specs, ["starter:over_city", "starter:under_city"]
    )


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_join_form_offers_my_decks_and_the_starters(
    scenarios: None, alice: Any, bob: Any
) -> None:
    game = _open_duel(alice)
    deck = decks.copy_starter(bob, "tunnel_mixed")
    broken = decks.new_deck(bob, "Half done")
    page = _client(bob).get(reverse("game", args=[game.pk])).content.decode()
    assert 'name="deck"' in page
    assert f'value="deck:{deck.pk}"' in page and "Half done — not legal yet" in page
    assert f'value="deck:{broken.pk}" disabled' in page
    assert "Starter: " in page


def test_joining_with_my_deck_puts_it_in_my_seat_before_the_deal(
    scenarios: None, alice: Any, bob: Any
) -> None:
    game = _open_duel(alice)
    deck = decks.copy_starter(bob, "over_city")
    decks.set_frame(deck, "the_broker", deck.locations, [], name="Broker's own")
    response = _client(bob).post(reverse("join", args=[game.pk]), {"deck": f"deck:{deck.pk}"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.config["decks"] == ["over_city", decks.engine_deck(deck)]
    assert game.state["seats"][1]["leader"] == "the_broker"
    assert game.state["starter"] is False  # a built deck: the starter-deck rule is off on "auto"


def test_joining_an_invited_seat_with_a_starter(scenarios: None, alice: Any, bob: Any) -> None:
    game = _open_duel(alice, services.SeatSpec("invite", username="bob"))
    _client(bob).post(reverse("join", args=[game.pk]), {"deck": "starter:tunnel_mixed"})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.config["decks"] == ["over_city", "tunnel_mixed"]


def test_joining_without_a_choice_keeps_the_creators_starter(
    scenarios: None, alice: Any, bob: Any
) -> None:
    game = _open_duel(alice)
    _client(bob).post(reverse("join", args=[game.pk]), {})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.config["decks"] == ["over_city", "under_city"]


def test_an_illegal_or_foreign_deck_is_refused_and_the_seat_stays_open(
    scenarios: None, alice: Any, bob: Any, carol: Any
) -> None:
    game = _open_duel(alice)
    client = _client(bob)
    for value, message in [
        (f"deck:{decks.new_deck(bob, 'Half done').pk}", "cannot be played yet"),
        (f"deck:{decks.copy_starter(carol, 'under_city').pk}", "not one of yours"),
        ("starter:nonesuch", "no starter deck"),
    ]:
        response = client.post(reverse("join", args=[game.pk]), {"deck": value}, follow=True)
        assert message in response.content.decode()
        game.refresh_from_db()
        assert game.status == Game.Status.OPEN and not game.seats.get(index=1).filled
        assert game.config["decks"] == ["over_city", "under_city"]


def test_the_service_checks_the_deck_with_the_engine(scenarios: None, alice: Any, bob: Any) -> None:
    game = _open_duel(alice)
    broken = dict(decks.engine_deck(decks.copy_starter(bob, "under_city")), stockpile={})
    with pytest.raises(services.MoveRefused):
        services.join(game.pk, bob, deck=broken)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and game.config["decks"][1] == "under_city"
    assert set(load().decks) >= {"over_city", "under_city", "tunnel_mixed"}


def test_other_games_offer_no_deck_on_joining(scenarios: None, alice: Any, bob: Any) -> None:
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(
        alice, scenario, 2, [services.SeatSpec("me"), services.SeatSpec("open")]
    )
    assert decks.join_choices(bob, game) == []
    assert 'name="deck"' not in _client(bob).get(reverse("game", args=[game.pk])).content.decode()
    with pytest.raises(services.MoveRefused):
        services.join(game.pk, bob, deck="over_city")
