"""Self-play of EMA scenarios by a planning player, to calibrate the authored Year Cards.

`python bench/ema_balance.py SLUG PLAYERS GAMES [--seed N] [--policy planner|random]` plays GAMES
games of one scenario and prints one JSON line per Empire: its win rate (a shared first place
counts as a fraction), its mean Area points (26.0: 3 + SS per connected Area) at the start and at
the end, and, over all games, the winner's mean Area points at the start and end.

The planner is not the site's bot: it is a fixed, cheap, rule-aware player written for
measuring the cards. On its turn it taxes what it can tax without a risky Rebellion Check (an Area
with its own Tie, RV ≤ 0), plays any Holding card, then, card by card, takes the Endeavor (kind,
Base, Target, extra gold) with the best expected gain in VP over the whole Year deck (each card
equally likely: the deck is public), and ends its turn when no Endeavor is worth its gold. A
rival's loss counts fully when that rival leads the others on VP, a third otherwise (players gang
up on the leader). It defends an Area when it can pay for it and the Area is worth 4 VP or more. Every other decision
(Parleys, windows, Court moves) is taken at random. Because it reads the card rows, it adapts to
whatever the data says, which is what a calibration needs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.core.registry import get_engine  # noqa: E402
from rules.ema import cards, er, rebellion, targets  # noqa: E402
from rules.ema.empire import court_costs, foreign_cost, halve  # noqa: E402
from rules.ema.state import FORT, OWNER, PARTIAL, SS, TIES, UNREST, Ctx, data, has, norm, owned  # noqa: E402
from rules.ema.victory import breakdown  # noqa: E402

ENGINE = get_engine("ema")
GOLD_VALUE = 0.3  # VP a gold piece is worth to the planner (it buys ER later)
LOW, HIGH = -10, 30


@cache
def odds(kind: str, value: int) -> dict[str, float]:
    """Chances over the whole Year deck of each result of a row at an ER (9.4, 9.18)."""
    deck = list(data().year_cards.values())
    found: dict[str, float] = defaultdict(float)
    for card in deck:
        row = "conquest" if kind == "convert" else kind
        if kind == "diplomacy":
            if value < 0:
                continue
            annex = tie = False
            for r in card["rows"]["diplomacy"]:
                if r["e"] == "T/C":
                    annex, tie = (annex or value >= r["n"]), (tie or value < r["n"])
                elif r["e"] == "T" and value >= r["n"]:
                    tie = True
                elif r["e"] == "C" and value >= r["n"]:
                    annex = True
            found["annex"] += annex
            found["tie"] += tie and not annex
            continue
        hits = cards.results(card, row, value)
        if value < 0:
            hits = [r for r in hits if r["e"] == "-1" and r["col"] == "base"]
        for r in hits:
            found[f"{r['e']}@{r['col']}"] += 1
    return {k: v / len(deck) for k, v in found.items()}


def area_vp(ctx: Ctx, aid: str) -> float:
    """What an Area is worth to its owner: 3 + SS, and 3 more for a Claim of the same faith (26.0)."""
    return 3 + ctx.area(aid)[SS]


LEADER: dict[int, int | None] = {}  # per deciding seat: its best-placed rival, for this decision


def _rival_factor(ctx: Ctx, seat: int, owner: int | None) -> float:
    """How much a rival's loss is worth: fully for the rival leading the others, a third else."""
    if owner is None or owner == seat:
        return 0.0
    if ctx.s["players"] == 2 or LEADER.get(seat) == owner:
        return 1.0
    return 0.33


def _note_leader(state: dict[str, Any], seat: int) -> None:
    rows = ENGINE.result(state)["seats"]
    rivals = [r for r in rows if r["seat"] != seat]
    LEADER[seat] = max(rivals, key=lambda r: r["score"])["seat"] if rivals else None


