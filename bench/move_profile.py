"""The move path in one process: the act view and the socket render, timed and counted.

Wall and CPU time (this thread's: less noisy on a shared machine) are both reported.

No network, no daphne: the Django test client posts each move to /games/<id>/act/ (as htmx
does), tasks run inline, the channel layer is in memory; then the live partials are rendered for
the mover as the game's socket would. Per step: p50/p95 ms and queries per move. A fresh SQLite
database by default, or PostgreSQL with --postgres (a fresh database chancery_profile on the
server of CHANCERY_TEST_DATABASE_URL). --cprofile N prints the N costliest functions (by
cumulative time; PROFILE_SORT=tottime in the environment sorts by own time, and
PROFILE_CALLERS=pattern or PROFILE_CALLEES=pattern lists the callers or callees of the
functions that match). The
tables are dealt from seeds 1, 2, … (--seed), so two runs play the same games.

    .venv/bin/python bench/move_profile.py [--moves 200] [--postgres] [--json] [--cprofile 30]
        [--no-socket] [--seed N]

Each POST says that the page's socket is open (X-Chancery-Live, as static/js/chancery.js does),
so it is answered with the notice only and the push brings the rest; --no-socket posts as a
page without a socket does, answered with the prompt bar. Queries are counted with a light
execute wrapper (no debug cursor, which would slow the move's side only), and DEBUG is off as
in production (--debug keeps it on).

`--json` prints one object on one line; `trivial_cpu_ms_p50`, `move_cpu_ms_p50` and `ratio` (move
over trivial, CPU p50) lead it.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "p50": round(percentile(values, 50), 2),
        "p95": round(percentile(values, 95), 2),
        "mean": round(statistics.fmean(values), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--json", action="store_true", help="one JSON object on one line")
    parser.add_argument("--cprofile", type=int, default=0, help="print the N costliest functions")
    parser.add_argument(
        "--no-socket", action="store_true", help="post as a page without an open socket"
    )
    parser.add_argument("--debug", action="store_true", help="keep DEBUG on (the query log)")
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="the first table's deal (the next tables take the following seeds); 0: a secret seed"
        " as on the site. Which game is played moves the ratio by about 0.2, so runs to compare"
        " play the same games",
    )
    args = parser.parse_args()

    from tests.integration import support

    if args.postgres:
        url = support.fresh_database("chancery_profile")
    else:
        url = f"sqlite:///{tempfile.mkdtemp(prefix='chancery-profile-')}/db.sqlite3"
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=url,
        CHANCERY_TASKS="inline",
        LOG_LEVEL="WARNING",
        # One user moves as fast as the machine allows: the per-user move limit would stop it.
        CHANCERY_RATE_MOVES="1000000/s",
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.conf import settings

    # As in production: no query log, no template debugging (both slow the move's side only,
    # the trivial page makes no query). The settings module has read DEBUG already (static
    # files stay those of the embedded set-up).
    settings.DEBUG = args.debug
    from django.core.management import call_command

    if not args.postgres:
        call_command("migrate", "--no-input", verbosity=0)
        call_command("bootstrap", "--no-demo-users", verbosity=0)
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from games import notify, pages, services
    from games.consumers import GameConsumer
    from games.models import Game, Scenario

    setup_test_environment()  # the in-memory mail outbox, no console spam
    if args.seed:
        import itertools
        import types

        from games.services import lifecycle

        deals = itertools.count(args.seed)
        lifecycle.secrets = types.SimpleNamespace(randbits=lambda bits: next(deals))  # type: ignore[attr-defined]
    # Two players, each with a logged-in client and the game's socket open: the mover posts, then
    # every socket renders what it is pushed. "socket_render" is the mover's socket; push bytes are
    # counted for every socket (what a player or spectator at a fixed seat receives per move).
    users = [
        get_user_model().objects.create_user(name, f"{name}@example.com", "correct horse battery")
        for name in ("bench", "bench2")
    ]
    clients = []
    for user in users:
        clients.append(Client())
        clients[-1].force_login(user)
    anonymous = Client()

    def new_table() -> tuple[Any, list[GameConsumer]]:
        scenario = Scenario.objects.get(game="hre", slug="base")
        seats = [
            services.SeatSpec("me"),
            services.SeatSpec("invite", username=users[1].get_username()),
        ]
        game = services.create_game(users[0], scenario, 2, seats)
        services.join(game.pk, users[1], 1)
        sockets = []
        for user in users:
            socket = GameConsumer()
            socket.game_id, socket.user, socket.seq = game.pk, user, -1
            socket.sent = pages.Sent()
            notify.page_opened(user, game.pk, f"profile-{game.pk}-{user.pk}")  # no turn mail
            sockets.append(socket)
        return game, sockets

    def first_push(sockets: list[GameConsumer]) -> list[str]:
        return [socket._render(force=True)[1] for socket in sockets]  # type: ignore[index]

    def deciding(game_id: int) -> int | None:
        """The seat to move, or None once the game is over (a new table is then laid)."""
        game = Game.objects.get(pk=game_id)
        prompts = game.engine.prompts(game.state) if game.state is not None else []
        return int(prompts[0]["seat"]) if prompts else None

    @contextlib.contextmanager
    def counted() -> Iterator[list[int]]:
        count = [0]

        def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            count[0] += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(wrapper):
            yield count

    headers = {"HTTP_HX_REQUEST": "true"}
    if not args.no_socket:
        headers["HTTP_X_CHANCERY_LIVE"] = "1"
    game, sockets = new_table()
    htmls = first_push(sockets)
    times: dict[str, list[float]] = {"trivial": [], "act": [], "socket_render": [], "move": []}
    cpu: dict[str, list[float]] = {"trivial": [], "act": [], "socket_render": [], "move": []}
    queries: dict[str, list[int]] = {"act": [], "socket_render": []}
    sizes: list[int] = []
    profiler = cProfile.Profile() if args.cprofile else None
    for index in range(args.warmup + args.moves):
        seat = deciding(game.pk)
        option = None if seat is None else support.first_option(htmls[seat])
        if seat is None or option is None:
            game, sockets = new_table()
            htmls = first_push(sockets)
            seat = deciding(game.pk)
            assert seat is not None
            option = support.first_option(htmls[seat])
            assert option is not None
        client, socket = clients[seat], sockets[seat]
        t0, c0 = time.perf_counter(), time.thread_time()
        assert anonymous.get("/accounts/login/").status_code == 200
        t1, c1 = time.perf_counter(), time.thread_time()
        if profiler and index >= args.warmup:
            profiler.enable()
        with counted() as act_queries:
            answer = client.post(
                f"/games/{game.pk}/act/",
                urlencode(option),
                content_type="application/x-www-form-urlencoded",  # as htmx sends a form
                **headers,
            )
        t2, c2 = time.perf_counter(), time.thread_time()
        with counted() as render_queries:
            rendered = socket._render()
        t3, c3 = time.perf_counter(), time.thread_time()
        if profiler:
            profiler.disable()
        other = sockets[1 - seat]._render()
        assert answer.status_code == 200 and rendered is not None, answer.content[:300]
        assert other is not None
        expected = int(option["expected_seq"]) + 1
        if args.no_socket:
            answered = support.pushed_seq(answer.content.decode())
        else:
            answered = int(answer.headers.get("X-Chancery-Pushed", -1))
        if answered != expected or rendered[0] != expected:
            raise RuntimeError(f"move refused: {answer.content[:500]!r}")
        htmls[seat], htmls[1 - seat] = rendered[1], other[1]
        pushed = [len(rendered[1]), len(other[1])]
        if index >= args.warmup:
            times["trivial"].append((t1 - t0) * 1000)
            times["act"].append((t2 - t1) * 1000)
            times["socket_render"].append((t3 - t2) * 1000)
            times["move"].append((t3 - t1) * 1000)
            for name, (a, b) in {
                "trivial": (c0, c1),
                "act": (c1, c2),
                "socket_render": (c2, c3),
                "move": (c1, c3),
            }.items():
                cpu[name].append((b - a) * 1000)
            queries["act"].append(act_queries[0])
            queries["socket_render"].append(render_queries[0])
            sizes.extend(pushed)
    cpu_trivial, cpu_move = percentile(cpu["trivial"], 50), percentile(cpu["move"], 50)
    out = {
        "trivial_cpu_ms_p50": round(cpu_trivial, 2),
        "move_cpu_ms_p50": round(cpu_move, 2),
        "ratio": round(cpu_move / cpu_trivial, 2),
        "database": connection.vendor,
        "debug": args.debug,
        "answer": "prompt bar (no socket)" if args.no_socket else "notice (socket open)",
        "moves": args.moves,
        "wall_ms": {k: summary(v) for k, v in times.items()},
        "cpu_ms": {k: summary(v) for k, v in cpu.items()},
        "queries_per_move": {k: round(statistics.fmean(v), 1) for k, v in queries.items()},
        "push_bytes_mean": round(statistics.fmean(sizes)),
        "push_bytes_p50": round(percentile([float(n) for n in sizes], 50)),
        "push_bytes_p95": round(percentile([float(n) for n in sizes], 95)),
        "ratio_p50_wall": round(
            percentile(times["move"], 50) / percentile(times["trivial"], 50), 2
        ),
        "ratio_p50_cpu": round(percentile(cpu["move"], 50) / percentile(cpu["trivial"], 50), 2),
    }
    print(json.dumps(out) if args.json else json.dumps(out, indent=2))
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(args.cprofile)
        if os.environ.get("PROFILE_CALLERS"):  # who calls the functions matching this pattern
            stats.print_callers(os.environ["PROFILE_CALLERS"])
        if os.environ.get("PROFILE_CALLEES"):  # what the functions matching this pattern call
            stats.print_callees(os.environ["PROFILE_CALLEES"])


if __name__ == "__main__":
    main()
