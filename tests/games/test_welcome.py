"""A site that welcomes a newcomer (issue 12): the landing page, the account pages in the site's
frame, the header's links and the lobby's lists."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import glossary, landing
from games.models import Game, Scenario
from rules.core.registry import get_engine
from tests.games.helpers import make_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]


def _page(client: Client, name: str) -> str:
    response = client.get(reverse(name))
    assert response.status_code == 200, name
    return response.content.decode()


def test_a_visitor_lands_on_what_the_site_and_its_three_games_are(scenarios: None) -> None:
    page = _page(Client(), "home")
    for title in (
        "Dark Ages: Holy Roman Empire",
        "Empires of the Middle Ages",
        "Dark Age: Feudal Lords",
    ):
        assert f"<h2>{title}</h2>" in page
    for game in ("hre", "ema", "feudal"):  # the seat range over every scenario of the game
        shipped = get_engine(game).scenarios()
        low = min(x["min_players"] for x in shipped)
        high = max(x["max_players"] for x in shipped)
        assert f"{low}–{high} players" in page
    assert page.count('class="landing-pic"') == 3
    assert 'class="map' in page and "fl-table" in page, "each game's board is pictured"
    assert reverse("account_signup") in page and reverse("account_login") in page
    assert reverse("rules", args=["ema"]) in page


def test_the_landing_page_lists_public_games_being_played_and_finished(
    scenarios: None, alice: Any
) -> None:
    live = make_game(alice, "me", "bot:random")
    hidden = make_game(alice, "me", "bot:random", public=False)
    done = make_game(alice, "me", "bot:random")
    Game.objects.filter(pk=done.pk).update(status=Game.Status.FINISHED)
    page = _page(Client(), "home")
    playing = page.split("Being played now")[1].split("Finished lately")[0]
    assert f"#{live.pk}<" in playing and f"#{hidden.pk}<" not in playing
    finished = page.split("Finished lately")[1]
    assert reverse("results", args=[done.pk]) in finished


def test_the_board_pictures_are_the_same_on_every_visit(scenarios: None) -> None:
    landing.board_picture.cache_clear()
    first = landing.board_picture("hre")
    landing.board_picture.cache_clear()
    assert landing.board_picture("hre") == first and "<svg" in first


def test_a_player_goes_from_the_root_to_the_lobby(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    response = client.get(reverse("home"))
    assert response.status_code == 302 and response["Location"] == reverse("lobby")


@pytest.mark.parametrize("name", ["account_login", "account_signup"])
def test_the_account_pages_wear_the_site_header_and_say_log_in(name: str) -> None:
    page = _page(Client(), name)
    assert '<header class="site">' in page and 'href="/rules/"' in page
    assert "Sign In" not in page and "Sign in" not in page
    assert "Log in" in page


def test_log_out_is_a_page_of_the_site_too(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    page = _page(client, "account_logout")
    assert '<header class="site">' in page and "<h1>Log out</h1>" in page and "Sign Out" not in page
    response = client.post(reverse("account_logout"), follow=True)
    assert "You have logged out." in response.content.decode()


def test_signing_up_logs_in_and_says_so_in_the_site_s_words(scenarios: None) -> None:
    client = Client()
    response = client.post(
        reverse("account_signup"),
        {
            "email": "dora@example.com",
            "username": "dora",
            "password1": "a long enough pass phrase",
            "password2": "a long enough pass phrase",
        },
        follow=True,
    )
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert "Logged in as dora." in page


def test_a_refused_sign_up_says_why_next_to_the_field(scenarios: None, alice: Any) -> None:
    response = Client().post(
        reverse("account_signup"),
        {"email": "x@example.com", "username": "alice", "password1": "pw", "password2": "pw"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert 'class="field invalid"' in page and 'class="error"' in page
    assert 'value="x@example.com"' in page, "what was typed stays"


def test_the_header_links_to_rules_lobby_new_game_decks_and_profile(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    header = _page(client, "lobby").split('<header class="site">')[1].split("</header>")[0]
    for name in ("rules_index", "lobby", "new_game", "deck_list", "profile"):
        assert f'href="{reverse(name)}"' in header, name


def test_the_rules_index_links_each_game_s_rules() -> None:
    page = _page(Client(), "rules_index")
    for game in ("hre", "ema", "feudal"):
        assert reverse("rules", args=[game]) in page


def test_the_lobby_does_not_offer_my_own_games_to_watch(
    scenarios: None, alice: Any, bob: Any
) -> None:
    mine = make_game(alice, "me", "bot:random")
    theirs = make_game(bob, "me", "bot:random")
    client = Client()
    client.force_login(alice)
    watch = _page(client, "lobby").split("<h2>Games to watch</h2>")[1]
    assert f"#{theirs.pk}<" in watch and f"#{mine.pk}<" not in watch


def test_the_profile_offers_tokens_without_a_command_line(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    page = _page(client, "profile")
    assert reverse("token_new") in page and "manage.py" not in page


# --- the new-game form ---------------------------------------------------------------------------


def _logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_new_game_form_offers_each_engine_s_options_as_fields(
    scenarios: None, alice: Any
) -> None:
    page = _page(_logged_in(alice), "new_game")
    assert 'name="options"' not in page, "no raw JSON any more"
    for game in ("hre", "ema", "feudal"):
        for spec in get_engine(game).option_specs():
            assert f'name="opt_{game}_{spec["name"]}"' in page
            assert escape(spec["label"]) in page and escape(spec["help"]) in page
    assert "(recommended)" in page
    assert "Frankish against Byzantine" in page, "scenario descriptions are shown"


def test_each_scenario_offers_the_options_its_config_plays(scenarios: None, alice: Any) -> None:
    """A module's options only with the scenarios playing it; solitaire's only in solitaire; a
    shorter EMA game only below the scenario's length (Engine.option_specs(config))."""
    page = _page(_logged_in(alice), "new_game")
    pk = {(s.game, s.slug): str(s.pk) for s in Scenario.objects.all()}

    def offered_by(name: str) -> set[str]:
        found = re.search(rf'data-scenarios="([\d ]*)"[^>]*>\s*<label for="{name}"', page)
        assert found, name
        return set(found.group(1).split())

    assert pk["hre", "solo"] in offered_by("opt_hre_difficulty")
    assert pk["hre", "base"] not in offered_by("opt_hre_difficulty")
    assert pk["hre", "base"] in offered_by("opt_hre_natural_one")
    assert offered_by("opt_feudal_solo_level") == {pk["feudal", "solitaire"]}
    assert pk["feudal", "solitaire"] not in offered_by("opt_feudal_wounds")
    ten = re.search(r'<option value="10" data-scenarios="([\d ]*)"', page)
    assert ten and pk["ema", "27-charlemagne"] not in ten.group(1).split()  # 9 Rounds long
    assert pk["ema", "32-grand"] in ten.group(1).split()
    # The server reads only the chosen scenario's options.
    response = _logged_in(alice).post(
        reverse("new_game"),
        {
            "scenario": pk["hre", "base"],
            "players": "2",
            "seat0": "me",
            "seat1": "bot:random",
            "opt_hre_difficulty": '"hard"',
            "opt_hre_natural_one": '"natural"',
        },
    )
    assert response.status_code == 302
    assert Game.objects.get().config["options"] == {"natural_one": "natural"}


