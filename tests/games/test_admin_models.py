"""The admin lists the correspondence-play models; none shows what a running game hides."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.boards.feudal import decks
from games.models import (
    ChatChannel,
    ChatMessage,
    EmailActionUse,
    Game,
    GameClock,
    MailPreference,
    Mute,
    Outbox,
    Rating,
    RematchOffer,
    Result,
    Scenario,
    SeatClock,
    SeatNote,
    SeatResult,
    StandingAnswer,
)

pytestmark = pytest.mark.django_db

MODELS = [
    "deck",
    "outbox",
    "emailactionuse",
    "mailpreference",
    "gameclock",
    "seatclock",
    "standinganswer",
    "result",
    "rating",
    "rematchoffer",
    "chatchannel",
    "chatmessage",
    "mute",
    "seatnote",
]


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def root(db: None) -> Client:
    return _client(get_user_model().objects.create_superuser("root", "root@example.com", "x"))


@pytest.fixture
def moderator(db: None) -> Client:
    """Staff who may view every games model, but is not a superuser."""
    user = get_user_model().objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(content_type__app_label="games", codename__startswith="view_")
    )
    return _client(user)


@pytest.fixture
def running(scenarios: None, alice: Any, bob: Any) -> Game:
    """A running game with a row of every kind the admin lists."""
    scenario = Scenario.objects.get(game="hre", slug="base")
    game = services.create_game(
        alice, scenario, 2, [services.SeatSpec("me"), services.SeatSpec("invite", "bob")]
    )
    services.join(game.pk, bob)
    game.refresh_from_db()
    now = timezone.now()
    decks.copy_starter(alice, "under_city")
    Outbox.objects.create(user=alice, game=game, seq=1, kind=Outbox.Kind.TURN)
    EmailActionUse.objects.create(game=game, seq=1, seat=0, user=alice)
    MailPreference.objects.create(user=alice)
    GameClock.objects.create(game=game, per_move=dt.timedelta(days=1), cap=dt.timedelta(days=3))
    SeatClock.objects.create(seat=game.seats.get(index=0), bank=dt.timedelta(days=1), deadline=now)
    StandingAnswer.objects.create(
        game=game,
        seat=1,
        kind="reaction",
        choice="option",
        option_label="SECRET-OPTION",
        option_action={"card": "SECRET-OPTION"},
    )
    Rating.objects.create(user=alice, game="hre", mu=25.0, sigma=8.3)
    channel = ChatChannel.objects.create(game=game, members=[0, 1])
    ChatMessage.objects.create(
        game=game, channel=channel, seat=0, author=alice, text="PRIVATE-WORDS"
    )
    ChatMessage.objects.create(game=game, seat=1, author=bob, text="TABLE-TALK")
    Mute.objects.create(game=game, seat=0, muted=1)
    SeatNote.objects.create(game=game, seat=0, text="MY-NOTES")
    finished = services.create_game(
        alice, scenario, 2, [services.SeatSpec("bot", bot="random")] * 2
    )
    result = Result.objects.get_or_create(game=finished)[0]
    if not result.seats.exists():
        SeatResult.objects.create(result=result, seat=0, rank=1, score=10, bot="random")
    RematchOffer.objects.create(game=finished, offered_by=alice)
    return game


def test_every_changelist_loads_for_a_superuser(running: Game, root: Client) -> None:
    for model in MODELS + ["game", "move", "scenario"]:
        response = root.get(reverse(f"admin:games_{model}_changelist"))
        assert response.status_code == 200, model
    result = Result.objects.get()
    assert root.get(reverse("admin:games_result_change", args=[result.pk])).status_code == 200
    assert (
        "PRIVATE-WORDS" in root.get(reverse("admin:games_chatmessage_changelist")).content.decode()
    )


def test_a_running_games_hidden_choices_and_notes_are_not_shown(
    running: Game, root: Client
) -> None:
    answer = StandingAnswer.objects.get()
    for url in (
        reverse("admin:games_standinganswer_changelist"),
        reverse("admin:games_standinganswer_change", args=[answer.pk]),
    ):
        assert "SECRET-OPTION" not in root.get(url).content.decode()
    note = SeatNote.objects.get()
    for url in (
        reverse("admin:games_seatnote_changelist"),
        reverse("admin:games_seatnote_change", args=[note.pk]),
    ):
        assert "MY-NOTES" not in root.get(url).content.decode()


def test_private_chat_is_shown_only_to_superusers(running: Game, moderator: Client) -> None:
    for model in MODELS:
        assert moderator.get(reverse(f"admin:games_{model}_changelist")).status_code == 200, model
    listing = moderator.get(reverse("admin:games_chatmessage_changelist")).content.decode()
    assert "TABLE-TALK" in listing and "PRIVATE-WORDS" not in listing
    private = ChatMessage.objects.get(channel__isnull=False)
    page = moderator.get(reverse("admin:games_chatmessage_change", args=[private.pk]), follow=True)
    assert "PRIVATE-WORDS" not in page.content.decode()
    search = moderator.get(
        reverse("admin:games_chatmessage_changelist") + "?q=PRIVATE"
    ).content.decode()
    assert "PRIVATE-WORDS" not in search


def test_decks_are_editable_and_mail_rows_are_not(running: Game, root: Client) -> None:
    mine = running.created_by.decks.get()
    response = root.get(reverse("admin:games_deck_change", args=[mine.pk]))
    assert response.status_code == 200 and 'name="entries-0-count"' in response.content.decode()
    outbox = Outbox.objects.first()
    assert outbox is not None
    page = root.get(reverse("admin:games_outbox_change", args=[outbox.pk])).content.decode()
    assert 'name="_save"' not in page
    assert root.get(reverse("admin:games_outbox_add")).status_code == 403
