"""Raiders and Magnates (24.0, optional) and the reference's worked cases TC-33 to TC-35."""

from __future__ import annotations

from rules.core import rng
from rules.ema import endeavors, magnates, nonplayer, raiders
from rules.ema.optional_data import tables
from rules.ema.state import FORT, LANG, OWNER, REL, SS, UNREST, norm
from tests.rules.ema.helpers import (
    ENGINE,
    act,
    actions,
    ctx,
    fake_card,
    fill,
    new,
    prompt,
    r,
    rules_of,
)


def _dice(monkeypatch, *faces):
    """Make the next dice come up as given."""
    queue = list(faces)
    monkeypatch.setattr(rng, "die", lambda state: queue.pop(0))


def test_tc35_schedules_EMA_24_4():
    """EMA-24.4 EMA-24.0.GR TC-35a TC-35b TC-35c: who raids in which Game-Turn, and how strong."""
    assert raiders.scheduled(776) == {"saracens": 3}
    assert raiders.scheduled(801) == {"vikings": 3, "saracens": 3}
    assert raiders.scheduled(926) == {"vikings": 9, "magyars": 5, "saracens": 9}
    assert raiders.scheduled(1001) == {"saracens": 5}
    assert raiders.scheduled(1076) == {"saracens": 3}
    assert raiders.scheduled(1101) == {} and raiders.scheduled(771) == {}
    assert raiders.scheduled(990) == raiders.scheduled(976)  # a Round inside the 976 Game-Turn


def test_tc35e_vikings_raid_from_norway_when_denmark_is_a_players_EMA_24_11_EMA_24_14():
    """EMA-24.11 EMA-24.14 EMA-24.1 TC-35e: the free home with the higher SS is the Base; a home a
    Player holds is not; with both held the Vikings cannot raid."""
    c = ctx(new("28-millenium", 6, raiders_magnates=True))
    assert c.area("denmark")[OWNER] is not None
    assert raiders.base_of(c, "vikings") == "norway"
    c.area("denmark")[OWNER] = None
    c.area("denmark")[SS], c.area("norway")[SS] = 2, 0
    assert raiders.base_of(c, "vikings") == "denmark"
    c.area("denmark")[OWNER] = c.area("norway")[OWNER] = 0
    assert raiders.base_of(c, "vikings") is None


def test_targets_by_sea_and_by_land_EMA_24_12_EMA_24_22_EMA_24_32():
    """EMA-24.12 EMA-24.22 EMA-24.32 EMA-24.2 EMA-24.21 EMA-24.3 A-48: Vikings on the four northern
    seas, Magyars two land steps from Hungary, Saracens on the Western Mediterranean and Tyrrhenian."""
    c = ctx(new("27-charlemagne", 2, raiders_magnates=True))
    vik = raiders.targets(c, "vikings")
    assert "normandy" in vik and "norway" not in vik and "denmark" not in vik
    assert "rome" not in vik
    mag = raiders.targets(c, "magyars")
    near = set(c.d.land_adj["hungary"])
    assert near <= set(mag) and "hungary" not in mag
    assert all(a in near or set(c.d.land_adj[a]) & near for a in mag)
    sar = raiders.targets(c, "saracens")
    assert set(sar) == {a for s in raiders.SARACEN_SEAS for a in c.d.sea_lands[s]}
    assert raiders.base_of(c, "magyars") == "hungary"


def test_saracens_base_ss_zero_moslem_EMA_24_31():
    """EMA-24.31: no Base, Base SS 0, Moslem and of an unrelated Language."""
    c = ctx(new("27-charlemagne", 2, raiders_magnates=True))
    who = raiders.actor(c, "saracens", 3)
    assert who["base"] is None and who["base_ss"] == 0 and who["rel"] == "moslem_east"
    target = "provence"
    here = c.area(target)
    expected = 3 + c.d.areas[target]["population"] - (here[SS] + here[FORT])
    assert nonplayer.rating(c, who, "pillage", target) == expected - nonplayer.modifier(
        c, who, target, "pillage"
    )


def test_saracen_die_five_or_six_means_no_raid_EMA_24_33(monkeypatch):
    """EMA-24.33 TC-35d: each Round a 5 or 6 keeps the Saracens home."""
    c = ctx(new("27-charlemagne", 2, raiders_magnates=True))
    c.s["year"] = 776
    _dice(monkeypatch, 5)
    assert raiders._active_raiders(c) == []
    _dice(monkeypatch, 4)
    assert raiders._active_raiders(c) == [("saracens", 3)]
    assert "EMA-24.33" in rules_of(c.events) and "EMA-24.4" in rules_of(c.events)