def test_a_game_chosen_by_link_is_preselected(scenarios: None, alice: Any) -> None:
    page = _logged_in(alice).get(reverse("new_game") + "?game=hre").content.decode()
    first = Scenario.objects.filter(game="hre", enabled=True).first()  # in the form's order
    assert first is not None
    assert re.search(rf'<option value="{first.pk}" data-game="hre" [^>]* selected>', page)
    assert (
        page.count(" selected>") >= 1
        and 'data-game="ema" data-low="1" data-high="1" selected' not in page
    )


def test_a_refused_new_game_keeps_every_value_and_says_why_next_to_the_field(
    scenarios: None, alice: Any
) -> None:
    melee = Scenario.objects.get(game="feudal", slug="melee")
    response = _logged_in(alice).post(
        reverse("new_game"),
        {
            "scenario": melee.pk,
            "players": "4",
            "seat0": "me",
            "seat1": "invite",
            "invite1": "nobody",
            "seat2": "bot:random",
            "seat3": "open",
            "opt_feudal_wounds": '"attack"',
            "opt_feudal_turn_limit": "300",
            "clock": "bank",
            "days_per_move": "4",
            "cap_days": "12",
        },
    )
    page = response.content.decode()
    assert response.status_code == 400 and not Game.objects.exists()
    assert (
        f'<option value="{melee.pk}" data-game="feudal" data-low="3" data-high="4" selected>'
        in page
    )
    assert '<option value="4" selected>' in page
    seat1 = page.split('data-seat="1"')[1].split('data-seat="2"')[0]
    assert '<option value="invite" selected>' in seat1 and 'value="nobody"' in seat1
    assert 'class="error" id="seat1-error">There is no player called nobody.</p>' in seat1
    seat2 = page.split('data-seat="2"')[1].split('data-seat="3"')[0]
    assert '<option value="bot:random" selected>' in seat2
    assert re.search(r'<option value="&quot;attack&quot;" data-scenarios="[\d ]+" selected>', page)
    assert 'name="opt_feudal_turn_limit" id="opt_feudal_turn_limit" value="300"' in page
    assert '<input type="radio" name="clock" value="bank" checked>' in page
    assert 'name="days_per_move" min="1" max="30" value="4"' in page
    assert "Traceback" not in page and "JSON" not in page


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("players", "5", "Holy Roman Empire — base game is played by 2–4 players."),
        ("players", "two", "Holy Roman Empire — base game is played by 2–4 players."),
        ("opt_hre_natural_one", "{bad json", "Choose one of the listed answers for “When a 1"),
        ("seat1", "invite", "Give the user name of the player to invite."),
        ("seat1", "dragon", "Choose who plays this seat from the list."),
    ],
)
def test_bad_new_game_input_is_refused_in_plain_words(
    scenarios: None, alice: Any, field: str, value: str, message: str
) -> None:
    hre = Scenario.objects.get(game="hre", slug="base")
    data = {"scenario": hre.pk, "players": "2", "seat0": "me", "seat1": "bot:random", field: value}
    response = _logged_in(alice).post(reverse("new_game"), data)
    assert response.status_code == 400 and not Game.objects.exists()
    assert message in response.content.decode()


