"""The HRE engine: the contract of rules.core.engine over the modules of this package."""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.core import rng
from rules.core.canonical import canonical_json, clone
from rules.core.engine import ModuleSpec, Option, Result, StandingChoice, State, players_phrase
from rules.core.errors import ScenarioError
from rules.core.machine import FrameEngine
from rules.core.options import OptionSpec, OptionText, option_errors, option_specs, option_text
from rules.hre import handlers, invariants, modules, scoring, setup, standing, views
from rules.hre.components import DATA_DIR
from rules.hre.state import Ctx, data

# Switches for the book's ambiguities (../shared/reference/rules-hre.md §4): name → allowed values,
# the first being the recommended reading and the default.
OPTIONS: dict[str, tuple[Any, ...]] = {
    "title_chaining": (False, True),  # AMB-02: more than one Title per turn
    "natural_one": ("final", "natural"),  # AMB-15: which 1 always misses
    "unplayed_cognomens": ("resolve", "lost"),  # AMB-31: Cognomens left at the final Pass
    "barbarian_hits": ("auto", "left_neighbour"),  # AMB-17: who assigns the Barbarians' hits
    "blocked_in_regions": (False, True),  # AMB-21: blocked provinces count in Regions
    "blocked_resources": (False, True),  # AMB-10: blocked neighbours' resources count
}

# How the new-game form words each option, in our words (data/option_text.json; the first value
# of each option in OPTIONS is the recommended reading).
OPTION_TEXT: OptionText = option_text(DATA_DIR / "option_text.json")
SCENARIOS = [
    {
        "slug": "base",
        "title": "Holy Roman Empire — base game",
        "description": "The base game for 2–4 players: build, research, fight Barbarians and rivals, "
        "claim Titles, and score at the end.",
        "min_players": 2,
        "max_players": 4,
        "config": {"modules": [], "options": {}},
    },
]


