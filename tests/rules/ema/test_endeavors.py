"""Rule units of 10.0–17.0: Conquest, Pillage, Diplomacy, Defense, Fortification, Ruling, gold and Unrest."""

from __future__ import annotations

from rules.ema import claims, conquest, diplomacy, er, gold, rebellion, targets
from rules.ema.components import load
from rules.ema.state import CLAIMS, FORT, OWNER, PARTIAL, SS, TIES, UNREST, Ctx, has, seats_in
from rules.ema.territory import refresh_connections, transfer
from tests.rules.ema.helpers import (
    act,
    actions,
    ctx,
    endeavor,
    fake_card,
    fill,
    new,
    prompt,
    r,
    rules_of,
    to_main,
)


def test_first_to_complete_a_multiple_conquest_takes_it_EMA_10_38():
    """EMA-10.38: the first Player to reach Population C results takes the Area; the other's are removed."""
    c = ctx(new("28-millenium", 3))
    c.area("ile_de_france")[OWNER] = None
    c.area("champagne")[OWNER], c.area("normandy")[OWNER] = 0, 2
    conquest.c_result(c, 2, "normandy", "ile_de_france")
    conquest.c_result(c, 2, "normandy", "ile_de_france")
    for _ in range(3):
        conquest.c_result(c, 0, "champagne", "ile_de_france")
    assert c.area("ile_de_france")[OWNER] == 0 and c.area("ile_de_france")[PARTIAL] == []


def test_areas_at_ss_minus_3_cannot_be_pillaged_EMA_11_0_GR():
    """EMA-11.0.GR: Pillage aims at Independent or enemy Areas, never one at SS −3."""
    c = ctx(new())
    c.seat(0)["st"]["c"] = 9
    assert "burgundy" in targets.foreign_targets(c, 0, "pillage", "lorraine")
    assert "saxony" not in targets.foreign_targets(c, 0, "pillage", "lorraine")
    c.area("burgundy")[SS] = -3
    assert "burgundy" not in targets.foreign_targets(c, 0, "pillage", "lorraine")


def test_pillage_results_and_the_plunder_table_EMA_11_2_EMA_11_3(monkeypatch):
    """EMA-11.2 EMA-11.3: G rolls 1d6 on the table (0,1,1,2,2,3); Target and Base lose 1 SS."""
    assert load().tables["plunder"] == [0, 1, 1, 2, 2, 3]
    card = fake_card(monkeypatch, 910, pillage=[r("G"), r("-1", "target"), r("-1", "base")])
    state = to_main()
    me = state["seats"][0]
    me["years"], me["st"]["c"] = [card] * 5, 9
    ss = state["areas"]["burgundy"][SS], state["areas"]["lorraine"][SS]
    before = me["gold"]
    events = endeavor(state, "pillage", "burgundy", "lorraine")
    table = [e["public"] for e in events if e["rule"] == "EMA-11.3"][0]
    die = int(table.split("die ")[1].split(",")[0])
    assert me["gold"] - before == load().tables["plunder"][die - 1]
    assert (state["areas"]["burgundy"][SS], state["areas"]["lorraine"][SS]) == (
        ss[0] - 1,
        ss[1] - 1,
    )


def test_diplomacy_from_the_court_at_any_distance_EMA_12_11_EMA_12_12(monkeypatch):
    """EMA-12.0.GR EMA-12.1 EMA-12.11 EMA-12.12 EMA-12.13 EMA-12.16: Court Base, any non-Court Area."""
    c = ctx(new())
    c.seat(0)["st"]["d"] = 9
    assert targets.diplomacy_base(c, 0) == "lorraine"
    found = targets.diplomacy_targets(c, 0)
    assert "syria" in found and "saxony" in found  # far away, and inside the Empire
    assert "ile_de_france" not in found and "lorraine" not in found  # Courts never
    card = fake_card(monkeypatch, 911, diplomacy=[r("T", "result", ">=", 0)])
    state = to_main()
    me = state["seats"][0]
    me["years"], me["st"]["d"] = [card] * 5, 9
    endeavor(state, "diplomacy", "syria")
    assert state["endeavor"] is None and has(state["areas"]["syria"][TIES], 0)
    endeavor(state, "diplomacy", "saxony")
    assert has(state["areas"]["saxony"][TIES], 0)


