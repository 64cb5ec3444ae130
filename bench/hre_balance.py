"""Balance figures of the HRE base game: each Ruler's and each seat's win rate, and the end.

`python bench/hre_balance.py --players N --games G [--seed S] [--scenario SLUG] [--bot SLUG
[--iterations K]]` plays G games at N players, seeds S..S+G-1, of the base game or a scenario
(`great-domain-5` .. `-8` for 5 to 8 players, Module 2). Without --bot every prompted seat picks uniformly
among its options, as `python -m rules simulate` does; with --bot that bot of the arena
(`rules.bots`: greedy, search, ...) plays every seat, the Ruler draft included, as
`python -m rules arena` plays it (same decision seeds); `--draft uniform` leaves the draft to
the uniform pick, so that each Ruler sits about equally often whatever the bot thinks of it. The arena reports by bot; this reports
by Ruler and by turn order, which the arena does not. It prints one JSON object: each Ruler's
games and win rate, each turn-order position's win rate
(position 1 is the starting player), how often the Culture deck running out ended the game, the
other end triggers, and the mean number of actions; in the Great Domain also each half's
(Western and Central Rulers, HRE-M02-SETUP-04). A shared first place counts as 1/k of a win
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
from rules.hre.state import Ctx, data

CONFIG: dict[str, Any] = {"modules": [], "options": {}}


def play(
    seed: int,
    players: int,
    bot: str | None = None,
    budget: Budget | None = None,
    config: dict[str, Any] | None = None,
    watch: Any = None,
    uniform_draft: bool = False,
) -> dict[str, Any]:
    """One game: Rulers by seat, winners' shares, the end trigger(s) and the length.

    `config` is a scenario's (default the base game); `watch`, if given, is told of every
    action of the game itself (`watch.before(state)`, then `watch.after(state)`; at the end
    `watch.finish(state, result)`), never of a bot's look-ahead. With `uniform_draft` the Ruler
    draft is uniform even when a bot plays, so every Ruler sits about as often."""
    state = ENGINE.setup(seed, CONFIG if config is None else config, players)
    chooser = {"rng": rng.seed_state(seed ^ 0x5DEECE66D)}
    actions, ended_by = 0, []
    while not ENGINE.is_over(state):
        prompts = ENGINE.prompts(state)
        if bot is None or (uniform_draft and prompts[0]["kind"] == "draft"):
            prompt = rng.choice(chooser, prompts)
            seat, action = prompt["seat"], rng.choice(chooser, prompt["options"])["action"]
        else:
            seat = prompts[0]["seat"]
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
    halves = _halves(games, players) if any(_western(r) for g in games for r in g["rulers"]) else {}
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
        **halves,
    }


def _western(ruler: str) -> bool:
    """Whether a Ruler comes from the Great Domain's western half (HRE-M02-SETUP-04)."""
    return bool(data().rulers[ruler].get("origin") == "western")


def _halves(games: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Each half's seats and win rate (a seat's, against the fair share), and how many Western
    Rulers each game seated."""
    seats: Counter[str] = Counter()
    wins: dict[str, float] = defaultdict(float)
    mix_of: Counter[int] = Counter()
    for game in games:
        sides = ["western" if _western(r) else "central" for r in game["rulers"]]
        seats.update(sides)
        mix_of[sides.count("western")] += 1
        for seat in game["winners"]:
            wins[sides[seat]] += 1 / len(game["winners"])
    return {
        "halves": {
            side: {
                "seats": seats[side],
                "wins": round(wins[side], 3),
                "win_pct": round(100 * wins[side] / seats[side], 1) if seats[side] else None,
            }
            for side in ("western", "central")
        },
        "western_seats_per_game": {str(k): mix_of[k] for k in sorted(mix_of)},
    }


def arguments(doc: str | None, games: int, scenario: str = "base") -> argparse.ArgumentParser:
    """The options this script and `hre_sources.py` share: players, games, seeds, the scenario,
    the bot."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--players", type=int, required=True, choices=range(1, 9))
    parser.add_argument(
        "--scenario", default=scenario, help=f"an HRE scenario (default {scenario})"
    )
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", help="a bot of rules.bots in every seat (default: uniform)")
    parser.add_argument("--iterations", type=int, help="the bot's budget, as the arena's")
    parser.add_argument(
        "--draft",
        choices=("bot", "uniform"),
        default="bot",
        help="who drafts the Rulers: the bot (default) or a uniform pick, every Ruler alike",
    )
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


def scenario_config(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Any]:
    """The config of --scenario, checked to exist and to take --players."""
    scenarios = {s["slug"]: s for s in ENGINE.scenarios()}
    if args.scenario not in scenarios:
        parser.error(f"no HRE scenario {args.scenario!r}")
    scenario = scenarios[args.scenario]
    if not scenario["min_players"] <= args.players <= scenario["max_players"]:
        parser.error(f"{args.scenario} takes {scenario['min_players']}-{scenario['max_players']}")
    return dict(scenario["config"])


def budget_of(args: argparse.Namespace) -> Budget | None:
    """The bot's budget (the bot checked to exist), None for the bot's default or uniform play."""
    if args.bot:
        bots.get_bot(args.bot)
    return Budget(iterations=args.iterations) if args.iterations else None


def main() -> int:
    """Play and print one JSON object."""
    parser = arguments(__doc__, 400)
    args = parser.parse_args()
    config = scenario_config(parser, args)
    budget = budget_of(args)
    uniform = args.draft == "uniform"
    games = records(
        args, lambda seed: play(seed, args.players, args.bot, budget, config, None, uniform)
    )
    out = summary(games, args.players)
    out.update(
        scenario=args.scenario,
        bot=args.bot or "uniform",
        iterations=args.iterations,
        draft=args.draft,
    )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
