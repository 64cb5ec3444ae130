"""`python -m rules`: list games, simulate random games, benchmark and replay, without Django."""

from __future__ import annotations

import argparse
import json
import sys
from timeit import default_timer
from typing import Any

from rules.core.canonical import canonical_json, clone, state_hash
from rules.core.engine import Engine
from rules.core.errors import ScenarioError
from rules.core.playout import PlayoutError, play_and_replay, play_random
from rules.core.registry import all_engines, get_engine
from rules.core.replay import replay


def _scenario(engine: Engine, slug: str | None) -> dict[str, Any]:
    scenarios = engine.scenarios()
    if slug is None:
        first: dict[str, Any] = scenarios[0]
        return first
    for scenario in scenarios:
        if scenario["slug"] == slug:
            return scenario
    known = ", ".join(s["slug"] for s in scenarios)
    raise ScenarioError(f"{engine.game_id} has no scenario {slug!r}; known: {known}")


def _config(engine: Engine, scenario: dict[str, Any], options: str | None) -> dict[str, Any]:
    config: dict[str, Any] = json.loads(canonical_json(scenario["config"]))
    if options:
        extra = json.loads(options)
        if not isinstance(extra, dict):
            raise ScenarioError("--options must be a JSON object")
        config.setdefault("options", {}).update(extra)
    errors = engine.validate_scenario(config)
    if errors:
        raise ScenarioError("; ".join(errors))
    return config


def show(args: argparse.Namespace, row: dict[str, Any], text: str) -> None:
    """Print one result: a JSON line with --json, else the text for people."""
    print(json.dumps(row, ensure_ascii=False) if args.json else text)


def cmd_list(args: argparse.Namespace) -> int:
    """Print every game and shipped scenario."""
    for engine in all_engines():
        if not args.json:
            print(f"{engine.game_id}: {engine.title} (rules version {engine.rules_version})")
        for scenario in engine.scenarios():
            row = {
                "game": engine.game_id,
                "scenario": scenario["slug"],
                "title": scenario["title"],
                "min_players": scenario["min_players"],
                "max_players": scenario["max_players"],
                "retired": scenario.get("retired", False),
            }
            seats = f"{row['min_players']}–{row['max_players']} players"
            kept = "; retired, kept for stored games" if row["retired"] else ""
            show(args, row, f"  {row['scenario']}: {row['title']} ({seats}{kept})")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play random games and print one JSON line per game; non-zero on any failure."""
    engine = get_engine(args.game)
    scenario = _scenario(engine, args.scenario)
    config = _config(engine, scenario, args.options)
    players = args.players or scenario["min_players"]
    if not scenario["min_players"] <= players <= scenario["max_players"]:
        raise ScenarioError(
            f"{scenario['slug']} takes {scenario['min_players']}–{scenario['max_players']} players"
        )
    failures = 0
    for index in range(args.games):
        seed = args.seed + index
        try:
            playout = play_and_replay(engine, seed, config, players)
        except PlayoutError as error:
            print(json.dumps({"game": engine.game_id, "seed": seed, "error": str(error)}))
            failures += 1
            continue
        report = playout.replay
        line = {
            "game": engine.game_id,
            "scenario": scenario["slug"],
            "players": players,
            "seed": seed,
            "actions": playout.actions,
            "over": playout.over,
            "result": playout.result["seats"] if playout.result else None,
            "state_hash": state_hash(playout.state),
            "replay_ok": bool(report and report.ok),
        }
        if report and not report.ok:
            line["error"] = f"replay divergence at move {report.divergence}: {report.message}"
            failures += 1
        print(json.dumps(line), flush=True)
    if failures:
        print(f"{failures} of {args.games} games failed", file=sys.stderr)
    return 1 if failures else 0


def _per_call(fn: Any, repeat: int) -> float:
    start = default_timer()
    for _ in range(repeat):
        fn()
    return (default_timer() - start) / repeat


def cmd_bench(args: argparse.Namespace) -> int:
    """Measure random-playout speed and the cost of clone, view and serialization."""
    engine = get_engine(args.game)
    scenario = _scenario(engine, args.scenario)
    config = _config(engine, scenario, args.options)
    players = args.players or scenario["max_players"]
    actions = 0
    start = default_timer()
    records = []
    for index in range(args.games):
        playout = play_random(
            engine, args.seed + index, config, players, invariants=False, hashes=False
        )
        actions += playout.actions
        records.append(playout.record)
    elapsed = default_timer() - start
    # The per-call costs are taken on a mid-game state: the first game replayed halfway.
    moves = records[0]["moves"]
    mid = engine.setup(args.seed, config, players)
    for move in moves[: len(moves) // 2]:
        engine.apply_trusted(mid, move["seat"], move["action"])
    first = engine.prompts(mid)[0]
    figures = {
        "game": engine.game_id,
        "players": players,
        "games": args.games,
        "actions": actions,
        "actions_per_second": round(actions / elapsed),
        "games_per_second": round(args.games / elapsed, 2),
        "note": "playout time covers prompts, option choice and apply; no hashing or invariants",
        "clone_us": round(_per_call(lambda: clone(mid), 2000) * 1e6, 1),
        "view_us": round(_per_call(lambda: engine.view(mid, 0), 2000) * 1e6, 1),
        "prompts_us": round(_per_call(lambda: engine.prompts(mid), 2000) * 1e6, 1),
        "checked_apply_us": round(
            _per_call(lambda: engine.apply(mid, first["seat"], first["options"][0]["action"]), 500)
            * 1e6,
            1,
        ),
        "canonical_json_us": round(_per_call(lambda: canonical_json(mid), 500) * 1e6, 1),
        "state_hash_us": round(_per_call(lambda: state_hash(mid), 500) * 1e6, 1),
        "state_bytes": len(canonical_json(mid)),
    }
    print(json.dumps(figures, indent=None if args.json else 2))
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    """Bots play each other, rotating through the seats; win rates, scores and think times."""
    from rules.bots import arena  # the bots work over this package, so they load on demand

    engine = get_engine(args.game)
    scenario = _scenario(engine, args.scenario)
    config = _config(engine, scenario, args.options)
    return arena.command(args, engine, scenario, config)


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a downloaded game record and check every hash."""
    with open(args.file, encoding="utf-8") as handle:
        record = json.load(handle)
    engine = get_engine(record["game"])
    report = replay(engine, record)
    print(
        json.dumps(
            {
                "ok": report.ok,
                "moves": report.steps,
                "divergence": report.divergence,
                "message": report.message,
                "final_hash": report.final_hash,
            }
        )
    )
    return 0 if report.ok else 1


