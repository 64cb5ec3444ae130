"""The site in a real browser: sign up, start an HRE game, play, and watch another player's move.

Debian's chromium driven by Playwright (never `playwright install`); the server is daphne on a
free port, on the run's PostgreSQL database and Redis, with bot turns on a thread (CHANCERY_TASKS).
"""

from __future__ import annotations

import re
import secrets
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.integration import support

pytestmark = pytest.mark.e2e
TIMEOUT_MS = 30_000
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "a long and unusual passphrase 42"


@pytest.fixture(scope="module")
def server(it_database: str, it_redis: str) -> Iterator[support.Process]:
    with support.daphne(support.service_env(it_database, it_redis, tasks="thread")) as proc:
        yield proc


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail(
            "Debian chromium is not installed (apt-get install -y chromium); .ci/run installs it"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Browser, server: support.Process) -> Iterator[Any]:
    """Fresh browser contexts (separate cookie jars: separate people) on the test server."""
    contexts = []

    def make() -> Page:
        context = browser.new_context(base_url=f"http://127.0.0.1:{server.port}")
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def sign_up(page: Page, prefix: str) -> str:
    """Sign up through the allauth form; the new user lands logged in on the lobby."""
    username = f"{prefix}{secrets.token_hex(3)}"
    page.goto("/accounts/signup/")
    page.fill('input[name="email"]', f"{username}@example.com")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.locator('form button[type="submit"]').last.click()
    page.wait_for_url("**/lobby/")
    expect(page.locator("header.site")).to_contain_text(username)
    return username


def create_hre_game(page: Page, second_seat: str, invite: str = "") -> str:
    """Create a two-player HRE game from /games/new/; the URL of its page."""
    page.goto("/games/new/")
    # No ORM here: Playwright's sync API runs an event loop on this thread.
    hre = page.locator('select[name="scenario"] option', has_text="Holy Roman Empire — base")
    page.select_option('select[name="scenario"]', hre.first.get_attribute("value"))
    page.select_option('select[name="players"]', "2")
    page.select_option('select[name="seat0"]', "me")
    page.select_option('select[name="seat1"]', second_seat)
    if invite:
        page.fill('input[name="invite1"]', invite)
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url("**/games/*/")
    return page.url


def join_seat(page: Page, url: str) -> None:
    """Take the seat one was invited to, from a tab whose game socket is held off.

    Work-around: the socket's first push redraws #prompt without the "Join this game" form
    (the pushed partial is rendered without a request, so `user` and the CSRF token are
    missing), so the join is clicked in a tab whose websocket never reaches the server.
    """
    tab = page.context.new_page()
    tab.route_web_socket(re.compile(r"/ws/games/"), lambda ws: None)
    tab.goto(url)
    tab.get_by_role("button", name="Join this game").click()
    tab.wait_for_url(url)
    expect(tab.locator("#prompt")).not_to_contain_text("Waiting for players")
    tab.close()


def seq_of(page: Page) -> int:
    return int(page.locator("#prompt").get_attribute("data-seq") or "-1")


def option_buttons(page: Page) -> Any:
    return page.locator("#prompt [data-option-button]")


def wait_for_seq_after(page: Page, seq: int) -> None:
    """Until the prompt bar is redrawn at a later seq (by the htmx answer or a websocket push)."""
    page.wait_for_function(
        "seq => Number(document.querySelector('#prompt')?.dataset.seq) > seq", arg=seq
    )


def test_a_new_player_signs_up_and_plays_against_a_bot(new_page: Any) -> None:
    page = new_page()
    sign_up(page, "solo")
    create_hre_game(page, "bot:random")
    played = 0
    while played < 6:
        # Our decision, or the end: the bot's turns arrive over the websocket.
        page.wait_for_function(
            "() => document.querySelector('#prompt [data-option-button]')"
            " || /The game is over/.test(document.querySelector('#prompt').textContent)"
        )
        if option_buttons(page).count() == 0:
            break
        seq = seq_of(page)
        option_buttons(page).first.click()
        wait_for_seq_after(page, seq)
        played += 1
    assert played == 6
    expect(page.locator("#log li")).not_to_have_count(0)


