"""Module 15A, Rise of Poland (rules-hre.md §1.37): aid Poland, flip its cards, Chrobry's moods."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.playout import play_and_replay
from rules.hre import ENGINE
from rules.hre.modules import m15a_aid as aid
from rules.hre.modules import m15a_chrobry as chrobry
from rules.hre.modules import m15a_state as shared
from rules.hre.state import Ctx, army_limit, data
from tests.rules.hre.helpers import act, actions, clear_barbarians, draft_all, give, top, units
from tests.rules.hre.modules.solo import events_text
from tests.rules.hre.test_actions import noble, two_players

State = dict[str, Any]
POLAND = {"modules": ["M15A"], "options": {}}


def with_poland(state: State, open_: bool = True) -> State:
    """A base test position played with Module 15A, the Poland cards handed out."""
    state["modules"] = [*state.get("modules", []), "M15A"]
    n = len(state["seats"])
    state["m15a"] = {
        "open": open_,
        "cards": [
            {c: {"step": 0, "side": "aiding", "ready": True} for c in shared.CATEGORIES}
            for _ in range(n)
        ],
        "first": dict.fromkeys(shared.CATEGORIES),
        "farms": [0] * n,
        "steps": [0] * n,
        "events": [e["id"] for e in shared.book()["events"]],
        "chrobry": "events",
        "done": [],
    }
    state["cards_in_game"] += 1  # Chrobry, held by the module
    return state


def at_step(state: State, seat: int, cat: str, step: int) -> None:
    state["m15a"]["cards"][seat][cat]["step"] = step


def test_HRE_M15A_COMP_01_twenty_cards_in_three_kinds() -> None:
    """HRE-M15A-COMP-01: Mieszko I and Chrobry are Culture cards of the module, six events, four
    sets of three Poland cards (CR01-CR20)."""
    cards = data().cards
    assert cards["CR01"]["name"] == "Mieszko I" and cards["CR01"]["module"] == "M15A"
    assert cards["CR02"]["type"] == "chrobry"
    assert len(shared.book()["events"]) == 6 and len(shared.book()["sets"]) == 4
    names = {shared.spec(c)["name"]: shared.spec(c)["flipped"] for c in shared.CATEGORIES}
    assert names == {
        "Veleti": "Polish Military Alliance",
        "Building Santok": "Santok",
        "Polish Church": "Jordan's Bishopric",
    }


def test_HRE_M15A_SETUP_01_02_03_mieszko_near_the_top_cards_held_back() -> None:
    """HRE-M15A-SETUP-01, -02, -03 (AMB-58): once the offer is dealt Mieszko I is among the top 5
    cards; the Chrobry events wait face down; the Poland cards wait for Mieszko in the offer."""
    state, events = draft_all(ENGINE.setup(1, POLAND, 3))
    assert "CR01" in state["deck"][-6:] and "CR01" not in state["offer"]
    t = state["m15a"]
    assert t["open"] is False and t["chrobry"] == "events" and len(t["events"]) == 6
    text = events_text(events)
    assert "HRE-M15A-SETUP-01" in text and "HRE-M15A-SETUP-02" in text
    assert not any(e in str(ENGINE.view(state, 0)) for e in t["events"])  # the order is hidden
    ctx = Ctx(state)
    state["deck"].remove("CR01")
    state["deck"].append("CR01")
    state["discard"].append(state["offer"].pop(0))  # a space to fill
    from rules.hre import culture

    culture.refill(ctx)
    assert t["open"] is True and "HRE-M15A-SETUP-03" in events_text(ctx.events)
    ENGINE.check_invariants(state)


def test_HRE_M15A_SETUP_03_the_cards_at_setup_as_an_option() -> None:
    """HRE-M15A-SETUP-03 (AMB-58 option "setup"): the three cards from the start."""
    config = {"modules": ["M15A"], "options": {"poland_cards": "setup"}}
    state, _ = draft_all(ENGINE.setup(1, config, 2))
    assert state["m15a"]["open"] is True


def test_HRE_M15A_AID_01_02_TC_19_the_veleti_take_a_unit_for_its_cost() -> None:
    """HRE-M15A-AID-01, HRE-M15A-AID-02 (TC-19): after a Manoeuvre, remove one of your units
    and score its cost in resources (an Archer, Wood + Leather: 2 VP); the marker moves down."""
    state = with_poland(two_players())
    units(state, "bavaria", 0, infantry=1, archer=1)
    state = noble(state, "manoeuvre")
    state, _ = act(state, {"from": "bavaria", "to": "swabia"})
    while top(state)["kind"] == "move_count":
        state, _ = act(state, actions(state)[-1])
    assert top(state)["kind"] == "m15a_aid"
    picks = [a for a in actions(state) if a.get("m15a") == "veleti"]
    assert {"m15a": "veleti", "prov": "swabia", "unit": "archer"} in picks
    vp = state["seats"][0]["vp"]
    state, events = act(state, {"m15a": "veleti", "prov": "swabia", "unit": "archer"})
    assert state["seats"][0]["vp"] == vp + 2
    assert state["m15a"]["cards"][0]["veleti"]["step"] == 1
    text = events_text(events)
    assert "HRE-M15A-AID-01" in text and "HRE-M15A-AID-02" in text
    ENGINE.check_invariants(state)


def test_HRE_M15A_AID_01_a_step_needs_its_own_action_and_its_payment() -> None:
    """HRE-M15A-AID-01: Santok's steps follow a Build, and only if its price can be paid."""
    state = with_poland(two_players())
    give(state, 0, wood=2, stone=1)  # a Church, and nothing left for Santok's Stone
    state = noble(state, "build")
    state, _ = act(state, {"build": "church", "prov": "bavaria"})
    assert top(state)["kind"] != "m15a_aid"
    state = with_poland(two_players())
    give(state, 0, wood=2, stone=2)
    state = noble(state, "build")
    state, _ = act(state, {"build": "church", "prov": "bavaria"})
    assert actions(state) == [{"m15a": "santok"}, {"m15a": None}]
    state, _ = act(state, {"m15a": "santok"})
    assert (
        state["seats"][0]["res"]["stone"] == 0 and state["m15a"]["cards"][0]["santok"]["step"] == 1
    )


