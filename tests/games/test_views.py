"""Pages and htmx endpoints, through a client that enforces CSRF like a browser session."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import pages, services
from games.models import DevEmail, Game, Scenario
from rules.hre.state import data
from tests.games.helpers import human_move, make_game, options, play, prompted, section, snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]

LIVE_IDS = tuple(f'id="{name}"' for name in pages.LIVE_PARTIALS)


def hand_names(game: Game, seat: int) -> list[str]:
    game.refresh_from_db()
    return [data().cards[c]["name"] for c in game.state["seats"][seat]["hand"]]


def browser(user: Any | None = None) -> Client:
    """A CSRF-enforcing client, logged in as `user`, holding a CSRF cookie."""
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    client.get(reverse("lobby"))
    return client


def token(client: Client) -> str:
    return client.cookies["csrftoken"].value


def post(client: Client, url: str, data: dict[str, Any], htmx: bool = False) -> Any:
    headers = {"X-CSRFToken": token(client)}
    if htmx:
        headers["HX-Request"] = "true"
    return client.post(url, data, headers=headers)


def act_data(
    game: Game, action: Any, seat: int | None = None, seq: int | None = None
) -> dict[str, Any]:
    data = {"action": json.dumps(action), "expected_seq": game.seq if seq is None else seq}
    if seat is not None:
        data["seat"] = seat
    return data


@pytest.fixture
def vs_bot(scenarios: None, alice: Any) -> Game:
    """Alice against a random bot, Rulers drafted, at Alice's decision (bots play inline)."""
    game = play(
        make_game(alice, "me", "bot:random"),
        alice,
        random.Random(1),
        until=lambda g: bool(g.state["seats"][0]["hand"]),
    )
    assert prompted(game) == [0] and game.state["seats"][0]["hand"]
    return game