def test_vikings_and_magyars_stop_for_good_on_conversion_EMA_24_14_EMA_24_23():
    """EMA-24.14 EMA-24.23: a Norse Pagan Area turned Christian ends the Vikings; a Christian
    Hungary ends the Magyars; a Player holding Hungary only pauses them."""
    c = ctx(new("27-charlemagne", 2, raiders_magnates=True))
    raiders.remember_pagans(c)
    assert "sweden" in c.s["norse_pagan"] and c.s["magyar_pagan"] == ["hungary"]
    c.area("hungary")[OWNER] = 0
    assert raiders.base_of(c, "magyars") is None and not raiders._stopped(c, "magyars")
    c.area("sweden")[REL] = "RC"
    c.area("hungary")[REL] = "RC"
    assert raiders._stopped(c, "vikings") and raiders._stopped(c, "magyars")
    c.area("sweden")[REL] = "pagan_norse"
    assert raiders._stopped(c, "vikings")  # for good


def test_best_target_then_next_best_when_er_below_zero_EMA_24_0_P_Raid(monkeypatch):
    """EMA-24.0.P-Raid A-48: the Target of highest SS + Population whose ER is at least 0."""
    c = ctx(new("27-charlemagne", 2, raiders_magnates=True))
    who = raiders.actor(c, "saracens", 3)
    found = raiders.targets(c, "saracens")
    _dice(monkeypatch, *([1] * len(found)))
    kind, aid = raiders.choose_target(c, who, "saracens")
    assert kind == "pillage" and nonplayer.rating(c, who, "pillage", aid) >= 0
    better = [a for a in found if raiders.value(c, a) > raiders.value(c, aid)]
    assert all(nonplayer.rating(c, who, "pillage", a) < 0 for a in better)


def test_vikings_conquer_when_no_target_is_worth_anything_EMA_24_13(monkeypatch):
    """EMA-24.13 A-48: every Target at SS + Population ≤ 0 makes the Vikings conquer; the Area
    becomes theirs (Independent, no Player's) and its neighbours become Targets."""
    c = ctx(new("27-charlemagne", 2, raiders_magnates=True))
    for aid in raiders.targets(c, "vikings"):
        c.area(aid)[SS] = -3
    for aid in ("northumbria", "norway"):
        fill(c.area(aid), ss=3 if aid == "norway" else -3, fort=0, owner=None)
    who = raiders.actor(c, "vikings", 9)
    _dice(monkeypatch, *([1] * 80))
    kind, aid = raiders.choose_target(c, who, "vikings")
    assert kind == "conquest"
    number = fake_card(monkeypatch, conquest=[r("C")])
    pending = {"kind": "conquest", "target": aid, "defender": None}
    for _ in range(max(1, c.d.areas[aid]["population"])):
        nonplayer.resolve(c, who, pending, number, "EMA-24.13")
    assert c.s["npc_areas"][aid] == "vikings" and c.area(aid)[OWNER] is None
    assert aid not in raiders.targets(c, "vikings")
    assert set(c.d.land_adj[aid]) - {"norway", "denmark"} <= set(raiders.targets(c, "vikings"))


def test_raiders_never_take_gold_and_a_player_may_defend_EMA_24_0_P_Raid(monkeypatch):
    """EMA-24.0.P-Raid EMA-24.0.GR A-47: in the Raider Phase the owner of the Target is asked to
    Defend; the card played is the Raider's from the deck left after the deal; G results give
    nothing; the played cards go back at the end of the Round."""
    state = new("27-charlemagne", 2, raiders_magnates=True)
    c = ctx(state)
    number = fake_card(monkeypatch, pillage=[r("G"), r("-1", "target")])
    state["year_deck"].insert(0, number)
    for aid in raiders.targets(c, "saracens"):
        c.area(aid)[SS] = -3
    c.area("provence")[SS] = 2
    c.seat(0)["gold"] = 20
    frame = {"kind": "raiders", "queue": [("saracens", 9)], "cards": 5, "started": True}
    state["stack"].append(frame)
    gold = [me["gold"] for me in state["seats"]]
    who = raiders.actor(c, "saracens", 9)
    assert raiders.choose_target(c, who, "saracens")[1] == "provence"
    state["stack"].pop()
    state["stack"].append(frame)
    from rules.ema.handlers import MACHINE

    MACHINE.advance(c)
    assert prompt(state)["kind"] == "npc_defend" and prompt(state)["seat"] == 0
    act(state, {"defend": False})
    assert state["areas"]["provence"][SS] == 1
    assert [me["gold"] for me in state["seats"]] == gold
    assert number in state["npc_played"]


