"""Rule units of 18.0–22.0: Claims, Event and Holding cards, Grand Diplomacy, Exile, Excommunication."""

from __future__ import annotations

from rules.ema import claims, diplomacy, events, gold, holding, parley, religion, targets
from rules.ema.components import load
from rules.ema.er import conquest as conquest_er
from rules.ema.er import defense as defense_er
from rules.ema.er import diplomacy as diplomacy_er
from rules.ema.state import (
    CLAIMS,
    CONV,
    FORT,
    LANG,
    OWNER,
    REL,
    SS,
    TIES,
    UNREST,
    Ctx,
    has,
    mask_of,
    seats_in,
)
from rules.ema.territory import transfer
from tests.rules.ema.helpers import ENGINE, act, actions, ctx, fill, new, prompt, rules_of, to_main


def card_of(kind: str, variant: str | None = None) -> str:
    return next(
        c
        for c, v in sorted(load().events.items())
        if v["kind"] == kind and (variant is None or v.get("variant") == variant)
    )


def vote(state, ballots):
    """Declare Influence (every voter is asked) and cast every ballot: {seat: (side, influence cards)}."""
    while prompt(state)["kind"] == "influence":
        act(state, {"cards": ballots[prompt(state)["seat"]][1]})
    for p in ENGINE.prompts(state):
        side, influence = ballots[p["seat"]]
        ENGINE.apply_trusted(state, p["seat"], {"vote": side, "influence": influence})


def test_scenario_claims_may_be_to_areas_of_others_EMA_18_0_P1():
    """EMA-18.0.P1 EMA-18.1 EMA-18.12: starting Claims include Areas not possessed; no limit on their number."""
    state = new("30-defeat-in-the-east", 2)
    assert has(state["areas"]["sicily"][CLAIMS], 0) and state["areas"]["sicily"][OWNER] != 0
    c = ctx(state)
    for aid, here in state["areas"].items():
        if here[REL] == "RC":
            claims.add(c, 0, aid, "t")
    assert sum(has(h[CLAIMS], 0) for h in state["areas"].values()) > 40


def test_a_claimed_area_needs_recognition_or_a_parley_EMA_18_0_P3():
    """EMA-18.0.P3: possession and a Tie give no Claim while others claim; Recognition needs the Tie."""
    c = ctx(new())
    fill(c.area("burgundy"), {"owner": 0, "claims": [1]})
    rec = card_of("recognition")
    assert "burgundy" not in holding.targets(c, 0, rec)
    diplomacy.tie(c, 0, "burgundy")
    assert list(seats_in(c.area("burgundy")[CLAIMS])) == [1]
    assert "burgundy" in holding.targets(c, 0, rec) and "burgundy" in claims.parley_candidates(c, 0)


def test_dynastic_inheritance_with_a_tie_gives_the_claim_EMA_18_0_P4():
    """EMA-18.0.P4 EMA-19.2.Dynastic: with a Tie the Claim comes whatever others hold; with a Claim, the Area."""
    c = ctx(new())
    fill(c.area("burgundy"), {"ties": [0, 1], "claims": [1]})
    holding.inherit(c, 0, ["burgundy"])
    assert (
        list(seats_in(c.area("burgundy")[CLAIMS])) == [0, 1] and c.area("burgundy")[OWNER] is None
    )
    holding.inherit(c, 0, ["burgundy"])
    assert c.area("burgundy")[OWNER] == 0 and not c.area("burgundy")[UNREST]


def test_claim_parley_by_the_menu_EMA_18_2():
    """EMA-18.2 EMA-20.42 EMA-20.53: a Claim Parley, a tie vote gives the Claim; once per Round per Area."""
    state = to_main()
    fill(state["areas"]["burgundy"], {"owner": 0, "ties": [0], "claims": [1]})
    state["areas"]["lorraine"][SS] = 1
    act(state, {"do": "claim_parley"})
    act(state, {"area": "burgundy"})
    state["seats"][1]["st"]["d"] = state["seats"][0]["st"]["d"]
    vote(state, {0: ("for", 0), 1: ("against", 0)})
    assert has(state["areas"]["burgundy"][CLAIMS], 0)
    state["areas"]["burgundy"][CLAIMS] = mask_of([1])
    assert {"do": "claim_parley"} not in actions(state)