def test_options_chosen_in_the_form_reach_the_game(scenarios: None, alice: Any) -> None:
    ema = Scenario.objects.get(game="ema", slug="28-millenium")
    response = _logged_in(alice).post(
        reverse("new_game"),
        {
            "scenario": ema.pk,
            "players": "2",
            "seat0": "me",
            "seat1": "bot:random",
            "opt_ema_rounds": "2",
            "opt_ema_low_rv": '"never_checked"',  # the recommended reading is not stored
            "opt_hre_natural_one": '"natural"',  # another game's field is ignored
        },
    )
    assert response.status_code == 302, response.content.decode()
    assert Game.objects.get().config["options"] == {"rounds": 2}


# --- words a newcomer understands ------------------------------------------------------------------


def test_internal_ambiguity_ids_never_reach_a_player() -> None:
    assert glossary.gloss("hre", "Nothing can be recruited: no effect (AMB-38)") == (
        "Nothing can be recruited: no effect"
    )
    assert glossary.gloss("feudal", "The game is drawn (A-43).") == "The game is drawn."
    assert "HRE-BASE-END-04" in glossary.gloss("hre", "The end is triggered (HRE-BASE-END-04).")


def test_counted_words_agree_with_their_number() -> None:
    assert glossary.gloss("feudal", "Draw 1 card(s)") == "Draw 1 card"
    assert glossary.gloss("hre", "The first 2 player(s) exhaust") == "The first 2 players exhaust"


def test_year_card_results_and_abbreviations_carry_their_meaning() -> None:
    line = str(glossary.gloss("ema", "Year Card 87: C(3►) / -1(◄1) / -: ER 11."))
    assert '<abbr title="Conquest, if the ER is 3 or more">C(3►)</abbr>' in line
    assert '<abbr title="Social State −1, if the ER is 1 or less">-1(◄1)</abbr>' in line
    assert '">Year Card 87</abbr>' in line and '">ER</abbr> 11' in line
    fl = str(glossary.gloss("feudal", "Sup 6, Ld 2; an SG card; <script>"))
    assert fl.count("<abbr title=") == 3 and "&lt;script&gt;" in fl


@pytest.mark.parametrize("game", ["hre", "ema", "feudal"])
def test_each_game_has_a_glossary_page(game: str) -> None:
    page = Client().get(reverse("glossary", args=[game])).content.decode()
    for term in glossary.terms(game):
        assert f"<strong>{escape(term.abbr)}</strong>" in page
    assert (
        reverse("glossary", args=[game])
        in Client().get(reverse("rules", args=[game])).content.decode()
    )


