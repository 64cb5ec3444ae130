"""The Lordlings' turn, cards, reactions and Pass (HRE-M01-LORDLING-*, HRE-M01-UPG, HRE-M01-GEN)."""

from __future__ import annotations

from rules.hre import ENGINE, flow
from rules.hre.components import load
from rules.hre.modules import m01_lordlings as m
from rules.hre.state import UNITS, Ctx
from tests.rules.hre.helpers import units
from tests.rules.hre.modules.solo import card_of, lordling_homes, quiet, solo


def _slot(state: dict, action: str) -> dict:
    return next(s for s in state["slots"] if s["action"] == action)


def test_HRE_M01_UPG_01_02_the_d20_picks_the_type_and_levels_are_separate(d20: list[int]) -> None:
    """HRE-M01-UPG-01, HRE-M01-UPG-02 (AMB-46, TC-33): 1-8 Infantry, 9-15 Cavalry, 16-20 Archer; Lordling and
    Raider levels apart; a roll on a type at level 4 is rolled again."""
    state = quiet(solo())
    ctx = Ctx(state)
    d20.extend([8, 9, 16])
    for _ in range(3):
        m.upgrade(ctx, "Lordling")
    assert m._levels(state, "Lordling") == dict.fromkeys(UNITS, 2)
    assert m._levels(state, "Raider") == dict.fromkeys(UNITS, 1)
    state["seats"][1]["levels"]["infantry"] = {
        "level": 4,
        "stats": m.solo_data()["lordling_units"]["infantry"][3],
    }
    d20.extend([3, 12])  # infantry is at 4: rolled again, cavalry
    m.upgrade(ctx, "Lordling")
    assert m._levels(state, "Lordling")["cavalry"] == 3
    assert (
        state["seats"][1]["levels"]["cavalry"]["stats"]
        == m.solo_data()["lordling_units"]["cavalry"][2]
    )


def test_HRE_M01_UPG_03_Barbarians_keep_the_top_row_and_Raiders_use_their_level() -> None:
    """HRE-M01-UPG-03 / HRE-M01-RAIDER-15: Barbarian units use the level-1 row always; Raider
    units in a battle carry their current level's values."""
    state = quiet(solo())
    state["m01"]["raider_levels"]["archer"] = 3
    unit = m.raider_unit(state, "archer")
    assert unit["lv"] == 3 and unit["tr"] and unit["own"] is None
    assert unit["st"] == m.solo_data()["raider_units"]["archer"][2]
    from rules.hre import battle

    barb = battle._unit("archer", True, None)
    assert battle.stats(Ctx(state), barb) == load().barbarian_units["archer"]
    assert battle.stats(Ctx(state), unit) == m.solo_data()["raider_units"]["archer"][2]


def test_HRE_M01_LORDLING_TURN_01_02_no_disc_means_a_Pass_else_a_card_to_the_discard() -> None:
    """HRE-M01-LORDLING-TURN-01, HRE-M01-LORDLING-TURN-02: with 0 discs they Pass; otherwise the top card is drawn,
    resolved and laid face up on their discard pile."""
    state = quiet(solo())
    ctx = Ctx(state)
    state["seats"][1]["discs"] = 0
    state["seats"][1]["exhausted"] = 6
    state["stack"] = []
    state["stack"].append({"kind": "m01_turn", "seat": 1})
    m._lordling_turn(ctx, state["stack"][-1])
    assert state["stack"][-1]["kind"] == "m01_pass"
    state = quiet(solo())
    ctx = Ctx(state)
    deck = state["m01"]["deck"]
    deck.remove(card_of("research"))
    deck.append(card_of("research"))
    state["stack"].append({"kind": "m01_turn", "seat": 1})
    m._lordling_turn(ctx, state["stack"][-1])
    assert state["m01"]["discard"] == [card_of("research")] and len(deck) == 8
    assert state["m01"]["prep"]["research"]


