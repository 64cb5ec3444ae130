"""Shipped scenarios: loaded from every registered engine into Scenario rows."""

from __future__ import annotations

from games.models import Scenario
from rules.core import all_engines


def load_shipped() -> int:
    """Create or refresh the Scenario row of every scenario an engine ships; returns the count."""
    count = 0
    for engine in all_engines():
        for spec in engine.scenarios():
            Scenario.objects.update_or_create(
                game=engine.game_id,
                slug=spec["slug"],
                defaults={
                    "title": spec["title"],
                    "description": spec.get("description", ""),
                    "min_players": spec["min_players"],
                    "max_players": spec["max_players"],
                    "config": spec["config"],
                    "shipped": True,
                },
            )
            count += 1
    return count
