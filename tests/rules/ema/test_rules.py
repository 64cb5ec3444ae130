"""Rule units by id: ER, seas, conquest, rebellion, taxation, diplomacy, claims, cards, victory."""

from __future__ import annotations

from rules.core.canonical import clone
from rules.ema import (
    claims,
    conquest,
    diplomacy,
    endeavors,
    er,
    events,
    leaders,
    rebellion,
    religion,
    sequence,
    victory,
)
from rules.ema.components import load
from rules.ema.empire import foreign_cost, halve, halve_up
from rules.ema.state import (
    CLAIMS,
    FORT,
    LANG,
    OWNER,
    PARTIAL,
    REL,
    SS,
    TIES,
    UNREST,
    change_ss,
    lang_relation,
    mask_of,
    rel_relation,
    seats_in,
)
from rules.ema.territory import transfer
from tests.rules.ema.helpers import ENGINE, act, actions, ctx, fill, new, prompt, to_main


def test_ss_floor_and_ceiling_EMA_7_11_EMA_7_12():
    """EMA-7.11 EMA-7.12 EMA-7.14 EMA-2.0.Norm TC-05 TC-06: SS stays in −3..Norm+2, changes by one."""
    c = ctx(new())
    c.area("flanders")[SS] = 4
    assert change_ss(c, "flanders", 1) == 0 and c.area("flanders")[SS] == 4
    c.area("flanders")[SS] = -3
    assert change_ss(c, "flanders", -1) == 0


def test_language_and_religion_relations_EMA_7_31_EMA_7_21():
    """EMA-7.31 EMA-7.32 EMA-7.21 EMA-7.22 EMA-22.11 TC-07: same, related, unrelated; Pagans all differ."""
    assert lang_relation("old_high_german", "old_high_german") == 0
    assert lang_relation("old_high_german", "old_saxon") == 1
    assert lang_relation("old_high_german", "greek") == 2
    assert lang_relation("nonie:hungarian", "nonie:khazar") == 2
    assert rel_relation("RC", "EO") == 1 and rel_relation("RC", "RC") == 0
    assert rel_relation("pagan_norse", "pagan_norse") == 2
    assert rel_relation("RC", "RC", excommunicated=True) == 2


def test_conquest_er_TC_11_EMA_9_35():
    """EMA-9.35 EMA-9.3 EMA-7.15 EMA-7.16 EMA-14.31 EMA-8.11 TC-11: 5+2 − (1+2+1+0) = 3."""
    c = ctx(new())
    me = c.seat(0)
    me["st"]["c"] = 5
    c.area("saxony")[SS] = 2
    fill(c.area("brandenburg"), {"ss": 1, "fort": 2, "lang": "old_high_german", "rel": "RC"})
    me["lang"] = "old_saxon"
    assert er.conquest(c, 0, "saxony", "brandenburg") == 3


def test_pillage_er_TC_16_EMA_7_41():
    """EMA-7.41 EMA-9.34 TC-16a TC-16b: Population added; Pillage is harder on one's own kind."""
    c = ctx(new())
    c.seat(0)["st"]["c"] = 3
    c.area("saxony")[SS] = 0
    target = c.area("brandenburg")
    fill(target, {"ss": 1, "lang": c.seat(0)["lang"], "rel": c.seat(0)["rel"]})
    pop = c.d.areas["brandenburg"]["population"]
    assert er.pillage(c, 0, "saxony", "brandenburg") == 3 + pop - 1 - 4
    fill(target, {"lang": "greek", "rel": "moslem_east"})
    assert er.pillage(c, 0, "saxony", "brandenburg") == 3 + pop - 1


def test_ruling_and_fortification_er_TC_17_TC_18_EMA_7_17():
    """EMA-7.17 EMA-8.12 EMA-7.42 TC-17a TC-17b TC-18a: Ruling −|SS|; Fortification +SS +Pop (A-07)."""
    c = ctx(new())
    c.seat(0)["st"]["a"] = 3
    c.area("franconia")[SS] = 2
    assert er.ruling(c, 0, "franconia") == 1
    c.area("franconia")[SS] = -2
    assert er.ruling(c, 0, "franconia") == 1
    c.area("franconia")[SS] = 1
    assert er.fortification(c, 0, "franconia") == 3 + 1 + c.d.areas["franconia"]["population"]
    c.s["options"]["fortification_ss"] = "minus_abs"
    assert er.fortification(c, 0, "franconia") == 3 - 1 + c.d.areas["franconia"]["population"]


