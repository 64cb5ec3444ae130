"""Combatants and combat strings (FL-STR): thresholds, roll modifiers, Life, kills."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.feudal import dice
from rules.feudal.state import Ctx, Frame, abilities_roll, card

STRING_KEY = {"df": "df", "cc_hit": "cc", "cc_block": "block"}
SIDES = ("a", "d")
COMBAT_FIELDS = ("owner", "hits", "wounds", "m", "sup", "tgt", "hit_by")


def enter(character: dict[str, Any], owner: int) -> dict[str, Any]:
    """A character becomes a combatant: counters and match-up fields are added.

    `hit_by` is the owner of the last combatant to hit it, who makes the Control/VP roll if it
    dies: in team play that may be either partner (FL-TEAM-04, A-30).
    """
    character.update(owner=owner, hits=0, wounds=0, m=None, sup=None, tgt=None, hit_by=None)
    return character


def leave(combatant: dict[str, Any]) -> dict[str, Any]:
    """A surviving combatant goes back to the active area as a plain character (FL-COMBAT-END-07)."""
    return {k: v for k, v in combatant.items() if k not in COMBAT_FIELDS}


def effects(c: dict[str, Any]) -> list[dict[str, Any]]:
    """The character's own effects plus those of its Skills and Weapons."""
    found = list(card(c["card"])["effects"])
    for cid in c["skills"] + c["weapons"]:
        found += card(cid)["effects"]
    return found


def life(c: dict[str, Any]) -> int:
    """Life with modifiers; the printed value is Base Life."""
    return int(card(c["card"])["life"]) + sum(
        int(e["amount"]) for e in effects(c) if e["kind"] == "life"
    )


def thresholds(c: dict[str, Any], roll: str) -> list[int]:
    """A combat string with its additions; a duplicate threshold counts twice (FL-STR-06, A-41)."""
    base = list(card(c["card"])[STRING_KEY[roll]])
    for e in effects(c):
        if e["kind"] == "string" and e["string"] == roll:
            base += e["add"]
    return sorted(base)


def successes(total: int, string: list[int]) -> int:
    """One success per threshold the modified roll meets or beats, unclamped (FL-STR-02, FL-STR-07)."""
    return sum(1 for t in string if total >= t)


def met_text(total: int, string: list[int]) -> str:
    """Which thresholds of a string a modified roll met, for the log: "8 on 8/11: meets 8, not 11"."""
    if not string:
        return f"{total} (no thresholds)"
    met = [str(t) for t in string if total >= t]
    missed = [str(t) for t in string if total < t]
    parts = [f"meets {', '.join(met)}"] if met else []
    if missed:
        parts.append(f"{'not' if met else 'misses'} {', '.join(missed)}")
    return f"{total} on {'/'.join(str(t) for t in string)}: {', '.join(parts)}"


def plural(n: int, word: str) -> str:
    """ "1 hit", "2 hits", "no hit"."""
    return f"no {word}" if n == 0 else f"{n} {word}{'' if n == 1 else 's'}"


def roll_text(roll: int, mod: int, string: list[int]) -> str:
    """A 2d6 roll, its modifier, and the thresholds it met: "rolls 7+1 = 8 on 8/11: meets 8, not 11"."""
    shown = f"{roll}{mod:+d} = " if mod else ""
    return f"rolls {shown}{met_text(roll + mod, string)}"


def roll_for(ctx: Ctx, frame: Frame, side: str, c: dict[str, Any], roll: str) -> tuple[int, str]:
    """A combatant's modified 2d6 against its string: the successes, and the roll for the log."""
    total, mod = dice.roll2(ctx.s), roll_mod(ctx, frame, side, c, roll)
    string = thresholds(c, roll)
    return successes(total + mod, string), roll_text(total, mod, string)


def block_roll(ctx: Ctx, c: dict[str, Any], string: list[int]) -> tuple[int, str]:
    """An unmodified 2d6 block roll (armor, a card's DF blocks): blocks saved, the roll's text."""
    total = dice.roll2(ctx.s)
    saved = min(c["hits"], successes(total, string))
    c["hits"] -= saved
    return saved, roll_text(total, 0, string)


def own_mod(c: dict[str, Any], roll: str) -> int:
    """Roll modifiers the combatant carries itself (FL-STR-05)."""
    return sum(int(e["amount"]) for e in effects(c) if e["kind"] == "roll" and e["roll"] == roll)


