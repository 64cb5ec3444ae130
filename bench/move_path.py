"""The move path, measured end to end, next to a trivial Django view in the same run.

A move: HTTP POST to /games/<id>/act/ on daphne server B -> lock, engine, commit -> ids-only
message through Redis (channels-redis) -> the socket on daphne server A renders the live partials
for its viewer and pushes them -> the frame is received here. The trivial view is an anonymous
GET of /accounts/login/ on server B, interleaved with the moves so both see the same machine.

Needs PostgreSQL and Redis (CHANCERY_TEST_DATABASE_URL, CHANCERY_TEST_REDIS_URL, as the
integration tests); it creates a fresh database chancery_bench (or CHANCERY_BENCH_DATABASE). Prints one JSON document.

    .venv/bin/python bench/move_path.py [--moves 300] [--warmup 30] [--clients N]
    .venv/bin/python bench/move_path.py --players 8 --scenario great-domain   # 8 sockets, one game

With --players N (N > 1), one game of N seats, each held by its own user whose socket is open
(bench/table_path.py): POST -> the mover's push and -> all N sockets' pushes, bytes per socket.

With --clients N (N > 1), N clients play at once, each its own game, then N clients fetch the
trivial page for as long: moves/s, POST and push p50/p95, errors, and the trivial requests/s.

Each POST says the page's socket is open (X-Chancery-Live), so it is answered with the notice
and the next option is read from the push. The servers run with DEBUG off, as in production
(--debug: on). The CPU of both servers and of the benchmark database's PostgreSQL backends is
reported per move (Redis is shared with other users of this machine and left out), with the
load average at the start and end.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.integration import support  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def summary(ms: list[float]) -> dict[str, float]:
    return {
        "n": len(ms),
        "p50_ms": round(percentile(ms, 50), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "mean_ms": round(statistics.fmean(ms), 2),
    }


class Table:
    """A hotseat HRE game (one user holds both seats), a socket on A and a kept-alive client on B."""

    def __init__(self, user: Any, session: str, port_a: int, port_b: int) -> None:
        from websockets.sync.client import connect

        from games import services
        from games.models import Scenario

        scenario = Scenario.objects.get(game="hre", slug="base")
        self.game = services.create_game(
            user, scenario, 2, [services.SeatSpec("me"), services.SeatSpec("me")]
        )
        self.page = f"/games/{self.game.pk}/"
        self.session = session
        self.csrf = support.csrf_token(port_b, self.page, session)
        self.ws = connect(  # noqa: SIM115 (closed in close())
            f"ws://127.0.0.1:{port_a}/ws/games/{self.game.pk}/",
            origin=f"http://127.0.0.1:{port_a}",  # type: ignore[arg-type]
            additional_headers={"Cookie": f"sessionid={session}"},
            open_timeout=10,
            max_size=None,
        )
        self.html = str(self.ws.recv(timeout=10))  # the render on connect
        self.http = http.client.HTTPConnection("127.0.0.1", port_b, timeout=30)

    def move(self) -> tuple[float, float] | None:
        """Play the first option; (POST answered, push received) in ms, or None at the game's end."""
        option = support.first_option(self.html)
        if option is None:
            return None
        expected = int(option["expected_seq"]) + 1
        body = urlencode(option)
        headers = {
            "Cookie": f"sessionid={self.session}; csrftoken={self.csrf}",
            "X-CSRFToken": self.csrf,
            "Content-Type": "application/x-www-form-urlencoded",
            "HX-Request": "true",
            # As the page does while its socket is open: the answer is the notice only, and
            # the push brings the new prompt (games.views.act).
            "X-Chancery-Live": "1",
        }
        start = time.perf_counter()
        status, head, answer = support.http_request(
            0, "POST", f"{self.page}act/", body, headers, self.http
        )
        answered = time.perf_counter()
        if status != 200 or head.get("x-chancery-pushed") != str(expected):
            raise RuntimeError(f"move refused ({status}): {answer[:500]}")
        while True:
            frame = str(self.ws.recv(timeout=10))
            if (support.pushed_seq(frame) or -1) >= expected:
                break
        pushed = time.perf_counter()
        self.html = frame
        return (answered - start) * 1000, (pushed - start) * 1000

    def close(self) -> None:
        self.ws.close()
        self.http.close()


def machine() -> dict[str, Any]:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("show server_version")
        pg = cursor.fetchone()[0]
    import redis

    client = redis.Redis.from_url(support.redis_url())
    redis_version = client.info("server")["redis_version"]
    client.close()
    return {
        "host": platform.node(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "postgresql": pg,
        "redis": redis_version,
    }


TICK = os.sysconf("SC_CLK_TCK")
# Engineers sharing a machine give each run its own database.
BENCH_DATABASE = os.environ.get("CHANCERY_BENCH_DATABASE", "chancery_bench")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its waited-for children so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(v) for v in fields[11:15]) / TICK


