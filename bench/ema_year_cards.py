"""Write rules/ema/data/year_cards.json: the book's sample card 57 and the 55 authored cards.

`python bench/ema_year_cards.py` rewrites the file from the sequences below (the calibration of
rules/ema/data/README.md explains them and gives the self-play figures they produced). Card k
(number 57 + k, k = 1…55) takes each row from a fixed arithmetic sequence in k, with a different
stride per row, so that every threshold value appears about equally often and no card is best at
everything. Thresholds are in the book's notation (9.4): `C(5►)` needs ER ≥ 5, `-1(◄1)` ER ≤ 1.
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "rules" / "ema" / "data" / "year_cards.json"
SAMPLE = {  # card 57 exactly as the book prints it (3.21)
    "number": 57,
    "leader_checks": [1],
    "conquest": {"result": "C(8►)", "target": "-", "base": "-1(◄7)"},
    "pillage": {"result": "-", "target": "-1(1►)", "base": "-"},
    "ruling": {"result": "-", "target": "-", "base": "+1(7►)"},
    "fortification": {"result": "F", "target": "-", "base": "-"},
    "diplomacy": {"result": "T/C(5►)", "target": "-", "base": "-"},
}
CHECKS = ([1], [], [9], [1, 2], [], [5, 9], [1], [3, 9], [], [2, 5])


def conquest(k: int) -> dict[str, str]:
    """C at 1…12 evenly: ER 6 wins half the time, ER 12 always, ER 1 one time in twelve.

    The even spread keeps each point of ER worth the same 1 in 12, so a better Leader is better
    by as much at any ER and no threshold makes one Stature decisive. A Base −1 when the ER falls
    4 or more short, on half the cards; a Target −1 for a near miss (2 short or better), on one
    card in three.
    """
    c = 1 + (7 * k) % 12
    base = f"-1(◄{c - 4})" if k % 2 == 0 and c >= 4 else "-"
    target = f"-1({c - 2}►)" if k % 3 == 0 and c >= 3 else "-"
    return {"result": f"C({c}►)", "target": target, "base": base}


def pillage(k: int) -> dict[str, str]:
    """Target −1 at 1…6; gold on four cards in five at 1…6; a Base −1 at ER 0 on one in six."""
    t = 1 + (5 * k) % 6
    g = 1 + (k * 5 + 2) % 6
    return {
        "result": f"G({g}►)" if k % 5 else "-",
        "target": f"-1({t}►)",
        "base": "-1(◄0)" if k % 6 == 0 else "-",
    }


def ruling(k: int) -> dict[str, str]:
    """+1 at 0…5 evenly (the sample's column); −1 at ER 0 on one card in five.

    A Leader of Administration 3 ruling a loyal Area at SS +1 (ER 2, 9.35) raises it on half the
    cards, and on all of them with 3 gold; a Ruling at ER 0 can still fail and provoke a
    Rebellion Check (9.19).
    """
    r = (5 * k) % 6
    return {"result": "-", "target": "-1(◄0)" if k % 5 == 0 else "-", "base": f"+1({r}►)"}


def fortification(k: int) -> dict[str, str]:
    """F at 0…7 (0 is the sample's automatic F); a −1 at ER 0 on one card in six."""
    f = (5 * k) % 8
    return {
        "result": "F" if f == 0 else f"F({f}►)",
        "target": "-1(◄0)" if k % 6 == 3 else "-",
        "base": "-",
    }


def diplomacy(k: int) -> dict[str, str]:
    """One card in three T/C at 4…9 (the sample is T/C(5►)); the others a Tie at 0…4, half of
    them also a Diplomatic Conquest at 6…9."""
    if k % 3 == 0:
        return {"result": f"T/C({4 + (k // 3) % 6}►)", "target": "-", "base": "-"}
    t = (k * 3) % 5
    result = f"T({t}►)" if k % 2 else f"T({t}►) C({6 + (k // 2) % 4}►)"
    return {"result": result, "target": "-", "base": "-"}


def card(k: int) -> dict[str, object]:
    """Authored card 57 + k."""
    return {
        "number": 57 + k,
        "leader_checks": CHECKS[k % len(CHECKS)],
        "conquest": conquest(k),
        "pillage": pillage(k),
        "ruling": ruling(k),
        "fortification": fortification(k),
        "diplomacy": diplomacy(k),
    }


def main() -> int:
    """Write the file."""
    cards = [SAMPLE] + [card(k) for k in range(1, 56)]
    OUT.write_text(json.dumps({"cards": cards}, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
