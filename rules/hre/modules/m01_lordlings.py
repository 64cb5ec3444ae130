"""Module 1, Lordlings and Raiders: the solo game against the Lordlings automa (HRE-M01).

The human is seat 0. The Lordlings sit in seat 1, a seat the engine plays itself: their turns,
Passes, reactions, retreats and hit assignments are the engine's own rules, each logged with
its rule id, and no prompt is ever shown for them. The state keeps the 2-player tables
(`players` 2: 11 Cities, 6 discs, the 7th Church) over the solo map (`map_players` 1, SETUP-07:
every province but the 8 with the solo icon, whatever their player-count marking),
and the module's own pieces under "m01": the Lordling deck and discard, Preparation tokens,
their face-down Common Technologies, the Raiding Party, the Raider levels and the Target.

Data in `data/m01_lordlings.json`; what the book does not give is authored and marked so there
(§2.8, §2.10). Ambiguities follow rules-hre.md §4 (AMB-40..55), cited where they apply.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from rules.core import rng
from rules.core.engine import Option, Result, State
from rules.core.errors import InvariantError
from rules.core.machine import Extension
from rules.hre import battle, culture, flow, handlers, modules, passing, scoring, setup, titles
from rules.hre.components import DATA_DIR, SOLO, in_play
from rules.hre.economy import move_culture
from rules.hre.handlers import option
from rules.hre.modules import declare, hook, option_value, part, plays
from rules.hre.state import (
    UNITS,
    Ctx,
    Frame,
    controlled,
    data,
    in_supply,
    neighbours,
    on_board,
    refresh_owner,
    token_sets,
    unit_count,
)

HUMAN, LORDLINGS = 0, 1
DIFFICULTIES = ("normal", "easy", "hard")
ACTION_NAMES = flow.ACTION_NAMES
# Tie-break order for the Lordling Recruit (LORDLING-RECRUIT-01).
RECRUIT_ORDER = ("infantry", "archer", "cavalry")


@cache
def solo_data() -> dict[str, Any]:
    """The module's data file, checked once (the Raider cards are checked with the Culture cards)."""
    raw: dict[str, Any] = json.loads((DATA_DIR / "m01_lordlings.json").read_text("utf-8"))
    return raw


@hook
def validate() -> None:
    """Check the module's own data against every number the book gives (COMP-01..03, §2.8)."""
    raw = solo_data()
    kinds = [c["kind"] for c in raw["lordling_cards"]]
    expected = ["research", "recruit", "manoeuvre", "culture", "build", "settle", "persevere"]
    if (
        len(kinds) != 9
        or kinds.count("persevere") != 2
        or sorted(set(kinds)) != sorted([*expected, "rush"])
    ):
        raise ValueError("m01_lordlings.json: the 9 Lordling cards are one of each, 2 Persevere")
    raiders = [c["kind"] for c in raw["cards"]]
    if (raiders.count("reinforce"), raiders.count("raid"), raiders.count("surprise")) != (7, 5, 6):
        raise ValueError("m01_lordlings.json: 18 Raider cards are 7 Reinforce, 5 Raid, 6 Surprise")
    for mode, piles in raw["raider_split"].items():
        if len(piles) != 5:
            raise ValueError(f"m01_lordlings.json: the {mode} split has 5 piles")
    totals = {
        k: sum(p.get(k, 0) for p in raw["raider_split"]["normal"])
        for k in ("reinforce", "raid", "surprise")
    }
    if totals != {"reinforce": 5, "raid": 3, "surprise": 3}:
        raise ValueError("m01_lordlings.json: the normal split is 5 Reinforce, 3 Raid, 3 Surprise")
    barbarian = data().barbarian_units
    for unit in UNITS:
        for side in ("lordling_units", "raider_units"):
            if len(raw[side][unit]) != 4:
                raise ValueError(f"m01_lordlings.json: {side}.{unit} has 4 levels")
        if raw["raider_units"][unit][0] != barbarian[unit]:
            raise ValueError(f"m01_lordlings.json: Raider {unit} level 1 is the Barbarian row")
        if raw["lordling_units"][unit][0] != {
            k: v for k, v in data().board["units"][unit].items() if k != "cost"
        }:
            raise ValueError(f"m01_lordlings.json: Lordling {unit} level 1 is the printed row")
    if len(raw["farm_track_vp"]) != data().board["farms_per_player"]:
        raise ValueError("m01_lordlings.json: the Lordling Farm track has a space per Farm")


def _roll(table: list[dict[str, Any]], value: int) -> dict[str, Any]:
    return next(row for row in table if row["from"] <= value <= row["to"])


def d20(ctx: Ctx) -> int:
    """The solo d20 (GEN-07)."""
    return rng.below(ctx.s, 20) + 1


def pick(ctx: Ctx, candidates: list[str]) -> str:
    """A uniform random pick among sorted candidates: the d20 reroll until valid (GEN-07)."""
    ordered = sorted(candidates)
    return ordered[rng.below(ctx.s, len(ordered))] if len(ordered) > 1 else ordered[0]


m01 = part("m01")


def difficulty(state: State) -> str:
    return str(option_value(state, "difficulty"))


def hard(state: State) -> bool:
    return difficulty(state) == "hard"


# --------------------------------------------------------------------------- set-up


@hook
def new_state(seed: int, config: dict[str, Any], players: int) -> State:
    """A 2-player set-up with the solo changes (SETUP-01..18); the human drafts first."""
    state = setup.new_state(seed, {**config, "modules": []}, 2)
    state["map_players"] = SOLO  # markings ignored, solo-icon provinces blocked (SETUP-07)
    state["start"] = LORDLINGS  # the Lordlings take the first turn (SETUP-18)
    state["stack"] = [{"kind": "m01_setup", "seat": HUMAN}, {"kind": "draft", "seat": HUMAN}]
    state["rulers_open"] = sorted(r for r, spec in data().rulers.items() if spec["module"] is None)
    lord = state["seats"][LORDLINGS]
    lord["name"] = "the Lordlings"
    lord["gold"], lord["res"] = 0, dict.fromkeys(lord["res"], 0)  # no Gold or resources (SETUP-02)
    lord["levels"] = {u: {"level": 1, "stats": solo_data()["lordling_units"][u][0]} for u in UNITS}
    return state


def _setup_ruler_note(ctx: Ctx) -> None:
    ctx.log("HRE-M01-SETUP-05", "You choose any Ruler; the Lordlings draw three of the rest.")


@handlers.step("m01_setup")
def _m01_setup(ctx: Ctx, frame: Frame) -> None:
    """Everything after your Ruler is chosen (SETUP-02..18)."""
    s, d = ctx.s, ctx.d
    s["stack"].pop()
    _setup_ruler_note(ctx)
    rest = list(s["rulers_open"])
    rng.shuffle(s, rest)
    lordling_rulers = sorted(rest[:3])
    s["rulers_open"] = []
    human_capital = d.rulers[s["seats"][HUMAN]["ruler"]]["capital"]
    homes = {d.rulers[r]["capital"] for r in lordling_rulers}
    s["cities"] = int(d.board["cities"]["2"]) - 1 - len(homes)  # 11 - 1 - 3 = 7 (SETUP-06)
    sets = token_sets(s)
    tokens = list(d.token_sets[sets[0]])
    rng.shuffle(s, tokens)
    for pid in sorted(in_play(d.provinces, SOLO)):
        here = setup.empty_province(pid)
        if pid == human_capital:
            here.update(owner=HUMAN, farms=1, city=True)
            here["units"]["infantry"] = int(d.board["start_infantry"])
        elif pid in homes:
            here.update(owner=LORDLINGS, farms=1, city=True)  # no units (AMB-40)
        else:
            here["barb"] = {"token": tokens.pop(), "face": "reward" if rng.below(s, 2) else "units"}
        s["prov"][pid] = here
    ctx.log(
        "HRE-M01-SETUP-06",
        "The Lordlings start in "
        + ", ".join(d.provinces[p]["name"] for p in sorted(homes))
        + " with a City and a Farm each; 7 Cities are left in the supply.",
    )
    box = in_play(d.provinces, 4)  # this box's map (Module 2's western half is another box)
    blocked = sorted(d.provinces[p]["name"] for p in box - in_play(d.provinces, SOLO))
    ctx.log(
        "HRE-M01-SETUP-07",
        "Provinces marked for 3 or 4 players are in play; those with the solo icon are blocked: "
        + ", ".join(blocked)
        + ".",
    )
    ctx.log("HRE-M01-SETUP-08", "A Barbarian token lies in every other province.")
    lord = ctx.seat(LORDLINGS)
    lord["farms_track"] = int(d.board["farms_per_player"]) - len(homes)  # SETUP-03
    solo = solo_data()
    lordling_deck = [c["id"] for c in solo["lordling_cards"]]
    rng.shuffle(s, lordling_deck)
    # With Skirmishers on the map the Raiding Party still takes Barbarian tokens (HRE-M07-SOLO-01):
    # the other sets wait in the same pool, and each draw takes from the set it needs.
    if len(sets) == 1:
        party_token = tokens.pop()
        s["box_tokens"] = sorted(tokens)  # the face-down draw pool (AMB-41)
    else:
        s["box_tokens"] = sorted(tokens + [t for name in sets[1:] for t in d.token_sets[name]])
        drawn = _pool_draw(ctx, "barbarian")
        assert drawn is not None  # every Barbarian token is in the pool
        party_token = drawn
    s["m01"] = {
        "deck": lordling_deck,
        "discard": [],
        "prep": {"research": False, "manoeuvre": False},
        "techs": [],
        "party": {"tokens": [party_token], "units": dict.fromkeys(UNITS, 0)},
        "raider_levels": dict.fromkeys(UNITS, 1),
        "target": None,  # the Raiding Target marker (a Warehouse marker in the box, AMB-70)
        "rush": False,
        "final_attack": False,
        "boxed": {"cities": 0, "churches": 0},
    }
    ctx.log("HRE-M01-SETUP-09", "The 9 Lordling cards are shuffled into their deck.")
    ctx.log("HRE-M01-SETUP-10", "The Lordlings take 6 Noble discs and 2 Preparation tokens.")
    ctx.log("HRE-M01-SETUP-16", "A Barbarian token goes onto the Raiding Party, unit side up.")
    _deal_solo_culture(ctx)
    s["titles"] = {
        t: {"holder": None, "ready": True, "established": False}
        for t in sorted(d.titles)
        if d.titles[t]["players"] <= 4  # every Title of this box (not Module 2's western half)
    }  # every Title, 3+ and 4 ones included (SETUP-04)
    lord["discs"] -= 1
    lord["exhausted"] += 1
    ctx.log("HRE-M01-SETUP-18", "The Lordlings go first and exhaust one Noble disc.")
    flow.start_turn(ctx, LORDLINGS)


