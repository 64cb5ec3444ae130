"""The Feudal Lords engine: the contract of rules.core.engine over the modules of this package."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.canonical import clone
from rules.core.engine import Result, State
from rules.core.errors import ScenarioError
from rules.core.machine import FrameEngine
from rules.core.options import OptionText, option_errors, option_text
from rules.feudal import handlers, invariants, scoring, setup, solitaire, views
from rules.feudal.components import DATA_DIR, card_rows, load, validate_deck
from rules.feudal.state import Ctx

# Switches for the book's ambiguities (../shared/reference/rules-feudal-lords.md §4): name -> allowed
# values, the first being the recommended reading and the default.
OPTIONS: dict[str, tuple[Any, ...]] = {
    "starter_rules": ("auto", "on", "off"),  # A-35 / FL-GEN-02: ignore class designations
    "natural_one_control_vp": (False, True),  # A-12 (d): a natural 1 fails the Control/VP roll
    "supply_vp": (True, False),  # Supply cards count toward winning
    "wounds": ("clear", "attack"),  # wounds cleared after each combat
    "aborted_attack": ("spent", "attempted", "always"),  # does an empty attack use the combat
    "priority": ("full", "holders"),  # A-21, §5.2: who is asked at Instant windows
    "turn_limit": (200,),  # a platform cap on turns (any int 20..2000)
    # at the cap nobody has won by the book (FL-WIN-01), so the game is drawn; "leader"
    # is the house variant giving the game to the single VP leader even below the target.
    "turn_limit_result": ("draw", "leader"),
    # the book puts no limit on re-announcing an attack that cost nothing; "once" is the
    # house variant where a second called-off attack in a turn uses the turn's combat.
    "repeat_abort": ("free", "once"),
    # Solitaire difficulty (a house option): which characters are available (FL-SOLO-01) and,
    # at the easier level, 15 markers and A-31's other reading; data/solitaire.json holds each.
    "solo_level": ("default", "easier", "harder"),
    "solo_wounds": ("clear", "keep"),  # a defender that survives a fight heals, or not
}

# How the new-game form words each option, in our words (data/option_text.json; the first value
# of each option in OPTIONS is the recommended reading).
OPTION_TEXT: OptionText = option_text(DATA_DIR / "option_text.json")
MODES = {"duel": (2, 2), "melee": (3, 4), "teams": (4, 4), "solitaire": (1, 1)}

SCENARIOS = [
    {
        "slug": "duel",
        "title": "Feudal Lords — duel",
        "min_players": 2,
        "max_players": 2,
        "description": "Two lords, starter decks: draft, arm, supply and raid until one holds 10 VP.",
        "config": {"mode": "duel", "options": {}},
    },
    {
        "slug": "melee",
        "title": "Feudal Lords — melee",
        "min_players": 3,
        "max_players": 4,
        "description": "Three or four lords; attacks may be intercepted by anyone seated in between.",
        "config": {"mode": "melee", "options": {}},
    },
    {
        "slug": "teams",
        "title": "Feudal Lords — teams",
        "min_players": 4,
        "max_players": 4,
        "description": "Two teams of partners seated opposite; the first team to 16 VP wins.",
        "config": {"mode": "teams", "options": {}},
    },
    {
        "slug": "solitaire",
        "title": "Feudal Lords — solitaire",
        "min_players": 1,
        "max_players": 1,
        "description": "Defeat nine defenders in three piles with a pool of markers.",
        "config": {"mode": "solitaire", "options": {}},
    },
]


def full_options(given: dict[str, Any]) -> dict[str, Any]:
    """Every option, defaults filled in."""
    options = {key: values[0] for key, values in OPTIONS.items()}
    options.update(given)
    return options


class FeudalEngine(FrameEngine[Ctx]):
    """Dark Age: Feudal Lords."""

    game_id = "feudal"
    title = "Dark Age: Feudal Lords"
    # 10: starter decks dust_caravan (two Salvage Chiefs and two Dust Mothers for four Trappers)
    # and over_city (Mother Ash's Attack Send 0, was 1; the High Keep's Gatehouse -1 to DF
    # rolls, was -2); 9: the default and easier solitaire rosters without the Life 2 characters of Control 3
    # or more (37 characters: the 20 patrons and the 17 of Life 2 and Control 2);
    # 8: starter decks hoodoo_hex and dust_caravan (Life 3 characters for their Life 1 ones and
    # Hermits), under_city (more Life 3, Watchtower for War Drums), over_city (Relic Engine for
    # Iron Idol, no Iron Crown); 7: starter decks under_city (stronger: no Artifact, Knuckles and Night Orderlies for Bone
    # Rattlers) and over_city (weaker: Crossbowmen for a Helm Trooper and a Lance Knight, no Plate
    # Armor), Defend Send 1 for Mother Ash (was 2) and Warlord Kade (was 0); 6: starter decks outer_city (stronger) and over_city (weaker);
    # 5: 15 first markers at the easier solitaire level; 4: solitaire rosters by level, marker
    # spends to a threshold; 3: Instants run all effects, leader dice and sends, options
    rules_version = 10
    machine = handlers.MACHINE
    options = OPTIONS
    option_text = OPTION_TEXT
    # Passing at an Instant window (FL priority) or letting an attack go by: nothing is spent.
    # Sending a defense pool, a Victory card or a Lone combatant is never trivial.
    trivial = frozenset({"intervene", "window"})
    off_turn_kinds = {
        "window": "a chance to play an Instant (or pass) during another player's combat",
        "send": "building your defense pool when attacked",
        "intervene": "whether to intervene when an attack passes you",
        "vc": "whether to play a Victory card or bluff when defending",
    }

    def scenarios(self) -> list[dict[str, Any]]:
        return clone(SCENARIOS)  # type: ignore[no-any-return]

    def card_list(self) -> list[dict[str, Any]]:
        return card_rows()

    def scenario_options(self, config: dict[str, Any] | None = None) -> dict[str, tuple[Any, ...]]:
        """Solitaire plays its own options only (FL-SOLO), the other modes every other one."""
        if config is None:
            return dict(OPTIONS)
        solo = config.get("mode") == "solitaire"
        return {k: v for k, v in OPTIONS.items() if k.startswith("solo_") == solo}

    def validate_scenario(self, config: dict[str, Any]) -> list[str]:
        if not isinstance(config, dict):
            return ["The configuration must be a JSON object."]
        errors = []
        unknown = set(config) - {"mode", "options", "decks"}
        if unknown:
            errors.append(f"Unknown configuration keys: {', '.join(sorted(unknown))}.")
        if config.get("mode", "duel") not in MODES:
            errors.append(f"mode must be one of {', '.join(MODES)}.")
        errors += _deck_errors(config.get("decks"))
        options = config.get("options", {})
        if not isinstance(options, dict):
            return [*errors, *option_errors(options, OPTIONS)]
        return errors + [e for key, value in options.items() for e in _option_errors(key, value)]

    def player_range(self, config: dict[str, Any]) -> tuple[int, int]:
        """The mode's seats (FL modes of play); a list of decks, one per seat, fixes the count."""
        errors = self.validate_scenario(config)
        if errors:
            raise ScenarioError(" ".join(errors))
        low, high = MODES[config.get("mode", "duel")]
        decks = config.get("decks")
        if decks:
            if not low <= len(decks) <= high:
                raise ScenarioError(
                    f"The {config.get('mode', 'duel')} mode takes {low}–{high} decks, not {len(decks)}."
                )
            return len(decks), len(decks)
        return low, high

    def setup(self, seed: int, config: dict[str, Any], players: int) -> State:
        self.check_players(config, players)
        mode = config.get("mode", "duel")
        options = full_options(config.get("options", {}))
        if mode == "solitaire":
            return solitaire.new_state(seed, options)
        return setup.new_state(seed, config, players, options)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def result(self, state: State) -> Result:
        return scoring.result(state)

    def determinize(self, state: State, seat: int, seed: int) -> State:
        """Re-deal every hidden card: rivals' hands, face-down cards and all Stockpile orders."""
        new: State = clone(state)
        new["rng"] = rng.seed_state(seed)
        if new["mode"] == "solitaire":
            return solitaire.determinize(new)
        for i, me in enumerate(new["seats"]):
            # A card a pending decision already names (a weapon being armed) stays in its hand:
            # the frame refers to it, and it was announced when played.
            pinned = _pinned(new, i, me["hand"]) if i != seat else []
            hidden = list(me["hand"])
            for cid in pinned:
                hidden.remove(cid)
            pool = list(me["stock"]) + ([] if i == seat else hidden)
            downs = _face_down(new, i) if i != seat else []
            held = _held(new, i) if i != seat else []  # opening discards not yet shown
            pool += [vc["card"] for vc in downs] + held
            pool.sort()  # the deal depends on the unseen cards as a set, not their true order
            rng.shuffle(new, pool)
            for vc in downs:
                vc["card"] = pool.pop()
            held[:] = [pool.pop() for _ in held]
            if i != seat:
                dealt = len(hidden)
                me["hand"], pool = pinned + pool[:dealt], pool[dealt:]
            me["stock"] = pool
        return new

    def check_invariants(self, state: State) -> None:
        invariants.check(state)

    def undo_barrier(self, before: State, after: State, seat: int) -> bool:
        """Dice and shuffles, a card drawn from a Stockpile or the solitaire deck, a card revealed.

        Revealed means a face-down Victory card (or bluff) turned up or taken off the table
        (FL-COMBAT-VC-04), or a solitaire defender turned up when the one above it fell.
        """
        if super().undo_barrier(before, after, seat):
            return True
        if "solo" in before:
            old, new = before["solo"], after["solo"]
            return len(new["deck"]) < len(old["deck"]) or any(
                len(b) > len(a) > 0 for b, a in zip(old["piles"], new["piles"], strict=True)
            )
        if any(
            len(a["stock"]) < len(b["stock"])
            for b, a in zip(before["seats"], after["seats"], strict=True)
        ):
            return True
        if _held_any(before) and not _held_any(after):
            return True  # the opening discards are shown (FL-SETUP-07)
        still_down = {
            (vc["seat"], vc["card"])
            for i in range(len(after["seats"]))
            for vc in _face_down(after, i)
        }
        return any(
            (vc["seat"], vc["card"]) not in still_down
            for i in range(len(before["seats"]))
            for vc in _face_down(before, i)
        )


