"""The end of a solo game, the Lordlings' score and the difficulty options (HRE-M01-END, -SCORE, -DIFF)."""

from __future__ import annotations

from rules.core import rng
from rules.hre import ENGINE, endgame, handlers
from rules.hre.components import load
from rules.hre.modules import m01_lordlings as m
from rules.hre.state import UNITS, Ctx
from tests.rules.hre.helpers import units
from tests.rules.hre.modules.solo import lordling_homes, quiet, solo


def _level(state: dict, unit: str, level: int) -> None:
    state["seats"][1]["levels"][unit] = {
        "level": level,
        "stats": m.solo_data()["lordling_units"][unit][level - 1],
    }


def test_HRE_M01_END_01_their_Technologies_and_upgrades_reaching_9() -> None:
    """HRE-M01-END-01 (TC-36): Common Technologies collected plus Lordling levels above 1 (Raiders not
    counted) at 9 trigger the end; so does their marker on the last Culture space."""
    state = quiet(solo())
    ctx = Ctx(state)
    cards = [c for c, s in sorted(load().cards.items()) if s["type"] == "common_tech"][:5]
    state["m01"]["techs"] = cards
    _level(state, "infantry", 4)  # +3
    state["m01"]["raider_levels"] = dict.fromkeys(UNITS, 4)  # not counted
    assert "HRE-M01-END-01" not in endgame.triggers(ctx)
    _level(state, "archer", 2)  # 5 + 3 + 1 = 9
    assert "HRE-M01-END-01" in endgame.triggers(ctx)
    state = quiet(solo())
    state["seats"][1]["culture"] = len(load().board["culture_track"]) - 1
    assert "HRE-BASE-END-04" in endgame.triggers(Ctx(state))


def test_HRE_M01_END_02_both_pass_at_once_then_a_final_Pass_each() -> None:
    """HRE-M01-END-02 (AMB-54): at the trigger you and the Lordlings Pass at once (without step
    1); their next Pass is their last (steps 1-3) and they draw no more cards."""
    state = quiet(solo())
    ctx = Ctx(state)
    state["stack"] = []
    state["m01"]["techs"] = [
        c for c, s in sorted(load().cards.items()) if s["type"] == "common_tech"
    ][:9]
    endgame.check_triggers(ctx, 0)
    kinds = [(f["kind"], f.get("mode")) for f in state["stack"]]
    assert ("m01_pass", "immediate") in kinds and ("pass", "immediate") in kinds
    assert m.PASS_STEPS["immediate"][0] == 2
    state["stack"] = [{"kind": "m01_pass", "seat": 1, "mode": "final", "next": 0}]
    while state["stack"]:
        m._lordling_pass_step(ctx, state["stack"][-1])
    assert state["seats"][1]["out"]
    assert m.PASS_STEPS["final"] == (1, 2, 3, 7)


def test_HRE_M01_END_03_no_Raider_attack_and_no_Raid_in_the_last_round() -> None:
    """HRE-M01-END-03: once the end is triggered, Raider attacks are skipped and your Raid cards
    cannot be played."""
    state = quiet(solo())
    ctx = Ctx(state)
    state["end_triggered"] = True
    state["stack"] = []
    m.raiders_attack(ctx, "HRE-M01-RAIDER-01")
    assert state["stack"] == []
    raid = next(c for c, s in load().cards.items() if s["type"] == "raider" and s["kind"] == "raid")
    state["seats"][0]["hand"].append(raid)
    for place in ("deck", "offer", "discard"):
        if raid in state[place]:
            state[place].remove(raid)
    turn = {"kind": "turn", "seat": 0, "phase": "start", "extra": 0}
    assert m._raid_options(ctx, turn, 0) == []
    state["end_triggered"] = False
    assert m._raid_options(ctx, turn, 0)


