"""Feudal Lords on the site: decks (model, checks, starters, builder), game creation with decks,
the table page for players and spectators, and hidden information on that page."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import decks, pages, services
from games.boards import feudal as feudal_board
from games.models import Deck, Game, Scenario
from rules.feudal import ENGINE
from rules.feudal.components import load
from tests.games.helpers import human_move

pytestmark = pytest.mark.django_db

SINCE = re.compile(r'<small class="since">.*?</small>', re.S)
CSRF = re.compile(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]*')


def client_for(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def scenario(slug: str = "duel") -> Scenario:
    return Scenario.objects.get(game="feudal", slug=slug)


def vs_bot(user: Any, deck_value: str = "", bot: str = "random") -> Game:
    specs = [services.SeatSpec("me"), services.SeatSpec("bot", bot=bot)]
    game = decks.create_game(user, scenario(), 2, specs, [deck_value, ""])
    game.refresh_from_db()
    return game


# --- decks ----------------------------------------------------------------------------------

def test_a_new_deck_says_what_is_missing(alice: Any) -> None:
    deck = decks.new_deck(alice, "Mine")
    assert deck.leader and deck.locations  # chosen for the newcomer, so only the Stockpile is left
    assert decks.errors(deck) == ["The stockpile has 0 cards; it needs at least 55."]
    assert not decks.status(deck)["ok"]


def test_deck_rules_too_many_copies_and_cards_that_never_go_in_the_stockpile(alice: Any) -> None:
    deck = decks.copy_starter(alice, "under_city")
    assert decks.errors(deck) == []
    decks.set_count(deck, "banger", 5)
    decks.set_count(deck, "magistrate", 1)  # a Leader
    decks.set_count(deck, "scrap_holdings", 1)  # a Controlled Locations card
    decks.set_count(deck, "bone_totem", 1)  # an Artifact
    problems = decks.errors(deck)
    assert "Banger: 5 copies, but at most 4 are allowed." in problems
    assert "The Magistrate is a leader card: it never goes in the stockpile." in problems
    assert "Scrap Holdings is a locations card: it never goes in the stockpile." in problems
    assert "Bone Totem is a artifact card: it never goes in the stockpile." in problems
    for cid in ("magistrate", "scrap_holdings", "bone_totem"):
        decks.set_count(deck, cid, 0)
    decks.set_count(deck, "banger", 4)
    assert decks.errors(deck) == []
    with pytest.raises(ValueError):
        decks.set_count(deck, "no_such_card", 1)


def test_deck_frame_and_artifacts(alice: Any) -> None:
    deck = decks.copy_starter(alice, "over_city")
    decks.set_frame(deck, "the_broker", "undertunnels", ["iron_idol", "lucky_coin", "bone_totem", "relic_engine"])
    assert decks.errors(deck) == ["At most 3 Artifacts: one per location."]
    with pytest.raises(ValueError):
        decks.set_frame(deck, "grinner", "undertunnels", [])  # not a Leader
    assert decks.engine_deck(deck)["leader"] == "the_broker"


def test_copying_a_starter_gives_the_same_cards_and_a_fresh_name(alice: Any, bob: Any) -> None:
    first = decks.copy_starter(alice, "outer_city")
    second = decks.copy_starter(alice, "outer_city")
    spec = load().decks["outer_city"]
    assert decks.engine_deck(first)["stockpile"] == spec["stockpile"]
    assert (first.name, second.name) == (spec["name"], f"{spec['name']} (2)")
    assert decks.copy_starter(bob, "outer_city").name == spec["name"]
    with pytest.raises(ValueError):
        decks.copy_starter(alice, "nope")


# --- deck pages -----------------------------------------------------------------------------

def test_a_newcomer_copies_a_starter_with_one_click(alice: Any) -> None:
    client = client_for(alice)
    page = client.get(reverse("deck_list")).content.decode()
    assert "Copy to my decks" in page and "You have no decks yet" in page
    response = client.post(reverse("deck_copy"), {"starter": "under_city"})
    deck = Deck.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == reverse("deck_builder", args=[deck.pk])
    builder = client.get(response["Location"]).content.decode()
    assert "This deck is legal" in builder and 'id="catalogue"' in builder
    assert "legal" in client.get(reverse("deck_list")).content.decode()


def test_the_builder_checks_live_after_each_change(alice: Any) -> None:
    deck = decks.copy_starter(alice, "over_city")  # exactly 55 cards
    client = client_for(alice)
    entry = deck.entries.order_by("card").first()
    assert entry is not None
    response = client.post(reverse("deck_count", args=[deck.pk]), {"card": entry.card, "count": entry.count - 1},
                           HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and 'id="deck-state"' in html
    assert "The stockpile has 54 cards; it needs at least 55." in html
    assert f'id="count-{entry.card}"' in html and 'hx-swap-oob="true"' in html  # the catalogue's count too
    html = client.post(reverse("deck_count", args=[deck.pk]), {"card": entry.card, "count": entry.count},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "This deck is legal" in html
    frame = client.post(reverse("deck_frame", args=[deck.pk]),
                        {"name": "Renamed", "leader": "grinner", "locations": deck.locations}, HTTP_HX_REQUEST="true")
    assert frame.status_code == 400
    # Without htmx the same forms work and come back to the builder.
    plain = client.post(reverse("deck_count", args=[deck.pk]), {"card": "banger", "count": 1})
    assert plain.status_code == 302


def test_the_catalogue_filters_by_type_and_class(alice: Any) -> None:
    deck = decks.new_deck(alice, "x")
    client = client_for(alice)
    weapons = client.get(reverse("deck_cards", args=[deck.pk]), {"type": "weapon"}).content.decode()
    names = {load().cards[c]["name"] for c, s in load().cards.items() if s["type"] == "weapon"}
    assert all(n in weapons for n in names)
    assert "Grinner" not in weapons
    sg = decks.catalogue("character", "SG")
    assert sg and all(c["class"] == "SG" for c in sg)
    under = decks.catalogue("", "under")
    assert under and all(c["group"] == "under" for c in under)
    assert all(c["class"] is None for c in decks.catalogue("", "none"))


def test_decks_are_private(alice: Any, bob: Any) -> None:
    deck = decks.copy_starter(alice, "under_city")
    client = client_for(bob)
    assert client.get(reverse("deck_builder", args=[deck.pk])).status_code == 404
    assert client.post(reverse("deck_count", args=[deck.pk]), {"card": "banger", "count": 4}).status_code == 404
    assert client_for(None).get(reverse("deck_list")).status_code == 302  # log in first


# --- games with decks -----------------------------------------------------------------------

def test_creating_a_game_against_a_bot_with_my_deck(scenarios: None, alice: Any) -> None:
    deck = decks.copy_starter(alice, "over_city")
    decks.set_frame(deck, "the_broker", deck.locations, [], name="Broker's own")
    client = client_for(alice)
    response = client.post(reverse("new_game"), {
        "scenario": scenario().pk, "players": 2, "seat0": "me", "seat1": "bot:greedy",
        "deck0": f"deck:{deck.pk}", "deck1": f"deck:{deck.pk}", "starter_rules": "on", "options": "{}"})
    assert response.status_code == 302, response.content.decode()
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE
    mine, bot = game.config["decks"]
    assert mine == decks.engine_deck(deck) and mine["leader"] == "the_broker"
    assert isinstance(bot, str) and bot in load().decks and bot != "over_city"  # bots play starters
    assert game.config["options"]["starter_rules"] == "on"
    assert game.state["seats"][0]["leader"] == "the_broker"


def test_an_illegal_or_foreign_deck_cannot_be_taken_to_a_game(scenarios: None, alice: Any, bob: Any) -> None:
    broken = decks.new_deck(alice, "Half done")
    client = client_for(alice)
    form = {"scenario": scenario().pk, "players": 2, "seat0": "me", "seat1": "bot:random", "options": "{}"}
    response = client.post(reverse("new_game"), {**form, "deck0": f"deck:{broken.pk}"})
    assert response.status_code == 400
    assert "cannot be played yet" in response.content.decode() and not Game.objects.exists()
    foreign = decks.copy_starter(bob, "under_city")
    response = client.post(reverse("new_game"), {**form, "deck0": f"deck:{foreign.pk}"})
    assert response.status_code == 400 and "not one of yours" in response.content.decode()
    page = client.get(reverse("new_game")).content.decode()
    assert "Half done — not legal yet" in page and "Starter: Under-City Starter" in page


def test_starter_decks_by_default_and_solitaire_without_decks(scenarios: None, alice: Any) -> None:
    game = vs_bot(alice, "starter:tunnel_mixed")
    assert game.config["decks"][0] == "tunnel_mixed" and game.config["decks"][1] != "tunnel_mixed"
    assert game.state["starter"] is True  # the starter-deck rule applies on its own with starters only
    solo = decks.create_game(alice, scenario("solitaire"), 1, [services.SeatSpec("me")], [""])
    assert "decks" not in solo.config and solo.status == Game.Status.ACTIVE


@pytest.mark.django_db(transaction=True)  # bots move after the commit
def test_a_game_against_a_bot_is_played_for_a_few_turns(scenarios: None, alice: Any) -> None:
    game = vs_bot(alice, f"deck:{decks.copy_starter(alice, 'under_city').pk}", bot="greedy")
    picker = random.Random(3)
    for _ in range(40):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        human_move(game, alice, picker)
    game.refresh_from_db()
    assert game.state["turns"] >= 3
    assert game.moves.filter(by_bot=True).exists()


# --- the table page -------------------------------------------------------------------------

def test_the_table_page_for_a_player_and_a_spectator(scenarios: None, alice: Any) -> None:
    game = vs_bot(alice)
    url = reverse("game", args=[game.pk])
    page = client_for(alice).get(url).content.decode()
    assert page.count('class="fl-table') == 2 and "Your hand" in page and 'class="fl-hand"' in page
    assert "Warlord Kade" in page or "The Magistrate" in page or "Mother Ash" in page or "The Broker" in page
    watching = client_for(None).get(url).content.decode()
    assert "You are watching this game." in watching and 'class="fl-hand"' not in watching


def test_the_rule_links_have_summaries(scenarios: None, alice: Any) -> None:
    game = vs_bot(alice)
    rules = client_for(None).get(reverse("rules", args=["feudal"])).content.decode()
    for move in game.moves.all():
        for event in move.events:
            assert event["rule"] in rules
    assert "FL-COMBAT-DF-04" in rules


def _fight_with_face_down_card() -> dict[str, Any]:
    """A duel state in which seat 1 (the bot) attacks with a face-down card on the table."""
    for seed in range(1, 60):
        state = ENGINE.setup(seed, {"mode": "duel", "options": {}}, 2)
        picker = random.Random(seed)
        for _ in range(1500):
            combat = next((f for f in state["stack"] if f["kind"] == "combat"), None)
            if combat and combat["att"] == 1 and combat["vc"]["a"] and not combat["vc"]["a"]["up"]:
                return state
            prompts = ENGINE.prompts(state)
            if not prompts:
                break
            prompt = prompts[0]
            state, _ = ENGINE.apply(state, prompt["seat"], picker.choice(prompt["options"])["action"])
    raise AssertionError("no face-down card in 60 random games")


def _page(client: Client, game: Game) -> str:
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    return CSRF.sub(r"\1", SINCE.sub("", page))


def test_the_page_does_not_depend_on_what_is_hidden(scenarios: None, alice: Any) -> None:
    """Another seat's hand, every Stockpile order and a face-down card never change the page."""
    game = vs_bot(alice)
    state = _fight_with_face_down_card()
    game.state = state
    game.save()
    player, spectator = client_for(alice), client_for(None)
    before = (_page(player, game), _page(spectator, game))
    assert "face-down card" in before[0] and "face-down card" in before[1]
    bot = state["seats"][1]
    combat = next(f for f in state["stack"] if f["kind"] == "combat")
    # Swap the bot's hand, its face-down card and Stockpile cards among themselves; shuffle every Stockpile.
    pool = bot["hand"] + [combat["vc"]["a"]["card"]] + bot["stock"]
    assert len(set(pool)) > 2
    random.Random(9).shuffle(pool)
    bot["hand"], combat["vc"]["a"]["card"] = pool[: len(bot["hand"])], pool[len(bot["hand"])]
    bot["stock"] = pool[len(bot["hand"]) + 1:]
    random.Random(2).shuffle(state["seats"][0]["stock"])
    game.state = state
    game.save()
    assert (_page(player, game), _page(spectator, game)) == before


def test_the_board_context_holds_only_the_view(scenarios: None, alice: Any) -> None:
    game = vs_bot(alice)
    ctx = pages.context(game, alice)
    board = ctx["board"]
    assert board["hand"] is not None and [c["id"] for c in board["hand"]] == sorted(
        game.state["seats"][0]["hand"], key=lambda c: (feudal_board.feudal_cards.sort_key(c)))
    assert client_for(None) and pages.context(game, None)["board"]["hand"] is None