def test_a_game_page_explains_its_abbreviations_and_sends_moves_by_post(
    scenarios: None, alice: Any
) -> None:
    game = make_game(alice, "me", "bot:random")
    page = _logged_in(alice).get(reverse("game", args=[game.pk])).content.decode()
    assert "AMB-" not in page
    assert reverse("glossary", args=["hre"]) in page
    move_forms = page.count('hx-post="' + reverse("act", args=[game.pk]) + '"')
    assert (
        move_forms
        and page.count(f'method="post" action="{reverse("act", args=[game.pk])}"') == move_forms
    )
    for title in re.findall(r"<abbr([^>]*)>", page):
        assert 'title="' in title


def test_the_replay_steps_use_the_site_s_own_icons(scenarios: None, alice: Any) -> None:
    game = make_game(alice, "me", "bot:random")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    response = _logged_in(alice).get(reverse("replay", args=[game.pk]))
    page = response.content.decode()
    assert response.status_code == 200, page[:300]
    assert page.count('<svg class="icon"') == 4
    assert not any(glyph in page for glyph in "⏮⏭◀▶")


def test_a_bot_deciding_is_named_with_its_seat(
    scenarios: None, alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import jobs, pages

    monkeypatch.setattr(jobs, "call", lambda task, *args: None)  # the bots' turns wait
    game = make_game(alice, "bot:random", "bot:greedy")
    ctx = pages.context(game, alice)
    assert ctx["thinking"], "a bot is deciding"
    html = render_to_string("games/game.html#prompt", {**ctx, "game": game, "user": alice})
    for w in ctx["thinking"]:
        assert f"{w['who']} (seat {w['seat'] + 1}) is thinking" in html


# --- several seats deciding at once -----------------------------------------------------------


def _duel(alice: Any, bob: Any) -> Game:
    import copy

    from games import services

    scenario = copy.copy(Scenario.objects.get(game="feudal", slug="duel"))
    scenario.config = {**scenario.config, "decks": ["tunnel_mixed", "over_city"]}  # both: Artifacts
    specs = [services.SeatSpec("me"), services.SeatSpec("invite", username=bob.username)]
    game = services.create_game(alice, scenario, 2, specs)
    services.join(game.pk, bob)
    game.refresh_from_db()
    return game


def test_two_seats_deciding_at_once_both_succeed(scenarios: None, alice: Any, bob: Any) -> None:
    """Feudal Lords' set-up asks both seats at once; the second answer is not refused as stale
    because the first changed the game's position but not the second seat's own prompt."""
    from games import services

    game = _duel(alice, bob)
    assert sorted(game.prompted_seats()) == [0, 1]
    seq = game.seq
    mine, theirs = (game.engine.prompt_for(game.state, s) for s in (0, 1))
    assert mine is not None and theirs is not None
    key = services.prompt_key(mine)
    bob_client, alice_client = _logged_in(bob), _logged_in(alice)
    first = theirs["options"][0]["action"]
    response = bob_client.post(
        reverse("act", args=[game.pk]),
        {
            "action": json.dumps(first),
            "expected_seq": seq,
            "seat": 1,
            "prompt": services.prompt_key(theirs),
        },
    )
    assert response.status_code == 200, response.content.decode()
    game.refresh_from_db()
    assert game.seq == seq + 1
    assert game.engine.prompt_for(game.state, 0) == mine, "the other seat's choice left it as is"
    second = mine["options"][0]["action"]
    wrong = alice_client.post(
        reverse("act", args=[game.pk]),
        {"action": json.dumps(second), "expected_seq": seq, "seat": 0, "prompt": "not-the-key"},
    )
    assert wrong.status_code == 409, "a prompt the seat no longer has is stale"
    response = alice_client.post(
        reverse("act", args=[game.pk]),
        {"action": json.dumps(second), "expected_seq": seq, "seat": 0, "prompt": key},
    )
    assert response.status_code == 200, response.content.decode()
    game.refresh_from_db()
    assert game.seq == seq + 2
    assert [m.seat for m in game.moves.order_by("seq")][-2:] == [1, 0]
    again = alice_client.post(
        reverse("act", args=[game.pk]),
        {"action": json.dumps(second), "expected_seq": seq, "seat": 0, "prompt": key},
    )
    game.refresh_from_db()
    assert again.status_code in (200, 409) and game.seq == seq + 2, "a double click moves once"


# --- the log ------------------------------------------------------------------------------------


def test_the_log_names_players_not_seat_numbers(scenarios: None, alice: Any, bob: Any) -> None:
    from games import pages

    names = {0: "alice", 1: "Random — a beginner"}
    assert pages.named("Seat 1 rolls; Otto (seat 2) passes.", names) == (
        "alice rolls; Otto (Random — a beginner) passes."
    )
    assert pages.named("Seat 3 waits", names) == "Seat 3 waits", "an unknown seat stays a number"
    from games import services

    game = _duel(alice, bob)
    for seat, user in ((1, bob), (0, alice)):
        game.refresh_from_db()
        prompt = game.engine.prompt_for(game.state, seat)
        assert prompt is not None
        services.submit(game.pk, user, prompt["options"][0]["action"], game.seq, seat=seat)
    lines = " ".join(line["text"] for line in pages.log_lines(game, 0))
    assert lines and "Seat 1" not in lines and "Seat 2" not in lines


def test_the_whole_history_is_paged_and_keeps_hands_hidden(
    scenarios: None, alice: Any, bob: Any, carol: Any
) -> None:
    import random

    from games import pages, views
    from tests.games.helpers import human_move

    game = make_game(alice, "me", bob)
    picker = random.Random(4)
    users = {0: alice, 1: bob}
    for _ in range(views.HISTORY_PAGE + 5):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        human_move(game, users[game.prompted_seats()[0]], picker)
    game.refresh_from_db()
    total = game.moves.count()
    assert total > views.HISTORY_PAGE, "more moves than one page holds"
    url = reverse("history", args=[game.pk])
    first = _logged_in(carol).get(url + "?page=1").content.decode()
    last = _logged_in(carol).get(url).content.decode()
    # A spectator reads the public lines only; alice also reads her own private ones.
    spectator = pages.log_lines(game, None, limit=0, moves=list(game.moves.order_by("seq")))
    assert f'<span class="seq">{spectator[0]["seq"]}</span>' in first
    assert f'<span class="seq">{spectator[-1]["seq"]}</span>' in last
    assert f'<span class="seq">{spectator[-1]["seq"]}</span>' not in first
    assert 'aria-current="page">2<' in last
    own = pages.log_lines(game, 0, limit=0, moves=list(game.moves.order_by("seq")))
    public = {line["text"] for line in spectator}
    hidden = [line["text"] for line in own if line["text"] not in public]
    pages_read = "".join(
        _logged_in(carol).get(f"{url}?page={n}").content.decode()
        for n in range(1, -(-total // views.HISTORY_PAGE) + 1)
    )
    assert all(str(glossary.gloss("hre", line)) in pages_read for line in public)
    assert not [line for line in hidden if str(glossary.gloss("hre", line)) in pages_read]
    assert _logged_in(carol).get(url + "?page=99").status_code == 404
    private = make_game(alice, "me", "bot:random", public=False)
    assert _logged_in(carol).get(reverse("history", args=[private.pk])).status_code == 404


def test_a_local_set_up_says_who_to_log_in_as(settings: Any, alice: Any) -> None:
    settings.DEBUG = True
    assert "Log in as alice:" in _page(Client(), "home")
    settings.DEBUG = False
    assert "make run" not in _page(Client(), "home")


def test_a_finished_game_no_longer_says_whose_turn_it_is(
    scenarios: None, alice: Any, bob: Any
) -> None:
    import random

    from tests.games.helpers import human_move

    game = make_game(alice, "me", bob)
    client = _logged_in(alice)
    badge = '<span class="badge">turn</span>'
    picker, users = random.Random(2), {0: alice, 1: bob}
    for _ in range(30):  # past the Ruler draft, into the first player's turn
        if badge in client.get(reverse("game", args=[game.pk])).content.decode():
            break
        game.refresh_from_db()
        human_move(game, users[game.prompted_seats()[0]], picker)
    assert badge in client.get(reverse("game", args=[game.pk])).content.decode()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert badge not in client.get(reverse("game", args=[game.pk])).content.decode()
