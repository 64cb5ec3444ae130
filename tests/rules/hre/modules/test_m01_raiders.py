"""The Raiders and their cards (HRE-M01-RAIDER, -RAIDATK, -COUNTER) and battles in solo (GEN)."""

from __future__ import annotations

from rules.hre import ENGINE, culture
from rules.hre.components import load
from rules.hre.modules import m01_lordlings as m
from rules.hre.state import UNITS, Ctx, neighbours
from tests.rules.hre.helpers import units
from tests.rules.hre.modules.solo import quiet, solo


def _raider(kind: str, n: int = 0) -> str:
    return [
        c for c, s in sorted(load().cards.items()) if s["type"] == "raider" and s["kind"] == kind
    ][n]


def _free(state: dict, card: str) -> None:
    for place in ("deck", "offer", "discard"):
        if card in state[place]:
            state[place].remove(card)
    for seat in state["seats"]:
        if card in seat["hand"]:
            seat["hand"].remove(card)


def _mine(state: dict, prov: str, **counts: int) -> None:
    here = state["prov"][prov]
    if here["barb"]:
        state["box_tokens"] = sorted([*state["box_tokens"], here["barb"]["token"]])
        here["barb"] = None
    units(state, prov, 0, **counts)


def _run(state: dict) -> None:
    """Run automatic steps (battles with rigged dice) until a decision or an empty stack."""
    from rules.hre import handlers

    handlers.MACHINE.advance(Ctx(state))


def test_HRE_M01_RAIDER_01_02_06_08_revealing_Raider_cards(d20: list[int]) -> None:
    """HRE-M01-RAIDER-01, HRE-M01-RAIDER-02, HRE-M01-RAIDER-06, HRE-M01-RAIDER-08: a revealed Raider card sets the Target (a random province of
    yours other than the Capital, else on your Ruler card), applies its reveal effect; a Surprise
    leaves at once and its space is refilled; Reinforce and Raid stay."""
    state = quiet(solo(ruler="arnulf"))
    ctx = Ctx(state)
    state["m01"]["target"] = None
    reinforce = _raider("reinforce")
    _free(state, reinforce)
    state["offer"] = state["offer"][:4]
    state["deck"].append(reinforce)
    d20.append(1)  # the Raider type it adds: infantry
    party = m.party_units(state)["infantry"]
    culture.refill(ctx)
    assert state["offer"][-1] == reinforce
    assert state["m01"]["target"] is None  # only your Capital: the marker stays on your Ruler
    assert m.party_units(state)["infantry"] == party + 1
    _mine(state, "swabia", infantry=1)
    surprise = _raider("surprise", 1)  # reveal: the Raiders attack
    _free(state, surprise)
    state["offer"] = state["offer"][:4]
    nxt = state["deck"][-1]
    state["deck"].append(surprise)
    culture.refill(ctx)
    assert state["m01"]["target"] == "swabia"
    assert surprise in state["discard"] and surprise not in state["offer"]
    assert state["offer"][-1] == nxt
    assert any(f["kind"] == "m01_attack" for f in state["stack"])


def test_HRE_M01_RAIDER_04_a_Raider_card_leaving_the_offer_untaken(d20: list[int]) -> None:
    """HRE-M01-RAIDER-04 and HRE-M01-LORDLING-PASS-01: cycled out of the offer it applies its
    penalty; a Raider card you discard from your hand does nothing."""
    state = quiet(solo())
    ctx = Ctx(state)
    reinforce = _raider("reinforce", 2)
    _free(state, reinforce)
    state["offer"][0] = reinforce
    d20.append(9)  # penalty: a Raider type upgrades, cavalry
    culture.cycle_offer(ctx, "HRE-M01-LORDLING-PASS-01")
    assert state["m01"]["raider_levels"]["cavalry"] == 2 and reinforce in state["discard"]


def test_HRE_M01_RAIDER_03_you_take_Raider_cards_into_your_hand() -> None:
    """HRE-M01-RAIDER-03: Development of Culture takes a Raid or Reinforce card like any card."""
    state = quiet(solo())
    raid = _raider("raid")
    _free(state, raid)
    state["offer"][0] = raid
    slot = next(i for i, s in enumerate(state["slots"]) if s["action"] == "culture")
    state, _ = ENGINE.apply(state, 0, {"do": "noble", "slot": slot})
    state, _ = ENGINE.apply(state, 0, {"take": 0})
    assert raid in state["seats"][0]["hand"]


