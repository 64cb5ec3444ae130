"""Battle effects shared by module cards (Module 9's Combat cards, Module 6's Commanders).

An effect is one of: `plus` (+1s on one phase's dice, spent like a Keep's), `result` (Battle
Result), `cancel` (damage cancelled, as a Technology's) or `gain` (Gold, VP, Culture Points or a
resource at once). The battle frame carries them for the side they help: `boost` and `bonus` are
read by the base battle (rules.hre.battle, rules.hre.outcome), `cancel` is its own.
"""

from __future__ import annotations

from typing import Any

from rules.hre.economy import gain
from rules.hre.state import Ctx, Frame, describe

KINDS = ("plus", "result", "cancel", "gain")
PHASES = ("volley", "charge", "melee")
GAINS = ("gold", "vp", "cp", "wood", "leather", "stone", "iron")


def check(where: str, effect: dict[str, Any]) -> None:
    """Refuse an effect outside the vocabulary (raised at load, naming the file and card)."""
    kind = effect.get("kind")
    if kind not in KINDS or (kind == "plus" and effect.get("phase") not in PHASES):
        raise ValueError(f"{where}: unknown effect {effect}")
    if kind == "gain":
        amounts = effect.get("gain")
        if not isinstance(amounts, dict) or not amounts or set(amounts) - set(GAINS):
            raise ValueError(f"{where}: a gain of {GAINS} is needed")
        if not all(isinstance(n, int) and n > 0 for n in amounts.values()):
            raise ValueError(f"{where}: gains must be positive")
    elif not (isinstance(effect.get("n"), int) and effect["n"] > 0):
        raise ValueError(f"{where}: the amount must be positive")


def words(effect: dict[str, Any]) -> str:
    """An effect in a few words, for prompts and the log."""
    if effect["kind"] == "plus":
        return f"+{effect['n']} on {effect['phase']} dice"
    if effect["kind"] == "result":
        return f"+{effect['n']} Battle Result"
    if effect["kind"] == "cancel":
        return f"cancel {effect['n']} damage"
    return f"gain {describe(effect['gain'])}"


def apply(ctx: Ctx, battle: Frame, side: int, effect: dict[str, Any], rule: str, why: str) -> None:
    """Give one effect to a side of the battle (0 the attacker, 1 the defender)."""
    if effect["kind"] == "plus":
        boost = battle.setdefault("boost", [{}, {}])[side]
        boost[effect["phase"]] = boost.get(effect["phase"], 0) + effect["n"]
    elif effect["kind"] == "result":
        battle.setdefault("bonus", [0, 0])[side] += effect["n"]
    elif effect["kind"] == "cancel":
        battle["cancel"][side] += effect["n"]
    else:
        seat = battle["att"] if side == 0 else battle["def"]
        gain(ctx, seat, effect["gain"], rule, why)