def test_ties_need_a_tie_for_a_claim_and_last_EMA_12_41_EMA_12_43():
    """EMA-12.4 EMA-12.41 EMA-12.43: no automatic Claim without a Tie; Ties outlast Rounds."""
    state = to_main()
    c = ctx(state)
    c.area("burgundy")[OWNER] = 0
    claims.auto_claim(c, 0, "burgundy")
    assert not has(c.area("burgundy")[CLAIMS], 0)
    diplomacy.tie(c, 0, "burgundy")
    assert has(c.area("burgundy")[CLAIMS], 0)
    from rules.ema import sequence

    sequence.end_round(c)
    sequence.start_round(c)
    assert list(seats_in(c.area("burgundy")[TIES])) == [0]


def test_defense_order_and_costs_EMA_13_0_P1_to_P4(monkeypatch):
    """EMA-13.0.P1 EMA-13.0.P2 EMA-13.0.P3 EMA-13.0.P4 EMA-13.11 EMA-13.1 EMA-13.2 EMA-13.22."""
    card = fake_card(monkeypatch, 912, conquest=[r("C", "result", ">=", 99)])
    state = to_main()
    me, them = state["seats"]
    me["years"], them["years"] = [card] * 5, [card] * 5
    me["st"]["c"] = 9
    act(state, {"do": "endeavor", "kind": "conquest"})
    act(state, {"base": "lorraine"})
    act(state, {"target": "champagne"})
    assert prompt(state)["kind"] == "defend"
    act(state, {"defend": True})
    assert prompt(state)["kind"] == "att_gold" and prompt(state)["seat"] == 0
    act(state, {"gold": 2})
    assert prompt(state)["kind"] == "def_gold" and prompt(state)["seat"] == 1
    en = state["endeavor"]
    raw = er.conquest(Ctx(state), 0, "lorraine", "champagne")
    gold_before = them["gold"]
    act(state, {"gold": 1})
    assert them["gold"] == gold_before - 1 - 1 and them["defenses"] == 1 and len(them["years"]) == 4
    assert en["gold"] == 2 and en["dgold"] == 1
    from rules.ema.endeavors import final_er

    assert final_er(Ctx(state), en) == raw - them["st"]["c"] + 2 - 1


def test_at_most_four_defenses_and_one_card_needed_EMA_13_12_EMA_13_13(monkeypatch):
    """EMA-13.12 EMA-13.13 EMA-13.0.P1: no Defense after four in the Round, or with no card left."""
    from rules.ema.endeavors import may_defend

    c = ctx(new())
    assert may_defend(c, 1, "champagne")
    c.seat(1)["defenses"] = 4
    assert not may_defend(c, 1, "champagne")
    c.seat(1)["defenses"], c.seat(1)["years"] = 0, []
    assert not may_defend(c, 1, "champagne")


def test_fortification_builds_two_then_three_EMA_14_2(monkeypatch):
    """EMA-14.0.GR EMA-14.2 EMA-14.3 EMA-14.31 EMA-14.32: F builds 2, then 3, no more; forts cut ER and RV."""
    card = fake_card(monkeypatch, 913, fortification=[r("F")])
    state = to_main()
    me = state["seats"][0]
    me["years"], me["st"]["a"], me["gold"] = [card] * 5, 9, 30
    c = Ctx(state)
    ers = er.conquest(c, 1, "champagne", "lorraine"), rebellion.rebellion_value(c, "lorraine", 1)
    seen = []
    for _ in range(3):
        endeavor(state, "fortification", "lorraine")
        seen.append(state["areas"]["lorraine"][FORT])
    assert seen == [2, 3, 3]
    assert er.conquest(c, 1, "champagne", "lorraine") == ers[0] - 3
    assert rebellion.rebellion_value(c, "lorraine", 1) == ers[1] - 3


def test_forts_fall_on_conquest_and_may_be_reduced_EMA_14_41_EMA_14_43():
    """EMA-14.4 EMA-14.41 EMA-14.43: conquest turns F3 into F2 and removes F2; the owner may reduce his own."""
    c = ctx(new())
    c.area("burgundy")[FORT] = 3
    transfer(c, "burgundy", 0, "conquest")
    assert c.area("burgundy")[FORT] == 2
    transfer(c, "burgundy", 1, "conquest")
    assert c.area("burgundy")[FORT] == 0
    state = to_main()
    state["areas"]["saxony"][FORT] = 3
    act(state, {"do": "reduce_fort"})
    act(state, {"area": "saxony"})
    assert state["areas"]["saxony"][FORT] == 2


