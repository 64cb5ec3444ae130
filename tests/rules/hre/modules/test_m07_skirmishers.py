"""Module 7, Skirmishers (rules-hre.md §1.29): the map's tokens are Skirmishers."""

from __future__ import annotations

from typing import Any

from rules.core.playout import play_and_replay
from rules.hre import ENGINE
from rules.hre.modules import config_errors, m01_lordlings
from rules.hre.state import Ctx, data
from tests.rules.hre.helpers import draft_all
from tests.rules.hre.modules.solo import events_text

SKIRMISHERS = {"modules": ["M07"], "options": {}}
SOLO = {"modules": ["M01", "M07"], "options": {}}

State = dict[str, Any]


def drafted(seed: int, players: int) -> tuple[State, list[Any]]:
    """A game with Skirmishers after every Ruler is drafted (the board is then dealt)."""
    return draft_all(ENGINE.setup(seed, SKIRMISHERS, players))


def map_tokens(state: State) -> list[str]:
    return [h["barb"]["token"] for h in state["prov"].values() if h["barb"]]


def test_HRE_M07_SETUP_01_skirmishers_replace_every_barbarian_token() -> None:
    """HRE-M07-SETUP-01: the map is dealt from the 25 Skirmisher tokens only, never mixed."""
    for players in (2, 3, 4):
        state, events = drafted(7, players)
        skirmishers = set(data().token_sets["skirmisher"])
        on_map = map_tokens(state)
        assert on_map and set(on_map) <= skirmishers
        assert set(state["box_tokens"]) <= skirmishers
        assert sorted(on_map + state["box_tokens"]) == sorted(skirmishers)
        assert "HRE-M07-SETUP-01" in events_text(events)
        ENGINE.check_invariants(state)


def test_HRE_M07_SETUP_01_skirmisher_tokens_are_tougher_barbarians() -> None:
    """HRE-M07-SETUP-01: 25 tokens, each (authored) one unit stronger than its Barbarian twin,
    with its twin's reward and 1 VP more (the extra-turn tokens: the extra turn alone)."""
    d = data()
    assert len(d.token_sets["skirmisher"]) == len(d.token_sets["barbarian"]) == 25
    for sid in d.token_sets["skirmisher"]:
        twin = d.token_specs["B" + sid[1:]]
        mine = d.token_specs[sid]
        assert sum(mine["units"].values()) >= sum(twin["units"].values())
        assert mine["units"] != twin["units"]
        if "gain" in twin["reward"]:
            more = {**twin["reward"]["gain"], "vp": twin["reward"]["gain"].get("vp", 0) + 1}
            assert mine["reward"] == {"gain": more}
        else:
            assert mine["reward"] == twin["reward"] == {"extra_turn": True}


def test_HRE_M07_SETUP_01_every_barbarian_rule_reads_the_skirmisher_token() -> None:
    """HRE-M07-SETUP-01: a Skirmisher's army and reward are what the seats see and fight."""
    state, _ = drafted(3, 2)
    view = ENGINE.view(state, 0)
    assert view["token_set"] == "skirmisher"
    for pid, here in state["prov"].items():
        if here["barb"] is None:
            continue
        spec = data().token_specs[here["barb"]["token"]]
        shown = view["provinces"][pid]["barb"]
        wanted = spec["units"] if here["barb"]["face"] == "units" else spec["reward"]
        assert shown["shows"] == wanted


def test_HRE_M07_SETUP_01_games_with_skirmishers_end_and_replay() -> None:
    """HRE-M07-SETUP-01: whole random games with Skirmishers end and replay identically."""
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        playout = play_and_replay(ENGINE, seed, SKIRMISHERS, players)
        assert playout.over
        assert set(map_tokens(playout.state)) <= set(data().token_sets["skirmisher"])


def test_HRE_M07_SOLO_01_the_raiding_party_still_takes_barbarian_tokens() -> None:
    """HRE-M07-SOLO-01: Skirmishers on the map, regular Barbarian tokens on the Raiding Party."""
    assert config_errors(["M01", "M07"], 1) == []
    state = ENGINE.setup(4, SOLO, 1)
    state, events = ENGINE.apply(state, 0, {"ruler": "arnulf"})
    d = data()
    assert set(map_tokens(state)) <= set(d.token_sets["skirmisher"])
    party = state["m01"]["party"]["tokens"]
    assert party and set(party) <= set(d.token_sets["barbarian"])
    text = events_text(events)
    assert "HRE-M07-SETUP-01" in text and "HRE-M07-SOLO-01" in text
    # The shared pool holds both sets; a Raider draw takes a Barbarian token only.
    assert any(t.startswith("S") for t in state["box_tokens"])
    ctx = Ctx(state)
    m01_lordlings.draw_party_tokens(ctx, 3, "HRE-M01-RAIDER-05")
    assert set(state["m01"]["party"]["tokens"]) <= set(d.token_sets["barbarian"])
    ENGINE.check_invariants(state)


def test_HRE_M07_SOLO_01_a_province_lost_to_the_Raiders_takes_a_Barbarian_token() -> None:
    """HRE-M07-SOLO-01, HRE-M01-RAIDATK-03 (AMB-78): with Skirmishers on the map, a province the
    Raiders take gets a regular Barbarian token, and the map may then hold both sets."""
    state = ENGINE.setup(4, SOLO, 1)
    state, _ = ENGINE.apply(state, 0, {"ruler": "arnulf"})
    d = data()
    prov = next(p for p, here in sorted(state["prov"].items()) if here["barb"] is not None)
    here = state["prov"][prov]
    state["box_tokens"] = sorted([*state["box_tokens"], here["barb"]["token"]])
    here["barb"], here["owner"] = None, 0  # a province of yours, its Skirmisher back in the pool
    none = {"infantry": 0, "archer": 0, "cavalry": 0}
    m01_lordlings._lose_to_raiders(Ctx(state), prov, none, {**none, "infantry": 1})
    assert here["owner"] is None and here["barb"]["token"] in d.token_sets["barbarian"]
    assert set(map_tokens(state)) - {here["barb"]["token"]} <= set(d.token_sets["skirmisher"])
    ENGINE.check_invariants(state)


def test_HRE_M07_SOLO_01_solo_games_with_skirmishers_end() -> None:
    """HRE-M07-SOLO-01: whole solo games with Skirmishers end and replay identically."""
    playout = play_and_replay(ENGINE, 2, SOLO, 1)
    assert playout.over
