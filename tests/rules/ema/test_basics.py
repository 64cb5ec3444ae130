"""Rule units of 1.0–9.0: terms, equipment, the nature of Empire, Leaders and Endeavors in general."""

from __future__ import annotations

from rules.ema import er, leaders, sequence, targets, victory
from rules.ema.components import load
from rules.ema.state import (
    CHRISTIAN,
    CLAIMS,
    FORT,
    LANG,
    OWNER,
    PARTIAL,
    REL,
    SS,
    UNREST,
    area_dict,
    mask_of,
    owned,
    rel_relation,
    seats_in,
)
from rules.ema.territory import transfer
from tests.rules.ema.helpers import (
    ENGINE,
    act,
    actions,
    ctx,
    endeavor,
    fake_card,
    fill,
    new,
    prompt,
    r,
    to_main,
)


def test_periods_scenarios_and_one_empire_per_player_EMA_1_0():
    """EMA-1.0: scenarios from 771 to 1465, one solitaire, each Player one Empire."""
    d = load()
    years = [d.scenarios[n]["start_year"] for n in ("27", "28", "29", "30", "31")]
    assert min(years) == 771 and all(771 <= y <= 1465 for y in years)
    solo = [s for s in ENGINE.scenarios() if s["max_players"] == 1]
    assert [s["slug"] for s in solo] == ["27-charlemagne-solo"]
    state = new("29-crusades", 6)
    assert len({m["empire"] for m in state["seats"]}) == 6


def test_claims_score_with_possession_EMA_2_0_Claims():
    """EMA-2.0.Claims EMA-18.0.GR EMA-18.11 EMA-18.13: possession and Claim give 3 VP; one Claim each."""
    c = ctx(new())
    before = victory.breakdown(c.s, 0)["claims"]
    c.area("saxony")[CLAIMS] = mask_of([])
    assert victory.breakdown(c.s, 0)["claims"] == before - 3
    from rules.ema import claims

    assert claims.add(c, 0, "saxony", "t") and not claims.add(c, 0, "saxony", "t")
    assert claims.add(c, 1, "saxony", "t") and list(seats_in(c.area("saxony")[CLAIMS])) == [0, 1]
    c.area("burgundy")[CLAIMS] = mask_of([0])
    assert (
        victory.breakdown(c.s, 0)["claims"] == before
    )  # a Claim without possession scores nothing


def test_leader_language_and_religion_are_those_of_the_original_court_EMA_2_0_Court():
    """EMA-2.0.Court: the Leader keeps the original Court's Language and Religion when the Court moves."""
    state = to_main()
    me = state["seats"][0]
    assert (me["lang"], me["rel"]) == (
        state["areas"]["lorraine"][LANG],
        state["areas"]["lorraine"][REL],
    )
    c = ctx(state)
    transfer(c, "lorraine", 1, "conquest")
    act(state, {"court": "franconia"})
    assert me["court"] == "franconia" and me["orig_court"] == "lorraine"
    assert (me["lang"], me["rel"]) == ("old_high_german", "RC")


def test_er_follows_the_stature_in_use_EMA_2_0_ER():
    """EMA-2.0.ER EMA-2.0.Stature EMA-8.0.GR EMA-8.1: ER is the Stature in use, modified; Statures are 1–9."""
    c = ctx(new())
    assert load().tables["stature_values"] == [1, 2, 3, 5, 9]
    me = c.seat(0)
    base = (
        er.conquest(c, 0, "saxony", "brandenburg"),
        er.ruling(c, 0, "saxony"),
        er.diplomacy(c, 0, "lorraine", "burgundy"),
    )
    me["st"]["c"] += 2
    assert (
        er.conquest(c, 0, "saxony", "brandenburg") == base[0] + 2
        and er.ruling(c, 0, "saxony") == base[1]
    )
    me["st"]["a"] += 4
    assert (
        er.ruling(c, 0, "saxony") == base[1] + 4
        and er.diplomacy(c, 0, "lorraine", "burgundy") == base[2]
    )
    me["st"]["d"] += 6
    assert er.diplomacy(c, 0, "lorraine", "burgundy") == base[2] + 6
    assert targets.STATURE_OF == {
        "conquest": "c",
        "pillage": "c",
        "convert": "c",
        "ruling": "a",
        "fortification": "a",
        "diplomacy": "d",
    }


