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
