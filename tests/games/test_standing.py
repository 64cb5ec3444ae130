"""Standing answers: set in advance, given by the move service after each commit, logged as such."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import standing
from games.models import Move, StandingAnswer
from rules.core.engine import looks_like_pass
from rules.hre import ENGINE as HRE
from tests.games.toy import PASS, POKE, TAKE, act, toy, toy_game  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy", "commits")]


def test_always_pass_answers_an_off_turn_reaction_and_is_logged(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    standing.set_answer(game, 1, "reaction", "pass")
    act(game, alice, POKE, 0)
    last = game.moves.order_by("-seq").first()
    assert (last.seat, last.action, last.by_standing) == (1, PASS["action"], True)
    assert game.prompted_seats() == [0], "the reaction was answered: alice plays on"
    client = Client()
    client.force_login(alice)
    assert "(standing answer)" in client.get(reverse("game", args=[game.pk])).content.decode()


def test_a_standing_answer_never_decides_on_the_seats_own_turn(alice: Any, bob: Any) -> None:
    """Standing answers are for decisions on another player's turn (issue 5, point 3)."""
    game = toy_game(alice, "me", bob)
    standing.set_answer(game, 0, "reaction", "pass")
    state = game.state
    state["react"] = [state["turn"]]  # the seat whose turn it is must react to something
    game.state = state
    game.save()
    assert game.prompted_seats() == [state["turn"]] == [0]
    assert standing.due(game) == []


def test_always_this_option_matches_it_by_label(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    standing.set_answer(game, 1, "reaction", StandingAnswer.OPTION, label="take 1 GOLD")
    act(game, alice, POKE, 0)
    assert game.moves.order_by("-seq").first().action == TAKE["action"]


def test_ask_me_leaves_the_decision_to_the_player(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    standing.set_answer(game, 1, "reaction", "pass")
    standing.set_answer(game, 1, "reaction", StandingAnswer.ASK)
    act(game, alice, POKE, 0)
    assert game.prompted_seats() == [1]
    assert not Move.objects.filter(game=game, by_standing=True).exists()


def test_an_answer_set_while_prompted_is_given_at_once(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    act(game, alice, POKE, 0)
    assert game.prompted_seats() == [1]
    client = Client()
    client.force_login(bob)
    response = client.post(
        reverse("standing", args=[game.pk]),
        {"seat": 1, "kind": "reaction", "choice": "first"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and 'id="standing"' in response.content.decode()
    game.refresh_from_db()
    assert game.prompted_seats() == [0]
    assert game.moves.order_by("-seq").first().by_standing


def test_a_standing_answer_is_refused_for_a_seat_one_does_not_hold(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    client = Client()
    client.force_login(alice)
    response = client.post(
        reverse("standing", args=[game.pk]),
        {"seat": 1, "kind": "reaction", "choice": "pass"},
        HTTP_HX_REQUEST="true",
    )
    assert "You do not hold that seat." in response.content.decode()
    assert not StandingAnswer.objects.exists()
    with pytest.raises(standing.StandingRefused):
        standing.set_answer(game, 0, "no-such-kind", "pass")


def test_the_game_page_offers_a_form_per_prompt_kind(alice: Any, bob: Any) -> None:
    game = toy_game(alice, "me", bob)
    client = Client()
    client.force_login(bob)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'name="kind" value="reaction"' in page and "Always pass or decline" in page


def test_pass_is_recognised_in_each_engines_way_of_saying_no() -> None:
    assert all(
        looks_like_pass(a)
        for a in (
            {"do": "pass"},
            {"claim": None},
            {"do": "none"},
            {"kind": "none"},
            {"do": "decline"},
            {"cancel": None},
        )
    )
    assert not any(
        looks_like_pass(a) for a in ({"do": "draw"}, {"react": "gold"}, {}, None, {"infantry": 0})
    )
    kinds = HRE.prompt_kinds()
    assert {"reaction", "claim"} <= set(kinds)
    claim = [
        {"action": {"claim": "t1"}, "label": "Claim"},
        {"action": {"claim": None}, "label": "Claim no Title"},
    ]
    assert HRE.standing_answer("claim", "pass", claim) == claim[1]
    assert HRE.standing_answer("claim", "first", claim) == claim[0]
    assert (
        HRE.standing_answer("retreat", "pass", [{"action": {"to": "p1"}, "label": "Retreat"}])
        is None
    )
