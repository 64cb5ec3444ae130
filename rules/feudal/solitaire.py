"""Solitaire (FL-SOLO): nine defenders in three piles, a marker pool, shared dice.

One `solo` step loops combats; each combat is a `fight` frame whose stage advances through
DF and two CC rounds, pausing after every roll so markers can shift it for one side (SOLO-11).
"""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.engine import Option, State
from rules.core.errors import InvariantError
from rules.core.words import counted
from rules.feudal import dice, handlers
from rules.feudal.combatants import effects, life, own_mod, successes, thresholds
from rules.feudal.components import solo_rosters
from rules.feudal.handlers import option
from rules.feudal.state import Ctx, Frame, card, data

PILES, PILE_SIZE, HAND = 3, 3, 7


def new_state(seed: int, options: dict[str, Any]) -> State:
    """Deal the piles and the hand, turn the tops up and fill the marker pool (SOLO-01..05)."""
    deck = roster(options)
    state: State = {
        "game": "feudal",
        "mode": "solitaire",
        "players": 1,
        "options": options,
        "rng": rng.seed_state(seed),
        "stack": [],
        "active": 0,
        "turns": 0,
        "over": False,
        "winner": None,
        "ended_by": None,
        "next_uid": 1,
        "starter": True,
    }
    rng.shuffle(state, deck)
    piles = [[deck.pop() for _ in range(PILE_SIZE)] for _ in range(PILES)]
    hand = [deck.pop() for _ in range(HAND)]
    tops = sum(card(p[-1])["control"] for p in piles)
    state["solo"] = {
        "deck": deck,
        "hand": hand,
        "living": [],
        "discard": [],
        "piles": piles,
        "markers": level(options)["markers"] + tops,
        "killed": 0,
        "wounds": [0] * PILES,  # wounds a face-up defender keeps between fights (solo_wounds)
        "won": False,
        "cards": len(data().cards),
    }
    state["solo"]["cards"] = len(deck) + len(hand) + PILES * PILE_SIZE
    ctx = Ctx(state)
    ctx.log(
        "FL-SOLO-05", f"Three defenders face you; your marker pool is {state['solo']['markers']}."
    )
    ctx.push({"kind": "solo"})
    handlers.MACHINE.advance(ctx)
    return state


def level(options: dict[str, Any]) -> dict[str, Any]:
    """The solitaire level (data/solitaire.json): its roster, first markers and wounds reading."""
    found: dict[str, Any] = solo_rosters()[options.get("solo_level", "default")]
    return found


def roster(options: dict[str, Any]) -> list[str]:
    """The characters available to the solitaire game by its level, each dealt once (FL-SOLO-01:
    the book builds the deck from the available characters; the level names them)."""
    return list(level(options)["roster"])


def affordable(cid: str, markers: int) -> bool:
    """Whether paying the character's Control leaves markers in the pool: a payment that empties
    it loses at once (FL-SOLO-08, FL-SOLO-18, A-31), so such an attacker is never offered."""
    return int(card(cid)["control"]) < markers


def _lose(ctx: Ctx, why: str) -> None:
    """End the game at once; a character still fighting goes to the discard pile."""
    solo = ctx.s["solo"]
    for frame in ctx.s["stack"]:
        if frame["kind"] == "fight" and frame["att"]:
            solo["discard"].append(frame["att"])
        elif frame["kind"] == "solo_keep":
            solo["discard"].append(frame["card"])
    ctx.s["over"], ctx.s["stack"], ctx.s["winner"] = True, [], None
    ctx.log("FL-SOLO-18", f"You lose: {why}.")


def _pay(ctx: Ctx, markers: int) -> bool:
    """Pay markers; an empty pool loses at once, after any payment (FL-SOLO-18, A-31)."""
    solo = ctx.s["solo"]
    solo["markers"] -= markers
    if solo["markers"] <= 0:
        _lose(ctx, "the marker pool is empty")
    return bool(ctx.s["over"])