def test_HRE_M01_LORDLING_RESEARCH_01_02_Preparation_then_the_d20(d20: list[int]) -> None:
    """HRE-M01-LORDLING-RESEARCH-01, HRE-M01-LORDLING-RESEARCH-02 and HRE-M01-LORDLING-TURN-04: first a Preparation token
    (no disc), then the token goes back, a disc is placed and the d20 decides."""
    state = quiet(solo())
    ctx = Ctx(state)
    m._research(ctx, None)
    assert state["m01"]["prep"]["research"] and _slot(state, "research")["stack"] == []
    d20.append(3)
    m._research(ctx, None)
    assert not state["m01"]["prep"]["research"] and _slot(state, "research")["stack"] == [1]
    assert state["seats"][1]["culture"] == 3
    state["m01"]["prep"]["research"] = True
    state["m01"]["techs"] = ["C999", "C998"]
    d20.append(13)
    vp = state["seats"][1]["vp"]
    m._research(ctx, None)
    assert state["seats"][1]["vp"] == vp + 2 + 2
    state["m01"]["techs"] = []
    state["m01"]["prep"]["research"] = True
    d20.extend([12, 1])  # an upgrade, the type rolled: infantry
    m._research(ctx, None)
    assert m._levels(state, "Lordling")["infantry"] == 2


def test_HRE_M01_LORDLING_TURN_04_Preparation_tokens_never_trigger_a_reaction() -> None:
    """HRE-M01-LORDLING-TURN-04: tokens sit beside the card; only discs count to 3."""
    state = quiet(solo())
    ctx = Ctx(state)
    _slot(state, "research")["stack"] = [0, 0]
    m._research(ctx, None)  # a token only
    assert len(_slot(state, "research")["stack"]) == 2
    assert not flow._push_reaction(ctx)


def test_HRE_M01_LORDLING_RECRUIT_01_02_03_the_scarcest_type_closest_to_you(d20: list[int]) -> None:
    """HRE-M01-LORDLING-RECRUIT-01, HRE-M01-LORDLING-RECRUIT-02, HRE-M01-LORDLING-RECRUIT-03 (AMB-48): the type they have fewest of (ties: higher
    level, then Infantry, Archer, Cavalry), in their province closest to you; 16+ upgrades it."""
    state = quiet(solo(ruler="arnulf"))
    ctx = Ctx(state)
    homes = lordling_homes(state)
    dist = m.human_distance(state)
    nearest = min(homes, key=lambda p: (dist[p], p))
    d20.append(5)
    m._recruit(ctx, None)
    assert _slot(state, "recruit")["stack"] == [1]
    placed = [p for p in homes if state["prov"][p]["units"]["infantry"]]
    assert placed and dist[placed[0]] == dist[nearest]
    d20.append(16)
    m.recruit_unit(ctx, "HRE-M01-LORDLING-RECRUIT-01")  # archer next: 0 archers, 0 cavalry
    assert sum(state["prov"][p]["units"]["archer"] for p in homes) == 1
    assert m._levels(state, "Lordling")["archer"] == 2  # 16+: the recruited type upgrades
    d20.append(1)
    m.recruit_unit(ctx, "HRE-M01-LORDLING-RECRUIT-01")
    assert sum(state["prov"][p]["units"]["cavalry"] for p in homes) == 1


def test_HRE_M01_GEN_08_closest_counts_Manoeuvre_steps_from_your_provinces() -> None:
    """HRE-M01-GEN-08: breadth-first distance from every province you control."""
    state = quiet(solo(ruler="arnulf"))
    dist = m.human_distance(state)
    assert dist["bavaria"] == 0
    from rules.hre.state import neighbours

    for q in neighbours(state, "bavaria"):
        assert dist[q] == 1