def endeavor_gain(
    ctx: Ctx, seat: int, kind: str, base: str | None, target: str, value: int
) -> float:
    """Expected VP change of one Endeavor at a final ER (before its gold is counted)."""
    if value < 0 and kind not in ("conquest", "pillage", "convert"):
        return -1.0
    p = odds(kind, max(LOW, min(HIGH, value)))
    t = ctx.area(target)
    gain = 0.0
    if kind in ("conquest", "pillage"):
        b = ctx.area(str(base))
        harm = 1.0 + (0.3 * area_vp(ctx, str(base)) if b[UNREST] else 0.0)
        gain -= p.get("-1@base", 0.0) * (harm if b[SS] > -3 else 0.0)
        rival = _rival_factor(ctx, seat, t[OWNER])
        gain += p.get("-1@target", 0.0) * (rival if t[SS] > -3 else 0.0)
    if kind == "conquest":
        need = max(1, ctx.d.areas[target]["population"])
        have = sum(q["n"] for q in t[PARTIAL] if q["seat"] == seat)
        prize = (area_vp(ctx, target) + 3) * 0.75 + area_vp(ctx, target) * _rival_factor(
            ctx, seat, t[OWNER]
        )
        gain += p.get("C@result", 0.0) * prize * (1.0 if have + 1 >= need else 0.5 / need)
    elif kind == "pillage":
        gain += p.get("G@result", 0.0) * 1.8 * GOLD_VALUE
    elif kind == "ruling":
        room = t[SS] < norm(target) + 2
        gain += p.get("+1@base", 0.0) * room + p.get("+1@target", 0.0) * room
        down = p.get("-1@base", 0.0) + p.get("-1@target", 0.0)
        gain -= down * (1.0 + (0.3 * area_vp(ctx, target) if t[UNREST] else 0.0))
        if t[UNREST]:
            gain += (1.0 - down) * 0.4 * area_vp(ctx, target)
    elif kind == "fortification":
        gain += p.get("F@result", 0.0) * (0.6 if t[FORT] < 3 else 0.0)
        gain -= p.get("-1@base", 0.0) + p.get("-1@target", 0.0)
    elif kind == "diplomacy":
        if t[OWNER] is None:
            prize = area_vp(ctx, target) + 3
        else:
            prize = 0.5 * (area_vp(ctx, target) + 3) * (1 + _rival_factor(ctx, seat, t[OWNER]))
        gain += p.get("annex", 0.0) * prize
        gain += p.get("tie", 0.0) * (0.0 if has(t[TIES], seat) else 0.8)
    return gain


def candidates(ctx: Ctx, seat: int) -> list[tuple[float, str, str | None, str, int]]:
    """(net gain, kind, base, target, extra gold) of every legal Endeavor the planner considers."""
    me = ctx.seat(seat)
    if not me["years"] or me["exile"] and me["asylum"] is None:
        return []
    found = []
    plans: list[tuple[str, str | None, str, int]] = []
    if not me["exile"]:
        costs = court_costs(ctx.s, seat)
        for kind in ("conquest", "pillage"):
            for base in sorted(costs):
                for target in targets.foreign_targets(ctx, seat, kind, base):
                    seas = foreign_cost(ctx.s, seat, base, target) or 0
                    plans.append((kind, base, target, seas))
        for kind in ("ruling", "fortification"):
            for target in targets.domestic_targets(ctx, seat, kind):
                plans.append((kind, None, target, costs[target]))
    base = targets.diplomacy_base(ctx, seat)
    if base is not None:
        near = {n for a in owned(ctx.s, seat) for n in ctx.d.land_adj[a]}
        for target in targets.diplomacy_targets(ctx, seat):
            if target in near:
                plans.append(("diplomacy", base, target, 0))
    for kind, base_area, target, seas in plans:
        value = er.raw(ctx, seat, kind, base_area, target)
        if seas == 2:
            value = halve(ctx.s, value)
        spare = me["gold"] - targets.base_cost(ctx, kind) - seas
        best = None
        for gold in range(max(0, -value), min(spare, max(0, -value) + 6) + 1):
            net = endeavor_gain(ctx, seat, kind, base_area, target, value + gold)
            net -= (targets.base_cost(ctx, kind) + seas + gold) * GOLD_VALUE
            if best is None or net > best[0]:
                best = (net, kind, base_area, target, gold)
        if best is not None:
            found.append(best)
    return found


def tax_choice(ctx: Ctx, seat: int, options: list[dict[str, Any]]) -> Any:
    """Taxation: the Court's SS; elsewhere as much as keeps RV ≤ 0, or 1 gold at RV 1 when poor."""
    acts = [o["action"] for o in options]
    frame = ctx.s["stack"][-1]
    if frame["stage"] == "area":
        for a in acts:
            if "area" in a and _tax_amount(ctx, seat, a["area"]) > 0:
                return a
        return {"finish": True}
    amount = _tax_amount(ctx, seat, frame["area"])
    taxes = [a for a in acts if "tax" in a and a["tax"] <= amount]
    return max(taxes, key=lambda a: a["tax"]) if taxes else acts[-1]


def _tax_amount(ctx: Ctx, seat: int, aid: str) -> int:
    here = ctx.area(aid)
    if here[SS] <= 0:
        return 0
    if aid == ctx.seat(seat)["court"]:
        return int(here[SS])
    best = 0
    for gold in range(1, here[SS] + 1):
        if rebellion.rebellion_value(ctx, aid, gold) <= 0:
            best = gold
    if best == 0 and ctx.seat(seat)["gold"] < 6 and not here[UNREST]:
        best = 1 if rebellion.rebellion_value(ctx, aid, 1) <= 1 else 0
    return best


