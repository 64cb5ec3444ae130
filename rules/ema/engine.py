"""The EMA engine: the contract of rules.core.engine over the modules of this package."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.canonical import clone
from rules.core.engine import Event, Option, Prompt, Result, StandingChoice, State
from rules.core.errors import RulesVersionError, ScenarioError
from rules.core.machine import FrameEngine
from rules.core.options import OptionText, option_errors, option_text
from rules.ema import grand, handlers, invariants, mapindex, setup, standing, victory, views
from rules.ema.components import DATA
from rules.ema.state import Ctx, area_dict, area_row, data, done_reading, reading

# Switches for the book's ambiguities (../shared/reference/rules-ema.md §5): the first value is the
# recommended reading and the default.
OPTIONS: dict[str, tuple[Any, ...]] = {
    "low_rv": ("never_checked", "column_one"),  # RV below 1
    "fortification_ss": ("add", "minus_abs"),  # SS in Fortification (7.17 literal)
    "court_rule": ("language_and_religion", "language"),  # a new Court's requirements
    "court_plunder": ("no_check", "full"),  # plundering the Court
    "black_death_year": (1200, 1205),  # the Round containing 1200, or from 1201
    "event_deck": (55, 56),  # the 55 cards 19.1/19.2 count, or with the authored 56th
    "negative_halving": (
        "round_up",
        "times_one_and_half",
    ),  # "round_up" halves, never up to 0
    "rounds": (
        0,
        1,
        2,
        3,
        4,
        5,
        6,
        8,
        10,
        40,
        50,
        70,
        100,
    ),  # 0 = the scenario's length; fewer by agreement
    # The optional rules, chosen before play (3.0 intro to §3 of the reference): off by default.
    "colonization": (False, True),  # 25.0
    "schism_crusades": (False, True),  # 23.0: the Schism Table and the Crusades
    "raiders_magnates": (False, True),  # 24.0
}

# How the new-game form words each option, in our words (data/option_text.json; the first value
# of each option in OPTIONS is the recommended reading).
OPTION_TEXT: OptionText = option_text(DATA / "option_text.json")
SLUGS = {
    "27-charlemagne-solo": ("27", 1, 1),
    "27-charlemagne": ("27", 2, 2),
    "28-millenium": ("28", 2, 6),
    "29-crusades": ("29", 2, 6),
    "30-defeat-in-the-east": ("30", 2, 6),
    "31-twilight": ("31", 2, 6),
    grand.SLUG: ("32", 4, 6),  # 32.0: at least 4 Players, 6 best
}
DESCRIPTIONS = {
    "27-charlemagne-solo": "Solitaire: the Frankish Empire alone, judged by the performance levels of 27.91.",
    "27-charlemagne": "Frankish against Byzantine; the Franks subtract 40 VP (27.92).",
    "28-millenium": "Up to six of seven Empires, from the top of the list of 28.1, with handicaps.",
    "29-crusades": "Up to six Empires from the top of the list of 29.1, with handicaps.",
    "30-defeat-in-the-east": "Up to six Empires from the top of the list of 30.1, with handicaps.",
    "31-twilight": "Up to six Empires including the Turkish States, with the special rules of 31.7.",
    grand.SLUG: (
        "771 to 1470, 140 Rounds (shorter by agreement): Charlemagne's Empire, then its three "
        "kingdoms, Byzantium and two later kingdoms, no handicaps (32.0)."
    ),
}


# The optional rules: kept in a game's options only when chosen, so a game without them keeps
# the state (and replays) it had before they existed.
OPTIONAL_RULES = ("colonization", "schism_crusades", "raiders_magnates")
# About how many actions one seat takes in a Round, generously (for `expected_length`).
ACTIONS_PER_SEAT_ROUND = 40


def _length(scenario: str) -> int:
    """A scenario's Rounds as printed (32.0: the Grand Scenario's)."""
    return (
        grand.ROUNDS
        if scenario == grand.SLUG
        else int(data().scenarios[SLUGS[scenario][0]]["rounds"])
    )


def _defaults() -> dict[str, Any]:
    return {k: v[0] for k, v in OPTIONS.items() if k not in OPTIONAL_RULES}


class EmaEngine(FrameEngine[Ctx]):
    game_id = "ema"
    title = "Empires of the Middle Ages"
    # 2: the Event in force and the use of each Year Card kept; 3: an exile's Areas enter Unrest
    # 4: the Event deck has the 55 cards of 19.1/19.2 by default
    # 5: at most four Endeavors cancelled (or Fortification reductions declined) a Player-Turn
    # 6: the authored Year Cards re-calibrated (data README)
    # 7: the cap of four steps back a turn kept for the Grand Scenario only
    # 8: the same play; each Area a compact row with Ties and Claims as bitmasks (state.OWNER …),
    # so copies of the state are cheaper; states of 1-7 are upgraded, records of 7 replay
    # 9: with `schism_crusades`, a Crusade called is fought in its own Round (its Crusader Phase
    # had been skipped), and Crusades happen without the Magnates too (Syria and Jerusalem
    # Independent and not Christian); games without that option play as in 7 and 8
    # 10: the Grand Scenario asks the Frankish Player for the division (cores, Courts, Areas
    # joined to two kingdoms) and a late kingdom's Player for his group and Court (32.0); an
    # unheld Byzantium's cards leave play; other scenarios play as in 7-9
    # 11: the map's straits: Constantinople–Asia (Bosporus) and Adrianople–Asia (Dardanelles)
    # land lines, Wessex on the Bay of Biscay (data README); every scenario may play
    # differently, so records of 7-10 no longer replay (their states still load and play on)
    # 12: with `raiders_magnates`, a Magnate about to appear in an Area of exactly an exile's
    # Language and Religion does not: the exile takes it and returns (21.3 (d), A-40); games
    # without that option play as in 11
    rules_version = 12
    layout_since = 8
    replays_since = 11
    machine = handlers.MACHINE
    options = OPTIONS
    option_text = OPTION_TEXT
    # Declining an exchange (20.1) or a binding agreement (20.3) offered to you, or a Holding card
    # window: saying no spends nothing and ends nothing. A Defense, a contest or a give-up is
    # never trivial.
    trivial = frozenset({"agree_reply", "card_window", "offer_reply"})
    off_turn_kinds = {
        "defend": "a Defense of your Area during another Player's turn",
        "def_gold": "extra gold for a Defense",
        "parley": "a secret Parley ballot",
        "contest": "contesting the loss of an Area by Parley",
        "offer_reply": "an exchange offered to you",
        "asylum": "an exile asks for asylum",
        "initiative": "your place in the order of play",
        "agree_reply": "a binding agreement, or its cancellation, proposed to you",
        "influence": "Influence cards declared face up before a Parley ballot",
        "card_window": "playing a Holding card in another Player's turn",
        "give_up": "giving up an Area after losing its contest, or excommunication",
    }

    def upgrade(self, state: State, from_version: int) -> State:
        """Versions 1-7 kept each Area as a dict: the same position with Areas as rows."""
        if not 1 <= from_version < self.layout_since:
            return super().upgrade(state, from_version)
        try:
            areas = {aid: area_row(here) for aid, here in state["areas"].items()}
        except (KeyError, TypeError, AttributeError) as error:
            raise RulesVersionError(
                f"This game's state does not have the Areas of rules version {from_version}."
            ) from error
        return {**state, "areas": areas}

    def earlier_layout(self, state: State) -> State:
        """The state as versions 1-7 stored it (Areas as dicts), for the hashes recorded then."""
        return {**state, "areas": {aid: area_dict(row) for aid, row in state["areas"].items()}}

    def scenarios(self) -> list[dict[str, Any]]:
        out = []
        for slug, (number, low, high) in SLUGS.items():
            out.append(
                {
                    "slug": slug,
                    "title": grand.TITLE if number == "32" else data().scenarios[number]["title"],
                    "description": DESCRIPTIONS[slug],
                    "min_players": low,
                    "max_players": high,
                    "config": {"scenario": slug, "options": {}},
                }
            )
        return out

    def scenario_options(self, config: dict[str, Any] | None = None) -> dict[str, tuple[Any, ...]]:
        """Every option; a shorter game offers only the Round counts below the scenario's length."""
        allowed = dict(OPTIONS)
        scenario = (config or {}).get("scenario")
        if scenario in SLUGS:
            length = _length(scenario)
            allowed["rounds"] = tuple(r for r in OPTIONS["rounds"] if r < length)
        return allowed

    def validate_scenario(self, config: dict[str, Any]) -> list[str]:
        if not isinstance(config, dict):
            return ["The configuration must be a JSON object."]
        errors = [
            f"Unknown configuration key {k!r}."
            for k in sorted(set(config) - {"scenario", "options", "empires"})
        ]
        if config.get("scenario") not in SLUGS:
            errors.append(f"scenario must be one of {', '.join(SLUGS)}.")
        options = config.get("options", {})
        errors += option_errors(options, OPTIONS)
        if not isinstance(options, dict):
            return errors
        scenario = config.get("scenario")
        rounds = options.get("rounds")
        if scenario in SLUGS and isinstance(rounds, int) and rounds:
            length = _length(scenario)
            if rounds > length:
                errors.append(f"Option rounds: {scenario} has only {length} Rounds.")
        if scenario == grand.SLUG:
            return errors + grand.config_errors(config)
        if "empires" in config and config.get("scenario") in SLUGS:
            keys = [e["key"] for e in data().scenarios[SLUGS[config["scenario"]][0]]["empires"]]
            bad = (
                [k for k in config["empires"] if k not in keys]
                if isinstance(config["empires"], list)
                else [0]
            )
            if bad or len(set(config["empires"])) != len(config["empires"]):
                errors.append(f"empires must be distinct keys among {', '.join(keys)}.")
        return errors

    def player_range(self, config: dict[str, Any]) -> tuple[int, int]:
        """The scenario's own range (27.1 … 31.1); a chosen list of Empires fixes the count."""
        errors = self.validate_scenario(config)
        if errors:
            raise ScenarioError("; ".join(errors))
        _, low, high = SLUGS[config["scenario"]]
        if config.get("empires"):
            count = len(config["empires"])
            if not low <= count <= high:
                raise ScenarioError(
                    f"{config['scenario']} takes {low}–{high} Empires, not {count}."
                )
            return count, count
        return low, high

    def setup(self, seed: int, config: dict[str, Any], players: int) -> State:
        self.check_players(config, players)
        number = SLUGS[config["scenario"]][0]
        if number == "32":
            state = grand.new_state(seed, players, {**_defaults(), **config.get("options", {})})
            mapindex.forget(state)  # set-up writes rows directly: the index is built when asked
            return state
        keys = [e["key"] for e in data().scenarios[number]["empires"]]
        empires = list(
            config.get("empires") or keys[:players]
        )  # the top of the list by default
        if len(empires) != players:
            raise ScenarioError(f"choose exactly {players} empires.")
        options = {**_defaults(), **config.get("options", {})}
        state = setup.new_state(seed, config["scenario"], number, players, options, empires)
        mapindex.forget(state)  # set-up writes rows directly: the index is built when asked
        return state

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def result(self, state: State) -> Result:
        return victory.result(state)

    def expected_length(self, state: State) -> int:
        """The scenario's Rounds times its seats times the actions a seat takes in a Round
        (measured: about 28 in random play, 32 with the greedy bot)."""
        return int(state["rounds"]) * max(1, len(state["seats"])) * ACTIONS_PER_SEAT_ROUND

    def determinize(self, state: State, seat: int, seed: int) -> State:
        """Re-deal every face-down Year Card, the other seats' Holding cards and the Event deck.

        Only Holding cards are ever held (19.0 P: an Event resolves when drawn), so rivals'
        hands are dealt from the unseen Holding cards alone and the rest, Events and Holdings,
        make the deck. Unseen cards are sorted first so the deal depends on what the seat
        cannot see only as a set, never on its true order.
        """
        new: State = clone(state)
        new["rng"] = rng.seed_state(seed)
        held = [m for m in new.get("magnates", []) if m["defense_card"] is not None]  # 24.53
        years = sorted(
            new["year_deck"]
            + [c for me in new["seats"] for c in me["years"]]
            + [m["defense_card"] for m in held]
        )
        rng.shuffle(new, years)
        for me in new["seats"]:
            size = len(me["years"])
            me["years"], years = years[:size], years[size:]
        for m in held:
            m["defense_card"], years = years[0], years[1:]
        new["year_deck"] = years
        others = [i for i in range(len(new["seats"])) if i != seat]
        unseen = sorted(new["event_deck"] + [c for i in others for c in new["seats"][i]["hand"]])
        holdings = [c for c in unseen if invariants.is_holding(c)]
        rng.shuffle(new, holdings)
        for i in others:
            size = len(new["seats"][i]["hand"])
            new["seats"][i]["hand"], holdings = holdings[:size], holdings[size:]
        deck = holdings + [c for c in unseen if not invariants.is_holding(c)]
        rng.shuffle(new, deck)
        new["event_deck"] = deck
        return new

    def prompts(self, state: State) -> list[Prompt]:
        """Every seat deciding now; the map is scanned once for the whole listing."""
        token = reading(state)
        try:
            return self.machine.prompts(self.machine.context(state))
        finally:
            done_reading(token)

    def apply_trusted(self, state: State, seat: int, action: Any) -> list[Event]:
        if mapindex.CHECK:
            with mapindex.applying(state):
                return self._apply(state, seat, action)
        return self._apply(state, seat, action)

    def _apply(self, state: State, seat: int, action: Any) -> list[Event]:
        ctx = self.machine.context(state)
        self.machine.choose(ctx, seat, action)
        for (
            hook
        ) in handlers.AFTER_ACTION:  # the optional rules' checks on what just changed (23.12)
            hook(ctx)
        return ctx.events

    def check_invariants(self, state: State) -> None:
        invariants.check(state)

    def undo_barrier(self, before: State, after: State, seat: int) -> bool:
        """Dice and shuffles, a Year Card turned up, an Event or Holding card drawn, ballots revealed."""
        if super().undo_barrier(before, after, seat) or before["event_deck"] != after["event_deck"]:
            return True
        if before.get("tallies", 0) != after.get("tallies", 0):
            return True  # 20.5: the secret ballots were revealed together
        pairs = zip(before["seats"], after["seats"], strict=True)
        return any(
            b["years"] != a["years"] or b["revealed"] != a["revealed"] or b["hand"] != a["hand"]
            for b, a in pairs
        )

    def standing_options(self, kind: str) -> list[StandingChoice]:
        return standing.options(kind) + super().standing_options(kind)

    def standing_answer(self, kind: str, name: str, options: list[Option]) -> Option | None:
        if any(c["name"] == name for c in standing.options(kind)):
            return standing.answer(kind, name, options)
        return super().standing_answer(kind, name, options)
