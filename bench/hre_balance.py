"""Balance figures of the HRE base game: each Ruler's and each seat's win rate, and the end.

`python bench/hre_balance.py --players N --games G [--seed S] [--bot SLUG [--iterations K]]`
plays G games at N players, seeds S..S+G-1. Without --bot every prompted seat picks uniformly
among its options, as `python -m rules simulate` does; with --bot that bot of the arena
(`rules.bots`: greedy, search, ...) plays every seat, the Ruler draft included, as
`python -m rules arena` plays it (same decision seeds). The arena reports by bot; this reports
by Ruler and by turn order, which the arena does not. It prints one JSON object: each Ruler's games and win rate, each turn-order position's win rate
(position 1 is the starting player), how often the Culture deck running out ended the game, the
other end triggers, and the mean number of actions. A shared first place counts as 1/k of a win
for each of the k seats that share it, so win rates add up to 100 %.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from rules import bots
from rules.bots.base import Budget, mix
from rules.core import rng
from rules.hre import ENGINE, endgame
from rules.hre.state import Ctx

CONFIG: dict[str, Any] = {"modules": [], "options": {}}


def play(
    seed: int,
    players: int,
    bot: str | None = None,
    budget: Budget | None = None,
    config: dict[str, Any] | None = None,
    watch: Any = None,
) -> dict[str, Any]:
    """One game: Rulers by seat, winners' shares, the end trigger(s) and the length.

    `config` is a scenario's (default the base game); `watch`, if given, is told of every
    action of the game itself (`watch.before(state)`, then `watch.after(state)`; at the end
    `watch.finish(state, result)`), never of a
    bot's look-ahead."""
    state = ENGINE.setup(seed, CONFIG if config is None else config, players)
    chooser = {"rng": rng.seed_state(seed ^ 0x5DEECE66D)}
    actions, ended_by = 0, []
    while not ENGINE.is_over(state):
        if bot is None:
            prompt = rng.choice(chooser, ENGINE.prompts(state))
            seat, action = prompt["seat"], rng.choice(chooser, prompt["options"])["action"]
        else:
            seat = ENGINE.prompts(state)[0]["seat"]
            action = bots.choose(bot, ENGINE, state, seat, mix(seed, actions), budget)
        before = state["end_triggered"]
        if watch is not None:
            watch.before(state)
        ENGINE.apply_trusted(state, seat, action)
        if watch is not None:
            watch.after(state)
        if state["end_triggered"] and not before:
            ended_by = endgame.triggers(Ctx(state))
        actions += 1
    result = ENGINE.result(state)
    assert result is not None
    firsts = [row["seat"] for row in result["seats"] if row["rank"] == 1]
    if watch is not None:
        watch.finish(state, result)
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
            r: {
                "games": seated[r],
                "wins": round(wins[r], 3),
                "win_pct": round(100 * wins[r] / seated[r], 1),
            }
            for r in sorted(seated)
        },
        "positions_wins": [round(w, 3) for w in position_wins],
        "positions_win_pct": [round(100 * w / n, 1) for w in position_wins],
        "deck_outs": triggers["HRE-BASE-END-06"],
        "deck_out_pct": round(100 * triggers["HRE-BASE-END-06"] / n, 1),
        "triggers_pct": {t: round(100 * c / n, 1) for t, c in sorted(triggers.items())},
        "mean_actions": round(sum(g["actions"] for g in games) / n),
    }


def arguments(doc: str | None, games: int) -> argparse.ArgumentParser:
    """The options this script and `hre_sources.py` share: players, games, seeds, the bot."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--players", type=int, required=True, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", help="a bot of rules.bots in every seat (default: uniform)")
    parser.add_argument("--iterations", type=int, help="the bot's budget, as the arena's")
    parser.add_argument(
        "--log", help="append each game's record to this file as a JSON line, as it ends"
    )
    parser.add_argument(
        "--from-log",
        nargs="+",
        metavar="FILE",
        help="play nothing: the figures of the games recorded in these --log files",
    )
    return parser


def records(args: argparse.Namespace, one: Any) -> list[Any]:
    """Each game's record: played (one(seed) each, appended to --log as it ends) or read back
    from --from-log files (a run stopped early still counts every game it finished)."""
    if args.from_log:
        lines = [line for f in args.from_log for line in Path(f).read_text().splitlines()]
        return [json.loads(line) for line in lines if line.strip()]
    found = []
    for seed in range(args.seed, args.seed + args.games):
        found.append(one(seed))
        if args.log:
            with open(args.log, "a") as out:
                out.write(json.dumps(found[-1]) + "\n")
    return found


def budget_of(args: argparse.Namespace) -> Budget | None:
    """The bot's budget (the bot checked to exist), None for the bot's default or uniform play."""
    if args.bot:
        bots.get_bot(args.bot)
    return Budget(iterations=args.iterations) if args.iterations else None


def main() -> int:
    """Play and print one JSON object."""
    args = arguments(__doc__, 400).parse_args()
    budget = budget_of(args)
    games = records(args, lambda seed: play(seed, args.players, args.bot, budget))
    out = summary(games, args.players)
    out["bot"] = args.bot or "uniform"
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