def enemy_mod(pool: list[dict[str, Any]], roll: str) -> int:
    """Modifiers that members of the opposing pool put on this side's rolls (e.g. Brass)."""
    total = 0
    for c in pool:
        total += sum(
            int(e["amount"]) for e in effects(c) if e["kind"] == "enemy_roll" and e["roll"] == roll
        )
    return total


def site_effects(ctx: Ctx, frame: Frame) -> list[dict[str, Any]]:
    """Effects of the location where this fight is fought; none in the open (FL-COMBAT-PRE-05/07)."""
    if fight_site(frame) != "loc":
        return []
    sites = card(ctx.seat(frame["target"])["locations"])["sites"]
    found: list[dict[str, Any]] = sites[frame["loc"]]["effects"]
    return found


def fight_site(frame: Frame) -> str:
    """'loc', 'open' or 'cancelled' for the fight now: interventions are in the open (FL-MP-07)."""
    if frame["fight"] == "intervention":
        return "open"
    return str(frame["site"])


def roll_mod(ctx: Ctx, frame: Frame, side: str, c: dict[str, Any], roll: str) -> int:
    """Every modifier on one combatant's 2d6 roll of one kind in this fight."""
    other = frame["d" if side == "a" else "a"]
    total = own_mod(c, roll) + enemy_mod(other, roll) + int(frame["boost"][side].get(roll, 0))
    total += abilities_roll(ctx, c["owner"], roll)
    for e in site_effects(ctx, frame):
        if e["kind"] == "all_roll" and e["roll"] == roll:
            total += int(e["amount"])  # "All combatants" means both sides (FL-STR-08)
    return total


def task_mod(ctx: Ctx, frame: Frame | None) -> int:
    """Location modifiers to Task rolls made in a combat there (A-13)."""
    if frame is None:
        return 0
    return sum(int(e["amount"]) for e in site_effects(ctx, frame) if e["kind"] == "task")


def find(frame: Frame, uid: int) -> tuple[str, dict[str, Any]] | None:
    """A combatant of either pool by uid, with its side."""
    for side in SIDES:
        for c in frame[side]:
            if c["uid"] == uid:
                return side, c
    return None


def combat(ctx: Ctx) -> Frame:
    """The combat frame under the decisions and windows on top of the stack."""
    return next(f for f in reversed(ctx.s["stack"]) if f["kind"] == "combat")


def named(ctx: Ctx, frame: Frame) -> tuple[Frame, str, dict[str, Any]]:
    """The combat, and the side and combatant of the uid a decision frame names."""
    fight = combat(ctx)
    found = find(fight, frame["uid"])
    assert found is not None
    return fight, found[0], found[1]


def answer_into(field: str) -> Callable[[Ctx, Frame, int, Any], None]:
    """A decision's answer, a uid, kept in `field` of the combatant the decision names."""

    def choose(ctx: Ctx, frame: Frame, seat: int, action: Any) -> None:
        ctx.pop()
        named(ctx, frame)[2][field] = action["uid"]

    return choose


def other(side: str) -> str:
    """The opposing side."""
    return "d" if side == "a" else "a"


def side_seat(frame: Frame, side: str) -> int:
    """The seat deciding for a side: the announcing attacker or the current defender."""
    return int(frame["att"] if side == "a" else frame["def"])


def wound(ctx: Ctx, frame: Frame, rule: str) -> None:
    """Hits left unblocked become wounds; then the dead leave the fight."""
    for side in SIDES:
        for c in frame[side]:
            c["wounds"] += c["hits"]
            c["hits"] = 0
    remove_dead(ctx, frame, rule)


def remove_dead(ctx: Ctx, frame: Frame, rule: str) -> None:
    """Combatants with wounds at or over Life go to their owners' discard piles (FL-COMBAT-CC-14)."""
    for side in SIDES:
        alive = []
        for c in frame[side]:
            if c["wounds"] >= life(c):
                me = ctx.seat(c["owner"])
                me["discard"] += [c["card"], *c["skills"], *c["weapons"]]
                frame["dead"][side].append(
                    {"card": c["card"], "owner": c["owner"], "by": c["hit_by"]}
                )
                ctx.log(rule, f"{card(c['card'])['name']} ({ctx.name(c['owner'])}) is killed.")
            else:
                alive.append(c)
        frame[side] = alive