def test_HRE_M01_END_04_the_Raiders_attack_once_the_game_is_over() -> None:
    """HRE-M01-END-04: when every side is out, the Raiders attack, then final scoring."""
    state = quiet(solo())
    ctx = Ctx(state)
    state["stack"] = []
    state["end_triggered"] = True
    for seat in state["seats"]:
        seat["out"] = True
    state["m01"]["target"] = None
    state["seats"][0]["vp"] = 9
    endgame.finish(ctx)
    assert not state["over"] and [f["kind"] for f in state["stack"]] == ["m01_finish", "m01_attack"]
    handlers.MACHINE.advance(ctx)
    assert state["over"] and state["seats"][0]["vp"] == 4  # the Target on your Ruler: -5 VP


def test_HRE_M01_DIFF_08_hard_Raiders_attack_at_the_trigger() -> None:
    """HRE-M01-DIFF-08: on hard, the Raiders attack when the end is triggered, not after."""
    state = quiet(solo(difficulty="hard"))
    ctx = Ctx(state)
    state["end_triggered"] = True
    state["m01"]["target"] = None
    state["seats"][0]["vp"] = 6
    state["stack"] = [{"kind": "m01_pass", "seat": 1, "mode": "immediate", "next": 0}]
    m._lordling_pass_step(ctx, state["stack"][-1])
    assert state["stack"][-1]["kind"] == "m01_attack" and state["m01"]["final_attack"]
    m._attack_step(ctx, state["stack"][-1])
    assert state["seats"][0]["vp"] == 1
    state["stack"] = []
    for seat in state["seats"]:
        seat["out"] = True
    endgame.finish(ctx)
    assert state["over"]  # no second attack after the game


def test_HRE_M01_SCORE_01_02_03_the_Lordlings_score_and_a_tie_loses() -> None:
    """HRE-M01-SCORE-01, HRE-M01-SCORE-02, HRE-M01-SCORE-03 and HRE-M01-DIFF-02: you score as
    in multiplayer; they score VP earned, 2 per Technology (1 easy), Keep levels times their
    neighbours, the Culture track, their Farm track and their Titles; a tie is your loss."""
    for difficulty, per_tech in (("normal", 2), ("easy", 1)):
        state = quiet(solo(difficulty=difficulty))
        home = lordling_homes(state)[0]
        state["prov"][home]["keep"] = 2
        from rules.hre.state import neighbours

        near = [q for q in neighbours(state, home) if state["prov"][q]["owner"] is None][:1]
        for q in near:
            units(state, q, 1, infantry=1)
        state["seats"][1]["vp"] = 10
        state["m01"]["techs"] = [
            c for c, s in sorted(load().cards.items()) if s["type"] == "common_tech"
        ][:3]
        state["seats"][1]["culture"] = 6
        state["titles"]["duchy_of_carinthia"]["holder"] = 1
        parts = m.lordling_breakdown(state)
        lordling_neighbours = sum(
            1 for q in neighbours(state, home) if state["prov"][q]["owner"] == 1
        )
        assert parts == {
            "vp": 10,
            "techs": 3 * per_tech,
            "keeps": sum(
                state["prov"][p]["keep"]
                * sum(1 for q in neighbours(state, p) if state["prov"][q]["owner"] == 1)
                for p in state["prov"]
                if state["prov"][p]["owner"] == 1
            ),
            "culture": load().board["culture_track"][6]["vp"],
            "farms": m.farm_vp(state),
            "titles": load().titles["duchy_of_carinthia"]["vp"],
        }
        assert parts["keeps"] >= 2 * lordling_neighbours
        theirs = sum(parts.values())
        result = ENGINE.result(state)
        you = result["seats"][0]
        assert len(result["seats"]) == 1 and you["breakdown"]["lordlings"] == theirs
        from rules.hre import scoring

        assert you["score"] == sum(scoring.breakdown(Ctx(state), 0).values())
        state["seats"][0]["vp"] += theirs - you["score"]  # a tie
        assert ENGINE.result(state)["seats"][0]["rank"] == 2
        state["seats"][0]["vp"] += 1
        assert ENGINE.result(state)["seats"][0]["rank"] == 1


