"""Balance figures of Feudal Lords from bot playouts: seats, starter decks and solitaire.

The arena (`python -m rules arena`) tallies win rates by bot; these figures need the same bot in
every seat, tallied by seat or by deck, so this script drives `rules.bots.choose` itself:

    python bench/feudal_balance.py seats --mode melee --players 4 --bot random --games 400
    python bench/feudal_balance.py decks --bot greedy --games 10 [--against dust_caravan]
    python bench/feudal_balance.py solo --bot search --games 40 [--level default]

`seats` plays G games of a scenario (default starter decks, seeds S..S+G-1) and prints each
seat's (or team's) share of wins and the share of drawn games. `decks` plays every pair of
starter decks G times with each deck in each seat and prints each pair's result and each deck's
overall rate. `solo` prints the solitaire win rate. A shared win counts 1/k to each of k seats.
Each command prints one JSON object.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from typing import Any

from rules import bots
from rules.bots import Budget
from rules.core.engine import State
from rules.feudal import ENGINE
from rules.feudal.components import load
from rules.feudal.setup import STARTERS

ACTION_CAP = 20_000
ITERATIONS = 0  # --iterations: a search budget a decision that repeats exactly
ROLL_OF = {
    "df": "df",
    "score1": "cc_hit",
    "score2": "cc_hit",
    "block1": "cc_block",
    "block2": "cc_block",
}
STRING_OF = {"df": "df", "cc_hit": "cc_hit", "cc_block": "cc_block"}


def _fight_odds(att: str, foe: str, tries: int, seed: int) -> float:
    """How often the attacker kills the defender and lives, markers aside (a quick estimate)."""
    from rules.core import rng
    from rules.feudal import solitaire as solo
    from rules.feudal.combatants import life, successes, thresholds

    box = {"rng": rng.seed_state(seed)}

    def d2() -> int:
        return rng.die(box, 6) + rng.die(box, 6)

    def hits(who: str, other: str, roll: int, kind: str) -> int:
        return successes(roll + solo._mod(who, other, kind), thresholds(solo._body(who), kind))

    a_life, d_life, good = life(solo._body(att)), life(solo._body(foe)), 0
    for _ in range(tries):
        r = d2()
        aw, dw = hits(foe, att, r, "df"), hits(att, foe, r, "df")
        for _round in range(2):
            if aw >= a_life or dw >= d_life:
                break
            h, b = d2(), d2()
            ah, dh = hits(att, foe, h, "cc_hit"), hits(foe, att, h, "cc_hit")
            aw += max(0, dh - hits(att, foe, b, "cc_block"))
            dw += max(0, ah - hits(foe, att, b, "cc_block"))
        good += dw >= d_life and aw < a_life
    return good / tries


def planner(state: State) -> Any:
    """A scripted solitaire player: the best odds per marker, markers only where they turn a
    roll, a reserve kept for the next attacker. Measures what a careful player can reach."""
    from rules.feudal import solitaire as solo
    from rules.feudal.combatants import life, successes, thresholds
    from rules.feudal.state import card

    options = [o["action"] for o in ENGINE.prompts(state)[0]["options"]]
    frame, pool = state["stack"][-1], state["solo"]
    markers = pool["markers"]
    cheapest = min((card(c)["control"] for c in pool["hand"]), default=2)
    reserve = cheapest + 1
    if frame["kind"] == "solo_pick":

        def worth(o: dict[str, Any]) -> float:
            foe = pool["piles"][o["pile"]][-1]
            odds = _fight_odds(o["card"], foe, 120, markers)
            return odds - 0.06 * card(o["card"])["control"]

        return max(options, key=worth)
    if frame["kind"] == "solo_keep":
        keep = {"do": "keep"} in options and markers - frame["wounds"] > reserve + 3
        return {"do": "keep"} if keep else {"do": "discard"}
    fight = next(f for f in reversed(state["stack"]) if f["kind"] == "fight")
    kind = ROLL_OF.get(fight["stage"])
    if kind is None or markers <= reserve + 1 or fight["stage"] == "dfblock":
        return {"do": "done"}
    att, foe = fight["att"], solo._defender_card(state, fight)

    def count(who: str, other: str, roll: int) -> int:
        return successes(roll + solo._mod(who, other, kind), thresholds(solo._body(who), kind))

    ra, rd = fight["roll"]["a"], fight["roll"]["d"]
    a_life, d_life = life(solo._body(att)), life(solo._body(foe))
    aw, dw = fight["aw"], fight["dw"]

    def deciding(k: int, side: str) -> bool:
        """Whether moving this side's roll by k turns a kill or a death at this roll."""
        if kind == "cc_block":  # a: my blocks up save me; d: their blocks down let me kill
            if side == "a":
                before = aw + max(0, fight["dh"] - count(att, foe, ra))
                after = aw + max(0, fight["dh"] - count(att, foe, ra + k))
                return before >= a_life > after
            before = dw + max(0, fight["ah"] - count(foe, att, rd))
            after = dw + max(0, fight["ah"] - count(foe, att, rd - k))
            return before < d_life <= after
        if side == "a":  # more hits of mine: worth it when they can reach the defender's Life
            return dw + count(att, foe, ra + k) >= d_life > dw + count(att, foe, ra)
        return aw + count(foe, att, rd) >= a_life > aw + count(foe, att, rd - k)

    wants = [
        (abs(o["by"]), o)
        for o in options
        if o["do"] == "shift"
        and deciding(abs(o["by"]), o["side"])
        and markers - abs(o["by"]) > reserve
    ]
    return min(wants, key=lambda w: w[0])[1] if wants else {"do": "done"}


