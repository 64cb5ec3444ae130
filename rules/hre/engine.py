"""The HRE engine: the contract of rules.core.engine over the modules of this package."""

from __future__ import annotations

from typing import Any

from rules.core import rng
from rules.core.canonical import canonical_json, clone
from rules.core.engine import Option, Result, StandingChoice, State
from rules.core.errors import ScenarioError
from rules.core.machine import FrameEngine
from rules.core.options import OptionSpec, OptionText, option_errors, option_specs
from rules.hre import handlers, invariants, modules, scoring, setup, standing, views
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

# How the new-game form words each option (our words; the first value is the recommended reading).
OPTION_TEXT: OptionText = {
    "title_chaining": (
        "Titles per turn",
        "After a Noble action you may exhaust a Title to do the same action again.",
        {False: "One Title per turn", True: "Several Titles in a row"},
    ),
    "natural_one": (
        "When a 1 always misses",
        "A die showing 1 in battle misses whatever is added to it, or only when the result is 1.",
        {
            "final": "When the final value, after every bonus, is 1",
            "natural": "Whenever the die shows 1",
        },
    ),
    "unplayed_cognomens": (
        "Cognomens left in hand at the end",
        "The final Pass stops before Cognomens are resolved.",
        {"resolve": "Still resolved at the final Pass", "lost": "Lost"},
    ),
    "barbarian_hits": (
        "Who assigns the Barbarians' hits",
        "When Barbarians hit your units, someone must choose which units take the hits.",
        {
            "auto": "The site, by the solo game's priority order",
            "left_neighbour": "The attacker's left-hand neighbour",
        },
    ),
    "blocked_in_regions": (
        "Blocked provinces and Regions",
        "Provinces left out for fewer players: do they count in a Region's size for its Title?",
        {False: "They do not count", True: "They count"},
    ),
    "blocked_resources": (
        "Blocked provinces' resources",
        "Do the resources printed on a blocked neighbouring province count?",
        {False: "They do not count", True: "They count"},
    ),
}
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
    rules_version = 3  # 3: the Culture deck at the book's 102 cards (C075-C102)
    machine = handlers.MACHINE
    context = Ctx

    def scenarios(self) -> list[dict[str, Any]]:
        found = SCENARIOS + [s for m in modules.REGISTRY.values() for s in m.scenarios]
        return clone(found)  # type: ignore[no-any-return]

    def option_specs(self) -> list[OptionSpec]:
        """The options of the new-game form, worded (OPTION_TEXT)."""
        return option_specs(OPTIONS, OPTION_TEXT)

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
        return errors + option_errors(config.get("options", {}), allowed)

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
            raise ScenarioError("No number of players can play these modules together.")
        return low, high

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
        found = scoring.result(state)
        for module in modules.in_play(state):
            if module.result is not None:
                found = module.result(state, found)
        return found

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

    def trivial_kinds(self) -> frozenset[str]:
        """Declining a Title (Pass step 2) or further sales (Pass step 4): the Pass that ended the
        round is already made, and saying no spends nothing. The turn's own Pass is not trivial."""
        return frozenset({"claim", "sell"})

    def prompt_kinds(self) -> dict[str, str]:
        extra = {k: v for m in modules.REGISTRY.values() for k, v in m.prompt_kinds.items()}
        return extra | {
            "reaction": "a reaction when your Noble is pushed out on another player's turn",
            "assign": "assigning the hits you rolled in a battle",
            "retreat": "where your units retreat after losing a province",
            "revanchism": "free infantry in your Capital after losing Farms",
            "claim": "claiming a Title while passing",
        }


def _redeal_tokens(state: State) -> None:
    """Re-deal unseen tokens among the slots that show the same thing, box tokens included.

    Tokens showing the same face and content are indistinguishable to every seat, so any of
    them, or any box token with that content on that side, may hide behind each slot.
    """
    tokens = data().tokens
    groups: dict[str, list[str]] = {}
    for pid, here in sorted(state["prov"].items()):
        if here["barb"]:
            face = here["barb"]["face"]
            groups.setdefault(
                face + canonical_json(tokens[here["barb"]["token"]][face]), []
            ).append(pid)
    for key in sorted(groups):
        pids = groups[key]
        face = state["prov"][pids[0]]["barb"]["face"]
        shown = tokens[state["prov"][pids[0]]["barb"]["token"]][face]
        pool = [state["prov"][p]["barb"]["token"] for p in pids]
        pool += [t for t in state["box_tokens"] if tokens[t][face] == shown]
        pool.sort()  # the true token's place in the pool must not show through
        rng.shuffle(state, pool)
        for pid, token in zip(pids, pool, strict=False):
            state["prov"][pid]["barb"] = {"token": token, "face": face}
        placed = set(pool[: len(pids)])
        state["box_tokens"] = sorted((set(state["box_tokens"]) | set(pool)) - placed)