def test_ruling_quells_unrest_unless_minus_one_EMA_15_3(monkeypatch):
    """EMA-15.3 EMA-15.2: a +1 or no result removes Unrest; a −1 keeps it and checks the Area (9.19)."""
    up = fake_card(monkeypatch, 914, ruling=[r("+1", "base", ">=", 0)])
    nothing = fake_card(monkeypatch, 915)
    down = fake_card(monkeypatch, 916, ruling=[r("-1", "target", ">=", 0)])
    state = to_main()
    me = state["seats"][0]
    me["years"], me["st"]["a"] = [up, nothing, down, up, up], 9
    areas = state["areas"]
    for a in ("saxony", "bavaria", "franconia"):
        areas[a][UNREST] = True
    endeavor(state, "ruling", "saxony")
    endeavor(state, "ruling", "bavaria")
    assert not areas["saxony"][UNREST] and not areas["bavaria"][UNREST] and areas["saxony"][SS] == 1
    events = endeavor(state, "ruling", "franconia")
    assert "EMA-9.19" in rules_of(events) and areas["franconia"][SS] == -1
    assert areas["franconia"][UNREST] or areas["franconia"][OWNER] is None


def test_taxation_is_voluntary_once_and_per_area_EMA_16_1(monkeypatch):
    """EMA-16.0.GR EMA-16.1 EMA-16.11 EMA-16.12 EMA-16.13 EMA-16.14 EMA-16.15: 1..SS gold, once each."""
    state = to_main()
    act(state, {"do": "tax"})
    assert {"finish": True} in actions(state)
    offered = {a["area"] for a in actions(state) if "area" in a}
    assert "burgundy" not in offered and "lombardy" in offered
    act(state, {"area": "lombardy"})
    assert [a["tax"] for a in actions(state) if "tax" in a] == [1, 2, 3]
    act(state, {"tax": 2})
    assert "lombardy" not in {a.get("area") for a in actions(state)}
    act(state, {"finish": True})
    assert {"do": "tax"} not in actions(state)
    card = fake_card(monkeypatch)
    state["seats"][0]["years"] = [card] * 5
    endeavor(state, "ruling", "saxony")
    assert {"do": "tax"} not in actions(state)  # taxation happens at one point only


def test_taxing_an_area_makes_a_rebellion_check_EMA_17_0_Trig_Tax():
    """EMA-17.0.Trig-Tax EMA-16.16: each taxed Area but the Court is checked at RV +1 per gold."""
    c = ctx(new())
    c.area("lombardy")[UNREST] = False
    rv = rebellion.rebellion_value(c, "lombardy", 3)
    assert rv == rebellion.rebellion_value(c, "lombardy", 0) + 3
    gold.tax(c, 0, "lombardy", 3)
    assert [e["rule"] for e in c.events][0] == "EMA-17.0.Trig-Tax" and f"RV {rv}" in c.events[0][
        "public"
    ]


def test_plunder_in_unrest_checks_then_rolls_EMA_16_0_Plunder_P3():
    """EMA-17.0.Trig-Plunder EMA-16.0.Plunder-P3 EMA-16.0.Plunder-P4: a check at 3 gold +5, then the table."""
    for seed in range(1, 30):
        c = ctx(new(seed=seed))
        fill(c.area("tuscany"), {"unrest": True, "ss": 2})
        rv = rebellion.rebellion_value(c, "tuscany", 3)
        before = c.seat(0)["gold"]
        gold.plunder(c, 0, "tuscany")
        rules = rules_of(c.events)
        assert rules[0] == "EMA-17.0.Trig-Plunder" and f"RV {rv}" in c.events[0]["public"]
        if c.area("tuscany")[OWNER] is None:
            assert c.seat(0)["gold"] == before and "EMA-16.0.Plunder-P4" not in rules
        else:
            die = int(c.events[-1]["public"].split("die ")[1].split(",")[0])
            assert c.seat(0)["gold"] - before == load().tables["plunder"][die - 1]


def test_cut_off_areas_fall_into_unrest_EMA_17_0_Trig_Disconnected():
    """EMA-17.0.Trig-Disconnected: an Area whose link to the Court breaks enters Unrest at once."""
    c = ctx(new())
    c.area("kiev")[OWNER] = 0
    refresh_connections(c)
    assert c.area("kiev")[UNREST] and "EMA-17.0.Trig-Disconnected" in rules_of(c.events)