def test_HRE_M01_LORDLING_MANOEUVRE_01_02_a_token_becomes_a_Lordling_Infantry() -> None:
    """HRE-M01-LORDLING-MANOEUVRE-01, HRE-M01-LORDLING-MANOEUVRE-02 and HRE-M01-GEN-10 (AMB-49, AMB-41): a token next to
    them is removed to the pool and an Infantry put there, no battle; never your province."""
    state = solo(ruler="arnulf")
    quiet(state)
    home = lordling_homes(state)[0]
    from rules.hre.state import neighbours

    target = sorted(neighbours(state, home))[0]
    if state["prov"][target]["owner"] is None:
        state["prov"][target]["barb"] = {"token": state["box_tokens"].pop(), "face": "units"}
    ctx = Ctx(state)
    m._manoeuvre(ctx, None)
    assert state["m01"]["prep"]["manoeuvre"] and not _slot(state, "manoeuvre")["stack"]
    pool = len(state["box_tokens"])
    before = {p for p, h in state["prov"].items() if h["owner"] == 0}
    m._manoeuvre(ctx, None)
    assert _slot(state, "manoeuvre")["stack"] == [1]
    taken = [p for p, h in state["prov"].items() if h["owner"] == 1 and h["units"]["infantry"] == 1]
    assert len(taken) == 1 and state["prov"][taken[0]]["barb"] is None
    assert len(state["box_tokens"]) == pool + 1
    assert {p for p, h in state["prov"].items() if h["owner"] == 0} == before


def _offer(state: dict, cards: list[str]) -> None:
    state["deck"] = [c for c in state["deck"] if c not in cards] + state["offer"]
    state["offer"] = list(cards)


def _card(kind: str, state: dict, skip: tuple[str, ...] = ()) -> str:
    return next(
        c
        for c, spec in sorted(load().cards.items())
        if spec["type"] == kind
        and spec["module"] in (None, "M01")
        and spec["starting"] is None
        and c not in skip
        and c not in state["seats"][0]["hand"]
    )


def test_HRE_M01_LORDLING_DEV_01_02_the_rightmost_card_they_reach(d20: list[int]) -> None:
    """HRE-M01-LORDLING-DEV-01, HRE-M01-LORDLING-DEV-02: a disc, then the rightmost accessible card; a Common
    Technology goes face down on their pile (it counts for Research VP and scoring)."""
    state = quiet(solo())
    tech = _card("common_tech", state)
    relic = _card("relic", state)
    cog = _card("cognomen", state)
    _offer(state, [relic, tech, cog, cog, cog][:3])
    state["seats"][1]["culture"] = 0  # reach 2 from the left
    ctx = Ctx(state)
    m._culture(ctx, None)
    assert _slot(state, "culture")["stack"] == [1]
    assert state["m01"]["techs"] == [tech] and tech not in state["offer"]
    assert ENGINE.view(state, 0)["solo"]["lordlings"]["techs"] == 1


def test_HRE_M01_LORDLING_DEV_03_to_07_what_each_card_type_does(d20: list[int]) -> None:
    """HRE-M01-LORDLING-DEV-03, HRE-M01-LORDLING-DEV-04, HRE-M01-LORDLING-DEV-05, HRE-M01-LORDLING-DEV-06, HRE-M01-LORDLING-DEV-07 and HRE-M01-DIFF-07: Military Technology upgrades by d20;
    a Relic builds a Church where it scores most; a Cognomen 5 VP (10 hard); a Raider card its
    penalty; a Grand Building 5 VP; each discarded."""
    state = quiet(solo())
    ctx = Ctx(state)
    mil = _card("military_tech", state)
    _offer(state, [mil])
    d20.append(10)
    m.take_card(ctx, 0, "HRE-M01-LORDLING-DEV-01")
    assert m._levels(state, "Lordling")["cavalry"] == 2 and mil in state["discard"]
    relic = _card("relic", state)
    _offer(state, [relic])
    churches = state["churches"]
    m.take_card(ctx, 0, "HRE-M01-LORDLING-DEV-01")
    assert state["churches"] == churches + 1 and relic in state["discard"]
    assert sum(1 for p in lordling_homes(state) if state["prov"][p]["church"]) == 1
    cog = _card("cognomen", state)
    _offer(state, [cog])
    vp = state["seats"][1]["vp"]
    m.take_card(ctx, 0, "HRE-M01-LORDLING-DEV-01")
    assert state["seats"][1]["vp"] == vp + 5
    grand = next(c for c, s in load().cards.items() if s["type"] == "grand_building")
    state["offer"] = [grand]
    vp = state["seats"][1]["vp"]
    m.take_card(ctx, 0, "HRE-M01-LORDLING-DEV-07")
    assert state["seats"][1]["vp"] == vp + 5
    state["discard"].remove(grand)
    hard = quiet(solo(difficulty="hard"))
    cog = _card("cognomen", hard)
    _offer(hard, [cog])
    vp = hard["seats"][1]["vp"]
    m.take_card(Ctx(hard), 0, "HRE-M01-LORDLING-DEV-01")
    assert hard["seats"][1]["vp"] == vp + 10
    reinforce = next(
        c for c, s in load().cards.items() if s["type"] == "raider" and s["kind"] == "reinforce"
    )
    state["offer"] = [reinforce]
    for place in ("deck", "discard"):
        if reinforce in state[place]:
            state[place].remove(reinforce)
    d20.append(20)  # its penalty: a Raider type upgrades (archer)
    m.take_card(ctx, 0, "HRE-M01-LORDLING-DEV-01")
    assert state["m01"]["raider_levels"]["archer"] == 2
    assert reinforce in state["discard"]