def postgres_backends(database: str) -> list[int]:
    """The PostgreSQL backends (on this machine) connected to the benchmark's database."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [database])
        return [row[0] for row in cursor.fetchall()]


class Meter:
    """CPU of the two servers and of the database's backends over a stretch of the run."""

    def __init__(self, servers: list[Any], database: str) -> None:
        self.servers, self.database = [p.popen.pid for p in servers], database
        self.start = self.read()
        self.load = os.getloadavg()

    def read(self) -> dict[int, float]:
        pids = self.servers + postgres_backends(self.database)
        found = {}
        for pid in pids:
            try:
                found[pid] = cpu_seconds(pid)
            except OSError:  # a backend that has gone since
                continue
        return found

    def report(self, moves: int) -> dict[str, Any]:
        end = self.read()
        used = {pid: end[pid] - self.start.get(pid, 0.0) for pid in end}
        servers = sum(used.get(pid, 0.0) for pid in self.servers)
        database = sum(v for pid, v in used.items() if pid not in self.servers)
        return {
            "cpu_ms_per_move_servers": round(servers * 1000 / max(moves, 1), 2),
            "cpu_ms_per_move_postgres_backends": round(database * 1000 / max(moves, 1), 2),
            "load_average_at_start": [round(x, 2) for x in self.load],
            "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        }


class Relay:
    """Moves at one table after another (a new table when a game ends), each after a timed
    trivial GET of the login page on `http`; `games` counts the tables used."""

    def __init__(self, new_table: Any, http: http.client.HTTPConnection) -> None:
        self.new_table, self.http = new_table, http
        self.table, self.games = new_table(), 1

    def step(self) -> tuple[float, Any]:
        """The trivial GET's milliseconds and what the table's move reports."""
        t0 = time.perf_counter()
        status, _, _ = support.http_request(0, "GET", "/accounts/login/", conn=self.http)
        trivial_ms = (time.perf_counter() - t0) * 1000
        assert status == 200
        moved = self.table.move()
        if moved is None:  # the game ended: carry on at a new table
            self.table.close()
            self.table, self.games = self.new_table(), self.games + 1
            moved = self.table.move()
            assert moved is not None
        return trivial_ms, moved


def concurrent(
    args: Any, user: Any, session: str, servers: list[Any], database: str
) -> dict[str, Any]:
    """N clients at once, each playing its own hotseat game (sockets on A, POSTs on B), then N
    clients fetching the trivial page from B for as long; moves/s and requests/s over wall time."""
    from django.db import connection

    port_a, port_b = servers[0].port, servers[1].port
    tables = [Table(user, session, port_a, port_b) for _ in range(args.clients)]
    meter = Meter(servers, database)
    connection.close()  # the threads below open their own
    per_client = max(1, args.moves // args.clients)
    answered: list[float] = []
    pushed: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def play(index: int) -> None:
        table = tables[index]
        for _ in range(per_client):
            try:
                timed = table.move()
                if timed is None:
                    table.close()
                    table = tables[index] = Table(user, session, port_a, port_b)
                    continue
            except Exception as error:  # counted and reported: the run goes on
                with lock:
                    errors.append(repr(error)[:200])
                continue
            with lock:
                answered.append(timed[0])
                pushed.append(timed[1])

    started, client_cpu = time.perf_counter(), time.process_time()
    threads = [threading.Thread(target=play, args=(i,)) for i in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    moving = time.perf_counter() - started
    cpu = meter.report(len(pushed))
    # This process's clients share the machine with the servers: their CPU is part of the budget.
    cpu["cpu_ms_per_move_bench_clients"] = round(
        (time.process_time() - client_cpu) * 1000 / max(len(pushed), 1), 2
    )
    connection.close()
    for table in tables:
        table.close()

    trivial: list[float] = []
    stop = time.perf_counter() + moving

    def fetch() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port_b, timeout=30)
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            status, _, _ = support.http_request(0, "GET", "/accounts/login/", conn=conn)
            with lock:
                trivial.append((time.perf_counter() - t0) * 1000)
                if status != 200:
                    errors.append(f"trivial page answered {status}")
        conn.close()

    threads = [threading.Thread(target=fetch) for _ in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {
        "setup": f"{args.clients} clients at once, each its own hotseat HRE base game (socket on "
        "daphne A, POST to daphne B), first option each move; then as many clients of the "
        "trivial page (GET /accounts/login/ on B) for the same wall time",
        "clients": args.clients,
        "moves": len(pushed),
        "errors": len(errors),
        "error_samples": errors[:5],
        "moves_per_second": round(len(pushed) / moving, 1),
        "move_post_answered": summary(answered),
        "move_post_to_push": summary(pushed),
        "trivial_requests_per_second": round(len(trivial) / moving, 1),
        "trivial_view_get_login": summary(trivial),
        **cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument(
        "--conn-max-age", type=int, default=0, help="DB_CONN_MAX_AGE of the servers"
    )
    parser.add_argument(
        "--db-pool",
        choices=("on", "off"),
        default="on",
        help="DB_POOL of the servers (the settings' default: on unless DB_CONN_MAX_AGE > 0)",
    )
    parser.add_argument(
        "--debug", action="store_true", help="run the servers with DEBUG on (the dev set-up)"
    )
    parser.add_argument(
        "--clients",
        type=int,
        default=1,
        help="N > 1: N clients at once, each its own game, then N clients of the trivial page",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=1,
        help="N > 1: one game of N seats, one user and one open socket a seat (table_path.py)",
    )
    parser.add_argument("--scenario", default="base", help="the HRE scenario of --players")
    args = parser.parse_args()

    production = {}
    if not args.debug:
        # The servers run as in production (DEBUG off: no query log, no template debugging,
        # collected static files), on plain HTTP here.
        production = {
            "DEBUG": "false",
            "SECRET_KEY": "bench-only-not-secret",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
        }
    database = support.fresh_database(BENCH_DATABASE)
    support.flush_redis(support.redis_url())
    # This process's own mail (the first turn mail, sent before the socket opens) stays in memory:
    # stdout is the JSON document.
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database,
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    )
    if production:  # the session made here must pass the servers' check (their SECRET_KEY)
        os.environ["SECRET_KEY"] = production["SECRET_KEY"]
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(
        "bench", "bench@example.com", "correct horse battery"
    )
    session = support.session_cookie(user)
    env = support.service_env(
        database,
        support.redis_url(),
        tasks="thread",
        **production,
        DB_CONN_MAX_AGE=str(args.conn_max_age),
        DB_POOL="true" if args.db_pool == "on" and not args.conn_max_age else "false",
        # One user moves as fast as the servers allow: the per-user move limit would stop it.
        CHANCERY_RATE_MOVES="1000000/s",
    )
    if production:
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
    if args.players > 1:
        import table_path

        users = [user] + [
            get_user_model().objects.create_user(f"bench{i}", f"bench{i}@example.com", "x")
            for i in range(2, args.players + 1)
        ]
        sessions = [session] + [support.session_cookie(u) for u in users[1:]]
        with support.daphne(env) as server_a, support.daphne(env) as server_b:
            result = table_path.run(args, users, sessions, [server_a, server_b])
        result.update(bench="move_path", date=datetime.date.today().isoformat())
        result["machine"] = machine()
        print(json.dumps(result, indent=2))
        return
    if args.clients > 1:
        with support.daphne(env) as server_a, support.daphne(env) as server_b:
            result = concurrent(args, user, session, [server_a, server_b], BENCH_DATABASE)
        result.update(bench="move_path", date=datetime.date.today().isoformat())
        result["machine"] = machine()
        print(json.dumps(result, indent=2))
        return
    with support.daphne(env) as server_a, support.daphne(env) as server_b:
        trivial_http = http.client.HTTPConnection("127.0.0.1", server_b.port, timeout=30)
        relay = Relay(lambda: Table(user, session, server_a.port, server_b.port), trivial_http)
        meter = Meter([server_a, server_b], BENCH_DATABASE)
        trivial, answered, pushed = [], [], []
        started = time.perf_counter()
        moving = 0.0
        for index in range(args.warmup + args.moves):
            trivial_ms, timed = relay.step()
            if index >= args.warmup:
                trivial.append(trivial_ms)
                answered.append(timed[0])
                pushed.append(timed[1])
                moving += timed[1] / 1000
        elapsed = time.perf_counter() - started
        cpu = meter.report(args.warmup + args.moves)  # the trivial GETs' CPU is in it too
        relay.table.close()
        trivial_http.close()

    move = summary(pushed)
    view = summary(trivial)
    print(
        json.dumps(
            {
                "bench": "move_path",
                "date": datetime.date.today().isoformat(),
                "machine": machine(),
                "setup": f"daphne A (socket) + daphne B (POST), channels-redis, PostgreSQL, "
                f"DB_CONN_MAX_AGE={args.conn_max_age}, DB_POOL={env['DB_POOL']}, hotseat HRE base game, first option each move, "
                "one client, sequential",
                "moves": args.moves,
                "warmup": args.warmup,
                "games": relay.games,
                "trivial_view_get_login": view,
                "move_post_answered": summary(answered),
                "move_post_to_push": move,
                "moves_per_second": round(len(pushed) / moving, 1),
                "moves_per_second_wall_incl_trivial": round(
                    (args.warmup + args.moves) / elapsed, 1
                ),
                "ratio_p50": round(move["p50_ms"] / view["p50_ms"], 2),
                "ratio_p95": round(move["p95_ms"] / view["p95_ms"], 2),
                "goal": "move (POST -> push) p95 <= 3x trivial view p95",
                "debug": args.debug,
                **cpu,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
