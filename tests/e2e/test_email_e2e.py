"""Correspondence play end to end in Chromium (issues 5 and 18): a player gets the turn mail, follows
its link and makes the move; a Pass followed at once by another question for the same player
(HRE Pass steps 2, 4, 5) mails that player again once their page is closed; a trivial answer
(declining a Title or further sales) is made from its one-click link, and the "Done" page shows
the next question when there is one.

The daphne server sends real SMTP to an aiosmtpd server this test starts, and its SITE_URL is its
own address, so the links in the mail are the ones a player would click. Turn mail goes out when a
seat's decision begins and its player has no page open on the game (games.notify; the turn-mail
delay is 0 here); bot and mail tasks run on the server's thread after the commit.

Alice (her page open) and Bob (his page closed) play HRE. Whenever Bob must decide, the test waits
for his mail and follows its game link; once he has made a move that way he passes from the page
and closes it while Pass asks him more, and the mail for that question comes; a mail offering a
trivial answer is answered through its signed one-click link and the confirmation page.
"""

from __future__ import annotations

import email
import logging
import os
import re
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Page, expect

from tests.e2e.test_play_in_browser import (  # noqa: F401  (fixtures are used by name)
    browser,
    create_hre_game,
    join_seat,
    new_page,
    option_buttons,
    seq_of,
    sign_up,
    wait_for_seq_after,
)
from tests.integration import support

pytestmark = pytest.mark.e2e
MAIL_TIMEOUT_S = 20
BUDGET_S = 75
GAME_LINK = re.compile(r"^Open the game: (\S+)$", re.MULTILINE)
LOG_HAS_SEQ = (
    "s => [...document.querySelectorAll('#log .seq')].some(e => e.textContent.trim() === s)"
)
QUICK_LINK = re.compile(r"^ {2}(.+): (\S+/mail/act/\S+/)$", re.MULTILINE)


class Collector:
    """An aiosmtpd handler that keeps every message it is given (on aiosmtpd's own thread)."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.lock = threading.Lock()
        self.port = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        message = email.message_from_bytes(envelope.content, policy=default_policy)
        with self.lock:
            self.messages.append(message)  # type: ignore[arg-type]
        return "250 Message accepted"

    def to(self, address: str, subject: str = "") -> list[EmailMessage]:
        with self.lock:
            return [
                m for m in self.messages if address in str(m["To"]) and subject in str(m["Subject"])
            ]

    def wait_for(
        self, address: str, count: int, timeout: float = MAIL_TIMEOUT_S, subject: str = ""
    ) -> EmailMessage:
        """The count-th mail to an address (1-based) with this in its subject, once it has arrived."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            mails = self.to(address, subject)
            if len(mails) >= count:
                return mails[count - 1]
            time.sleep(0.1)
        raise AssertionError(
            f"mail {count} to {address} did not arrive within {timeout} s; "
            f"got {[str(m['Subject']) for m in self.to(address)]}"
        )


@pytest.fixture(scope="module")
def smtp() -> Iterator[Collector]:
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command
    collector = Collector()
    collector.port = support.free_port()
    controller = Controller(collector, hostname="127.0.0.1", port=collector.port)
    controller.start()
    try:
        yield collector
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def server(it_database: str, it_redis: str, smtp: Collector) -> Iterator[support.Process]:
    """daphne mailing through the test's SMTP server, its links naming its own address.

    The port is chosen first (support.start_daphne picks its own) so SITE_URL can name it.
    """
    port = support.free_port()
    env = support.service_env(
        it_database,
        it_redis,
        tasks="thread",
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp.port),
        EMAIL_USE_TLS="false",
        EMAIL_HOST_USER="",
        EMAIL_HOST_PASSWORD="",
        SITE_URL=f"http://127.0.0.1:{port}",
        CHANCERY_TURN_MAIL_DELAY="0",
    )
    proc = support.start(
        f"daphne-{port}",
        [
            str(support.BIN / "daphne"),
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        env,
        port,
    )
    try:
        deadline = time.monotonic() + 40
        while True:
            if proc.popen.poll() is not None:
                raise RuntimeError(f"daphne exited with {proc.popen.returncode}:\n{proc.output()}")
            try:
                if support.http_request(port, "GET", "/accounts/login/")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"daphne on port {port} did not answer:\n{proc.output()}")
            time.sleep(0.2)
        yield proc
    finally:
        proc.stop()


def body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None, message
    return str(part.get_content()).replace("\r\n", "\n")