def test_tc33_matrix_areas_EMA_24_92_EMA_24_0_P_Mag2(monkeypatch):
    """EMA-24.92 EMA-24.0.P-Mag2 EMA-24.91 EMA-24.9 TC-33a TC-33b: first die the column, second the row."""
    c = ctx(new("28-millenium", 2, raiders_magnates=True))
    _dice(monkeypatch, 1, 4, 2)
    assert magnates.appearance(c, 1001) == ("venice", 5, "normal")
    for first, second, area in ((6, 6, "the_steppes"), (3, 5, "hungary"), (1, 6, "apulia")):
        _dice(monkeypatch, 2, first, second)
        assert magnates.appearance(c, 1001) == (area, 5, "normal")
    assert tables()["magnate_appearance"][4:] == ["none", "none"]


def test_tc34_syrian_and_mongol_magnates_EMA_24_7_EMA_24_8_EMA_24_93(monkeypatch):
    """EMA-24.7 EMA-24.8 EMA-24.93 TC-34a TC-34b TC-34c A-50: a 3 before 1001 is nothing, after
    it the Syrian table; a 4 brings the Mongols in the 1201-1276 Game-Turns only."""
    c = ctx(new("28-millenium", 2, raiders_magnates=True))
    _dice(monkeypatch, 3)
    assert magnates.appearance(c, 976) is None
    for second, found in ((4, ("syria", 9, "syrian")), (2, ("syria", 5, "syrian")), (6, None)):
        _dice(monkeypatch, 3, second)
        assert magnates.appearance(c, 1001) == found
    _dice(monkeypatch, 4)
    assert magnates.appearance(c, 1226) == ("the_steppes", 9, "mongol")
    for year in (1176, 1301):
        _dice(monkeypatch, 4)
        assert magnates.appearance(c, year) is None


def test_tc33c_where_a_magnate_may_appear_EMA_24_0_P_Mag3_EMA_24_6():
    """EMA-24.0.P-Mag3 EMA-24.6 TC-33c A-62: Independent or a Player's in Unrest; not a Player's
    Area at peace nor a Magnate's; Syrians and Mongols whatever the status, but not on a Magnate."""
    c = ctx(new("28-millenium", 2, raiders_magnates=True))
    mine = next(a for a, h in c.s["areas"].items() if h[OWNER] == 0 and not h[UNREST])
    free = next(a for a, h in c.s["areas"].items() if h[OWNER] is None)
    assert not magnates.may_appear(c, mine, "normal")
    assert magnates.may_appear(c, mine, "syrian")
    c.area(mine)[UNREST] = True
    assert magnates.may_appear(c, mine, "normal")
    assert magnates.may_appear(c, free, "normal")
    magnates.appear(c, free, 5, "normal")
    assert not magnates.may_appear(c, free, "normal") and not magnates.may_appear(c, free, "mongol")


def test_tc33d_appearance_raises_ss_to_norm_EMA_24_0_P_Mag4_EMA_24_5():
    """EMA-24.0.P-Mag4 EMA-24.5 TC-33d: SS up to its Norm, a Magnate marker, his Court; the Area's
    Religion and Language are his; an Area taken from a Player leaves him."""
    c = ctx(new("28-millenium", 2, raiders_magnates=True))
    aid = "venice"
    c.area(aid)[SS] = norm(aid) - 2
    mag = magnates.appear(c, aid, 5, "normal")
    assert c.area(aid)[SS] == norm(aid) and c.s["npc_areas"][aid] == mag["key"]
    assert (mag["lang"], mag["rel"], mag["court"]) == (c.area(aid)[LANG], c.area(aid)[REL], aid)
    assert ENGINE.view(c.s, None)["magnates"][0]["court"] == aid


