"""Fixtures for site tests: personas, tasks run inline, commits inside a test's transaction, and a
scenario row per shipped scenario."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, transaction

from games.scenarios import load_shipped
from tests.games import mailbox


@pytest.fixture(autouse=True)
def inline_tasks(settings: Any) -> None:
    """Bot tasks run inline, in order, right after each commit."""
    settings.CHANCERY_TASKS = "inline"


@pytest.fixture(autouse=True)
def quick_bots(settings: Any) -> None:
    """Search bots think a few iterations, not their site budget of a second or more; all-bot
    games play to their end (the pause after 500 bot moves has its own tests)."""
    settings.CHANCERY_BOT_BUDGET = {"iterations": 30}
    settings.CHANCERY_BOT_STREAK_LIMIT = 100_000


@pytest.fixture(autouse=True)
def no_rate_limits(settings: Any) -> None:
    """Tests play fast; the tests of rate limits set the rates they check."""
    settings.CHANCERY_RATES = {}


@pytest.fixture(autouse=True)
def prompt_turn_mail(settings: Any) -> None:
    """Turn mail may go out at once; the tests of its delay set the delay they check."""
    settings.CHANCERY_TURN_MAIL_DELAY = 0


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    """Personas are created in every test: a cheap hasher keeps set-up fast."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def commits(
    request: pytest.FixtureRequest, db: None, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Inside the test's transaction, on_commit callbacks run when the code's own outermost atomic
    block ends, as they would after its commit.

    So moves wake bots, push to sockets and queue mail as in production, without the cost of a
    transactional test (django_db(transaction=True)), which a test then needs only where another
    thread must see the data (sockets, the lock test); such a test commits for real, and this
    fixture leaves it alone.
    """
    marker = request.node.get_closest_marker("django_db")
    if marker is not None and marker.kwargs.get("transaction"):
        yield
        return
    connection = connections[DEFAULT_DB_ALIAS]
    base = len(connection.atomic_blocks)  # the test's own blocks: their end is no commit
    exit_atomic = transaction.Atomic.__exit__
    on_commit = connection.on_commit

    def run_pending() -> None:
        while connection.run_on_commit and len(connection.atomic_blocks) == base:
            _sids, func, _robust = connection.run_on_commit.pop(0)
            func()

    def exit_and_commit(self: transaction.Atomic, *exc: Any) -> None:
        exit_atomic(self, *exc)
        if exc[0] is None and len(connection.atomic_blocks) == base:
            run_pending()

    def on_commit_now(func: Callable[[], Any], robust: bool = False) -> None:
        if len(connection.atomic_blocks) > base:
            on_commit(func, robust)
        else:
            func()  # outside the code's own blocks: as in autocommit, at once

    monkeypatch.setattr(transaction.Atomic, "__exit__", exit_and_commit)
    monkeypatch.setattr(connection, "on_commit", on_commit_now)
    yield


@pytest.fixture
def scenarios(db: None) -> None:
    load_shipped()


def _user(name: str) -> Any:
    return get_user_model().objects.create_user(
        name, f"{name}@example.com", "correct horse battery"
    )


@pytest.fixture
def alice(db: None) -> Any:
    return _user("alice")


@pytest.fixture
def bob(db: None) -> Any:
    return _user("bob")


@pytest.fixture
def carol(db: None) -> Any:
    return _user("carol")


@pytest.fixture
def smtp(settings: Any) -> Iterator[mailbox.Collector]:
    """A real SMTP server on a free localhost port, and Django's SMTP backend pointed at it."""
    yield from mailbox.smtp_server(settings)


@pytest.fixture
def held_mail(monkeypatch: pytest.MonkeyPatch) -> None:
    """The drain task queued after a commit is lost, as if the worker died: the rows stay pending."""
    mailbox.hold_mail(monkeypatch)
