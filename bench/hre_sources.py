"""Which VP sources of the HRE modules score, in whole games with every module (issue 17).

`python bench/hre_sources.py --scenario all-modules --players 3 --games G [--seed S]
[--bot SLUG [--iterations K]]` plays G games of the scenario (seeds S..S+G-1) as
`bench/hre_balance.py` plays them (the same bots, the same decision seeds) and counts, for each
scoring source a module adds, the games in which it gave some seat VP, and the VP it gave in all.

A source is read two ways, neither of which the engine knows about:
- during play, by the rule id of the log event that follows a change of a seat's VP (every VP
  change in the engine is followed by its event: `gain`, `lose` and the direct `vp +=` sites
  all log right after). A change the action leaves without an event is counted as `unlogged`;
- at the end, by the final-scoring categories the modules add to the breakdown (`wyrd`,
  `war_tokens`, `pope`, `poland`), and the Technologies VP of the module cards a seat holds.

In a game with Module 7 every Barbarian token on the map is a Skirmisher, so the VP of a token's
reward (HRE-BASE-BARB-08, "reward" in the event) is Module 7's source; the trophy VP stay base.
It prints one JSON object: each expected source with the games it scored in (and the VP), every
other rule id that moved VP, and the sources that never scored ("never"). Only the game's own
actions are counted, never the search bot's look-ahead (the watch is on only around them).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hre_balance import arguments, budget_of, play, records, scenario_config  # noqa: E402

from rules.bots.base import Budget  # noqa: E402
from rules.core.engine import State  # noqa: E402
from rules.hre.state import Ctx, data  # noqa: E402

# Every VP source a module adds, by the key this script files it under, with what it is.
# In play: the rule id logged with the VP; at the end: "end:<breakdown key>" and
# "end:technologies:<module>".
SOURCES: list[tuple[str, str, str]] = [
    (
        "M03",
        "HRE-M03-PLAY-04",
        "a Grand Building's VP when built (C052, C054) or at each Pass (C049, C054)",
    ),
    ("M03", "end:technologies:M03", "Marozia's and Henry's starting Technologies (C055, C056)"),
    ("M05", "HRE-M05-PLAY-04", "an Alliance card's VP (CA02 when received, CA07 at each Pass)"),
    ("M07", "M07:token-reward", "a Skirmisher token's VP reward (HRE-BASE-BARB-08)"),
    ("M08", "end:wyrd", "7 VP to the most Wyrds (HRE-M08-END-01)"),
    ("M09", "HRE-M09-PLAY-05", "3 VP for a win with a Combat card; a Reclaim bonus in VP"),
    ("M09", "HRE-M09-PLAY-02", "a Combat card's VP benefit (CW15)"),
    ("M09", "end:war_tokens", "the War token majority (HRE-M09-END-02)"),
    ("M12A", "end:pope", "5 VP to the Pope's holder (HRE-M12A-END-01)"),
    ("M13A", "HRE-M13A-PLAY-03", "a Benjamin reward taken as VP (1, 2, 3 or 6)"),
    ("M14A", "HRE-M14A-RESOLVE-06", "a won Crusade's VP ladder"),
    ("M14A", "HRE-M14A-RESOLVE-09", "the Defeat Penalty gained by those who stayed at home"),
    ("M14A", "HRE-M14A-RESOLVE-02", "a Crusade card's VP effect"),
    ("M15A", "HRE-M15A-AID-01", "VP for aiding Poland"),
    ("M15A", "HRE-M15A-FLIP-02", "a Levy paid in VP to the flipper"),
    ("M15A", "HRE-M15A-CHROBRY-02", "a Chrobry event's VP"),
    ("M15A", "end:poland", "7 VP a flipped Poland card (HRE-M15A-END-01)"),
]
EXPECTED: dict[str, dict[str, str]] = {}
for _module, _key, _what in SOURCES:
    EXPECTED.setdefault(_module, {})[_key] = _what
BASE_CATEGORIES = {
    "vp_track",
    "technologies",
    "cities",
    "keeps",
    "culture",
    "warehouse",
    "farms",
    "titles",
    "gold",
}


class Watch:
    """Files every VP change of the game's own actions under the event that follows it."""

    def __init__(self) -> None:
        self.on = False
        self.last: list[int] = []
        self.game: dict[str, int] = Counter()  # VP gained by source in this game
        self.lost: dict[str, int] = Counter()  # VP lost by source in this game
        self.plays_m07 = False

    def vps(self, state: State) -> list[int]:
        return [int(seat["vp"]) for seat in state["seats"]]

    def file(self, key: str, now: list[int]) -> None:
        for before, after in zip(self.last, now, strict=True):
            if after > before:
                self.game[key] += after - before
            elif after < before:
                self.lost[key] += before - after
        self.last = now

    def logged(self, ctx: Ctx, rule: str, text: str | None) -> None:
        if not self.on:
            return
        now = self.vps(ctx.s)
        if now != self.last:
            key = rule
            if self.plays_m07 and rule == "HRE-BASE-BARB-08" and "reward" in (text or ""):
                key = "M07:token-reward"
            self.file(key, now)

    def before(self, state: State) -> None:
        self.last, self.on = self.vps(state), True

    def after(self, state: State) -> None:
        self.on = False
        now = self.vps(state)
        if now != self.last:
            self.file("unlogged", now)

    def finish(self, state: State, result: Any) -> None:
        cards = data().cards
        for row in result["seats"]:
            for key, vp in row["breakdown"].items():
                if key not in BASE_CATEGORIES and vp > 0:
                    self.game[f"end:{key}"] += vp
            techs = state["seats"][row["seat"]]["techs"]
            for tech in techs:
                card = cards[tech["card"]]
                if card.get("module"):
                    vp = int(card["levels"][tech["level"] - 1]["vp"])
                    if vp > 0:
                        self.game[f"end:technologies:{card['module']}"] += vp