def test_the_event_card_comes_first_EMA_19_0_P_EMA_19_1():
    """EMA-19.0.P EMA-19.1 EMA-19.1.Famine: the drawn Event resolves before any Endeavor; Holdings are kept."""
    famine = card_of("famine")
    state = new()
    state["event_deck"] = [card_of("coup"), famine]
    listed = load().events[famine]["areas"]
    before = {a: state["areas"][a][SS] for a in listed}
    while prompt(state)["kind"] != "main":
        act(state, actions(state)[0])
    assert all(state["areas"][a][SS] == max(-3, before[a] - 1) for a in listed)
    assert famine in state["event_discard"]
    c = ctx(state)
    events.draw(c, 0)
    assert (
        state["seats"][0]["hand"] == [card_of("coup")]
        and card_of("coup") not in state["event_discard"]
    )


def test_holding_cards_stay_with_their_holders_at_the_reshuffle_EMA_19_0_P():
    """EMA-19.0.P EMA-SOP-I: at a Game-Turn start discards return to the deck; held cards do not."""
    from rules.ema import sequence

    c = ctx(new())
    c.seat(0)["hand"] = [card_of("coup")]
    c.s["event_deck"].remove(card_of("coup"))
    c.s["event_deck"].remove(card_of("famine"))
    c.s["event_discard"] = [card_of("famine")]
    c.s["year"] = 1001
    sequence.start_round(c)
    assert card_of("famine") in c.s["event_deck"] and card_of("coup") not in c.s["event_deck"]
    assert c.seat(0)["hand"] == [card_of("coup")]


def _plague_world():
    c = ctx(new("30-defeat-in-the-east", 2))
    for here in c.s["areas"].values():
        here[SS] = -3
    return c


def _susceptible(c, aid):
    c.area(aid)[SS] = 1 - c.d.areas[aid]["population"]


def test_black_death_spreads_only_through_susceptible_areas_EMA_19_1_BD_5():
    """EMA-19.1.BD-2 EMA-19.1.BD-4 EMA-19.1.BD-5: susceptibility SS + Population ≥ 1, step by step."""
    c = _plague_world()
    _susceptible(c, "serbia")
    c.area("venice")[SS], c.area("constantinople")[SS] = (
        -2,
        -1,
    )  # Venice not susceptible (−2 + 2 < 1)
    assert not events.susceptible(c, "macedonia") and events.susceptible(c, "serbia")
    assert not events.susceptible(c, "venice")
    events.black_death(c)
    assert c.area("serbia")[SS] == 1  # Macedonia is in the way and not susceptible
    assert c.area("venice")[SS] == -3 and c.area("constantinople")[SS] == -3  # both hit regardless
    c = _plague_world()
    _susceptible(c, "macedonia")
    _susceptible(c, "serbia")
    events.black_death(c)
    assert c.area("macedonia")[SS] == -2 and c.area("serbia")[SS] == -1  # on from Macedonia (BD-4)


def _heresy_state():
    c = ctx(new())
    for here in c.s["areas"].values():
        here[UNREST] = False
    for a in ("franconia", "swabia", "bavaria"):
        c.area(a)[UNREST] = True
    c.area("franconia")[SS], c.area("swabia")[SS], c.area("bavaria")[SS] = -2, 2, 0
    return c


def test_heresy_needs_a_christian_drawer_and_unrest_EMA_19_1_Heresy_0():
    """EMA-19.1.Heresy-0: without a Christian Area in Unrest the card has no effect."""
    c = ctx(new())
    for here in c.s["areas"].values():
        here[UNREST] = False
    events.heresy(c, 0, {})
    assert c.s["heresy"] is None and rules_of(c.events) == ["EMA-19.1.Heresy-0"]
    c = _heresy_state()
    c.seat(0)["rel"] = "pagan_germanic"
    events.heresy(c, 0, {})
    assert c.s["heresy"] is None


def test_heresy_takes_the_strongest_area_and_spreads_EMA_19_1_Heresy_1_to_4():
    """EMA-19.1.Heresy-1 EMA-19.1.Heresy-2 EMA-19.1.Heresy-3 EMA-19.1.Heresy-4: highest SS + Population."""
    c = _heresy_state()
    scores = {
        a: c.area(a)[SS] + c.d.areas[a]["population"] for a in ("franconia", "swabia", "bavaria")
    }
    best = max(scores, key=lambda a: scores[a])
    events.heresy(c, 0, {})
    here = c.area(best)
    assert here[REL] == "heretic" and here[OWNER] is None and not religion_is_christian(here[REL])
    same_lang = [
        a
        for a in c.d.land_adj[best]
        if c.area(a)[LANG] == here[LANG]
        and c.area(a)[REL] in ("RC", "EO")
        and a != c.seat(0)["court"]
    ]
    events.spread_heresy(c)
    assert all(c.area(a)[REL] == "heretic" and c.area(a)[OWNER] is None for a in same_lang)
    assert c.area("lorraine")[REL] == "RC"  # never a Court
    assert religion.differential(c, 0, best) == 16 - 10  # heretical until reconverted