def _deal_solo_culture(ctx: Ctx) -> None:
    """Culture cards marked 2+, split in 5 piles, Raider cards shuffled in (SETUP-11..13)."""
    s, d = ctx.s, ctx.d
    deck = sorted(
        c
        for c, spec in d.cards.items()
        if spec["players"] <= 2 and spec["starting"] is None and spec["module"] is None
    )
    rng.shuffle(s, deck)
    modules.deck_built(ctx, deck)  # module cards go in before the piles (SETUP-11)
    raiders = {k: [] for k in ("reinforce", "raid", "surprise")}  # type: dict[str, list[str]]
    for c, spec in sorted(d.cards.items()):
        if spec["type"] == "raider":
            raiders[spec["kind"]].append(c)
    for kind in raiders:
        rng.shuffle(s, raiders[kind])
    split = solo_data()["raider_split"]["hard" if hard(s) else "normal"]
    size, extra = divmod(len(deck), 5)
    piles, at = [], 0
    for i in range(5):
        n = size + (1 if i < extra else 0)
        pile = deck[at : at + n]
        at += n
        for kind, count in sorted(split[i].items()):
            pile += [raiders[kind].pop() for _ in range(count)]
        rng.shuffle(s, pile)
        piles.append(pile)
    # The deck is drawn from its end: pile 1 must end up last in the list (on top).
    s["deck"] = [c for pile in reversed(piles) for c in pile]
    s["cards_in_game"] = len(s["deck"]) + sum(len(seat["hand"]) for seat in s["seats"])
    s["cards_in_game"] += len(modules.held(s, "cards"))  # dealt by a module (HRE-M13A-SOLO-02)
    ctx.log(
        "HRE-M01-SETUP-12",
        "The Culture deck is split in 5 piles and the Raider cards are shuffled into them"
        + (" (the hard split, DIFF-03)." if hard(s) else "."),
    )
    for _ in range(int(d.board["offer_size"])):
        culture.refill(ctx)


# --------------------------------------------------------------------------- helpers


def human_distance(state: State) -> dict[str, int]:
    """Manoeuvre steps from the nearest province you control (GEN-08), breadth first."""
    dist = {p: 0 for p in controlled(state, HUMAN)}
    frontier = sorted(dist)
    while frontier:
        nxt = []
        for p in frontier:
            for q in neighbours(state, p):
                if q not in dist:
                    dist[q] = dist[p] + 1
                    nxt.append(q)
        frontier = sorted(nxt)
    return dist


def closest(ctx: Ctx, candidates: list[str], *keys: Callable[[str], int]) -> str:
    """Closest to you, then each further key (smaller first), then at random (GEN-07, -08)."""
    dist = human_distance(ctx.s)
    far = 10_000

    def key(p: str) -> tuple[int, ...]:
        return (dist.get(p, far), *(k(p) for k in keys))

    best = min(key(p) for p in candidates)
    return pick(ctx, [p for p in candidates if key(p) == best])


def lordling_units_in(state: State, prov: str) -> int:
    here = state["prov"][prov]
    return unit_count(here["units"]) if here["owner"] == LORDLINGS else 0


def gain_cp(ctx: Ctx, points: int, rule: str, why: str) -> None:
    """Move the Lordling Culture marker; a red space gives them nothing but is gone for you."""
    start, end, reds = move_culture(ctx, LORDLINGS, points)
    ctx.log(rule, f"The Lordlings gain {points} Culture Points{why} (track {start} → {end}).")
    for pos in reds:
        if hard(ctx.s):
            ctx.seat(LORDLINGS)["vp"] += 2
            ctx.log("HRE-M01-DIFF-06", f"The Lordlings reach red space {pos} first: +2 VP.")
        else:
            ctx.log(
                "HRE-M01-GEN-09", f"The Lordlings reach red space {pos} first: its Gold is gone."
            )


def gain_vp(ctx: Ctx, vp: int, rule: str, why: str) -> None:
    ctx.seat(LORDLINGS)["vp"] += vp
    ctx.log(rule, f"The Lordlings score {vp} VP{why}.")


def upgrade(ctx: Ctx, side: str, unit: str | None = None, rule: str = "HRE-M01-UPG-01") -> None:
    """Raise a Lordling or Raider unit type a level; the type by d20 unless given (UPG-01, AMB-46).

    A roll landing on a type already at level 4 is rolled again; with every type at 4 nothing
    happens.
    """
    levels = _levels(ctx.s, side)
    if unit is None:
        if all(levels[u] >= 4 for u in UNITS):
            ctx.log("HRE-M01-UPG-02", f"Every {side} unit type is at level 4: no upgrade.")
            return
        while True:
            roll = d20(ctx)
            unit = _roll(solo_data()["upgrade_roll"], roll)["unit"]
            if levels[unit] < 4:
                break
    elif levels[unit] >= 4:
        ctx.log("HRE-M01-UPG-02", f"The {side} {unit} is already at level 4.")
        return
    _set_level(ctx.s, side, unit, levels[unit] + 1)
    ctx.log(rule, f"The {side} {unit} goes up to level {levels[unit] + 1}.")


def _levels(state: State, side: str) -> dict[str, int]:
    if side == "Lordling":
        lv = state["seats"][LORDLINGS]["levels"]
        return {u: int(lv[u]["level"]) for u in UNITS}
    return dict(m01(state)["raider_levels"])


def _set_level(state: State, side: str, unit: str, level: int) -> None:
    if side == "Lordling":
        state["seats"][LORDLINGS]["levels"][unit] = {
            "level": level,
            "stats": solo_data()["lordling_units"][unit][level - 1],
        }
    else:
        m01(state)["raider_levels"][unit] = level


def place_disc(ctx: Ctx, action: str) -> None:
    """A Lordling Noble disc on an Action card; it stacks like anyone's (LORDLING-TURN-03).

    A Persevere can repeat an action after their last disc is down: the action still happens,
    with no disc to place (the book is silent; the effect is the card's point).
    """
    if ctx.seat(LORDLINGS)["discs"] == 0:
        ctx.log(
            "HRE-M01-LORDLING-TURN-03",
            f"No Lordling Noble is left to place on {ACTION_NAMES[action]}.",
        )
        return
    slot = next(s for s in ctx.s["slots"] if s["action"] == action)
    slot["stack"].append(LORDLINGS)
    ctx.seat(LORDLINGS)["discs"] -= 1
    ctx.log("HRE-M01-LORDLING-TURN-03", f"The Lordlings place a Noble on {ACTION_NAMES[action]}.")


def farm_vp(state: State) -> int:
    """The highest visible VP of the Lordling Farm track (authored, like yours)."""
    track = solo_data()["farm_track_vp"]
    return int(track[len(track) - 1 - state["seats"][LORDLINGS]["farms_track"]])


# --------------------------------------------------------------------------- the Lordling turn


@hook
def _turn_start(ctx: Ctx, seat: int, extra: int) -> bool:
    if seat != LORDLINGS:
        return False
    ctx.s["active"] = LORDLINGS
    ctx.push({"kind": "turn_end", "seat": LORDLINGS, "phase": "react", "extra": 0})
    ctx.push({"kind": "m01_turn", "seat": LORDLINGS})
    return True