def test_the_empire_is_the_set_of_controlled_areas_EMA_2_0_Empire():
    """EMA-2.0.Empire: a Player's Empire is exactly the Areas of his scenario list, and changes by conquest."""
    state = new("28-millenium", 2)
    scen = load().scenarios["28"]
    assert owned(state, 0) == sorted(scen["empires"][0]["areas"])
    c = ctx(state)
    transfer(c, "burgundy", 0, "conquest")
    assert "burgundy" in owned(state, 0)


def test_six_endeavors_each_one_year_card_EMA_2_0_Endeavors(monkeypatch):
    """EMA-2.0.Endeavors EMA-9.0.GR EMA-9.11: the menu offers the Endeavors; each uses exactly one card."""
    state = to_main()
    kinds = {a["kind"] for a in actions(state) if a.get("do") == "endeavor"}
    assert {"conquest", "pillage", "diplomacy", "ruling", "fortification"} <= kinds
    blank = fake_card(monkeypatch)
    me = state["seats"][0]
    me["years"] = [blank] * 5
    endeavor(state, "ruling", "saxony")
    assert len(me["years"]) == 4 and me["revealed"] == [blank] and me["endeavors"] == 1


def test_gold_costs_of_every_endeavor_EMA_2_0_Gold(monkeypatch):
    """EMA-2.0.Gold EMA-10.1 EMA-11.1 EMA-12.2 EMA-14.1 EMA-15.1: 2, 0, 1 (no Sea cost), 2, 0 gold."""
    blank = fake_card(monkeypatch)
    paid = {}
    for kind, target, base in (
        ("conquest", "burgundy", "lorraine"),
        ("pillage", "burgundy", "lorraine"),
        ("diplomacy", "syria", None),
        ("fortification", "saxony", None),
        ("ruling", "saxony", None),
    ):
        state = to_main()
        me = state["seats"][0]
        me["years"] = [blank] * 5
        me["st"] = {"c": 9, "a": 9, "d": 9}
        gold = me["gold"]
        endeavor(state, kind, target, base)
        paid[kind] = gold - me["gold"]
    assert paid == {"conquest": 2, "pillage": 0, "diplomacy": 1, "fortification": 2, "ruling": 0}


def test_language_religion_population_change_er_EMA_2_0_LRP():
    """EMA-2.0.LRP EMA-7.0.GR: every Area has Religion, Language, Population and SS, and they modify ER."""
    c = ctx(new())
    here = c.area("brandenburg")
    assert {"lang", "rel", "ss"} <= set(area_dict(here)) and "population" in c.d.areas[
        "brandenburg"
    ]
    fill(here, {"lang": "old_high_german", "rel": "RC"})
    same = er.conquest(c, 0, "saxony", "brandenburg")
    fill(here, {"lang": "greek", "rel": "moslem_east"})
    assert er.conquest(c, 0, "saxony", "brandenburg") == same - 4


def test_social_state_sets_tax_and_er_EMA_2_0_SS():
    """EMA-2.0.SS EMA-7.1: SS limits the tax asked and adds to the Base's ER."""
    state = to_main()
    c = ctx(state)
    c.area("saxony")[SS] = 2
    value = er.conquest(c, 0, "saxony", "brandenburg")
    c.area("saxony")[SS] = 1
    assert er.conquest(c, 0, "saxony", "brandenburg") == value - 1
    act(state, {"do": "tax"})
    act(state, {"area": "saxony"})
    assert [a for a in actions(state) if "tax" in a] == [{"tax": 1}]


def test_unrest_raises_rv_but_not_er_EMA_2_0_Unrest():
    """EMA-2.0.Unrest EMA-17.0.GR EMA-17.13 EMA-17.12: Unrest adds 5 to RV and nothing to ER."""
    from rules.ema import rebellion

    c = ctx(new())
    ers = er.conquest(c, 0, "saxony", "brandenburg"), er.ruling(c, 0, "saxony")
    rv = rebellion.rebellion_value(c, "saxony", 1)
    c.area("saxony")[UNREST] = True
    assert (er.conquest(c, 0, "saxony", "brandenburg"), er.ruling(c, 0, "saxony")) == ers
    assert rebellion.rebellion_value(c, "saxony", 1) == rv + 5


