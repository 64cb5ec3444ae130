"""The game's life in a real browser: a bot shown thinking, the connection lost and found again
(a click made meanwhile is sent, once), and a resignation.

Set CHANCERY_SHOTS=/some/folder to keep screenshots of each state at 390 and 1440 px wide.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.db import connection
from playwright.sync_api import Browser, Page, expect

from games import services
from games.models import Game, Scenario
from tests.e2e.test_play_in_browser import TIMEOUT_MS, browser  # noqa: F401
from tests.integration import support

pytestmark = pytest.mark.e2e
T = TypeVar("T")
WIDTHS = (390, 1440)


def orm(fn: Callable[..., T], *args: Any) -> T:
    """Run database code off this thread: Playwright's sync API keeps an event loop on it."""

    def run() -> T:
        try:
            return fn(*args)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def shoot(page: Page, name: str) -> None:
    """Keep a screenshot of the page at each width (when CHANCERY_SHOTS names a folder)."""
    folder = os.environ.get("CHANCERY_SHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=f"{folder}/{name}-{width}.png")
    page.set_viewport_size({"width": 1440, "height": 900})


def _game(creator: Any, seats: list[services.SeatSpec], joiner: Any = None) -> int:
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(creator, scenario, len(seats), seats)
    if joiner is not None:
        services.join(game.pk, joiner)
    return game.pk


def _seq(game_id: int) -> int:
    return Game.objects.get(pk=game_id).seq


def _status(game_id: int) -> str:
    return Game.objects.get(pk=game_id).status


def _session(user: Any) -> str:
    return support.session_cookie(user)


@pytest.fixture
def people(make_user: Any) -> dict[str, Any]:
    return {"alice": orm(make_user, "alice"), "bob": orm(make_user, "bob")}


@pytest.fixture
def open_as(browser: Browser) -> Iterator[Callable[[Any, int], Page]]:  # noqa: F811
    contexts = []

    def make(user: Any, port: int) -> Page:
        base = f"http://127.0.0.1:{port}"
        context = browser.new_context(base_url=base, viewport={"width": 1440, "height": 900})
        context.set_default_timeout(TIMEOUT_MS)
        context.add_cookies([{"name": "sessionid", "value": orm(_session, user), "url": base}])
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def test_a_bot_that_is_thinking_shows_as_such(
    it_database: str, it_redis: str, people: dict[str, Any], open_as: Any, settings: Any
) -> None:
    # Bot turns go to Celery, and no worker runs: the bot stays "thinking". This process queues
    # to the same broker: when the seed has the bot draft first, its turn is owed from the game's
    # creation here, and run in a thread it would end the "thinking" before the page is checked.
    support.use_broker(settings, it_redis)
    env = support.service_env(it_database, it_redis, tasks="celery")
    alice = people["alice"]
    with support.daphne(env) as server:
        seats = [services.SeatSpec("me"), services.SeatSpec("bot", bot="search")]
        game_id = orm(_game, alice, seats)
        page = open_as(alice, server.port)
        page.goto(f"/games/{game_id}/")
        thinking = page.locator("#prompt .thinking")
        # Alice decides until the turn passes to the bot (the draft's order depends on the seed).
        for _ in range(12):
            page.wait_for_selector("#prompt .thinking, #prompt [data-option-button]")
            if thinking.count():
                break
            seq = int(page.locator("#prompt").get_attribute("data-seq") or "0")
            page.locator("#prompt [data-option-button]").first.click()
            page.wait_for_function(
                "seq => Number(document.querySelector('#prompt')?.dataset.seq) > seq", arg=seq
            )
        expect(thinking).to_contain_text("Search — normal (seat 2) is thinking…")
        shoot(page, "bot-thinking")


def test_the_page_says_when_the_connection_is_lost_and_sends_a_click_made_meanwhile(
    it_database: str, it_redis: str, people: dict[str, Any], open_as: Any
) -> None:
    env = support.service_env(it_database, it_redis, tasks="thread")
    alice = people["alice"]
    server = support.start_daphne(env)
    try:
        game_id = orm(_game, alice, [services.SeatSpec("me"), services.SeatSpec("me")])
        page = open_as(alice, server.port)
        page.goto(f"/games/{game_id}/")
        expect(page.locator("#prompt [data-option-button]").first).to_be_visible()
        page.wait_for_function("() => document.querySelector('#chat')")  # the socket's first push
        seq = orm(_seq, game_id)
        banner = page.locator("#connection")

        support.kill(server)
        expect(banner).to_have_text("Connection lost — reconnecting…")
        shoot(page, "connection-lost")
        page.locator("#prompt [data-option-button]").first.click()
        expect(banner).to_contain_text("your choice will be sent when the connection is back")
        shoot(page, "connection-lost-click")
        assert orm(_seq, game_id) == seq

        server = support.start_daphne(env, port=server.port)
        page.wait_for_function(
            "seq => Number(document.querySelector('#prompt')?.dataset.seq) > seq", arg=seq
        )
        expect(banner).to_have_attribute("data-state", "back")
        shoot(page, "connection-back")
        page.wait_for_timeout(3000)  # any further resend would land now
        assert orm(_seq, game_id) == seq + 1, "the choice was sent once"
    finally:
        server.stop()


def test_a_player_resigns_from_the_game_page(
    it_database: str, it_redis: str, people: dict[str, Any], open_as: Any
) -> None:
    env = support.service_env(it_database, it_redis, tasks="thread")
    alice, bob = people["alice"], people["bob"]
    with support.daphne(env) as server:
        seats = [services.SeatSpec("me"), services.SeatSpec("invite", username=bob.username)]
        game_id = orm(_game, alice, seats, bob)
        page = open_as(alice, server.port)
        page.goto(f"/games/{game_id}/")
        shoot(page, "before-resign")
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Resign").click()
        expect(page.locator("#prompt")).to_contain_text("It ended with a resignation.")
        expect(page.locator("#prompt table.result")).to_contain_text("(resigned)")
        assert orm(_status, game_id) == "finished"
        shoot(page, "resigned")
