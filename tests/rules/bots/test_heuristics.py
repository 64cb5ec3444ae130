"""The per-game heuristics on built positions: more of what wins scores higher."""

from __future__ import annotations

import pytest

from rules.bots import heuristics
from rules.core.canonical import clone
from rules.core.registry import get_engine
from rules.ema.state import OWNER
from tests.rules.bots.helpers import position
from tests.rules.hre.helpers import draft_all


def test_hre_one_more_city_scores_higher() -> None:
    engine = get_engine("hre")
    state = position(engine, "base", 2, 120)
    mine = next(p for p, h in state["prov"].items() if h["owner"] == 0)
    state["prov"][mine]["city"] = False
    better = clone(state)
    better["prov"][mine]["city"] = True
    assert heuristics.value(engine, better, 0) > heuristics.value(engine, state, 0)
    assert heuristics.value(engine, better, 1) < heuristics.value(engine, state, 1)


def test_hre_resources_culture_and_units_count() -> None:
    engine = get_engine("hre")
    state = position(engine, "base", 2, 120)
    base = heuristics.value(engine, state, 0)
    for change in ("res", "culture", "units"):
        better = clone(state)
        if change == "res":
            better["seats"][0]["res"]["stone"] += 2
        elif change == "culture":
            better["seats"][0]["culture"] += 1
        else:
            mine = next(p for p, h in better["prov"].items() if h["owner"] == 0)
            better["prov"][mine]["units"]["infantry"] += 1
        assert heuristics.value(engine, better, 0) > base, change


def test_ema_one_more_area_gold_and_stature_score_higher() -> None:
    engine = get_engine("ema")
    state = position(engine, "27-charlemagne", 2, 60)
    base = heuristics.value(engine, state, 0)
    free = next(a for a, h in state["areas"].items() if h[OWNER] not in (0, 1))
    more_land = clone(state)
    more_land["areas"][free][OWNER] = 0
    assert heuristics.value(engine, more_land, 0) > base
    richer = clone(state)
    richer["seats"][0]["gold"] += 3
    assert heuristics.value(engine, richer, 0) > base
    key = next(iter(state["seats"][0]["st"]))
    state["seats"][0]["st"][key] = 3
    wiser = clone(state)
    wiser["seats"][0]["st"][key] = 5
    assert heuristics.value(engine, wiser, 0) > heuristics.value(engine, state, 0)


def test_feudal_vp_characters_and_cards_count() -> None:
    engine = get_engine("feudal")
    state = position(engine, "duel", 2, 40)
    base = heuristics.value(engine, state, 0)
    token = clone(state)
    token["seats"][0]["vp"] += 1
    assert heuristics.value(engine, token, 0) > base
    stronger = clone(state)
    stronger["seats"][0]["area"].append(
        {"uid": 999, "card": "scar_brute", "skills": [], "weapons": []}
    )
    assert heuristics.value(engine, stronger, 0) > base
    fuller = clone(state)
    fuller["seats"][0]["hand"].append("looter")
    assert base < heuristics.value(engine, fuller, 0) < heuristics.value(engine, token, 0)


def test_solitaire_wins_follow_the_scenarios_own_conditions() -> None:
    ema, feudal = get_engine("ema"), get_engine("feudal")
    solo = position(ema, "27-charlemagne-solo", 1, 10)
    assert heuristics.solo_won(ema, solo) == (ema.result(solo)["seats"][0]["score"] >= 91)
    lone = position(feudal, "solitaire", 1, 10)
    assert not heuristics.solo_won(feudal, lone)
    lone["winner"] = [0]
    assert heuristics.solo_won(feudal, lone)
    assert 0.0 <= heuristics.rewards(feudal, lone)[0] <= 1.0