def test_HRE_M01_RAIDER_07_09_10_Target_upgrades_and_new_Raiders(d20: list[int]) -> None:
    """HRE-M01-RAIDER-07, HRE-M01-RAIDER-09, HRE-M01-RAIDER-10: losing the Target province picks a new one; "upgrade a Raider"
    and "add a Raider" roll the type like UPG-01."""
    state = quiet(solo())
    ctx = Ctx(state)
    _mine(state, "swabia", infantry=1)
    _mine(state, "franconia", infantry=1)
    state["m01"]["target"] = "swabia"
    state["prov"]["swabia"]["owner"] = None
    state["prov"]["swabia"]["units"] = dict.fromkeys(UNITS, 0)
    state["stack"] = [{"kind": "m01_attack", "seat": 0, "rule": "x"}]
    d20.extend([5, 3])  # the attack: d20 5 on the new Target (franconia)
    state["m01"]["party"]["units"]["infantry"] = 0
    m._attack_step(ctx, state["stack"][-1])
    assert state["m01"]["target"] == "franconia"
    d20.pop()
    d20.append(16)
    m.raider_effect(ctx, "upgrade_raider", "HRE-M01-RAIDER-09")
    assert state["m01"]["raider_levels"]["archer"] == 2
    d20.append(9)
    before = state["m01"]["party"]["units"]["cavalry"]
    m.raider_effect(ctx, "add_raider", "HRE-M01-RAIDER-10")
    assert state["m01"]["party"]["units"]["cavalry"] == before + 1


def test_HRE_M01_RAIDER_11_Target_on_your_Ruler_card_costs_5_VP() -> None:
    """HRE-M01-RAIDER-11: the Raiders attack with the Target on your Ruler card: -5 VP, not below 0."""
    state = quiet(solo())
    ctx = Ctx(state)
    state["m01"]["target"] = None
    for vp, after in ((7, 2), (3, 0)):
        state["seats"][0]["vp"] = vp
        state["stack"] = [{"kind": "m01_attack", "seat": 0, "rule": "x"}]
        m._attack_step(ctx, state["stack"][-1])
        assert state["seats"][0]["vp"] == after


def test_HRE_M01_RAIDER_12_RAIDATK_01_05_you_beat_the_Raiders(
    d20: list[int], dice: list[int]
) -> None:
    """HRE-M01-RAIDER-12 and HRE-M01-RAIDATK-01, HRE-M01-RAIDATK-05: on 1-15 the whole party attacks the Target;
    you win: +1 Gold, the party is emptied, then 2 new tokens join it."""
    state = quiet(solo(ruler="arnulf"))
    _mine(state, "swabia", infantry=3)
    state["m01"]["target"] = "swabia"
    state["box_tokens"] = sorted(state["box_tokens"] + state["m01"]["party"]["tokens"])
    state["m01"]["party"] = {"tokens": [], "units": {"infantry": 1, "archer": 0, "cavalry": 0}}
    gold = state["seats"][0]["gold"]
    state["stack"] = [{"kind": "m01_attack", "seat": 0, "rule": "x"}]
    d20.append(15)
    # Melee only: the Raider rolls 1 (miss); your three infantry roll 6, 6, 6.
    dice.extend([1, 6, 6, 6])
    _run(state)
    assert state["seats"][0]["gold"] == gold + 1
    assert (
        state["prov"]["swabia"]["owner"] == 0 and state["prov"]["swabia"]["units"]["infantry"] == 3
    )
    assert (
        len(state["m01"]["party"]["tokens"]) == 2
        and sum(state["m01"]["party"]["units"].values()) == 0
    )


def test_HRE_M01_RAIDER_12_on_16_or_more_the_neighbour_with_fewest_units(d20: list[int]) -> None:
    """HRE-M01-RAIDER-12: on 16-20 the attack goes to your non-Capital province next to the
    Target with the fewest units."""
    state = quiet(solo(ruler="arnulf"))
    ctx = Ctx(state)
    near = [
        q
        for q in neighbours(state, "swabia")
        if q != "bavaria" and state["prov"][q]["owner"] is None
    ]
    _mine(state, "swabia", infantry=1)
    _mine(state, near[0], infantry=2)
    _mine(state, near[1], infantry=1)
    state["m01"]["target"] = "swabia"
    state["stack"] = [{"kind": "m01_attack", "seat": 0, "rule": "x"}]
    d20.append(17)
    m._attack_step(ctx, state["stack"][-1])
    assert state["stack"][-1]["kind"] == "battle" and state["stack"][-1]["prov"] == near[1]
    assert state["stack"][-1]["raid"] == "defend"


