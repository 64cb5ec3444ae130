"""Issue 18: mail a person wants to read (an HTML part with the site's look beside a plain-text part
that reads well, for every kind of mail), and a dev inbox that shows each mail to its recipient."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import services
from games.models import DevEmail, Outbox
from tests.games.helpers import make_game, options, play

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]


def _html(message: Any) -> str:
    parts = [content for content, kind in message.alternatives if kind == "text/html"]
    assert len(parts) == 1, "one HTML part"
    return str(parts[0])


def _mail_of(row: Outbox) -> Any:
    return next(m for m in mail.outbox if m.extra_headers["X-Chancery-Outbox"] == str(row.pk))


def test_a_turn_mail_has_an_html_part_with_the_question_buttons_changes_and_scores(
    scenarios: None, alice: Any, settings: Any
) -> None:
    settings.SITE_URL = "http://testserver"
    game = play(make_game(alice, "me", "bot:random"), alice, random.Random(2), moves=8)
    row = Outbox.objects.filter(user=alice, game=game, kind="turn", status="sent").latest("seq")
    message = _mail_of(row)
    text, page = message.body, _html(message)
    game.refresh_from_db()
    prompt = game.engine.prompt_for(game.state, row.seat) if row.seq == game.seq else None
    assert text.startswith(f"alice, it is your decision in {game.scenario.title} #{game.pk}.")
    assert f"Open the game: http://testserver/games/{game.pk}/" in text
    assert page.startswith("<!doctype html>") and 'name="viewport"' in page
    assert "#7a1f1f" in page and ">HRE</td>" in page, "the site's colours and the game's emblem"
    assert html.escape(game.scenario.title) in page
    if prompt is not None:
        assert re.search(r"<h1[^>]*>" + re.escape(html.escape(prompt["text"])) + "</h1>", page)
    assert f'href="http://testserver/games/{game.pk}/"' in page and ">Open the game</a>" in page
    quick = re.findall(r"http://testserver/mail/act/\S+", text)
    assert len(re.findall(r'href="http://testserver/mail/act/', page)) == len(quick)
    assert "<h2" in page and "Since your last move" in page and "The board at a glance" in page
    for label in ("alice", "Random"):
        assert label in page
    assert "http://testserver/mail/unsubscribe/" in page and "Mail settings" in page


def test_invitation_started_and_result_mails_look_like_the_site(
    scenarios: None, alice: Any, bob: Any, settings: Any
) -> None:
    settings.SITE_URL = "http://testserver"
    game = make_game(alice, "me", bob, "bot:random")  # bob is invited, then joins
    subjects = {str(m.subject): m for m in mail.outbox}
    invite = subjects[f"You are invited to {game.scenario.title} #{game.pk}"]
    assert invite.to == [bob.email]
    assert "alice invites you to a game of" in invite.body and "Take your seat: http" in invite.body
    assert "invites you to play</h1>" in _html(invite) and ">Take your seat</a>" in _html(invite)
    started = subjects[f"Your game has started: {game.scenario.title} #{game.pk}"]
    assert started.to == [alice.email], "bob's own joining started it: he is at the keyboard"
    assert "your game has started" in _html(started)
    picker, users = random.Random(1), {0: alice, 1: bob}
    while game.status == "active":
        seat = game.prompted_seats()[0]
        move = picker.choice(options(game, seat))
        services.submit(game.pk, users[seat], move, game.seq, seat=seat)
        game.refresh_from_db()
    assert game.status == "finished"
    results = [m for m in mail.outbox if str(m.subject).startswith("Game over")]
    assert sorted(m.to[0] for m in results) == sorted([alice.email, bob.email])
    page = _html(results[0])
    assert "The game is over</h1>" in page and page.count("(seat ") == 3
    winner = next(r for r in game.result["seats"] if r["rank"] == 1)
    assert f'<td style="padding:4px 0;text-align:right">{winner["score"]}</td>' in page


def test_the_dev_inbox_shows_each_mail_to_its_recipient_and_everything_to_staff(
    scenarios: None, alice: Any, bob: Any, settings: Any
) -> None:
    settings.EMAIL_BACKEND = "games.mail.DevInboxBackend"
    settings.DEBUG = True
    make_game(alice, "me", bob)
    to_alice = DevEmail.objects.filter(to=alice.email)
    to_bob = DevEmail.objects.filter(to=bob.email)
    assert to_alice.exists() and to_bob.exists() and all(m.html for m in DevEmail.objects.all())
    client = Client()
    assert client.get(reverse("dev_inbox")).status_code == 302, "log in first"
    client.force_login(alice)
    page = client.get(reverse("dev_inbox")).content.decode()
    assert all(html.escape(m.subject) in page for m in to_alice)
    assert not any(
        html.escape(m.subject) in page
        for m in to_bob
        if m.subject not in {a.subject for a in to_alice}
    )
    assert f"To {bob.email}" not in page and f"To {alice.email}" in page
    assert '<iframe class="mail-html"' in page and 'sandbox="allow-popups' in page
    staff = get_user_model().objects.create_user("root", "root@example.com", "x", is_staff=True)
    client.force_login(staff)
    page = client.get(reverse("dev_inbox")).content.decode()
    assert f"To {bob.email}" in page and f"To {alice.email}" in page
    settings.DEBUG = False
    assert client.get(reverse("dev_inbox")).status_code == 404
