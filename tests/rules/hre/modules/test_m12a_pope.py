"""Module 12A, The Pope (rules-hre.md §1.34): a Title bought with each new Church."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.canonical import state_hash
from rules.core.errors import IllegalAction
from rules.core.playout import play_and_replay
from rules.hre import ENGINE
from rules.hre.modules import m12a_pope as m12a
from rules.hre.state import Ctx
from tests.rules.hre.helpers import act, actions, draft_all, give, top
from tests.rules.hre.modules.solo import events_text, quiet, solo
from tests.rules.hre.test_actions import city, noble, two_players

State = dict[str, Any]
POPE = {"modules": ["M12A"], "options": {}}


def with_pope(state: State, holder: int | None = None, ready: bool = True) -> State:
    """A base test position played with Module 12A from here on."""
    state["modules"] = [*state.get("modules", []), "M12A"]
    state["m12a"] = {"holder": holder, "ready": ready}
    return state


def build_church(state: State, prov: str = "bavaria") -> tuple[State, list[Any]]:
    """Seat 0 places a Noble on Build and builds a Church with exactly its cost (2 Wood, Stone)."""
    give(state, 0, wood=2, stone=1)
    state = noble(state, "build")
    return act(state, {"build": "church", "prov": prov})


def test_HRE_M12A_SETUP_01_the_pope_joins_the_title_offer() -> None:
    """HRE-M12A-SETUP-01: the Pope lies in the Title offer, ready, before anyone takes it."""
    state, events = draft_all(ENGINE.setup(1, POPE, 3))
    assert state["m12a"] == {"holder": None, "ready": True}
    assert "HRE-M12A-SETUP-01" in events_text(events)
    view = ENGINE.view(state, None)["pope"]
    assert view["holder"] is None and view["ready"] and view["next_cost"] == 1


@pytest.mark.parametrize(
    ("churches", "price"),
    [(1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 4), (8, 4), (9, 5), (12, 5)],
)
def test_HRE_M12A_PLAY_01_TC_37_the_cost_follows_the_churches_on_the_board(
    churches: int, price: int
) -> None:
    """HRE-M12A-PLAY-01 (TC-37): 1/2/3/4/5/6/8/9/12 Churches cost 1/2/2/3/3/4/4/5/5."""
    assert m12a.cost(churches) == price


def test_HRE_M12A_PLAY_01_the_first_church_offers_the_pope_for_one_resource() -> None:
    """HRE-M12A-PLAY-01 (AMB-63): the new Church counts, so the first one costs 1; with only one
    kind of payment left the engine pays it without asking (AMB-35)."""
    state = with_pope(two_players())
    give(state, 0, wood=2, stone=1, iron=1)
    state = noble(state, "build")
    state, events = act(state, {"build": "church", "prov": "bavaria"})
    assert top(state)["kind"] == "m12a_claim" and top(state)["price"] == 1
    assert actions(state) == [{"m12a": "claim"}, {"m12a": None}]
    vp = state["seats"][0]["vp"]
    state, events = act(state, {"m12a": "claim"})
    assert state["m12a"] == {"holder": 0, "ready": True}
    assert state["seats"][0]["res"]["iron"] == 0 and state["seats"][0]["vp"] == vp  # no VP
    assert "HRE-M12A-PLAY-01" in events_text(events) and "HRE-M12A-PLAY-02" in events_text(events)
    ENGINE.check_invariants(state)


def test_HRE_M12A_PLAY_01_payment_is_chosen_when_there_is_a_choice() -> None:
    """HRE-M12A-PLAY-01: resources or Gold, the player choosing each when more than enough."""
    state = with_pope(two_players(), holder=1, ready=False)
    for prov in ("swabia", "lombardy", "verona"):
        state["prov"][prov]["church"] = True
    state["churches"] = 3
    give(state, 0, wood=2, stone=1, leather=2, gold=2)
    state = noble(state, "build")
    state, _ = act(state, {"build": "church", "prov": "bavaria"})
    state, _ = act(state, actions(state)[0])  # the Church itself, without Gold
    assert top(state)["price"] == 3  # 4 Churches on the board
    state, _ = act(state, {"m12a": "claim"})
    assert top(state)["kind"] == "m12a_pay"
    assert actions(state) == [{"m12a_pay": "leather"}, {"m12a_pay": "gold"}]
    state, _ = act(state, {"m12a_pay": "gold"})
    assert top(state)["kind"] == "m12a_pay" and top(state)["left"] == 2
    state, _ = act(state, {"m12a_pay": "gold"})  # then only Leather is left: paid without asking
    assert state["m12a"] == {"holder": 0, "ready": True}  # taken from seat 1, ready again
    assert state["seats"][0]["gold"] == 0 and state["seats"][0]["res"]["leather"] == 1


def test_HRE_M12A_PLAY_01_an_offer_no_longer_affordable_can_only_be_left() -> None:
    """HRE-M12A-PLAY-01: the price is paid when the offer is answered; if the seat spent what it
    held in between, claiming is refused with a readable error and leaving is the one option
    (the search bot's self-play once claimed with nothing left, which crashed the payment)."""
    state = with_pope(two_players())
    give(state, 0, wood=2, stone=1, iron=1)
    state = noble(state, "build")
    state, _ = act(state, {"build": "church", "prov": "bavaria"})
    assert top(state)["kind"] == "m12a_claim"
    state["seats"][0]["res"]["iron"] = 0  # spent before the offer came up
    assert actions(state) == [{"m12a": None}]
    assert "more than you hold now" in ENGINE.prompts(state)[0]["text"]
    before = state_hash(state)
    with pytest.raises(IllegalAction):
        act(state, {"m12a": "claim"})
    assert state_hash(state) == before
    state, _ = act(state, {"m12a": None})
    assert state["m12a"]["holder"] is None
    ENGINE.check_invariants(state)


def test_HRE_M12A_PLAY_01_no_offer_without_the_price_or_to_its_own_holder() -> None:
    """HRE-M12A-PLAY-01 (AMB-63): nothing to pay with, or the Pope already yours: no offer."""
    state = with_pope(two_players())
    state, _ = build_church(state)
    assert top(state)["kind"] != "m12a_claim"
    state = with_pope(two_players(), holder=0, ready=False)
    give(state, 0, wood=2, stone=1, iron=3)
    state = noble(state, "build")
    state, _ = act(state, {"build": "church", "prov": "bavaria"})
    assert top(state)["kind"] != "m12a_claim" and state["m12a"]["ready"] is False


def test_HRE_M12A_PLAY_02_the_pope_repeats_a_noble_action_like_a_title() -> None:
    """HRE-M12A-PLAY-02: exhausted to do the action again without a disc; once a turn (AMB-02)."""
    state = with_pope(two_players(), holder=0)
    city(state, "swabia", 0)
    give(state, 0, wood=4, stone=2)
    state = noble(state, "build")
    state, _ = act(state, {"build": "church", "prov": "bavaria"})
    assert {"do": "m12a_repeat"} in actions(state)
    discs = state["seats"][0]["discs"]
    state, events = act(state, {"do": "m12a_repeat"})
    assert state["m12a"]["ready"] is False and state["seats"][0]["discs"] == discs
    assert top(state)["kind"] == "build" and "HRE-M12A-PLAY-02" in events_text(events)
    state, _ = act(state, {"build": "church", "prov": "swabia"})
    assert state["prov"]["swabia"]["church"]
    assert {"do": "m12a_repeat"} not in actions(state)  # exhausted


def test_HRE_M12A_PLAY_03_pass_step_9_refreshes_the_pope() -> None:
    """HRE-M12A-PLAY-03: the holder's Pass turns the Pope upright with its Titles."""
    state = with_pope(two_players(), holder=0, ready=False)
    state["seats"][0]["discs"] -= 1
    state["seats"][0]["exhausted"] += 1
    state, events = act(state, {"do": "pass"})
    while top(state)["seat"] == 0 and top(state)["kind"] in ("sell", "claim", "discard_res"):
        state, more = act(state, actions(state)[-1])
        events += more
    assert state["m12a"]["ready"] is True
    assert "HRE-M12A-PLAY-03" in events_text(events)


def test_HRE_M12A_END_01_its_holder_scores_five_at_the_end() -> None:
    """HRE-M12A-END-01: 5 VP for the holder in the final score, 0 for everyone else."""
    state = with_pope(two_players(), holder=1)
    rows = ENGINE.result(state)["seats"]
    assert [r["breakdown"]["pope"] for r in rows] == [0, 5]
    base = two_players()
    assert rows[1]["score"] == ENGINE.result(base)["seats"][1]["score"] + 5


def test_HRE_M12A_PLAY_02_the_pope_counts_as_a_title_for_per_title_scoring() -> None:
    """HRE-M12A-PLAY-02: the Pope is a Title card, so 'per Title' counts see it."""
    from rules.hre import scoring

    state = with_pope(two_players(), holder=0)
    assert scoring.count(Ctx(state), 0, "title") == 1
    assert scoring.count(Ctx(state), 1, "title") == 0


def test_HRE_M12A_SOLO_01_the_lordlings_take_it_free_with_as_many_churches() -> None:
    """HRE-M12A-SOLO-01 (AMB-75): counted after their new Church; from you, for nothing."""
    state = quiet(solo())
    state = with_pope(state, holder=0, ready=False)
    homes = sorted(p for p, h in state["prov"].items() if h["owner"] == 1 and h["city"])
    mine = next(p for p, h in state["prov"].items() if h["owner"] == 0 and h["city"])
    state["prov"][mine]["church"] = True
    state["churches"] = 1
    ctx = Ctx(state)
    from rules.hre.modules import m01_lordlings as m01

    assert m01._church(ctx, "HRE-M01-LORDLING-BUILD-05")  # 1 Church each now
    assert state["m12a"] == {"holder": 1, "ready": True}
    assert "HRE-M12A-SOLO-01" in events_text(ctx.events)
    built = [p for p in homes if state["prov"][p]["church"]]
    assert len(built) == 1
    # Behind on Churches after theirs (1 against your 2), they take nothing.
    state = with_pope(quiet(solo()), holder=0)
    spare = next(p for p, h in state["prov"].items() if h["owner"] is None and not h["barb"])
    state["prov"][spare].update(owner=0, city=True, farms=1, church=True)
    state["prov"]["bavaria"]["church"] = True
    state["churches"], state["cities"] = 2, state["cities"] - 1
    state["seats"][0]["farms_track"] -= 1
    ctx = Ctx(state)
    assert m01._church(ctx, "HRE-M01-LORDLING-BUILD-05")
    assert m12a.controlled_churches(state, 1) == 1 and state["m12a"]["holder"] == 0
    ENGINE.check_invariants(state)


def test_HRE_M12A_SOLO_01_their_pope_scores_for_them() -> None:
    """HRE-M12A-SOLO-01, HRE-M12A-END-01: the Lordlings' Pope adds 5 to their final score."""
    from rules.hre.modules import m01_lordlings as m01

    state = with_pope(quiet(solo()), holder=1)
    assert m01.lordling_breakdown(state)["pope"] == 5
    assert ENGINE.result(state)["seats"][0]["breakdown"]["pope"] == 0


@pytest.mark.parametrize(("slug", "players"), [("pope", 2), ("pope", 4), ("solo-pope", 1)])
def test_HRE_M12A_random_games_with_the_pope_end_and_replay(slug: str, players: int) -> None:
    """HRE-M12A-SETUP-01: the shipped scenarios play to the end and replay (invariants checked)."""
    config = next(s["config"] for s in ENGINE.scenarios() if s["slug"] == slug)
    playout = play_and_replay(ENGINE, 6, config, players)
    assert playout.over and playout.replay is not None and playout.replay.ok
