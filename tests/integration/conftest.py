"""Integration tests run on real PostgreSQL and Redis, in their own pytest session.

`make test-integration` (which .ci/run always runs) selects them with `-m "integration or e2e"`.
The database `chancery_it` is dropped, created and migrated once per session on the server of
CHANCERY_TEST_DATABASE_URL, and this process and every server or worker it starts use it.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration import support

SERVICE_MARKERS = ("integration", "e2e")


@pytest.hookimpl(trylast=True)  # after `-m` has deselected what this run leaves out
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse a session that mixes service tests with unit tests: they use different databases."""
    service = [i for i in items if any(i.get_closest_marker(m) for m in SERVICE_MARKERS)]
    if service and len(service) != len(items):
        raise pytest.UsageError(
            "integration/e2e tests need their own pytest session on PostgreSQL: run "
            "`make test` (unit) and `make test-integration` (services) separately"
        )


@pytest.fixture(scope="session")
def it_database(django_db_blocker: Any) -> Iterator[str]:
    """The fresh, migrated PostgreSQL database of this run, used by this process too."""
    url = support.fresh_database()
    support.flush_redis(support.redis_url())
    with django_db_blocker.unblock():
        support.use_database_in_process(url)
        yield url


@pytest.fixture(scope="session")
def it_redis(it_database: str) -> str:
    return support.redis_url()


@pytest.fixture
def make_user(it_database: str) -> Any:
    """Users with names unique to the run (the database lives for the whole session)."""
    from django.contrib.auth import get_user_model

    count = [0]

    def make(prefix: str) -> Any:
        count[0] += 1
        name = f"{prefix}{count[0]}-{secrets.token_hex(3)}"
        return get_user_model().objects.create_user(
            name, f"{name}@example.com", "correct horse battery"
        )

    return make