def test_unrest_areas_may_be_taxed_and_plundered_EMA_17_14():
    """EMA-17.14: an Area in Unrest is offered for Taxation and Plunder like any other."""
    state = to_main()
    state["areas"]["tuscany"][UNREST] = True
    act(state, {"do": "tax"})
    act(state, {"area": "tuscany"})
    assert {"tax": 2} in actions(state) and {"plunder": True} in actions(state)


def test_equipment_cards_and_charts_EMA_3_0():
    """EMA-3.0 EMA-3.6 EMA-3.4: 56 Year and 56 Event Cards, and every chart of the game as a table."""
    d = load()
    assert len(d.year_cards) == 56 and len(d.events) == 56
    for chart in ("stature_change", "rebellion", "conversion", "plunder", "modifiers"):
        assert d.tables[chart]
    assert set(d.tables["modifiers"]) == {
        "conquest",
        "pillage",
        "ruling",
        "fortification",
        "diplomacy",
    }


def test_map_errata_by_number_code_EMA_3_1():
    """EMA-3.1: Old Saxon and Old High German are distinct Languages; Hungary is non-Indo-European."""
    d = load()
    assert (
        d.areas["saxony"]["language"] == "old_saxon"
        and d.areas["franconia"]["language"] == "old_high_german"
    )
    assert d.areas["hungary"]["language"].startswith("nonie")


def test_counters_are_state_and_not_limited_EMA_3_52():
    """EMA-3.5 EMA-3.51 EMA-3.52: markers are state fields; Partial Conquest counts go past the counter's 2."""
    c = ctx(new())
    assert {
        "owner",
        "ss",
        "unrest",
        "fort",
        "ties",
        "claims",
        "partial",
        "rel",
        "lang",
        "conv",
    } <= set(area_dict(c.area("saxony")))
    assert {"st", "gold", "court", "excom", "inplay"} <= set(c.seat(0))
    from rules.ema import conquest

    for base in ("champagne", "flanders"):
        c.area(base)[OWNER] = 0
    assert c.d.areas["ile_de_france"]["population"] == 3
    conquest.c_result(c, 0, "champagne", "ile_de_france")
    conquest.c_result(c, 0, "champagne", "ile_de_france")
    assert c.area("ile_de_france")[PARTIAL] == [{"seat": 0, "base": "champagne", "n": 2}]
    conquest.c_result(c, 0, "flanders", "ile_de_france")
    assert c.area("ile_de_france")[OWNER] == 0
    c.area("adrianople")[OWNER] = 0
    for _ in range(3):
        conquest.c_result(c, 0, "adrianople", "constantinople")
    assert c.area("constantinople")[PARTIAL] == [{"seat": 0, "base": "adrianople", "n": 3}]


def test_ss_changes_by_ruling_and_falls_by_fortification_EMA_7_13(monkeypatch):
    """EMA-7.13 EMA-7.1 EMA-15.0.GR EMA-15.2: Ruling +1 raises SS, a −1 of Fortification lowers it."""
    up = fake_card(monkeypatch, 901, ruling=[r("+1", "base", ">=", 0)])
    down = fake_card(monkeypatch, 902, fortification=[r("-1", "target", ">=", 0)])
    state = to_main()
    me = state["seats"][0]
    me["years"] = [up, down, up, up, up]
    endeavor(state, "ruling", "saxony")
    assert state["areas"]["saxony"][SS] == 1
    endeavor(state, "fortification", "saxony")
    assert state["areas"]["saxony"][SS] == 0 and state["areas"]["saxony"][FORT] == 0