def test_HRE_M01_RAIDATK_02_03_04_losing_a_province_to_the_Raiders(
    d20: list[int], dice: list[int]
) -> None:
    """HRE-M01-RAIDATK-02, HRE-M01-RAIDATK-03, HRE-M01-RAIDATK-04 (AMB-53): your City, Keep and buildings leave the game but
    the starting Production building; Farms go back; the surviving Raiders stay with a new
    Barbarian token, and join the Barbarians when you attack there later."""
    state = quiet(solo(ruler="arnulf"))
    here = state["prov"]["swabia"]
    _mine(state, "swabia")
    here.update(owner=0, city=True, keep=1, church=True, farms=1)
    here["bld"].append("wood")
    state["cities"] -= 1
    state["churches"] += 1
    state["seats"][0]["farms_track"] -= 1
    state["m01"]["target"] = "swabia"
    state["box_tokens"] = sorted(state["box_tokens"] + state["m01"]["party"]["tokens"])
    state["m01"]["party"] = {"tokens": [], "units": {"infantry": 2, "archer": 0, "cavalry": 0}}
    state["stack"] = [{"kind": "m01_attack", "seat": 0, "rule": "x"}]
    d20.append(1)
    # Defenders: a Transient infantry (Farm) and archer (City). Volley: your archer 1 (miss).
    # Melee: Raiders 6, 6 (two hits); yours 1, 1.
    dice.extend([1, 6, 6, 1, 1])
    _run(state)
    ENGINE.check_invariants(state)
    assert here["owner"] is None and not here["city"] and here["keep"] == 0 and not here["church"]
    assert here["bld"] == [load().provinces["swabia"]["resource"]]
    assert here["barb"] is not None and here["barb"]["face"] == "units"
    assert state["m01"]["leftovers"]["swabia"]["infantry"] == 2
    assert state["m01"]["boxed"] == {"cities": 1, "churches": 1}
    assert len(state["m01"]["party"]["tokens"]) == 2


def test_HRE_M01_RAIDER_13_a_Reinforce_card_turns_a_die(d20: list[int], dice: list[int]) -> None:
    """HRE-M01-RAIDER-13: after rolling, +1 on one of your dice, then the card is discarded."""
    state = quiet(solo(ruler="arnulf"))
    reinforce = _raider("reinforce", 3)
    _free(state, reinforce)
    state["seats"][0]["hand"].append(reinforce)
    _mine(state, "swabia", infantry=1)
    state["m01"]["target"] = "swabia"
    state["box_tokens"] = sorted(state["box_tokens"] + state["m01"]["party"]["tokens"])
    state["m01"]["party"] = {"tokens": [], "units": {"infantry": 1, "archer": 0, "cavalry": 0}}
    state["stack"] = [{"kind": "m01_attack", "seat": 0, "rule": "x"}]
    d20.append(2)
    dice.extend([1, 1])  # melee: the Raider 1; your infantry 3 (one short of 4)
    dice[1] = 3
    _run(state)
    assert state["stack"][-1]["kind"] == "m01_reinforce"
    options = ENGINE.prompts(state)[0]["options"]
    use = next(o["action"] for o in options if o["action"].get("die") is not None)
    state, _ = ENGINE.apply(state, 0, use)
    assert reinforce in state["discard"] and reinforce not in state["seats"][0]["hand"]