def path_of(url: str, port: int) -> str:
    """The path of a link from the mail, after checking it names the server (SITE_URL)."""
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc) == ("http", f"127.0.0.1:{port}"), url
    return parts.path


def watching(database_url: str, username: str, game_id: int) -> int:
    """Open sockets of a player on a game (games.notify's Presence rows): mail waits while any exist."""
    with psycopg.connect(
        database_url.replace("postgres://", "postgresql://", 1), autocommit=True
    ) as conn:
        row = conn.execute(
            "SELECT count(*) FROM games_presence p JOIN auth_user u ON u.id = p.user_id"
            " WHERE u.username = %s AND p.game_id = %s",
            (username, game_id),
        ).fetchone()
    return int(row[0]) if row else 0


def wait_until_not_watching(database_url: str, username: str, game_id: int) -> None:
    deadline = time.monotonic() + 10
    while watching(database_url, username, game_id):
        assert time.monotonic() < deadline, f"{username}'s closed page still counts as open"
        time.sleep(0.05)


def pick(page: Page) -> int:
    """The first option that is not a Pass (passing would end that player's game early)."""
    labels = option_buttons(page).all_inner_texts()
    return next((i for i, label in enumerate(labels) if label.strip() != "Pass"), 0)


def play_while_prompted(page: Page, may_pass: bool = False) -> tuple[int, bool]:
    """Click options on a page until its player no longer decides, or (when `may_pass`) until
    they have passed: (how many moves were made, whether the last was a Pass)."""
    moves = 0
    while option_buttons(page).count():
        seq = seq_of(page)
        labels = [label.strip() for label in option_buttons(page).all_inner_texts()]
        passing = may_pass and "Pass" in labels
        option_buttons(page).nth(labels.index("Pass") if passing else pick(page)).click()
        wait_for_seq_after(page, seq)
        moves += 1
        if passing:
            return moves, True
    return moves, False


def check_html_mail(page: Page, mail: EmailMessage) -> None:
    """The HTML part as a phone and a desktop show it: no sideways scroll, the question as the
    heading, every one-click answer and the game link as buttons (screenshots in CHANCERY_SHOTS)."""
    html_part = mail.get_body(preferencelist=("html",))
    assert html_part is not None, "no HTML part"
    html = str(html_part.get_content())
    tab = page.context.new_page()
    folder = os.environ.get("CHANCERY_SHOTS")
    for width in (390, 1440):
        tab.set_viewport_size({"width": width, "height": 900})
        tab.set_content(html)
        overflow = tab.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the mail scrolls sideways by {overflow} px at {width} px"
        expect(tab.locator("h1")).to_be_visible()
        buttons = tab.get_by_role("link", name="Open the game")
        expect(buttons).to_be_visible()
        assert len(QUICK_LINK.findall(body(mail))) == tab.locator('a[href*="/mail/act/"]').count()
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            tab.screenshot(path=str(Path(folder) / f"mail-turn-{width}.png"), full_page=True)
    tab.close()