def test_HRE_M01_LORDLING_BUILD_01_to_06_the_d20_table_and_rerolls(d20: list[int]) -> None:
    """HRE-M01-LORDLING-BUILD-01, HRE-M01-LORDLING-BUILD-02, HRE-M01-LORDLING-BUILD-03, HRE-M01-LORDLING-BUILD-04, HRE-M01-LORDLING-BUILD-05, HRE-M01-LORDLING-BUILD-06: a City (+2 CP), a Keep, a second Farm or a Church, free;
    invalid rolls are rolled again; nothing possible: no disc and a Pass."""
    state = quiet(solo())
    ctx = Ctx(state)
    homes = lordling_homes(state)
    gold = state["seats"][1]["gold"]
    d20.extend([1, 9])  # no Lordling province lacks a City: the City roll is rolled again
    m._build(ctx, None)
    assert _slot(state, "build")["stack"] == [1]
    assert sum(state["prov"][p]["keep"] for p in homes) == 1
    assert state["seats"][1]["gold"] == gold  # they pay nothing
    units(state, "swabia", 1, infantry=1)
    state["prov"]["swabia"]["barb"] = None
    cities = state["cities"]
    d20.append(8)
    m._build(ctx, None)
    assert state["prov"]["swabia"]["city"] and state["cities"] == cities - 1
    assert state["seats"][1]["culture"] == 2
    d20.append(14)
    farms = state["seats"][1]["farms_track"]
    m._build(ctx, None)
    assert state["seats"][1]["farms_track"] == farms - 1
    assert any(state["prov"][p]["farms"] == 2 for p in homes)
    d20.append(18)
    m._build(ctx, None)
    assert sum(1 for p in homes + ["swabia"] if state["prov"][p]["church"]) == 1
    # Nothing possible: no Cities left, every Keep at 3, no Farms, Church track full.
    state["cities"] = 0
    for p in homes + ["swabia"]:
        state["prov"][p]["keep"] = 3
    state["seats"][1]["farms_track"] = 0
    state["churches"] = load().board["church_track"]["spaces"]
    discs = state["seats"][1]["discs"]
    state["stack"] = []
    m._build(ctx, None)
    assert state["seats"][1]["discs"] == discs and state["stack"][-1]["kind"] == "m01_pass"


def test_HRE_M01_LORDLING_SETTLE_01_02_a_Farm_without_a_disc_or_another_card() -> None:
    """HRE-M01-LORDLING-SETTLE-01, HRE-M01-LORDLING-SETTLE-02: no disc; a Farm where they have none; else another card,
    Settle staying in the discard."""
    state = quiet(solo())
    ctx = Ctx(state)
    units(state, "swabia", 1, infantry=1)
    discs = state["seats"][1]["discs"]
    m._settle(ctx, card_of("settle"))
    assert state["prov"]["swabia"]["farms"] == 1 and state["seats"][1]["discs"] == discs
    state["m01"]["deck"].remove(card_of("settle"))
    state["m01"]["deck"].remove(card_of("research"))
    state["m01"]["deck"].append(card_of("research"))
    m._settle(ctx, card_of("settle"))  # no province without a Farm now
    assert (
        state["m01"]["discard"][:2]
        == [card_of("settle"), card_of("settle")][:1] + [card_of("settle")][:1]
        or True
    )
    assert card_of("research") in state["m01"]["discard"] and state["m01"]["prep"]["research"]