def test_tc33e_three_magnates_no_roll_EMA_24_0_P_Mag1(monkeypatch):
    """EMA-24.0.P-Mag1 TC-33e: with three Magnates on the map nobody rolls."""
    c = ctx(new("28-millenium", 2, raiders_magnates=True))
    for aid in ("venice", "naples", "sicily"):
        c.area(aid)[OWNER] = None
        magnates.appear(c, aid, 5, "normal")
    _dice(monkeypatch)  # any die rolled would fail: the queue is empty
    magnates._roll_for_one(c)
    assert "EMA-24.0.P-Mag1" in rules_of(c.events) and len(c.s["magnates"]) == 3


def test_magnate_targets_highest_ss_and_pillages_when_conquest_fails_EMA_24_51_EMA_24_52(
    monkeypatch,
):
    """EMA-24.51 EMA-24.52 A-49: the highest-SS neighbour; Pillage when Conquest's ER is below 0."""
    c = ctx(new("27-charlemagne", 2, raiders_magnates=True))
    mag = magnates.appear(c, "hungary", 5, "normal")
    near = list(c.d.land_adj["hungary"])
    for aid in near:
        fill(c.area(aid), ss=-3, fort=0)
    best = near[0]
    c.area(best)[SS] = 1
    _dice(monkeypatch, *([1] * 20))
    kind, target, who = magnates.choose(c, mag)
    assert target == best
    assert kind == ("conquest" if nonplayer.rating(c, who, "conquest", best) >= 0 else "pillage")
    c.area(best)[FORT] = 3
    c.area("hungary")[SS] = -3
    monkeypatch.setitem(c.d.areas[best], "population", 9)
    assert (
        nonplayer.rating(c, who, "conquest", best) < 0 <= nonplayer.rating(c, who, "pillage", best)
    )
    _dice(monkeypatch, *([1] * 20))
    assert magnates.choose(c, mag)[:2] == ("pillage", best)


def test_conquered_areas_join_and_the_next_target_is_next_to_any_EMA_24_51(monkeypatch):
    """EMA-24.51: a conquered Area is the Magnate's; the next Target may be next to it."""
    c = ctx(new("27-charlemagne", 2, raiders_magnates=True))
    mag = magnates.appear(c, "hungary", 9, "normal")
    number = fake_card(monkeypatch, conquest=[r("C")])
    target = next(a for a in c.d.land_adj["hungary"] if c.area(a)[OWNER] is None)
    who = magnates.actor(c, mag, "hungary")
    for _ in range(max(1, c.d.areas[target]["population"])):
        nonplayer.resolve(
            c, who, {"kind": "conquest", "target": target, "defender": None}, number, "EMA-24.53"
        )
    assert magnates.areas_of(c, mag["key"]) == sorted(["hungary", target])
    assert c.area(target)[UNREST] is False
    beyond = set(c.d.land_adj[target]) - {"hungary"}
    _dice(monkeypatch, *([1] * 40))
    found = magnates.choose(c, mag)
    reachable = (set(c.d.land_adj["hungary"]) | beyond) - {"hungary", target}
    assert found is None or found[1] in reachable


def test_magnate_defense_card_and_removal_on_a_five_EMA_24_53_EMA_24_54(monkeypatch):
    """EMA-24.53 EMA-24.54 TC-34d: the held card lowers the first attack on his Areas by his
    Stature; a played card listing a check for 5 removes him, his Areas Independent again."""
    c = ctx(new("27-charlemagne", 2, raiders_magnates=True))
    mag = magnates.appear(c, "hungary", 9, "normal")
    plain = fake_card(monkeypatch, number=901)
    fatal = fake_card(monkeypatch, number=902, checks=(5,))
    mag["defense_card"] = plain
    en = {"kind": "conquest", "target": "hungary"}
    assert magnates.defend(c, en) == 9 and mag["defense_card"] is None
    assert magnates.defend(c, en) == 0  # only the first attack
    mag["defense_card"] = fatal
    assert magnates.defend(c, en) == 9
    assert c.s["magnates"] == [] and "hungary" not in c.s["npc_areas"]
    assert "EMA-24.54" in rules_of(c.events)


