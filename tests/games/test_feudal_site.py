"""Feudal Lords on the site: decks (model, checks, starters, builder), game creation with decks,
the table page for players and spectators, and hidden information on that page."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import pages, services
from games.boards.feudal import cards as feudal_cards
from games.boards.feudal import decks
from games.boards.feudal.deciding import window
from games.boards.feudal.table import _stage
from games.models import Deck, Game, Scenario
from rules.feudal import ENGINE, views
from rules.feudal.components import load
from tests.games.helpers import human_move
from tests.rules.feudal.helpers import act, action_phase, blank, duel, give

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
    decks.set_frame(
        deck,
        "the_broker",
        "undertunnels",
        ["iron_idol", "lucky_coin", "bone_totem", "relic_engine"],
    )
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
    assert response.status_code == 302 and response["Location"] == reverse(
        "deck_builder", args=[deck.pk]
    )
    builder = client.get(response["Location"]).content.decode()
    assert "This deck is legal" in builder and 'id="catalogue"' in builder
    assert "legal" in client.get(reverse("deck_list")).content.decode()


def test_the_builder_checks_live_after_each_change(alice: Any) -> None:
    deck = decks.copy_starter(alice, "over_city")  # exactly 55 cards
    client = client_for(alice)
    entry = deck.entries.order_by("card").first()
    assert entry is not None
    response = client.post(
        reverse("deck_count", args=[deck.pk]),
        {"card": entry.card, "count": entry.count - 1},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200 and 'id="deck-state"' in html
    assert "The stockpile has 54 cards; it needs at least 55." in html
    assert (
        f'id="count-{entry.card}"' in html and 'hx-swap-oob="true"' in html
    )  # the catalogue's count too
    html = client.post(
        reverse("deck_count", args=[deck.pk]),
        {"card": entry.card, "count": entry.count},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "This deck is legal" in html
    frame = client.post(
        reverse("deck_frame", args=[deck.pk]),
        {"name": "Renamed", "leader": "grinner", "locations": deck.locations},
        HTTP_HX_REQUEST="true",
    )
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


def test_the_catalogue_filters_by_cost(alice: Any) -> None:
    """Cost is Sup + Ld, or Control for a character; "5+" takes the dearest."""
    deck = decks.new_deck(alice, "x")
    client = client_for(alice)
    two = client.get(
        reverse("deck_cards", args=[deck.pk]), {"type": "character", "cost": "2"}
    ).content.decode()
    assert "Looter" in two and "Grinner" not in two  # Control 2 and 3
    assert all(decks.card_cost(load().cards[c["id"]]) == 3 for c in decks.catalogue(cost="3"))
    dear = decks.catalogue(cost="5+")
    assert dear and all(decks.card_cost(load().cards[c["id"]]) >= 5 for c in dear)
    assert decks.catalogue(cost="junk") == []
    builder = client.get(reverse("deck_builder", args=[deck.pk]), {"cost": "1"}).content.decode()
    assert '<option value="1" selected>' in builder


def test_decks_are_private(alice: Any, bob: Any) -> None:
    deck = decks.copy_starter(alice, "under_city")
    client = client_for(bob)
    assert client.get(reverse("deck_builder", args=[deck.pk])).status_code == 404
    assert (
        client.post(
            reverse("deck_count", args=[deck.pk]), {"card": "banger", "count": 4}
        ).status_code
        == 404
    )
    assert client_for(None).get(reverse("deck_list")).status_code == 302  # log in first


# --- games with decks -----------------------------------------------------------------------


def test_creating_a_game_against_a_bot_with_my_deck(scenarios: None, alice: Any) -> None:
    deck = decks.copy_starter(alice, "over_city")
    decks.set_frame(deck, "the_broker", deck.locations, [], name="Broker's own")
    client = client_for(alice)
    response = client.post(
        reverse("new_game"),
        {
            "scenario": scenario().pk,
            "players": 2,
            "seat0": "me",
            "seat1": "bot:greedy",
            "deck0": f"deck:{deck.pk}",
            "deck1": f"deck:{deck.pk}",
            "opt_feudal_starter_rules": '"on"',
        },
    )
    assert response.status_code == 302, response.content.decode()
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE
    mine, bot = game.config["decks"]
    assert mine == decks.engine_deck(deck) and mine["leader"] == "the_broker"
    assert isinstance(bot, str) and bot in load().decks and bot != "over_city"  # bots play starters
    assert game.config["options"]["starter_rules"] == "on"
    assert game.state["seats"][0]["leader"] == "the_broker"


def test_an_illegal_or_foreign_deck_cannot_be_taken_to_a_game(
    scenarios: None, alice: Any, bob: Any
) -> None:
    broken = decks.new_deck(alice, "Half done")
    client = client_for(alice)
    form = {
        "scenario": scenario().pk,
        "players": 2,
        "seat0": "me",
        "seat1": "bot:random",
        "options": "{}",
    }
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
    assert (
        game.state["starter"] is True
    )  # the starter-deck rule applies on its own with starters only
    solo = decks.create_game(alice, scenario("solitaire"), 1, [services.SeatSpec("me")], [""])
    assert "decks" not in solo.config and solo.status == Game.Status.ACTIVE


@pytest.mark.django_db
@pytest.mark.usefixtures("commits")  # bots move, mail goes out, after the commit
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
    game = vs_bot(alice, "starter:over_city")  # a deck with an Artifact to place by the hand
    url = reverse("game", args=[game.pk])
    page = client_for(alice).get(url).content.decode()
    assert page.count('class="fl-table') == 2 and "Your hand" in page and 'class="fl-hand"' in page
    assert (
        "Warlord Kade" in page
        or "The Magistrate" in page
        or "Mother Ash" in page
        or "The Broker" in page
    )
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
            state, _ = ENGINE.apply(
                state, prompt["seat"], picker.choice(prompt["options"])["action"]
            )
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
    bot["stock"] = pool[len(bot["hand"]) + 1 :]
    random.Random(2).shuffle(state["seats"][0]["stock"])
    game.state = state
    game.save()
    assert (_page(player, game), _page(spectator, game)) == before


def test_the_board_context_holds_only_the_view(scenarios: None, alice: Any) -> None:
    game = vs_bot(alice)
    ctx = pages.context(game, alice)
    board = ctx["board"]
    assert board["hand"] is not None and [c["id"] for c in board["hand"]] == sorted(
        game.state["seats"][0]["hand"], key=lambda c: feudal_cards.sort_key(c)
    )
    assert client_for(None) and pages.context(game, None)["board"]["hand"] is None


# --- decisions taken at once, held discards, Instant windows ---------------------------------

TAGS = re.compile(r"<[^>]+>")


def _duel_of_two(alice: Any, bob: Any) -> Game:
    """Alice (seat 1) and Bob (seat 2), with starter decks that each carry an Artifact to place."""
    specs = [services.SeatSpec("me"), services.SeatSpec("invite", username="bob")]
    game = decks.create_game(
        alice, scenario(), 2, specs, ["starter:over_city", "starter:tunnel_mixed"]
    )
    client_for(bob).post(reverse("join", args=[game.pk]), {"deck": "starter:tunnel_mixed"})
    game.refresh_from_db()
    assert (
        game.status == Game.Status.ACTIVE and game.state["stack"][-1]["kind"] == "setup_artifacts"
    )
    return game


def _now_line(page: str) -> str:
    found = re.search(r'<section class="fl-deciding".*?</section>', page, re.S)
    assert found, "no 'Now' line on the page"
    return html.unescape(" ".join(TAGS.sub("", found.group(0)).split()))


def _held_section(page: str) -> str | None:
    found = re.search(r'<section class="fl-setaside fl-held".*?</section>', page, re.S)
    return found.group(0) if found else None


def _submit(game: Game, user: Any, seat: int, action: Any) -> Game:
    services.submit(game.pk, user, action, game.seq, seat=seat)
    game.refresh_from_db()
    return game


def test_several_seats_deciding_at_once_are_named(scenarios: None, alice: Any, bob: Any) -> None:
    """Both seats place Artifacts at once (FL-SETUP-04): every page names both; each seat's own
    Artifacts wait by its hand, and every deciding seat carries the badge."""
    game = _duel_of_two(alice, bob)
    assert sorted(game.prompted_seats()) == [0, 1]
    bobs = _page(client_for(bob), game)
    assert re.fullmatch(
        r"Now: You and \S+ Seat 1 are choosing which Artifacts to play and where\.", _now_line(bobs)
    )
    board = pages.context(game, bob)["board"]
    assert [s["me"] for s in board["deciding"]["seats"]] == [True, False]
    assert [t["deciding"] for t in board["seats"]] == [True, True]
    assert [c["id"] for c in board["artifacts"]] == [
        "lucky_coin"
    ] and "Your Artifacts to place" in bobs
    assert re.fullmatch(
        r"Now: You and \S+ Seat 2 are choosing which Artifacts to play and where\.",
        _now_line(_page(client_for(alice), game)),
    )
    assert re.fullmatch(
        r"Now: \S+ Seat 1 and \S+ Seat 2 are choosing which Artifacts to play and where\.",
        _now_line(_page(client_for(None), game)),
    )
    # Once Bob has finished, his page names Alice alone, with nothing left unknown.
    game = _submit(game, bob, 1, {"do": "done"})
    assert re.fullmatch(
        r"Now: \S+ Seat 1 is choosing which Artifacts to play and where\.",
        _now_line(_page(client_for(bob), game)),
    )
    assert [t["deciding"] for t in pages.context(game, bob)["board"]["seats"]] == [True, False]


def test_every_seat_is_named_when_the_view_lists_them(
    scenarios: None, alice: Any, bob: Any
) -> None:
    """The view shows which seats still choose at set-up (`open`), so every page names them all."""
    assert {"open", "left"} <= set(views.FRAME_PUBLIC)
    game = _duel_of_two(alice, bob)
    assert re.fullmatch(
        r"Now: You and \S+ Seat 2 are choosing which Artifacts to play and where\.",
        _now_line(_page(client_for(alice), game)),
    )
    assert re.fullmatch(
        r"Now: \S+ Seat 1 and \S+ Seat 2 are choosing which Artifacts to play and where\.",
        _now_line(_page(client_for(None), game)),
    )


def test_a_player_sees_their_own_held_discards_and_a_rival_does_not(
    scenarios: None, alice: Any, bob: Any
) -> None:
    """Opening discards are set aside unseen until every seat has chosen (FL-SETUP-07): the
    chooser's page shows them; the rival's and a spectator's pages show nothing, and do not
    change whatever card is held."""
    game = _duel_of_two(alice, bob)
    game = _submit(game, alice, 0, {"do": "done"})
    game = _submit(game, bob, 1, {"do": "done"})
    assert game.state["stack"][-1]["kind"] == "setup_discard"
    held = game.state["seats"][0]["hand"][0]
    game = _submit(game, alice, 0, {"discard": held})
    name = load().cards[held]["name"]
    section = _held_section(_page(client_for(alice), game))
    assert section is not None and name in section
    assert [c["id"] for c in pages.context(game, alice)["board"]["held"]] == [held]
    assert "You have set 1 aside so far" in _now_line(_page(client_for(alice), game))
    rival, watching = _page(client_for(bob), game), _page(client_for(None), game)
    assert _held_section(rival) is None and _held_section(watching) is None
    assert pages.context(game, bob)["board"]["held"] is None
    # The held card is hidden from the others: swapping it for another card changes nothing they see.
    state = game.state
    other = next(c for c in state["seats"][0]["stock"] if load().cards[c]["name"] != name)
    state["seats"][0]["stock"][state["seats"][0]["stock"].index(other)] = held
    state["stack"][-1]["held"]["0"] = [other]
    game.state = state
    game.save()
    assert (_page(client_for(bob), game), _page(client_for(None), game)) == (rival, watching)
    # Bob's own discard shows on his page only; once Alice has set both aside she is told she waits.
    mine = next(
        c
        for c in game.state["seats"][1]["hand"]
        if load().cards[c]["name"] != load().cards[other]["name"]
    )
    game = _submit(game, bob, 1, {"discard": mine})
    section = _held_section(_page(client_for(bob), game))
    assert section is not None and load().cards[mine]["name"] in section
    assert load().cards[other]["name"] not in section
    game = _submit(game, alice, 0, {"discard": game.state["seats"][0]["hand"][0]})
    assert (
        "You have set your 2 discards aside; the other seats are still choosing theirs."
        in _now_line(_page(client_for(alice), game))
    )


def test_an_instant_waiting_in_a_window_is_shown_to_everyone(scenarios: None, alice: Any) -> None:
    """An Instant played in the Action phase waits in a window for answers (FL-INST-04): it is
    public, so the spectator sees the card, who played it, its target and the moment."""
    game = vs_bot(alice)
    state = action_phase(blank(duel(), sup=3, ld=3), 0)
    give(state, 0, ["sabotage"])
    state, _ = act(state, {"do": "instant", "card": "sabotage", "target": 1}, 0)
    assert state["stack"][-1]["kind"] == "window" and state["stack"][-1]["seat"] == 1
    game.state = state
    game.save()
    for client in (client_for(alice), client_for(None)):
        page = _page(client, game)
        found = re.search(r'<section class="fl-window".*?</section>', page, re.S)
        assert found is not None
        text = " ".join(TAGS.sub(" ", found.group(0)).split())
        assert "Action phase" in text and "Sabotage" in text and "Seat 1 · on Seat 2" in text
        assert re.match(
            r"Now: \S+ Seat 2 may answer Seat 1's Sabotage with an Instant, or pass\.",
            _now_line(page),
        )


def test_window_stages_have_names() -> None:
    """The last window of a combat (before End Combat) and the Action-phase window read as words."""
    assert _stage("end", 1, "before_end") == "Before End Combat"
    assert _stage("close", 1) == "Before End Combat"
    assert (
        _stage("cc_round", 2, "cc_att_hits") == "Close Combat, round 2: after the attackers' hits"
    )
    assert (
        window(
            {
                "pending": {"kind": "window", "seat": 1, "stop": "action", "played": []},
                "seats": [],
                "over": False,
            }
        )["moment"]
        == "Action phase"
    )


@pytest.mark.parametrize(
    ("control", "sway", "needs", "percent"),
    [(4, 0, 4, 50), (4, 1, 3, 67), (4, 3, 2, 83), (2, 0, 2, 83), (6, 0, 6, 17), (9, 1, None, 0)],
)
def test_a_draft_shows_the_odds_of_its_roll(
    control: int, sway: int, needs: int | None, percent: int
) -> None:
    """FL-DRAFT-04: a d6 plus the sway reaches Control; FL-DRAFT-06: a natural 1 fails."""
    from games.boards.feudal import odds

    got = odds.draft(control, sway)
    assert got["needs"] == needs and got["percent"] == percent
    prompt = {
        "options": [
            {"action": {"do": "skip"}, "label": "Do not draft"},
            {"action": {"do": "draft", "card": "grinner", "sway": sway}, "label": "Draft"},
        ]
    }
    grinner = odds.draft(3, sway)["text"]  # Grinner's Control is 3
    assert odds.notes({"seats": []}, prompt) == ["", grinner]


@pytest.mark.parametrize(
    ("control", "ld", "percent"), [(4, 0, 50), (4, 2, 83), (4, 3, 100), (6, 1, 33), (9, 1, 0)]
)
def test_a_lone_combatant_shows_the_chance_its_cost_is_paid(
    control: int, ld: int, percent: int
) -> None:
    """FL-COMBAT-SEND-04: the cost is Control minus the d6, at least 0; sent if the Ld pays it
    (FL-COMBAT-SEND-05), counted here face by face against that formula."""
    from games.boards.feudal import odds

    faces = [f for f in range(1, 7) if max(0, control - f) <= ld]
    assert odds.lone(control, ld)["percent"] == round(100 * len(faces) / 6) == percent


def test_each_df_target_shows_the_chance_of_a_hit_and_a_kill_with_the_engine_s_modifiers() -> None:
    """FL-COMBAT-DF-04, FL-STR-02: 2d6 plus every modifier in play against the DF string. The
    site reads the view and card data only; the engine's own roll_mod and thresholds, read
    here, must give the same figures for the shooter it asks about (FL-COMBAT-DF-03)."""
    from games.boards.feudal import odds
    from rules.core import rng
    from rules.feudal import combatants
    from rules.feudal.state import Ctx

    checked = 0
    for seed in range(1, 60):
        state = ENGINE.setup(seed, {"mode": "duel", "options": {}}, 2)
        chooser = {"rng": rng.seed_state(seed)}
        for _ in range(4000):
            if ENGINE.is_over(state) or checked >= 6:
                break
            prompt = rng.choice(chooser, ENGINE.prompts(state))
            if prompt["kind"] == "df_target":
                seat = prompt["seat"]
                frame = next(f for f in reversed(state["stack"]) if f["kind"] == "combat")
                uid = state["stack"][-1]["uid"]
                side, shooter = combatants.find(frame, uid) or ("", {})
                string = combatants.thresholds(shooter, "df")
                mod = combatants.roll_mod(Ctx(state), frame, side, shooter, "df")
                aimed = odds.shot(ENGINE.view(state, seat), seat)
                assert aimed is not None and aimed[:2] == (string, mod), seed
                notes = odds.notes(ENGINE.view(state, seat), prompt)
                hit = odds.at_least(string, mod, 1)
                assert all(n.startswith("DF ") and f"a hit {hit}%" in n for n in notes), notes
                checked += 1
            option = rng.choice(chooser, prompt["options"])
            ENGINE.apply_trusted(state, prompt["seat"], option["action"])
        if checked >= 6:
            break
    assert checked >= 6
