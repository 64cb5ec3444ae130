"""Shipped scenarios: loaded from every registered engine into Scenario rows.

A shipped scenario is the engine's: the admin shows it read-only (only "enabled" may change) and
offers to copy it, and every `bootstrap` (run by `make migrate` and the release step) writes it
again from the engine, naming any row whose fields had been changed by other means. One the
engine has retired (replaced by others, kept for its stored games) is written with `retired`:
the new-game form and the API offer it for no new game, and its games play on as before.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games import rulebook
from games.models import Scenario
from rules.core import all_engines

# The fields a shipped scenario takes from its engine; "enabled" is the site's own choice.
ENGINE_FIELDS = ("title", "description", "min_players", "max_players", "config", "retired")


def shipped_values(spec: dict[str, Any]) -> dict[str, Any]:
    """A shipped scenario's fields as its engine states them."""
    return {
        "title": spec["title"],
        "description": spec.get("description", ""),
        "min_players": spec["min_players"],
        "max_players": spec["max_players"],
        "config": spec["config"],
        "retired": bool(spec.get("retired", False)),
    }


def load_shipped() -> tuple[int, list[str]]:
    """Create or refresh the Scenario row of every scenario an engine ships.

    Returns the count and one line per existing row whose fields differed from the engine's
    (edited by hand before the admin made shipped scenarios read-only): they are reset.
    """
    count, reset = 0, []
    for engine in all_engines():
        for spec in engine.scenarios():
            values = shipped_values(spec)
            row = Scenario.objects.filter(game=engine.game_id, slug=spec["slug"]).first()
            if row is not None:
                # "retired" is left out: only the engine sets it (a row from before the field
                # was added differs from its engine without anyone having edited it).
                changed = [
                    f for f in ENGINE_FIELDS if f != "retired" and getattr(row, f) != values[f]
                ]
                if changed:
                    reset.append(
                        f"{engine.game_id}/{spec['slug']}: {', '.join(changed)} differed from the "
                        "engine's and were reset (copy a shipped scenario to change it)"
                    )
            Scenario.objects.update_or_create(
                game=engine.game_id, slug=spec["slug"], defaults={**values, "shipped": True}
            )
            count += 1
    return count, reset


def offered() -> QuerySet[Scenario]:
    """The scenarios a new game may start with (Scenario.offered), as a query."""
    return Scenario.objects.filter(enabled=True, retired=False)


def retired_text(scenario: Scenario) -> str:
    """Why a retired scenario starts no new game, and which ones replace it."""
    others = [
        s.title
        for s in offered().filter(game=scenario.game, config=scenario.config)
        if s.player_range()
    ]
    instead = f" Choose one of these instead: {'; '.join(others)}." if others else ""
    return (
        f"{scenario.title} is kept only for the games already played with it; "
        f"it starts no new game.{instead}"
    )


def chosen_options(game_config: dict[str, Any], engine: Any) -> list[dict[str, str]]:
    """The options a game was set up with that differ from the recommended reading, worded."""
    chosen = game_config.get("options") or {}
    try:
        specs = engine.option_specs()
    except ValueError:  # an option the engine has not worded yet: show the raw values
        return [{"label": k, "value": str(v)} for k, v in sorted(chosen.items())]
    shown = []
    for spec in specs:
        name = spec["name"]
        if name not in chosen or chosen[name] == spec["default"]:
            continue
        words = {repr(c["value"]): c["label"] for c in spec["choices"]}
        shown.append(
            {"label": spec["label"], "value": words.get(repr(chosen[name]), str(chosen[name]))}
        )
    return shown


def chosen_modules(game: str, config: dict[str, Any], engine: Any) -> list[dict[str, str]]:
    """The expansion modules a config plays, each named, with our summary and its rules link."""
    names = {m["id"]: m for m in engine.module_specs()}
    shown = []
    for module_id in engine.config_modules(config):
        spec = names[module_id]
        ref = rulebook.link(game, spec["rule"])
        shown.append(
            {
                "id": module_id,
                "name": spec["name"],
                "label": f"Module {module_id[1:].lstrip('0')}: {spec['name']}",
                "summary": ref["summary"] if ref else "",
                "url": ref["url"] if ref else "",
            }
        )
    return shown
