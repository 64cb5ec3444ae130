"""Hidden information: Year Cards, Holding cards and ballots of others never leak (ARCHITECTURE §3)."""

from __future__ import annotations

import copy
import itertools
import json
import random

from rules.core import rng
from rules.ema import endeavors, er
from rules.ema.state import Ctx, data
from tests.rules.ema.helpers import ENGINE, act, actions, new, prompt


def _walk(state, steps, seed):
    chooser = {"rng": rng.seed_state(seed)}
    for _ in range(steps):
        if ENGINE.is_over(state):
            break
        prompt = rng.choice(chooser, ENGINE.prompts(state))
        ENGINE.apply_trusted(
            state, prompt["seat"], rng.choice(chooser, prompt["options"])["action"]
        )
        yield state


def test_year_cards_are_hidden_from_everyone_until_played_EMA_6_0():
    """EMA-6.0.GR-b EMA-9.0.P1: face-down Year Cards appear as counts only; deck order never shown."""
    state = new("28-millenium", 3)
    for seat in (None, 0, 1, 2):
        view = ENGINE.view(state, seat)
        assert "year_deck" not in view and "event_deck" not in view and "rng" not in view
        assert all(s.get("years") is None for s in view["seats"])
        assert view["seats"][0]["year_cards_face_down"] == 5


def test_holding_cards_are_seen_only_by_their_holder_EMA_19_2():
    """EMA-19.2: another seat's hand shows only its size."""
    start = new("28-millenium", 2)
    for state in _walk(start, 400, 5):
        hands = [list(m["hand"]) for m in state["seats"]]
        for seat in (0, 1):
            view = ENGINE.view(state, seat)
            other = view["seats"][1 - seat]
            assert other["hand"] is None and other["hand_count"] == len(hands[1 - seat])
            assert view["seats"][seat]["hand"] == sorted(hands[seat])


def test_ballots_stay_secret_until_the_reveal_EMA_20_5():
    """EMA-20.5 EMA-20.42: a seat sees who has voted and its own ballot, never another's."""
    state = new("28-millenium", 3)
    state["stack"].append(
        {
            "kind": "parley",
            "type": "claim",
            "caller": 0,
            "other": None,
            "areas": ["saxony"],
            "voters": [0, 1, 2],
            "ballots": {"1": {"vote": "against", "influence": 1}},
        }
    )
    assert {p["seat"] for p in ENGINE.prompts(state)} == {0, 2}
    seen = json.dumps(ENGINE.view(state, 2)["deciding"])
    assert (
        "against" not in seen
        and ENGINE.view(state, 1)["deciding"]["my_ballot"]["vote"] == "against"
    )


def test_determinize_keeps_what_the_seat_sees():
    """Determinized states agree with the seat's view."""
    state = new("28-millenium", 2)
    other = ENGINE.determinize(state, 0, 99)
    assert ENGINE.view(other, 0)["seats"][0] == ENGINE.view(state, 0)["seats"][0]


# --- The additions the board reads: ER, Targets, the Event in force, the hand, the decision stack, card uses.


def _states(slug="28-millenium", players=3, steps=1500, seed=5):
    """Copies of the states of one random game (the walk changes its state in place)."""
    start = new(slug, players, seed)
    yield copy.deepcopy(start)
    for state in _walk(start, steps, seed):
        yield copy.deepcopy(state)


def _hidden_ids(state, viewer):
    """Card ids nobody (or only another seat) may see: face-down Year Cards, other seats' Holding cards."""
    years = {n for me in state["seats"] for n in me["years"]}
    hands = {c for i, me in enumerate(state["seats"]) if i != viewer for c in me["hand"]}
    return years, hands