def test_HRE_M15A_FLIP_01_02_04_05_the_first_flip_levies_the_others() -> None:
    """HRE-M15A-FLIP-01, -02, -04, -05: the last step flips the card, puts a Farm from the
    track on it (Army limit up) and sends its marker away; the first flipper may levy the
    others, who pay and flip theirs, or remove it."""
    state = with_poland(two_players())
    at_step(state, 0, "santok", 2)
    give(state, 0, wood=2, stone=2, iron=1)
    limit = army_limit(state, 0)
    state = noble(state, "build")
    state, _ = act(state, {"build": "church", "prov": "bavaria"})
    state, events = act(state, {"m15a": "santok"})
    assert state["m15a"]["cards"][0]["santok"]["side"] == "flipped"
    assert state["m15a"]["farms"] == [1, 0] and army_limit(state, 0) >= limit
    text = events_text(events)
    assert all(r in text for r in ("HRE-M15A-FLIP-01", "HRE-M15A-FLIP-04", "HRE-M15A-FLIP-05"))
    assert top(state)["kind"] == "m15a_impose"
    state, _ = act(state, {"levy": True})
    assert top(state)["kind"] == "m15a_levy" and top(state)["seat"] == 1
    state["seats"][1]["vp"] = 5
    vp0 = state["seats"][0]["vp"]
    state, events = act(state, {"levy": "pay"})
    assert state["seats"][1]["vp"] == 2 and state["seats"][0]["vp"] == vp0 + 3
    assert state["m15a"]["cards"][1]["santok"]["side"] == "flipped"
    assert state["m15a"]["farms"] == [1, 1] and "HRE-M15A-FLIP-02" in events_text(events)
    ENGINE.check_invariants(state)


def test_HRE_M15A_FLIP_02_without_the_price_the_card_is_removed() -> None:
    """HRE-M15A-FLIP-02: a player who cannot pay the Levy can only remove the card."""
    state = with_poland(two_players())
    state["seats"][1]["gold"] = 1
    state["stack"].append({"kind": "m15a_levy", "seat": 1, "cat": "veleti", "to": 0})
    assert actions(state) == [{"levy": "remove"}]
    state, _ = act(state, {"levy": "remove"})
    assert state["m15a"]["cards"][1]["veleti"]["side"] == "removed"


def test_HRE_M15A_FLIP_03_jordans_bishopric_removes_every_other_polish_church() -> None:
    """HRE-M15A-FLIP-03: no Levy; every other player's Polish Church leaves play."""
    state = with_poland(two_players())
    ctx = Ctx(state)
    aid.flip(ctx, 0, "church", "HRE-M15A-FLIP-01")
    assert state["m15a"]["cards"][1]["church"]["side"] == "removed"
    assert "HRE-M15A-FLIP-03" in events_text(ctx.events)
    assert not any(f["kind"] == "m15a_impose" for f in state["stack"])