WATCH = Watch()
_LOG = Ctx.log


def _log(self: Ctx, rule: str, text: str | None, private: dict[int, str] | None = None) -> None:
    WATCH.logged(self, rule, text)
    _LOG(self, rule, text, private)


def one_game(
    config: dict[str, Any], players: int, seed: int, bot: str | None, budget: Budget | None
) -> dict[str, Any]:
    """One game: the VP each source gave and took in it."""
    Ctx.log = _log  # type: ignore[method-assign]
    WATCH.game, WATCH.lost = Counter(), Counter()
    WATCH.plays_m07 = "M07" in config["modules"]
    play(seed, players, bot, budget, config, WATCH)
    Ctx.log = _LOG  # type: ignore[method-assign]
    return {"seed": seed, "gained": dict(WATCH.game), "lost": dict(WATCH.lost)}


def tally(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Per source, the games it scored in and its VP (and the same for VP taken)."""
    found: dict[str, Counter[str]] = {
        k: Counter() for k in ("games", "vp", "lost_games", "lost_vp")
    }
    for game in games:
        for key, vp in game["gained"].items():
            found["games"][key] += 1
            found["vp"][key] += vp
        for key, vp in game["lost"].items():
            found["lost_games"][key] += 1
            found["lost_vp"][key] += vp
    return found


def report(found: dict[str, Any], modules: list[str], n: int) -> dict[str, Any]:
    """The expected sources of the modules played, their figures, and those that never scored."""
    expected = {m: EXPECTED.get(m, {}) for m in modules}
    known = {key for sources in expected.values() for key in sources}
    rows = {
        m: {
            key: {"what": what, "games": found["games"][key], "vp": found["vp"][key]}
            for key, what in sources.items()
        }
        for m, sources in expected.items()
        if sources
    }
    others = {
        key: {"games": found["games"][key], "vp": found["vp"][key]}
        for key in sorted(found["games"])
        if key not in known
    }
    losses = {
        key: {"games": found["lost_games"][key], "vp": found["lost_vp"][key]}
        for key in sorted(found["lost_games"])
    }
    never = sorted(key for key in known if not found["games"][key])
    return {
        "games": n,
        "sources": rows,
        "modules_without_a_vp_source": [m for m in modules if not EXPECTED.get(m)],
        "other_gains": others,
        "losses": losses,
        "never": never,
    }


def main() -> int:
    """Play and print one JSON object."""
    parser = arguments(__doc__, 100, "all-modules")
    args = parser.parse_args()
    config = scenario_config(parser, args)
    budget = budget_of(args)
    games = records(args, lambda seed: one_game(config, args.players, seed, args.bot, budget))
    found = tally(games)
    out = report(found, config["modules"], len(games))
    out.update(
        scenario=args.scenario,
        players=args.players,
        seed=args.seed,
        bot=args.bot or "uniform",
        iterations=args.iterations,
    )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
