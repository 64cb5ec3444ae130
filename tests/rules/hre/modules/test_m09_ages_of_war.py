"""Module 9, The Ages of War (rules-hre.md §1.31): Combat cards, War tokens, ties to the attacker."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.playout import play_and_replay
from rules.hre import ENGINE, endgame, titles
from rules.hre.modules import m09_ages_of_war as m09
from rules.hre.modules import majority
from rules.hre.state import Ctx
from tests.rules.hre.helpers import act, actions, clear_barbarians, dice, give, top, units
from tests.rules.hre.modules.solo import events_text
from tests.rules.hre.test_battle import assign_all, attack, won

__all__ = ["dice"]  # the rigged-dice fixture

WAR = {"modules": ["M09"], "options": {}}
State = dict[str, Any]


def war_game(players: int = 3, seed: int = 1) -> State:
    """Arnulf, Berengar (and Otto, Boleslaus) drafted; every seat keeps its first Common card."""
    rulers = ["arnulf", "berengar", "otto", "boleslaus"]
    state = ENGINE.setup(seed, WAR, players)
    while top(state)["kind"] in ("draft", "m09_drop"):
        frame = top(state)
        if frame["kind"] == "draft":
            state, _ = act(state, {"ruler": rulers[frame["seat"]]})
        else:
            state, _ = act(state, actions(state)[0])
    return state


def skirmish(state: State, hand: list[str]) -> State:
    """Seat 0 (2 infantry in Lombardy) may attack seat 1's one infantry in Tuscany."""
    clear_barbarians(state)
    for p in ("bavaria", "ivrea"):
        state["prov"][p]["units"] = {"infantry": 0, "archer": 0, "cavalry": 0}
    units(state, "lombardy", 0, infantry=2)
    units(state, "tuscany", 1, infantry=1)
    for seat in range(len(state["seats"])):
        give(state, seat, wood=0, leather=0, stone=0, iron=0, gold=0)
        state["seats"][seat].update(farms_track=1, farms_boxed=10)
    state["m09"]["hands"][0] = sorted(hand)
    state["m09"]["unseen"] = sorted(
        c
        for c in m09.cards()
        if c not in sum(state["m09"]["hands"], [])
        and c not in state["m09"]["out"] + list(state["m09"]["titles"].values())
        and m09.cards()[c]["kind"] != "title"
    )
    return state


def test_HRE_M09_COMP_01_twenty_one_combat_cards_and_twelve_war_tokens() -> None:
    """HRE-M09-COMP-01: 8 Common, 6 Title and 7 Ruler Combat cards, each with two benefits."""
    m09.validate()
    kinds = [c["kind"] for c in m09.cards().values()]
    assert len(kinds) == 21 and kinds.count("common") == 8 and kinds.count("title") == 6
    assert all(len(c["benefits"]) == 2 and c["reclaim"] for c in m09.cards().values())


def test_HRE_M09_SETUP_01_02_03_04_the_cards_and_tokens_at_setup() -> None:
    """HRE-M09-SETUP-01, HRE-M09-SETUP-02, HRE-M09-SETUP-03, HRE-M09-SETUP-04: two Common dealt
    and one thrown away unseen; the Ruler's card; the
    Title cards on the Titles; 12 War tokens."""
    state = ENGINE.setup(3, WAR, 3)
    assert [len(h) for h in state["m09"]["hands"]] == [2, 2, 2]
    state = war_game(3, seed=3)
    t = state["m09"]
    for seat, ruler in enumerate(["arnulf", "berengar", "otto"]):
        kinds = sorted(m09.cards()[c]["kind"] for c in t["hands"][seat])
        assert kinds == ["common", "ruler"]
        assert m09._of("ruler", "ruler", ruler) in t["hands"][seat]
    assert len(t["unseen"]) == 8 - 3  # 2 undealt + 3 thrown away
    assert sorted(t["titles"]) == sorted(state["titles"])  # every Title in play has its card
    assert t["tokens"] == 12 and t["won"] == [0, 0, 0]
    view = ENGINE.view(state, 1)["ages_of_war"]
    assert view["mine"] == t["hands"][1] and view["hand_counts"] == [2, 2, 2]
    assert "hands" not in view and t["hands"][0][0] not in str(ENGINE.view(state, None))
    ENGINE.check_invariants(state)


