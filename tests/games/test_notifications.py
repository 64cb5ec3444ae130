"""Turn mail through the outbox, against a real SMTP server: once per decision, digests,
unsubscribing, what the mail shows (never another seat's secrets), and deciding from a mail."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone

from games import emails, notify, services, tasks
from games.models import MailPreference, Move, Outbox
from tests.games.helpers import leaks, make_game, options, play, prompted, timeline
from tests.games.mailbox import Collector, body

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]

LINK = re.compile(r"http://testserver(/\S+)")


def users_of(game: Any, alice: Any, bob: Any) -> dict[int, Any]:
    return {0: alice, 1: bob}


def test_the_player_who_must_decide_gets_one_mail_with_a_link_to_the_game(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    game = make_game(alice, "me", bob)  # bob is invited; his joining starts the game
    seat = prompted(game)[0]
    user = users_of(game, alice, bob)[seat]
    asked = [m for m in smtp.to(user) if "Choose your Ruler" in body(m)]
    assert len(asked) == 1, "the start of the game asks the first player to decide"
    text = body(asked[0])
    assert f"http://testserver/games/{game.pk}/" in text
    assert (
        str(asked[0]["List-Unsubscribe"]).strip().startswith("<http://testserver/mail/unsubscribe/")
    )
    other = alice if user == bob else bob
    assert not [m for m in smtp.to(other) if "Choose your Ruler" in body(m)]
    # Bob was invited, then his own joining started the game: he is at the keyboard and gets
    # no "started" mail; alice, who was not there, is told (with her question if she is first).
    invitation = str(smtp.to(bob)[0]["Subject"]).strip()
    assert invitation == f"You are invited to {game.scenario.title} #{game.pk}"
    assert not [m for m in smtp.to(bob) if "Your game has started" in str(m["Subject"])]
    started = [m for m in smtp.to(alice) if "Your game has started" in str(m["Subject"])]
    assert len(started) == 1 and len(smtp.to(alice)) == 1
    kind = "turn" if user == bob else "started"
    row = Outbox.objects.get(user=user, game=game, kind=kind)
    assert (row.seq, row.seat, row.status) == (0, seat, "sent")


def test_a_move_submitted_twice_and_a_drain_run_twice_send_one_mail(
    scenarios: None, alice: Any, bob: Any, smtp: Collector, held_mail: None
) -> None:
    game = make_game(alice, "me", bob)
    users = users_of(game, alice, bob)
    seat = prompted(game)[0]
    action, seq = options(game, seat)[0], game.seq
    services.submit(game.pk, users[seat], action, seq, seat=seat)
    services.submit(game.pk, users[seat], action, seq, seat=seat)  # a double click
    nxt = prompted(game)[0]
    assert Outbox.objects.filter(user=users[nxt], game=game, seq=seq + 1).count() == 1
    assert smtp.messages == [], (
        "the drain task was lost: nothing is sent yet, nothing is lost either"
    )
    # The first decision was made before any mail went out: only the second is still owed, in a
    # turn mail or in alice's "your game has started" (written at the start, it asks what she
    # must decide when it goes out); bob's invitation is moot, he has joined.
    assert tasks.drain_outbox() == Outbox.objects.filter(status="sent").count() >= 1
    assert tasks.drain_outbox() == 0, "a retried task finds nothing left to send"
    game.refresh_from_db()
    question = game.engine.prompt_for(game.state, nxt)["text"]
    asked = [m for m in smtp.messages if question in body(m)]
    assert len(asked) == 1 and smtp.to(users[nxt])[-1] == asked[0]


def test_a_worker_that_dies_mid_send_leaves_the_mail_to_the_next_drain_after_its_lease(
    scenarios: None, alice: Any, bob: Any, smtp: Collector, held_mail: None
) -> None:
    game = make_game(alice, "me", "bot:random")
    row = Outbox.objects.get(game=game)
    now = timezone.now()
    assert notify._claim(row.pk, now), "a worker claims the row, then dies before sending"
    assert notify.drain(now) == 0, "while its lease runs, no other drain sends it"
    assert notify.drain(now + notify.LEASE + timedelta(seconds=1)) == 1
    assert notify.drain(now + 2 * notify.LEASE) == 0
    assert len(smtp.messages) == 1


def test_no_turn_mail_while_the_player_has_the_game_open(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    game = make_game(alice, "me", bob)
    users = users_of(game, alice, bob)
    first = prompted(game)[0]
    nxt = 1 - first
    notify.page_opened(users[nxt], game.pk, "socket-1")
    services.submit(game.pk, users[first], options(game, first)[0], game.seq, seat=first)
    # Checked in the move's transaction: no row at all is written for a watching player.
    assert not Outbox.objects.filter(user=users[nxt], game=game, seq=1, kind="turn").exists()
    assert smtp.turns(users[nxt]) == []
    notify.page_closed("socket-1")
    assert not notify.is_watching(users[nxt].pk, game.pk)
    # Leaving without answering: the decision is owed by mail now (sent at once here: the
    # tests' turn-mail delay is 0 and tasks run inline).
    assert Outbox.objects.get(user=users[nxt], game=game, seq=1, kind="turn").status == "sent"
    assert len(smtp.turns(users[nxt])) == 1


def test_no_turn_mail_while_the_player_is_on_vacation(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    game = make_game(alice, "me", bob)
    users = users_of(game, alice, bob)
    first = prompted(game)[0]
    nxt = 1 - first
    MailPreference.objects.update_or_create(
        user=users[nxt], defaults={"vacation_until": timezone.now() + timedelta(days=3)}
    )
    services.submit(game.pk, users[first], options(game, first)[0], game.seq, seat=first)
    row = Outbox.objects.get(user=users[nxt], game=game, seq=1, kind="turn")
    assert (row.status, row.note) == ("skipped", "on vacation")
    assert smtp.turns(users[nxt]) == []


def test_a_turn_mail_is_skipped_once_the_player_has_decided(
    scenarios: None, alice: Any, bob: Any, smtp: Collector, held_mail: None
) -> None:
    game = make_game(alice, "me", bob)
    users = users_of(game, alice, bob)
    seat = prompted(game)[0]
    services.submit(game.pk, users[seat], options(game, seat)[0], game.seq, seat=seat)
    nxt = prompted(game)[0]
    services.submit(game.pk, users[nxt], options(game, nxt)[0], game.seq, seat=nxt)
    tasks.drain_outbox()
    owed = Outbox.objects.get(game=game, seq=1, seat=nxt, kind="turn")
    assert (owed.status, owed.note) == ("skipped", "decided")


def test_digest_readers_get_one_mail_a_day_listing_the_games_waiting(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    for user in (alice, bob):
        MailPreference.objects.create(user=user, mode=MailPreference.Mode.DIGEST)
    game = make_game(alice, "me", bob)
    other = make_game(bob, "me", alice)
    assert [str(m["Subject"]) for m in smtp.messages if "invited" not in str(m["Subject"])] == [], (
        "digest readers get no mail per decision (invitations aside)"
    )
    owed = Outbox.objects.exclude(kind="invite")
    assert set(owed.values_list("note", flat=True)) == {"digest"}
    readers = [u for u in (alice, bob) if emails.waiting_games(u)]
    assert readers and tasks.send_digests() == len(readers)
    assert tasks.send_digests() == 0, "one digest a day"
    invitations = [m for m in smtp.messages if "invited" in str(m["Subject"])]
    for user in readers:
        mails = [m for m in smtp.to(user) if m not in invitations]
        assert len(mails) == 1 and "waiting for you" in mails[0]["Subject"]
        listed = {g.pk for g in emails.waiting_games(user)}
        assert listed <= {game.pk, other.pk} and all(
            f"/games/{pk}/" in body(mails[0]) for pk in listed
        )
    assert len(smtp.messages) == len(readers) + len(invitations)


def test_the_unsubscribe_link_works_without_logging_in_and_stops_all_mail(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    game = make_game(alice, "me", bob)
    users = users_of(game, alice, bob)
    first = prompted(game)[0]
    user = users[first]
    path = LINK.findall(smtp.to(user)[0]["List-Unsubscribe"])[0].rstrip(">")
    client = Client()
    page = client.get(path)
    assert page.status_code == 200 and b"Stop all mail" in page.content
    assert notify.preference(user).mode == MailPreference.Mode.EACH, (
        "a GET (a mail scanner) changes nothing"
    )
    assert client.post(path).status_code == 200
    assert notify.preference(user).mode == MailPreference.Mode.NONE
    assert client.post(path.replace("/mail/unsubscribe/", "/mail/unsubscribe/x")).status_code == 400
    other = signing.dumps({"u": users[1 - first].pk}, salt="wrong-salt")
    assert client.post(f"/mail/unsubscribe/{other}/").status_code == 400, (
        "a token for another purpose is forged"
    )
    # Make the game come back to the unsubscribed player: no more mail reaches them.
    sent = len(smtp.to(user))
    play_until_back(game, users, first)
    assert len(smtp.to(user)) == sent
    assert Outbox.objects.filter(user=user, note="unsubscribed").exists()


def play_until_back(game: Any, users: dict[int, Any], seat: int) -> None:
    picker = random.Random(3)
    game.refresh_from_db()
    while seat in game.prompted_seats():
        services.submit(
            game.pk, users[seat], picker.choice(options(game, seat)), game.seq, seat=seat
        )
        game.refresh_from_db()
    while seat not in game.prompted_seats():
        other = game.prompted_seats()[0]
        services.submit(
            game.pk, users[other], picker.choice(options(game, other)), game.seq, seat=other
        )
        game.refresh_from_db()


def test_turn_mail_tells_what_happened_since_and_never_shows_another_seats_secrets(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    game = make_game(alice, "me", bob)
    users = users_of(game, alice, bob)
    picker = random.Random(11)
    for _ in range(60):
        game.refresh_from_db()
        seat = game.prompted_seats()[0]
        services.submit(
            game.pk, users[seat], picker.choice(options(game, seat)), game.seq, seat=seat
        )
    line = timeline(game)
    checked = 0
    for message in smtp.messages:
        row = Outbox.objects.get(pk=int(message["X-Chancery-Outbox"]))
        if row.kind != "turn":
            continue
        text = body(message)
        assert leaks(text, line, row.seq, {row.seat}) == [], f"mail for seq {row.seq} leaks"
        html = message.get_body(preferencelist=("html",))
        assert html is not None and leaks(str(html.get_content()), line, row.seq, {row.seat}) == []
        assert "Since your last move:" in text and "The board at a glance:" in text and "VP" in text
        checked += 1
    assert checked >= 5
    # The events since the seat's last move are there, with only that seat's private text.
    last = smtp.messages[-1]
    row = Outbox.objects.get(pk=int(last["X-Chancery-Outbox"]))
    mine = Move.objects.filter(game=game, seat=row.seat, seq__lte=row.seq).order_by("-seq").first()
    assert mine is not None
    for move in Move.objects.filter(game=game, seq__gt=mine.seq, seq__lte=row.seq):
        for event in move.events:
            if event.get("public"):
                assert event["public"] in body(last)
            for seat, private in (event.get("private") or {}).items():
                if int(seat) != row.seat and private not in (event.get("public") or ""):
                    assert private not in body(last), "another seat's private text"


def mailed_quick_link(game: Any, users: dict[int, Any], smtp: Collector) -> tuple[int, str, str]:
    """Play on until a turn mail offers a one-click answer: (seat, its label, its path)."""
    picker = random.Random(7)
    for _ in range(300):
        game.refresh_from_db()
        seat = game.prompted_seats()[0]
        row = Outbox.objects.filter(game=game, seq=game.seq, seat=seat, status="sent").first()
        mail = [m for m in smtp.messages if row and m["X-Chancery-Outbox"] == str(row.pk)]
        match = (
            re.search(r"\n  (.+?): http://testserver(/mail/act/\S+)", body(mail[0]))
            if mail
            else None
        )
        if match:
            return seat, match.group(1), match.group(2)
        services.submit(
            game.pk, users[seat], picker.choice(options(game, seat)), game.seq, seat=seat
        )
    raise AssertionError("no mail offered a one-click answer")


def test_a_trivial_decision_is_made_from_the_mail_once(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    game = make_game(alice, "me", bob)
    users = users_of(game, alice, bob)
    seat, label, path = mailed_quick_link(game, users, smtp)
    expected = next(
        o["action"]
        for o in game.engine.prompt_for(game.state, seat)["options"]
        if o["label"] == label
    )
    assert emails.is_trivial(game.engine, game.engine.prompt_for(game.state, seat), expected)
    client = Client()  # not logged in: the signed link is the credential
    page = client.get(path)
    assert page.status_code == 200 and label.encode() in page.content
    seq = game.seq
    assert Move.objects.filter(game=game).count() == seq, "a GET (a mail scanner) makes no move"
    done = client.post(path)
    assert done.status_code == 200 and b"Your decision is made" in done.content
    move = Move.objects.get(game=game, seq=seq + 1)
    assert (move.seat, move.action, move.by_bot) == (seat, expected, False)
    again = client.post(path)
    assert again.status_code == 409 and b"already been used" in again.content
    assert Move.objects.filter(game=game).count() == seq + 1


def test_a_mail_link_that_is_forged_or_stale_is_refused(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    game = make_game(alice, "me", bob)
    users = users_of(game, alice, bob)
    seat, _, path = mailed_quick_link(game, users, smtp)
    game.refresh_from_db()
    client = Client()
    token = path.split("/")[3]
    data = signing.loads(token, salt=emails.ACTION_SALT)
    prompt = game.engine.prompt_for(game.state, seat)
    weighty = next(a for a in options(game, seat) if not emails.is_trivial(game.engine, prompt, a))
    # Forged: a different action under the same signature, or a self-made token.
    tampered = token.replace(
        token.split(":")[0],
        signing.dumps({**data, "a": weighty}, salt=emails.ACTION_SALT, compress=True).split(":")[0],
    )
    assert client.post(f"/mail/act/{tampered}/").status_code == 400
    selfmade = signing.dumps({**data, "a": weighty}, salt=emails.ACTION_SALT, compress=True)
    assert client.post(f"/mail/act/{selfmade}/").status_code == 400, (
        "only trivial answers can come from a mail"
    )
    assert client.post("/mail/act/garbage/").status_code == 400
    # Stale: the player moved on the page first.
    services.submit(game.pk, users[seat], options(game, seat)[0], game.seq, seat=seat)
    before = Move.objects.filter(game=game).count()
    stale = client.post(path)
    assert stale.status_code == 409 and b"moved on" in stale.content
    assert Move.objects.filter(game=game).count() == before


def test_a_mail_link_expires(
    scenarios: None, alice: Any, bob: Any, smtp: Collector, monkeypatch: Any
) -> None:
    _, _, path = mailed_quick_link(make_game(alice, "me", bob), {0: alice, 1: bob}, smtp)
    monkeypatch.setattr(emails, "ACTION_MAX_AGE", -1)
    assert Client().post(path).status_code == 410


def test_the_end_of_a_game_is_mailed_with_the_result(
    scenarios: None, alice: Any, settings: Any
) -> None:
    from django.core import mail

    game = play(make_game(alice, "me", "bot:random"), alice, random.Random(5))
    assert game.status == "finished"
    results = [m for m in mail.outbox if m.subject.startswith("Game over")]
    assert len(results) == 1 and results[0].to == [alice.email]
    rank = next(r["rank"] for r in game.result["seats"] if r["seat"] == 0)
    assert f"{rank}. alice (seat 1)" in results[0].body


@pytest.mark.django_db(transaction=True)  # the socket reads from its own thread
@pytest.mark.asyncio
async def test_an_open_socket_marks_the_player_present_until_it_closes(
    scenarios: None, alice: Any, bob: Any
) -> None:
    from channels.db import database_sync_to_async

    from tests.games.test_consumers import cookie
    from tests.games.test_consumers import socket as game_socket

    game = await database_sync_to_async(make_game)(alice, "me", bob)
    headers = await database_sync_to_async(cookie)(bob)
    communicator = game_socket(game, headers)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    await communicator.receive_from(timeout=10)
    assert await database_sync_to_async(notify.is_watching)(bob.pk, game.pk)
    assert not await database_sync_to_async(notify.is_watching)(alice.pk, game.pk)
    await communicator.disconnect()
    assert not await database_sync_to_async(notify.is_watching)(bob.pk, game.pk)