def religion_is_christian(rel):
    return rel in ("RC", "EO")


def test_recognition_of_claim_EMA_19_2_Recognition():
    """EMA-19.2.Recognition EMA-19.2: a Claim to one possessed Area; the card is discarded after use."""
    state = to_main()
    rec = card_of("recognition")
    state["seats"][0]["hand"] = [rec]
    state["areas"]["saxony"][CLAIMS] = mask_of([])
    act(state, {"do": "holding", "card": rec})
    act(state, {"area": "saxony"})
    assert has(state["areas"]["saxony"][CLAIMS], 0) and rec in state["event_discard"]
    assert state["seats"][0]["hand"] == []


def test_dynastic_inheritance_may_be_contested_EMA_20_43():
    """EMA-20.43 EMA-19.2.Dynastic: the owner keeps the Area while he contests; a tie keeps it for him."""
    state = to_main()
    dyn = card_of("dynastic", "single")
    state["seats"][0]["hand"] = [dyn]
    state["areas"]["champagne"][CLAIMS] |= 1 << 0
    act(state, {"do": "holding", "card": dyn})
    act(state, {"area": "champagne"})
    assert state["areas"]["champagne"][OWNER] == 1 and prompt(state)["kind"] == "contest"
    act(state, {"contest": True})
    state["seats"][0]["st"]["d"] = state["seats"][1]["st"]["d"]
    vote(state, {0: ("against", 0), 1: ("for", 0)})
    assert state["areas"]["champagne"][OWNER] == 1 and prompt(state)["kind"] == "main"
    c = ctx(new())
    c.seat(1)["heirless_guard"] = True
    c.area("champagne")[CLAIMS] |= 1 << 0
    holding.inherit(c, 0, ["champagne"])
    assert c.area("champagne")[OWNER] == 0 and c.s["stack"][-1]["kind"] != "contest"


def test_a_lost_dynastic_contest_gives_the_area_up_EMA_20_43():
    """EMA-20.43 EMA-22.1: the caller who loses must give the Area up or be excommunicated."""
    state = to_main()
    c = Ctx(state)
    c.area("champagne")[CLAIMS] |= 1 << 0
    holding.inherit(c, 0, ["champagne"])
    act(state, {"contest": True})
    state["seats"][0]["st"]["d"], state["seats"][1]["st"]["d"] = 9, 1
    vote(state, {0: ("against", 0), 1: ("for", 0)})
    assert prompt(state)["kind"] == "give_up" and prompt(state)["seat"] == 1
    act(state, {"give": True})
    assert state["areas"]["champagne"][OWNER] == 0 and not state["seats"][1]["excom"]


def test_influence_only_in_a_parley_five_votes_each_EMA_19_2_Influence():
    """EMA-19.2.Influence EMA-20.51: only in a Parley, shown before the sealed ballots (A-38); +5 votes each."""
    state = to_main()
    inf = [c for c, v in sorted(load().events.items()) if v["kind"] == "influence"][:2]
    state["seats"][1]["hand"] = list(inf)
    c = Ctx(state)
    assert holding.playable(c, 1) == []
    fill(c.area("burgundy"), {"owner": 0, "ties": [0], "claims": [1]})
    state["seats"][0]["st"]["d"], state["seats"][1]["st"]["d"] = 9, 1
    act(state, {"do": "claim_parley"})
    act(state, {"area": "burgundy"})
    asked = []
    while (
        prompt(state)["seat"] != 1
    ):  # every voter is asked in turn order, holding cards or not
        asked.append(prompt(state)["seat"])
        assert prompt(state)["kind"] == "influence" and actions(state) == [{"cards": 0}]
        act(state, {"cards": 0})
    assert prompt(state)["kind"] == "influence"  # face up, before the ballots
    assert actions(state) == [{"cards": 0}, {"cards": 1}, {"cards": 2}]
    act(state, {"cards": 2})
    while prompt(state)["kind"] == "influence":
        act(state, {"cards": 0})
    assert ENGINE.view(state, 0)["deciding"]["influence"]["1"] == 2
    assert [o["action"] for o in ENGINE.prompts(state)[1]["options"]] == [
        {"vote": "for", "influence": 2},
        {"vote": "against", "influence": 2},
    ]
    vote(state, {0: ("for", 0), 1: ("against", 2)})
    assert not has(state["areas"]["burgundy"][CLAIMS], 0)  # 9 against 1 + 10
    assert state["seats"][1]["hand"] == [] and set(inf) <= set(state["event_discard"])