def test_HRE_M09_PLAY_02_05_a_card_played_and_the_attack_won(dice: list[int]) -> None:
    """HRE-M09-PLAY-02, -05: the card's benefits go to the attacker; winning with it gives a War
    token and 3 VP, the defender the card's Reclaim bonus."""
    state = skirmish(war_game(), ["CW01", "CW04"])
    state, events = attack(state, "lombardy", "tuscany")
    assert top(state)["kind"] == "m09_play"
    assert {"m09_play": None} in actions(state)
    # Night March: +1 Battle Result and 1 Gold now.
    dice.extend([1, 1, 1])  # melee: both attackers miss, the defender misses
    state, ev = act(state, {"m09_play": "CW04"})
    events += ev
    assert state["seats"][0]["gold"] == 1
    assert won(events)  # 2 + 1 against 1
    t = state["m09"]
    assert t["tokens"] == 11 and t["won"] == [1, 0, 0]
    assert state["seats"][0]["vp"] == 3
    assert state["seats"][1]["culture"] == 2  # Reclaim bonus: 2 Culture Points
    assert t["discards"][0] == ["CW04"] and t["hands"][0] == ["CW01"]
    assert "HRE-M09-PLAY-05" in events_text(events)
    ENGINE.check_invariants(state)


def test_HRE_M09_PLAY_02_plus_ones_turn_a_miss_into_a_hit(dice: list[int]) -> None:
    """HRE-M09-PLAY-02: Shield Wall's +1 on melee dice turns a 3 into a hit (infantry hit on 4)."""
    state = skirmish(war_game(), ["CW01"])
    units(state, "lombardy", 0, infantry=1)
    state, events = attack(state, "lombardy", "tuscany")
    dice.extend([3, 1])
    state, ev = act(state, {"m09_play": "CW01"})
    events += ev
    assert won(events)
    assert state["prov"]["tuscany"]["owner"] == 0
    assert any("from Keeps and cards" in str(e["public"]) for e in events)


def test_HRE_M09_PLAY_03_an_empty_hand_takes_the_discard_pile_back(dice: list[int]) -> None:
    """HRE-M09-PLAY-03: the last card in hand played, the discard pile comes back to hand."""
    state = skirmish(war_game(), ["CW04"])
    state["m09"]["discards"][0] = ["CW01"]
    state["m09"]["unseen"].remove("CW01")
    state, _ = attack(state, "lombardy", "tuscany")
    dice.extend([6, 6, 1])
    state, events = act(state, {"m09_play": "CW04"})
    assert state["m09"]["hands"][0] == ["CW01", "CW04"] and state["m09"]["discards"][0] == []
    assert "HRE-M09-PLAY-03" in events_text(events)


def test_HRE_M09_PLAY_04_the_attacker_wins_ties_even_without_a_card(dice: list[int]) -> None:
    """HRE-M09-PLAY-04: 1 against 1 after everyone misses is the attacker's win, no card played."""
    state = skirmish(war_game(), ["CW01"])
    units(state, "lombardy", 0, infantry=1)
    state, _ = attack(state, "lombardy", "tuscany")
    dice.extend([1, 1])
    state, events = act(state, {"m09_play": None})
    assert won(events) and "HRE-M09-PLAY-04" in events_text(events)
    assert state["m09"]["tokens"] == 12 and state["seats"][0]["vp"] == 0  # no card, no token


def test_HRE_M09_PLAY_04_no_tie_win_when_no_attacker_survives() -> None:
    """HRE-M09-PLAY-04: a tie is the attacker's only while one of its units is alive."""
    ctx = Ctx(war_game())
    dead = {"t": "infantry", "tr": False, "own": 0, "d": 1, "p": 0, "dead": True}
    alive = dict(dead, d=0, dead=False)
    assert not m09._wins_tie(ctx, {"sides": [[dead], []]})
    assert m09._wins_tie(ctx, {"sides": [[dead, alive], []]})


def test_HRE_M09_PLAY_06_a_defender_who_wins_gets_nothing(dice: list[int]) -> None:
    """HRE-M09-PLAY-06: the card played and lost (its +1 makes a tie, but no attacker is left to
    take it, PLAY-04): no token, no VP, no Reclaim; the card is spent."""
    state = skirmish(war_game(), ["CW08", "CW04"])
    units(state, "lombardy", 0, infantry=1)
    state, events = attack(state, "lombardy", "tuscany")
    dice.extend([1, 6])
    state, ev = act(state, {"m09_play": "CW04"})
    events += ev
    state = assign_all(state, events)
    assert not won(events)
    assert state["m09"]["tokens"] == 12 and state["seats"][0]["vp"] == 0
    assert state["seats"][1]["gold"] == 0 and state["seats"][1]["culture"] == 0
    assert state["m09"]["discards"][0] == ["CW04"]


