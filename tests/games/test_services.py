"""The move service: creating, joining and starting games; every way a submission is refused."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from django.db import connection

from games import services
from games.models import Game, Move, Scenario
from rules.core.errors import ScenarioError
from rules.core.replay import replay
from tests.games.helpers import human_move, make_game, options, prompted, snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]


@pytest.fixture
def duel(scenarios: None, alice: Any, bob: Any) -> Game:
    """Alice and Bob, two humans, at the start of the Ruler draft."""
    return make_game(alice, "me", bob)


def _deciding(game: Game, alice: Any, bob: Any) -> tuple[Any, Any, int]:
    """(the user deciding now, the other one, the deciding seat)."""
    seat = prompted(game)[0]
    return (alice, bob, seat) if seat == 0 else (bob, alice, seat)


# --- create, join, start ------------------------------------------------------------------


def test_a_game_with_an_open_seat_waits_and_starts_when_the_last_seat_is_taken(
    scenarios: None, alice: Any, bob: Any
) -> None:
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(
        alice, scenario, 2, [services.SeatSpec("me"), services.SeatSpec("open")]
    )
    assert (game.status, game.state, game.seq) == (Game.Status.OPEN, None, 0)
    seat = services.join(game.pk, bob)
    game.refresh_from_db()
    assert seat.index == 1 and seat.user == bob
    assert game.status == Game.Status.ACTIVE
    assert game.state is not None and game.seed != 0
    assert game.rules_version == game.engine.rules_version
    assert game.state == game.engine.setup(game.seed, game.config, 2), (
        "the state is dealt from the stored seed"
    )


def test_each_game_is_dealt_with_a_fresh_seed(scenarios: None, alice: Any, bob: Any) -> None:
    seeds = {make_game(alice, "me", bob).seed for _ in range(3)}
    assert len(seeds) == 3


def test_joining_a_full_or_started_game_is_refused(duel: Game, carol: Any) -> None:
    with pytest.raises(services.MoveRefused) as refused:
        services.join(duel.pk, carol)
    assert refused.value.code == "closed"


def test_an_invited_seat_is_kept_for_the_invited_player(
    scenarios: None, alice: Any, bob: Any, carol: Any
) -> None:
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(
        alice, scenario, 2, [services.SeatSpec("me"), services.SeatSpec("invite", username="bob")]
    )
    with pytest.raises(services.MoveRefused) as refused:
        services.join(game.pk, carol)
    assert refused.value.code == "forbidden"
    assert services.join(game.pk, bob).index == 1


def test_create_refuses_a_bad_player_count_an_unknown_bot_and_an_unknown_invitee(
    scenarios: None, alice: Any
) -> None:
    scenario = Scenario.objects.get(game="hre", slug="base")
    me = services.SeatSpec("me")
    with pytest.raises(ScenarioError):
        services.create_game(alice, scenario, 1, [me])
    with pytest.raises(ScenarioError):
        services.create_game(alice, scenario, 2, [me, services.SeatSpec("bot", bot="telepath")])
    with pytest.raises(ScenarioError):
        services.create_game(
            alice, scenario, 2, [me, services.SeatSpec("invite", username="nobody")]
        )
    with pytest.raises(ScenarioError):
        services.create_game(
            alice, scenario, 2, [me, services.SeatSpec("open")], {"natural_one": "sometimes"}
        )
    assert Game.objects.count() == 0, "a refused creation leaves nothing behind"


# --- refusals -------------------------------------------------------------------------------


def test_a_stale_move_is_refused_and_changes_nothing(duel: Game, alice: Any, bob: Any) -> None:
    first, _, seat = _deciding(duel, alice, bob)
    human_move(duel, first, random.Random(1))
    now, other, seat = _deciding(duel, alice, bob)
    before = snapshot(duel)
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(duel.pk, now, options(duel, seat)[0], duel.seq - 1, seat=seat)
    assert refused.value.code == "stale"
    assert snapshot(duel) == before


def test_a_move_for_a_seat_the_user_does_not_hold_is_refused(
    duel: Game, alice: Any, bob: Any
) -> None:
    user, other, seat = _deciding(duel, alice, bob)
    before = snapshot(duel)
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(duel.pk, other, options(duel, seat)[0], duel.seq, seat=seat)
    assert refused.value.code == "forbidden"
    assert snapshot(duel) == before


def test_an_outsider_or_anonymous_submission_is_refused(
    duel: Game, alice: Any, bob: Any, carol: Any
) -> None:
    seat = prompted(duel)[0]
    before = snapshot(duel)
    for who in (carol, None):
        for chosen in (None, seat):
            with pytest.raises(services.MoveRefused) as refused:
                services.submit(duel.pk, who, options(duel, seat)[0], duel.seq, seat=chosen)
            assert refused.value.code == "forbidden"
    assert snapshot(duel) == before


def test_a_user_cannot_pose_as_a_bot_seat(scenarios: None, alice: Any) -> None:
    game = make_game(alice, "me", "bot:random")
    mine = services.seats_of(game, alice)
    bot_seat = 1 - mine[0]
    before = snapshot(game)
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(game.pk, alice, {"ruler": "otto"}, game.seq, seat=bot_seat)
    assert refused.value.code == "forbidden"
    assert snapshot(game) == before


def test_an_illegal_action_is_refused_with_the_engines_message(
    duel: Game, alice: Any, bob: Any
) -> None:
    user, _, seat = _deciding(duel, alice, bob)
    before = snapshot(duel)
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(duel.pk, user, {"ruler": "charlemagne"}, duel.seq, seat=seat)
    assert refused.value.code == "illegal"
    assert refused.value.message.startswith("That is not one of the choices now")
    assert "Ruler" in refused.value.message, "the message names the decision a player can read"
    assert snapshot(duel) == before


def test_it_rejects_an_out_of_turn_action(duel: Game, alice: Any, bob: Any) -> None:
    user, waiting, seat = _deciding(duel, alice, bob)
    other_seat = 1 - seat
    action = options(duel, seat)[0]
    before = snapshot(duel)
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(duel.pk, waiting, action, duel.seq)
    assert refused.value.code == "forbidden" and "not your decision" in refused.value.message
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(duel.pk, waiting, action, duel.seq, seat=other_seat)
    assert refused.value.code == "illegal" and f"seat {other_seat + 1}" in refused.value.message
    assert snapshot(duel) == before


@pytest.mark.parametrize("expected", [None, "0", 0.0, True, [0]])
def test_a_move_without_an_integer_expected_seq_is_malformed(
    duel: Game, alice: Any, bob: Any, expected: Any
) -> None:
    user, _, seat = _deciding(duel, alice, bob)
    before = snapshot(duel)
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(duel.pk, user, options(duel, seat)[0], expected, seat=seat)
    assert refused.value.code == "malformed"
    assert snapshot(duel) == before


@pytest.mark.parametrize("action", [{"ruler": {"otto"}}, {(1, 2): "x"}, object()])
def test_an_action_that_is_not_json_is_malformed(
    duel: Game, alice: Any, bob: Any, action: Any
) -> None:
    user, _, seat = _deciding(duel, alice, bob)
    before = snapshot(duel)
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(duel.pk, user, action, duel.seq, seat=seat)
    assert refused.value.code == "malformed"
    assert snapshot(duel) == before


def test_a_move_in_a_game_not_yet_started_is_refused_as_closed(scenarios: None, alice: Any) -> None:
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(
        alice, scenario, 2, [services.SeatSpec("me"), services.SeatSpec("open")]
    )
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(game.pk, alice, {"ruler": "otto"}, 0, seat=0)
    assert refused.value.code == "closed"


def test_a_move_in_a_finished_game_is_refused(scenarios: None, alice: Any) -> None:
    game = make_game(alice, "bot:random", "bot:random")
    assert game.status == Game.Status.FINISHED
    before = snapshot(game)
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(game.pk, None, {"pass": True}, game.seq, seat=0, bot=True)
    assert refused.value.code == "closed"
    assert snapshot(game) == before


# --- resubmission, the log, replay --------------------------------------------------------


def test_a_resubmitted_move_returns_the_first_and_is_applied_once(
    duel: Game, alice: Any, bob: Any
) -> None:
    user, _, seat = _deciding(duel, alice, bob)
    action, seq = options(duel, seat)[0], duel.seq
    first = services.submit(duel.pk, user, action, seq, seat=seat)
    after = snapshot(duel)
    again = services.submit(duel.pk, user, action, seq, seat=seat)
    assert again.pk == first.pk
    assert snapshot(duel) == after
    assert Move.objects.filter(game=duel).count() == 1


def test_a_resubmitted_move_without_a_seat_returns_the_first_even_when_another_seat_decides(
    duel: Game, alice: Any, bob: Any
) -> None:
    """A double click (or an API retry) lands after the turn passed to the rival."""
    user, _, seat = _deciding(duel, alice, bob)
    action, seq = options(duel, seat)[0], duel.seq
    first = services.submit(duel.pk, user, action, seq)
    assert seat not in prompted(duel), "the draft moves on to the rival"
    after = snapshot(duel)
    again = services.submit(duel.pk, user, action, seq)
    assert again.pk == first.pk
    assert snapshot(duel) == after


def test_a_different_move_at_an_old_seq_is_stale_not_a_resubmission(
    duel: Game, alice: Any, bob: Any
) -> None:
    user, other, seat = _deciding(duel, alice, bob)
    first_options, seq = options(duel, seat), duel.seq
    services.submit(duel.pk, user, first_options[0], seq, seat=seat)
    after = snapshot(duel)
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(duel.pk, user, first_options[1], seq, seat=seat)
    assert refused.value.code == "stale"
    with pytest.raises(services.MoveRefused) as refused:
        services.submit(duel.pk, other, first_options[0], seq)
    assert refused.value.code == "stale", "the rival did not make that move"
    assert snapshot(duel) == after


def test_every_accepted_move_is_logged_and_the_log_replays_to_the_same_hashes(
    scenarios: None, alice: Any
) -> None:
    game = make_game(alice, "me", "bot:random")
    picker = random.Random(7)
    for _ in range(12):
        seq = game.seq
        move = human_move(game, alice, picker)
        assert (
            move.seq == seq + 1 and move.seat in services.seats_of(game, alice) and not move.by_bot
        )
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
    game.refresh_from_db()
    moves = list(game.moves.order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, game.seq + 1))
    assert any(m.by_bot for m in moves) and any(not m.by_bot for m in moves)
    assert all(len(m.state_hash) == 64 for m in moves)
    record = {
        "game": "hre",
        "seed": game.seed,
        "config": game.config,
        "players": game.players,
        "moves": [{"seat": m.seat, "action": m.action, "hash": m.state_hash} for m in moves],
    }
    report = replay(game.engine, record)
    assert report.ok, report.message
    assert report.steps == game.seq
    assert report.final_hash == moves[-1].state_hash


def test_a_tampered_log_is_reported_as_a_divergence(scenarios: None, alice: Any) -> None:
    game = make_game(alice, "bot:random", "bot:random")
    moves = list(game.moves.order_by("seq")[:20])
    record = {
        "game": "hre",
        "seed": game.seed,
        "config": game.config,
        "players": game.players,
        "moves": [{"seat": m.seat, "action": m.action, "hash": m.state_hash} for m in moves],
    }
    record["moves"][9]["hash"] = "0" * 64
    report = replay(game.engine, record)
    assert not report.ok and report.divergence == 10


# --- concurrency ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # two threads, each with its own connection
def test_two_simultaneous_submissions_at_the_same_seq_apply_exactly_one(
    duel: Game, alice: Any, bob: Any
) -> None:
    user, _, seat = _deciding(duel, alice, bob)
    seq = duel.seq
    choices = options(duel, seat)[:2]
    barrier = threading.Barrier(2)
    outcomes: list[Any] = [None, None]

    def attempt(i: int) -> None:
        try:
            barrier.wait(timeout=5)
            outcomes[i] = services.submit(duel.pk, user, choices[i], seq, seat=seat)
        except services.MoveRefused as refused:
            outcomes[i] = refused
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            outcomes[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    accepted = [o for o in outcomes if isinstance(o, Move)]
    refused = [o for o in outcomes if isinstance(o, services.MoveRefused)]
    assert len(accepted) == 1 and len(refused) == 1, outcomes
    assert refused[0].code == "stale"
    duel.refresh_from_db()
    assert duel.seq == seq + 1
    assert Move.objects.filter(game=duel, seq=seq + 1).count() == 1
    assert Move.objects.filter(game=duel).count() == seq + 1