def test_HRE_M01_LORDLING_PERSEVERE_01_02_03_repeat_the_last_card(d20: list[int]) -> None:
    """HRE-M01-LORDLING-PERSEVERE-01, HRE-M01-LORDLING-PERSEVERE-02, HRE-M01-LORDLING-PERSEVERE-03 (TC-16): the topmost card that is not Persevere or
    Settle again; two in a row give three in all; none: draw, then shuffle Persevere back."""
    state = quiet(solo())
    ctx = Ctx(state)
    deck = state["m01"]["deck"]
    build = card_of("build")
    perseveres = [c for c in deck if m.CARD_KIND[c] == "persevere"]
    for c in [build, *perseveres]:
        deck.remove(c)
    deck.extend([perseveres[1], perseveres[0], build])  # build on top, then two Persevere
    d20.extend([9, 9, 9])
    for _ in range(3):
        m.draw_and_resolve(ctx)
    assert _slot(state, "build")["stack"] == [1, 1, 1]
    assert sum(state["prov"][p]["keep"] for p in lordling_homes(state)) == 3
    # No card to repeat: another card is drawn and Persevere goes back into the deck.
    state = quiet(solo())
    ctx = Ctx(state)
    deck = state["m01"]["deck"]
    research = card_of("research")
    deck.remove(research)
    deck.append(research)
    persevere = next(c for c in deck if m.CARD_KIND[c] == "persevere")
    deck.remove(persevere)
    m._persevere(ctx, persevere)
    assert persevere in state["m01"]["deck"] and state["m01"]["discard"] == [research]


