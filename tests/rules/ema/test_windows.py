"""Hidden information and off-turn play: undo barriers, standing answers, Holding-card windows, caps."""

from __future__ import annotations

from rules.core.canonical import clone
from rules.ema import events, holding
from rules.ema.components import load
from rules.ema.state import CLAIMS, OWNER, TIES, Ctx, mask_of, seats_in
from tests.rules.ema.helpers import (
    ENGINE,
    act,
    actions,
    endeavor,
    fake_card,
    fill,
    new,
    prompt,
    r,
    to_main,
)


def card_of(kind: str) -> str:
    return next(c for c, v in sorted(load().events.items()) if v["kind"] == kind)


def test_turning_up_a_year_card_is_an_undo_barrier_EMA_9_0_P6(monkeypatch):
    """EMA-9.0.P6 EMA-6.0: a Year Card turned up cannot be taken back; an announcement alone can."""
    state = to_main()
    state["seats"][0]["years"] = [fake_card(monkeypatch, diplomacy=[r("T")])] * 5
    before = clone(state)
    act(state, {"do": "endeavor", "kind": "ruling"})
    assert not ENGINE.undo_barrier(before, state, 0)
    before = clone(state)
    act(state, {"target": "saxony"})
    while prompt(state)["kind"] != "main":
        act(state, actions(state)[0])
    assert ENGINE.undo_barrier(before, state, 0)


def test_drawing_a_card_is_an_undo_barrier_EMA_19_0_P():
    """EMA-19.0.P: the Event or Holding card drawn is new knowledge; playing a Holding card shows it."""
    state = new()
    state["event_deck"].append(card_of("coup"))
    before = clone(state)
    events.draw(Ctx(state), 0)
    assert ENGINE.undo_barrier(before, state, 0) and card_of("coup") in state["seats"][0]["hand"]
    state = to_main()
    state["seats"][0]["inplay"], state["seats"][0]["hand"] = [], [card_of("fervor")]
    before = clone(state)
    act(state, {"do": "holding", "card": card_of("fervor")})
    assert ENGINE.undo_barrier(before, state, 0)


def test_a_tallied_parley_is_an_undo_barrier_EMA_20_5():
    """EMA-20.5: the last ballot reveals every vote; the earlier, secret ones are no barrier."""
    state = to_main()
    fill(state["areas"]["burgundy"], {"owner": 0, "ties": [0], "claims": [1]})
    act(state, {"do": "claim_parley"})
    act(state, {"area": "burgundy"})
    while prompt(state)["kind"] == "influence":
        act(state, {"cards": 0})
    first, second = (p["seat"] for p in ENGINE.prompts(state))
    before = clone(state)
    ENGINE.apply_trusted(state, first, {"vote": "for", "influence": 0})
    assert not ENGINE.undo_barrier(before, state, first)
    before = clone(state)
    ENGINE.apply_trusted(state, second, {"vote": "against", "influence": 0})
    assert ENGINE.undo_barrier(before, state, second)


def test_every_voter_is_asked_for_influence_EMA_20_5_A_38():
    """EMA-20.5 EMA-19.2.Influence A-38: every voter, card or not, is asked in turn order; 0 is always offered."""
    state = to_main("28-millenium", 3)
    fill(state["areas"]["burgundy"], {"owner": 0, "ties": [0], "claims": [1]})
    state["seats"][2]["hand"] = [card_of("influence")]
    act(state, {"do": "claim_parley"})
    act(state, {"area": "burgundy"})
    asked = []
    while prompt(state)["kind"] == "influence":
        asked.append(prompt(state)["seat"])
        assert {"cards": 0} in actions(state)
        act(state, {"cards": 0})
    assert asked == [s for s in state["order"] if s in (0, 1, 2)]


def test_standing_answers_for_off_turn_prompts():
    """ARCHITECTURE §2: named standing answers pick the matching option (never defend, vote against...)."""
    names = {c["name"] for c in ENGINE.standing_options("defend")}
    assert {"never", "always", "pass", "first"} <= names
    defend = [
        {"action": {"defend": False}, "label": "No"},
        {"action": {"defend": True}, "label": "Yes"},
        {"action": {"holding": "x"}, "label": "Card"},
    ]
    assert ENGINE.standing_answer("defend", "always", defend)["action"] == {"defend": True}
    assert ENGINE.standing_answer("defend", "never", defend)["action"] == {"defend": False}
    ballots = [
        {"action": {"vote": "for", "influence": 0}, "label": "for"},
        {"action": {"vote": "against", "influence": 0}, "label": "against"},
    ]
    assert ENGINE.standing_answer("parley", "against", ballots)["action"]["vote"] == "against"
    assert ENGINE.standing_answer(
        "card_window", "pass", [{"action": {"play": None}, "label": "no"}]
    )
    assert set(ENGINE.prompt_kinds()) >= {"card_window", "influence", "give_up"}


