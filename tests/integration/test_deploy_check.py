"""Production settings pass Django's deployment checks with no warning."""

from __future__ import annotations

import secrets
import subprocess
import sys

import pytest

from tests.integration import support

pytestmark = pytest.mark.integration


def production_env(database_url: str, redis_url: str) -> dict[str, str]:
    return support.service_env(
        database_url,
        redis_url,
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="chancery.example.org",
        CSRF_TRUSTED_ORIGINS="https://chancery.example.org",
        SITE_URL="https://chancery.example.org",
    )


def test_check_deploy_is_clean_under_production_settings(it_database: str, it_redis: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "check",
            "--deploy",
            "--fail-level",
            "WARNING",
            "--database",
            "default",
        ],
        cwd=support.ROOT,
        env=production_env(it_database, it_redis),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_settings_refuse_to_start_without_a_secret_key(it_database: str) -> None:
    env = production_env(it_database, "")
    del env["SECRET_KEY"]
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=support.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr
