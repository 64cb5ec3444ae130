"""Issue 18: no game stalls for want of a mail (the seat that moved is mailed its next question),
one-click answers only for the prompt kinds an engine declares trivial, and at most one unseen
turn mail per game and player."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import emails, notify, services
from games.models import Game, Outbox
from rules.core import all_engines
from rules.core.engine import looks_like_pass
from tests.games.helpers import make_game, options
from tests.games.mailbox import Collector, body

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commits")]

ACT = re.compile(r"http://testserver(/mail/act/\S+)")
NOTHING_MORE = {"sell": None}  # HRE Pass step 4: sell nothing more


def _play_until(game: Game, users: dict[int, Any], wanted: Any) -> int:
    """Deal the game again with the first seed whose random playout (the engine alone) reaches a
    position where `wanted(engine, state, seat)` holds for the seat asked first, then make the
    same moves as the players through the move service; returns that seat."""
    engine = game.engine
    for seed in range(40):
        state, picker, moves = (
            engine.setup(seed, game.config, game.players),
            random.Random(seed),
            [],
        )
        while engine.prompts(state) and len(moves) < 3000:
            seat = engine.prompts(state)[0]["seat"]
            if wanted(engine, state, seat):
                break
            move = picker.choice(engine.prompt_for(state, seat)["options"])["action"]
            state, _ = engine.apply(state, seat, move)
            moves.append((seat, move))
        else:
            continue
        game.seed, game.state = seed, engine.setup(seed, game.config, game.players)
        game.save(update_fields=["seed", "state"])
        for mover, move in moves:
            services.submit(game.pk, users[mover], move, game.seq, seat=mover)
            game.seq += 1
        game.refresh_from_db()
        assert game.prompted_seats()[0] == seat
        return seat
    raise AssertionError("no seed reached the position")


def _next_kind(engine: Any, state: Any, seat: int, action: Any) -> str | None:
    """The kind of the seat's next question after this answer, if it is asked again at once."""
    prompt = engine.prompt_for(state, seat)
    if prompt is None or action not in [o["action"] for o in prompt["options"]]:
        return None
    after, _ = engine.apply(state, seat, action)
    nxt = engine.prompt_for(after, seat)
    return None if nxt is None else str(nxt["kind"])


def test_hre_a_pass_followed_by_pass_step_4_mails_the_same_player_again(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    """HRE Passing step 4: the seat that passed is asked at once whether to sell more."""
    game = make_game(alice, "me", bob)
    users = {0: alice, 1: bob}

    def pass_then_sell(engine: Any, state: Any, seat: int) -> bool:
        return _next_kind(engine, state, seat, {"do": "pass"}) == "sell"

    seat = _play_until(game, users, pass_then_sell)
    services.submit(game.pk, users[seat], {"do": "pass"}, game.seq, seat=seat)  # e.g. the API
    game.refresh_from_db()
    row = Outbox.objects.get(user=users[seat], game=game, seq=game.seq, kind="turn")
    assert (row.seat, row.status) == (seat, "sent"), row.note
    mail = next(m for m in smtp.to(users[seat]) if m["X-Chancery-Outbox"] == str(row.pk))
    assert "Pass step 4" in body(mail)


def test_a_mail_link_answer_followed_by_another_question_is_mailed_and_shown(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    """HRE Passing steps 4 and 5: "Sell nothing more" from a mail, then the discard question."""
    game = make_game(alice, "me", bob)
    users = {0: alice, 1: bob}

    def sell_then_discard(engine: Any, state: Any, seat: int) -> bool:
        return _next_kind(engine, state, seat, NOTHING_MORE) == "discard_res"

    seat = _play_until(game, users, sell_then_discard)
    row = Outbox.objects.get(user=users[seat], game=game, seq=game.seq, kind="turn")
    mail = next(m for m in smtp.to(users[seat]) if m["X-Chancery-Outbox"] == str(row.pk))
    links = ACT.findall(body(mail))
    assert len(links) == 1 and "Sell nothing more" in body(mail)
    client = Client()  # logged out, as from a phone's mail app
    done = client.post(links[0])
    page = done.content.decode()
    assert done.status_code == 200 and "Your decision is made" in page
    game.refresh_from_db()
    question = game.engine.prompt_for(game.state, seat)
    assert question is not None and question["kind"] == "discard_res"
    assert "Your next decision" in page and question["text"] in page
    assert f'href="{reverse("game", args=[game.pk])}"' in page
    again = Outbox.objects.get(user=users[seat], game=game, seq=game.seq, kind="turn")
    assert (again.seat, again.status) == (seat, "sent"), "the same player is mailed again"


def test_the_done_page_offers_one_click_answers_to_a_trivial_next_question(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    """HRE Passing steps 2 and 4: "Claim no Title" from a mail, then "Sell nothing more" offered."""
    game = make_game(alice, "me", bob)
    users = {0: alice, 1: bob}

    def claim_then_sell(engine: Any, state: Any, seat: int) -> bool:
        return _next_kind(engine, state, seat, {"claim": None}) == "sell"

    seat = _play_until(game, users, claim_then_sell)
    row = Outbox.objects.get(user=users[seat], game=game, seq=game.seq, kind="turn")
    mail = next(m for m in smtp.messages if m["X-Chancery-Outbox"] == str(row.pk))
    link = ACT.findall(body(mail))
    assert len(link) == 1 and "Claim no Title" in body(mail)
    page = Client().post(link[0]).content.decode()
    after = emails.next_question(game, users[seat].pk)
    assert after is not None and after["prompt"]["kind"] == "sell"
    assert [q["label"] for q in after["quick"]] == ["Sell nothing more"]
    # The page's link carries the same signed decision as the fresh one (same seq and answer).
    shown = re.findall(r'href="http://testserver(/mail/act/[^"]+)"', page)
    assert len(shown) == 1 and Client().get(shown[0]).status_code == 200
    assert b"Sell nothing more" in Client().get(shown[0]).content


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.game_id)
def test_one_click_answers_only_for_the_kinds_an_engine_declares_trivial(engine: Any) -> None:
    """Random playouts: a one-click answer is a "no" to a trivial kind, never the turn's Pass."""
    config, players = {
        "hre": ({"modules": [], "options": {}}, 2),
        "ema": ({"scenario": "28-millenium", "options": {}}, 3),
        "feudal": ({"mode": "melee", "options": {}}, 3),
    }[engine.game_id]
    trivial, seen = engine.trivial_kinds(), set()
    assert trivial <= set(engine.machine.decisions) if hasattr(engine, "machine") else True
    state = engine.setup(5, config, players)
    picker = random.Random(5)
    for _ in range(1500):
        prompts = engine.prompts(state)
        if not prompts:
            break
        for prompt in prompts:
            for option in prompt["options"]:
                quick = emails.is_trivial(engine, prompt, option["action"])
                assert quick == (prompt["kind"] in trivial and looks_like_pass(option["action"]))
                if quick:
                    seen.add(prompt["kind"])
        prompt = picker.choice(prompts)
        state, _ = engine.apply(state, prompt["seat"], picker.choice(prompt["options"])["action"])
    assert seen, "the playout met a trivial question"
    if engine.game_id == "hre":
        assert "turn" not in trivial, "Pass on the main turn question ends the round"


def test_hre_pass_on_the_turn_question_is_never_a_mail_link(
    scenarios: None, alice: Any, bob: Any, smtp: Collector
) -> None:
    game = make_game(alice, "me", bob)
    users = {0: alice, 1: bob}
    seat = _play_until(
        game,
        users,
        lambda engine, state, seat: (
            {"do": "pass"} in [o["action"] for o in engine.prompt_for(state, seat)["options"]]
        ),
    )
    prompt = game.engine.prompt_for(game.state, seat)
    assert prompt["kind"] == "turn"
    assert emails.quick_answers(game, users[seat].pk, seat, dict(prompt)) == []
    for mail in smtp.messages:
        assert not re.search(r"\n  Pass: http", body(mail))


def test_a_turn_mail_waits_and_is_dropped_when_the_player_answers_meanwhile(
    scenarios: None, alice: Any, settings: Any
) -> None:
    settings.CHANCERY_TURN_MAIL_DELAY = 60
    game = make_game(alice, "me", "bot:random")
    row = Outbox.objects.get(user=alice, game=game, kind="turn")
    assert row.status == "pending" and row.not_before > timezone.now() + timedelta(seconds=50)
    assert notify.drain() == 0, "not due yet"
    seat = game.prompted_seats()[0]
    services.submit(game.pk, alice, options(game, seat)[0], game.seq, seat=seat)
    later = timezone.now() + timedelta(seconds=61)
    notify.drain(later)
    row.refresh_from_db()
    assert (row.status, row.note) == ("skipped", "decided")
    game.refresh_from_db()
    if game.status == Game.Status.ACTIVE:  # her next decision (after the bot's) went out late
        latest = Outbox.objects.filter(user=alice, game=game, kind="turn").latest("seq")
        assert latest.pk != row.pk and latest.status == "sent"


def test_at_most_one_unseen_turn_mail_per_game(
    scenarios: None, alice: Any, smtp: Collector, held_mail: None
) -> None:
    """After a turn mail went out, the next waits until the player opens the game or moves."""
    game = make_game(alice, "me", "bot:random")
    assert notify.drain() == 1
    first = Outbox.objects.get(user=alice, game=game, kind="turn", status="sent")
    seat = game.prompted_seats()[0]
    services.submit(game.pk, alice, options(game, seat)[0], game.seq, seat=seat)
    game.refresh_from_db()
    owed = Outbox.objects.get(user=alice, game=game, seq=game.seq, kind="turn")
    # Say the first mail went out only after that move (a standing answer or a bot made it, or
    # the seat was asked again by the engine): alice has not seen the game since.
    Outbox.objects.filter(pk=first.pk).update(sent_at=timezone.now())
    assert notify.drain() == 0
    owed.refresh_from_db()
    assert (owed.status, owed.note) == ("skipped", "unseen")
    # Opening the game page counts as seeing it: the next mail goes out.
    client = Client()
    client.force_login(alice)
    assert client.get(reverse("game", args=[game.pk])).status_code == 200
    Outbox.objects.filter(pk=owed.pk).update(status="pending", note="")
    assert notify.drain() == 1
    assert len(smtp.turns(alice)) == 2


def test_a_decision_skipped_while_the_page_was_open_is_mailed_when_the_page_closes(
    scenarios: None, alice: Any, smtp: Collector
) -> None:
    """A player who leaves the page without answering is not forgotten: the mail is owed again."""
    game = make_game(alice, "me", "bot:random")
    notify.page_opened(alice, game.pk, "socket-1")
    seat = game.prompted_seats()[0]
    services.submit(game.pk, alice, options(game, seat)[0], game.seq, seat=seat)
    game.refresh_from_db()
    turns = Outbox.objects.filter(user=alice, game=game, kind="turn", seq=game.seq)
    assert not turns.exists(), "no row is written while the page is open"
    sent = len(smtp.turns(alice))
    notify.page_opened(alice, game.pk, "socket-2")  # a second tab
    notify.page_closed("socket-1")
    assert not turns.exists(), "still watching in the other tab"
    notify.page_closed("socket-2")
    assert turns.get().status == "sent"
    assert len(smtp.turns(alice)) == sent + 1