@handlers.once("m01_turn")
def _lordling_turn(ctx: Ctx, frame: Frame) -> None:
    """With no disc they Pass; else the top Lordling card is drawn and resolved (TURN-01)."""
    if ctx.seat(LORDLINGS)["discs"] == 0:
        ctx.log("HRE-M01-LORDLING-TURN-01", "The Lordlings have no Noble disc left: they Pass.")
        lordling_pass(ctx)
        return
    draw_and_resolve(ctx)


def lordling_pass(ctx: Ctx, rush: bool = False) -> None:
    m01(ctx.s)["rush"] = rush
    passing.push(ctx, LORDLINGS, "final" if ctx.s["end_triggered"] else "normal")


def draw_and_resolve(ctx: Ctx) -> None:
    """Draw the top Lordling card and resolve it; an empty deck means a Pass (AMB-47)."""
    solo = m01(ctx.s)
    if not solo["deck"]:
        ctx.log("HRE-M01-LORDLING-TURN-05", "The Lordling deck is empty: they Pass.")
        lordling_pass(ctx)
        return
    card = solo["deck"].pop()
    kind = CARD_KIND[card]
    ctx.log("HRE-M01-LORDLING-TURN-01", f"The Lordlings draw {CARD_NAME[card]}.")
    RESOLVE[kind](ctx, card)


def _discard(ctx: Ctx, card: str) -> None:
    m01(ctx.s)["discard"].append(card)  # face up, in order (TURN-02)


def _prepared(ctx: Ctx, card: str | None, action: str) -> bool:
    """Discard the card; without a Preparation token beside the action, lay one and stop there;
    with one, spend it and place a disc (RESEARCH-02, MANOEUVRE-02)."""
    if card is not None:
        _discard(ctx, card)
    prep = m01(ctx.s)["prep"]
    prep[action] = not prep[action]
    if prep[action]:
        ctx.log(
            f"HRE-M01-LORDLING-{action.upper()}-02",
            f"A Preparation token goes beside {action.capitalize()}.",
        )
        return False
    place_disc(ctx, action)
    return True


def _research(ctx: Ctx, card: str | None) -> None:
    """Research with a Preparation token: a disc and a d20; without: a token (RESEARCH-01, -02)."""
    if not _prepared(ctx, card, "research"):
        return
    roll = d20(ctx)
    do = _roll(solo_data()["research_roll"], roll)["do"]
    if do == "cp":
        gain_cp(ctx, 3, "HRE-M01-LORDLING-RESEARCH-01", f" (Research, d20 {roll})")
    elif do == "upgrade":
        ctx.log(
            "HRE-M01-LORDLING-RESEARCH-01",
            f"Research: the d20 shows {roll}, a Lordling unit upgrades.",
        )
        upgrade(ctx, "Lordling")
    else:
        techs = len(m01(ctx.s)["techs"])
        gain_vp(ctx, 2 + techs, "HRE-M01-LORDLING-RESEARCH-01", f" (Research, d20 {roll})")


def recruit_unit(ctx: Ctx, rule: str) -> None:
    """One Lordling unit of their scarcest type where it is closest to you (RECRUIT-01..03)."""
    s = ctx.s
    levels = _levels(s, "Lordling")
    order = sorted(
        UNITS,
        key=lambda u: (on_board(s, LORDLINGS, u), -levels[u], RECRUIT_ORDER.index(u)),
    )
    unit = next((u for u in order if in_supply(s, LORDLINGS, u) > 0), None)
    places = controlled(s, LORDLINGS)
    if unit is None or not places:
        ctx.log(rule, "No Lordling unit can be placed.")
        return
    prov = closest(ctx, places, lambda p: lordling_units_in(s, p))
    s["prov"][prov]["units"][unit] += 1
    ctx.log(rule, f"The Lordlings recruit a {unit} in {ctx.d.provinces[prov]['name']}.")
    roll = d20(ctx)
    if roll >= 16:
        ctx.log(
            "HRE-M01-LORDLING-RECRUIT-03", f"The d20 shows {roll}: the recruited type upgrades."
        )
        upgrade(ctx, "Lordling", unit)


def _recruit(ctx: Ctx, card: str | None) -> None:
    if card is not None:
        _discard(ctx, card)
    place_disc(ctx, "recruit")
    recruit_unit(ctx, "HRE-M01-LORDLING-RECRUIT-01")


def _manoeuvre(ctx: Ctx, card: str | None) -> None:
    """With a token: a disc, and a Barbarian token next to them becomes a Lordling Infantry."""
    if not _prepared(ctx, card, "manoeuvre"):
        return
    s = ctx.s
    near = {q for p in controlled(s, LORDLINGS) for q in neighbours(s, p)}
    tokens = [q for q in near if s["prov"][q]["barb"] is not None]
    empty = [q for q in near if s["prov"][q]["owner"] is None and s["prov"][q]["barb"] is None]
    candidates = tokens or empty  # AMB-49
    if not candidates or in_supply(s, LORDLINGS, "infantry") == 0:
        ctx.log("HRE-M01-LORDLING-MANOEUVRE-01", "No province to take: the disc has no effect.")
        return
    prov = pick(ctx, candidates)
    here = s["prov"][prov]
    if here["barb"] is not None:
        # Back to the face-down pool (AMB-41); a Skirmisher goes back among the Skirmishers,
        # since every draw takes from the set it needs (AMB-78).
        s["box_tokens"] = sorted([*s["box_tokens"], here["barb"]["token"]])
        here["barb"] = None
    here["owner"] = LORDLINGS
    here["units"]["infantry"] += 1
    ctx.log(
        "HRE-M01-LORDLING-MANOEUVRE-01",
        f"The Lordlings take {ctx.d.provinces[prov]['name']} with an Infantry; no battle.",
    )


def take_card(ctx: Ctx, index: int, rule: str) -> None:
    """The Lordlings take an offer card and use it by its type (LORDLING-DEV-01..07)."""
    s = ctx.s
    card = s["offer"].pop(index)
    spec = ctx.d.cards[card]
    ctx.log(rule, f"The Lordlings take {spec['name']} from the offer.")
    kind = spec["type"]
    if modules.card_taken(ctx, LORDLINGS, card):
        pass  # a module's card, used by that module's solo rule (Benjamin: HRE-M13A-SOLO-01)
    elif kind == "common_tech":
        m01(s)["techs"].append(card)
        ctx.log("HRE-M01-LORDLING-DEV-02", "It goes face down on their Technology pile.")
    else:
        s["discard"].append(card)
        if kind == "military_tech":
            ctx.log("HRE-M01-LORDLING-DEV-03", "A Military Technology: a Lordling unit upgrades.")
            upgrade(ctx, "Lordling")
        elif kind == "relic":
            _church(ctx, "HRE-M01-LORDLING-DEV-04")
        elif kind == "cognomen":
            vp = 10 if hard(s) else 5
            gain_vp(
                ctx,
                vp,
                "HRE-M01-DIFF-07" if hard(s) else "HRE-M01-LORDLING-DEV-05",
                " for a Cognomen",
            )
        elif kind == "grand_building":
            gain_vp(ctx, 10 if hard(s) else 5, "HRE-M01-LORDLING-DEV-07", " for a Grand Building")
        elif kind == "raider":
            ctx.log("HRE-M01-LORDLING-DEV-06", "A Raider card taken by them: its penalty applies.")
            raider_penalty(ctx, card)
    culture.refill(ctx)


def _culture(ctx: Ctx, card: str | None) -> None:
    if card is not None:
        _discard(ctx, card)
    place_disc(ctx, "culture")
    reach = min(_accessible(ctx), len(ctx.s["offer"]))
    if reach == 0:
        ctx.log("HRE-M01-LORDLING-DEV-01", "No card is in reach: the disc has no effect.")
        return
    take_card(ctx, reach - 1, "HRE-M01-LORDLING-DEV-01")


def _accessible(ctx: Ctx) -> int:
    from rules.hre.economy import accessible

    return accessible(ctx, LORDLINGS)


def _church_places(ctx: Ctx) -> list[str]:
    s = ctx.s
    if s["churches"] >= ctx.d.board["church_track"]["spaces"]:
        return []
    return [
        p for p in controlled(s, LORDLINGS) if s["prov"][p]["city"] and not s["prov"][p]["church"]
    ]


def _church(ctx: Ctx, rule: str) -> bool:
    """A Church where it scores most, random among ties (DEV-04, BUILD-05)."""
    places = _church_places(ctx)
    if not places:
        ctx.log(rule, "No Church can be placed: nothing happens.")
        return False
    s = ctx.s

    def gain(p: str) -> int:
        here = s["prov"][p]
        before = scoring.city_vp(ctx, p)
        here["church"] = True
        after = scoring.city_vp(ctx, p)
        here["church"] = False
        return after - before

    best = max(gain(p) for p in places)
    prov = pick(ctx, [p for p in places if gain(p) == best])
    s["prov"][prov]["church"] = True
    s["churches"] += 1
    ctx.log(rule, f"The Lordlings build a Church in {ctx.d.provinces[prov]['name']}.")
    modules.church_built(ctx, LORDLINGS, prov)
    return True