@handlers.step("solo")
def _next_combat(ctx: Ctx, frame: Frame) -> None:
    """Refill the hand from the living pile's size, then roll DF before choosing (SOLO-07, SOLO-17)."""
    solo = ctx.s["solo"]
    if not solo["hand"]:
        count = min(len(solo["living"]), len(solo["deck"]))
        solo["hand"] = [solo["deck"].pop() for _ in range(count)]
        solo["discard"] += solo["living"]
        solo["living"] = []
    if solo["markers"] <= 0:
        return _lose(ctx, "the marker pool is empty")
    if not any(affordable(c, solo["markers"]) for c in solo["hand"]):
        return _lose(ctx, "no character in hand can be paid for")
    roll = dice.roll2(ctx.s)
    ctx.s["turns"] += 1
    ctx.log("FL-SOLO-07", f"Combat {ctx.s['turns']}: the DF roll is {roll}.")
    ctx.push(
        {
            "kind": "fight",
            "stage": "pick",
            "df": roll,
            "att": None,
            "pile": None,
            "aw": 0,
            "dw": 0,
            "roll": {"a": roll, "d": roll},
        }
    )


@handlers.step("fight")
def _fight(ctx: Ctx, frame: Frame) -> None:
    """Advance the fight one stage; rolls pause for markers."""
    STAGES[frame["stage"]](ctx, frame)


def _body(cid: str) -> dict[str, Any]:
    return {"card": cid, "skills": [], "weapons": []}


def _mod(me: str, foe: str, roll: str) -> int:
    """Relevant text-box bonuses only: own roll modifiers and enemy penalties (SOLO-19)."""
    penalty = sum(
        int(e["amount"])
        for e in effects(_body(foe))
        if e["kind"] == "enemy_roll" and e["roll"] == roll
    )
    return own_mod(_body(me), roll) + penalty


def _pick(ctx: Ctx, frame: Frame) -> None:
    frame["stage"] = "df"
    ctx.push({"kind": "solo_pick", "seat": 0})


def _df(ctx: Ctx, frame: Frame) -> None:
    """Both sides use the one DF roll; hits are wounds unless a card blocks in DF (SOLO-09, SOLO-19)."""
    att, foe = frame["att"], _defender(ctx, frame)
    frame["ah"] = successes(frame["roll"]["a"] + _mod(att, foe, "df"), thresholds(_body(att), "df"))
    frame["dh"] = successes(frame["roll"]["d"] + _mod(foe, att, "df"), thresholds(_body(foe), "df"))
    ctx.log(
        "FL-SOLO-09",
        f"DF: {card(att)['name']} scores {frame['ah']}, {card(foe)['name']} scores {frame['dh']}.",
    )
    if (frame["dh"] and _df_blocks(att)) or (frame["ah"] and _df_blocks(foe)):
        roll = dice.roll2(ctx.s)  # one shared block roll, which markers may shift (SOLO-10/11)
        frame["roll"] = {"a": roll, "d": roll}
        frame["stage"] = "dfblock"
        ctx.log("FL-SOLO-19", f"The DF block roll is {roll}.")
        ctx.push({"kind": "solo_adjust", "seat": 0})
        return
    _df_wounds(frame, 0, 0)
    frame["stage"] = "over" if _someone_dead(frame, att, foe) else "hit1"


def _df_blocks(cid: str) -> list[int]:
    """The thresholds with which a card's text lets it block in DF (FL-COMBAT-DF-09, FL-SOLO-19)."""
    return sorted(t for e in effects(_body(cid)) if e["kind"] == "df_block" for t in e["blocks"])


def _df_block(ctx: Ctx, frame: Frame) -> None:
    """Blocks in DF cancel DF hits of that side only; the rest become wounds (SOLO-19)."""
    att, foe = frame["att"], _defender(ctx, frame)
    a_blocks = successes(frame["roll"]["a"], _df_blocks(att))
    d_blocks = successes(frame["roll"]["d"], _df_blocks(foe))
    _df_wounds(frame, a_blocks, d_blocks)
    ctx.log(
        "FL-SOLO-19",
        f"Blocks in DF: {card(att)['name']} {a_blocks}, {card(foe)['name']} {d_blocks}; "
        f"wounds {frame['aw']} and {frame['dw']}.",
    )
    frame["stage"] = "over" if _someone_dead(frame, att, foe) else "hit1"


def _df_wounds(frame: Frame, a_blocks: int, d_blocks: int) -> None:
    frame["aw"] += max(0, frame["dh"] - a_blocks)
    frame["dw"] += max(0, frame["ah"] - d_blocks)