def test_holding_card_windows_around_an_endeavor_EMA_19_2(monkeypatch):
    """EMA-19.2: a rival holding cards is asked at the start and the end of an Endeavor, and may play one."""
    state = to_main()
    state["seats"][0]["years"] = [fake_card(monkeypatch, ruling=[r("+1", "target")])] * 5
    state["seats"][1]["hand"] = [card_of("fervor")]
    endeavor(state, "ruling", "saxony")
    assert prompt(state)["kind"] == "card_window" and prompt(state)["seat"] == 1
    assert state["seats"][0]["revealed"] == []  # before the card is turned up
    assert actions(state) == [{"play": None}, {"play": card_of("fervor")}]
    act(state, {"play": None})
    assert (
        prompt(state)["kind"] == "card_window" and len(state["seats"][0]["revealed"]) == 1
    )  # the end window
    act(state, {"play": card_of("fervor")})
    assert state["seats"][1]["inplay"][-1] == card_of("fervor") and prompt(state)["kind"] == "main"


def test_no_window_for_seats_without_cards_EMA_19_2(monkeypatch):
    """EMA-19.2: a seat without Holding cards is not asked (its empty hand is public anyway)."""
    state = to_main()
    state["seats"][0]["years"] = [fake_card(monkeypatch)] * 5
    endeavor(state, "ruling", "saxony")
    assert prompt(state)["kind"] == "main"


def test_dynastic_inheritance_in_the_heirless_window_EMA_19_1_Heirless():
    """EMA-19.1.Heirless EMA-19.2.Dynastic: after a rival's Heirless draw the window lets a Claimant inherit
    without a contest; the shelter ends with the drawer's first Endeavor."""
    state = to_main()
    dyn = next(
        c
        for c, v in sorted(load().events.items())
        if v["kind"] == "dynastic" and v["variant"] == "single"
    )
    state["seats"][0]["hand"] = [dyn]
    state["areas"]["champagne"][CLAIMS] |= 1 << 0
    events.heirless(Ctx(state), 1, {"variant": "language"})
    while prompt(state)["kind"] == "court_move":
        act(state, {"court": None})
    assert prompt(state)["kind"] == "card_window" and prompt(state)["seat"] == 0
    act(state, {"play": dyn})
    act(state, {"area": "champagne"})
    assert state["areas"]["champagne"][OWNER] == 0  # not contestable (19.2)
    assert all(p["kind"] != "contest" for p in ENGINE.prompts(state))


def test_heirless_shelter_ends_at_the_first_endeavor_EMA_19_2_Dynastic(monkeypatch):
    """EMA-19.2.Dynastic EMA-20.43: the shelter lasts until the drawer's first Endeavor after the draw, no longer."""
    state = to_main()
    me = state["seats"][0]
    me["heirless_guard"] = True
    me["years"] = [fake_card(monkeypatch)] * 5
    c = Ctx(state)
    assert not holding.may_contest(c, 0)
    endeavor(state, "ruling", "saxony")
    while prompt(state)["kind"] != "main":
        act(state, actions(state)[0])
    assert not me["heirless_guard"] and holding.may_contest(c, 0)
    me["heirless_guard"] = True
    act(state, {"do": "end"})
    assert not me["heirless_guard"]  # the end of his turn ends it too


def test_requests_are_capped_per_turn_EMA_20_1():
    """EMA-20.1 EMA-20.3 EMA-12.42: offers, proposals and waivers are limited per turn, so no turn runs forever."""
    state = to_main()
    for _ in range(4):
        act(state, {"do": "agree", "partner": 1})
        act(state, {"accept": False})
    assert {"do": "agree", "partner": 1} not in actions(state)
    for _ in range(4):
        act(state, {"do": "offer"})
        act(state, {"cancel": True})
    assert {"do": "offer"} not in actions(state)


def test_removing_ones_own_tie_EMA_12_43():
    """EMA-12.43 EMA-20.1: a Tie may be removed by its owner."""
    state = to_main()
    state["areas"]["burgundy"][TIES] = mask_of([0, 1])
    act(state, {"do": "drop_tie"})
    assert {"area": "burgundy"} in actions(state) and {"area": None} in actions(state)
    act(state, {"area": "burgundy"})
    assert list(seats_in(state["areas"]["burgundy"][TIES])) == [1]