def _build_choices(ctx: Ctx) -> dict[str, list[str]]:
    s = ctx.s
    mine = controlled(s, LORDLINGS)
    farms_left = s["seats"][LORDLINGS]["farms_track"] > 0
    return {
        "city": [p for p in mine if not s["prov"][p]["city"]] if s["cities"] > 0 else [],
        "keep": [p for p in mine if s["prov"][p]["city"] and s["prov"][p]["keep"] < 3],
        "farm": [p for p in mine if s["prov"][p]["farms"] == 1] if farms_left else [],
        "church": _church_places(ctx),
    }


def _build(ctx: Ctx, card: str | None) -> None:
    """d20 until a valid result; none valid: no disc, and they Pass (BUILD-01..06)."""
    if card is not None:
        _discard(ctx, card)
    s = ctx.s
    choices = _build_choices(ctx)
    if not any(choices.values()):
        ctx.log("HRE-M01-LORDLING-BUILD-01", "Nothing can be built: the Lordlings Pass instead.")
        lordling_pass(ctx)
        return
    place_disc(ctx, "build")
    while True:
        roll = d20(ctx)
        do = _roll(solo_data()["build_roll"], roll)["do"]
        if choices[do]:
            break
    mine = s["prov"]
    if do == "city":
        prov = closest(ctx, choices["city"])
        mine[prov]["city"] = True
        s["cities"] -= 1
        ctx.log(
            "HRE-M01-LORDLING-BUILD-02",
            f"The d20 shows {roll}: a Lordling City in {ctx.d.provinces[prov]['name']}.",
        )
        gain_cp(ctx, 2, "HRE-M01-LORDLING-BUILD-02", " for the City")
    elif do == "keep":

        def around(p: str) -> int:
            return -sum(1 for q in neighbours(s, p) if mine[q]["owner"] == LORDLINGS)

        best = min(around(p) for p in choices["keep"])
        prov = closest(ctx, [p for p in choices["keep"] if around(p) == best])
        mine[prov]["keep"] += 1
        ctx.log(
            "HRE-M01-LORDLING-BUILD-03",
            f"The d20 shows {roll}: a Keep level in {ctx.d.provinces[prov]['name']} (now {mine[prov]['keep']}).",
        )
    elif do == "farm":
        prov = closest(ctx, choices["farm"])
        mine[prov]["farms"] += 1
        s["seats"][LORDLINGS]["farms_track"] -= 1
        ctx.log(
            "HRE-M01-LORDLING-BUILD-04",
            f"The d20 shows {roll}: a second Farm in {ctx.d.provinces[prov]['name']}.",
        )
    else:
        ctx.log("HRE-M01-LORDLING-BUILD-05", f"The d20 shows {roll}: a Church.")
        _church(ctx, "HRE-M01-LORDLING-BUILD-05")


def _settle(ctx: Ctx, card: str | None) -> None:
    """No disc: the leftmost Farm where they have none; else another card (SETTLE-01, -02)."""
    s = ctx.s
    if card is not None:
        _discard(ctx, card)
    places = [p for p in controlled(s, LORDLINGS) if s["prov"][p]["farms"] == 0]
    if not places or s["seats"][LORDLINGS]["farms_track"] == 0:
        ctx.log("HRE-M01-LORDLING-SETTLE-02", "No Farm can be placed: another card is drawn.")
        draw_and_resolve(ctx)
        return
    prov = pick(ctx, places)
    s["prov"][prov]["farms"] += 1
    s["seats"][LORDLINGS]["farms_track"] -= 1
    ctx.log(
        "HRE-M01-LORDLING-SETTLE-01",
        f"The Lordlings settle a Farm in {ctx.d.provinces[prov]['name']}.",
    )


def _persevere(ctx: Ctx, card: str | None) -> None:
    """The topmost other card of the discard again; none: another card, then shuffle this in."""
    solo = m01(ctx.s)
    again = next(
        (c for c in reversed(solo["discard"]) if CARD_KIND[c] not in ("persevere", "settle")), None
    )
    if again is None:
        ctx.log("HRE-M01-LORDLING-PERSEVERE-02", "Nothing to repeat: another card is drawn.")
        draw_and_resolve(ctx)
        if card is not None:
            solo["deck"].append(card)
            rng.shuffle(ctx.s, solo["deck"])
            ctx.log("HRE-M01-LORDLING-PERSEVERE-02", "Persevere is shuffled into the deck.")
        return
    if card is not None:
        _discard(ctx, card)
    ctx.log("HRE-M01-LORDLING-PERSEVERE-01", f"Persevere: {CARD_NAME[again]} is resolved again.")
    RESOLVE[CARD_KIND[again]](ctx, None)


def _rush(ctx: Ctx, card: str | None) -> None:
    """With 2 or fewer discs they Pass, half a Region enough for Titles (RUSH-01, AMB-47)."""
    if card is not None:
        _discard(ctx, card)
    if ctx.seat(LORDLINGS)["discs"] <= 2:
        ctx.log("HRE-M01-LORDLING-RUSH-01", "Rush: the Lordlings Pass.")
        lordling_pass(ctx, rush=True)
    elif option_value(ctx.s, "rush_with_discs") == "draw":
        ctx.log(
            "HRE-M01-LORDLING-TURN-05", "Rush with 3+ discs: another card (the variant chosen)."
        )
        draw_and_resolve(ctx)
    else:
        ctx.log("HRE-M01-LORDLING-TURN-05", "Rush with 3 or more discs: nothing happens.")


RESOLVE: dict[str, Callable[[Ctx, str | None], None]] = {
    "research": _research,
    "recruit": _recruit,
    "manoeuvre": _manoeuvre,
    "culture": _culture,
    "build": _build,
    "settle": _settle,
    "persevere": _persevere,
    "rush": _rush,
}
CARD_KIND: dict[str, str] = {c["id"]: c["kind"] for c in solo_data()["lordling_cards"]}
CARD_NAME: dict[str, str] = {c["id"]: c["name"] for c in solo_data()["lordling_cards"]}


# --------------------------------------------------------------------------- the Lordling Pass


@hook
def _push_pass(ctx: Ctx, seat: int, mode: str) -> bool:
    if seat != LORDLINGS:
        return False
    ctx.push({"kind": "m01_pass", "seat": LORDLINGS, "mode": mode, "next": 0})
    return True


# Steps by Pass kind: normal, the immediate one at the trigger (no step 1, AMB-54) and the final
# one (steps 1-3, then out; AMB-54).
PASS_STEPS = {"normal": (1, 2, 3, 4, 5, 6), "immediate": (2, 3, 4, 5, 6), "final": (1, 2, 3, 7)}


@handlers.step("m01_pass")
def _lordling_pass_step(ctx: Ctx, frame: Frame) -> None:
    number = passing.next_step(ctx, frame, PASS_STEPS[frame["mode"]])
    if number is None:
        return
    if frame["next"] == 1:
        ctx.log("HRE-M01-LORDLING-PASS-01", f"The Lordlings Pass ({frame['mode']}).")
        if frame["mode"] == "immediate" and hard(ctx.s) and not m01(ctx.s)["final_attack"]:
            m01(ctx.s)["final_attack"] = True
            ctx.log("HRE-M01-DIFF-08", "Hard: the Raiders attack as soon as the end is triggered.")
            raiders_attack(ctx, "HRE-M01-DIFF-08")
            frame["next"] -= 1
            return
    s, solo, lord = ctx.s, m01(ctx.s), ctx.seat(LORDLINGS)
    if number == 1:
        culture.cycle_offer(ctx, "HRE-M01-LORDLING-PASS-01")
    elif number == 2:
        for tid in lordling_titles(ctx, solo["rush"]):
            titles.claim(ctx, LORDLINGS, tid)
            ctx.log("HRE-M01-LORDLING-PASS-02", f"The Lordlings claim {ctx.d.titles[tid]['name']}.")
        solo["rush"] = False
    elif number == 3:
        for slot in s["slots"]:
            slot["stack"] = [x for x in slot["stack"] if x != LORDLINGS]
        lord["discs"], lord["exhausted"] = lord["total_discs"], 0
        ctx.log("HRE-M01-LORDLING-PASS-03", "The Lordlings take back their Noble discs.")
    elif number == 4:
        solo["deck"] = sorted(solo["deck"] + solo["discard"])
        solo["discard"] = []
        rng.shuffle(s, solo["deck"])
        ctx.log("HRE-M01-LORDLING-PASS-04", "Every Lordling card is shuffled into a new deck.")
    elif number == 5:
        cp = 3 if hard(s) else 2
        gain_cp(
            ctx, cp, "HRE-M01-DIFF-05" if hard(s) else "HRE-M01-LORDLING-PASS-05", " for passing"
        )
    elif number == 6:
        _province_vp(ctx)
    else:
        lord["out"] = True
        ctx.log(
            "HRE-M01-END-02", "The Lordlings have made their final Pass; no more cards are drawn."
        )