def test_HRE_M09_PLAY_02_no_card_against_barbarians() -> None:
    """HRE-M09-PLAY-02: Combat cards are for attacks on another player only."""
    state = skirmish(war_game(), ["CW01"])
    state["prov"]["tuscany"].update(owner=None, units={"infantry": 0, "archer": 0, "cavalry": 0})
    state["box_tokens"].remove("B01")
    state["prov"]["tuscany"]["barb"] = {"token": "B01", "face": "units"}
    state, _ = attack(state, "lombardy", "tuscany")
    assert top(state)["kind"] != "m09_play"


def test_HRE_M09_PLAY_01_a_titles_card_comes_with_the_title_AMB_60() -> None:
    """HRE-M09-PLAY-01 (AMB-60): the new holder takes the card, from the old holder's hand too."""
    state = war_game()
    state["stack"] = []
    ctx = Ctx(state)
    card = state["m09"]["titles"]["kingdom_of_italy"]
    titles.claim(ctx, 0, "kingdom_of_italy")
    assert top(state) == {"kind": "m09_title", "seat": 0, "card": card}
    assert {"m09_to": "discard"} in actions(state)
    state, events = act(state, {"m09_to": "hand"})
    assert card in state["m09"]["hands"][0] and "kingdom_of_italy" not in state["m09"]["titles"]
    assert "HRE-M09-PLAY-01" in events_text(events)
    ctx = Ctx(state)
    titles.claim(ctx, 1, "kingdom_of_italy")
    state, _ = act(state, {"m09_to": "discard"})
    assert card not in state["m09"]["hands"][0] and state["m09"]["discards"][1] == [card]
    ENGINE.check_invariants(state)


def test_HRE_M09_END_01_the_last_war_token_triggers_the_end() -> None:
    """HRE-M09-END-01: no War token left is an end trigger; later wins give no token."""
    state = war_game()
    ctx = Ctx(state)
    assert "HRE-M09-END-01" not in endgame.triggers(ctx)
    state["m09"]["tokens"], state["m09"]["won"] = 0, [12, 0, 0]
    assert "HRE-M09-END-01" in endgame.triggers(ctx)
    state["stack"].append({"kind": "battle", "att": 1, "def": 2, "m09": "CW01"})
    state["stack"][-1]["m09"] = "CW01"
    m09._battle_won(ctx, state["stack"].pop())
    assert state["m09"]["won"] == [12, 0, 0] and state["seats"][1]["vp"] == 3


@pytest.mark.parametrize(
    ("won", "ladder", "vp"),
    [
        ([5, 5, 2, 0], 4, {0: 9, 1: 9, 2: 3, 3: 0}),  # TC-38, 4 players
        ([3, 1, 1], 3, {0: 9, 1: 4, 2: 4}),  # TC-38, 3 players
        ([2, 2], 2, {0: 6, 1: 6}),  # TC-38, 2 players (AMB-60)
        ([0, 0, 0], 3, {0: 0, 1: 0, 2: 0}),
    ],
)
def test_HRE_M09_END_02_tc38_war_token_majority(
    won: list[int], ladder: int, vp: dict[int, int]
) -> None:
    """HRE-M09-END-02, TC-38: ties take the higher value and skip the next; 0 tokens score 0."""
    assert majority(won, m09.LADDERS[ladder]) == vp


def test_HRE_M09_END_02_the_majority_is_in_the_result() -> None:
    """HRE-M09-END-02: the final result has a war_tokens category ranked with the rest."""
    state = war_game()
    state["m09"]["won"], state["m09"]["tokens"] = [3, 1, 1], 7
    rows = ENGINE.result(state)["seats"]
    assert [r["breakdown"]["war_tokens"] for r in rows] == [9, 4, 4]


def test_HRE_M09_PLAY_02_random_games_end_and_replay() -> None:
    """HRE-M09-PLAY-02: random games with the module end and replay, at 3 and 4 players."""
    for seed, players in ((1, 3), (2, 4)):
        playout = play_and_replay(ENGINE, seed, WAR, players)
        assert playout.over and playout.replay is not None and playout.replay.ok


def test_HRE_M09_the_module_is_refused_at_two_players() -> None:
    """The book prints 3–8 players for Module 9."""
    assert ENGINE.validate_scenario(WAR) == []
    with pytest.raises(Exception, match="3–4 players, not 2"):
        ENGINE.setup(1, WAR, 2)