def test_diplomacy_er_against_independent_venice_TC_19_EMA_12_17():
    """EMA-12.17 EMA-8.13 EMA-9.35 TC-19a: Independent Venice opposes 5."""
    c = ctx(new())
    c.seat(0)["st"]["d"] = 5
    c.area("lorraine")[SS] = 3
    c.area("venice")[SS] = 3
    mod = er.modifier(c, 0, "venice", "diplomacy")
    assert er.diplomacy(c, 0, "lorraine", "venice") == 8 - (3 + 5 + mod)
    assert (
        er.target_diplomacy(c, 0, "saxony") == 0 and er.target_diplomacy(c, 0, "ile_de_france") == 2
    )


def test_halving_rounds_up_and_gold_is_not_halved_TC_14_EMA_9_32():
    """EMA-9.32 EMA-9.52 EMA-9.33 TC-14a TC-14b TC-10: ceil(5/2) + 2 = 5."""
    assert halve_up(5) + 2 == 5 and halve_up(4) == 2 and halve_up(1) == 1


def test_negative_er_overseas_by_option_TC_14_EMA_9_32():
    """EMA-9.32 A-12: a negative ER is halved away from zero by default (−1 never becomes 0), or ×1.5 by option."""
    from rules.ema.empire import halve

    state = new()
    assert [halve(state, v) for v in (-3, -2, -1, 5)] == [-2, -1, -1, 3]
    state = new(negative_halving="times_one_and_half")
    assert [halve(state, v) for v in (-3, -2, -1, 5)] == [-5, -3, -2, 3]


def test_sea_costs_and_seafaring_discount_TC_15_EMA_9_54():
    """EMA-9.5 EMA-9.51 EMA-9.53 EMA-9.54 EMA-9.16 TC-15b..d: after a seafaring Area 2 Seas cost +1
    without halving, 3 cost +2 and halve; from an ordinary Area 1 Sea costs +1."""
    c = ctx(new())
    c.area("venice")[OWNER] = 0
    c.area("croatia")[OWNER] = None
    assert foreign_cost(c.s, 0, "venice", "apulia") == 0  # overland
    assert foreign_cost(c.s, 0, "venice", "greece") == 1  # TC-15b: Adriatic–Ionian: +1, no halving
    assert foreign_cost(c.s, 0, "venice", "naples") == 2  # TC-15c: three Seas: +2, halved
    c2 = ctx(new("29-crusades", 2))
    assert foreign_cost(c2.s, 1, "flanders", "wessex") == 1  # TC-15d


def test_two_effective_seas_halve_the_final_er_TC_14_EMA_9_32():
    """EMA-9.32 EMA-9.33 EMA-13.21 TC-14a: with 2 effective Seas the ER less Defense is halved, gold is not."""
    c = ctx(new())
    c.area("venice")[OWNER] = 0
    en = {
        "seat": 0,
        "kind": "conquest",
        "base": "venice",
        "target": "naples",
        "seas": 2,
        "gold": 2,
        "defender": None,
        "dgold": 0,
    }
    c.seat(0)["st"]["c"] = 9
    raw = er.raw(c, 0, "conquest", "venice", "naples")
    assert endeavors.final_er(c, en) == halve_up(raw) + 2
    en["seas"] = 1
    assert endeavors.final_er(c, en) == raw + 2
    en.update({"seas": 2, "defender": 1})
    assert endeavors.final_er(c, en) == halve(c.s, raw - er.defense(c, 1)) + 2


def test_multiple_conquest_and_partial_results_TC_04_EMA_10_3():
    """EMA-10.0.GR EMA-10.3 EMA-10.31 EMA-10.32 EMA-10.2 EMA-17.0.Trig-Conquered TC-04."""
    c = ctx(new())
    c.area("bohemia")[FORT] = 3
    pop = c.d.areas["bohemia"]["population"]
    assert pop == 2
    conquest.c_result(c, 0, "saxony", "bohemia")
    assert c.area("bohemia")[OWNER] is None and c.area("bohemia")[PARTIAL][0]["n"] == 1
    conquest.c_result(c, 0, "franconia", "bohemia")
    here = c.area("bohemia")
    assert here[OWNER] == 0 and here[PARTIAL] == [] and here[UNREST] and here[FORT] == 2