class HreEngine(FrameEngine[Ctx]):
    """Dark Ages: Holy Roman Empire."""

    game_id = "hre"
    title = "Dark Ages: Holy Roman Empire"
    # 3: the 102-card Culture deck; 4: Capitals off Iron, the Ivrea–Tuscany link, Ruler costs;
    # 5: the solo map (8 provinces with the solo icon blocked, HRE-M01-SETUP-07)
    # 6: Skirmisher rewards +1 VP; 7: starting cards for balance (C002 a Common Technology, C005
    # and C010 level I); 8: the Great Domain with Modules 8, 10 and 13A, and the western half's
    # Titles on 3 provinces in play (Module 2 only; 1-4 player games play as at 7); 9: the western
    # half re-authored for Ruler balance at 5 players (Module 2 only); 10: solo (Module 1) battles
    # and the Raiding Party by AMB-77, -78 and -79 (hits on a non-Transient unit before the type
    # order, a Barbarian token in a province lost to Raiders beside Skirmishers, tokens kept
    # reduced on the card after a failed counterattack)
    rules_version = 10
    machine = handlers.MACHINE
    # Declining a Title (Pass step 2) or further sales (Pass step 4): the Pass that ended the
    # round is already made, and saying no spends nothing. The turn's own Pass is not trivial.
    trivial = frozenset({"claim", "sell"})

    def scenarios(self) -> list[dict[str, Any]]:
        found = SCENARIOS + [s for m in modules.REGISTRY.values() for s in m.scenarios]
        found += modules.combined_scenarios()
        return clone(found)  # type: ignore[no-any-return]

    def option_specs(self, config: dict[str, Any] | None = None) -> list[OptionSpec]:
        """The options of the new-game form, worded (OPTION_TEXT and the modules' own)."""
        text = dict(OPTION_TEXT)
        for module in modules.REGISTRY.values():
            text.update(module.option_text)
        return option_specs(self.scenario_options(config), text)

    def scenario_options(self, config: dict[str, Any] | None = None) -> dict[str, tuple[Any, ...]]:
        """The base game's options, and those of the modules the config plays (a module's
        options are refused without it); every module's when `config` is None."""
        allowed = dict(OPTIONS)
        if config is None:
            for module in modules.REGISTRY.values():
                allowed.update(module.options)
        elif not modules.config_errors(config.get("modules", [])):
            allowed.update(modules.options_of(config.get("modules", [])))
        return allowed

    def module_specs(self) -> list[ModuleSpec]:
        """The built modules, in the book's order, each with its printed player counts."""
        return [
            {
                "id": m,
                "name": modules.CATALOGUE[m].name,
                "min_players": modules.CATALOGUE[m].min_players,
                "max_players": modules.CATALOGUE[m].max_players,
                "rule": f"HRE-{m}",  # the module's paragraph on the rules page
            }
            for m in modules.CATALOGUE
            if m in modules.REGISTRY
        ]

    def validate_scenario(self, config: dict[str, Any]) -> list[str]:
        errors = []
        if not isinstance(config, dict):
            return ["The configuration must be a JSON object."]
        unknown = set(config) - {"modules", "options"}
        if unknown:
            errors.append(f"Unknown configuration keys: {', '.join(sorted(unknown))}.")
        chosen = config.get("modules", [])
        errors += modules.config_errors(chosen)
        allowed = dict(OPTIONS)
        if not errors:
            allowed.update(modules.options_of(chosen))
        options = config.get("options", {})
        if isinstance(options, dict):
            for name in sorted(set(options) - set(allowed)):
                owner = next(
                    (m for m, mod in modules.REGISTRY.items() if name in mod.options), None
                )
                if owner is not None:  # say which scenario it belongs to, not just "unknown"
                    errors.append(
                        f"Option {name} belongs to module {owner} "
                        f"({modules.CATALOGUE[owner].name}), which this game does not play."
                    )
            options = {
                k: v
                for k, v in options.items()
                if k in allowed or not any(k in mod.options for mod in modules.REGISTRY.values())
            }
        return errors + option_errors(options, allowed)

    def player_range(self, config: dict[str, Any]) -> tuple[int, int]:
        """The base game takes 2 to 4 (HRE Setup); each module in play narrows it to its printed
        support, and a module with its own table (solo) sets it."""
        errors = self.validate_scenario(config)
        if errors:
            raise ScenarioError(" ".join(errors))
        low, high = 2, 4
        for m in modules.ordered(config.get("modules", [])):
            entry = modules.CATALOGUE[m]
            if modules.REGISTRY[m].new_state is not None:
                low, high = entry.min_players, entry.max_players
            else:
                low, high = max(low, entry.min_players), min(high, entry.max_players)
        if low > high:
            counts = "; ".join(
                f"{modules.CATALOGUE[m].name} ({m}) takes "
                + players_phrase(modules.CATALOGUE[m].min_players, modules.CATALOGUE[m].max_players)
                for m in modules.ordered(config.get("modules", []))
            )
            raise ScenarioError(f"No number of players can play these modules together: {counts}.")
        return low, high

    def check_players(self, config: dict[str, Any], players: int) -> None:
        """As the contract's, naming the modules whose printed player counts refuse the table."""
        low, high = self.player_range(config)
        if not low <= players <= high:
            why = modules.config_errors(config.get("modules", []), players)
            taken = f"This set-up takes {players_phrase(low, high)}, not {players}."
            raise ScenarioError(" ".join([taken, *why]))

    def setup(self, seed: int, config: dict[str, Any], players: int) -> State:
        self.check_players(config, players)
        chosen = modules.ordered(config.get("modules", []))
        if not chosen:
            return setup.new_state(seed, config, players)
        builders = [modules.REGISTRY[m].new_state for m in chosen]
        build = next((b for b in builders if b is not None), None)
        state = (
            setup.new_state(seed, config, players)
            if build is None
            else build(seed, config, players)
        )
        state["modules"] = chosen
        for m in chosen:
            hook = modules.REGISTRY[m].setup
            if hook is not None:
                hook(state)
        return state

    def seats(self, state: State) -> int:
        for module in modules.in_play(state):
            if module.seats is not None:
                return module.seats(state)
        return super().seats(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        found = views.view(state, seat)
        for module in modules.in_play(state):
            if module.view is not None:
                module.view(state, seat, found)
        return found

    def result(self, state: State) -> Result:
        return modules.result(state, scoring.result(state))

    def determinize(self, state: State, seat: int, seed: int) -> State:
        """Re-deal the deck and rival hands, and the hidden sides of Barbarian tokens."""
        new: State = clone(state)
        new["rng"] = rng.seed_state(seed)
        others = [i for i in range(len(new["seats"])) if i != seat]
        pool = list(new["deck"])
        for i in others:
            pool += new["seats"][i]["hand"]
        pool.sort()  # so the re-deal depends on the unseen set only, not its true order
        rng.shuffle(new, pool)
        for i in others:
            size = len(new["seats"][i]["hand"])
            new["seats"][i]["hand"], pool = pool[:size], pool[size:]
        new["deck"] = pool
        _redeal_tokens(new)
        for module in modules.in_play(new):
            if module.determinize is not None:
                module.determinize(new, seat)
        return new

    def undo_barrier(self, before: State, after: State, seat: int) -> bool:
        """Dice and shuffles, a card dealt from the deck, or a Barbarian token shown."""
        if super().undo_barrier(before, after, seat) or len(before["deck"]) != len(after["deck"]):
            return True
        if any(m.undo_barrier(before, after) for m in modules.in_play(after) if m.undo_barrier):
            return True
        faces = {p: h["barb"] for p, h in before["prov"].items()}
        return any(
            h["barb"] is not None and faces.get(p) != h["barb"] for p, h in after["prov"].items()
        ) or any(faces[p] is not None and h["barb"] is None for p, h in after["prov"].items())

    def check_invariants(self, state: State) -> None:
        invariants.check(state)
        for module in modules.in_play(state):
            if module.invariants is not None:
                module.invariants(state)

    def standing_options(self, kind: str) -> list[StandingChoice]:
        named = standing.options(kind)
        return super().standing_options(kind) if named is None else named

    def standing_answer(self, kind: str, name: str, options: list[Option]) -> Option | None:
        if standing.options(kind) is None:
            return super().standing_answer(kind, name, options)
        return standing.answer(kind, name, options)

    def prompt_kinds(self) -> dict[str, str]:
        extra = {k: v for m in modules.REGISTRY.values() for k, v in m.prompt_kinds.items()}
        return extra | {
            "reaction": "a reaction when your Noble is pushed out on another player's turn",
            "assign": "assigning the hits you rolled in a battle",
            "retreat": "where your units retreat after losing a province",
            "revanchism": "free infantry in your Capital after losing Farms",
            "claim": "claiming a Title while passing",
        }


@cache
def _shows(token: str, face: str) -> tuple[str, str]:
    """A token's set and what one of its faces shows, as text (cached: bots re-deal often)."""
    return token[0], canonical_json(data().token_specs[token][face])


def first_fill(order: list[str], fits: dict[str, list[str]]) -> dict[str, str] | None:
    """The first way, in order, of giving each slot one of its fitting tokens, no token twice:
    the first slot its first token that leaves the others a way, and so on; None if none.

    The same deal as trying every token of every slot in order and backing up on a dead end,
    but in polynomial time: a complete deal is kept throughout (Kuhn's augmenting paths), so a
    token is tried only if the slots after it can still be dealt. Plain backing up could try
    exponentially many partial deals before the first whole one (a search bot's re-deal on the
    joined board of Module 2 ran for minutes)."""
    slot_of: dict[str, str] = {}  # token -> slot
    token_of: dict[str, str] = {}  # slot -> token
    fixed: set[str] = set()

    def augment(pid: str, seen: set[str]) -> bool:
        for token in fits[pid]:
            if token in seen:
                continue
            seen.add(token)
            holder = slot_of.get(token)
            if holder is None or (holder not in fixed and augment(holder, seen)):
                slot_of[token], token_of[pid] = pid, token
                return True
        return False

    if not all(augment(pid, set()) for pid in order):
        return None
    for pid in order:
        for token in fits[pid]:
            holder = slot_of.get(token)
            if holder == pid:
                break
            if holder in fixed:
                continue
            kept = (dict(slot_of), dict(token_of))
            del slot_of[token_of[pid]]
            slot_of[token], token_of[pid] = pid, token
            fixed.add(pid)
            if holder is None:
                break
            del token_of[holder]
            if augment(holder, set()):
                break
            fixed.discard(pid)
            slot_of, token_of = kept
        fixed.add(pid)
    return token_of


def _redeal_tokens(state: State) -> None:
    """Re-deal the unseen Barbarian tokens: every slot gets a token showing what it shows.

    The tokens on the board and in the box are one unseen set (sorted, so only the set counts,
    never where each truly is). Slots are filled most-constrained first, each from a random
    order of the tokens still free that show the slot's face, backing up on a dead end; the
    true deal is one solution, so one is always found. The result depends on what the seats
    see and the seed only.
    """
    slots = sorted(pid for pid, here in state["prov"].items() if here["barb"])
    if not slots:
        return
    faces = {pid: state["prov"][pid]["barb"]["face"] for pid in slots}
    unseen = sorted(list(state["box_tokens"]) + [state["prov"][p]["barb"]["token"] for p in slots])
    # a slot's token stays in its set (Barbarian / Skirmisher, HRE-M07-SOLO-01) and shows its face
    shown = {pid: _shows(state["prov"][pid]["barb"]["token"], faces[pid]) for pid in slots}
    fits = {pid: [t for t in unseen if _shows(t, faces[pid]) == shown[pid]] for pid in slots}
    order = sorted(slots, key=lambda pid: (len(fits[pid]), pid))
    for pid in order:
        rng.shuffle(state, fits[pid])
    chosen = first_fill(order, fits)
    if chosen is None:  # cannot happen: the true deal is a solution
        return
    for pid in slots:
        state["prov"][pid]["barb"] = {"token": chosen[pid], "face": faces[pid]}
    state["box_tokens"] = sorted(set(unseen) - set(chosen.values()))
