"""Time controls with a frozen clock: the time bank, reminders, timeouts (a bot takes the seat, or
the game ends), taking a seat back, vacations, and the choice on the new game form."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import botkinds, clocks, jobs, services
from games.models import Game, GameClock, Move, Outbox, Scenario, Seat, SeatClock
from games.services import clocks as clock_service
from tests.games.helpers import make_game, options, prompted

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]

DAY = timedelta(days=1)


class FrozenClock:
    """timezone.now, moved only by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, by: timedelta) -> None:
        self.now += by


@pytest.fixture
def clock(monkeypatch: Any) -> FrozenClock:
    frozen = FrozenClock()
    monkeypatch.setattr(timezone, "now", frozen)
    return frozen


def timed_game(
    alice: Any,
    bob: Any,
    per_move: int = 3,
    cap: int = 5,
    on_timeout: str = "bot",
    scenario: tuple[str, str] = ("hre", "base"),
) -> Game:
    """Alice and Bob, with a time bank of `per_move` days a move up to `cap`."""
    scenario = Scenario.objects.get(game=scenario[0], slug=scenario[1])
    game = services.create_game(
        alice,
        scenario,
        2,
        [services.SeatSpec("me"), services.SeatSpec("invite", username=bob.username)],
        time_control=clocks.TimeControl(per_move, cap, on_timeout),
    )
    services.join(game.pk, bob)
    game.refresh_from_db()
    return game


def bank(game: Game, index: int) -> SeatClock:
    return SeatClock.objects.get(seat__game=game, seat__index=index)


def deciding(game: Game, users: dict[int, Any]) -> tuple[int, Any]:
    seat = prompted(game)[0]
    return seat, users[seat]


def test_a_bank_starts_at_one_allowance_and_each_decision_adds_one_up_to_the_cap(
    scenarios: None, alice: Any, bob: Any, clock: FrozenClock
) -> None:
    game = timed_game(alice, bob)
    users = {0: alice, 1: bob}
    seat, user = deciding(game, users)
    running, idle = bank(game, seat), bank(game, 1 - seat)
    assert running.running_since == clock.now and running.deadline == clock.now + 3 * DAY
    assert idle.running_since is None and idle.bank == 3 * DAY
    clock.advance(DAY)
    services.submit(game.pk, user, options(game, seat)[0], game.seq, seat=seat)
    assert seat not in prompted(game), "the draft passes to the other player"
    assert bank(game, seat).bank == 5 * DAY, "3 days less 1 used, plus 3, is 5: the cap"
    assert bank(game, seat).deadline is None
    assert bank(game, 1 - seat).deadline == clock.now + 3 * DAY


def test_EMA_20_2_the_players_of_an_empires_game_set_their_own_time_limit(
    scenarios: None, alice: Any, bob: Any, clock: FrozenClock
) -> None:
    """EMA-20.2: the players choose the time limit (here 2 days a decision, banked up to 4): it
    runs only for the Player who must decide, and a decision adds the allowance back. (The book's
    other suggestion, no dealing in one's own Player-Turn, is not offered: exchanges and
    agreements are proposed only in one's own turn here, so it would remove them.)"""
    game = timed_game(alice, bob, per_move=2, cap=4, scenario=("ema", "27-charlemagne"))
    seat, user = deciding(game, {0: alice, 1: bob})
    assert bank(game, seat).deadline == clock.now + 2 * DAY
    assert bank(game, 1 - seat).deadline is None
    clock.advance(DAY)
    for _ in range(40):  # the Player's decisions until the other must decide
        game.refresh_from_db()
        if seat not in prompted(game):
            break
        legal = options(game, seat)
        done = [a for a in legal if isinstance(a, dict) and a.get("do") == "end"]
        services.submit(game.pk, user, (done or legal)[-1], game.seq, seat=seat)
    assert seat not in prompted(game)
    assert bank(game, seat).bank == 3 * DAY, "2 days less 1 used, plus 2"
    assert bank(game, seat).deadline is None
    assert bank(game, 1 - seat).deadline == clock.now + 2 * DAY


