"""The landing page for visitors who are not logged in: what the site is and what its games are."""

from __future__ import annotations

import functools
import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string

from games import boards
from games.management.commands.bootstrap import DEMO_USERS
from games.models import Game
from rules.core.registry import get_engine

# Each game in our own words: how it plays, how long, what a player does (the rulebooks are cited
# by section on the rules pages; nothing here is copied from them).
GAMES: tuple[dict[str, str], ...] = (
    {
        "game": "hre",
        "length": "Ends when the Culture deck runs out or the last Church on the track is built.",
        "about": "Each player takes one of the Empire's rulers. On your turn you put a Noble "
        "disc on one of five shared Action cards to build, develop culture, research, recruit "
        "or manoeuvre, and the other players may react. Settle provinces, drive out "
        "Barbarians, fight your rivals and claim the Titles of regions when you "
        "pass. Points come from land, buildings, culture and Titles.",
        "setup": "base",
        "players": "3",
        "moves": "40",
    },
    {
        "game": "ema",
        "length": "Nine to twenty Rounds of five years each, by scenario; one Round is one turn "
        "for every player.",
        "about": "Each player rules a medieval empire, from Charlemagne to the fall of "
        "Byzantium. Each turn you tax your Areas, then announce Endeavors: Conquest, Pillage, "
        "Diplomacy, Defense, Fortification or Ruling. A Year Card turned up decides each one "
        "against your Effectiveness Rating, which grows from your Leader's Stature, and events, "
        "plague and unrest test every empire.",
        "setup": "28-millenium",
        "players": "3",
        "moves": "30",
    },
    {
        "game": "feudal",
        "length": "First lord to 10 Victory Points (16 for a team of two).",
        "about": "A card game of rival lords. Each player brings a deck of characters, "
        "weapons, skills, supplies and Victory cards, led by a Leader card. Roll for Supply and "
        "Leadership each turn, draft characters to your holdings, arm them and attack the other "
        "lords: combat is fought with dice and the cards each side sends in, and Victory "
        "Points come from winning it.",
        "setup": "duel",
        "players": "2",
        "moves": "24",
    },
)


def games() -> list[dict[str, Any]]:
    """The three games for the landing page: title, players, length, paragraph and board picture."""
    shown = []
    for entry in GAMES:
        engine = get_engine(entry["game"])
        scenarios = [s for s in engine.scenarios() if not s.get("retired")]
        low = min(s["min_players"] for s in scenarios)
        high = max(s["max_players"] for s in scenarios)
        shown.append(
            {
                **entry,
                "title": engine.title,
                "players_text": f"{low} player" if low == high == 1 else f"{low}–{high} players",
                "scenarios": list(dict.fromkeys(s["title"] for s in scenarios)),
                "picture": board_picture(entry["game"]),
            }
        )
    return shown


@functools.cache
def board_picture(game: str) -> str:
    """The game's board a few moves into a game between random players, as a spectator sees it.

    The same seed every time, so the picture is the same on every visit; it is drawn from the
    game's own data by its own board template, so it never goes out of date.
    """
    entry = next(e for e in GAMES if e["game"] == game)
    engine = get_engine(game)
    scenario = next(s for s in engine.scenarios() if s["slug"] == entry["setup"])
    state = engine.setup(7, scenario["config"], int(entry["players"]))
    pick = random.Random(7)
    for _ in range(int(entry["moves"])):
        if engine.is_over(state):
            break
        prompt = pick.choice(engine.prompts(state))
        option = pick.choice(prompt["options"])
        state, _events = engine.apply(state, prompt["seat"], option["action"])
    view = engine.view(state, None)
    board = boards.board_context(game, view, None)
    return render_to_string(f"games/boards/{game}.html#map", {"board": board, "view": view})


def public_games() -> dict[str, list[Game]]:
    """Public games being played now, and the last ones finished."""
    public = Game.objects.filter(public=True).select_related("scenario")
    return {
        "live": list(public.filter(status=Game.Status.ACTIVE).order_by("-updated_at")[:8]),
        "recent": list(public.filter(status=Game.Status.FINISHED).order_by("-updated_at")[:8]),
    }


def demo_users() -> list[str]:
    """On a local set-up (DEBUG), the demo users `make run` created, to say who to log in as."""
    if not settings.DEBUG:
        return []
    found = set(
        get_user_model().objects.filter(username__in=DEMO_USERS).values_list("username", flat=True)
    )
    return [name for name in DEMO_USERS if name in found]
