"""Real services for integration tests, e2e tests and bench/move_path.py (no pytest import).

One PostgreSQL database, created fresh and migrated per run, is shared by the test process and
every subprocess it starts (daphne, the Celery worker); pytest-django's throwaway test database
is not used, since other processes could not see it. Anything missing is an error, never a skip.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"
# Overridable so that several checkouts on one machine can run the integration suite at once.
IT_DATABASE = os.environ.get("CHANCERY_IT_DATABASE", "chancery_it")


class ServiceMissing(RuntimeError):
    """A service an integration test needs is not there: the test fails, loudly."""


def server_database_url() -> str:
    """The PostgreSQL server to use (its database part only names where to connect first)."""
    return os.environ.get("CHANCERY_TEST_DATABASE_URL", DEFAULT_DATABASE_URL)


def redis_url() -> str:
    """The Redis database the channel layer and the Celery broker use in these tests."""
    return os.environ.get("CHANCERY_TEST_REDIS_URL", DEFAULT_REDIS_URL)


def with_database(url: str, name: str) -> str:
    """The same server URL, naming another database."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def fresh_database(name: str = IT_DATABASE) -> str:
    """Drop and create a database on the test server, migrate it, load scenarios; its URL."""
    import psycopg

    admin_url = server_database_url()
    try:
        with psycopg.connect(_libpq(admin_url), autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        raise ServiceMissing(f"PostgreSQL at {admin_url} does not answer: {error}") from error
    url = with_database(admin_url, name)
    env = service_env(url)
    for command in (["migrate", "--no-input"], ["bootstrap", "--no-demo-users"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"manage.py {' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
            )
    return url


def _libpq(url: str) -> str:
    """psycopg takes postgresql:// as well as postgres://; strip nothing but be explicit."""
    return url.replace("postgres://", "postgresql://", 1)


def flush_redis(url: str) -> None:
    """Empty the test Redis database (stale Celery tasks and channel groups of earlier runs)."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5)
        client.flushdb()
        client.close()
    except redis.RedisError as error:
        raise ServiceMissing(f"Redis at {url} does not answer: {error}") from error


def service_env(
    database_url: str, redis: str = "", tasks: str = "", **extra: str
) -> dict[str, str]:
    """The environment of a subprocess (manage.py, daphne, celery) on the given services."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DATABASE_URL",
            "REDIS_URL",
            "CELERY_BROKER_URL",
            "CHANCERY_TASKS",
            "DJANGO_SETTINGS_MODULE",
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
        }
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="WARNING",
    )
    if redis:
        env["REDIS_URL"] = redis
    if tasks:
        env["CHANCERY_TASKS"] = tasks
    env.update(extra)
    return env


def use_database_in_process(url: str) -> None:
    """Point this process's Django 'default' database at `url` (before any query is made)."""
    import dj_database_url
    from django.conf import settings
    from django.db import connections

    connections["default"].close()
    config = settings.DATABASES["default"]
    config.clear()
    config.update(dj_database_url.parse(url))
    connections.configure_settings(settings.DATABASES)
    del connections["default"]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Process:
    """A subprocess of ours, in its own process group, with its output in a log file."""

    name: str
    popen: subprocess.Popen[bytes]
    log: Path
    port: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-6000:]

    def stop(self, timeout: float = 20) -> None:
        """SIGTERM our own process group (warm shutdown), SIGKILL it if it lingers."""
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(10)


def start(name: str, argv: list[str], env: dict[str, str], port: int = 0) -> Process:
    """Start a subprocess with its output going to a temporary log file."""
    log = Path(tempfile.mkstemp(prefix=f"chancery-{name}-", suffix=".log")[1])
    with log.open("wb") as out:
        popen = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    return Process(name, popen, log, port)


def start_daphne(env: dict[str, str], timeout: float = 40, port: int = 0) -> Process:
    """An ASGI server (daphne) on a free port (or `port`), answering HTTP before this returns."""
    port = port or free_port()
    proc = start(
        f"daphne-{port}",
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        env,
        port,
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.popen.poll() is not None:
            raise RuntimeError(f"daphne exited with {proc.popen.returncode}:\n{proc.output()}")
        try:
            status, _, _ = http_request(port, "GET", "/accounts/login/")
            if status == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.2)
    proc.stop()
    raise RuntimeError(f"daphne on port {port} did not answer within {timeout} s:\n{proc.output()}")


@contextmanager
def daphne(env: dict[str, str]) -> Iterator[Process]:
    proc = start_daphne(env)
    try:
        yield proc
    finally:
        proc.stop()