def test_HRE_M01_RAIDER_14_COUNTER_01_02_a_Raid_from_your_hand(
    d20: list[int], dice: list[int]
) -> None:
    """HRE-M01-RAIDER-14 and HRE-M01-COUNTER-01, HRE-M01-COUNTER-02: instead of a Noble, your units of one
    province fight the party; win: 1 Gold per Raider killed, a free unit per survivor, the party
    emptied and one new token."""
    state = quiet(solo(ruler="arnulf"))
    raid = _raider("raid")
    _free(state, raid)
    state["seats"][0]["hand"].append(raid)
    state["box_tokens"] = sorted(state["box_tokens"] + state["m01"]["party"]["tokens"])
    state["m01"]["party"] = {"tokens": [], "units": {"infantry": 1, "archer": 0, "cavalry": 0}}
    state["prov"]["bavaria"]["units"]["infantry"] = 3
    gold = state["seats"][0]["gold"]
    action = {"do": "m01_raid", "card": raid, "prov": "bavaria"}
    assert action in [o["action"] for o in ENGINE.prompts(state)[0]["options"]]
    discs = state["seats"][0]["discs"]
    dice.extend([6, 6, 6, 1])  # melee: your 6, 6, 6 ; the Raider 1
    state, _ = ENGINE.apply(state, 0, action)
    assert state["stack"][-1]["kind"] == "m01_raid_group"  # any number of them: you choose
    for _ in range(3):
        state, _ = ENGINE.apply(state, 0, {"add": "infantry"})  # the third attacks at once
    assert state["seats"][0]["discs"] == discs
    assert state["seats"][0]["gold"] == gold + 1
    assert state["prov"]["bavaria"]["units"]["infantry"] == 3
    assert len(state["m01"]["party"]["tokens"]) == 1 and raid in state["discard"]


def test_HRE_M01_COUNTER_03_a_failed_counterattack(d20: list[int], dice: list[int]) -> None:
    """HRE-M01-COUNTER-03: a tie is a loss; your survivors stay home, the Raiders on the card."""
    state = quiet(solo(ruler="arnulf"))
    raid = _raider("raid", 1)
    _free(state, raid)
    state["seats"][0]["hand"].append(raid)
    state["box_tokens"] = sorted(state["box_tokens"] + state["m01"]["party"]["tokens"])
    state["m01"]["party"] = {"tokens": [], "units": {"infantry": 1, "archer": 0, "cavalry": 0}}
    state["prov"]["bavaria"]["units"]["infantry"] = 1
    dice.extend([1, 1])  # nobody hits: 1 against 1, a tie
    state, _ = ENGINE.apply(state, 0, {"do": "m01_raid", "card": raid, "prov": "bavaria"})
    assert state["prov"]["bavaria"]["units"]["infantry"] == 1
    assert state["m01"]["party"]["units"]["infantry"] == 1


def _infantry_tokens(n: int) -> list[str]:
    """The Barbarian tokens of exactly n infantry and nothing else."""
    specs = load().token_specs
    return sorted(
        t
        for t in load().token_sets["barbarian"]
        if {u: k for u, k in specs[t]["units"].items() if k} == {"infantry": n}
    )


def _party_of(state: dict, tokens: list[str], **miniatures: int) -> None:
    """The Raiding Party holds exactly these tokens and Raider miniatures."""
    party = state["m01"]["party"]
    pool = sorted(set(state["box_tokens"]) | set(party["tokens"]))
    state["box_tokens"] = [t for t in pool if t not in tokens]
    state["m01"]["party"] = {
        "tokens": list(tokens),
        "units": {u: miniatures.get(u, 0) for u in UNITS},
    }


def test_HRE_M01_COUNTER_03_a_failed_counterattack_leaves_the_tokens_reduced(
    d20: list[int], dice: list[int]
) -> None:
    """HRE-M01-COUNTER-03 (AMB-79): the Raiders that survive a counterattack you lose stay on the
    card as the tokens they came on, each reduced by the losses; a token left with no unit goes
    back to the pool. Losses fall on the miniatures first, then on the newest token."""
    state = quiet(solo(ruler="arnulf"))
    ones, twos = _infantry_tokens(1), _infantry_tokens(2)
    assert ones and twos
    old, new = twos[0], ones[0]  # drawn in that order: the 1-infantry token is the newest
    _party_of(state, [old, new], infantry=1)
    assert m.party_units(state)["infantry"] == 4
    ctx = Ctx(state)
    m._party_losses(ctx, {"infantry": 1, "archer": 0, "cavalry": 0})  # 3 of 4 fell
    party = state["m01"]["party"]
    assert party["units"]["infantry"] == 0  # the miniature fell first
    assert party["tokens"] == [old] and new in state["box_tokens"]  # then the newest token
    assert party["lost"] == {old: {"infantry": 1}}  # the older one keeps 1 of its 2
    assert m.party_units(state) == {"infantry": 1, "archer": 0, "cavalry": 0}
    ENGINE.check_invariants(state)
    m._party_losses(ctx, {"infantry": 0, "archer": 0, "cavalry": 0})
    assert state["m01"]["party"]["tokens"] == [] and "lost" not in state["m01"]["party"]
    assert old in state["box_tokens"]
    ENGINE.check_invariants(state)