def test_owner_clears_enemy_c_results_and_pays_the_penalty_EMA_10_36():
    """EMA-10.36 EMA-10.37 TC-04c TC-04d: each C from the owner removes one enemy C; losing the Base drops them."""
    c = ctx(new())
    c.area("lombardy")[PARTIAL] = [{"seat": 1, "base": "provence", "n": 2}]
    c.area("provence")[OWNER] = 1
    conquest.c_result(c, 0, "lombardy", "provence")
    assert c.area("lombardy")[PARTIAL][0]["n"] == 1 and c.area("provence")[OWNER] == 1
    transfer(c, "provence", None, "rebellion")
    assert c.area("lombardy")[PARTIAL] == []


def test_enemy_c_results_cost_the_owner_TC_22_EMA_10_33():
    """EMA-10.33 EMA-10.34 EMA-10.35 TC-22: the owner's ER from or in the Area −(enemy C), Diplomacy from a
    partially conquered Court too; he may still tax it; the partial conqueror may not use it."""
    state = to_main()
    c = ctx(state)
    c.area("provence")[OWNER] = 1
    before = {
        "conquest": er.conquest(c, 0, "lombardy", "provence"),
        "ruling": er.ruling(c, 0, "lombardy"),
        "diplomacy": er.diplomacy(c, 0, "lorraine", "burgundy"),
    }
    c.area("lombardy")[PARTIAL] = [{"seat": 1, "base": "provence", "n": 3}]
    c.area("lorraine")[PARTIAL] = [{"seat": 1, "base": "provence", "n": 2}]
    assert er.conquest(c, 0, "lombardy", "provence") == before["conquest"] - 3
    assert er.ruling(c, 0, "lombardy") == before["ruling"] - 3
    assert (
        er.diplomacy(c, 0, "lorraine", "burgundy") == before["diplomacy"] - 2
    )  # the Court is the Base
    act(state, {"do": "tax"})
    assert {"area": "lombardy"} in actions(state)  # 10.34
    from rules.ema import targets

    assert "lombardy" not in targets.foreign_bases(c, 1, "conquest")  # 10.35
    assert "lombardy" not in targets.domestic_targets(c, 1, "ruling")


def test_rebellion_value_formula_TC_25_EMA_17_22():
    """EMA-17.2 EMA-17.21 EMA-17.22 EMA-17.23 EMA-17.24 EMA-12.42 EMA-16.16 EMA-17.12 TC-25b TC-25c."""
    c = ctx(new())
    here = c.area("saxony")
    fill(here, {"lang": "low_frankish", "rel": "EO", "fort": 2, "ties": [0], "unrest": False})
    for n in c.d.land_adj["saxony"]:
        c.area(n)[OWNER] = 0
    assert rebellion.rebellion_value(c, "saxony", 3) == 1
    here[UNREST] = True
    assert rebellion.rebellion_value(c, "saxony", 3) == 6
    here[TIES] = mask_of([0, 1])
    assert rebellion.rebellion_value(c, "saxony", 3) == 8


def test_unrest_and_rebellion_table_TC_26_EMA_17_5():
    """EMA-17.3 EMA-17.4 EMA-17.5 TC-26a..g (rows 11–12 are placeholders, A-24; RV < 1 per A-25)."""
    c = ctx(new())
    t = rebellion.table_result
    assert [t(c, 1, 7), t(c, 1, 2), t(c, 1, 4)] == ["-", "U", "-"]
    assert t(c, 3, 2) == "R" and [t(c, 5, 9), t(c, 5, 6)] == ["U", "-"]
    assert [t(c, 10, 9), t(c, 10, 7)] == ["R", "U"] and t(c, 13, 7) == t(c, 17, 7) == "R"
    assert t(c, 0, 2) == "-"
    c.s["options"]["low_rv"] = "column_one"
    assert t(c, 0, 2) == "U"


