"""The dice an HRE attack would roll, shown beside each attack a Manoeuvre offers (issue 12).

The site counts them from the view and the card data only; here the engine starts each of those
battles (every unit of the province sent) and its own battle frame must roll the same dice.
"""

from __future__ import annotations

from typing import Any

from games.boards.hre import odds
from rules.core import clone, rng
from rules.core.registry import get_engine
from rules.hre import battle
from rules.hre.state import Ctx, modifiers

ENGINE = get_engine("hre")


def _engine_dice(state: dict[str, Any], seat: int, action: dict[str, Any]) -> Any:
    """Start the battle of one attack with every unit of its province; each side's dice, read
    from the battle frame as battle.start leaves it (the battle may resolve at once after)."""
    state = clone(state)
    found: list[dict[str, dict[int, int]]] = []
    original = battle.start

    def start(ctx: Ctx, *args: Any) -> None:
        original(ctx, *args)
        frame = ctx.s["stack"][-1]
        for side in (0, 1):
            per: dict[str, dict[int, int]] = {}
            for phase in odds.PHASES:
                for value in battle._dice_for(ctx, frame, side, phase):
                    per.setdefault(phase, {})[value] = per.get(phase, {}).get(value, 0) + 1
            found.append(per)

    battle.start = start  # type: ignore[assignment]
    try:
        ENGINE.apply_trusted(state, seat, action)
        while not found and ENGINE.prompts(state)[0]["kind"] == "move_count":
            prompt = ENGINE.prompts(state)[0]
            ENGINE.apply_trusted(state, seat, prompt["options"][-1]["action"])  # all of them
    finally:
        battle.start = original  # type: ignore[assignment]
    return found or None


def test_each_attack_shows_the_dice_the_engine_s_battle_rolls_hre_base_bseq_02_to_05() -> None:
    """HRE-BASE-BSEQ-03, -04, -05: a die per unit with a value in each phase, hitting at that
    value or more; HRE-BASE-PVP-02: the defender's Farms and City add Transient units;
    HRE-BASE-BARB-04: the Barbarians' extra unit by the attacker's trophies; a final 1 misses
    (HRE-BASE-BSEQ-06), so a die at 4+ hits half the time."""
    assert [odds.chance(v) for v in (2, 3, 4, 5, 6)] == [83, 67, 50, 33, 17]
    checked = hidden = 0
    for seed in range(1, 30):
        state = ENGINE.setup(seed, {}, 2)
        chooser = {"rng": rng.seed_state(seed)}
        for _ in range(1500):
            if ENGINE.is_over(state) or checked >= 12:
                break
            prompt = rng.choice(chooser, ENGINE.prompts(state))
            seat = prompt["seat"]
            if prompt["kind"] == "move" and not modifiers(state, seat, "extra_die"):
                view = ENGINE.view(state, seat)
                notes = odds.notes(view, prompt)
                for option, note in zip(prompt["options"], notes, strict=True):
                    if not note:
                        continue
                    action = option["action"]
                    mine, theirs, _, _ = odds.sides(view, seat, action["from"], action["to"])
                    engine = _engine_dice(state, seat, action)
                    assert engine is not None, option["label"]
                    assert mine == engine[0], option["label"]
                    if theirs is None:
                        assert "hidden" in note
                        hidden += 1
                    else:
                        assert theirs == engine[1], option["label"]
                        checked += 1
            ENGINE.apply_trusted(state, seat, rng.choice(chooser, prompt["options"])["action"])
        if checked >= 12:
            break
    assert checked >= 12 and hidden >= 1