def test_the_announced_er_is_the_engines_own_for_every_viewer_EMA_9_35():
    """EMA-9.35 EMA-9.32 EMA-13.21: view["endeavor"]["er"] is er.raw with its terms, Defense and the final ER."""
    seen = 0
    for state in _states():
        en = state["endeavor"]
        if en is None:
            continue
        ctx = Ctx(state)
        for viewer in (None, *range(state["players"])):
            shown = ENGINE.view(state, viewer)["endeavor"]["er"]
            assert shown["raw"] == er.raw(ctx, en["seat"], en["kind"], en["base"], en["target"])
            assert sum(t["value"] for t in shown["terms"]) == shown["raw"]
            assert shown["final"] == endeavors.final_er(ctx, en)
            assert shown["halved"] == (en["seas"] == 2)
            assert shown["defense"] == (
                er.defense(ctx, en["defender"]) if en["defender"] is not None else 0
            )
        assert (
            state["endeavor"] == en and "er" not in state["endeavor"]
        )  # the view never writes the state
        seen += 1
    assert seen


def test_er_terms_add_up_to_the_raw_er_for_every_endeavor_EMA_9_35():
    """EMA-9.35: the terms of every kind of Endeavor sum to er.raw, in many positions."""
    checked = set()
    for state in itertools.islice(_states("31-twilight", 4, 900, 3), 0, 900, 30):
        ctx = Ctx(state)
        for seat in range(state["players"]):
            for aid in list(state["areas"])[::7]:
                for kind in ("ruling", "fortification"):
                    assert sum(v for _, v in er.terms(ctx, seat, kind, None, aid)) == er.raw(
                        ctx, seat, kind, None, aid
                    )
                    checked.add(kind)
                base = state["seats"][seat]["court"]
                if base is None:
                    continue
                for kind in ("conquest", "pillage", "convert", "diplomacy"):
                    assert sum(v for _, v in er.terms(ctx, seat, kind, base, aid)) == er.raw(
                        ctx, seat, kind, base, aid
                    )
                    checked.add(kind)
    assert len(checked) == 6


def test_target_ers_are_shown_to_the_chooser_only_and_match_the_labels_EMA_9_3():
    """EMA-9.3: each Target's ER (before gold) is in the chooser's view and in the option label."""
    seen = 0
    for state in _states(steps=2500):
        top = state["stack"][-1] if state["stack"] else {}
        if top.get("kind") != "declare" or top.get("stage") != "target":
            for viewer in (None, *range(state["players"])):
                assert ENGINE.view(state, viewer)["targets"] is None
            continue
        chooser = top["seat"]
        rows = ENGINE.view(state, chooser)["targets"]
        opts = prompt(state)["options"]
        assert [r["area"] for r in rows] == [o["action"]["target"] for o in opts]
        ctx = Ctx(state)
        base = endeavors.declare_base(ctx, top)
        for row, opt in zip(rows, opts, strict=True):
            raw = er.raw(ctx, chooser, top["endeavor"], base, row["area"])
            assert row["er"]["raw"] == raw and sum(t["value"] for t in row["er"]["terms"]) == raw
            assert opt["label"].endswith(f"(ER {row['er']['value']})")
        for viewer in (None, *(s for s in range(state["players"]) if s != chooser)):
            assert ENGINE.view(state, viewer)["targets"] is None
        seen += 1
    assert seen


def _by_kind(kind):
    return next(c for c, card in sorted(data().events.items()) if card["kind"] == kind)


def _first_turn(state):
    while prompt(state)["kind"] == "initiative":
        act(state, actions(state)[0])
    return state


def test_the_event_drawn_is_in_force_for_that_player_turn_only_EMA_19_1():
    """EMA-19.1: the Event drawn is shown to everyone while its Player-Turn lasts, then cleared."""
    state = new("28-millenium", 2)
    card = _by_kind("plenty")
    state["event_deck"] = [c for c in state["event_deck"] if c != card] + [card]
    state["event_discard"] = [c for c in state["event_discard"] if c != card]
    _first_turn(state)
    drawer = state["active"]
    for viewer in (None, 0, 1):
        assert ENGINE.view(state, viewer)["current_event"] == card
    chooser = random.Random(1)
    for _ in range(3000):
        if state["active"] != drawer or state["over"]:
            break
        offered = actions(state)
        act(state, {"do": "end"} if {"do": "end"} in offered else chooser.choice(offered))
    assert state["active"] != drawer and ENGINE.view(state, None)["current_event"] != card