def _hit(ctx: Ctx, frame: Frame) -> None:
    """One shared CC hit roll, shifted per side by markers (SOLO-10, SOLO-11)."""
    roll = dice.roll2(ctx.s)
    frame["roll"] = {"a": roll, "d": roll}
    frame["stage"] = "score" + frame["stage"][-1]
    ctx.log("FL-SOLO-10", f"CC round {frame['stage'][-1]}: the hit roll is {roll}.")
    ctx.push({"kind": "solo_adjust", "seat": 0})


def _score(ctx: Ctx, frame: Frame) -> None:
    att, foe, rnd = frame["att"], _defender(ctx, frame), frame["stage"][-1]
    frame["ah"] = successes(
        frame["roll"]["a"] + _mod(att, foe, "cc_hit"), thresholds(_body(att), "cc_hit")
    )
    frame["dh"] = successes(
        frame["roll"]["d"] + _mod(foe, att, "cc_hit"), thresholds(_body(foe), "cc_hit")
    )
    ctx.log(
        "FL-SOLO-10",
        f"{card(att)['name']} scores {counted(frame['ah'], 'hit')}, "
        f"{card(foe)['name']} {frame['dh']}.",
    )
    if not frame["ah"] and not frame["dh"]:
        frame["stage"] = "hit2" if rnd == "1" else "over"  # no block roll is needed
        return
    roll = dice.roll2(ctx.s)
    frame["roll"] = {"a": roll, "d": roll}
    frame["stage"] = "block" + rnd
    ctx.log("FL-SOLO-10", f"The block roll is {roll}.")
    ctx.push({"kind": "solo_adjust", "seat": 0})


def _block(ctx: Ctx, frame: Frame) -> None:
    """Blocks cancel this round's hits; the rest become wounds (SOLO-12)."""
    att, foe, rnd = frame["att"], _defender(ctx, frame), frame["stage"][-1]
    a_blocks = successes(
        frame["roll"]["a"] + _mod(att, foe, "cc_block"), thresholds(_body(att), "cc_block")
    )
    d_blocks = successes(
        frame["roll"]["d"] + _mod(foe, att, "cc_block"), thresholds(_body(foe), "cc_block")
    )
    frame["aw"] += max(0, frame["dh"] - a_blocks)
    frame["dw"] += max(0, frame["ah"] - d_blocks)
    ctx.log(
        "FL-SOLO-12",
        f"Wounds: {card(att)['name']} {frame['aw']}, {card(foe)['name']} {frame['dw']}.",
    )
    frame["stage"] = "over" if rnd == "2" or _someone_dead(frame, att, foe) else "hit2"


def _someone_dead(frame: Frame, att: str, foe: str) -> bool:
    return bool(frame["aw"] >= life(_body(att)) or frame["dw"] >= life(_body(foe)))


def _defender(ctx: Ctx, frame: Frame) -> str:
    return _defender_card(ctx.s, frame)


def _defender_card(state: State, frame: Frame) -> str:
    """The face-up defender the fight is against."""
    top: str = state["solo"]["piles"][frame["pile"]][-1]
    return top


def _over(ctx: Ctx, frame: Frame) -> None:
    """Kills, new defenders and markers, the living pile (SOLO-13..15, A-31)."""
    solo, att, foe = ctx.s["solo"], frame["att"], _defender(ctx, frame)
    ctx.pop()
    if frame["dw"] >= life(_body(foe)):
        solo["wounds"][frame["pile"]] = 0
        _kill_defender(ctx, frame["pile"])
    elif ctx.opt("solo_wounds") == "keep" or level(ctx.s["options"])["wounds"] == "keep":
        # A-31 leaves open whether a surviving defender heals; the variant (and the easier
        # level) keeps its wounds.
        solo["wounds"][frame["pile"]] = frame["dw"]
    won = solo["killed"] >= PILES * PILE_SIZE
    if frame["aw"] >= life(_body(att)):
        solo["discard"].append(att)
        ctx.log("FL-SOLO-15", f"{card(att)['name']} dies.")
    elif frame["aw"] == 0 or won:
        solo["living"].append(att)
    else:
        ctx.push({"kind": "solo_keep", "seat": 0, "card": att, "wounds": frame["aw"]})
    if won:
        ctx.s["over"], ctx.s["stack"], ctx.s["winner"], solo["won"] = True, [], [0], True
        ctx.log("FL-SOLO-18", "All nine defenders are dead: you win!")
    elif solo["markers"] <= 0:
        _lose(ctx, "the marker pool is empty")  # checked after every combat too


