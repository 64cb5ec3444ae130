"""A newcomer in a real browser, on a phone and on a laptop (issue 12): the landing page, sign-up,
a new game whose refused submission keeps its fields, a game against a bot whose every
abbreviation says what it means, a quick double click that makes one move, and no page that
scrolls sideways or logs a console error.

Set CHANCERY_SHOTS=/some/folder to keep screenshots of each page at 390 and 1440 px wide.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Game, Move
from tests.e2e.test_lifecycle_e2e import orm, shoot
from tests.e2e.test_play_in_browser import browser, new_page, server, sign_up  # noqa: F401

pytestmark = pytest.mark.e2e
WIDTHS = ((390, 844), (1440, 900))


def watch_console(page: Page) -> list[str]:
    """Console errors of the page, as they come (a refused form's 400 is the only one allowed)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def fits(page: Page, what: str) -> None:
    """At each width the page does not scroll sideways."""
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"{what} scrolls sideways at {width} px ({wide} px wide)"
    shoot(page, what)


def _moves_by(game_id: int, seat: int, after: int) -> int:
    return Move.objects.filter(game_id=game_id, seat=seat, seq__gt=after).count()


def _status(game_id: int) -> str:
    return Game.objects.get(pk=game_id).status


def test_a_newcomer_lands_signs_up_creates_a_game_and_plays(new_page: Any) -> None:  # noqa: F811
    page = new_page()
    errors = watch_console(page)
    page.goto("/")
    expect(page.locator("h1")).to_have_text("Chancery")
    expect(page.locator(".landing-text h2")).to_have_count(3)
    fits(page, "landing")
    for path, what in (("/rules/", "rules-index"), ("/rules/ema/glossary/", "glossary")):
        page.goto(path)
        fits(page, what)
    page.goto("/")
    page.locator(".hero").get_by_role("link", name=re.compile("Sign up")).click()
    expect(page.locator("h1")).to_have_text("Sign up")
    fits(page, "signup")
    page.goto("/accounts/login/")
    expect(page.locator("h1")).to_have_text("Log in")
    fits(page, "login")
    sign_up(page, "newbie")
    fits(page, "lobby")

    # New game: the form follows the scenario, and a refused submission keeps every field.
    page.goto("/games/new/")
    fits(page, "new-game")
    melee = page.locator("#scenario option", has_text="Feudal Lords — melee").get_attribute("value")
    page.select_option("#scenario", melee)
    expect(page.locator("#players")).to_have_value("3")
    expect(page.locator(".seat-choice:visible")).to_have_count(3)
    page.select_option("#players", "4")
    expect(page.locator(".seat-choice:visible")).to_have_count(4)
    page.select_option("#seat1", "invite")
    page.fill("input[name=invite1]", "nobody-at-all")
    page.locator(".options-set:visible summary").click()
    page.select_option("#opt_feudal_wounds", '"attack"')
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#seat1-error")).to_have_text("There is no player called nobody-at-all.")
    expect(page.locator("#scenario")).to_have_value(melee)
    expect(page.locator("#players")).to_have_value("4")
    expect(page.locator("#seat1")).to_have_value("invite")
    expect(page.locator("input[name=invite1]")).to_have_value("nobody-at-all")
    expect(page.locator("#opt_feudal_wounds")).to_have_value('"attack"')
    fits(page, "new-game-refused")
    errors[:] = [e for e in errors if "400" not in e]  # the refusal's own status

    # A game against a bot, with a rule variant chosen from a menu.
    hre = page.locator("#scenario option", has_text="Holy Roman Empire — base").get_attribute(
        "value"
    )
    page.select_option("#scenario", hre)
    page.select_option("#players", "2")
    page.select_option("#seat0", "me")
    page.select_option("#seat1", "bot:random")
    page.locator(".options-set:visible summary").click()
    page.select_option("#opt_hre_natural_one", '"natural"')
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url("**/games/*/")
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    expect(page.locator("#prompt [data-option-button]").first).to_be_visible()
    page.wait_for_function("() => document.querySelector('#chat')")  # the socket's first push
    expect(page).to_have_title(re.compile("^● Your turn"))
    fits(page, "game")
    untitled = page.evaluate("[...document.querySelectorAll('abbr:not([title])')].length")
    assert untitled == 0
    assert "AMB-" not in page.content()

    # A quick double click on a choice makes one move.
    seq = int(page.locator("#prompt").get_attribute("data-seq") or "0")
    page.locator("#prompt [data-option-button]").first.dblclick()
    page.wait_for_function(
        "seq => Number(document.querySelector('#prompt')?.dataset.seq) > seq", arg=seq
    )
    page.wait_for_timeout(500)
    assert orm(_moves_by, game_id, 0, seq) == 1
    assert "?action=" not in page.url

    for path, what in (
        ("/lobby/", "lobby-with-game"),
        ("/profile/", "profile"),
        ("/decks/", "decks"),
    ):
        page.goto(path)
        fits(page, what)
    assert errors == []


# --- the whole tour: every page at both widths, mid-game and finished games ---------------------


def _seat_game(game: str, slug: str, users: list[Any], moves: int, seed: int) -> int:
    """A game of `game` between the users (one seat each), `moves` seeded random moves in."""
    import random

    from games import services
    from games.models import Scenario

    scenario = Scenario.objects.get(game=game, slug=slug)
    specs = [services.SeatSpec("me")] + [
        services.SeatSpec("invite", username=u.username) for u in users[1:]
    ]
    created = services.create_game(users[0], scenario, len(users), specs)
    for user in users[1:]:
        services.join(created.pk, user)
    picker = random.Random(seed)
    for _ in range(moves):
        row = Game.objects.get(pk=created.pk)
        if row.status != Game.Status.ACTIVE:
            break
        seat = row.prompted_seats()[0]
        prompt = row.engine.prompt_for(row.state, seat)
        action = picker.choice(prompt["options"])["action"]
        services.submit(row.pk, users[seat], action, row.seq, seat=seat)
    return int(created.pk)


def _checked(page: Page, path: str, what: str, game_page: bool = False) -> None:
    page.goto(path)
    page.wait_for_load_state("load")
    fits(page, what)
    if game_page:
        untitled = page.evaluate("[...document.querySelectorAll('abbr:not([title])')].length")
        assert untitled == 0, f"{what}: an abbreviation without its meaning"
        marked = page.evaluate("document.querySelectorAll('abbr[title]').length")
        assert marked > 0, f"{what}: no abbreviation explained at all"
        text = page.inner_text("main")
        assert not re.search(r"\b(AMB|TC)-\d+|\(A-\d+\)|\(s\)|\b\d+th\b(?<!\b1[1-3]th)", text), what


def test_a_tour_of_every_page_at_both_widths(
    browser: Any,  # noqa: F811
    server: Any,  # noqa: F811
    make_user: Any,
) -> None:
    """Landing, sign-up, log-in, lobby, new game for each game, each game's page mid-game, decks,
    the deck builder, profile, rules, glossaries, results and replay: none scrolls sideways at
    390 or 1440 px, none logs a console error, and on game pages every abbreviation has a title
    and no internal id or "(s)" shows."""
    from tests.integration import support

    alice, bob = orm(make_user, "tour"), orm(make_user, "tourb")
    base = f"http://127.0.0.1:{server.port}"
    context = browser.new_context(base_url=base)
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors = watch_console(page)
    for path, what in (
        ("/", "tour-landing"),
        ("/accounts/signup/", "tour-signup"),
        ("/accounts/login/", "tour-login"),
    ):
        _checked(page, path, what)
    context.add_cookies(
        [{"name": "sessionid", "value": orm(support.session_cookie, alice), "url": base}]
    )
    for path, what in (
        ("/lobby/", "tour-lobby"),
        ("/profile/", "tour-profile"),
        ("/decks/", "tour-decks"),
        ("/rules/", "tour-rules"),
        ("/feudal/cards/", "tour-cards"),
    ):
        _checked(page, path, what)
    for game in ("hre", "ema", "feudal"):
        _checked(page, f"/games/new/?game={game}", f"tour-new-{game}")
        assert page.locator("#scenario").evaluate("s => s.selectedOptions[0].dataset.game") == game
        shown = page.locator(".options-set:not([hidden]) .option-field:not([hidden])")
        assert shown.count() > 0, f"{game}: the scenario's options are offered"
        _checked(page, f"/rules/{game}/", f"tour-rules-{game}")
        _checked(page, f"/rules/{game}/glossary/", f"tour-glossary-{game}")
    page.goto("/decks/")
    page.fill("input[name=name]", "Tour deck")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url("**/decks/*/")
    fits(page, "tour-deck-builder")

    # Each game's page mid-game, as a player.
    for game, slug, moves in (
        ("hre", "base", 60),
        ("ema", "27-charlemagne", 60),
        ("feudal", "duel", 40),
    ):
        game_id = orm(_seat_game, game, slug, [alice, bob], moves, 7)
        assert orm(_status, game_id) == Game.Status.ACTIVE
        _checked(page, f"/games/{game_id}/", f"tour-{game}-mid-game", game_page=True)
        _checked(page, f"/games/{game_id}/log/", f"tour-{game}-log")

    # A finished game: its results and replay.
    done = orm(_seat_game, "ema", "27-charlemagne-solo", [alice], 5000, 3)
    assert orm(_status, done) == Game.Status.FINISHED
    _checked(page, f"/games/{done}/", "tour-finished", game_page=True)
    _checked(page, f"/games/{done}/results/", "tour-results")
    _checked(page, f"/games/{done}/replay/", "tour-replay", game_page=True)
    context.close()
    assert errors == []


def _duel_with_artifacts(alice: Any, bob: Any) -> int:
    """A Feudal Lords duel whose two starter decks each carry an Artifact to place, so both seats
    decide at once (under_city, a seat's default, has none since FL rules version 7)."""
    from games import services
    from games.boards.feudal import decks
    from games.models import Scenario

    scenario = Scenario.objects.get(game="feudal", slug="duel")
    specs = [services.SeatSpec("me"), services.SeatSpec("invite", username=bob.username)]
    game = decks.create_game(
        alice, scenario, 2, specs, ["starter:over_city", "starter:tunnel_mixed"]
    )
    decks.join(bob, game, "starter:tunnel_mixed")
    game.refresh_from_db()
    assert game.prompted_seats() == [0, 1]
    return int(game.pk)


def test_two_seats_deciding_at_once_both_succeed_in_the_browser(
    browser: Any,  # noqa: F811
    server: Any,  # noqa: F811
    make_user: Any,
) -> None:
    """Feudal Lords' opening Artifacts are chosen by both seats at once (FL-SETUP): two players
    clicking at the same moment both make their move, neither is refused as stale."""
    from tests.integration import support

    alice, bob = orm(make_user, "both"), orm(make_user, "bothb")
    game_id = orm(_duel_with_artifacts, alice, bob)
    base = f"http://127.0.0.1:{server.port}"
    pages = []
    for user in (alice, bob):
        context = browser.new_context(base_url=base, viewport={"width": 390, "height": 844})
        context.set_default_timeout(30_000)
        context.add_cookies(
            [{"name": "sessionid", "value": orm(support.session_cookie, user), "url": base}]
        )
        page = context.new_page()
        page.goto(f"/games/{game_id}/")
        page.wait_for_function("() => document.querySelector('#chat')")
        expect(page.locator("#prompt [data-option-button]").first).to_be_visible()
        pages.append(page)
    errors = [watch_console(p) for p in pages]
    # Both click at once, the second before its page has heard of the first's move (as a rule:
    # the unit test test_welcome.test_two_seats_deciding_at_once_both_succeed makes it certain).
    # The click is the button's own, in the page: a mouse click is a press and a release, and a
    # push that redraws the prompt bar between the two sends the click to no button at all (a
    # player would click again; in this test the move was then missing, CI of stop 26).
    for page in pages:
        page.evaluate(
            "() => [...document.querySelectorAll('#prompt [data-option-button]')].pop().click()"
        )
    for seat in (0, 1):
        for _ in range(300):
            if orm(_moves_by, game_id, seat, 0) == 1:
                break
            pages[seat].wait_for_timeout(100)
        assert orm(_moves_by, game_id, seat, 0) == 1, f"seat {seat + 1}'s move was refused"
    for page in pages:
        expect(page.locator("#notice .error")).to_have_count(0)
        page.context.close()
    assert errors == [[], []]
