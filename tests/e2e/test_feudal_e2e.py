"""Feudal Lords in a real browser: a newcomer signs up, copies a starter deck, checks it in the
deck builder (live htmx validation), and plays it against a bot for a few turns.

Reuses the e2e fixtures of test_play_in_browser (daphne on the run's PostgreSQL and Redis,
Debian chromium driven by Playwright, bot turns on a thread).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_play_in_browser import (  # noqa: F401  (fixtures are used by name)
    browser,
    new_page,
    option_buttons,
    seq_of,
    server,
    sign_up,
    wait_for_seq_after,
)

pytestmark = pytest.mark.e2e
STARTER = "Over-City Starter"  # exactly 55 Stockpile cards: one fewer is illegal


def copy_and_check_starter(page: Page) -> None:
    """From the deck list: copy the starter, break it by one card, see the error, mend it."""
    page.goto("/decks/")
    page.get_by_role("button", name=f"Copy {STARTER} to my decks").click()
    page.wait_for_url(re.compile(r".*/decks/\d+/$"))
    status = page.locator("#deck-status")
    expect(status).to_contain_text("This deck is legal: 55 Stockpile cards")
    first = page.locator("#deck-state .stock-list li").first
    first.get_by_role("button", name=re.compile("^Remove one")).click()
    expect(status).to_contain_text("it needs at least 55")
    page.locator("#deck-state .stock-list li").first.get_by_role(
        "button", name=re.compile("^Add one")
    ).click()
    expect(status).to_contain_text("This deck is legal")
    page.select_option('select[name="type"]', "weapon")
    expect(page.locator("#catalogue .fl-card").first).to_contain_text("Weapon")


def create_game_with_my_deck(page: Page) -> str:
    page.goto("/games/new/")
    duel = page.locator('select[name="scenario"] option', has_text="Feudal Lords — duel")
    page.select_option('select[name="scenario"]', duel.first.get_attribute("value"))
    page.select_option('select[name="players"]', "2")
    page.select_option('select[name="seat0"]', "me")
    page.select_option('select[name="seat1"]', "bot:random")
    mine = page.locator('select[name="deck0"] option', has_text=f"My deck: {STARTER}")
    page.select_option('select[name="deck0"]', mine.first.get_attribute("value"))
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url("**/games/*/")
    return page.url


def test_a_newcomer_builds_a_deck_and_plays_it_against_a_bot(new_page: Any) -> None:  # noqa: F811
    page = new_page()
    sign_up(page, "lord")
    copy_and_check_starter(page)
    create_game_with_my_deck(page)
    # The table: two seats' cards, my hand, and Mother Ash (the Over-City leader) on my side.
    expect(page.locator(".fl-table")).to_have_count(2)
    expect(page.locator(".fl-table.mine")).to_contain_text("Mother Ash")
    played = 0
    while played < 12:
        page.wait_for_function(
            "() => document.querySelector('#prompt [data-option-button]')"
            " || /The game is over/.test(document.querySelector('#prompt').textContent)"
        )
        if option_buttons(page).count() == 0:
            break
        expect(page.locator("#private .fl-hand.fl-own")).to_be_visible()
        seq = seq_of(page)
        # Prefer moving the game on (drawing, ending phases) over spending markers forever.
        labels = option_buttons(page).all_inner_texts()
        pick = next(
            (
                i
                for i, label in enumerate(labels)
                if not label.startswith(("Spend a +1", "Exchange"))
            ),
            0,
        )
        option_buttons(page).nth(pick).click()
        wait_for_seq_after(page, seq)
        played += 1
    assert played == 12
    expect(page.locator("#log li")).not_to_have_count(0)
    expect(page.locator("#log")).to_contain_text("Turn 2")