def _kill_defender(ctx: Ctx, pile_index: int) -> None:
    solo = ctx.s["solo"]
    pile = solo["piles"][pile_index]
    solo["discard"].append(pile.pop())
    solo["killed"] += 1
    if pile:
        solo["markers"] += card(pile[-1])["control"]
        ctx.log("FL-SOLO-13", f"A defender falls; {card(pile[-1])['name']} is turned up.")
    elif solo["deck"]:
        burnt = solo["deck"].pop()
        solo["discard"].append(burnt)
        solo["markers"] += card(burnt)["control"]
        ctx.log("FL-SOLO-14", f"A pile is cleared; {card(burnt)['name']} is discarded for markers.")


STAGES = {
    "pick": _pick,
    "df": _df,
    "dfblock": _df_block,
    "hit1": _hit,
    "hit2": _hit,
    "score1": _score,
    "score2": _score,
    "block1": _block,
    "block2": _block,
    "over": _over,
}


def _fight_frame(ctx: Ctx) -> Frame:
    return next(f for f in reversed(ctx.s["stack"]) if f["kind"] == "fight")


def _pick_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    solo = ctx.s["solo"]
    return [
        option({"card": c, "pile": i}, f"{card(c)['name']} against {card(p[-1])['name']}")
        for c in sorted(set(solo["hand"]))
        if affordable(c, solo["markers"])
        for i, p in enumerate(solo["piles"])
        if p
    ]


def _pick_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    """Pay markers equal to the attacker's Control (SOLO-08)."""
    ctx.pop()
    fight, solo = _fight_frame(ctx), ctx.s["solo"]
    solo["hand"].remove(action["card"])
    fight["att"], fight["pile"] = action["card"], action["pile"]
    fight["dw"] = solo["wounds"][action["pile"]]  # always 0 unless the "keep" reading is on
    ctx.log(
        "FL-SOLO-08",
        f"{card(action['card'])['name']} attacks {card(_defender(ctx, fight))['name']}.",
    )
    if not _pay(ctx, card(action["card"])["control"]):
        ctx.push({"kind": "solo_adjust", "seat": 0})


def _side_string(state: State, frame: Frame, side: str) -> tuple[int, list[int]]:
    """The modifier and thresholds one side's roll is read against at this stage of the fight."""
    att, foe = frame["att"], _defender_card(state, frame)
    me, other = (att, foe) if side == "a" else (foe, att)
    stage = frame["stage"]
    if stage == "dfblock":
        return 0, _df_blocks(me)
    kind = {"df": "df", "score": "cc_hit", "block": "cc_block"}[stage.rstrip("12")]
    return _mod(me, other, kind), thresholds(_body(me), kind)


def shifts(state: State, frame: Frame) -> list[tuple[str, int, int]]:
    """The marker spends that change something: (side, by, successes after), your roll up to each
    threshold it misses, the defender's down below each one it meets (FL-SOLO-11). A spend that
    crosses no threshold changes nothing, one that empties the pool loses at once (A-31), and
    lowering your own roll or raising the defender's only helps the defender: none is offered."""
    markers = state["solo"]["markers"]
    found = []
    for side in ("a", "d"):
        mod, string = _side_string(state, frame, side)
        total = frame["roll"][side] + mod
        for t in string:
            by = t - total if side == "a" else t - 1 - total
            if by and (by > 0) == (side == "a") and abs(by) < markers:
                found.append((side, by, successes(total + by, string)))
    return found


def _adjust_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    fight = _fight_frame(ctx)
    roll = fight["roll"]
    opts = [option({"do": "done"}, f"Keep the rolls (you {roll['a']}, defender {roll['d']})")]
    for side, by, after in shifts(ctx.s, fight):
        who = "your" if side == "a" else "the defender's"
        opts.append(
            option(
                {"do": "shift", "side": side, "by": by},
                f"Spend {counted(abs(by), 'marker')}: {who} roll to {roll[side] + by} "
                f"({counted(after, 'success', 'successes')})",
            )
        )
    return opts