def test_four_religions_two_churches_EMA_7_2():
    """EMA-7.2: Pagan, Moslem, Christian (RC and EO Churches) and heretical Christian, which is not Christian."""
    assert CHRISTIAN == ("RC", "EO")
    chart = load().tables["conversion"]
    assert {"RC", "EO", "moslem_east", "heretic"} <= set(chart) and any(
        k.startswith("pagan") for k in chart
    )
    assert rel_relation("RC", "heretic") == 2 and rel_relation("RC", "EO") == 1


def test_conquest_and_trade_keep_religion_and_language_EMA_7_23_EMA_7_33():
    """EMA-7.23 EMA-7.33: possession changes never change Religion or Language (Iberian Moslems aside)."""
    c = ctx(new())
    here = c.area("bohemia")
    before = (here[REL], here[LANG])
    transfer(c, "bohemia", 0, "conquest")
    transfer(c, "bohemia", 1, "trade")
    transfer(c, "bohemia", None, "rebellion")
    assert (here[REL], here[LANG]) == before


def test_population_counts_for_pillage_fortification_conquest_only_EMA_7_4(monkeypatch):
    """EMA-7.4 EMA-7.43: Population changes Pillage and Fortification ER and the C results needed, never RV."""
    from rules.ema import conquest, rebellion

    c = ctx(new())
    old_b, old_s = load().areas["brandenburg"]["population"], load().areas["saxony"]["population"]
    values = (
        er.conquest(c, 0, "saxony", "brandenburg"),
        er.pillage(c, 0, "saxony", "brandenburg"),
        er.fortification(c, 0, "saxony"),
        rebellion.rebellion_value(c, "saxony", 2),
    )
    monkeypatch.setitem(load().areas["brandenburg"], "population", 4)
    monkeypatch.setitem(load().areas["saxony"], "population", 4)
    assert er.conquest(c, 0, "saxony", "brandenburg") == values[0]
    assert er.pillage(c, 0, "saxony", "brandenburg") == values[1] + 4 - old_b
    assert er.fortification(c, 0, "saxony") == values[2] + 4 - old_s
    assert rebellion.rebellion_value(c, "saxony", 2) == values[3]
    for _ in range(3):
        conquest.c_result(c, 0, "saxony", "brandenburg")
    assert c.area("brandenburg")[OWNER] != 0
    conquest.c_result(c, 0, "saxony", "brandenburg")
    assert c.area("brandenburg")[OWNER] == 0


def test_reconquered_original_court_may_return_EMA_7_54():
    """EMA-7.54 EMA-7.55: after reconquering the original Court the Player chooses at once to move back."""
    state = to_main()
    c = ctx(state)
    transfer(c, "lorraine", 1, "conquest")
    act(state, {"court": "franconia"})
    assert not any(a.get("do") == "court" for a in actions(state))  # no relocation at will (7.55)
    c = ctx(state)
    transfer(c, "lorraine", 0, "conquest")
    assert prompt(state)["kind"] == "court_return"
    act(state, {"back": True})
    assert state["seats"][0]["court"] == "lorraine"


def test_only_the_stature_in_use_triggers_a_check_EMA_8_21(monkeypatch):
    """EMA-8.21 EMA-8.2: a card listing 3 checks a Combat-3 Conquest, not an Administrative-2 Ruling."""
    card = fake_card(monkeypatch, 903, checks=(3,))
    state = to_main()
    me = state["seats"][0]
    me["st"] = {"c": 3, "a": 2, "d": 3}
    me["years"] = [card] * 5
    endeavor(state, "ruling", "saxony")
    assert me["checks"] == 0
    endeavor(state, "conquest", "burgundy", "lorraine")
    assert me["checks"] == 1


def test_unplayed_cards_check_the_administrative_stature_EMA_8_22_EMA_8_23(monkeypatch):
    """EMA-8.22 EMA-8.23: each unplayed card listing the Administrative Stature calls a check, up to 5."""
    card = fake_card(monkeypatch, 904, checks=(1, 2, 3, 5, 9))
    other = fake_card(monkeypatch, 905, checks=(3, 5, 9))
    c = ctx(new())
    me = c.seat(0)
    me["st"] = {"c": 3, "a": 2, "d": 3}
    me["years"] = [card] * 5
    leaders_before = me["checks"]
    sequence.unplayed(c, 0)
    assert me["checks"] == leaders_before + 5 and me["years"] == []
    c.seat(1)["st"] = {"c": 2, "a": 2, "d": 2}
    c.seat(1)["years"] = [other] * 5
    sequence.unplayed(c, 1)
    assert c.seat(1)["checks"] == 0
    assert not any(
        "check" in str(a) for a in actions(to_main())
    )  # never on the Player's initiative