def play(config: dict[str, Any], players: int, bot: str, seed: int, ms: int | None) -> State:
    """One game with the same bot in every seat; the finished state."""
    state = ENGINE.setup(seed, config, players)
    budget = Budget(ms=ms) if ms else None
    if ITERATIONS:
        budget = Budget(iterations=ITERATIONS)
    for step in range(ACTION_CAP):
        if ENGINE.is_over(state):
            return state
        seat = ENGINE.prompts(state)[0]["seat"]
        if bot == "planner":
            action = planner(state)
        else:
            action = bots.choose(bot, ENGINE, state, seat, seed * 100_003 + step, budget)
        ENGINE.apply_trusted(state, seat, action)
    raise RuntimeError(f"seed {seed}: no end within {ACTION_CAP} actions")


def winners(state: State) -> list[int]:
    """The winning seats (both partners in team play), empty for a draw."""
    return list(state["winner"] or [])


def cmd_seats(args: argparse.Namespace) -> dict[str, Any]:
    options = json.loads(args.options or "{}")
    wins = [0.0] * args.players
    order = [0.0] * args.players  # by place in the turn order, the random first player first
    draws = turns = 0
    for game, seed in enumerate(range(args.seed, args.seed + args.games)):
        config: dict[str, Any] = {"mode": args.mode, "options": options}
        if args.rotate:  # every seat plays every default starter deck as often
            shift = game % args.players
            config["decks"] = [STARTERS[(i + shift) % args.players] for i in range(args.players)]
        state = play(config, args.players, args.bot, seed, args.ms)
        won = winners(state)
        turns += state["turns"]
        if not won:
            draws += 1
        for seat in won:
            share = 1 / (1 if args.mode == "teams" else len(won))
            wins[seat] += share
            order[(seat - state["first"]) % args.players] += share
        if (game + 1) % 10 == 0:  # progress on stderr, the result stays one JSON object
            print(f"{game + 1} games: {[round(w, 1) for w in wins]}", file=sys.stderr, flush=True)
    return {
        "mode": args.mode,
        "players": args.players,
        "bot": args.bot,
        "games": args.games,
        "decks": "rotated" if args.rotate else "by seat",
        "seat_win_pct": [round(100 * w / args.games, 1) for w in wins],
        "turn_order_win_pct": [round(100 * w / args.games, 1) for w in order],
        "draw_pct": round(100 * draws / args.games, 1),
        "mean_turns": round(turns / args.games, 1),
    }


def cmd_decks(args: argparse.Namespace) -> dict[str, Any]:
    names = sorted(load().decks) if not args.only else args.only.split(",")
    score = {n: 0.0 for n in names}
    played = {n: 0 for n in names}
    pairs = {}
    seed = args.seed
    against = set(args.against.split(",")) if args.against else None
    for a, b in itertools.combinations(names, 2):
        if against is not None and not against & {a, b}:
            continue  # --against: only the pairs that involve one of these decks
        a_wins = 0.0
        for _game in range(args.games):
            for order in ((a, b), (b, a)):
                state = play({"mode": "duel", "decks": list(order)}, 2, args.bot, seed, args.ms)
                seed += 1
                won = winners(state)
                for seat in won:
                    score[order[seat]] += 1 / len(won)
                    if order[seat] == a:
                        a_wins += 1 / len(won)
                played[a] += 1
                played[b] += 1
        pairs[f"{a} v {b}"] = round(100 * a_wins / (2 * args.games), 1)
        print(f"{a} v {b}: {pairs[f'{a} v {b}']}", file=sys.stderr, flush=True)
    return {
        "bot": args.bot,
        "games_per_pair": 2 * args.games,
        "first_deck_win_pct": pairs,
        "deck_win_pct": {n: round(100 * score[n] / played[n], 1) for n in names if played[n]},
    }


def cmd_solo(args: argparse.Namespace) -> dict[str, Any]:
    options = {"solo_level": args.level, **json.loads(args.options or "{}")}
    config = {"mode": "solitaire", "options": options}
    won = killed = 0
    for seed in range(args.seed, args.seed + args.games):
        state = play(config, 1, args.bot, seed, args.ms)
        won += bool(state["solo"]["won"])
        killed += state["solo"]["killed"]
    return {
        "bot": args.bot,
        "level": args.level,
        "games": args.games,
        "win_pct": round(100 * won / args.games, 1),
        "mean_defenders_killed": round(killed / args.games, 2),
    }


def main() -> None:
    top = argparse.ArgumentParser(description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    for name in ("seats", "decks", "solo"):
        cmd = sub.add_parser(name)
        cmd.add_argument("--bot", default="random")
        cmd.add_argument("--games", type=int, default=20)
        cmd.add_argument("--seed", type=int, default=1)
        cmd.add_argument("--ms", type=int, help="search budget a decision (default: the bot's)")
        cmd.add_argument("--iterations", type=int, default=0, help="search iterations a decision")
    seats = sub.choices["seats"]
    seats.add_argument("--mode", default="duel")
    seats.add_argument("--players", type=int, default=2)
    seats.add_argument("--options", help="JSON object of scenario options")
    seats.add_argument("--rotate", action="store_true", help="rotate the starter decks by game")
    sub.choices["decks"].add_argument("--only", help="comma-separated starter deck ids")
    sub.choices["decks"].add_argument(
        "--against", help="comma-separated deck ids: play only the pairs with one of them"
    )
    sub.choices["solo"].add_argument("--level", default="default")
    sub.choices["solo"].add_argument("--options", help="JSON object of more options")
    args = top.parse_args()
    global ITERATIONS
    ITERATIONS = args.iterations
    run = {"seats": cmd_seats, "decks": cmd_decks, "solo": cmd_solo}[args.command]
    print(json.dumps(run(args)))


if __name__ == "__main__":
    main()