def test_a_second_player_sees_the_first_players_move_without_reloading(new_page: Any) -> None:
    first, second = new_page(), new_page()
    second_name = sign_up(second, "bob")
    sign_up(first, "alice")
    url = create_hre_game(first, "invite", invite=second_name)
    join_seat(second, url)
    second.goto(url)
    first.goto(url)  # opened after the start, so both pages show the dealt game
    for page in (first, second):
        expect(page.locator("#prompt")).not_to_contain_text("Waiting for players")
        page.evaluate("() => { window.__notReloaded = true; }")

    for _ in range(3):
        mover = next((p for p in (first, second) if option_buttons(p).count()), None)
        assert mover is not None, "neither player is prompted"
        watcher = second if mover is first else first
        seq = seq_of(watcher)
        assert seq == seq_of(mover)
        option_buttons(mover).first.click()
        wait_for_seq_after(watcher, seq)  # pushed over the websocket: the watcher did nothing
        wait_for_seq_after(mover, seq)
        assert seq_of(watcher) == seq_of(mover)
        log_seqs = watcher.locator("#log .seq").all_inner_texts()
        assert str(seq + 1) in log_seqs, log_seqs
    for page in (first, second):
        assert page.evaluate("() => window.__notReloaded === true"), "a page was reloaded"


LIVE_REGIONS = ("#prompt .ask", "#board", "#tableau", "#players", "#private", "#log ol")
NORMALIZE = """sel => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const copy = el.cloneNode(true);
  copy.querySelectorAll('.changed').forEach(e => {
    e.classList.remove('changed');  // the flash of a changed number (static/js/chancery.js)
    if (!e.classList.length) e.removeAttribute('class');
  });
  copy.querySelectorAll('[hx-swap-oob]').forEach(e => e.removeAttribute('hx-swap-oob'));
  copy.removeAttribute('hx-swap-oob');
  return copy.innerHTML.replace(/>\\s+</g, '><').replace(/\\s+/g, ' ').trim();
}"""


def regions(page: Page) -> dict[str, Any]:
    return {sel: page.evaluate(NORMALIZE, sel) for sel in LIVE_REGIONS}


def test_a_page_kept_up_by_pushes_of_changes_matches_a_fresh_load(new_page: Any) -> None:
    """The socket sends only what changed (games.pages.live_update: whole partials, sections and
    seat cards by id, new log lines appended); after every move of a game, each live region of
    the watcher's page is what a fresh load of the page shows."""
    first, second = new_page(), new_page()
    second_name = sign_up(second, "bob")
    sign_up(first, "alice")
    url = create_hre_game(first, "invite", invite=second_name)
    join_seat(second, url)
    second.goto(url)
    first.goto(url)
    fresh = second.context.new_page()
    fresh.route_web_socket(re.compile(r"/ws/games/"), lambda ws: None)  # a plain load, no pushes
    for page in (first, second):
        expect(page.locator("#prompt")).not_to_contain_text("Waiting for players")
    for _ in range(24):
        mover = next((p for p in (first, second) if option_buttons(p).count()), None)
        if mover is None:
            break
        seq = seq_of(second)
        option_buttons(mover).first.click()
        wait_for_seq_after(second, seq)
        wait_for_seq_after(first, seq)
        fresh.goto(url)
        assert seq_of(fresh) == seq_of(second)
        live, loaded = regions(second), regions(fresh)
        for sel in LIVE_REGIONS:
            assert live[sel] == loaded[sel], (
                sel,
                seq_of(second),
                first_difference(live, loaded, sel),
            )


def first_difference(live: dict[str, Any], loaded: dict[str, Any], sel: str) -> str:
    a, b = live[sel] or "", loaded[sel] or ""
    at = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    return f"pushed: {a[at - 120 : at + 120]!r}\nloaded: {b[at - 120 : at + 120]!r}"