def test_HRE_M01_DIFF_01_04_05_difficulty_at_their_Pass() -> None:
    """HRE-M01-DIFF-01, HRE-M01-DIFF-04, HRE-M01-DIFF-05: easy counts only provinces with a City;
    hard adds 2 VP per Title held and 3 CP instead of 2."""
    for difficulty in ("easy", "normal", "hard"):
        state = quiet(solo(difficulty=difficulty))
        extra = [p for p, h in sorted(state["prov"].items()) if h["owner"] is None][:3]
        for p in extra:
            state["prov"][p]["barb"] = None
            units(state, p, 1, infantry=1)
        state["titles"]["duchy_of_carinthia"]["holder"] = 1
        state["titles"]["duchy_of_carinthia"]["established"] = True
        culture = state["seats"][1]["culture"]
        ctx = Ctx(state)
        state["stack"] = [{"kind": "m01_pass", "seat": 1, "mode": "normal", "next": 4}]
        m._lordling_pass_step(ctx, state["stack"][-1])  # step 5: Culture Points
        vp = state["seats"][1]["vp"]
        m._lordling_pass_step(ctx, state["stack"][-1])  # step 6: VP
        gained = state["seats"][1]["vp"] - vp
        count = sum(1 for h in state["prov"].values() if h["owner"] == 1)
        if difficulty == "easy":
            assert gained == 1  # 3 Cities: 1 VP
        elif difficulty == "normal":
            assert gained == (5 if count >= 6 else 3)
        else:
            assert gained == (5 if count >= 6 else 3) + 2
        moved = state["seats"][1]["culture"] - culture
        assert moved == (3 if difficulty == "hard" else 2)


def test_HRE_M01_DIFF_09_hard_Barbarian_extras_add_up() -> None:
    """HRE-M01-DIFF-09 (AMB-55, TC-28): on hard the 2nd Barbarian gets +Infantry, the 3rd +Infantry
    +Archer, the 4th onward all three."""
    assert m.hard_extras(0) == []
    assert m.hard_extras(1) == ["infantry"]
    assert m.hard_extras(2) == ["infantry", "archer"]
    assert m.hard_extras(5) == ["infantry", "archer", "cavalry"]
    state = quiet(solo(difficulty="hard"))
    state["seats"][0]["trophies"] = state["box_tokens"][:2]
    state["box_tokens"] = state["box_tokens"][2:]
    frame = {"kind": "battle", "def": None, "token": "B01", "sides": [[], []]}
    m._hard_barbarians(Ctx(state), frame)
    assert [u["t"] for u in frame["sides"][1]] == ["infantry"]  # the base adds the archer


def test_HRE_M01_GEN_07_random_picks_are_uniform_over_the_sorted_candidates() -> None:
    """HRE-M01-GEN-07: a random pick is one d20-like uniform draw over the valid candidates,
    whatever order they were listed in."""
    state = quiet(solo())
    picks = set()
    for seed in range(30):
        a = {"rng": rng.seed_state(seed)}
        b = {"rng": rng.seed_state(seed)}
        first = m.pick(Ctx(a), ["x", "y", "z"])
        assert first == m.pick(Ctx(b), ["z", "x", "y"])
        picks.add(first)
    assert picks == {"x", "y", "z"}
    assert m.pick(Ctx(state), ["only"]) == "only"


def test_HRE_M01_LORDLING_TURN_05_an_empty_deck_means_a_Pass() -> None:
    """HRE-M01-LORDLING-TURN-05 (AMB-47): no Lordling card to draw: they Pass."""
    state = quiet(solo())
    state["m01"]["discard"] = state["m01"]["deck"]
    state["m01"]["deck"] = []
    state["stack"] = []
    m.draw_and_resolve(Ctx(state))
    assert state["stack"][-1]["kind"] == "m01_pass"
