"""Fixtures for site tests: personas, tasks run inline, a scenario row per shipped scenario."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.scenarios import load_shipped


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
def fast_passwords(settings: Any) -> None:
    """Personas are created in every test: a cheap hasher keeps set-up fast."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