def test_diplomatic_coup_removes_one_foreign_tie_EMA_19_2_Coup():
    """EMA-19.2.Coup: a Coup removes ONE Tie on one's own Area, the one the player names; then it is discarded."""
    state = to_main("28-millenium", 3)
    coups = [c for c, v in sorted(load().events.items()) if v["kind"] == "coup"][:2]
    state["seats"][0]["hand"] = list(coups)
    state["areas"]["saxony"][TIES] = mask_of([0, 1, 2])
    act(state, {"do": "holding", "card": coups[0]})
    act(state, {"area": "saxony"})
    assert prompt(state)["kind"] == "holding" and actions(state) == [{"tie": 1}, {"tie": 2}]
    act(state, {"tie": 2})
    assert (
        list(seats_in(state["areas"]["saxony"][TIES])) == [0, 1]
        and coups[0] in state["event_discard"]
    )
    act(state, {"do": "holding", "card": coups[1]})
    act(state, {"area": "saxony"})  # one foreign Tie left: no question
    assert list(seats_in(state["areas"]["saxony"][TIES])) == [0] and prompt(state)["kind"] == "main"


def test_enlargement_of_demesne_pays_each_taxation_EMA_19_2_Demesne():
    """EMA-19.2.Demesne: +1 gold at each taxation while in play; lost when the Leader dies heirless."""
    c = ctx(new())
    dem = card_of("demesne")
    c.seat(0)["inplay"] = [dem]
    before = c.seat(0)["gold"]
    gold.start(c, 0)
    assert (
        c.seat(0)["gold"] == before + 1
    )  # the Court is collected (or plundered) as an Area of its own
    events.heirless(c, 0, {"variant": "language"})
    assert dem not in c.seat(0)["inplay"] and dem in c.s["event_discard"]


def test_weapons_and_tactics_add_three_each_EMA_19_2_Tech():
    """EMA-19.2.Tech EMA-13.21: +3 ER each on Conquest and Pillage, and −3 more when defending; +6 together."""
    c = ctx(new())
    base = conquest_er(c, 0, "lorraine", "champagne"), defense_er(c, 0)
    c.seat(0)["inplay"] = [card_of("weapons")]
    assert (
        conquest_er(c, 0, "lorraine", "champagne") == base[0] + 3
        and defense_er(c, 0) == base[1] + 3
    )
    c.seat(0)["inplay"].append(card_of("tactics"))
    assert (
        conquest_er(c, 0, "lorraine", "champagne") == base[0] + 6
        and defense_er(c, 0) == base[1] + 6
    )


def test_missionary_fervor_halves_and_is_kept_EMA_19_2_Fervor():
    """EMA-19.2.Fervor EMA-22.23: the Differential is halved, rounding down, and the card stays."""
    state = to_main()
    c = Ctx(state)
    c.area("saxony")[REL] = "pagan_germanic"
    assert religion.differential(c, 0, "saxony") == 6
    fervor = card_of("fervor")
    state["seats"][0]["hand"] = [fervor]
    act(state, {"do": "holding", "card": fervor})
    assert state["seats"][0]["inplay"] == [fervor] and religion.differential(c, 0, "saxony") == 3


def test_exchanges_of_gold_claims_and_areas_EMA_20_1():
    """EMA-20.1: gold and Areas change hands by accepted offers; Unrest stays, Ties never move, forts negotiable."""
    state = to_main()
    fill(state["areas"]["saxony"], {"unrest": True, "ties": [0], "fort": 2})
    act(state, {"do": "offer"})
    act(state, {"partner": 1})
    assert {a["kind"] for a in actions(state)} <= {
        "none",
        "gold",
        "area",
        "claim",
    }  # never cards or Leaders
    act(state, {"kind": "area"})
    assert {"area": "saxony", "forts": True} in actions(state)
    act(state, {"area": "saxony", "forts": False})
    act(state, {"kind": "gold"})
    act(state, {"gold": 5})
    assert prompt(state)["kind"] == "offer_reply" and prompt(state)["seat"] == 1
    gold_before = state["seats"][0]["gold"]
    act(state, {"accept": True})
    here = state["areas"]["saxony"]
    assert (
        here[OWNER] == 1 and here[UNREST] and list(seats_in(here[TIES])) == [0] and here[FORT] == 0
    )
    assert state["seats"][0]["gold"] == gold_before + 5


