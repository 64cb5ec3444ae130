"""The engine contract: the base class every game engine derives from (ARCHITECTURE §2)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, TypedDict

from rules.core.canonical import canonical_json, clone
from rules.core.errors import IllegalAction, RulesVersionError, ScenarioError
from rules.core.options import OptionSpec, OptionText, option_specs

State = dict[str, Any]


class Option(TypedDict):
    """One legal choice: the action to submit and a label a player can read."""

    action: Any
    label: str


class Prompt(TypedDict):
    """A decision a seat must take now, with the complete list of legal options."""

    seat: int
    kind: str
    text: str
    rule: str
    options: list[Option]


class Event(TypedDict):
    """What happened, for the log: public text, private text per seat, and the rule applied."""

    rule: str
    public: str | None
    private: dict[str, str]


class SeatResult(TypedDict):
    """A seat's final score, rank (1 is best, ties share) and score by category."""

    seat: int
    score: int
    rank: int
    breakdown: dict[str, int]


class Result(TypedDict):
    """The outcome of a game: whether it is over and every seat's score."""

    over: bool
    seats: list[SeatResult]


class StandingChoice(TypedDict):
    """A named standing answer a seat may set for a kind of prompt ("ask me" is always offered)."""

    name: str
    label: str


class ModuleSpec(TypedDict):
    """An expansion module a scenario may list in `config["modules"]` (HRE's Modules 1–15A)."""

    id: str
    name: str
    min_players: int
    max_players: int
    # The id of its summary on the rules page (rules.<game>.metadata.RULE_SUMMARIES).
    rule: str


Step = tuple[State, list[Event]]

# Values that mark an option as passing, declining or choosing nothing, e.g. {"do": "pass"},
# {"claim": None}, {"kind": "none"}: the engines' shared way of writing "no".
PASS_VALUES = (None, False, "pass", "decline", "none", "no")


def looks_like_pass(action: Any) -> bool:
    """Whether an action passes, declines or chooses nothing (every value a 'no')."""
    if not isinstance(action, dict) or not action:
        return False
    return all(
        v is None or v is False or (isinstance(v, str) and v in PASS_VALUES)
        for v in action.values()
    )


def players_phrase(low: int, high: int) -> str:
    """'2–4 players', '2 players' or '1 player'."""
    if low == high:
        return f"{low} player" + ("" if low == 1 else "s")
    return f"{low}–{high} players"