def test_a_holding_card_drawn_is_no_event_in_force_EMA_19_2():
    """EMA-19.2: a Holding card drawn stays secret, so nothing is shown as the Event in force."""
    state = new("28-millenium", 2)
    card = _by_kind("coup")
    state["event_deck"] = [c for c in state["event_deck"] if c != card] + [card]
    _first_turn(state)
    for viewer in (None, 0, 1):
        view = ENGINE.view(state, viewer)
        assert view["current_event"] is None
        assert (card in json.dumps(view)) == (viewer == state["active"])


def test_the_viewers_own_hand_is_at_the_top_of_the_view_EMA_19_2():
    """EMA-19.2: view["hand"] is the viewer's own Holding cards; None for a spectator."""
    for state in itertools.islice(_states("28-millenium", 2, 600), 0, 600, 10):
        assert ENGINE.view(state, None)["hand"] is None
        for seat in (0, 1):
            assert ENGINE.view(state, seat)["hand"] == sorted(state["seats"][seat]["hand"])


def test_the_decision_stack_keeps_a_parley_visible_under_influence_and_its_ballots_secret_EMA_20_5():
    """EMA-20.5 EMA-19.2.Influence: a Parley under the Influence declarations is shown; ballots are not."""
    state = new("28-millenium", 3)
    state["stack"].append(
        {
            "kind": "parley",
            "type": "claim",
            "caller": 0,
            "other": None,
            "areas": ["saxony"],
            "voters": [0, 1, 2],
            "ballots": {"1": {"vote": "against", "influence": 1}},
            "influence": {"0": 0},
        }
    )
    state["stack"].append({"kind": "influence", "seat": 2, "queue": [2]})
    for viewer in (None, 0, 2):
        view = ENGINE.view(state, viewer)
        kinds = [f["kind"] for f in view["deciding_stack"]]
        assert kinds[-2:] == ["parley", "influence"] and view["deciding"]["kind"] == "influence"
        assert (
            "round" not in kinds and "turn" not in kinds
        )  # the engine's own steps are no decisions
        parley = view["deciding_stack"][-2]
        assert (
            parley["voted"] == [1]
            and parley["my_ballot"] is None
            and parley["influence"] == {"0": 0}
        )
        assert "against" not in json.dumps(view["deciding_stack"]) and "queue" not in json.dumps(
            view["deciding_stack"]
        )
    assert ENGINE.view(state, 1)["deciding_stack"][-2]["my_ballot"]["vote"] == "against"


def test_each_played_year_card_shows_its_use_EMA_9_0():
    """EMA-9.0.P6 EMA-13.22 EMA-8.22: a card turned up says what it was used for; none is shown face down."""
    uses = set()
    before = None
    for state in _states("28-millenium", 3, 2500, 4):  # a walk with Defenses in it
        for viewer in (None, 0, 1, 2):
            view = ENGINE.view(state, viewer)
            years, hands = _hidden_ids(state, viewer)
            text = json.dumps(view)
            for cid in hands:
                assert f'"{cid}"' not in text
            for i, seat in enumerate(view["seats"]):
                assert [p["number"] for p in seat["played"]] == state["seats"][i]["revealed"]
                assert not years & {p["number"] for p in seat["played"]}
        if before is not None and before["endeavor"] is not None:
            en = before["endeavor"]
            for i in range(len(state["seats"])):
                old = (
                    len(before["seats"][i]["revealed"]) if before["round"] == state["round"] else 0
                )
                for p in ENGINE.view(state, None)["seats"][i]["played"][old:]:
                    uses.add(p["use"])
                    if p["use"] == "endeavor":
                        assert (i, p["endeavor"], p["target"]) == (
                            en["seat"],
                            en["kind"],
                            en["target"],
                        )
                    elif p["use"] == "defense":
                        assert i == en["defender"] and p["target"] == en["target"]
        before = state
    assert {"endeavor", "defense"} <= uses
