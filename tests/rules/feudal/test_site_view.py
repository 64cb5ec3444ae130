"""What the site reads from the per-seat view: the viewer's own hand at the top level, nobody else's."""

from __future__ import annotations

from rules.feudal import ENGINE
from tests.rules.feudal.helpers import PETER, RICHARD, duel, give


def test_view_offers_only_the_viewers_own_hand_at_the_top() -> None:
    """FL-SETUP-07 hands are secret: seat views carry their own hand, spectators none."""
    state = duel()
    give(state, RICHARD, ["bane"])
    for seat in (PETER, RICHARD):
        view = ENGINE.view(state, seat)
        assert view["hand"] == sorted(state["seats"][seat]["hand"])
        assert view["seats"][1 - seat]["hand"] is None
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None
    assert all(s["hand"] is None for s in spectator["seats"])