def test_hre_module_scoring_sources_count() -> None:
    """HRE-M09-END-02, HRE-M08-END-01: War tokens, Wyrds and a built Grand Building move the
    search bot's value of a position."""
    engine = get_engine("hre")
    state = position(engine, "all-modules", 3, 120)
    base = heuristics.value(engine, state, 0)
    war = clone(state)
    war["m09"]["won"][0] += 1
    war["m09"]["tokens"] -= 1
    assert heuristics.value(engine, war, 0) > base  # the majority (9 VP) and the token itself
    t = state["m08"]
    for i in range(3):  # nobody holds a Wyrd in the position compared against
        t["removed"] += [e["card"] for e in t["active"][i]] + t["fulfilled"][i]
        t["active"][i], t["fulfilled"][i] = [], []
    base = heuristics.value(engine, state, 0)
    wyrd = clone(state)
    wyrd["m08"]["fulfilled"][0].append(wyrd["m08"]["removed"].pop())
    assert engine.result(wyrd)["seats"][0]["breakdown"]["wyrd"] == 7
    assert heuristics.value(engine, wyrd, 0) > base
    grand = clone(state)
    mine = next(p for p, h in grand["prov"].items() if h["owner"] == 0)
    grand["m03"]["supply"].remove("C049")
    grand["m03"]["built"]["C049"] = {"prov": mine, "holder": 0}
    assert heuristics.value(engine, grand, 0) > base


def test_hre_the_scoring_sources_of_modules_12a_to_15a_are_valued() -> None:
    """HRE-M12A-END-01, HRE-M15A-END-01, HRE-M15A-AID-02, HRE-M14A-CONTRIB-02, HRE-M13A-PLAY-02:
    the Pope and a flipped Poland card raise the seat's value by their VP; a unit sent on a
    Crusade is worth what it was on the board; a Poland step and a Benjamin page count too."""
    engine = get_engine("hre")
    config = next(s["config"] for s in engine.scenarios() if s["slug"] == "all-modules")
    state, _ = draft_all(engine.setup(3, config, 3))
    while state["stack"][-1]["kind"] != "turn":  # the modules' own set-up choices
        prompt = engine.prompts(state)[0]
        state, _ = engine.apply(state, prompt["seat"], prompt["options"][0]["action"])
    base = heuristics.value(engine, state, 0)
    pope = clone(state)
    pope["m12a"]["holder"] = 0
    assert heuristics.value(engine, pope, 0) == pytest.approx(base + 5)
    flipped = clone(state)
    flipped["m15a"]["cards"][0]["santok"].update(side="flipped", step=3)
    assert heuristics.value(engine, flipped, 0) == pytest.approx(base + 7)
    step = clone(state)
    step["m15a"]["cards"][0]["veleti"]["step"] = 1
    assert heuristics.value(engine, step, 0) > base
    page = clone(state)
    page["m13a"]["stacks"][0] = ["CB01"]
    assert heuristics.value(engine, page, 0) > base
    home = next(p for p, h in state["prov"].items() if h["owner"] == 0 and h["units"]["infantry"])
    sent = clone(state)
    sent["prov"][home]["units"]["infantry"] -= 1
    sent["m14a"]["pool"][0]["infantry"] += 1
    assert heuristics.value(engine, sent, 0) == pytest.approx(base)


def test_hre_alliances_combat_cards_module_techs_and_track_vp_are_valued() -> None:
    """What the other module sources lead to: an Alliance held (Module 5, it pays at each Pass),
    a Combat card in hand (Module 9), a Module 3 starting Technology raised a level (its VP are
    in the result) and VP scored during play (Skirmisher rewards, Combat wins, Benjamin,
    Crusades, aid to Poland: all go on the VP track, counted one for one)."""
    engine = get_engine("hre")
    state = position(engine, "all-modules", 3, 120)
    base = heuristics.value(engine, state, 0)
    allied = clone(state)
    t = allied["m05"]
    card = t["hands"][1].pop()
    t["markers"][1] -= 1
    t["allies"].append({"holder": 0, "card": card, "marker": 1})
    assert heuristics.value(engine, allied, 0) > base
    armed = clone(state)
    armed["m09"]["hands"][0].append(armed["m09"]["unseen"].pop())
    assert heuristics.value(engine, armed, 0) > base
    state["seats"][0]["techs"].append({"card": "C055", "level": 1})
    base = heuristics.value(engine, state, 0)
    raised = clone(state)
    raised["seats"][0]["techs"][-1]["level"] = 2
    before = engine.result(state)["seats"][0]["breakdown"]["technologies"]
    assert engine.result(raised)["seats"][0]["breakdown"]["technologies"] == before + 1
    assert heuristics.value(engine, raised, 0) == pytest.approx(base + 1)
    scored = clone(state)
    scored["seats"][0]["vp"] += 3
    assert heuristics.value(engine, scored, 0) == pytest.approx(base + 3)