def test_rebellion_makes_the_area_independent_TC_27_EMA_17_15():
    """EMA-17.15 EMA-17.1 EMA-17.11 TC-27: Independent, SS kept, Unrest gone, F3 → F2."""
    c = ctx(new())
    fill(c.area("saxony"), {"fort": 3, "unrest": True, "ss": 1})
    rebellion.rebel(c, "saxony")
    assert c.area("saxony")[OWNER] is None and c.area("saxony")[FORT] == 2
    assert not c.area("saxony")[UNREST] and c.area("saxony")[SS] == 1


def test_court_loss_moves_the_court_or_exiles_TC_21c_EMA_7_52():
    """EMA-7.5 EMA-7.52 EMA-7.53 EMA-21.0.GR TC-21c: a new Court of the Leader's kind, else Exile."""
    c = ctx(new())
    transfer(c, "lorraine", 1, "conquest")
    assert c.seat(0)["court"] is None and c.s["stack"][-1]["kind"] == "court_move"
    c2 = ctx(new("28-millenium", 5))
    transfer(c2, "denmark", 0, "conquest")
    assert c2.seat(3)["exile"]


def test_exile_puts_the_remaining_areas_in_unrest_EMA_17_0_Trig_Disconnected():
    """EMA-17.0.Trig-Disconnected EMA-7.51 EMA-7.53 (A-28): an exile has no Court, so his Areas are
    connected to none and enter Unrest at once; a seat still choosing its new Court is not hit."""
    c = ctx(new("28-millenium", 5))
    c.area("northumbria")[UNREST] = False
    transfer(c, "denmark", 0, "conquest")
    assert c.seat(3)["exile"] and c.area("northumbria")[OWNER] == 3
    assert c.area("northumbria")[UNREST]
    assert any(
        e["rule"] == "EMA-17.0.Trig-Disconnected" and "Exile" in e["public"] for e in c.events
    )
    c2 = ctx(new())
    transfer(c2, "lorraine", 1, "conquest")
    assert c2.s["stack"][-1]["kind"] == "court_move"
    assert not any(c2.area(a)[UNREST] for a in ("swabia", "saxony", "bavaria"))


def test_choosing_exile_puts_the_areas_in_unrest_EMA_7_53_A_28():
    """EMA-7.53 EMA-17.0.Trig-Disconnected: going into Exile from the Court prompt unrests every Area."""
    c = ctx(new("28-millenium", 5))
    c.seat(3)["court"] = None
    c.area("northumbria")[UNREST] = False
    c.s["stack"].append({"kind": "court_move", "seat": 3, "why": "lost", "page": None})
    from rules.ema.territory import _move_choose

    _move_choose(c, c.s["stack"][-1], {"court": None})
    assert c.seat(3)["exile"] and c.area("northumbria")[UNREST] and c.area("denmark")[UNREST]


def test_taxation_of_the_court_and_plunder_TC_23_TC_24_EMA_16_17():
    """EMA-16.0.Tax EMA-16.17 EMA-16.1 EMA-16.0.Plunder-P1 EMA-16.0.Plunder-P2 EMA-16.2 TC-23a TC-24a."""
    state = to_main()
    state["areas"]["lorraine"][SS] = 2
    fill(state["areas"]["franconia"], {"ss": 0, "unrest": False})
    before = state["seats"][0]["gold"]
    act(state, {"do": "tax"})
    assert state["seats"][0]["gold"] == before  # nothing is credited before the Court is chosen
    act(state, {"area": "lorraine"})
    assert actions(state) == [{"tax": 2}, {"plunder": True}]  # TC-23a: its SS, no roll — or plunder
    act(state, {"tax": 2})
    assert state["seats"][0]["gold"] == before + 2 and state["areas"]["lorraine"][SS] == 2
    assert {"area": "lorraine"} not in actions(state)  # 16.2: taxed, so it cannot also be plundered
    act(state, {"area": "franconia"})
    assert actions(state) == [{"plunder": True}]  # TC-23c: SS 0 cannot be taxed, only plundered
    act(state, {"plunder": True})
    assert state["areas"]["franconia"][SS] == -1 and state["areas"]["franconia"][UNREST]  # TC-24a
    assert {"area": "franconia"} not in actions(state)  # plundered once, and not taxed as well


