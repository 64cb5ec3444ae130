"""The game page's board context, the rules page, and the page of a finished game."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client

from games import rulebook, services
from games.boards.hre import board as hre_board
from games.models import Game, Scenario
from rules.hre import ENGINE

RULES_SOURCE = Path(__file__).resolve().parents[2] / "rules" / "hre"


def _first_prompt(
    wanted: Callable[[dict[str, Any], dict[str, Any]], bool],
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play random moves from a fixed seed until a prompt and its seat's view are as wanted."""
    state = ENGINE.setup(7, ENGINE.scenarios()[0]["config"], 3)
    rnd = random.Random(7)
    for _ in range(5000):
        prompts = ENGINE.prompts(state)
        if not prompts:
            break
        prompt = prompts[0]
        view = ENGINE.view(state, prompt["seat"])
        if wanted(view, prompt):
            return view, prompt
        state, _events = ENGINE.apply(
            state, prompt["seat"], rnd.choice(prompt["options"])["action"]
        )
    raise AssertionError("no such position in a random game")


def _chooses_a_province(view: dict[str, Any], prompt: dict[str, Any]) -> bool:
    return any(
        isinstance(o["action"], dict) and ("prov" in o["action"] or "to" in o["action"])
        for o in prompt["options"]
    )


def _first_prompt_choosing_provinces() -> tuple[dict[str, Any], dict[str, Any]]:
    return _first_prompt(_chooses_a_province)


def test_the_board_highlights_the_provinces_a_prompt_chooses() -> None:
    view, prompt = _first_prompt_choosing_provinces()
    board = hre_board.board_context(view, prompt)
    wanted: dict[str, list[int]] = {}
    for i, opt in enumerate(prompt["options"]):
        action = opt["action"]
        prov = action.get("prov") or action.get("to") or action.get("from")
        if prov:
            wanted.setdefault(prov, []).append(i)
    picked = {p["id"]: p["pick"] for p in board["provinces"] if p["pick"]}
    assert set(picked) == set(wanted)
    for prov, indices in wanted.items():
        pick = picked[prov]
        assert pick["options"].split() == [str(i) for i in indices]
        assert pick["single"] == (indices[0] if len(indices) == 1 else None)
    assert board["choosing"]


def test_the_board_draws_no_hidden_barbarian_side_or_token_id() -> None:
    view, prompt = _first_prompt_choosing_provinces()
    board = hre_board.board_context(view, prompt)
    drawn = json.dumps(board, default=str)
    assert not re.search(r'"B\d\d"', drawn)
    for p in board["provinces"]:
        here = view["provinces"][p["id"]]
        assert (p["barb"] is None) == (here["barb"] is None)
        if p["barb"]:
            assert p["barb"]["face"] == here["barb"]["face"]


def test_a_battle_in_progress_is_drawn_with_both_sides() -> None:
    view, prompt = _first_prompt(lambda v, p: v["battle"] is not None)
    board = hre_board.board_context(view, prompt)
    html = render_to_string("games/boards/hre.html#tableau", {"board": board, "view": view})
    assert "Battle for " + board["battle"]["prov"] in html
    assert "Attacker" in html and "Defender" in html
    assert [p["id"] for p in board["provinces"] if p["battle"]] == [view["battle"]["prov"]]


def test_every_rule_the_engine_cites_has_a_summary() -> None:
    cited = set()
    for source in [*RULES_SOURCE.glob("*.py"), *RULES_SOURCE.glob("modules/*.py")]:
        cited |= set(re.findall(r'"(HRE-[A-Z0-9]+-[A-Z]+(?:-[A-Z]+)?-\d\d)"', source.read_text()))
    # Ids the engine builds with f-strings: the battle phases and the Build costs.
    cited |= {f"HRE-BASE-BSEQ-0{n}" for n in (3, 4, 5)}
    cited |= {f"HRE-BASE-BUILD-{n}" for n in ("02", "06", "10", "15", "19", "20")}
    missing = sorted(cited - set(rulebook.summaries("hre")))
    assert cited and not missing


@pytest.mark.django_db
def test_the_rules_page_lists_our_summaries(client: Client) -> None:
    response = client.get("/rules/hre/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="HRE-BASE-PASS-11"' in html
    assert rulebook.summaries("hre")["HRE-BASE-PASS-11"] in html
    assert client.get("/rules/nosuchgame/").status_code == 404


@pytest.mark.django_db
@pytest.mark.usefixtures("commits")  # bots move, mail goes out, after the commit
def test_a_finished_game_shows_the_result_table(
    scenarios: None, alice: Any, client: Client
) -> None:
    scenario = Scenario.objects.get(game="hre", slug="base")
    specs = [services.SeatSpec("bot", bot="random"), services.SeatSpec("bot", bot="greedy")]
    game = services.create_game(alice, scenario, 2, specs)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Final scores" in html and "VP track" in html
    for row in game.result["seats"]:
        assert f"<td><strong>{row['score']}</strong></td>" in html
    assert "/rules/hre/#HRE-" in html, "log lines link to the rule summaries"