def test_readmission_needs_a_majority_once_per_round_EMA_20_45_EMA_20_55():
    """EMA-20.45 EMA-20.55 EMA-22.13: a tie vote does not readmit (A-38); one readmission Parley a Round."""
    state = to_main()
    me = state["seats"][0]
    me["excom"] = True
    state["seats"][1]["st"]["d"] = me["st"]["d"]
    act(state, {"do": "readmit"})
    vote(state, {0: ("for", 0), 1: ("against", 0)})
    assert me["excom"] and {"do": "readmit"} not in actions(state)


def test_byzantine_votes_on_orthodox_areas_EMA_20_52():
    """EMA-20.52: +5 votes for the Byzantine on an EO Area, none on a group only partly EO."""
    c = ctx(new("28-millenium", 6))
    byz = next(i for i, m in enumerate(c.s["seats"]) if m["empire"] == "BYZ")
    d = c.seat(byz)["st"]["d"]
    c.area("greece")[REL], c.area("apulia")[REL] = "EO", "RC"
    assert parley.weight(c, {"areas": ["greece"]}, byz, 0) == d + 5
    assert parley.weight(c, {"areas": ["greece", "apulia"]}, byz, 0) == d
    assert parley.weight(c, {"areas": ["greece"]}, 0, 1) == c.seat(0)["st"]["d"] + 5


def test_contest_must_be_called_at_once_EMA_20_54():
    """EMA-20.54 EMA-12.32: the contest is offered immediately after the Diplomatic Conquest, never later."""
    state = to_main()
    c = Ctx(state)
    diplomacy.annex(c, 0, "champagne")
    assert prompt(state)["kind"] == "contest" and prompt(state)["seat"] == 1
    act(state, {"contest": False})
    assert prompt(state)["kind"] == "main" and not any("contest" in str(a) for a in actions(state))


def test_exile_keeps_playing_without_taxes_EMA_21_1():
    """EMA-21.0.GR EMA-21.1: the exile still gets cards and Events; without asylum at his turn's end, cards go up unused."""
    c = ctx(new("28-millenium", 5))
    transfer(c, "denmark", 0, "conquest")
    den = 3
    me = c.seat(den)
    assert me["exile"] and len(me["years"]) == 5
    c.s["event_deck"], c.s["event_discard"] = [card_of("coup")], []
    c.s["stack"].append({"kind": "turn", "seat": den, "phase": "draw"})
    from rules.ema.handlers import MACHINE

    MACHINE.advance(c)
    assert len(me["years"]) == 5 and me["hand"] == [
        card_of("coup")
    ]  # asylum may still be asked first
    assert not targets.any_endeavor(c, den, "conquest") and not targets.any_endeavor(
        c, den, "diplomacy"
    )
    main = [o["action"] for o in ENGINE.prompts(c.s)[0]["options"]]
    assert {"do": "tax"} not in main and {"do": "asylum", "host": 0} in main
    ENGINE.apply_trusted(c.s, den, {"do": "end"})
    assert me["years"] == [] and len(me["revealed"]) == 5


def test_an_exile_granted_asylum_keeps_his_cards_EMA_21_1():
    """EMA-21.1 EMA-21.2: asylum asked in his turn, before the end, saves his Year Cards for Diplomacy."""
    c = ctx(new("28-millenium", 5))
    transfer(c, "denmark", 0, "conquest")
    me = c.seat(3)
    c.s["event_deck"], c.s["event_discard"] = [], []
    c.s["stack"].append({"kind": "turn", "seat": 3, "phase": "draw"})
    from rules.ema.handlers import MACHINE

    MACHINE.advance(c)
    ENGINE.apply_trusted(c.s, 3, {"do": "asylum", "host": 1})
    ENGINE.apply_trusted(c.s, 1, {"grant": True})
    assert me["asylum"] == 1 and targets.any_endeavor(c, 3, "diplomacy") and len(me["years"]) == 5