def test_a_plundered_court_is_not_also_taxed_EMA_16_2():
    """EMA-16.2 EMA-16.17 A-22: plundering the Court replaces its collection; no Unrest by default."""
    state = to_main()
    fill(state["areas"]["lorraine"], {"ss": 2, "unrest": False})
    act(state, {"do": "tax"})
    act(state, {"area": "lorraine"})
    before = state["seats"][0]["gold"]
    events = act(state, {"plunder": True})
    assert "EMA-16.17" not in [e["rule"] for e in events] and "EMA-16.0.Plunder-P4" in [
        e["rule"] for e in events
    ]
    assert state["areas"]["lorraine"][SS] == 1 and not state["areas"]["lorraine"][UNREST]
    assert 0 <= state["seats"][0]["gold"] - before <= 3 and {"area": "lorraine"} not in actions(
        state
    )


def test_diplomatic_conquest_keeps_forts_and_opens_a_contest_TC_20_EMA_12_31():
    """EMA-12.31 EMA-12.32 EMA-14.42 EMA-12.3 TC-20: the Christian victim may contest first; then no Unrest, forts kept."""
    state = to_main()
    fill(state["areas"]["normandy"], {"owner": 1, "fort": 3, "unrest": False})
    diplomacy.annex(ctx(state), 0, "normandy")
    assert state["stack"][-1]["kind"] == "contest" and state["areas"]["normandy"][OWNER] == 1
    act(state, {"contest": False})
    here = state["areas"]["normandy"]
    assert here[OWNER] == 0 and here[FORT] == 3 and not here[UNREST]


def test_ties_and_automatic_claims_TC_28_EMA_18_0_P2():
    """EMA-12.14 EMA-12.15 EMA-18.0.P2 EMA-18.11 EMA-18.14 TC-28a TC-28b."""
    c = ctx(new())
    c.area("saxony")[CLAIMS] = mask_of([])
    diplomacy.tie(c, 0, "saxony")
    diplomacy.tie(c, 0, "saxony")
    assert list(seats_in(c.area("saxony")[TIES])) == [0] and list(
        seats_in(c.area("saxony")[CLAIMS])
    ) == [0]
    c.area("saxony")[REL] = "moslem_east"
    assert not claims.allowed(c, 0, "saxony")


def _contest_normandy(players=3):
    state = to_main("28-millenium", players)
    state["areas"]["normandy"][OWNER] = 0
    for seat, d in enumerate((3, 5, 2)):
        state["seats"][seat]["st"]["d"] = d
    diplomacy.annex(ctx(state), 1, "normandy")
    act(state, {"contest": True})
    return state


def _ballots(state, influence, votes):
    while prompt(state)["kind"] == "influence":
        act(state, {"cards": influence.get(prompt(state)["seat"], 0)})
    for p in ENGINE.prompts(state):
        ENGINE.apply_trusted(
            state, p["seat"], {"vote": votes[p["seat"]], "influence": influence.get(p["seat"], 0)}
        )


def test_parley_tie_keeps_the_area_for_the_caller_TC_29_EMA_20_41():
    """EMA-20.41 EMA-20.5 EMA-20.4 TC-29a: A (3) and C (2) against B (5): 5–5, A keeps the Area."""
    state = _contest_normandy()
    _ballots(state, {}, {0: "for", 1: "against", 2: "for"})
    assert state["areas"]["normandy"][OWNER] == 0 and prompt(state)["kind"] != "give_up"


def test_influence_wins_the_contest_TC_29b_EMA_20_51():
    """EMA-20.51 EMA-19.2.Influence TC-29b: A plays one Influence card: 3 + 5 against 5 + 2 (C changes side)."""
    state = _contest_normandy()
    inf = next(c for c, v in sorted(load().events.items()) if v["kind"] == "influence")
    state["seats"][0]["hand"] = [inf]
    _ballots(state, {0: 1}, {0: "for", 1: "against", 2: "against"})
    assert state["areas"]["normandy"][OWNER] == 0 and inf in state["event_discard"]
    state = _contest_normandy()
    _ballots(state, {}, {0: "for", 1: "against", 2: "against"})
    assert prompt(state)["kind"] == "give_up" and prompt(state)["seat"] == 0