def test_HRE_M15A_BENEFIT_01_02_a_noble_on_the_action_uses_the_flipped_card() -> None:
    """HRE-M15A-BENEFIT-01, HRE-M15A-BENEFIT-02: with a Noble on Build, Santok gives 1 Stone
    and is exhausted; a Title's repeat gets nothing; the Pass refreshes it."""
    state = with_poland(two_players())
    state["m15a"]["cards"][0]["santok"].update(side="flipped", step=3)
    give(state, 0, wood=2, stone=1)
    state = noble(state, "build")
    state, _ = act(state, {"build": "church", "prov": "bavaria"})
    assert top(state)["kind"] == "m15a_use"
    state, events = act(state, {"use": True})
    assert state["seats"][0]["res"]["stone"] == 1
    assert state["m15a"]["cards"][0]["santok"]["ready"] is False
    assert "HRE-M15A-BENEFIT-01" in events_text(events)
    state, events = act(state, {"do": "end"})
    for seat in state["seats"]:
        seat["discs"] = seat["total_discs"] - 1
    from tests.rules.hre.helpers import turn_of

    state = turn_of(state, 0)
    state, events = act(state, {"do": "pass"})
    while top(state)["seat"] == 0 and top(state)["kind"] in ("sell", "claim", "discard_res"):
        state, more = act(state, actions(state)[-1])
        events += more
    assert state["m15a"]["cards"][0]["santok"]["ready"] is True
    assert "HRE-M15A-BENEFIT-02" in events_text(events)


def test_HRE_M15A_CHROBRY_01_02_the_first_flip_sends_chrobry_into_the_deck() -> None:
    """HRE-M15A-CHROBRY-01, HRE-M15A-CHROBRY-02: the first flip puts Chrobry among the top 8;
    revealed it skips the offer, its top event happens, and it goes back in."""
    state = with_poland(two_players())
    clear_barbarians(state)
    ctx = Ctx(state)
    aid.flip(ctx, 0, "veleti", "HRE-M15A-FLIP-01")
    state["stack"] = state["stack"][:1]
    assert state["m15a"]["chrobry"] == "deck" and "CR02" in state["deck"][-(chrobry.TOP + 1) :]
    assert "HRE-M15A-CHROBRY-01" in events_text(ctx.events)
    # The Congress of Gniezno on top: 2 VP for each flipped card.
    state["m15a"]["events"] = sorted(set(state["m15a"]["events"]) - {"CR03"}) + ["CR03"]
    state["deck"].remove("CR02")
    state["deck"].append("CR02")
    vp = state["seats"][0]["vp"]
    offer = list(state["offer"])
    state["discard"].append(state["offer"].pop())  # a space to fill
    from rules.hre import culture

    ctx = Ctx(state)
    culture.refill(ctx)
    assert "CR02" not in state["offer"] and len(state["offer"]) == len(offer)
    assert state["seats"][0]["vp"] == vp + 2 and state["m15a"]["done"] == ["CR03"]
    assert state["m15a"]["chrobry"] == "deck"
    assert "HRE-M15A-CHROBRY-02" in events_text(ctx.events)
    ENGINE.check_invariants(state)


def test_HRE_M15A_CHROBRY_02_after_the_last_event_chrobry_leaves() -> None:
    """HRE-M15A-CHROBRY-02: with no event left the Chrobry card leaves the game."""
    state = with_poland(two_players())
    t = state["m15a"]
    t["done"], t["events"] = t["events"][:-1], t["events"][-1:]
    t["chrobry"] = "deck"
    state["deck"].append("CR02")
    state["discard"].append(state["offer"].pop())
    from rules.hre import culture

    ctx = Ctx(state)
    culture.refill(ctx)
    assert t["chrobry"] == "gone" and t["events"] == [] and "CR02" not in state["deck"]
    ENGINE.check_invariants(state)


def test_HRE_M15A_END_01_seven_vp_for_each_flipped_card() -> None:
    """HRE-M15A-END-01: 7 VP a flipped Poland card at the end."""
    state = with_poland(two_players())
    state["m15a"]["cards"][1]["veleti"]["side"] = "flipped"
    state["m15a"]["cards"][1]["church"]["side"] = "flipped"
    state["m15a"]["cards"][0]["santok"]["side"] = "removed"
    assert [r["breakdown"]["poland"] for r in ENGINE.result(state)["seats"]] == [0, 14]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_HRE_M15A_random_games_with_poland_end_and_replay(players: int) -> None:
    """HRE-M15A-SETUP-01: random games play to the end and replay (invariants checked)."""
    playout = play_and_replay(ENGINE, 2, POLAND, players)
    assert playout.over and playout.replay is not None and playout.replay.ok


def test_HRE_M15A_poland_is_for_two_to_four_players() -> None:
    """HRE-M15A-SETUP-03: printed for 2-4 players; solo is refused with the reason."""
    from rules.hre.modules import config_errors

    assert config_errors(["M01", "M15A"], players=1) == [
        "Module M15A (Rise of Poland) is played by 2 to 4 player(s), not 1."
    ]