def cmd_cards(args: argparse.Namespace) -> int:
    """List a game's card database: id, name, type, class, numbers and text."""
    rows = get_engine(args.game).card_list()
    if not rows:
        raise ScenarioError(f"{args.game} has no card database")
    for row in rows:
        show(args, row, _card_line(row))
    return 0


def _card_line(row: dict[str, Any]) -> str:
    numbers = ", ".join(f"{k} {_number(v)}" for k, v in row["numbers"].items())
    shown = " · ".join(p for p in (row["type"], row["class"] or "", numbers) if p)
    return f"{row['id']}: {row['name']} [{shown}] {row['text']}"


def _number(value: Any) -> str:
    """A figure of a card for the text listing: a combat string as 8/11, null as -."""
    if isinstance(value, list):
        return "/".join(str(v) for v in value) or "-"
    return "-" if value is None else str(value)


def parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m rules`."""
    top = argparse.ArgumentParser(prog="python -m rules", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    listing = sub.add_parser("list", help="games, shipped scenarios and seat counts")
    listing.add_argument("--json", action="store_true", help="one JSON object per scenario")
    listing.set_defaults(func=cmd_list)
    for name, func in (("simulate", cmd_simulate), ("bench", cmd_bench)):
        command = sub.add_parser(name, help=func.__doc__)
        command.add_argument("game")
        command.add_argument("--scenario")
        command.add_argument("--players", type=int)
        command.add_argument("--options", help="JSON object of scenario options")
        command.add_argument("--games", type=int, default=1 if name == "simulate" else 20)
        command.add_argument("--seed", type=int, default=1)
        command.add_argument("--json", action="store_true")
        command.set_defaults(func=func)
    arena = sub.add_parser("arena", help=cmd_arena.__doc__)
    arena.add_argument("game")
    arena.add_argument("--scenario")
    arena.add_argument("--players", type=int, help="seats (default: one per bot named)")
    arena.add_argument("--options", help="JSON object of scenario options")
    arena.add_argument("--bots", required=True, help="one bot slug per seat, e.g. greedy,random")
    arena.add_argument("--games", type=int, default=10)
    arena.add_argument("--seed", type=int, default=1)
    budget = arena.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, help="search iterations a decision")
    budget.add_argument("--ms", type=int, help="wall-clock milliseconds a decision")
    arena.add_argument("--json", action="store_true", help="one JSON object")
    arena.set_defaults(func=cmd_arena)
    listing_cards = sub.add_parser("cards", help=cmd_cards.__doc__)
    listing_cards.add_argument("game")
    listing_cards.add_argument("--json", action="store_true", help="one JSON object per card")
    listing_cards.set_defaults(func=cmd_cards)
    replaying = sub.add_parser("replay", help="replay a game record (JSON) and check its hashes")
    replaying.add_argument("file")
    replaying.set_defaults(func=cmd_replay)
    return top


def main(argv: list[str] | None = None) -> int:
    """Run the command line; errors in input are reported without a traceback."""
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (ScenarioError, KeyError, json.JSONDecodeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