def test_the_sweep_sends_one_reminder_when_time_is_nearly_spent(
    scenarios: None, alice: Any, bob: Any, clock: FrozenClock
) -> None:
    game = timed_game(alice, bob)
    seat, user = deciding(game, {0: alice, 1: bob})
    mail.outbox.clear()
    clock.advance(3 * DAY - 19 * timedelta(hours=1))
    assert clock_service.sweep() == {"reminded": 0, "timed_out": 0}, (
        "over a quarter of a move's allowance is left"
    )
    clock.advance(timedelta(hours=2))
    assert clock_service.sweep() == {"reminded": 1, "timed_out": 0}
    assert clock_service.sweep() == {"reminded": 0, "timed_out": 0}, "one reminder per decision"
    reminders = [m for m in mail.outbox if "nearly spent" in m.subject]
    assert len(reminders) == 1 and reminders[0].to == [user.email]
    assert "a bot plays your seat" in reminders[0].body
    assert Outbox.objects.filter(user=user, kind="reminder").count() == 1


def test_a_spent_clock_gives_the_seat_to_a_bot_until_the_player_takes_it_back(
    scenarios: None, alice: Any, bob: Any, clock: FrozenClock
) -> None:
    game = timed_game(alice, bob)
    users = {0: alice, 1: bob}
    late, user = deciding(game, users)
    clock.advance(3 * DAY + timedelta(minutes=1))
    assert clock_service.sweep()["timed_out"] == 1
    assert clock_service.sweep()["timed_out"] == 0, "a second sweep finds nothing spent"
    seat = Seat.objects.get(game=game, index=late)
    assert seat.bot == botkinds.TAKEOVER and seat.user == user, (
        "the player keeps the seat; a bot holds it"
    )
    assert bank(game, late).held_since == clock.now
    assert Move.objects.filter(game=game, seat=late, by_bot=True).exists(), (
        "the bot played through the service"
    )
    assert any("time ran out" in m.subject for m in mail.outbox if m.to == [user.email])
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "a bot holds this seat" in page and "Take back my seat" in page
    rival = Client()
    rival.force_login(users[1 - late])
    assert "Take back my seat" not in rival.get(f"/games/{game.pk}/").content.decode()
    assert rival.post(f"/games/{game.pk}/take-back/").status_code == 302
    assert Seat.objects.get(game=game, index=late).bot == botkinds.TAKEOVER, (
        "only the player may take it back"
    )
    assert client.post(f"/games/{game.pk}/take-back/").status_code == 302
    seat.refresh_from_db()
    held = bank(game, late)
    assert seat.bot == "" and held.held_since is None and held.bank >= 3 * DAY
    game.refresh_from_db()
    if late in game.prompted_seats():
        assert held.deadline == clock.now + held.bank, "their clock runs again"


def test_a_creator_may_choose_that_a_timeout_ends_the_game(
    scenarios: None, alice: Any, bob: Any, clock: FrozenClock
) -> None:
    game = timed_game(alice, bob, on_timeout=GameClock.OnTimeout.END)
    late, user = deciding(game, {0: alice, 1: bob})
    mail.outbox.clear()
    clock.advance(4 * DAY)
    assert clock_service.sweep()["timed_out"] == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["timeout"] == late and game.result["ended_by"] == "timeout"
    ranks = {row["seat"]: row["rank"] for row in game.result["seats"]}
    assert ranks == {late: 2, 1 - late: 1}
    results = [m for m in mail.outbox if m.subject.startswith("Game over")]
    assert sorted(m.to[0] for m in results) == sorted([alice.email, bob.email])
    assert f"Seat {late + 1} ran out of time" in results[0].body
    with pytest.raises(services.MoveRefused):
        services.submit(game.pk, user, {"ruler": "otto"}, game.seq, seat=late)


def test_a_vacation_pauses_the_clocks_out_of_a_yearly_allowance(
    scenarios: None, alice: Any, bob: Any, clock: FrozenClock
) -> None:
    game = timed_game(alice, bob)
    seat, user = deciding(game, {0: alice, 1: bob})
    clock.advance(DAY)
    pref = clock_service.start_vacation(user, 5)
    assert clocks.vacation_left(pref) == clocks.VACATION_DAYS_PER_YEAR - 5
    paused = bank(game, seat)
    assert paused.bank == 2 * DAY and paused.running_since == clock.now + 5 * DAY
    assert paused.deadline == clock.now + 7 * DAY
    clock.advance(3 * DAY)
    assert clock_service.sweep()["timed_out"] == 0, (
        "the old deadline has passed, but the player is away"
    )
    with pytest.raises(clocks.ClockError):
        clock_service.start_vacation(user, 1)
    pref = clock_service.end_vacation(user)
    assert clocks.vacation_left(pref) == clocks.VACATION_DAYS_PER_YEAR - 3, (
        "two unused days come back"
    )
    assert bank(game, seat).deadline == clock.now + 2 * DAY
    with pytest.raises(clocks.ClockError):
        clock_service.start_vacation(user, clocks.VACATION_DAYS_PER_YEAR)
    clock.now = clock.now.replace(year=2027)
    assert clocks.vacation_left(pref) == clocks.VACATION_DAYS_PER_YEAR, (
        "a new year, a new allowance"
    )