def _face_down(state: State, seat: int) -> list[dict[str, Any]]:
    found = []
    for frame in state["stack"]:
        if frame["kind"] == "combat":
            found += [
                vc for vc in frame["vc"].values() if vc and vc["seat"] == seat and not vc["up"]
            ]
    return found


def _pinned(state: State, seat: int, hand: list[str]) -> list[str]:
    """Cards of the seat's hand that a pending frame of that seat names (its "card")."""
    named = [f["card"] for f in state["stack"] if f.get("seat") == seat and "card" in f]
    return [cid for cid in named if isinstance(cid, str) and cid in hand]


def _held(state: State, seat: int) -> list[str]:
    """The seat's opening discards set aside but not yet shown (FL-SETUP-07)."""
    for frame in state["stack"]:
        if frame["kind"] == "setup_discard":
            found: list[str] = frame["held"][str(seat)]
            return found
    return []


def _held_any(state: State) -> bool:
    return any(frame["kind"] == "setup_discard" for frame in state["stack"])


def _deck_errors(decks: Any) -> list[str]:
    if decks is None:
        return []
    if not isinstance(decks, list):
        return ["decks must be a list with one starter id or deck per seat."]
    errors = []
    for i, deck in enumerate(decks):
        if isinstance(deck, str):
            if deck not in load().decks:
                errors.append(f"Seat {i + 1}: there is no starter deck {deck!r}.")
        else:
            errors += [f"Seat {i + 1}: {e}" for e in validate_deck(deck)]
    return errors


def _option_errors(key: str, value: Any) -> list[str]:
    if key == "turn_limit":  # a range, not a list of readings
        ok = isinstance(value, int) and not isinstance(value, bool) and 20 <= value <= 2000
        return [] if ok else ["Option turn_limit must be a whole number from 20 to 2000."]
    return option_errors({key: value}, OPTIONS)