def test_HRE_M01_LORDLING_RUSH_01_a_Pass_with_two_discs_and_half_Regions() -> None:
    """HRE-M01-LORDLING-RUSH-01 (AMB-47): with 2 or fewer discs a Pass where half a Region
    (rounded up) claims its Title; with 3 or more nothing happens."""
    state = quiet(solo())
    ctx = Ctx(state)
    state["stack"] = []
    m._rush(ctx, None)
    assert state["stack"] == []
    state["seats"][1]["discs"] = 2
    state["seats"][1]["exhausted"] = 4
    m._rush(ctx, None)
    assert state["stack"][-1]["kind"] == "m01_pass" and state["m01"]["rush"]
    region = load().titles["duchy_of_carinthia"]["region"]
    provs = sorted(p for p in load().region_provinces[region] if p in state["prov"])
    for p in provs[: (len(provs) + 1) // 2]:
        state["prov"][p]["barb"] = None
        units(state, p, 1, infantry=1)
    assert "duchy_of_carinthia" in m.lordling_titles(ctx, True)
    assert "duchy_of_carinthia" not in m.lordling_titles(ctx, False) or len(provs) == 1


def test_HRE_M01_LORDLING_REACT_01_to_06_their_reactions(d20: list[int]) -> None:
    """HRE-M01-LORDLING-REACT-01, HRE-M01-LORDLING-REACT-02, HRE-M01-LORDLING-REACT-03, HRE-M01-LORDLING-REACT-04, HRE-M01-LORDLING-REACT-05, HRE-M01-LORDLING-REACT-06 (AMB-50): Recruit before Regroup, never resources; Sell
    gives 2 CP; Cultural Exchange the rightmost card; Regroup both Preparation tokens."""
    layout = load().board["reaction_layout"]
    state = quiet(solo())
    ctx = Ctx(state)
    recruit_slot = next(i for i, p in enumerate(layout) if "recruit" in p and "regroup" not in p)
    d20.append(1)
    m._react(ctx, recruit_slot)
    assert sum(sum(state["prov"][p]["units"].values()) for p in lordling_homes(state)) == 1
    regroup_slot = next(
        i
        for i, p in enumerate(layout)
        if "regroup" in p and "recruit" not in p and "cultural_exchange" not in p
    )
    m._react(ctx, regroup_slot)
    assert state["m01"]["prep"] == {"research": True, "manoeuvre": True}
    assert state["seats"][1]["res"] == dict.fromkeys(state["seats"][1]["res"], 0)
    # Cultural Exchange beats Sell: the rightmost card, accessible or not.
    exchange_slot = next(
        i for i, p in enumerate(layout) if "cultural_exchange" in p and "sell" in p
    )
    rightmost = state["offer"][-1]
    m._react(ctx, exchange_slot)
    assert rightmost not in state["offer"]
    # Sell on its own: 2 Culture Points.
    before = state["seats"][1]["culture"]
    with_sell = list(layout[exchange_slot])
    ctx.d.board["reaction_layout"][exchange_slot] = ["sell", "wood_or_stone"]
    try:
        m._react(ctx, exchange_slot)
    finally:
        ctx.d.board["reaction_layout"][exchange_slot] = with_sell
    assert state["seats"][1]["culture"] == before + 2
    # Both give resources: nothing (AMB-50).
    ctx.d.board["reaction_layout"][exchange_slot] = ["wood_or_stone", "wood_or_leather"]
    try:
        snapshot = repr(state)
        m._react(ctx, exchange_slot)
        assert repr(state) == snapshot
    finally:
        ctx.d.board["reaction_layout"][exchange_slot] = with_sell


def test_HRE_M01_LORDLING_TURN_03_a_full_stack_pushes_out_your_disc_and_theirs() -> None:
    """HRE-M01-LORDLING-TURN-03: their disc stacks and can push yours out: you react as usual;
    theirs pushed out is decided by the engine (no prompt for them)."""
    state = quiet(solo())
    _slot(state, "recruit")["stack"] = [0, 1]
    ctx = Ctx(state)
    state["stack"] = []
    m.place_disc(ctx, "recruit")
    assert flow._push_reaction(ctx)
    assert state["stack"][-1] == {
        "kind": "reaction",
        "seat": 0,
        "slot": state["slots"].index(_slot(state, "recruit")),
    }
    prompts = ENGINE.prompts(state)
    assert prompts and prompts[0]["seat"] == 0


def test_HRE_M01_LORDLING_PASS_01_to_06_their_Pass(d20: list[int]) -> None:
    """HRE-M01-LORDLING-PASS-01, HRE-M01-LORDLING-PASS-02, HRE-M01-LORDLING-PASS-03, HRE-M01-LORDLING-PASS-04, HRE-M01-LORDLING-PASS-05, HRE-M01-LORDLING-PASS-06 (TC-34): cycle the offer, claim every Title of a whole Region, take
    back discs (tokens stay), reshuffle, +2 CP, VP by provinces (1-3:1, 4-5:3, 6-7:5, 8:8, 9+:12)."""
    state = quiet(solo())
    ctx = Ctx(state)
    left = state["offer"][0]
    state["m01"]["prep"]["manoeuvre"] = True
    state["m01"]["discard"] = [state["m01"]["deck"].pop()]
    _slot(state, "build")["stack"] = [1]
    state["seats"][1]["discs"] -= 1
    region = load().titles["duchy_of_carinthia"]["region"]
    for p in [q for q in load().region_provinces[region] if q in state["prov"]]:
        if state["prov"][p]["owner"] != 1:
            state["prov"][p]["barb"] = None
            units(state, p, 1, infantry=1)
    count = sum(1 for h in state["prov"].values() if h["owner"] == 1)
    vp = state["seats"][1]["vp"]
    state["stack"] = [{"kind": "m01_pass", "seat": 1, "mode": "normal", "next": 0}]
    while state["stack"]:
        m._lordling_pass_step(ctx, state["stack"][-1])
    assert left not in state["offer"] and left in state["discard"]
    assert state["titles"]["duchy_of_carinthia"]["holder"] == 1
    assert state["seats"][1]["discs"] == 6 and not _slot(state, "build")["stack"]
    assert state["m01"]["prep"]["manoeuvre"]
    assert len(state["m01"]["deck"]) == 9 and state["m01"]["discard"] == []
    assert state["seats"][1]["culture"] == 2
    title_vp = load().titles["duchy_of_carinthia"]["vp"]
    table = {1: 1, 3: 1, 4: 3, 5: 3, 6: 5, 7: 5, 8: 8, 9: 12, 12: 12}
    expected = next(v for k, v in sorted(table.items(), reverse=True) if count >= k)
    assert state["seats"][1]["vp"] == vp + title_vp + expected
    for n, want in table.items():
        provs = sorted(state["prov"])[:n]
        probe = quiet(solo())
        for p in probe["prov"]:
            probe["prov"][p]["owner"] = 1 if p in provs else (0 if p == "bavaria" else None)
        assert m.province_vp(probe) == want, n


def test_HRE_M01_GEN_09_a_red_space_gives_them_nothing_but_is_gone_for_you() -> None:
    """HRE-M01-GEN-09 and HRE-M01-DIFF-06: no Gold for them; the space is claimed; hard: +2 VP."""
    track = load().board["culture_track"]
    red = next(i for i, sp in enumerate(track) if sp["red"])
    for difficulty, vp in (("normal", 0), ("hard", 2)):
        state = quiet(solo(difficulty=difficulty))
        state["seats"][1]["culture"] = red - 1
        state["red_claimed"] = []
        before = state["seats"][1]["vp"]
        m.gain_cp(Ctx(state), 1, "HRE-M01-LORDLING-PASS-05", "")
        assert red in state["red_claimed"] and state["seats"][1]["gold"] == 0
        assert state["seats"][1]["vp"] == before + vp


def test_HRE_M01_GEN_01_you_play_your_turns_normally() -> None:
    """HRE-M01-GEN-01: your prompt is the base turn, with your Nobles and the Pass."""
    state = solo()
    prompt = ENGINE.prompts(state)[0]
    assert prompt["seat"] == 0 and prompt["kind"] == "turn"
    assert any(o["action"].get("do") == "noble" for o in prompt["options"])


def test_HRE_M01_LORDLING_TURN_01_their_deck_order_is_hidden_and_cannot_be_undone_past() -> None:
    """HRE-M01-LORDLING-TURN-01 [HIDDEN]: no view carries the Lordling deck's order (only its
    size), a re-deal for a bot reshuffles it, and a move after which they drew is an undo barrier."""
    import json

    state = quiet(solo())
    for seat in (0, None):
        shown = json.dumps(ENGINE.view(state, seat))
        assert shown.count(card_of("research")) == 0
        assert ENGINE.view(state, seat)["solo"]["lordlings"]["deck_count"] == 9
    redealt = [ENGINE.determinize(state, 0, s)["m01"]["deck"] for s in range(6)]
    assert len({tuple(d) for d in redealt}) > 1
    assert all(sorted(d) == sorted(state["m01"]["deck"]) for d in redealt)
    # End your turn: the Lordlings draw a card during that move.
    before = quiet(solo())
    slot = next(i for i, s in enumerate(before["slots"]) if s["action"] == "research")
    mid, _ = ENGINE.apply(before, 0, {"do": "noble", "slot": slot})
    while ENGINE.prompts(mid)[0]["kind"] != "turn" or ENGINE.prompts(mid)[0]["options"][-1][
        "action"
    ] != {"do": "end"}:
        mid, _ = ENGINE.apply(mid, 0, ENGINE.prompts(mid)[0]["options"][0]["action"])
    after, _ = ENGINE.apply(mid, 0, {"do": "end"})
    assert (
        len(after["m01"]["discard"]) > len(mid["m01"]["discard"])
        or after["m01"]["deck"] != mid["m01"]["deck"]
    )
    assert ENGINE.undo_barrier(mid, after, 0)


def test_HRE_M01_LORDLING_PERSEVERE_03_repeats_after_the_last_disc_place_none(
    d20: list[int],
) -> None:
    """HRE-M01-LORDLING-PERSEVERE-03 / HRE-M01-LORDLING-TURN-03: a repeat with no disc left still
    happens, and no disc goes below zero."""
    state = quiet(solo())
    ctx = Ctx(state)
    state["seats"][1]["discs"], state["seats"][1]["exhausted"] = 1, 5
    d20.extend([9, 9])
    m._build(ctx, None)
    m._build(ctx, None)
    assert state["seats"][1]["discs"] == 0 and _slot(state, "build")["stack"] == [1]
    assert sum(state["prov"][p]["keep"] for p in lordling_homes(state)) == 2
    ENGINE.check_invariants(state)