# --- CSRF -------------------------------------------------------------------------------------


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(
    vs_bot: Game, alice: Any
) -> None:
    client = browser(alice)
    before = snapshot(vs_bot)
    response = client.post(
        reverse("act", args=[vs_bot.pk]),
        act_data(vs_bot, options(vs_bot, 0)[0], 0),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 403
    assert snapshot(vs_bot) == before
    response = client.post(
        reverse("new_game"),
        {"scenario": vs_bot.scenario_id, "players": 2, "seat0": "me", "seat1": "bot:random"},
    )
    assert response.status_code == 403
    assert Game.objects.count() == 1


def test_the_game_page_carries_the_csrf_header_for_htmx(vs_bot: Game, alice: Any) -> None:
    client = browser(alice)
    page = client.get(reverse("game", args=[vs_bot.pk])).content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in page


# --- lobby, new game, next, profile -----------------------------------------------------------


def test_the_lobby_lists_my_games_with_those_waiting_for_me_first(
    scenarios: None, alice: Any, bob: Any, carol: Any
) -> None:
    waiting = make_game(alice, "me", "bot:random")
    assert prompted(waiting) == [0]
    duel = make_game(alice, "me", bob)
    if prompted(duel) == [0]:
        human_move(duel, alice, random.Random(1))
    assert prompted(duel) == [1], "the duel now waits for Bob"
    duel.save()  # the most recently updated game is listed first unless it waits for me
    make_game(carol, "me", "bot:random")
    page = browser(alice).get(reverse("lobby")).content.decode()
    mine = page.split("<h2>My games</h2>")[1].split("<h2>Open games</h2>")[0]
    first, second = mine.index(f"#{waiting.pk}<"), mine.index(f"#{duel.pk}<")
    assert first < second
    assert mine.count("your decision") == 1
    assert "your decision" in mine[first:second]
    assert mine.count("<li>") == 2, "Carol's game is not among mine"


def test_the_new_game_form_creates_a_game_against_a_bot(scenarios: None, alice: Any) -> None:
    client = browser(alice)
    form = client.get(reverse("new_game"))
    assert form.status_code == 200 and b"csrfmiddlewaretoken" in form.content
    scenario = Scenario.objects.get(game="hre", slug="base")
    response = client.post(
        reverse("new_game"),
        {
            "csrfmiddlewaretoken": token(client),
            "scenario": scenario.pk,
            "players": 2,
            "seat0": "me",
            "seat1": "bot:greedy",
            "opt_hre_natural_one": '"natural"',
            "opt_hre_title_chaining": "false",
            "public": "on",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert game.status == Game.Status.ACTIVE and game.public
    assert [(s.user, s.bot) for s in game.seats.all()] == [(alice, ""), (None, "greedy")]
    assert game.config["options"] == {"natural_one": "natural"}


def test_the_new_game_form_explains_a_bad_option(scenarios: None, alice: Any) -> None:
    client = browser(alice)
    scenario = Scenario.objects.get(game="hre", slug="base")
    response = post(
        client,
        reverse("new_game"),
        {
            "scenario": scenario.pk,
            "players": 2,
            "seat0": "me",
            "seat1": "bot:random",
            "opt_hre_natural_one": "7",
        },
    )
    assert response.status_code == 400
    assert (
        "Choose one of the listed answers for “When a 1 always misses”" in response.content.decode()
    )
    assert not Game.objects.exists()


def test_next_waiting_goes_to_the_game_that_waits_for_me_else_to_the_lobby(
    vs_bot: Game, alice: Any, bob: Any
) -> None:
    response = browser(alice).get(reverse("next_waiting"))
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[vs_bot.pk])
    response = browser(bob).get(reverse("next_waiting"))
    assert response.status_code == 302 and response["Location"] == reverse("lobby")


def test_the_profile_lists_my_games_and_final_scores(scenarios: None, alice: Any) -> None:
    game = play(make_game(alice, "me", "bot:random"), alice, random.Random(4))
    assert game.status == Game.Status.FINISHED
    row = next(r for r in game.result["seats"] if r["seat"] == 0)
    page = browser(alice).get(reverse("profile")).content.decode()
    assert f"#{game.pk}</a>" in page and "Finished" in page
    assert f"{row['score']} (rank {row['rank']})" in page


def test_the_dev_inbox_is_shown_only_when_debug_is_on(db: None, alice: Any, settings: Any) -> None:
    settings.EMAIL_BACKEND = "games.mail.DevInboxBackend"
    mail.send_mail("Your move in game 1", "Go to the game.", "x@example.com", ["alice@example.com"])
    assert DevEmail.objects.count() == 1
    client = browser(alice)
    settings.DEBUG = False
    assert client.get(reverse("dev_inbox")).status_code == 404
    settings.DEBUG = True
    response = client.get(reverse("dev_inbox"))
    assert response.status_code == 200 and "Your move in game 1" in response.content.decode()


# --- the game page ----------------------------------------------------------------------------


def test_a_player_sees_the_game_page_with_their_hand_and_prompt(vs_bot: Game, alice: Any) -> None:
    page = browser(alice).get(reverse("game", args=[vs_bot.pk])).content.decode()
    for live_id in LIVE_IDS:
        assert live_id in page
    assert "Your decision" in page and "data-option-button" in page
    private = section(page, "private")
    assert all(name in private for name in hand_names(vs_bot, 0))
    assert f'ws-connect="/ws/games/{vs_bot.pk}/"' in page


def test_a_spectator_of_a_public_game_sees_no_hand_and_no_options(vs_bot: Game, carol: Any) -> None:
    for client in (browser(carol), browser()):
        response = client.get(reverse("game", args=[vs_bot.pk]))
        page = response.content.decode()
        assert response.status_code == 200
        assert 'id="board"' in page
        assert "Your decision" not in page and "data-option-button" not in page
        private = section(page, "private")
        assert not [n for n in hand_names(vs_bot, 0) + hand_names(vs_bot, 1) if n in private]


def test_an_outsider_of_a_private_game_gets_a_404(scenarios: None, alice: Any, carol: Any) -> None:
    game = make_game(alice, "me", "bot:random", public=False)
    assert browser(carol).get(reverse("game", args=[game.pk])).status_code == 404
    # Logged out, the same link asks for a log-in (mail links land here) and shows nothing.
    anonymous = browser().get(reverse("game", args=[game.pk]))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(
        reverse("account_login")
    )
    assert browser(alice).get(reverse("game", args=[game.pk])).status_code == 200


def test_a_missing_game_is_a_404(db: None, alice: Any) -> None:
    assert browser(alice).get(reverse("game", args=[999])).status_code == 404


# --- act ----------------------------------------------------------------------------------------


def test_an_accepted_move_answers_with_the_prompt_bar(vs_bot: Game, alice: Any) -> None:
    """The mover's prompt bar comes back at once; the socket push brings the other regions."""
    client = browser(alice)
    seq = vs_bot.seq
    response = post(
        client,
        reverse("act", args=[vs_bot.pk]),
        act_data(vs_bot, options(vs_bot, 0)[0], 0),
        htmx=True,
    )
    body = response.content.decode()
    assert response.status_code == 200 and "HX-Trigger" not in response
    for live_id in ('id="prompt"', 'id="notice"'):
        assert live_id in body
    assert body.count('hx-swap-oob="true"') == 2
    assert 'class="error"' not in body
    vs_bot.refresh_from_db()
    assert vs_bot.seq > seq and vs_bot.moves.filter(seq=seq + 1, seat=0, by_bot=False).exists()


def test_an_illegal_move_answers_with_a_readable_message_and_changes_nothing(
    vs_bot: Game, alice: Any
) -> None:
    client = browser(alice)
    before = snapshot(vs_bot)
    response = post(
        client, reverse("act", args=[vs_bot.pk]), act_data(vs_bot, {"nonsense": 1}, 0), htmx=True
    )
    body = response.content.decode()
    assert response.status_code == 200, "htmx swaps only 2xx answers"
    assert "That is not one of the choices now" in body
    assert (
        "That is not one of the choices now"
        in json.loads(response["HX-Trigger"])["chancery:refused"]
    )
    for live_id in LIVE_IDS:
        assert live_id in body
    assert snapshot(vs_bot) == before


def test_a_stale_move_answers_with_a_refresh_message_and_changes_nothing(
    vs_bot: Game, alice: Any
) -> None:
    client = browser(alice)
    before = snapshot(vs_bot)
    data = act_data(vs_bot, options(vs_bot, 0)[0], 0, seq=vs_bot.seq + 5)
    response = post(client, reverse("act", args=[vs_bot.pk]), data, htmx=True)
    assert "The game has moved on" in response.content.decode()
    assert f'data-seq="{vs_bot.seq}"' in response.content.decode(), (
        "the fresh prompt replaces the old one"
    )
    assert snapshot(vs_bot) == before
    response = post(client, reverse("act", args=[vs_bot.pk]), data)
    assert response.status_code == 409


@pytest.mark.parametrize(
    "data",
    [
        {"action": "{not json", "expected_seq": "0"},
        {"action": '{"pass": true}', "expected_seq": "soon"},
        {"action": '{"pass": true}'},
    ],
)
def test_a_malformed_move_is_refused_and_changes_nothing(
    vs_bot: Game, alice: Any, data: dict[str, Any]
) -> None:
    client = browser(alice)
    before = snapshot(vs_bot)
    response = post(client, reverse("act", args=[vs_bot.pk]), data)
    assert response.status_code == 400 and "not well-formed" in response.content.decode()
    assert snapshot(vs_bot) == before


def test_a_move_by_someone_else_is_refused(vs_bot: Game, carol: Any) -> None:
    before = snapshot(vs_bot)
    data = act_data(vs_bot, options(vs_bot, 0)[0], 0)
    response = post(browser(carol), reverse("act", args=[vs_bot.pk]), data, htmx=True)
    assert "You do not hold that seat" in response.content.decode()
    assert not [
        n for n in hand_names(vs_bot, 0) if n in section(response.content.decode(), "private")
    ]
    response = post(browser(), reverse("act", args=[vs_bot.pk]), data)
    assert response.status_code == 403
    assert snapshot(vs_bot) == before


def test_act_refuses_get(vs_bot: Game, alice: Any) -> None:
    assert browser(alice).get(reverse("act", args=[vs_bot.pk])).status_code == 405


# --- join -----------------------------------------------------------------------------------------


def test_joining_an_open_seat_starts_the_game(scenarios: None, alice: Any, bob: Any) -> None:
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(
        alice, scenario, 2, [services.SeatSpec("me"), services.SeatSpec("open")]
    )
    lobby = browser().get(reverse("lobby")).content.decode()
    assert f"#{game.pk}</a> by alice" in lobby
    client = browser(bob)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Join this game" in page
    assert client.post(reverse("join", args=[game.pk])).status_code == 403, (
        "CSRF applies to joining too"
    )
    response = post(client, reverse("join", args=[game.pk]), {})
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.seats.get(index=1).user == bob


def test_joining_a_started_game_shows_a_message(vs_bot: Game, bob: Any) -> None:
    client = browser(bob)
    response = post(client, reverse("join", args=[vs_bot.pk]), {})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "no longer waiting for players" in page
    assert not vs_bot.seats.filter(user=bob).exists()