class Engine(ABC):
    """A game engine over a plain JSON state; pure and deterministic in its inputs."""

    game_id: str = ""
    title: str = ""
    rules_version: int = 1
    # The oldest rules_version whose stored states this one reads as they are (the same layout);
    # `upgrade` converts older ones where the engine knows how, and refuses the rest.
    layout_since: int = 1
    # The oldest rules_version whose game records this one replays exactly (the same play; the
    # hashes of an older layout checked through `earlier_layout`); 0: this version only.
    replays_since: int = 0
    # The game's switches (name -> allowed values, the recommended reading first) and their
    # wording for the new-game form (rules.core.options).
    options: dict[str, tuple[Any, ...]] = {}
    option_text: OptionText = {}
    # Off-turn prompt kinds a player may give a standing answer to, described; and those whose
    # answers are all trivial (see trivial_kinds).
    off_turn_kinds: dict[str, str] = {}
    trivial: frozenset[str] = frozenset()

    @abstractmethod
    def scenarios(self) -> list[dict[str, Any]]:
        """Shipped scenarios: slug, title, description, min_players, max_players, config; and
        "retired": True on one kept only so that the games stored with it still load and play
        (another scenario replaces it; the site offers it for no new game)."""

    @abstractmethod
    def validate_scenario(self, config: dict[str, Any]) -> list[str]:
        """Errors in a scenario configuration, as sentences; empty when it is playable."""

    @abstractmethod
    def player_range(self, config: dict[str, Any]) -> tuple[int, int]:
        """The fewest and most seats this configuration can be dealt for.

        Raises ScenarioError (with validate_scenario's sentences) for a configuration that cannot
        be played at all; setup refuses any count outside the range with the same words.
        """

    def check_players(self, config: dict[str, Any], players: int) -> None:
        """Raise ScenarioError unless this configuration can be dealt for this many seats."""
        low, high = self.player_range(config)
        if not low <= players <= high:
            raise ScenarioError(f"This set-up takes {players_phrase(low, high)}, not {players}.")

    @abstractmethod
    def setup(self, seed: int, config: dict[str, Any], players: int) -> State:
        """The initial state for this seed, scenario configuration and number of seats."""

    @abstractmethod
    def prompts(self, state: State) -> list[Prompt]:
        """Every seat that must decide now, with its legal options (empty when over)."""

    @abstractmethod
    def apply_trusted(self, state: State, seat: int, action: Any) -> list[Event]:
        """Apply an action known to be legal, changing the state in place."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What one seat (or a spectator, seat None) may know of the state."""

    def is_over(self, state: State) -> bool:
        """True once the game has ended (engines keep an "over" flag in the state)."""
        return bool(state["over"])

    @abstractmethod
    def result(self, state: State) -> Result:
        """Scores, ranks and per-category breakdown for every seat."""

    def evaluate(self, state: State, seat: int) -> int:
        """A heuristic for bots: the seat's score if the game ended now, less the best rival's."""
        rows = self.result(state)["seats"]
        rivals = [r["score"] for r in rows if r["seat"] != seat]
        return rows[seat]["score"] - max(rivals, default=0)

    def expected_length(self, state: State) -> int:
        """About how many actions a whole game from this setup takes (a guide for the arena's
        guard against games that never end, never a rule); engines with long scenarios say more."""
        return 2_000

    @abstractmethod
    def determinize(self, state: State, seat: int, seed: int) -> State:
        """A full state consistent with the seat's view, hidden things re-dealt."""

    @abstractmethod
    def check_invariants(self, state: State) -> None:
        """Raise InvariantError when the state breaks a rule of conservation or range."""

    def upgrade(self, state: State, from_version: int) -> State:
        """A state stored at an older rules_version, laid out for this one (the same position).

        States from `layout_since` on are read as they are; an engine that changed its layout
        converts older ones by overriding this. Anything else (an unknown or a newer version)
        raises RulesVersionError with a readable message.
        """
        if self.layout_since <= from_version <= self.rules_version:
            return state
        raise RulesVersionError(
            f"This {self.title} game was saved by rules version {from_version}, which rules "
            f"version {self.rules_version} cannot read."
        )

    def earlier_layout(self, state: State) -> State | None:
        """This state as the versions before `layout_since` stored it, to check hashes recorded
        then; None when the engine has no earlier layout it can write."""
        return None

    def replayable(self, version: int) -> bool:
        """Whether a game record made at this rules_version replays exactly here."""
        return (self.replays_since or self.rules_version) <= version <= self.rules_version

    def undo_barrier(self, before: State, after: State, seat: int) -> bool:
        """Whether a move from `before` to `after` by `seat` may never be taken back.

        A move is a barrier when it used randomness (a die, a shuffle) or showed anyone
        something that was hidden; engines add their own reveals to this default.
        """
        return bool(before.get("rng") != after.get("rng"))

    def active_seat(self, state: State) -> int | None:
        """Whose turn it is (None between turns); other seats' prompts are off-turn decisions."""
        active = state.get("active")
        return active if isinstance(active, int) and not isinstance(active, bool) else None

    def trivial_kinds(self) -> frozenset[str]:
        """Prompt kinds whose answers are all trivial: answering costs nothing and ends no turn.

        Only these may be answered with one click from a mail (a reaction with nothing to lose);
        a choice that spends something or ends the player's round is never trivial. An engine
        names them in `trivial`; none by default.
        """
        return self.trivial

    def card_list(self) -> list[dict[str, Any]]:
        """The game's card database for players to read, one dict per card: id, name, type,
        class, numbers (by field) and text. Empty for a game without a card database."""
        return []

    def option_specs(self, config: dict[str, Any] | None = None) -> list[OptionSpec]:
        """The options a player may choose, worded for the new-game form: those a game set up
        from `config` plays (every option of the game when None), each with its allowed values,
        the recommended reading first and marked."""
        return option_specs(self.scenario_options(config), self.option_text)

    def scenario_options(self, config: dict[str, Any] | None = None) -> dict[str, tuple[Any, ...]]:
        """Name -> allowed values of the options a game set up from `config` plays (the first
        value the recommended reading); every option of the game when `config` is None."""
        return dict(self.options)

    def module_specs(self) -> list[ModuleSpec]:
        """The playable expansion modules a scenario's config may list; none by default."""
        return []

    def config_modules(self, config: dict[str, Any]) -> list[str]:
        """The ids of the modules a configuration plays, in the order module_specs lists them."""
        chosen = config.get("modules") if isinstance(config, dict) else None
        if not isinstance(chosen, list):
            return []
        return [m["id"] for m in self.module_specs() if m["id"] in chosen]

    def prompt_kinds(self) -> dict[str, str]:
        """Kinds of prompts this engine asks, with a short description (for standing answers)."""
        return self.off_turn_kinds

    def standing_options(self, kind: str) -> list[StandingChoice]:
        """Named standing answers for a kind of prompt; engines may refine this default."""
        return [
            {"name": "pass", "label": "Always pass or decline, when that is a choice"},
            {"name": "first", "label": "Always the first choice offered"},
        ]

    def standing_answer(self, kind: str, name: str, options: list[Option]) -> Option | None:
        """The option a named standing answer picks among these, or None to ask the player."""
        if name == "first":
            return options[0] if options else None
        if name == "pass":
            return next((o for o in options if looks_like_pass(o["action"])), None)
        return None

    def seats(self, state: State) -> int:
        """Number of seats in the game."""
        return int(state["players"])

    def returns(self, state: State) -> list[float]:
        """Final payoff per seat for search bots: 1 for a win, shared on ties, else 0."""
        seats = self.result(state)["seats"]
        winners = [s for s in seats if s["rank"] == 1]
        return [1.0 / len(winners) if s["rank"] == 1 else 0.0 for s in seats]

    def prompt_for(self, state: State, seat: int) -> Prompt | None:
        """The prompt of one seat, or None when it has nothing to decide."""
        for prompt in self.prompts(state):
            if prompt["seat"] == seat:
                return prompt
        return None

    def apply(self, state: State, seat: int, action: Any) -> Step:
        """Check and apply an action, returning a new state; the given state never changes."""
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalAction("That seat is not part of this game.")
        if self.is_over(state):
            raise IllegalAction("The game is over: no more moves can be made.")
        prompt = self.prompt_for(state, seat)
        if prompt is None:
            raise IllegalAction(f"It is not seat {seat + 1}'s decision now.")
        try:
            wanted = canonical_json(action)
        except (TypeError, ValueError) as error:
            raise IllegalAction("That action is not well-formed.") from error
        for option in prompt["options"]:
            if canonical_json(option["action"]) == wanted:
                new_state = clone(state)
                events = self.apply_trusted(new_state, seat, option["action"])
                return new_state, events
        raise IllegalAction(f"That is not one of the choices now: {prompt['text']}")
