"""Bot tasks: idempotent turns, waking only bot seats, the stalled-bot sweep, whole bot games."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import bots, tasks
from games.models import Game, Move
from rules.core.replay import replay
from rules.hre import ENGINE
from tests.games.helpers import make_game, options, prompted, snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]


@pytest.fixture
def queued(monkeypatch: Any) -> list[tuple[Any, tuple[Any, ...]]]:
    """Tasks are recorded instead of run, so a test can run them by hand."""
    calls: list[tuple[Any, tuple[Any, ...]]] = []
    monkeypatch.setattr(tasks, "enqueue", lambda task, *args: calls.append((task, args)))
    return calls


def test_a_bot_turn_run_twice_moves_once(
    scenarios: None, alice: Any, queued: list[tuple[Any, tuple[Any, ...]]]
) -> None:
    game = make_game(alice, "bot:random", "bot:greedy")
    assert game.seq == 0 and queued == [(tasks.bot_turn, (game.pk, 0, prompted(game)[0]))]
    args = queued[0][1]
    assert tasks.bot_turn(*args) == "moved"
    after = snapshot(game)
    assert after[0] == 1
    assert tasks.bot_turn(*args) == "stale"
    assert snapshot(game) == after
    assert Move.objects.filter(game=game).count() == 1 and Move.objects.get(game=game).by_bot


def test_a_bot_turn_for_a_seat_that_is_not_deciding_is_stale(
    scenarios: None, alice: Any, queued: list[tuple[Any, tuple[Any, ...]]]
) -> None:
    game = make_game(alice, "bot:random", "bot:random")
    idle = 1 - prompted(game)[0]
    before = snapshot(game)
    assert tasks.bot_turn(game.pk, game.seq, idle) == "stale"
    assert tasks.bot_turn(424242, 0, 0) == "stale"
    assert snapshot(game) == before


def test_wake_bots_queues_only_bot_seats_that_must_decide(
    scenarios: None, alice: Any, queued: list[tuple[Any, tuple[Any, ...]]]
) -> None:
    game = make_game(alice, "me", "bot:random")
    seat = prompted(game)[0]
    queued.clear()
    tasks.wake_bots(game.pk, game.seq)
    if seat == 0:
        assert queued == [], "Alice decides: no bot is woken"
        from games import services

        services.submit(game.pk, alice, options(game, 0)[0], game.seq, seat=0)
        queued.clear()
        game.refresh_from_db()
        tasks.wake_bots(game.pk, game.seq)
    assert prompted(game) == [1]
    assert queued == [(tasks.bot_turn, (game.pk, game.seq, 1))]
    queued.clear()
    tasks.wake_bots(game.pk, game.seq - 1)
    assert queued == [], "an old seq wakes nobody"


def test_the_sweep_wakes_bots_of_games_stalled_for_a_minute(
    scenarios: None, alice: Any, queued: list[tuple[Any, tuple[Any, ...]]]
) -> None:
    game = make_game(alice, "bot:random", "bot:random")
    queued.clear()
    assert tasks.requeue_stalled_bots() == 0, "a fresh game is not stalled"
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    assert tasks.requeue_stalled_bots() == 1
    assert queued == [(tasks.bot_turn, (game.pk, 0, prompted(game)[0]))]


def test_tasks_go_to_celery_when_a_broker_is_configured(settings: Any, monkeypatch: Any) -> None:
    settings.CHANCERY_TASKS = ""
    settings.CELERY_BROKER_URL = "redis://example.invalid:6379/0"
    assert tasks.mode() == "celery"
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.bot_turn, "delay", lambda *args: sent.append(args))
    tasks.enqueue(tasks.bot_turn, 1, 2, 3)
    assert sent == [(1, 2, 3)]
    settings.CELERY_BROKER_URL = ""
    assert tasks.mode() == "thread"


def test_an_all_bot_game_finishes_with_a_result_that_replays(scenarios: None, alice: Any) -> None:
    game = make_game(alice, "bot:greedy", "bot:random", "bot:random")
    assert game.status == Game.Status.FINISHED
    result = game.result
    assert result["over"] is True and sorted(r["seat"] for r in result["seats"]) == [0, 1, 2]
    assert min(r["rank"] for r in result["seats"]) == 1
    assert result == dict(ENGINE.result(game.state))
    moves = list(game.moves.order_by("seq"))
    assert len(moves) == game.seq and all(m.by_bot for m in moves)
    record = {
        "game": "hre",
        "seed": game.seed,
        "config": game.config,
        "players": 3,
        "moves": [{"seat": m.seat, "action": m.action, "hash": m.state_hash} for m in moves],
    }
    assert replay(ENGINE, record).ok
    assert game.prompted_seats() == []


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_a_bot_chooses_a_legal_option_deterministically(kind: str) -> None:
    state = ENGINE.setup(5, {"modules": [], "options": {}}, 2)
    picker = random.Random(3)
    for _ in range(40):
        seat = ENGINE.prompts(state)[0]["seat"]
        legal = [o["action"] for o in ENGINE.prompt_for(state, seat)["options"]]
        action = bots.choose(kind, ENGINE, state, seat, 99)
        assert action in legal
        assert bots.choose(kind, ENGINE, state, seat, 99) == action
        state, _ = ENGINE.apply(state, seat, picker.choice(legal))


def test_the_greedy_bot_looks_ahead_on_a_world_consistent_with_its_own_view_only() -> None:
    """Its look-ahead runs on a determinized state: same view for its seat, hidden cards re-dealt."""
    state = ENGINE.setup(11, {"modules": [], "options": {}}, 2)
    picker = random.Random(2)
    while (
        ENGINE.prompts(state)[0]["kind"] != "turn"
        or not state["seats"][1 - ENGINE.prompts(state)[0]["seat"]]["hand"]
    ):
        seat = ENGINE.prompts(state)[0]["seat"]
        state, _ = ENGINE.apply(
            state, seat, picker.choice(ENGINE.prompt_for(state, seat)["options"])["action"]
        )
    seat = ENGINE.prompts(state)[0]["seat"]
    rival = 1 - seat
    worlds = [ENGINE.determinize(state, seat, s) for s in range(8)]
    assert all(ENGINE.view(w, seat) == ENGINE.view(state, seat) for w in worlds)
    assert any(
        w["seats"][rival]["hand"] != state["seats"][rival]["hand"] or w["deck"] != state["deck"]
        for w in worlds
    ), "hidden cards are re-dealt"
    legal = [o["action"] for o in ENGINE.prompt_for(state, seat)["options"]]
    assert bots.choose("greedy", ENGINE, state, seat, 7) in legal