def test_at_least_one_card_then_at_most_five_EMA_9_12(monkeypatch):
    """EMA-9.1 EMA-9.12: the turn cannot end before a card is played; with no cards, no more Endeavors."""
    blank = fake_card(monkeypatch)
    state = to_main()
    assert {"do": "end"} not in actions(state)
    me = state["seats"][0]
    me["years"] = [blank]
    endeavor(state, "ruling", "saxony")
    assert {"do": "end"} in actions(state)
    assert not any(a.get("do") == "endeavor" for a in actions(state))


def test_only_defense_outside_ones_turn_EMA_9_13(monkeypatch):
    """EMA-9.13 EMA-13.0.GR: the attacked Player is asked only about a Defense during another's turn."""
    blank = fake_card(monkeypatch)
    state = to_main()
    state["seats"][0]["years"] = [blank] * 5
    act(state, {"do": "endeavor", "kind": "conquest"})
    act(state, {"base": "lorraine"})
    act(state, {"target": "champagne"})
    p = prompt(state)
    assert p["seat"] == 1 and p["kind"] == "defend" and len(ENGINE.prompts(state)) == 1


def test_bases_and_domestic_targets_are_own_connected_areas_EMA_9_14_EMA_9_15():
    """EMA-9.14 EMA-9.15: a cut-off own Area is neither a Base nor a Domestic Target."""
    c = ctx(new())
    c.area("kiev")[OWNER] = 0
    assert "kiev" not in targets.domestic_targets(c, 0, "ruling")
    assert "kiev" not in targets.foreign_bases(c, 0, "pillage")
    assert "saxony" in targets.domestic_targets(
        c, 0, "ruling"
    ) and "saxony" in targets.foreign_bases(c, 0, "pillage")
    assert "burgundy" not in targets.domestic_targets(c, 0, "ruling")


def test_no_endeavor_without_the_gold_EMA_9_17():
    """EMA-9.17: with 1 gold no Conquest or Fortification is offered; Pillage and Ruling still are."""
    state = to_main()
    state["seats"][0]["gold"] = 1
    kinds = {a["kind"] for a in actions(state) if a.get("do") == "endeavor"}
    assert "conquest" not in kinds and "fortification" not in kinds
    assert {"pillage", "ruling", "diplomacy"} <= kinds


def test_failed_endeavor_from_an_area_in_unrest_checks_it_EMA_9_19(monkeypatch):
    """EMA-9.19 EMA-17.0.Trig-Failed EMA-17.11: a Base already in Unrest losing SS makes a Rebellion Check."""
    card = fake_card(monkeypatch, 906, conquest=[r("-1", "base", "<=", 99)])
    state = to_main()
    state["seats"][0]["years"] = [card] * 5
    state["areas"]["lorraine"][SS] = 1
    state["areas"]["saxony"][UNREST] = True
    events = endeavor(state, "conquest", "brandenburg", "saxony")
    assert "EMA-9.19" in [e["rule"] for e in events]
    events = endeavor(state, "conquest", "burgundy", "lorraine")
    assert "EMA-9.19" not in [e["rule"] for e in events]


def test_defense_has_no_er_of_its_own_EMA_9_31():
    """EMA-9.31: Defense computes no ER; it lowers the attacker's by the defender's Combat Stature."""
    from rules.ema import endeavors

    c = ctx(new())
    en = {
        "seat": 0,
        "kind": "conquest",
        "base": "lorraine",
        "target": "champagne",
        "seas": 0,
        "gold": 0,
        "defender": None,
        "dgold": 0,
    }
    alone = endeavors.final_er(c, en)
    en["defender"] = 1
    assert endeavors.final_er(c, en) == alone - c.seat(1)["st"]["c"]
    assert leaders.STATURES == ("c", "a", "d")