def test_asylum_lends_the_host_court_EMA_21_2():
    """EMA-21.2 EMA-12.11: with asylum the exile's Diplomacy starts from the host's Court, using its SS."""
    c = ctx(new("28-millenium", 5))
    transfer(c, "denmark", 0, "conquest")
    c.seat(3)["asylum"] = 1
    assert targets.diplomacy_base(c, 3) == c.seat(1)["court"]
    value = diplomacy_er(c, 3, c.seat(1)["court"], "norway")
    c.area(c.seat(1)["court"])[SS] += 1
    assert diplomacy_er(c, 3, c.seat(1)["court"], "norway") == value + 1
    c.seat(3)["asylum"] = None
    assert targets.diplomacy_base(c, 3) is None


def test_return_from_exile_EMA_21_3():
    """EMA-21.3: the exile returns when he acquires an Area of exactly his Language and Religion."""
    c = ctx(new("28-millenium", 5))
    transfer(c, "denmark", 0, "conquest")
    me = c.seat(3)
    fill(c.area("norway"), {"lang": me["lang"], "rel": me["rel"]})
    transfer(c, "norway", 3, "diplomacy")
    assert not me["exile"] and me["court"] == "norway"


def test_refusing_a_parley_decision_excommunicates_EMA_22_1():
    """EMA-22.0.GR EMA-22.1 EMA-20.41: a caller who wins keeps the Area; one who loses and refuses is excommunicated."""
    state = to_main()
    c = Ctx(state)
    diplomacy.annex(c, 0, "champagne")
    act(state, {"contest": True})
    state["seats"][0]["st"]["d"], state["seats"][1]["st"]["d"] = 1, 9
    vote(state, {0: ("against", 0), 1: ("for", 0)})
    assert state["areas"]["champagne"][OWNER] == 1 and prompt(state)["kind"] == "main"
    diplomacy.annex(Ctx(state), 0, "champagne")
    act(state, {"contest": True})
    state["seats"][0]["st"]["d"], state["seats"][1]["st"]["d"] = 9, 1
    vote(state, {0: ("against", 0), 1: ("for", 0)})
    assert prompt(state)["kind"] == "give_up" and prompt(state)["seat"] == 1
    act(state, {"give": False})
    assert state["seats"][1]["excom"] and state["areas"]["champagne"][OWNER] == 1


def test_the_excommunicated_neither_vote_nor_contest_EMA_22_12():
    """EMA-22.12: an excommunicated Player is out of every Parley but his readmission, and cannot contest."""
    c = ctx(new("28-millenium", 3))
    c.seat(1)["excom"] = True
    assert parley.voters(c, "claim", 0) == [0, 2] and parley.voters(c, "readmit", 1) == [0, 1, 2]
    diplomacy.annex(c, 0, "champagne")
    assert not c.s["stack"] or c.s["stack"][-1]["kind"] != "contest"


def test_conversion_progress_lost_to_a_conqueror_EMA_22_21():
    """EMA-22.21 EMA-22.2: progress is kept across Rounds and lost when another Player conquers the Area."""
    c = ctx(new())
    c.area("saxony")[REL] = "pagan_germanic"
    religion.progress(c, 0, "saxony")
    assert c.area("saxony")[CONV] == {"seat": 0, "n": 1}
    transfer(c, "saxony", 1, "conquest")
    assert c.area("saxony")[CONV] is None


def test_areas_convert_any_number_of_times_one_at_a_time_EMA_22_22_EMA_22_26():
    """EMA-22.22 EMA-22.26 EMA-22.28: reconversion scores again; Moslem Areas convert one by one."""
    c = ctx(new("28-millenium", 6))
    byz = next(i for i, m in enumerate(c.s["seats"]) if m["empire"] == "BYZ")
    c.area("saxony")[REL] = "moslem_east"
    c.area("franconia")[REL] = "moslem_east"
    religion.convert(c, 0, "saxony")
    assert c.area("saxony")[REL] == "RC" and c.area("franconia")[REL] == "moslem_east"
    c.area("saxony")[OWNER] = byz
    religion.convert(c, byz, "saxony")
    assert (
        c.area("saxony")[REL] == "EO" and c.seat(0)["vp_conv"] == 5 and c.seat(byz)["vp_conv"] == 5
    )


