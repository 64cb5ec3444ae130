"""Balance figures of the HRE base game from random playouts (until the arena can play them).

`python bench/hre_balance.py --players N --games G [--seed S]` plays G random games at N players
(every prompted seat picks uniformly, the Ruler draft included; seeds S..S+G-1, no hashing) and
prints one JSON object: each Ruler's games and win rate, each turn-order position's win rate
(position 1 is the starting player), how often the Culture deck running out ended the game, the
other end triggers, and the mean number of actions. A shared first place counts as 1/k of a win
for each of the k seats that share it, so win rates add up to 100 %.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from typing import Any

from rules.core import rng
from rules.hre import ENGINE, endgame
from rules.hre.state import Ctx

CONFIG: dict[str, Any] = {"modules": [], "options": {}}


def play(seed: int, players: int) -> dict[str, Any]:
    """One random game: Rulers by seat, winners' shares, the end trigger(s) and the length."""
    state = ENGINE.setup(seed, CONFIG, players)
    chooser = {"rng": rng.seed_state(seed ^ 0x5DEECE66D)}
    actions, ended_by = 0, []
    while not ENGINE.is_over(state):
        prompt = rng.choice(chooser, ENGINE.prompts(state))
        action = rng.choice(chooser, prompt["options"])["action"]
        before = state["end_triggered"]
        ENGINE.apply_trusted(state, prompt["seat"], action)
        if state["end_triggered"] and not before:
            ended_by = endgame.triggers(Ctx(state))
        actions += 1
    result = ENGINE.result(state)
    assert result is not None
    firsts = [row["seat"] for row in result["seats"] if row["rank"] == 1]
    return {
        "rulers": [seat["ruler"] for seat in state["seats"]],
        "start": state["start"],
        "winners": firsts,
        "ended_by": ended_by,
        "actions": actions,
    }


def summary(games: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Win rates per Ruler and per turn-order position, and the end triggers, in percent."""
    wins: dict[str, float] = defaultdict(float)
    seated: Counter[str] = Counter()
    position_wins = [0.0] * players
    triggers: Counter[str] = Counter()
    for game in games:
        share = 1 / len(game["winners"])
        seated.update(game["rulers"])
        for seat in game["winners"]:
            wins[game["rulers"][seat]] += share
            position_wins[(seat - game["start"]) % players] += share
        triggers.update(game["ended_by"])
    n = len(games)
    return {
        "players": players,
        "games": n,
        "fair_share_pct": round(100 / players, 1),
        "rulers": {
            r: {"games": seated[r], "win_pct": round(100 * wins[r] / seated[r], 1)}
            for r in sorted(seated)
        },
        "positions_win_pct": [round(100 * w / n, 1) for w in position_wins],
        "deck_out_pct": round(100 * triggers["HRE-BASE-END-06"] / n, 1),
        "triggers_pct": {t: round(100 * c / n, 1) for t, c in sorted(triggers.items())},
        "mean_actions": round(sum(g["actions"] for g in games) / n),
    }


def main() -> int:
    """Play and print one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, required=True, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = [play(seed, args.players) for seed in range(args.seed, args.seed + args.games)]
    print(json.dumps(summary(games, args.players)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
