"""Issue 19 on the site: an 8-seat Great Domain game (HRE Module 2) drawn for each of its players.

Eight people hold one seat each; after the draft and some turns, each one's page (and a
spectator's) shows all eight seat cards, the map's zoom controls, the join between the halves
and the joined Culture board, and none of the cards the others hold or the deck.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.boards.common import COLOURS, GLYPHS
from games.boards.hre import domain
from games.boards.hre.board import REG_H, REG_W, board_context
from games.models import Game
from rules.hre import ENGINE
from tests.games.helpers import great_domain_game, leaks, timeline
from tests.rules.hre.helpers import draft_all

PLAYERS = 8


def _eight_players() -> tuple[Game, list[Any]]:
    """An 8-seat Great Domain game between eight users, played at random past the draft."""
    users = [
        get_user_model().objects.create_user(f"p{i}", f"p{i}@example.com", "correct horse")
        for i in range(PLAYERS)
    ]
    return great_domain_game(users, 60, seed=19), users


@pytest.mark.django_db
def test_each_of_eight_players_sees_every_seat_the_zoom_and_nothing_hidden(
    scenarios: None,
) -> None:
    game, users = _eight_players()
    line = timeline(game)
    viewers: list[tuple[Any, set[int]]] = [(u, {i}) for i, u in enumerate(users)]
    for user, seats in [*viewers, (None, set())]:
        client = Client()
        if user is not None:
            client.force_login(user)
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert leaks(page, line, game.seq, seats) == [], f"seats {seats} see a secret"
        assert all(f'id="seat-card-{i}"' in page for i in range(PLAYERS))
        cards = re.findall(r'<article class="seat-card([^"]*)" style="--seat: ([^"]+)"', page)
        assert [colour for _, colour in cards] == list(COLOURS)
        assert sum("mine" in classes for classes, _ in cards) == len(seats)
        assert all(glyph in page for glyph in GLYPHS)
        assert 'class="players many"' in page  # the other seats' cards are compact
        for control in ('data-zoom="in"', 'data-zoom="out"', 'data-zoom="fit"', "data-zoom-level"):
            assert control in page
        assert re.search(r'class="map-scroll" tabindex="0" role="region" aria-label="Map', page)
        assert 'class="seam"' in page and "Western half" in page and "Central half" in page
        assert page.count('class="card type-') >= 12  # the doubled offer, and a hand perhaps
        hands = re.findall(r'<dd data-watch="s(\d)-hand">(\d+)</dd>', page)
        assert len(hands) == PLAYERS
        if user is not None:  # the own hand is listed; the others' are only counts
            (me,) = seats
            assert page.count('<li class="card type-') - 12 == int(dict(hands)[str(me)])


def _joined_board(players: int) -> dict[str, Any]:
    state, _ = draft_all(ENGINE.setup(5, {"modules": ["M02"], "options": {}}, players))
    return board_context(ENGINE.view(state, 0), None)


@pytest.mark.parametrize("players", [5, 8])
def test_the_join_runs_between_the_two_halves(players: int) -> None:
    """Every point of the drawn join is about as far from a western register as from a central
    one, it runs from the map's top to its bottom, and each half lies on its own side."""
    board = _joined_board(players)
    provinces = board["provinces"]
    boxes: dict[bool, list[tuple[int, int, int, int]]] = {True: [], False: []}
    for p in provinces:
        boxes[p["id"] in domain.western()].append((p["x"], p["y"], p["x"] + REG_W, p["y"] + REG_H))
    points = [
        (float(x), float(y)) for x, y in re.findall(r"(-?\d+) (-?\d+)", board["seam"]["path"])
    ]
    top = min(p["y"] for p in provinces)
    bottom = max(p["y"] for p in provinces) + REG_H
    assert points[0][1] <= top and points[-1][1] >= bottom - domain.ROW
    for x, y in points:
        west = domain._gap(x, y, tuple(boxes[True]))
        central = domain._gap(x, y, tuple(boxes[False]))
        assert abs(west - central) <= 2 * domain.ROW, (x, y, west, central)
    ys = [y for _, y in points]
    for p in provinces:  # the register's centre lies on its half's side of the line
        cx, cy = p["x"] + REG_W / 2, p["y"] + REG_H / 2
        at = min(range(len(points)), key=lambda i: abs(ys[i] - cy))
        assert (cx < points[at][0]) == (p["id"] in domain.western()), p["id"]


def test_HRE_M02_PLAY_02_each_red_space_says_which_two_offer_cards_it_opens() -> None:
    """HRE-M02-PLAY-02 as drawn: on the joined Culture board the first four cards are open to
    all and each red space opens the next two, so the fourth red space opens the last two."""
    board = _joined_board(8)
    joined = board["joined"]
    reds = [c["n"] for c in board["culture_track"] if c["red"]]
    assert joined["offer_size"] == len(board["offer"]) == 12
    assert [joined["opens"][n] for n in reds] == [(5, 6), (7, 8), (9, 10), (11, 12)]
    assert sorted(joined["opened_by"]) == list(range(5, 13))
    assert all(joined["opened_by"][pos] == reds[(pos - 5) // 2] for pos in range(5, 13))


def test_a_base_game_draws_no_join_and_no_joined_culture_board() -> None:
    state, _ = draft_all(ENGINE.setup(5, {"modules": [], "options": {}}, 4))
    board = board_context(ENGINE.view(state, 0), None)
    assert board["seam"] == {} and board["joined"] is None
