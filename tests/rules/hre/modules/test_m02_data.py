"""Module 2's authored western half (rules/hre/data/m02_great_domain.json): checked at load."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.hre.components import ComponentError, build, in_play, load, read_raw

Raw = dict[str, Any]


def _raw() -> Raw:
    return copy.deepcopy(read_raw())


def _mark(west: Raw, province: str, players: int) -> None:
    next(p for p in west["provinces"] if p["id"] == province)["players"] = players


def _west(raw: Raw) -> Raw:
    found: Raw = raw["m02_great_domain"]
    return found


def test_the_western_half_joins_the_map_without_touching_the_base_tables() -> None:
    """24 western provinces marked 5-8: none is in play at 1-4 players, every one at 8."""
    d = load()
    west = {p["id"] for p in _west(read_raw())["provinces"]}
    assert len(west) == 24 and west <= set(d.provinces)
    for n in (1, 2, 3, 4):
        assert not in_play(d.provinces, n) & west
    counts = {n: len(in_play(d.provinces, n)) for n in (5, 6, 7, 8)}
    assert counts == {5: 49, 6: 50, 7: 51, 8: 52}
    # every in-play province but the Capitals takes one of both boxes' 50 tokens
    assert all(counts[n] - n <= len(d.token_sets["great_domain"]) for n in counts)
    assert len(d.token_sets["great_domain"]) == 50 and len(d.token_sets["barbarian"]) == 25


def test_links_across_the_join_are_mirrored_on_the_central_half() -> None:
    d = load()
    for central, west in [
        ("frisia", "flanders"),
        ("upper_lotharingia", "auxerre"),
        ("upper_burgundy", "vienne"),
        ("ivrea", "provence"),
    ]:
        assert west in d.adjacent[central] and central in d.adjacent[west]
    assert "provence" in d.provinces["tuscany"]["water"]


def test_western_rulers_mirror_a_central_twin() -> None:
    """Five Western Rulers (M02), Capitals off Iron in their own Regions, a central twin's costs
    and starting cards that do what the twin's do."""
    d = load()
    west = [r for r in d.rulers.values() if r["module"] == "M02"]
    assert len(west) == 5 and all(r["origin"] == "western" for r in west)
    for ruler in west:
        twin = d.rulers[ruler["twin"]]
        assert ruler["costs"] == twin["costs"]
        assert d.provinces[ruler["capital"]]["resource"] != "iron"
        for mine, theirs in zip(ruler["starting_cards"], twin["starting_cards"], strict=True):
            assert d.cards[mine]["type"] == d.cards[theirs]["type"]
            assert d.cards[mine]["name"] != d.cards[theirs]["name"]
    assert len({d.provinces[r["capital"]]["region"] for r in west}) == 5


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda w: w["table"]["by_players"]["5"].update(cities=19), "expected the book's"),
        (lambda w: w["table"].update(offer_size=10), "twice the base offer"),
        (lambda w: w["table"].update(church_spaces=15), "16 Churches"),
        (lambda w: w["provinces"][0].update(players=4), "marked 5 to 8"),
        (lambda w: w["provinces"][0]["land"].append("barcelona"), "not mirrored"),
        (lambda w: w["rulers"][0].update(costs=[1, 2, 3]), "settling costs"),
        (lambda w: w["cards"][0]["levels"][2].update(vp=5), "does what its twin"),
        (lambda w: w["tokens"].pop(), "25 tokens"),
        (lambda w: _mark(w, "chalon", 7), "fewer than 3 provinces in play"),
    ],
)
def test_bad_western_data_is_refused_at_load(edit: Any, message: str) -> None:
    raw = _raw()
    edit(_west(raw))
    with pytest.raises(ComponentError, match=message):
        build(raw)