class Planner:
    """The measuring player for every seat; `plan` keeps each seat's Endeavor being declared."""

    def __init__(self, seed: int) -> None:
        self.rand = random.Random(seed)
        self.plan: dict[int, tuple[float, str, str | None, str, int]] = {}

    def choose(self, state: dict[str, Any], prompt: dict[str, Any]) -> Any:
        ctx = Ctx(state)
        seat, kind, options = prompt["seat"], prompt["kind"], prompt["options"]
        acts = [o["action"] for o in options]
        if kind == "main":
            return self._main(ctx, seat, acts)
        if kind == "tax":
            return tax_choice(ctx, seat, options)
        if kind == "declare" and seat in self.plan:
            _, _, base, target, _ = self.plan[seat]
            for want in ({"base": base}, {"target": target}):
                if want in acts:
                    return want
            group = ctx.s["stack"][-1]["stage"] == "group"
            if group:
                from rules.ema.endeavors import group_of

                g = {"group": group_of(ctx, target)}
                if g in acts:
                    return g
        if kind == "att_gold" and seat in self.plan:
            want_gold = self.plan.pop(seat)[4]
            golds = [a["gold"] for a in acts]
            return {"gold": min(max(want_gold, min(golds)), max(golds))}
        if kind == "defend":
            en = ctx.s["endeavor"]
            worth = area_vp(ctx, en["target"]) >= 4 and en["kind"] == "conquest"
            return {"defend": bool(worth and {"defend": True} in acts)}
        if kind in ("def_gold", "att_gold"):
            return acts[0]
        if kind == "card_window":
            return {"play": None} if {"play": None} in acts else acts[0]
        return self.rand.choice(acts)

    def _main(self, ctx: Ctx, seat: int, acts: list[Any]) -> Any:
        if {"do": "tax"} in acts:
            return {"do": "tax"}
        for a in acts:
            if a["do"] == "holding":
                return a
        _note_leader(ctx.s, seat)
        found = candidates(ctx, seat)
        best = max(found, default=None, key=lambda c: c[0])
        must = {"do": "end"} not in acts
        if best is not None and (best[0] > 0.05 or must):
            self.plan[seat] = best
            return {"do": "endeavor", "kind": best[1]}
        if must:
            return next(a for a in acts if a["do"] == "endeavor")
        return {"do": "end"}


def area_points(state: dict[str, Any], seat: int) -> int:
    """Area points of 26.0: 3 + SS for each Area connected to the Court."""
    return int(breakdown(state, seat)["areas"])


def play(slug: str, players: int, seed: int, policy: str) -> dict[str, Any]:
    """One game; the Empires' keys, start and end Area points, and the shares of first place."""
    config = next(s["config"] for s in ENGINE.scenarios() if s["slug"] == slug)
    state = ENGINE.setup(seed, config, players)
    start = [area_points(state, i) for i in range(players)]
    bot = Planner(seed)
    rand = random.Random(seed)
    actions = 0
    while not ENGINE.is_over(state) and actions < 60_000:
        prompt = ENGINE.prompts(state)[0]
        if policy == "random":
            action = rand.choice(prompt["options"])["action"]
        else:
            action = bot.choose(state, prompt)
        ENGINE.apply_trusted(state, prompt["seat"], action)
        actions += 1
    rows = ENGINE.result(state)["seats"]
    firsts = [r["seat"] for r in rows if r["rank"] == 1]
    return {
        "empires": [m["empire"] for m in state["seats"]],
        "start": start,
        "end": [area_points(state, i) for i in range(players)],
        "wins": [1 / len(firsts) if i in firsts else 0.0 for i in range(players)],
        "scores": [r["score"] for r in rows],
        "actions": actions,
    }


def main() -> int:
    """Play the games and print the table as JSON lines."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("slug")
    parser.add_argument("players", type=int)
    parser.add_argument("games", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", choices=("planner", "random"), default="planner")
    args = parser.parse_args()
    games = [
        play(args.slug, args.players, s, args.policy)
        for s in range(args.seed, args.seed + args.games)
    ]
    n = len(games)
    for i, emp in enumerate(games[0]["empires"]):
        print(
            json.dumps(
                {
                    "scenario": args.slug,
                    "players": args.players,
                    "games": n,
                    "empire": emp,
                    "win_rate": round(sum(g["wins"][i] for g in games) / n, 3),
                    "fair": round(1 / args.players, 3),
                    "area_start": round(sum(g["start"][i] for g in games) / n, 1),
                    "area_end": round(sum(g["end"][i] for g in games) / n, 1),
                    "score": round(sum(g["scores"][i] for g in games) / n, 1),
                }
            )
        )
    win_start = win_end = 0.0
    for g in games:
        for i, w in enumerate(g["wins"]):
            win_start += w * g["start"][i]
            win_end += w * g["end"][i]
    summary = {
        "scenario": args.slug,
        "winner_area_start": round(win_start / n, 1),
        "winner_area_end": round(win_end / n, 1),
        "actions_per_game": round(sum(g["actions"] for g in games) / n),
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