def test_conversion_differential_TC_30_EMA_22_3():
    """EMA-22.2 EMA-22.3 EMA-22.23 EMA-22.24 TC-30a..d: RC against Germanic Pagan needs 6, Tie halves."""
    c = ctx(new())
    c.area("saxony")[REL] = "pagan_germanic"
    assert religion.differential(c, 0, "saxony") == 6
    c.area("saxony")[TIES] = mask_of([0])
    assert religion.differential(c, 0, "saxony") == 3
    c.area("franconia")[REL] = "moslem_east"
    assert religion.differential(c, 0, "franconia") == 10


def test_group_conversion_TC_31_EMA_22_25():
    """EMA-22.25 EMA-22.28 TC-31: the EO Player converts Serbia; the Independent South Slavonic Areas follow,
    Croatia, held by an RC Player, stays Pagan; only the converted Area scores."""
    c = ctx(new("28-millenium", 6))
    byz = next(i for i, m in enumerate(c.s["seats"]) if m["empire"] == "BYZ")
    for a in ("croatia", "serbia", "bulgaria", "macedonia"):
        fill(c.area(a), {"rel": "pagan_sslav", "owner": None})
    c.area("croatia")[OWNER], c.area("serbia")[OWNER] = 0, byz
    religion.convert(c, byz, "serbia")
    assert [c.area(a)[REL] for a in ("serbia", "bulgaria", "macedonia")] == ["EO"] * 3
    assert c.area("croatia")[REL] == "pagan_sslav" and c.seat(byz)["vp_conv"] == 5
    fill(
        c.area("bulgaria"), {"rel": "pagan_sslav", "owner": byz}
    )  # held by a Player of the same Religion
    c.area("serbia")[REL] = "pagan_sslav"
    religion.convert(c, byz, "serbia")
    assert c.area("bulgaria")[REL] == "EO"


def test_stature_check_exemption_of_charlemagne_TC_39_EMA_27_7():
    """EMA-27.7 EMA-8.0.P EMA-8.2 TC-39: no checks for the Franks before Round 8."""
    c = ctx(new("27-charlemagne", 2))
    leaders.stature_check(c, 0)
    assert c.seat(0)["st"] == {"c": 9, "a": 9, "d": 9}
    c.s["round"] = 8
    leaders.stature_check(c, 0)
    assert c.seat(0)["checks"] == 1


def test_game_turn_starts_TC_40_EMA_6_0():
    """TC-40: Game-Turns begin before x01, x26, x51 and x76."""
    assert [y for y in (1136, 1141, 1146, 1151, 1176) if sequence.gt_start(y)] == [1151, 1176]


def test_victory_points_TC_37_TC_38_EMA_26_0():
    """EMA-26.0 EMA-27.92 EMA-31.9 TC-37a TC-38a TC-38b TC-38c: 3 + SS per connected Area, +3 per Claim,
    handicaps (the Franks −40 with two Players) and bonuses."""
    state = new("28-millenium", 2)
    saxony = state["areas"]["saxony"]
    saxony[OWNER] = None
    without = victory.breakdown(state, 0)["areas"]
    fill(saxony, {"owner": 0, "ss": -2})
    assert victory.breakdown(state, 0)["areas"] == without + 1  # TC-37a
    saxony[SS] = 3
    assert victory.breakdown(state, 0)["areas"] == without + 6
    claims_before = victory.breakdown(state, 0)["claims"]
    fill(state["areas"]["kiev"], {"owner": 0, "claims": [0], "rel": "RC"})  # far from the Court
    parts = victory.breakdown(state, 0)
    assert (
        parts["areas"] == without + 6 and parts["claims"] == claims_before + 3
    )  # the Claim counts
    state = new("31-twilight", 3)
    state["areas"]["constantinople"][OWNER] = 2
    parts = victory.breakdown(state, 2)
    assert parts["handicap"] == 15 and parts["bonus"] == 25 and parts["claims"] == 0
    assert victory.breakdown(new("27-charlemagne", 2), 0)["handicap"] == -40
    assert victory.breakdown(new("27-charlemagne-solo", 1), 0)["handicap"] == 0
    assert victory.solitaire_level(new("27-charlemagne-solo", 1), 111) == "Very Good"