def test_HRE_M01_COUNTER_03_a_tie_keeps_the_token_on_the_card(
    d20: list[int], dice: list[int]
) -> None:
    """HRE-M01-COUNTER-03 (AMB-79): with no Raider killed the token stays whole on the card."""
    state = quiet(solo(ruler="arnulf"))
    token = _infantry_tokens(1)[0]
    _party_of(state, [token])
    raid = _raider("raid", 1)
    _free(state, raid)
    state["seats"][0]["hand"].append(raid)
    state["prov"]["bavaria"]["units"]["infantry"] = 1
    dice.extend([1, 1])  # nobody hits: 1 against 1, a tie
    state, _ = ENGINE.apply(state, 0, {"do": "m01_raid", "card": raid, "prov": "bavaria"})
    party = state["m01"]["party"]
    assert party["tokens"] == [token] and "lost" not in party
    assert token not in state["box_tokens"]


def test_HRE_M01_GEN_03_non_Transient_before_the_type_order() -> None:
    """HRE-M01-GEN-02, HRE-M01-GEN-03 (AMB-77): between two units alike in injury, Armour and
    level, the hit goes to the non-Transient one even where the type order would pick the other
    (a Transient archer against a non-Transient infantry)."""
    from rules.hre import battle

    state = quiet(solo(ruler="arnulf"))
    ctx = Ctx(state)
    mine = [battle._unit("archer", True, 0), battle._unit("infantry", False, 0)]
    assert battle._armour_left(ctx, mine[0]) == battle._armour_left(ctx, mine[1])
    assert battle.level(ctx, mine[0]) == battle.level(ctx, mine[1])
    assert battle.auto_target(ctx, mine, 2) == 1
    both = [battle._unit("infantry", False, 0), battle._unit("archer", False, 0)]
    assert battle.auto_target(ctx, both, 2) == 1  # both non-Transient: Archers before Infantry


def test_HRE_M01_RAIDATK_06_DIFF_10_hard_Raiders_upgrade_when_they_lose(
    d20: list[int], dice: list[int]
) -> None:
    """HRE-M01-RAIDATK-06 / HRE-M01-DIFF-10: on hard, a beaten Raiding Party upgrades a type."""
    state = quiet(solo(ruler="arnulf", difficulty="hard"))
    _mine(state, "swabia", infantry=3)
    state["m01"]["target"] = "swabia"
    state["box_tokens"] = sorted(state["box_tokens"] + state["m01"]["party"]["tokens"])
    state["m01"]["party"] = {"tokens": [], "units": {"infantry": 1, "archer": 0, "cavalry": 0}}
    state["stack"] = [{"kind": "m01_attack", "seat": 0, "rule": "x"}]
    d20.extend([3, 1])  # the attack hits the Target; the upgrade: infantry
    dice.extend([1, 6, 6, 6])
    _run(state)
    assert state["m01"]["raider_levels"]["infantry"] == 2


def test_HRE_M01_GEN_02_03_their_hits_on_you_by_the_solo_priority() -> None:
    """HRE-M01-GEN-02, HRE-M01-GEN-03: the Lordlings' hits on your units are assigned by the engine (an
    injured unit first, then the unit with less Armour left, non-Transient before Transient)."""
    state = quiet(solo(ruler="arnulf"))
    from rules.hre import battle, handlers

    mine = [
        battle._unit("cavalry", False, 0),
        battle._unit("infantry", True, 0),
        battle._unit("infantry", False, 0),
    ]
    mine[0]["d"] = 1  # an injured cavalry: killed first
    frame = {
        "kind": "battle",
        "seat": 0,
        "att": 0,
        "def": 1,
        "prov": "swabia",
        "origin": "bavaria",
        "token": None,
        "phase": 2,
        "stage": "assign1",
        "hits": [0, 2],
        "cancel": [0, 0],
        "rolls": [[], []],
        "sides": [mine, [battle._unit("infantry", False, 1)]],
    }
    state["stack"] = [frame, {"kind": "assign", "seat": 1, "side": 1}]
    ctx = Ctx(state)
    assert m._auto(ctx)
    assert mine[0]["p"] == 1 and state["stack"][-1] is frame
    state["stack"].append({"kind": "assign", "seat": 1, "side": 1})
    assert m._auto(ctx)
    assert mine[2]["p"] == 1 and mine[1]["p"] == 0  # the non-Transient infantry
    assert handlers.MACHINE.decisions["assign"] is not None