def lordling_titles(ctx: Ctx, rush: bool) -> list[str]:
    """Titles they may claim: a whole Region, or half rounded up in a Rush (PASS-02, RUSH-01)."""
    found = []
    for tid, title in sorted(ctx.s["titles"].items()):
        if title["holder"] == LORDLINGS:
            continue
        provinces = titles.region_in_play(ctx, ctx.d.titles[tid]["region"])
        mine = sum(1 for p in provinces if ctx.s["prov"][p]["owner"] == LORDLINGS)
        need = (len(provinces) + 1) // 2 if rush else len(provinces)
        if provinces and mine >= need:
            found.append(tid)
    return found


def province_vp(state: State) -> int:
    """VP for provinces at a Pass (PASS-06); only Cities count when easy (DIFF-01)."""
    mine = controlled(state, LORDLINGS)
    if difficulty(state) == "easy":
        mine = [p for p in mine if state["prov"][p]["city"]]
    if not mine:
        return 0
    return int(_roll(solo_data()["pass_vp"], len(mine))["vp"])


def _province_vp(ctx: Ctx) -> None:
    s = ctx.s
    vp = province_vp(s)
    rule = "HRE-M01-DIFF-01" if difficulty(s) == "easy" else "HRE-M01-LORDLING-PASS-06"
    gain_vp(ctx, vp, rule, " for the provinces they control")
    if hard(s):
        held = sum(1 for t in s["titles"].values() if t["holder"] == LORDLINGS)
        held += modules.titles_held(s, LORDLINGS)
        if held:
            gain_vp(ctx, 2 * held, "HRE-M01-DIFF-04", " for their Titles")


# --------------------------------------------------------------------------- Raiders (offer)


@hook
def _offer_enter(ctx: Ctx, card: str) -> None:
    """A Raider card dealt into the offer: the Target, its reveal effect, Surprise goes."""
    spec = ctx.d.cards[card]
    if spec["type"] != "raider":
        return
    solo = m01(ctx.s)
    if solo["target"] is None:
        choose_target(ctx, "HRE-M01-RAIDER-06")
    ctx.log("HRE-M01-RAIDER-01", f"{spec['name']} is revealed: {spec['text']}")
    for effect in spec["reveal"]:
        raider_effect(ctx, effect, "HRE-M01-RAIDER-01")
    # A Surprise leaves the offer at once; that is not a discard, so no penalty (AMB-76).
    if spec["kind"] == "surprise" and card in ctx.s["offer"]:
        ctx.s["offer"].remove(card)
        ctx.s["discard"].append(card)
        ctx.log("HRE-M01-RAIDER-02", f"{spec['name']} is removed and its space refilled.")
        culture.refill(ctx)


@hook
def _offer_leave(ctx: Ctx, card: str) -> None:
    if ctx.d.cards[card]["type"] == "raider":
        ctx.log("HRE-M01-RAIDER-04", f"{ctx.d.cards[card]['name']} leaves the offer untaken.")
        raider_penalty(ctx, card)


def raider_penalty(ctx: Ctx, card: str) -> None:
    """A Raider card leaving the offer without you taking it (RAIDER-04)."""
    for effect in ctx.d.cards[card]["penalty"]:
        raider_effect(ctx, effect, "HRE-M01-RAIDER-04")


def choose_target(ctx: Ctx, rule: str) -> None:
    """A random province of yours other than the Capital; none: back to the Ruler card."""
    from rules.hre.state import capital

    s = ctx.s
    home = capital(s, HUMAN)
    places = [p for p in controlled(s, HUMAN) if p != home]
    solo = m01(s)
    if not places:
        solo["target"] = None
        ctx.log(
            "HRE-M01-RAIDER-08",
            "You hold only your Capital: the Target marker is on your Ruler card.",
        )
        return
    solo["target"] = pick(ctx, places)
    ctx.log(rule, f"The Raiding Target is now {ctx.d.provinces[solo['target']]['name']}.")


def raider_effect(ctx: Ctx, effect: str, rule: str) -> None:
    solo = m01(ctx.s)
    if effect == "add_raider":
        unit = _roll(solo_data()["upgrade_roll"], d20(ctx))["unit"]
        solo["party"]["units"][unit] += 1
        ctx.log("HRE-M01-RAIDER-10", f"A Raider {unit} joins the Raiding Party.")
    elif effect == "add_token":
        draw_party_tokens(ctx, 1, rule)
    elif effect == "upgrade_raider":
        upgrade(ctx, "Raider", None, "HRE-M01-RAIDER-09")
    elif effect == "attack":
        raiders_attack(ctx, rule)


def draw_party_tokens(ctx: Ctx, n: int, rule: str) -> None:
    """Barbarian tokens from the pool onto the Raiding Party; an empty pool skips (AMB-41)."""
    s = ctx.s
    for _ in range(n):
        token = _pool_draw(ctx, "barbarian")
        if token is None:
            ctx.log(rule, "The Barbarian token pool is empty: no token is drawn.")
            return
        m01(s)["party"]["tokens"].append(token)
        ctx.log(rule, "A Barbarian token joins the Raiding Party, unit side up.")


def _pool_draw(ctx: Ctx, kind: str) -> str | None:
    """A random token of one set from the face-down pool (AMB-41), or None if it has none.

    With only Barbarian tokens in the game this is a draw from the whole pool, as before."""
    s = ctx.s
    wanted = ctx.d.token_sets[kind]
    pool: list[str] = [t for t in s["box_tokens"] if t in wanted]
    if not pool:
        return None
    token = pool[rng.below(s, len(pool))]
    s["box_tokens"].remove(token)
    return token


def empty_party(ctx: Ctx) -> None:
    """Clear the Raiding Party; its tokens go back to the pool (AMB-41)."""
    party = m01(ctx.s)["party"]
    ctx.s["box_tokens"] = sorted(ctx.s["box_tokens"] + party["tokens"])
    party["tokens"] = []
    party["units"] = dict.fromkeys(UNITS, 0)
    party.pop("lost", None)


def party_units(state: State) -> dict[str, int]:
    """Every unit on the Raiding Party: tokens' units and Raider miniatures (RAIDER-05), less the
    units a token lost in a counterattack (AMB-79)."""
    party = m01(state)["party"]
    total = dict(party["units"])
    lost = party.get("lost", {})
    for token in party["tokens"]:
        gone = lost.get(token, {})
        for u in UNITS:
            total[u] += int(data().token_specs[token]["units"].get(u, 0)) - gone.get(u, 0)
    return total


def _party_losses(ctx: Ctx, left: dict[str, int]) -> None:
    """After a failed counterattack the survivors stay on the Raiding Party (COUNTER-03).

    The tokens stay on the card with their units reduced by the losses, and a token with no unit
    left goes back to the pool (AMB-79's reading). The book does not say whose units fall first:
    here the Raider miniatures, then the tokens' units, the newest token first. `lost` keeps,
    per token, the units it has lost; a party without losses has no such key."""
    s = ctx.s
    party = m01(s)["party"]
    losses = {u: n - left.get(u, 0) for u, n in party_units(s).items()}
    for u in UNITS:
        off = min(losses[u], party["units"][u])
        party["units"][u] -= off
        losses[u] -= off
    reduced: dict[str, dict[str, int]] = party.pop("lost", {})
    for token in reversed(list(party["tokens"])):
        printed = data().token_specs[token]["units"]
        gone = reduced.pop(token, {})
        for u in UNITS:
            off = min(losses[u], int(printed.get(u, 0)) - gone.get(u, 0))
            if off > 0:
                gone[u] = gone.get(u, 0) + off
                losses[u] -= off
        if all(int(printed.get(u, 0)) == gone.get(u, 0) for u in UNITS):
            party["tokens"].remove(token)
            s["box_tokens"] = sorted([*s["box_tokens"], token])
        elif gone:
            reduced[token] = gone
    if reduced:
        party["lost"] = dict(sorted(reduced.items()))


def raiders_attack(ctx: Ctx, rule: str) -> None:
    """The Raiders will strike; where is settled when the attack comes up on the stack."""
    s = ctx.s
    if s["end_triggered"] and not m01(s)["final_attack"]:
        ctx.log("HRE-M01-END-03", "The end is triggered: no Raider attack until the game is over.")
        return
    ctx.push({"kind": "m01_attack", "seat": HUMAN, "rule": rule})


@handlers.once("m01_attack")
def _attack_step(ctx: Ctx, frame: Frame) -> None:
    """The Raiders strike your Target, or next to it on 16+ (RAIDER-11, -12)."""
    s = ctx.s
    solo = m01(s)
    if not sum(party_units(s).values()):
        ctx.log("HRE-M01-RAIDER-12", "The Raiding Party is empty: nobody attacks.")
        return
    target = solo["target"]
    if target is not None and s["prov"][target]["owner"] != HUMAN:
        choose_target(ctx, "HRE-M01-RAIDER-07")
        target = solo["target"]
    if target is None:
        me = ctx.seat(HUMAN)
        lost = min(5, me["vp"])
        me["vp"] -= lost
        ctx.log(
            "HRE-M01-RAIDER-11",
            f"The Raiders attack with the Target on your Ruler card: you lose {lost} VP.",
        )
        return
    roll = d20(ctx)
    prov = target
    if roll >= 16:
        from rules.hre.state import capital

        home = capital(s, HUMAN)
        near = [q for q in neighbours(s, target) if s["prov"][q]["owner"] == HUMAN and q != home]
        if near:
            fewest = min(unit_count(s["prov"][q]["units"]) for q in near)
            prov = pick(ctx, [q for q in near if unit_count(s["prov"][q]["units"]) == fewest])
    ctx.log(
        "HRE-M01-RAIDER-12",
        f"The d20 shows {roll}: the Raiding Party attacks {ctx.d.provinces[prov]['name']}.",
    )
    start_raid_battle(ctx, prov, attacker=None)


