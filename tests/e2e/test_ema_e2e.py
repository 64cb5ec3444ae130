"""Empires of the Middle Ages in a real browser: a newcomer signs up, starts Charlemagne (27-charlemagne,
two players) against a random bot from /games/new/, and plays whole Rounds by clicking prompt buttons,
the bot's moves arriving over the websocket; the Round track on the EMA tableau advances and the log grows.

Reuses the e2e fixtures of test_play_in_browser (daphne on the run's PostgreSQL and Redis, Debian
chromium driven by Playwright, bot turns on a thread).
"""

from __future__ import annotations

import re
import time
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
ROUNDS_TO_PLAY = 2  # whole Rounds: the track goes from Round 1 to Round 3
BUDGET_S = 60  # the playing part; what fits in it is reported by the failure message
# Options that move the game on (end the Player-Turn, finish a step, decline what the bot offers)
# come first; options that open a side-menu the first option would only cancel come last.
PREFER = (
    "End the Player-Turn",
    "Taxation is finished",
    "Play no Holding card",
    "Spend 0 extra gold",
    "Decline",
    "None",
)
AVOID = ("Cancel", "Offer an exchange", "Propose a binding agreement", "Propose to cancel")
ROUND_HEADING = re.compile(r"Round (\d+) of (\d+)")


def create_charlemagne_game(page: Page) -> str:
    """Create the two-player Charlemagne game (scenario 27-charlemagne) against a random bot."""
    page.goto("/games/new/")
    # The solo scenario has the same title; the two-player one is the "(2 players)" entry.
    two = page.locator('select[name="scenario"] option', has_text="Charlemagne").filter(
        has_text="(2 players)"
    )
    expect(two).to_have_count(1)
    page.select_option('select[name="scenario"]', two.get_attribute("value"))
    page.select_option('select[name="players"]', "2")
    page.select_option('select[name="seat0"]', "me")
    page.select_option('select[name="seat1"]', "bot:random")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url("**/games/*/")
    return page.url


def round_now(page: Page) -> int:
    """The Round the EMA tableau's track shows ("Round n of m"; its current cell agrees)."""
    heading = page.locator("#tableau .ema-time h2").first.inner_text()
    found = ROUND_HEADING.search(heading)
    assert found, heading
    current = page.locator("#tableau .ema-rounds li.now .n")
    if current.count():
        assert current.first.inner_text().strip() == found.group(1), heading
    return int(found.group(1))


def log_state(page: Page) -> tuple[int, int]:
    """(lines in the log, newest seq in it)."""
    seqs = [int(s) for s in page.locator("#log li .seq").all_inner_texts() if s.strip().isdigit()]
    return len(seqs), max(seqs, default=0)


def pick(labels: list[str]) -> int:
    for i, label in enumerate(labels):
        if label.startswith(PREFER):
            return i
    return next((i for i, label in enumerate(labels) if not label.startswith(AVOID)), 0)


def wait_for_my_decision(page: Page) -> bool:
    """Until the prompt bar offers us buttons (True) or says the game is over (False)."""
    page.wait_for_function(
        "() => document.querySelector('#prompt [data-option-button]')"
        " || /The game is over/.test(document.querySelector('#prompt').textContent)"
    )
    return option_buttons(page).count() > 0


def test_a_newcomer_plays_charlemagne_against_a_bot(new_page: Any) -> None:  # noqa: F811
    page = new_page()
    script_errors: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))
    sign_up(page, "karl")
    create_charlemagne_game(page)

    # The EMA board: the map of Area registers, the tableau with the Round track, one card per seat.
    expect(page.locator("#board svg.ema-map")).to_be_visible()
    expect(page.locator("#tableau .ema-time")).to_contain_text("Round 1 of")
    expect(page.locator("#players .seat-card")).to_have_count(2)
    expect(page.locator("#players")).to_contain_text("Frankish")
    first_round = round_now(page)
    lines_before, newest_before = log_state(page)

    start = time.monotonic()
    clicks = 0
    rounds_seen = [first_round]
    map_clicks = 0
    while time.monotonic() - start < BUDGET_S:
        if not wait_for_my_decision(page):
            break
        # The tableau comes with the socket push, a moment after the prompt bar.
        rounds_seen.append(round_now(page))
        if rounds_seen[-1] >= first_round + ROUNDS_TO_PLAY:
            break
        seq = seq_of(page)
        labels = option_buttons(page).all_inner_texts()
        choice = pick(labels)
        # Once, answer a Target choice from the map: a register naming one option submits it.
        area = page.locator(f'#board g.area.pick[data-option="{choice}"]')
        if (
            map_clicks == 0
            and "target" in page.locator("#prompt .ask").inner_text()
            and area.count() == 1
        ):
            area.click()
            map_clicks += 1
        else:
            option_buttons(page).nth(choice).click()
        wait_for_seq_after(page, seq)
        clicks += 1
    elapsed = time.monotonic() - start

    # The track may trail the prompt bar by one push: give it the socket's moment.
    expect(page.locator("#tableau .ema-time h2").first).to_contain_text(
        f"Round {max(rounds_seen)} of", timeout=10_000
    )
    reached = round_now(page)
    print(
        f"\nEMA: {clicks} decisions ({map_clicks} on the map) in {elapsed:.1f} s, "
        f"Round {first_round} -> {reached}, seq {seq_of(page)}"
    )
    assert reached >= first_round + ROUNDS_TO_PLAY, (
        f"only Round {first_round} -> {reached} in {elapsed:.0f} s ({clicks} decisions)"
    )
    assert rounds_seen == sorted(rounds_seen), f"the Round track went back: {rounds_seen}"
    lines_after, newest_after = log_state(page)
    assert newest_after > newest_before, (newest_before, newest_after)
    assert lines_after > lines_before, (lines_before, lines_after)
    expect(page.locator("#log")).not_to_contain_text("Nothing has happened yet")
    assert not script_errors, script_errors