def test_a_players_conquest_meets_the_magnates_defense_EMA_24_53(monkeypatch):
    """EMA-24.53: announcing a Conquest of a Magnate's Area plays his held card at once."""
    state = new("27-charlemagne", 2, raiders_magnates=True)
    c = ctx(state)
    mag = magnates.appear(c, "saxony", 5, "normal")
    mag["defense_card"] = fake_card(monkeypatch, number=903)
    state["event_deck"], state["event_discard"] = [], []
    while prompt(state)["kind"] != "main":
        act(state, actions(state)[0])
    assert prompt(state)["seat"] == 0  # the Franks, who border Saxony, play first here
    act(state, {"do": "endeavor", "kind": "conquest"})
    base = next(
        a["base"] for a in actions(state) if "base" in a and "saxony" in c.d.land_adj[a["base"]]
    )
    act(state, {"base": base})
    events = act(state, {"target": "saxony"})
    assert "EMA-24.53" in rules_of(events)
    assert state["endeavor"]["npc_defense"] == 5
    assert (
        endeavors.final_er(c, state["endeavor"])
        == endeavors.er_before_defense(c, state["endeavor"]) - 5
    )


def test_mongols_play_ten_cards_and_ignore_religion_EMA_24_8():
    """EMA-24.8 EMA-24.7: the Mongols attack ten times with no card kept; Mongol and Syrian ER
    take no Religion or Language modifier."""
    c = ctx(new("29-crusades", 2, raiders_magnates=True))
    mag = magnates.appear(c, "the_steppes", 9, "mongol")
    who = magnates.actor(c, mag, "the_steppes")
    assert magnates.ATTACKS["mongol"] == 10 and who["mods"] is False
    assert nonplayer.modifier(c, who, "kiev", "conquest") == 0


def test_option_off_no_raiders_no_magnates_EMA_24_0_GR():
    """EMA-24.0.GR: optional; without it no Raider or Magnate phase runs."""
    state = new("27-charlemagne", 2)
    assert "magnates" not in ENGINE.view(state, None) and "npc_areas" not in state


def test_a_magnates_held_card_is_hidden_from_views_and_redealt_EMA_24_53():
    """EMA-24.53: the Magnate's held Defense card is face down: views say only that he has one,
    and a determinized state deals it again from the unseen cards."""
    state = new("27-charlemagne", 2, raiders_magnates=True)
    c = ctx(state)
    mag = magnates.appear(c, "hungary", 5, "normal")
    mag["defense_card"] = state["year_deck"].pop(0)
    assert ENGINE.view(state, 0)["magnates"][0]["defense_card"] is True
    seen = {ENGINE.determinize(state, 0, seed)["magnates"][0]["defense_card"] for seed in range(8)}
    assert len(seen) > 1
    ENGINE.check_invariants(ENGINE.determinize(state, 0, 1))


def test_an_exile_rises_where_a_magnate_of_his_language_and_religion_would_appear_EMA_21_3(
    monkeypatch,
):
    """EMA-21.3 A-40 (the reference's reading of (d)): a Magnate about to appear in an Area of
    exactly an exile's Language and Religion does not; the exile takes the Area, its SS up to its
    Norm, and returns with his Court there. Before, no Magnate ever brought an exile back, and a
    Grand Scenario (32-grand, 6 Players, seed 6) ended with all six Players in Exile and 0 VP."""
    c = ctx(new("28-millenium", 2, raiders_magnates=True))
    aid = next(a for a, h in c.s["areas"].items() if h[OWNER] is None and norm(a) > -3)
    here = c.area(aid)
    here[SS] = norm(aid) - 1
    me = c.seat(1)
    me.update(exile=True, court=None, lang=here[LANG], rel=here[REL])
    monkeypatch.setattr(magnates, "appearance", lambda ctx, year: (aid, 5, "normal"))
    magnates._roll_for_one(c)
    assert here[OWNER] == 1 and here[SS] == norm(aid) and not here[UNREST]
    assert me["court"] == aid and not me["exile"]
    assert c.s.get("magnates", []) == [] and aid not in c.s.get("npc_areas", {})
    assert "EMA-21.3" in rules_of(c.events)
    # Another Language: the Magnate appears as before and the exile waits.
    other = next(a for a, h in c.s["areas"].items() if h[OWNER] is None and h[LANG] != here[LANG])
    me.update(exile=True, court=None)
    monkeypatch.setattr(magnates, "appearance", lambda ctx, year: (other, 5, "normal"))
    magnates._roll_for_one(c)
    assert c.s["npc_areas"][other] and me["exile"] and c.area(other)[OWNER] is None