def raider_unit(state: State, unit: str) -> dict[str, Any]:
    """A Transient Raider in a battle, at the current Raider level (RAIDER-15)."""
    level = int(m01(state)["raider_levels"][unit])
    return {
        "t": unit,
        "tr": True,
        "own": None,
        "d": 0,
        "p": 0,
        "dead": False,
        "lv": level,
        "st": solo_data()["raider_units"][unit][level - 1],
    }


def start_raid_battle(
    ctx: Ctx, prov: str, attacker: str | None, group: dict[str, int] | None = None
) -> None:
    """A battle with the Raiding Party: they attack your province, or you counterattack (RAID)."""
    s = ctx.s
    raiders = [raider_unit(s, u) for u, n in sorted(party_units(s).items()) for _ in range(n)]
    here = s["prov"][prov]
    if attacker is None:
        mine = [battle._unit(u, False, HUMAN) for u in UNITS for _ in range(here["units"][u])]
        mine += [battle._unit("infantry", True, HUMAN) for _ in range(here["farms"])]
        if here["city"]:
            mine.append(battle._unit("archer", True, HUMAN))
        here["units"] = dict.fromkeys(UNITS, 0)
        sides = [raiders, mine]
        att, dfn = None, HUMAN
    else:
        group = group or {}
        mine = [battle._unit(u, False, HUMAN) for u in UNITS for _ in range(group.get(u, 0))]
        for u in UNITS:
            here["units"][u] -= group.get(u, 0)
        sides = [mine, raiders]
        att, dfn = HUMAN, None
    frame = battle.new_frame(HUMAN, att, dfn, prov, prov)
    frame["sides"] = sides
    frame["raid"] = "defend" if attacker is None else "counter"
    ctx.push(frame)


def _battle_wrapper(ctx: Ctx, frame: Frame, inner: Callable[[Ctx, Frame], None]) -> None:
    """Raider battles end by the module's own outcome (RAIDATK, COUNTER); others as usual."""
    if not plays(ctx.s, "M01"):
        inner(ctx, frame)
        return
    stage = frame["stage"]
    if "raid" in frame and stage == "result":
        ctx.s["stack"].pop()
        _raid_outcome(ctx, frame)
        return
    if stage == "roll" and frame["phase"] == 0 and not frame.get("m01_seen"):
        frame["m01_seen"] = True
        left = m01(ctx.s).get("leftovers", {}).pop(frame["prov"], None)
        if left and frame["def"] is None and "raid" not in frame:
            frame["sides"][1] += [raider_unit(ctx.s, u) for u in UNITS for _ in range(left[u])]
            ctx.log("HRE-M01-RAIDATK-04", "The Raiders left here join the Barbarians' side.")
        if frame["def"] == LORDLINGS:
            m01(ctx.s)["lost_at"] = frame["prov"]  # where a Lordling Revanchism looks (GEN-06)
        if frame["def"] is None and frame["token"] and hard(ctx.s):
            _hard_barbarians(ctx, frame)
    inner(ctx, frame)
    if frame["stage"] == "assign0" and frame is ctx.s["stack"][-1]:
        _offer_reinforce(ctx, frame)


handlers.MACHINE.wrap_step("battle", _battle_wrapper)


def _raid_outcome(ctx: Ctx, frame: Frame) -> None:
    from rules.hre.outcome import battle_result, survivors
    from rules.hre.state import capital

    s = ctx.s
    solo = m01(s)
    mine, theirs = battle_result(ctx, frame, 0), battle_result(ctx, frame, 1)
    att_won = mine > theirs  # a tie is a loss for the attacker (COUNTER-03)
    prov = frame["prov"]
    here = s["prov"][prov]
    if frame["raid"] == "defend":
        you_won = not att_won
        ctx.log("HRE-BASE-BSEQ-11", f"Battle Result: Raiders {mine}, you {theirs}.")
        back = survivors(frame, 1)
        raider_left = raiders_left(frame, 0)
        if you_won:
            for u in UNITS:
                here["units"][u] += back.get(u, 0)
            ctx.seat(HUMAN)["gold"] += 1
            empty_party(ctx)
            ctx.log(
                "HRE-M01-RAIDATK-01", "You beat the Raiders: +1 Gold, the Raiding Party is emptied."
            )
            _raiders_lost(ctx)
        else:
            empty_party(ctx)
            _lose_to_raiders(ctx, prov, back, raider_left)
        draw_party_tokens(ctx, 2, "HRE-M01-RAIDATK-05")
    else:
        killed = sum(1 for u in frame["sides"][1] if u["dead"])
        left = raiders_left(frame, 1)
        back = survivors(frame, 0)
        for u in UNITS:
            here["units"][u] += back.get(u, 0)
        if att_won:
            ctx.seat(HUMAN)["gold"] += killed
            for u in UNITS:
                free = min(left.get(u, 0), in_supply(s, HUMAN, u))
                here["units"][u] += free
            empty_party(ctx)
            ctx.log(
                "HRE-M01-COUNTER-01",
                f"Your counterattack wins ({mine} to {theirs}): +{killed} Gold, free units for the survivors.",
            )
            draw_party_tokens(ctx, 1, "HRE-M01-COUNTER-02")
            _raiders_lost(ctx)
        else:
            _party_losses(ctx, left)
            ctx.log("HRE-M01-COUNTER-03", f"Your counterattack fails ({mine} to {theirs}).")
    refresh_owner(s, prov)
    if here["owner"] != HUMAN and solo["target"] == prov:
        choose_target(ctx, "HRE-M01-RAIDER-07")
    if capital(s, HUMAN) == prov:
        here["owner"] = HUMAN


def raiders_left(frame: Frame, side: int) -> dict[str, int]:
    """Raiders alive at the end of a battle (all of them Transient, RAIDER-15)."""
    found = dict.fromkeys(UNITS, 0)
    for unit in frame["sides"][side]:
        if not unit["dead"]:
            found[unit["t"]] += 1
    return found


def _raiders_lost(ctx: Ctx) -> None:
    if hard(ctx.s):
        upgrade(ctx, "Raider", None, "HRE-M01-DIFF-10")


def _lose_to_raiders(
    ctx: Ctx, prov: str, back: dict[str, int], raider_left: dict[str, int]
) -> None:
    """Your survivors retreat, the City and its buildings leave the game (RAIDATK-02..04)."""
    from rules.hre.outcome import _retreat_defender
    from rules.hre.state import capital

    s = ctx.s
    here = s["prov"][prov]
    home = capital(s, HUMAN)
    if prov == home:
        for u in UNITS:
            here["units"][u] += back.get(u, 0)
        ctx.log("HRE-M01-RAIDATK-02", "The Raiders win at your Capital but cannot take it.")
        return
    farms, here["farms"] = here["farms"], 0
    ctx.seat(HUMAN)["farms_track"] += farms
    here["owner"] = None
    if sum(back.values()):
        _retreat_defender(ctx, HUMAN, prov, back)
    start = ctx.d.provinces[prov]["resource"]
    gone = [b for b in here["bld"][1:]] + (["City"] if here["city"] else [])
    here["bld"] = [start]
    boxed = m01(s)["boxed"]
    boxed["cities"] += 1 if here["city"] else 0
    boxed["churches"] += 1 if here["church"] else 0  # the end trigger counts Churches built
    here["city"], here["church"], here["keep"] = False, False, 0
    ctx.log(
        "HRE-M01-RAIDATK-02",
        f"The Raiders take {ctx.d.provinces[prov]['name']}: "
        + (", ".join(gone) if gone else "nothing")
        + " is removed from the game.",
    )
    if here["barb"] is not None:  # never two tokens in one province: the old one to the pool
        s["box_tokens"] = sorted([*s["box_tokens"], here["barb"]["token"]])
        here["barb"] = None
    # A Barbarian token, even with Skirmishers on the map (AMB-78): the book names the Barbarian set.
    token = _pool_draw(ctx, "barbarian")
    if token is not None:
        here["barb"] = {"token": token, "face": "units"}
        m01(s).setdefault("leftovers", {})[prov] = {u: raider_left.get(u, 0) for u in UNITS}
        ctx.log("HRE-M01-RAIDATK-03", "Surviving Raiders stay there, with a new Barbarian token.")


# --------------------------------------------------------------------------- automatic answers