def _adjust_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    """Each marker moves one side's roll by 1; one answer may spend several (FL-SOLO-11)."""
    if action["do"] == "done":
        ctx.pop()
        return
    fight = _fight_frame(ctx)
    fight["roll"][action["side"]] += action["by"]
    ctx.log(
        "FL-SOLO-11",
        f"{counted(abs(action['by']), 'marker')} spent: the "
        f"{'attacker' if action['side'] == 'a' else 'defender'}'s roll is now "
        f"{fight['roll'][action['side']]}.",
    )
    _pay(ctx, abs(action["by"]))


def _keep_options(ctx: Ctx, frame: Frame, seat: int) -> list[Option]:
    opts = [option({"do": "discard"}, "Discard the wounded attacker")]
    if ctx.s["solo"]["markers"] > frame["wounds"]:  # paying the pool empty loses at once
        opts.append(
            option({"do": "keep"}, f"Pay {counted(frame['wounds'], 'marker')} to keep it living")
        )
    return opts


def _keep_choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
    ctx.pop()
    solo = ctx.s["solo"]
    if action["do"] == "keep":
        solo["living"].append(frame["card"])
        _pay(ctx, frame["wounds"])
    else:
        solo["discard"].append(frame["card"])


handlers.decision(
    "solo_pick",
    "FL-SOLO-08",
    lambda ctx, f, s: "Choose an attacker and a defender",
    _pick_options,
    _pick_choose,
    free=False,
)
handlers.decision(
    "solo_adjust",
    "FL-SOLO-11",
    lambda ctx, f, s: "Spend markers on the roll?",
    _adjust_options,
    _adjust_choose,
    free=False,
)
handlers.decision(
    "solo_keep",
    "FL-SOLO-15",
    lambda ctx, f, s: "Your attacker survived wounded",
    _keep_options,
    _keep_choose,
    free=False,
)


def determinize(state: State) -> State:
    """Shuffle the draw deck with the face-down defenders (SOLO-02)."""
    solo = state["solo"]
    hidden = list(solo["deck"])
    for pile in solo["piles"]:
        hidden += pile[:-1]
    hidden.sort()  # the deal depends on the unseen cards as a set, not their true order
    rng.shuffle(state, hidden)
    for pile in solo["piles"]:
        if pile:
            size = len(pile) - 1
            pile[:-1], hidden = hidden[:size], hidden[size:]
    solo["deck"] = hidden
    return state


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Face-up defenders, counts of face-down ones, the hand for the player only."""
    solo = state["solo"]
    fight = next((f for f in state["stack"] if f["kind"] == "fight"), None)
    return {
        "game": "feudal",
        "mode": "solitaire",
        "players": 1,
        "seat": seat,
        "defenders": [
            {"top": p[-1] if p else None, "hidden": max(0, len(p) - 1)} for p in solo["piles"]
        ],
        "deck_count": len(solo["deck"]),  # what is left to fill the piles
        "hand": sorted(solo["hand"]) if seat == 0 else None,
        "hand_count": len(solo["hand"]),
        "living": list(solo["living"]),
        "discard": list(solo["discard"]),
        "markers": solo["markers"],
        "killed": solo["killed"],
        "over": state["over"],
        "fight": {k: fight[k] for k in ("stage", "att", "pile", "aw", "dw", "roll")}
        if fight
        else None,
        "winner": state["winner"],
    }


def check(state: State) -> None:
    """Cards conserved, markers never negative."""
    solo = state["solo"]
    count = len(solo["deck"]) + len(solo["hand"]) + len(solo["living"]) + len(solo["discard"])
    count += sum(len(p) for p in solo["piles"])
    for frame in state["stack"]:
        if frame["kind"] == "fight" and frame["att"] or frame["kind"] == "solo_keep":
            count += 1
    # Only characters are dealt in solitaire (SOLO-01): a bad re-deal would show here.
    dealt = solo["deck"] + solo["hand"] + [c for p in solo["piles"] for c in p]
    strays = [c for c in dealt if card(c)["type"] != "character"]
    if strays:
        raise InvariantError(f"solitaire: {strays} dealt, which are not characters")
    if count != solo["cards"] or solo["markers"] < 0:
        raise InvariantError(
            f"solitaire: {count} cards of {solo['cards']}, markers {solo['markers']}"
        )
