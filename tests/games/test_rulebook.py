"""The rules page groups each game's summaries under the rulebook's own sections."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import boards, rulebook


def _titles(game: str) -> list[str]:
    return [section["title"] for section in rulebook.sections(game)]


def _section_of(game: str, rule: str) -> str:
    return next(
        s["title"] for s in rulebook.sections(game) if any(r["id"] == rule for r in s["rules"])
    )


def test_feudal_lords_rules_are_grouped_by_the_reference_sections() -> None:
    titles = _titles("feudal")
    assert titles[:3] == ["Deck", "Setup", "General rules"]
    assert _section_of("feudal", "FL-COMBAT-DF-03") == "Combat: Distance Fire"
    assert _section_of("feudal", "FL-MP-07") == "Multi-player"
    assert (
        _section_of("feudal", "FL-SUPPLY-02")
        == _section_of("feudal", "FL-ARM-01")
        == _section_of("feudal", "FL-ACT-01")
    )
    combat = [t for t in titles if t.startswith("Combat:")]
    assert combat == [
        "Combat: before the fight",
        "Combat: sending combatants",
        "Combat: Victory cards and bluffs",
        "Combat: Distance Fire",
        "Combat: Close Combat match-ups",
        "Combat: Close Combat rounds",
        "Combat: the end, sacking and VP",
    ]
    assert not {"Df", "Mu", "Vc", ""} & set(titles)


def test_ema_rules_are_grouped_by_case_in_case_order() -> None:
    titles = _titles("ema")
    assert titles[0] == "Sequence of play"
    assert (
        _section_of("ema", "EMA-16.0.Plunder-P2")
        == _section_of("ema", "EMA-16.2")
        == "Gold, taxes and plunder"
    )
    assert _section_of("ema", "EMA-19.1.BD-4") == "Event and Holding cards"
    assert (
        _section_of("ema", "EMA-SOP-III.6")
        == _section_of("ema", "EMA-6.0.GR-b")
        == "Sequence of play"
    )
    assert _section_of("ema", "EMA-31.7") == "Scenarios"
    assert titles.index("Endeavors") < titles.index("Conquest") < titles.index("Victory")
    assert all(title and "." not in title for title in titles)


def test_every_summary_lands_in_exactly_one_named_section() -> None:
    for game in ("hre", "ema", "feudal"):
        listed = [r["id"] for s in rulebook.sections(game) for r in s["rules"]]
        listed += [s["intro"]["id"] for s in rulebook.sections(game) if s["intro"]]
        assert sorted(listed) == sorted(rulebook.summaries(game))
        headings = boards.BOARDS[game].headings
        assert all(s["area"] in headings for s in rulebook.sections(game)), game


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "heading"), [("feudal", "Combat: Distance Fire"), ("ema", "Grand Diplomacy")]
)
def test_the_rules_page_shows_the_section_headings(client: Client, game: str, heading: str) -> None:
    html = client.get(f"/rules/{game}/").content.decode()
    assert f"<h2>{heading}</h2>" in html


@pytest.mark.django_db
def test_the_nav_links_to_my_decks_for_a_logged_in_user(client: Client, alice: Any) -> None:
    assert 'href="/decks/"' not in client.get("/rules/hre/").content.decode()
    client.force_login(alice)
    assert 'href="/decks/">Decks</a>' in client.get("/rules/hre/").content.decode()


@pytest.mark.django_db
def test_the_rules_page_of_an_unknown_game_is_404(client: Client) -> None:
    """No fallback to another game's headings: a game the site does not know has no rules page."""
    assert client.get("/rules/chess/").status_code == 404
    with pytest.raises(rulebook.UnknownGame):
        rulebook.sections("chess")
    assert rulebook.summaries("chess") == {}


def test_each_game_heads_its_rules_with_its_own_sections() -> None:
    assert _titles("hre")[0] == "Setting up"
    assert _section_of("hre", "HRE-BASE-PASS-11") == "Passing"
    assert "Setting up" not in _titles("feudal") + _titles("ema")
