"""The move path with every seat of one game watching: N users, N sockets on one game.

`bench/move_path.py --players N [--scenario great-domain]` comes here: each seat is held by its
own user with the game's socket open on daphne server A; the seat the prompt names POSTs its
first option to server B; the time is taken when the mover's socket has the push and when all N
sockets have it, and every frame each socket is pushed is counted in bytes (characters of HTML).
A trivial GET (/accounts/login/ on B) before each move, as in the one-client run.
"""

from __future__ import annotations

import http.client
import statistics
import time
from typing import Any
from urllib.parse import urlencode

from tests.integration import support


class SharedTable:
    """One game whose seats are held by one user each, every user's socket open on server A."""

    def __init__(self, users: list[Any], sessions: list[str], slug: str, ports: tuple[int, int]):
        from websockets.sync.client import connect

        from games import services
        from games.models import Scenario

        port_a, port_b = ports
        scenario = Scenario.objects.get(game="hre", slug=slug)
        specs = [services.SeatSpec("me")] + [
            services.SeatSpec("invite", username=u.username) for u in users[1:]
        ]
        self.game = services.create_game(users[0], scenario, len(users), specs)
        for seat, user in enumerate(users[1:], 1):
            services.join(self.game.pk, user, seat)
        self.page = f"/games/{self.game.pk}/"
        self.sessions = sessions
        self.csrf = [support.csrf_token(port_b, self.page, s) for s in sessions]
        self.sockets = [
            connect(  # closed in close()
                f"ws://127.0.0.1:{port_a}/ws/games/{self.game.pk}/",
                origin=f"http://127.0.0.1:{port_a}",  # type: ignore[arg-type]
                additional_headers={"Cookie": f"sessionid={s}"},
                open_timeout=10,
                max_size=None,
            )
            for s in sessions
        ]
        self.html = [str(ws.recv(timeout=30)) for ws in self.sockets]  # the render on connect
        self.http = [http.client.HTTPConnection("127.0.0.1", port_b, timeout=30) for _ in users]

    def move(self) -> dict[str, Any] | None:
        """The prompted seat plays its first option: times in ms and the bytes each socket got."""
        mover = next((i for i, h in enumerate(self.html) if support.first_option(h)), None)
        if mover is None:
            return None
        option = support.first_option(self.html[mover])
        assert option is not None
        expected = int(option["expected_seq"]) + 1
        headers = {
            "Cookie": f"sessionid={self.sessions[mover]}; csrftoken={self.csrf[mover]}",
            "X-CSRFToken": self.csrf[mover],
            "Content-Type": "application/x-www-form-urlencoded",
            "HX-Request": "true",
            "X-Chancery-Live": "1",
        }
        start = time.perf_counter()
        status, head, answer = support.http_request(
            0, "POST", f"{self.page}act/", urlencode(option), headers, self.http[mover]
        )
        answered = time.perf_counter()
        if status != 200 or head.get("x-chancery-pushed") != str(expected):
            raise RuntimeError(f"move refused ({status}): {answer[:500]}")
        order = [mover] + [i for i in range(len(self.sockets)) if i != mover]
        got, at = [0] * len(self.sockets), {}
        for i in order:  # frames arrive on the sockets' own threads; read them in turn
            while True:
                frame = str(self.sockets[i].recv(timeout=30))
                got[i] += len(frame)
                if (support.pushed_seq(frame) or -1) >= expected:
                    break
            at[i] = time.perf_counter()
            self.html[i] = frame
        return {
            "answered_ms": (answered - start) * 1000,
            "mover_push_ms": (at[mover] - start) * 1000,
            "all_pushed_ms": (max(at.values()) - start) * 1000,
            "bytes": got,
        }

    def close(self) -> None:
        for ws in self.sockets:
            ws.close()
        for conn in self.http:
            conn.close()


def run(args: Any, users: list[Any], sessions: list[str], servers: list[Any]) -> dict[str, Any]:
    """Warm-up moves, then `args.moves` measured, on tables of `args.players` seats."""
    from move_path import BENCH_DATABASE, Meter, Relay, percentile, summary

    ports = (servers[0].port, servers[1].port)
    trivial_http = http.client.HTTPConnection("127.0.0.1", ports[1], timeout=30)
    relay = Relay(lambda: SharedTable(users, sessions, args.scenario, ports), trivial_http)
    meter = Meter(servers, BENCH_DATABASE)
    trivial: list[float] = []
    rows: list[dict[str, Any]] = []
    for index in range(args.warmup + args.moves):
        trivial_ms, row = relay.step()
        if index >= args.warmup:
            trivial.append(trivial_ms)
            rows.append(row)
    cpu = meter.report(args.warmup + args.moves)
    table = relay.table
    table.close()
    trivial_http.close()
    pushes = [b for row in rows for b in row["bytes"]]
    view = summary(trivial)
    mover = summary([r["mover_push_ms"] for r in rows])
    return {
        "setup": f"one hre {args.scenario} game of {args.players} seats, one user a seat, each "
        "user's socket on daphne A; the prompted seat POSTs its first option to daphne B",
        "players": args.players,
        "sockets": len(table.sockets),
        "moves": len(rows),
        "warmup": args.warmup,
        "games": relay.games,
        "trivial_view_get_login": view,
        "move_post_answered": summary([r["answered_ms"] for r in rows]),
        "move_post_to_mover_push": mover,
        "move_post_to_all_sockets_pushed": summary([r["all_pushed_ms"] for r in rows]),
        "ratio_p95_mover_push_to_trivial": round(mover["p95_ms"] / view["p95_ms"], 2),
        "push_bytes_per_socket": {
            "n": len(pushes),
            "mean": round(statistics.fmean(pushes)),
            "p50": round(percentile([float(b) for b in pushes], 50)),
            "p95": round(percentile([float(b) for b in pushes], 95)),
        },
        "push_bytes_per_move_all_sockets_mean": round(
            statistics.fmean(sum(r["bytes"]) for r in rows)
        ),
        **cpu,
    }