def test_HRE_M01_GEN_04_05_06_beaten_Lordlings_retreat_lose_Farms_and_Revanchism() -> None:
    """HRE-M01-GEN-04, HRE-M01-GEN-05, HRE-M01-GEN-06 (AMB-43): beaten, their survivors retreat to their neighbour with
    the fewest units, their Farm goes back to their track, and Revanchism puts an Infantry next
    to the lost province; no prompt is shown for them."""
    from rules.hre import battle, outcome

    state = quiet(solo(ruler="arnulf"))
    lost = "swabia"
    near = sorted(q for q in neighbours(state, lost) if q != "bavaria")[:2]
    for q in near:
        if state["prov"][q]["barb"]:
            state["box_tokens"] = sorted([*state["box_tokens"], state["prov"][q]["barb"]["token"]])
            state["prov"][q]["barb"] = None
    units(state, near[0], 1, infantry=2)
    units(state, near[1], 1, infantry=1)
    here = state["prov"][lost]
    if here["barb"]:
        state["box_tokens"] = sorted([*state["box_tokens"], here["barb"]["token"]])
        here["barb"] = None
    here.update(owner=1, farms=1)
    state["seats"][1]["farms_track"] -= 1
    track = state["seats"][1]["farms_track"]
    survivor = battle._unit("cavalry", False, 1)
    frame = {
        "kind": "battle",
        "seat": 0,
        "att": 0,
        "def": 1,
        "prov": lost,
        "origin": "bavaria",
        "token": None,
        "phase": 3,
        "stage": "result",
        "hits": [0, 0],
        "cancel": [0, 0],
        "rolls": [[], []],
        "m01_seen": True,
        "sides": [[battle._unit("infantry", False, 0) for _ in range(3)], [survivor]],
    }
    state["m01"]["lost_at"] = lost
    state["stack"] = []  # the battle step pops its frame before the outcome
    ctx = Ctx(state)
    outcome.resolve(ctx, frame)
    from rules.hre import handlers

    handlers.MACHINE.advance(ctx)
    assert here["owner"] == 0 and state["seats"][1]["farms_track"] == track + 1
    assert state["prov"][near[1]]["units"]["cavalry"] == 1  # to the neighbour with fewest units
    infantry = (
        state["prov"][near[0]]["units"]["infantry"] + state["prov"][near[1]]["units"]["infantry"]
    )
    assert infantry == 4  # 2 + 1 + one from Revanchism
    ENGINE.check_invariants(state)


def test_HRE_M01_RAIDER_14_you_may_send_only_some_units(d20: list[int], dice: list[int]) -> None:
    """HRE-M01-RAIDER-14: any number of your units in the one province: the rest stay home."""
    state = quiet(solo(ruler="arnulf"))
    raid = _raider("raid", 2)
    _free(state, raid)
    state["seats"][0]["hand"].append(raid)
    state["box_tokens"] = sorted(state["box_tokens"] + state["m01"]["party"]["tokens"])
    state["m01"]["party"] = {"tokens": [], "units": {"infantry": 1, "archer": 0, "cavalry": 0}}
    state["prov"]["bavaria"]["units"]["infantry"] = 3
    state, _ = ENGINE.apply(state, 0, {"do": "m01_raid", "card": raid, "prov": "bavaria"})
    state, _ = ENGINE.apply(state, 0, {"add": "infantry"})
    labels = [o["label"] for o in ENGINE.prompts(state)[0]["options"]]
    assert "Attack the Raiding Party with these 1 unit" in labels
    dice.extend([6, 1])  # melee: yours 6, the Raider 1
    state, _ = ENGINE.apply(state, 0, {"add": None})
    assert state["prov"]["bavaria"]["units"]["infantry"] == 3  # 2 stayed, 1 came back
    assert sum(state["m01"]["party"]["units"].values()) == 0