@hook
def _auto(ctx: Ctx) -> bool:
    """The engine decides for the Lordlings, and assigns hits against you (GEN-02..06)."""
    top = ctx.s["stack"][-1]
    kind, seat = top["kind"], top["seat"]
    if kind == "assign" and seat == LORDLINGS:
        battle_frame = ctx.s["stack"][-2]
        enemy = battle_frame["sides"][1 - top["side"]]
        index = battle.auto_target(ctx, enemy, battle_frame["phase"])
        handlers.MACHINE.answer(ctx, seat, {"hit": index})
        return True
    if seat != LORDLINGS:
        return False
    if kind == "reaction":
        ctx.s["stack"].pop()
        _react(ctx, top["slot"])
        return True
    if kind == "retreat":
        s = ctx.s
        places = [q for q in neighbours(s, top["prov"]) if s["prov"][q]["owner"] == LORDLINGS]
        fewest = min(unit_count(s["prov"][q]["units"]) for q in places)
        to = pick(ctx, [q for q in places if unit_count(s["prov"][q]["units"]) == fewest])
        ctx.log("HRE-M01-GEN-04", "The Lordlings retreat to the neighbour with the fewest units.")
        handlers.MACHINE.answer(ctx, seat, {"to": to})
        return True
    if kind == "revanchism":
        ctx.s["stack"].pop()
        _revanchism(ctx, top)
        return True
    raise InvariantError(f"the Lordlings have no rule for a {kind!r} decision")


def _react(ctx: Ctx, slot: int) -> None:
    """Recruit > Cultural Exchange > Sell > Regroup; never resources (REACT-01..06, AMB-50)."""
    pair = ctx.d.board["reaction_layout"][slot]
    for react in ("recruit", "cultural_exchange", "sell", "regroup"):
        if react in pair:
            break
    else:
        ctx.log(
            "HRE-M01-LORDLING-REACT-01", "Both reactions give resources: the Lordlings take none."
        )
        return
    if react == "recruit":
        recruit_unit(ctx, "HRE-M01-LORDLING-REACT-03")
    elif react == "cultural_exchange":
        if ctx.s["offer"]:
            take_card(ctx, len(ctx.s["offer"]) - 1, "HRE-M01-LORDLING-REACT-05")
    elif react == "sell":
        gain_cp(ctx, 2, "HRE-M01-LORDLING-REACT-04", " (Sell Goods reaction)")
    else:
        prep = m01(ctx.s)["prep"]
        prep["research"] = prep["manoeuvre"] = True
        ctx.log(
            "HRE-M01-LORDLING-REACT-06",
            "Regroup: Preparation tokens beside Manoeuvre and Research.",
        )


def _revanchism(ctx: Ctx, frame: Frame) -> None:
    """An Infantry per returned Farm next to the lost province, fewest units first (GEN-06)."""
    s = ctx.s
    lost = m01(s).get("lost_at")
    for _ in range(frame["farms"]):
        if in_supply(s, LORDLINGS, "infantry") == 0:
            return
        places = (
            [q for q in neighbours(s, lost or "") if s["prov"][q]["owner"] == LORDLINGS]
            if lost
            else []
        )
        if not places:
            ctx.log(
                "HRE-M01-GEN-06",
                "No Lordling province next to the lost one: no Revanchism.",
            )
            return
        fewest = min(unit_count(s["prov"][q]["units"]) for q in places)
        prov = pick(ctx, [q for q in places if unit_count(s["prov"][q]["units"]) == fewest])
        s["prov"][prov]["units"]["infantry"] += 1
        ctx.log(
            "HRE-M01-GEN-06", f"Revanchism: a Lordling Infantry in {ctx.d.provinces[prov]['name']}."
        )


# --------------------------------------------------------------------------- your Raider cards


def _reinforce_cards(ctx: Ctx) -> list[str]:
    hand = ctx.seat(HUMAN)["hand"]
    return sorted(
        {
            c
            for c in hand
            if ctx.d.cards[c]["type"] == "raider" and ctx.d.cards[c]["kind"] == "reinforce"
        }
    )


def _reinforce_dice(ctx: Ctx, frame: Frame) -> list[int]:
    """Your dice this phase that +1 would turn into a hit (RAIDER-13)."""
    side = 0 if frame["att"] == HUMAN else 1
    phase = battle.PHASES[frame["phase"]]
    needs = battle._dice_for(ctx, frame, side, phase)
    rolls = frame["rolls"][side]
    bonus = battle._keep_bonus(ctx, frame, side) if phase == "melee" else 0
    natural = ctx.s["options"].get("natural_one") == "natural"
    now = battle.count_hits(rolls, needs, bonus, natural)
    found = []
    for i in range(len(rolls)):
        better = [r + (1 if j == i else 0) for j, r in enumerate(rolls)]
        if battle.count_hits(better, needs, bonus, natural) > now:
            found.append(i)
    return found


def hard_extras(trophies: int) -> list[str]:
    """Hard: the Barbarians' extras add up (DIFF-09, AMB-55): +infantry from the 2nd battle,
    +archer from the 3rd, +cavalry from the 4th."""
    return ["infantry", "archer", "cavalry"][: min(trophies, 3)]


def _hard_barbarians(ctx: Ctx, frame: Frame) -> None:
    """The base game already added the one extra of the trophy track; add the others."""
    trophies = len(ctx.seat(HUMAN)["trophies"])
    track = ctx.d.board["trophy_track"]
    given = track[min(trophies, len(track) - 1)]["extra"]
    more = [u for u in hard_extras(trophies) if u != given]
    frame["sides"][1] += [battle._unit(u, True, None) for u in more]
    if more:
        ctx.log("HRE-M01-DIFF-09", f"Hard: the Barbarians also bring {', '.join(more)}.")


def _offer_reinforce(ctx: Ctx, frame: Frame) -> None:
    if HUMAN not in (frame["att"], frame["def"]) or not _reinforce_cards(ctx):
        return
    if len(frame["rolls"][0 if frame["att"] == HUMAN else 1]) and _reinforce_dice(ctx, frame):
        ctx.push({"kind": "m01_reinforce", "seat": HUMAN})


def _reinforce_options(ctx: Ctx, frame: Frame) -> list[Option]:
    battle_frame = ctx.s["stack"][-2]
    side = 0 if battle_frame["att"] == HUMAN else 1
    card = _reinforce_cards(ctx)[0]
    name = ctx.d.cards[card]["name"]
    opts = [
        option(
            {"die": i, "card": card},
            f"Play {name}: +1 on your die showing {battle_frame['rolls'][side][i]}",
        )
        for i in _reinforce_dice(ctx, battle_frame)
    ]
    return [*opts, option({"die": None}, "Keep your Reinforce card")]


def _reinforce_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    ctx.s["stack"].pop()
    if action["die"] is None:
        return
    battle_frame = ctx.s["stack"][-1]
    side = 0 if battle_frame["att"] == HUMAN else 1
    ctx.seat(HUMAN)["hand"].remove(action["card"])
    ctx.s["discard"].append(action["card"])
    battle_frame["rolls"][side][action["die"]] += 1
    battle_frame["hits"][side] += 1
    ctx.log(
        "HRE-M01-RAIDER-13",
        f"You play {ctx.d.cards[action['card']]['name']}: +1 on a die, one more hit.",
    )


handlers.decision(
    "m01_reinforce",
    "HRE-M01-RAIDER-13",
    lambda ctx, f: "A Reinforce card can turn one of your dice into a hit",
    _reinforce_options,
    _reinforce_choose,
)


def _raid_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    """Raid, instead of placing a Noble: fight the Raiding Party from one province (RAIDER-14)."""
    if (
        not plays(ctx.s, "M01")
        or seat != HUMAN
        or frame["phase"] != "start"
        or ctx.s["end_triggered"]
    ):
        return []  # no counterattack once the end is triggered (END-03)
    hand = ctx.seat(HUMAN)["hand"]
    cards = sorted(
        {c for c in hand if ctx.d.cards[c]["type"] == "raider" and ctx.d.cards[c]["kind"] == "raid"}
    )
    if not cards:
        return []
    return [
        option(
            {"do": "m01_raid", "card": cards[0], "prov": p},
            f"Play {ctx.d.cards[cards[0]]['name']}: attack the Raiding Party from {ctx.d.provinces[p]['name']}",
        )
        for p in controlled(ctx.s, HUMAN)
        if unit_count(ctx.s["prov"][p]["units"])
    ]


def _raid_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    s = ctx.s
    s["seats"][HUMAN]["hand"].remove(action["card"])
    s["discard"].append(action["card"])
    s["stack"].pop()
    ctx.push({"kind": "turn_end", "seat": HUMAN, "phase": "react", "extra": frame["extra"]})
    ctx.log(
        "HRE-M01-RAIDER-14", f"You play {ctx.d.cards[action['card']]['name']} instead of a Noble."
    )
    ctx.push({"kind": "m01_raid", "seat": HUMAN, "prov": action["prov"]})
    from rules.hre.state import army_limit, army_size

    if army_size(s, HUMAN) > army_limit(s, HUMAN):
        ctx.push({"kind": "army", "seat": HUMAN, "paid": 0})


