"""Standing answers for HRE's off-turn prompts: named answers a seat sets in advance, matched
against the options of real prompts (rules.hre.standing)."""

from __future__ import annotations

import pytest

from rules.core.engine import Option
from rules.hre import ENGINE
from rules.hre.reactions import NAMES
from tests.rules.hre.helpers import State, act, decide, game, top, turn_of, units


def _offered(state: State) -> list[Option]:
    prompt = next(p for p in ENGINE.prompts(state) if p["seat"] == top(state)["seat"])
    return list(prompt["options"])


def _names(kind: str) -> set[str]:
    return {c["name"] for c in ENGINE.standing_options(kind)}


def test_every_off_turn_kind_has_its_own_named_answers() -> None:
    assert set(ENGINE.prompt_kinds()) == {"reaction", "assign", "retreat", "revanchism", "claim"}
    assert _names("reaction") == {f"prefer_{r}" for r in NAMES}
    assert _names("revanchism") == {"all", "pass"}
    assert _names("retreat") == {"most_units"}
    assert _names("claim") == {"first", "pass"}
    assert _names("assign") == set(), "hit assignment is always asked"
    assert (
        ENGINE.standing_answer("assign", "first", [{"action": {"hit": 0}, "label": "Hit"}]) is None
    )
    assert all(c["label"] for kind in ENGINE.prompt_kinds() for c in ENGINE.standing_options(kind))


@pytest.mark.parametrize("slot", range(5))
def test_HRE_BASE_REACT_02_a_preferred_reaction_is_given_when_it_is_one_of_the_two(
    slot: int,
) -> None:
    """HRE-BASE-REACT-02: the pushed-out Noble's owner picks one of the two reactions beside the card."""
    state = decide(turn_of(game(2), 1), {"kind": "reaction", "seat": 0, "slot": slot})
    offered = _offered(state)
    pair = [o["action"]["react"] for o in offered]
    for react in NAMES:
        chosen = ENGINE.standing_answer("reaction", f"prefer_{react}", offered)
        if react in pair:
            assert chosen is not None and chosen["action"] == {"react": react}
            act(state, chosen["action"], seat=0)  # a legal move
        else:
            assert chosen is None, "a reaction not offered: the player is asked"


def test_HRE_BASE_PVP_07_revanchism_all_or_nothing() -> None:
    """HRE-BASE-PVP-07: up to one free infantry per Farm lost; "all" places the most allowed."""
    state = decide(turn_of(game(2), 0), {"kind": "revanchism", "seat": 1, "farms": 2})
    offered = _offered(state)
    assert ENGINE.standing_answer("revanchism", "all", offered) == offered[-1]
    assert offered[-1]["action"] == {"infantry": 2}
    assert ENGINE.standing_answer("revanchism", "pass", offered) == offered[0]
    assert offered[0]["action"] == {"infantry": 0}
    after, _ = act(state, {"infantry": 2}, seat=1)
    assert top(after)["kind"] != "revanchism"


def test_HRE_BASE_PVP_05_retreat_goes_where_the_most_units_stand() -> None:
    """HRE-BASE-PVP-05: survivors retreat to a neighbouring province of their owner's choice."""
    state = game(2, rulers=["arnulf", "berengar"])
    units(state, "verona", 0, infantry=2)
    units(state, "lombardy", 1, infantry=1)
    units(state, "tuscany", 1, infantry=3, cavalry=1)
    frame = {
        "kind": "retreat",
        "seat": 1,
        "prov": "verona",
        "carry": {"infantry": 1, "archer": 0, "cavalry": 0},
    }
    state = decide(turn_of(state, 0), frame)
    offered = _offered(state)
    assert [o["action"] for o in offered][:2] == [{"to": "lombardy"}, {"to": "tuscany"}]
    assert [o["label"] for o in offered][:2] == [
        "Retreat to Lombardy (1 unit there)",
        "Retreat to Tuscany (4 units there)",
    ]
    chosen = ENGINE.standing_answer("retreat", "most_units", offered)
    assert chosen is not None and chosen["action"] == {"to": "tuscany"}
    units(state, "lombardy", 1, infantry=4)
    chosen = ENGINE.standing_answer("retreat", "most_units", _offered(state))
    assert chosen is not None and chosen["action"] == {"to": "lombardy"}, (
        "of equals, the first offered"
    )


def test_HRE_BASE_PASS_03_claim_the_first_eligible_title_or_never() -> None:
    """HRE-BASE-PASS-03: while passing, a player may claim one Title."""
    state = game(2)
    for here in state["prov"].values():
        here["owner"] = 0
    state = decide(turn_of(state, 0), {"kind": "claim", "seat": 0})
    offered = _offered(state)
    titles = [o for o in offered if o["action"]["claim"] is not None]
    assert titles, "owning every province makes every Title eligible"
    assert ENGINE.standing_answer("claim", "first", offered) == titles[0]
    assert ENGINE.standing_answer("claim", "pass", offered) == {
        "action": {"claim": None},
        "label": "Claim no Title",
    }
    state["prov"] = {p: {**h, "owner": None} for p, h in state["prov"].items()}
    none_left = _offered(state)
    assert (
        ENGINE.standing_answer("claim", "first", none_left)
        == none_left[0]
        == {"action": {"claim": None}, "label": "Claim no Title"}
    )


def test_unknown_names_ask_the_player() -> None:
    offered: list[Option] = [{"action": {"react": "recruit"}, "label": "Recruit"}]
    assert ENGINE.standing_answer("reaction", "prefer_nothing", offered) is None
    assert (
        ENGINE.standing_answer("retreat", "pass", [{"action": {"to": "p1"}, "label": "Retreat"}])
        is None
    )
    assert ENGINE.standing_answer("revanchism", "all", []) is None