def test_black_death_spreads_from_constantinople_TC_42_EMA_19_1():
    """EMA-19.1.Epidemic EMA-19.1.BD-1 EMA-19.1.BD-3 EMA-19.1.BD-6 A-31 TC-42a TC-42b TC-42c: from the Round
    containing 1200 (1196), once per game; before it, and afterwards, an Epidemic is an Epidemic."""
    c = ctx(new("30-defeat-in-the-east", 2))
    ss = c.area("constantinople")[SS]
    c.s["year"] = 1191
    events.epidemic(c, 0, {})
    assert not c.s["black_death"] and c.area("constantinople")[SS] == ss  # TC-42a
    c.s["year"] = 1196
    events.epidemic(c, 0, {})
    assert c.s["black_death"] and c.area("constantinople")[SS] == ss - 2  # TC-42b
    hit = c.area("constantinople")[SS]
    events.epidemic(c, 0, {})
    assert c.area("constantinople")[SS] == hit and "EMA-19.1.Epidemic" in [
        e["rule"] for e in c.events
    ]
    late = ctx(new("30-defeat-in-the-east", 2, black_death_year=1205))
    late.s["year"] = 1196
    events.epidemic(late, 0, {})
    assert not late.s["black_death"]


def test_heirless_language_variant_TC_41_EMA_19_1(monkeypatch):
    """EMA-19.1.Heirless EMA-17.0.Trig-Heirless EMA-22.13 TC-41: Ties lost, foreign-Language Areas put in Unrest,
    every Area in Unrest checked (here a "−" lifts the Unrest), the Court's Language untouched."""
    c = ctx(new())
    c.area("normandy")[TIES] = mask_of([0])
    c.seat(0)["excom"] = True
    for here in c.s["areas"].values():
        here[UNREST] = False
    c.area("swabia")[UNREST] = True
    checked = []

    def fake_check(ctx, aid, gold, rule):
        checked.append(aid)
        return "U" if aid == "saxony" else "-"

    monkeypatch.setattr(events.rebellion, "check", fake_check)
    events.heirless(c, 0, {"variant": "language"})
    assert (
        list(seats_in(c.area("normandy")[TIES])) == []
        and not c.seat(0)["excom"]
        and c.seat(0)["heirless_guard"]
    )
    foreign = [
        a for a in c.s["areas"] if c.area(a)[OWNER] == 0 and c.area(a)[LANG] != c.seat(0)["lang"]
    ]
    assert "saxony" in foreign and set(foreign) | {"swabia"} == set(checked)
    assert (
        c.area("saxony")[UNREST] and not c.area("swabia")[UNREST]
    )  # U stays; "−" removes it (19.1 (e))
    assert "lorraine" not in checked and not c.area("lorraine")[UNREST]


def test_heirless_all_variant_and_charlemagne_TC_41b_TC_39b_EMA_19_1(monkeypatch):
    """EMA-19.1.Heirless EMA-27.7 TC-41b TC-39b: the "all" card puts the Court in Unrest and checks it;
    drawn by Charlemagne before 806 it is ignored entirely."""
    c = ctx(new())
    checked = []
    monkeypatch.setattr(
        events.rebellion, "check", lambda ctx, aid, gold, rule: checked.append(aid) or "U"
    )
    events.heirless(c, 0, {"variant": "all"})
    assert "lorraine" in checked and c.area("lorraine")[UNREST]
    c = ctx(new("27-charlemagne", 2))
    c.area("saxony")[TIES] = mask_of([0])
    before = clone(c.s)
    events.heirless(c, 0, {"variant": "all"})
    assert (
        c.s["areas"] == before["areas"]
        and c.s["seats"] == before["seats"]
        and c.s["stack"] == before["stack"]
    )
    assert [e["rule"] for e in c.events] == ["EMA-27.7"]


def test_defense_er_and_negative_results_TC_12_TC_13_EMA_13_21():
    """EMA-13.21 EMA-13.22 EMA-9.18 TC-12 TC-13: Defense subtracts Combat; below 0 only the Base −1."""
    c = ctx(new())
    c.seat(1)["st"]["c"] = 5
    assert er.defense(c, 1) == 5
    card = c.d.year_cards[57]
    assert [r["col"] for r in endeavors.applying(card, "conquest", -3)] == ["base"]