@handlers.once("m01_raid")
def _raid_go(ctx: Ctx, frame: Frame) -> None:
    here = ctx.s["prov"][frame["prov"]]
    group = {u: n for u, n in here["units"].items() if n}
    if not group or here["owner"] != HUMAN:
        ctx.log("HRE-M01-RAIDER-14", "No unit is left there to counterattack.")
        return
    if not sum(party_units(ctx.s).values()):
        empty_party(ctx)
        ctx.log("HRE-M01-COUNTER-01", "The Raiding Party is empty: you win at once, 0 Gold.")
        draw_party_tokens(ctx, 1, "HRE-M01-COUNTER-02")
        return
    if unit_count(here["units"]) == 1:
        start_raid_battle(ctx, frame["prov"], attacker="you", group=group)
        return
    ctx.push({"kind": "m01_raid_group", "seat": HUMAN, "prov": frame["prov"], "group": {}})


def _group_options(ctx: Ctx, frame: Frame) -> list[Option]:
    """Any number of your units in that province: one more of a type, or attack (RAIDER-14)."""
    here = ctx.s["prov"][frame["prov"]]["units"]
    group = frame["group"]
    opts = [
        option({"add": u}, f"Take one more {u} ({group.get(u, 0)} of {here[u]} so far)")
        for u in UNITS
        if here[u] > group.get(u, 0)
    ]
    if group:
        size = sum(group.values())
        units = f"{size} unit{'' if size == 1 else 's'}"
        opts.append(option({"add": None}, f"Attack the Raiding Party with these {units}"))
    return opts


def _group_choose(ctx: Ctx, frame: Frame, action: Any) -> None:
    group = frame["group"]
    if action["add"] is not None:
        group[action["add"]] = group.get(action["add"], 0) + 1
        here = ctx.s["prov"][frame["prov"]]["units"]
        if any(here[u] > group.get(u, 0) for u in UNITS):
            return
    ctx.s["stack"].pop()
    start_raid_battle(ctx, frame["prov"], attacker="you", group=dict(group))


handlers.decision(
    "m01_raid_group",
    "HRE-M01-RAIDER-14",
    lambda ctx, f: "Raid: choose the units that attack the Raiding Party",
    _group_options,
    _group_choose,
)


handlers.MACHINE.extend("turn", Extension(("m01_raid",), _raid_options, _raid_choose))


# --------------------------------------------------------------------------- end and scoring


@hook
def _triggers(ctx: Ctx) -> list[str]:
    """Their Common Technologies plus unit upgrades reaching 9 (END-01)."""
    levels = _levels(ctx.s, "Lordling")
    if len(m01(ctx.s)["techs"]) + sum(v - 1 for v in levels.values()) >= 9:
        return ["HRE-M01-END-01"]
    return []


@hook
def _before_finish(ctx: Ctx) -> bool:
    """Once the game is over the Raiders attack, then final scoring (END-04)."""
    solo = m01(ctx.s)
    if solo["final_attack"]:
        return False
    solo["final_attack"] = True
    ctx.push({"kind": "m01_finish", "seat": HUMAN})
    ctx.log("HRE-M01-END-04", "The game is over: the Raiders attack one last time.")
    raiders_attack(ctx, "HRE-M01-END-04")
    return True


@handlers.step("m01_finish")
def _finish(ctx: Ctx, frame: Frame) -> None:
    from rules.hre import endgame

    ctx.s["stack"].pop()
    parts = lordling_breakdown(ctx.s)
    ctx.log(
        "HRE-M01-SCORE-02",
        f"The Lordlings score {sum(parts.values())}: "
        + ", ".join(f"{k} {v}" for k, v in parts.items() if v)
        + ".",
    )
    endgame.finish(ctx)


def lordling_breakdown(state: State) -> dict[str, int]:
    """The Lordlings' final score by category (SCORE-02, DIFF-02)."""
    ctx = Ctx(state)
    per_tech = 1 if difficulty(state) == "easy" else 2
    mine = controlled(state, LORDLINGS)
    pos = state["seats"][LORDLINGS]["culture"]
    return {
        "vp": int(state["seats"][LORDLINGS]["vp"]),
        "techs": per_tech * len(m01(state)["techs"]),
        "keeps": sum(scoring.keep_vp(ctx, LORDLINGS, p) for p in mine),
        "culture": int(ctx.d.board["culture_track"][pos]["vp"]),
        "farms": farm_vp(state),
        "titles": sum(
            int(ctx.d.titles[t]["vp"])
            for t, v in state["titles"].items()
            if v["holder"] == LORDLINGS
        ),
        **modules.scores(state, LORDLINGS),
    }


@hook
def _result(state: State, found: Result) -> Result:
    """You win only with strictly more VP than the Lordlings (SCORE-01, -03)."""
    you = next(r for r in found["seats"] if r["seat"] == HUMAN)
    theirs = sum(lordling_breakdown(state).values())
    you["rank"] = 1 if you["score"] > theirs else 2
    you["breakdown"] = {**you["breakdown"], "lordlings": theirs}
    you["score"] = int(you["score"])
    return {"over": found["over"], "seats": [you]}


@hook
def _view(state: State, seat: int | None, found: dict[str, Any]) -> None:
    """The Lordlings' and the Raiders' public state; their deck order stays hidden."""
    if "m01" not in state:
        return
    solo = m01(state)
    lord = state["seats"][LORDLINGS]
    found["solo"] = {
        "difficulty": difficulty(state),
        "lordlings": {
            "discs": lord["discs"],
            "total_discs": lord["total_discs"],
            "exhausted": lord["exhausted"],
            "prep": dict(solo["prep"]),
            "deck_count": len(solo["deck"]),
            "discard": [CARD_NAME[c] for c in solo["discard"]],
            "techs": len(solo["techs"]),
            "levels": {u: lord["levels"][u]["level"] for u in UNITS},
            "farms_on_track": lord["farms_track"],
            "farms_in_play": sum(
                p["farms"] for p in state["prov"].values() if p["owner"] == LORDLINGS
            ),
            "culture": lord["culture"],
            "vp": lord["vp"],
            "score": sum(lordling_breakdown(state).values()),
            "provinces": len(controlled(state, LORDLINGS)),
            "out": lord["out"],
        },
        "raiders": {
            "party": party_units(state),
            "tokens": len(solo["party"]["tokens"]),
            "levels": dict(solo["raider_levels"]),
            "target": solo["target"],
        },
    }


@hook
def _invariants(state: State) -> None:
    if "m01" not in state:
        return
    solo = m01(state)
    cards = sorted(solo["deck"] + solo["discard"])
    if cards != sorted(CARD_KIND):
        raise InvariantError("the 9 Lordling cards are not all in the Lordling deck and discard")
    lord = state["seats"][LORDLINGS]
    placed = sum(p["farms"] for p in state["prov"].values() if p["owner"] == LORDLINGS)
    if placed + lord["farms_track"] > data().board["farms_per_player"]:
        raise InvariantError("the Lordlings have more Farms than their track holds")
    if lord["discs"] < 0:
        raise InvariantError("the Lordlings placed more Nobles than they have")
    if lord["hand"] or lord["gold"] or any(lord["res"].values()):
        raise InvariantError("the Lordlings hold cards, Gold or resources")


@hook
def _held(state: State, kind: str) -> list[str]:
    """Their face-down Technologies, the Raiding Party's tokens, pieces the Raiders boxed."""
    if "m01" not in state:
        return []
    solo = m01(state)
    if kind == "cards":
        return list(solo["techs"])
    if kind == "tokens":
        return list(solo["party"]["tokens"])
    return [kind] * int(solo["boxed"].get(kind, 0))


@hook
def _undo_barrier(before: State, after: State) -> bool:
    """A Lordling card drawn shows part of their hidden deck order: no undo past it."""
    if "m01" not in before or "m01" not in after:
        return "m01" in after
    return len(m01(before)["deck"]) != len(m01(after)["deck"]) or len(
        m01(before)["discard"]
    ) != len(m01(after)["discard"])


@hook
def _determinize(state: State, seat: int) -> None:
    """The Lordling deck's order is hidden from you: shuffle it (LORDLING-TURN-01 [HIDDEN])."""
    if "m01" in state:
        deck = sorted(m01(state)["deck"])
        rng.shuffle(state, deck)
        m01(state)["deck"] = deck


MODULE = declare(
    __name__,
    "M01",
    excludes=("M02",),
    options={
        "difficulty": DIFFICULTIES,  # the book's easier/harder switches (DIFF-01..10)
        "rush_with_discs": ("nothing", "draw"),  # AMB-47: Rush drawn with 3+ discs
    },
    option_text={
        "difficulty": (
            "Solo difficulty (solo scenario only)",
            "The book's easier and harder switches for the game against the Lordlings.",
            {
                "normal": "Normal",
                "easy": "Easier (all the easy switches)",
                "hard": "Harder (all the hard switches)",
            },
        ),
        "rush_with_discs": (
            "Lordling Rush with 3 or more Nobles (solo scenario only)",
            "The book says nothing of a Rush card drawn while the Lordlings still have 3 Nobles.",
            {"nothing": "Nothing happens", "draw": "They draw another card"},
        ),
    },
    data_files=("m01_lordlings.json",),
    seats=lambda state: 1,
)