def test_iberian_moslems_become_catholic_on_conquest_EMA_22_27():
    """EMA-22.27: an Iberian Moslem Area conquered by a Christian Leader is RC at once, with no VP."""
    c = ctx(new())
    c.area("cordova")[REL] = "moslem_iberian"
    transfer(c, "cordova", 0, "conquest")
    assert c.area("cordova")[REL] == "RC" and c.seat(0)["vp_conv"] == 0
    assert c.d.tables["conversion"]["moslem_iberian"][1] == 0


def _agreement(state):
    act(state, {"do": "agree", "partner": 1})
    assert prompt(state)["kind"] == "agree_reply" and prompt(state)["seat"] == 1
    act(state, {"accept": True})
    return state["agreements"][-1]


def test_binding_agreements_need_consent_and_end_by_consent_EMA_20_3():
    """EMA-20.0.GR EMA-20.3: both parties consent; both see it; mutual consent cancels; heirless frees."""
    state = to_main()
    act(state, {"do": "agree", "partner": 1})
    act(state, {"accept": False})
    assert state["agreements"] == []
    agreement = _agreement(state)
    assert agreement["parties"] == [0, 1]
    assert ENGINE.view(state, 1)["agreements"] == ENGINE.view(state, 0)["agreements"] == [agreement]
    act(state, {"do": "cancel_agreement", "id": agreement["id"]})
    act(state, {"accept": True})
    assert state["agreements"] == []
    _agreement(state)
    events.heirless(Ctx(state), 1, {"variant": "language"})
    assert state["agreements"] == []


def test_broken_agreement_parley_tie_excommunicates_EMA_20_44():
    """EMA-20.44 EMA-20.54: the injured party calls the Parley; a tie excommunicates; the issue is then closed."""
    state = to_main()
    agreement = _agreement(state)
    state["seats"][1]["st"]["d"] = state["seats"][0]["st"]["d"]
    act(state, {"do": "breach", "id": agreement["id"]})
    vote(state, {0: ("for", 0), 1: ("against", 0)})
    assert state["seats"][1]["excom"] and state["agreements"] == []
    assert not any(a.get("do") == "breach" for a in actions(state))


def test_christian_agreements_with_the_turk_EMA_31_7():
    """EMA-31.7: any other Christian may call a Parley against it once per Round; a tie excommunicates."""
    state = new("31-twilight", 3)
    tur = next(i for i, m in enumerate(state["seats"]) if m["empire"] == "TUR")
    christians = [i for i in range(3) if i != tur]
    state["agreements"] = [{"id": 1, "parties": sorted((tur, christians[1])), "year": 1386}]
    c = Ctx(state)
    from rules.ema import agreements

    opts = [o["action"] for o in agreements.menu(c, christians[0])]
    assert {"do": "turk_parley", "id": 1} in opts
    assert {"do": "turk_parley", "id": 1} not in [
        o["action"] for o in agreements.menu(c, christians[1])
    ]
    agreements.choose(c, christians[0], {"do": "turk_parley", "id": 1})
    for seat in christians:
        state["seats"][seat]["st"]["d"] = 3
    vote(state, {christians[0]: ("for", 0), christians[1]: ("against", 0)})
    assert state["seats"][christians[1]]["excom"] and state["agreements"]
    state["seats"][christians[1]]["excom"] = False
    assert {"do": "turk_parley", "id": 1} not in [
        o["action"] for o in agreements.menu(Ctx(state), christians[0])
    ]


def test_tie_waivers_cancel_the_opponents_plus_two_EMA_12_42():
    """EMA-12.42 EMA-17.24: opponents' Ties add +2 in all; only when every one of them waives does it go."""
    from rules.ema import rebellion

    state = to_main("28-millenium", 3)
    c = Ctx(state)
    c.area("saxony")[TIES] = mask_of([1, 2])
    rv = rebellion.rebellion_value(c, "saxony", 2)
    state["seats"][1]["waive"] = [0]
    assert rebellion.rebellion_value(c, "saxony", 2) == rv
    state["seats"][2]["waive"] = [0]
    assert rebellion.rebellion_value(c, "saxony", 2) == rv - 2
    state["seats"][1]["waive"], state["seats"][2]["waive"] = [], []
    c.area("saxony")[TIES] = mask_of([0])
    c.area("champagne")[TIES] = mask_of([0])
    assert {"do": "waive", "owner": 1} in actions(state)
    act(state, {"do": "waive", "owner": 1})
    assert state["seats"][0]["waive"] == [1] and {"do": "unwaive", "owner": 1} in actions(state)
    act(state, {"do": "unwaive", "owner": 1})
    assert state["seats"][0]["waive"] == []