def test_vacation_is_set_from_the_profile_page(
    scenarios: None, alice: Any, clock: FrozenClock
) -> None:
    client = Client()
    client.force_login(alice)
    assert b"vacation days left" in client.get("/profile/").content
    client.post("/profile/mail/", {"vacation": "start", "days": "4"})
    page = client.get("/profile/").content.decode()
    assert (
        "Your clocks are paused until" in page
        and f"{clocks.VACATION_DAYS_PER_YEAR - 4} vacation days" in page
    )
    client.post("/profile/mail/", {"mode": "digest"})
    assert alice.mail_preference.__class__.objects.get(user=alice).mode == "digest"


def test_the_new_game_form_sets_a_time_control_shown_on_the_seat_cards(
    scenarios: None, alice: Any, clock: FrozenClock
) -> None:
    client = Client()
    client.force_login(alice)
    scenario = Scenario.objects.get(game="hre", slug="base")
    form = {
        "scenario": scenario.pk,
        "players": 2,
        "seat0": "me",
        "seat1": "bot:random",
        "options": "{}",
        "public": "on",
        "clock": "bank",
        "days_per_move": "2",
        "cap_days": "1",
        "on_timeout": "end",
    }
    refused = client.post("/games/new/", form)
    assert refused.status_code == 400 and b"The cap must be between" in refused.content
    made = client.post("/games/new/", {**form, "cap_days": "6"})
    assert made.status_code == 302
    game = Game.objects.get(created_by=alice)
    assert (game.clock.per_move, game.clock.cap, game.clock.on_timeout) == (2 * DAY, 6 * DAY, "end")
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Clock 2d 0h" in page


def test_a_game_without_a_time_control_has_no_clocks(
    scenarios: None, alice: Any, bob: Any, clock: FrozenClock
) -> None:
    game = make_game(alice, "me", bob)
    clock.advance(400 * DAY)
    assert clock_service.sweep() == {"reminded": 0, "timed_out": 0}
    assert not SeatClock.objects.filter(seat__game=game).exists()
    assert "Clock" not in Client().get(f"/games/{game.pk}/").content.decode()


def test_a_player_who_moves_while_a_bot_holds_their_seat_has_come_back(
    scenarios: None, alice: Any, bob: Any, clock: FrozenClock, monkeypatch: Any
) -> None:
    game = timed_game(alice, bob)
    late, user = deciding(game, {0: alice, 1: bob})
    # The bot's turn is still owed (a worker is busy) when the player comes back.
    monkeypatch.setattr(jobs, "dispatch", lambda job_id, countdown=0: None)
    clock.advance(3 * DAY + timedelta(minutes=1))
    assert clock_service.sweep()["timed_out"] == 1
    game.refresh_from_db()
    services.submit(game.pk, user, options(game, late)[0], game.seq, seat=late)
    assert Seat.objects.get(game=game, index=late).bot == ""
    assert bank(game, late).held_since is None


def test_a_running_clock_carries_its_deadline_for_the_live_countdown(
    scenarios: None, alice: Any, bob: Any, clock: FrozenClock
) -> None:
    game = timed_game(alice, bob)
    seat, user = deciding(game, {0: alice, 1: bob})
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    deadline = bank(game, seat).deadline
    assert f'data-deadline="{timezone.localtime(deadline).isoformat()}"' in page
    assert page.count("<span data-clock-left>Clock 3d 0h</span>") == 1, (
        "only the running clock counts down"
    )
    script = (Path(__file__).resolve().parents[2] / "static" / "js" / "chancery.js").read_text()
    assert "data-clock-left" in script and "30000" in script and "htmx:oobAfterSwap" in script