def test_a_player_gets_the_turn_mail_follows_its_link_and_moves(
    new_page: Any,  # noqa: F811 - the fixture of the same name, imported above
    smtp: Collector,
    server: support.Process,
    it_database: str,
) -> None:
    port = server.port
    bob = new_page()
    bob_name = sign_up(bob, "bob")
    bob_address = f"{bob_name}@example.com"
    bob.goto("/lobby/")
    alice = new_page()
    sign_up(alice, "alice")
    url = create_hre_game(alice, "invite", invite=bob_name)
    game_id = int(re.search(r"/games/(\d+)/", url).group(1))  # type: ignore[union-attr]
    join_seat(bob, url)  # from a tab whose socket never opens: Bob has no page on the game
    alice.goto(url)
    expect(alice.locator("#prompt")).not_to_contain_text("Waiting for players")
    assert watching(it_database, bob_name, game_id) == 0

    start = time.monotonic()
    mails_read = 0
    alice_moved = False  # since Bob's last mail
    via_game_link: list[
        tuple[int, int]
    ] = []  # (seq before, seq after) of moves made from the game link
    via_quick_link: tuple[int, int] | None = None
    quick_label = ""
    passed_then_mailed: list[int] = []  # seqs of Bob's Passes after which he was mailed again
    passed_at: int | None = None  # the seq after Bob's Pass, while he is still asked more
    while via_quick_link is None:
        assert time.monotonic() - start < BUDGET_S, (
            f"no one-click mail within {BUDGET_S} s; game-link moves: {via_game_link}"
        )
        if option_buttons(alice).count():
            seq = seq_of(alice)
            option_buttons(alice).nth(pick(alice)).click()
            wait_for_seq_after(alice, seq)
            alice_moved = True
            continue
        # Alice waits, so Bob decides: his mail comes, since he has no page open on the game.
        expect(alice.locator("#prompt")).to_contain_text(f"Waiting for {bob_name}")
        mails_read += 1
        mail = smtp.wait_for(bob_address, mails_read, subject="Your decision")
        # (Django folds a non-ASCII Subject after "Subject:", so it unfolds with a leading space.)
        assert str(mail["Subject"]).strip().startswith("Your decision in Holy Roman Empire"), mail[
            "Subject"
        ]
        assert mail["List-Unsubscribe"], "no one-click unsubscribe header"
        text = body(mail)
        assert f"{bob_name}, it is your decision" in text, text
        game_link = GAME_LINK.search(text)
        assert game_link, text
        assert path_of(game_link.group(1), port) == f"/games/{game_id}/"
        quick = QUICK_LINK.findall(text)
        seq = seq_of(alice)
        if passed_at is not None:
            assert seq == passed_at, "the mail after the Pass asks the question right after it"
            passed_then_mailed.append(passed_at)
            passed_at = None
        assert not any(label == "Pass" for label, _ in quick), "Pass ends a round: never one-click"

        if quick and via_game_link:
            # A trivial decision: answer from the mail. GET only shows the confirmation
            # (mail scanners fetch links); its button POSTs and the move is made once.
            quick_label, quick_url = quick[0]
            confirm = bob.context.new_page()
            confirm.goto(path_of(quick_url, port))
            expect(confirm.locator("h1")).to_contain_text(f"#{game_id}")
            confirm.get_by_role("button", name=quick_label).click()
            expect(confirm.locator("h1")).to_have_text("Done")
            wait_for_seq_after(alice, seq)  # Alice's open page is told over the socket
            via_quick_link = (seq, seq_of(alice))
            if confirm.locator(".next-question").count():
                # Asked again at once (HRE Pass steps 4, 5): the page shows it and a mail comes.
                again = smtp.wait_for(bob_address, mails_read + 1, subject="Your decision")
                question = confirm.locator(".next-question p").first.inner_text()
                assert question in body(again), (question, body(again))
            # The link works once.
            confirm.goto(path_of(quick_url, port))
            expect(confirm.locator("body")).to_contain_text("moved on since this mail was sent")
            confirm.close()
            break

        # Follow the game link in Bob's logged-in browser and make the move on the game page;
        # once he has moved that way, he passes when he can and leaves while asked more.
        page = bob.context.new_page()
        page.goto(path_of(game_link.group(1), port))
        expect(page.locator("#prompt")).to_contain_text("Your decision")
        assert seq_of(page) == seq, (seq_of(page), seq)
        moves, passed = play_while_prompted(page, may_pass=bool(via_game_link))
        assert moves >= 1
        latest = seq_of(page)
        wait_for_seq_after(alice, latest - 1)  # Alice's page has every move before she looks
        # The page's log shows the move made from the mail (the log comes with the socket push).
        page.wait_for_function(LOG_HAS_SEQ, arg=str(seq + 1))
        if alice_moved:
            via_game_link.append((seq, latest))
        if passed and option_buttons(page).count():
            passed_at = latest  # asked more after his own Pass: he must be mailed again
        page.close()
        wait_until_not_watching(it_database, bob_name, game_id)  # before Alice moves again
        alice_moved = False

    elapsed = time.monotonic() - start
    check_html_mail(alice, smtp.to(bob_address, subject="Your decision")[-1])
    assert via_game_link, "no move was made from a turn mail's game link after a move of Alice's"
    assert passed_then_mailed, "a Pass followed by another question mailed Bob again"
    before, after = via_quick_link
    assert after > before
    # The move made from the one-click link is in the log, as both players see it.
    alice.reload()
    alice.wait_for_function(LOG_HAS_SEQ, arg=str(before + 1))
    print(
        f"\nmail e2e: {mails_read} turn mails to Bob, game-link moves {via_game_link}, "
        f"mailed again after a Pass at {passed_then_mailed}, "
        f"one-click '{quick_label}' {before} -> {after}, {elapsed:.1f} s"
    )