def test_weapons_may_be_played_when_asked_to_defend_EMA_19_2():
    """EMA-19.2 EMA-13.21: a Holding card is played out of turn, here Weapons before a Defense."""
    state = to_main()
    weapons = card_of("weapons")
    state["seats"][1]["hand"] = [weapons]
    state["event_deck"] = [c for c in state["event_deck"] if c != weapons]
    state["seats"][0]["st"]["c"] = 9
    act(state, {"do": "endeavor", "kind": "conquest"})
    act(state, {"base": "lorraine"})
    act(state, {"target": "champagne"})
    act(state, {"holding": weapons})
    assert state["seats"][1]["inplay"] == [weapons] and prompt(state)["kind"] == "defend"
    act(state, {"defend": True})
    assert defense_er(Ctx(state), 1) == state["seats"][1]["st"]["c"] + 3


def test_a_claim_of_another_religion_scores_nothing_A_34_EMA_18_14():
    """EMA-18.14 EMA-26.0 A-34: a Claim whose Area changed Religion is dormant: no +3 VP."""
    from rules.ema import victory

    state = new()
    before = victory.breakdown(state, 0)["claims"]
    assert has(state["areas"]["saxony"][CLAIMS], 0)
    state["areas"]["saxony"][REL] = "moslem_east"
    assert victory.breakdown(state, 0)["claims"] == before - 3


def test_trade_and_inheritance_give_the_automatic_claim_A_29():
    """EMA-18.0.P2 A-29 EMA-20.1: possession plus a Tie gives the Claim however the Area was acquired."""
    c = ctx(new())
    fill(c.area("champagne"), {"ties": [0], "claims": []})
    transfer(c, "champagne", 0, "trade")
    assert list(seats_in(c.area("champagne")[CLAIMS])) == [0]
    fill(c.area("normandy"), {"ties": [0], "claims": [], "owner": None})
    transfer(c, "normandy", 0, "inheritance")
    assert list(seats_in(c.area("normandy")[CLAIMS])) == [0]


def test_dynastic_inheritance_may_take_a_court_EMA_19_2_Dynastic():
    """EMA-19.2.Dynastic EMA-7.52: 19.2 makes no Court exception; the heir takes it, the loser moves his Court."""
    c = ctx(new())
    court = c.seat(1)["court"]
    c.area(court)[CLAIMS] |= 1 << 0
    assert court in holding.targets(c, 0, card_of("dynastic", "single"))
    c.seat(1)["excom"] = True  # cannot contest (22.12)
    holding.inherit(c, 0, [court])
    assert c.area(court)[OWNER] == 0 and c.seat(1)["court"] != court


def test_long_area_lists_are_split_by_language_group():
    """Every Area stays reachable: a long list is offered by language group first (no truncation)."""
    state = to_main("30-defeat-in-the-east", 2)
    c = Ctx(state)
    me = prompt(state)["seat"]
    everything = [a for a, h in sorted(state["areas"].items()) if h[REL] in ("RC", "EO")]
    for aid in everything:
        c.area(aid)[CLAIMS] |= 1 << me
    dyn = card_of("dynastic", "single")
    state["seats"][me]["hand"] = [dyn]
    pool = holding.targets(c, me, dyn)
    assert len(pool) > 48
    act(state, {"do": "holding", "card": dyn})
    groups = [a["page"] for a in actions(state)]
    reached = set()
    for g in groups:
        state["stack"][-1]["page"] = g
        reached |= {a["area"] for a in actions(state) if "area" in a}
    assert reached == set(pool)


def test_heirless_court_move_asks_the_language_only_EMA_19_1():
    """EMA-19.1.Heirless (f): after the Checks the Court may move to any Area of the Leader's Language."""
    from rules.ema.territory import court_candidates

    c = ctx(new())
    c.area("franconia")[REL] = "EO"
    assert c.area("franconia")[LANG] == c.seat(0)["lang"]
    assert "franconia" in court_candidates(c, 0, language_only=True)
    assert "franconia" not in court_candidates(c, 0)
    c.s["stack"].append({"kind": "court_move", "seat": 0, "why": "heirless"})
    assert {"court": "franconia"} in [o["action"] for o in ENGINE.prompts(c.s)[0]["options"]]
