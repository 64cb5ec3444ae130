"""A game stored by an older rules version is upgraded when it is read, and plays on.

EMA's rules version 8 keeps each Area as a compact row; versions 1-7 stored dicts
(rules.ema.engine.EmaEngine.upgrade). Other engines read every state of their versions as it is.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import replays, services, undo
from games.models import Game, Scenario
from rules.core.canonical import state_hash
from tests.games.helpers import human_move

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("scenarios", "commits")]


def _stored_at_version_7(alice: Any, moves: int = 12) -> tuple[Game, dict[str, Any]]:
    """A solo EMA game after some moves, rewritten in the database as version 7 stored it
    (its state and every move's hash in the dict layout of the Areas)."""
    scenario = Scenario.objects.get(game="ema", slug="27-charlemagne-solo")
    game = services.create_game(alice, scenario, 1, [services.SeatSpec("me")])
    picker = random.Random(3)
    for _ in range(moves):
        human_move(game, alice, picker)
    game.refresh_from_db()
    engine = game.engine
    for move in game.moves.all():
        old = engine.earlier_layout(replays.state_at(game, move.seq))
        move.state_hash = state_hash(old)
        move.save(update_fields=["state_hash"])
    Game.objects.filter(pk=game.pk).update(state=engine.earlier_layout(game.state), rules_version=7)
    return game, game.state


def test_a_game_stored_at_version_7_is_read_upgraded_and_plays_on(alice: Any) -> None:
    game, current = _stored_at_version_7(alice)
    loaded = Game.objects.get(pk=game.pk)
    assert isinstance(next(iter(loaded.state["areas"].values())), list)
    assert loaded.rules_version == loaded.engine.rules_version
    assert loaded.state == current  # the same position, Areas as rows
    loaded.engine.check_invariants(loaded.state)
    assert Game.objects.values_list("rules_version", flat=True).get(pk=game.pk) == 7
    human_move(loaded, alice, random.Random(5))
    stored = Game.objects.values("rules_version", "state").get(pk=game.pk)
    assert stored["rules_version"] == loaded.engine.rules_version
    assert isinstance(stored["state"]["areas"]["saxony"], list)
    loaded.refresh_from_db()
    loaded.engine.check_invariants(loaded.state)
    # Undo replays every move: those hashed in the dict layout and the new one both check.
    assert undo.state_at(loaded, loaded.seq) == loaded.state


def test_a_state_of_an_unknown_version_is_left_alone_and_refused(alice: Any) -> None:
    game, current = _stored_at_version_7(alice, moves=2)
    Game.objects.filter(pk=game.pk).update(state=current, rules_version=99)
    loaded = Game.objects.get(pk=game.pk)
    assert (loaded.rules_version, loaded.state) == (99, current)  # newer: read as stored
    action = loaded.engine.prompts(current)[0]["options"][0]["action"]
    before = Game.objects.values("seq", "state", "rules_version").get(pk=game.pk)
    with pytest.raises(services.MoveRefused, match="saved by rules version 99"):
        services.submit(game.pk, alice, action, loaded.seq, seat=0)
    assert Game.objects.values("seq", "state", "rules_version").get(pk=game.pk) == before