def http_request(
    port: int,
    method: str,
    path: str,
    body: str = "",
    headers: dict[str, str] | None = None,
    conn: http.client.HTTPConnection | None = None,
) -> tuple[int, dict[str, str], str]:
    """One HTTP request to 127.0.0.1:port (on a kept-alive connection when one is given)."""
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body.encode() if body else None, headers=headers or {})
        response = conn.getresponse()
        text = response.read().decode()
        cookies = [v for k, v in response.getheaders() if k.lower() == "set-cookie"]
        head = {k.lower(): v for k, v in response.getheaders()}
        head["set-cookie"] = "\n".join(cookies)
        return response.status, head, text
    finally:
        if own:
            conn.close()


def session_cookie(user: Any) -> str:
    """A logged-in session for `user`, stored in the shared database: the sessionid value."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def csrf_token(port: int, path: str, session: str) -> str:
    """The csrftoken cookie a page hands out to this session."""
    status, head, _ = http_request(port, "GET", path, headers={"Cookie": f"sessionid={session}"})
    found = re.search(r"csrftoken=([A-Za-z0-9]+)", head["set-cookie"])
    if status != 200 or not found:
        raise AssertionError(f"GET {path} gave {status} and no csrftoken cookie")
    return found.group(1)


PROMPT_FORM = re.compile(
    r'<input type="hidden" name="action" value="([^"]*)">\s*'
    r'<input type="hidden" name="expected_seq" value="(\d+)">\s*'
    r'<input type="hidden" name="seat" value="(\d+)">'
)
DATA_SEQ = re.compile(r'id="prompt"[^>]*data-seq="(\d+)"')


def first_option(html: str) -> dict[str, str] | None:
    """The form fields of the first option button in a rendered #prompt, if any."""
    found = PROMPT_FORM.search(html)
    if not found:
        return None
    return {
        "action": unescape(found.group(1)),
        "expected_seq": found.group(2),
        "seat": found.group(3),
    }


def pushed_seq(html: str) -> int | None:
    """The seq a pushed or rendered #prompt partial is drawn at."""
    found = DATA_SEQ.search(html)
    return int(found.group(1)) if found else None


def canonical(action: Any) -> str:
    """An action as the act view's form field carries it (JSON)."""
    from rules.core.canonical import canonical_json

    return canonical_json(action)


def start_worker(env: dict[str, str], timeout: float = 60) -> Process:
    """`celery -A config worker` on the given services, ready to take tasks before this returns."""
    proc = start(
        "celery",
        [
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            "-l",
            "info",
            "--concurrency=2",
            "-n",
            f"it-{time.time_ns()}@%h",
            "--without-gossip",
            "--without-mingle",
        ],
        env,
    )
    deadline = time.monotonic() + timeout
    while "ready." not in proc.output():
        if proc.popen.poll() is not None or time.monotonic() > deadline:
            proc.stop()
            raise RuntimeError(f"the Celery worker did not start:\n{proc.output()}")
        time.sleep(0.2)
    return proc


def start_beat(env: dict[str, str]) -> Process:
    """`celery -A config beat`, its schedule file in a temporary folder (not the checkout)."""
    schedule = Path(tempfile.mkdtemp(prefix="chancery-beat-")) / "schedule"
    return start(
        "beat",
        [str(BIN / "celery"), "-A", "config", "beat", "-l", "info", "-s", str(schedule)],
        env,
    )


def start_redis(port: int = 0) -> Process:
    """A redis-server of our own (never the machine's), on a free port, without persistence."""
    port = port or free_port()
    proc = start(
        f"redis-{port}",
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        os.environ.copy(),
        port,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                if conn.recv(16).startswith(b"+PONG"):
                    return proc
        except OSError:
            time.sleep(0.1)
    proc.stop()
    raise ServiceMissing(f"redis-server did not start on port {port}:\n{proc.output()}")


def kill(proc: Process) -> None:
    """SIGKILL our own process group at once (a crash, not a shutdown)."""
    if proc.popen.poll() is None:
        os.killpg(proc.popen.pid, signal.SIGKILL)
        proc.popen.wait(10)


def use_broker(settings: Any, url: str) -> None:
    """This process queues Celery tasks to `url` (the app's cached connections are dropped)."""
    from config.celery import app

    settings.CHANCERY_TASKS = "celery"
    settings.CELERY_BROKER_URL = url
    app.close()  # pooled connections to an earlier broker would keep being used
    app.conf.broker_url = url
