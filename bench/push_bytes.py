"""Bytes a socket is pushed per move, for each game: random games, both players and a spectator.

As tests/games/test_live_diffs.py counts them: after every move each viewer's socket memory
(`pages.Sent`) is given the push (`pages.live_update`), and the push's length is counted, in
characters of HTML. A fresh SQLite database, tasks inline, the in-memory channel layer.

    .venv/bin/python bench/push_bytes.py [--moves 200] [--seed 7] [--json]
    .venv/bin/python bench/push_bytes.py --game hre:great-domain --players 8   # one game, 8 seats

With --game GAME:SCENARIO and --players N, only that game is played, each of its N seats held by
its own user with its own socket, beside a spectator's (N + 1 sockets on one game).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = [("hre", "base"), ("ema", "27-charlemagne"), ("feudal", "duel")]


def percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def measure(game_name: str, slug: str, moves: int, seed: int, users: list[Any]) -> dict[str, Any]:
    """Play `moves` random legal moves; the size of every push to each seat's and a spectator's
    socket (one user a seat)."""
    from django.contrib.auth.models import AnonymousUser

    from games import pages, services
    from games.models import Game, Scenario

    scenario = Scenario.objects.get(game=game_name, slug=slug)
    seats = [services.SeatSpec("me")] + [
        services.SeatSpec("invite", username=u.username) for u in users[1:]
    ]
    game = services.create_game(users[0], scenario, len(users), seats)
    for i, user in enumerate(users[1:], 1):
        services.join(game.pk, user, i)
    viewers: list[Any] = [*users, AnonymousUser()]
    memories = [pages.Sent() for _ in viewers]
    first = [
        pages.live_update(game.pk, v, m, force=True) for v, m in zip(viewers, memories, strict=True)
    ]
    whole = statistics.fmean(len(f[1]) for f in first if f is not None)
    rng = random.Random(seed)
    sizes: list[int] = []
    played = 0
    for _ in range(moves):
        game = Game.objects.get(pk=game.pk)
        prompts = game.engine.prompts(game.state) if game.state is not None else []
        if not prompts or game.status != Game.Status.ACTIVE:
            break
        prompt = prompts[0]
        option = rng.choice(prompt["options"])
        services.submit(game.pk, users[prompt["seat"]], option["action"], game.seq, prompt["seat"])
        played += 1
        for viewer, sent in zip(viewers, memories, strict=True):
            pushed = pages.live_update(game.pk, viewer, sent)
            assert pushed is not None
            sizes.append(len(pushed[1]))
    return {
        "game": game_name,
        "scenario": slug,
        "players": len(users),
        "sockets": len(viewers),
        "moves": played,
        "pushes": len(sizes),
        "bytes_mean": round(statistics.fmean(sizes)),
        "bytes_p50": percentile(sizes, 50),
        "bytes_p95": percentile(sizes, 95),
        "first_push_bytes_mean": round(whole),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="one JSON object on one line")
    parser.add_argument("--game", help="GAME:SCENARIO: only this game (e.g. hre:great-domain)")
    parser.add_argument("--players", type=int, default=2, help="seats of --game's game")
    args = parser.parse_args()
    games = [tuple(args.game.split(":", 1))] if args.game else GAMES
    url = f"sqlite:///{tempfile.mkdtemp(prefix='chancery-push-')}/db.sqlite3"
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=url,
        CHANCERY_TASKS="inline",
        LOG_LEVEL="WARNING",
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # mail stays in memory
    call_command("migrate", "--no-input", verbosity=0)
    call_command("bootstrap", "--no-demo-users", verbosity=0)
    users = [
        get_user_model().objects.create_user(name, f"{name}@example.com", "correct horse battery")
        for name in [f"player{i}" for i in range(1, args.players + 1)]
    ]
    results = [measure(g, s, args.moves, args.seed, users) for g, s in games]
    print(json.dumps(results) if args.json else json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
