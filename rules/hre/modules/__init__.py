"""The seat for HRE's modules: a catalogue of the book's 15, a registry of those built, hooks.

Each built module is one file of this package (`m01_lordlings.py`, `m03_grand_buildings.py`, …)
that declares its `Module` at import (`declare`): the hooks are its functions marked `@hook`, its
shipped scenarios are data (`rules/hre/data/module_scenarios.json`). A module brings its own frames and
handlers (registered on `rules.hre.handlers.MACHINE` like any rule file), may extend prompts it
does not own (`MACHINE.extend`, `MACHINE.wrap_step`) and fills the named hooks below; the base
rule files call the hooks at fixed points and never name a module.

A game plays the modules its scenario lists (`config["modules"]`). The state holds their ids
under "modules" only when there are some, so a base game's state, and its hashes, are the same
as before the seat existed. Every hook returns at once when no module is in play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypeVar

from rules.core import rng
from rules.core.engine import Result, State

if TYPE_CHECKING:
    from rules.hre.modules import files
    from rules.hre.state import Ctx


@dataclass(frozen=True)
class Entry:
    """A module of the book: its name and the player counts printed for it (reference §0)."""

    name: str
    min_players: int
    max_players: int


# Every module of the rulebook with its printed player-count support (rules-hre.md, the line
# under the parameter table). Only those in REGISTRY can be played.
CATALOGUE: dict[str, Entry] = {
    "M01": Entry("Lordlings and Raiders (solo)", 1, 1),
    "M02": Entry("The Great Domain", 5, 8),
    "M03": Entry("Grand Buildings", 1, 8),
    "M04": Entry("Alchemists", 1, 8),
    "M05": Entry("Alliances", 3, 8),
    "M06": Entry("Commanders", 1, 8),
    "M07": Entry("Skirmishers", 1, 8),
    "M08": Entry("The Wyrd", 2, 8),
    "M09": Entry("The Ages of War", 3, 8),
    "M10": Entry("Distant Campaigns", 2, 8),
    "M11": Entry("Tribute", 2, 8),
    "M12A": Entry("The Pope", 1, 8),
    "M13A": Entry("Travels of Benjamin", 1, 8),
    "M14A": Entry("Crusades", 3, 8),
    "M15A": Entry("Rise of Poland", 2, 4),
}

# Hook signatures (all optional). Each is called only for the modules in play, in id order.
TurnHook = Callable[["Ctx", int, int], bool]  # a seat's turn begins: True if the module ran it
PassHook = Callable[["Ctx", int, str], bool]  # a Pass is pushed: True if the module ran it
CardHook = Callable[["Ctx", str], None]  # a Culture card entered/left the offer untaken
AutoHook = Callable[["Ctx"], bool]  # True if it settled the top decision itself
TriggerHook = Callable[["Ctx"], list[str]]  # end-game triggers the module adds (rule ids)
FinishHook = Callable[["Ctx"], bool]  # before final scoring: True if frames were pushed first
ViewHook = Callable[[State, "int | None", dict[str, Any]], None]  # adds to a seat's view
ResultHook = Callable[[State, Result], Result]  # rewrites the Result
StateHook = Callable[[State], None]
SeedHook = Callable[[State, int], None]  # re-deals what the module hides (determinize)
BattleHook = Callable[["Ctx", dict[str, Any]], None]  # the attacker won (the battle frame)
RetreatHook = Callable[["Ctx", dict[str, Any], dict[str, int]], bool]  # True: it moved them
CostHook = Callable[["Ctx", int, str], "int | None"]  # a settling cost in place of the Ruler's
SettleHook = Callable[["Ctx", int, str], None]  # a seat settled a province
TieHook = Callable[["Ctx", dict[str, Any]], bool]  # True: the attacker wins this tie
TitleHook = Callable[["Ctx", int, str], None]  # a seat has just gained a Title


@dataclass(frozen=True)
class Module:
    """What one module adds to the base game. Unset hooks add nothing."""

    id: str
    requires: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    # Scenario options of the module: name -> allowed values, the first the default.
    options: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    # How the new-game form words them (rules.core.options.OptionText): label, help, choices.
    option_text: Mapping[str, tuple[str, str, Any]] = field(default_factory=dict)
    # The data files it reads (under rules/hre/data/), loaded and validated by `validate`.
    data_files: tuple[str, ...] = ()
    validate: Callable[[], None] | None = None
    # Shipped scenarios (the engine's scenario dicts) that play this module.
    scenarios: tuple[dict[str, Any], ...] = ()
    # Builds the initial state instead of the base setup (a different table, e.g. solo).
    new_state: Callable[[int, dict[str, Any], int], State] | None = None
    # After the base setup has built the state (players, seed and config known).
    setup: StateHook | None = None
    seats: Callable[[State], int] | None = None
    turn_start: TurnHook | None = None
    push_pass: PassHook | None = None
    offer_enter: CardHook | None = None
    offer_leave: CardHook | None = None
    battle_won: BattleHook | None = None
    attacker_retreats: RetreatHook | None = None
    settle_cost: CostHook | None = None
    settled: SettleHook | None = None
    attacker_wins_tie: TieHook | None = None
    title_gained: TitleHook | None = None
    auto: AutoHook | None = None
    triggers: TriggerHook | None = None
    before_finish: FinishHook | None = None
    view: ViewHook | None = None
    result: ResultHook | None = None
    invariants: StateHook | None = None
    # Pieces the module holds outside the base places, by kind ("cards", "tokens": their ids;
    # "cities", "churches": one entry each, e.g. removed to the box), for conservation checks.
    held: Callable[[State, str], list[str]] | None = None
    determinize: SeedHook | None = None
    # True when a move showed what the module hides (no undo past it).
    undo_barrier: Callable[[State, State], bool] | None = None
    prompt_kinds: Mapping[str, str] = field(default_factory=dict)
    # Run once every module file is imported (all decisions registered): e.g. to extend them all.
    ready: Callable[[], None] | None = None
    # The Culture deck is shuffled (its top card last), the offer not yet dealt: the module may
    # shuffle its own cards into it (Module 13A's Benjamin cards into its halves).
    deck_built: Callable[[Ctx, list[str]], None] | None = None
    # A seat took this card from the offer into its hand: True if the module took it out again
    # (a card played in front of its taker, Module 13A's Benjamin cards).
    card_taken: Callable[[Ctx, int, str], bool] | None = None
    # A seat has built a Church in this province, scored and with its Relic resolved.
    church_built: Callable[[Ctx, int, str], None] | None = None
    # Final-scoring categories the module adds for a seat (the Lordlings' included), VP by name.
    scores: Callable[[State, int], dict[str, int]] | None = None
    # Titles the module gives a seat beyond the Title cards (the Pope), for "per Title" counts.
    titles_held: Callable[[State, int], int] | None = None
    # The seat holding this card outside its hand (Module 13A's Benjamin cards), else None.
    card_holder: Callable[[State, str], int | None] | None = None
    # The most Farms one province of this seat may hold, when the module allows more than 2.
    farm_cap: Callable[[State, int], int] | None = None


class _Registry(dict[str, Module]):
    """The modules by id. Changing an entry drops the tables built from it (`in_play`, `filled`)."""

    def __setitem__(self, key: str, value: Module) -> None:
        super().__setitem__(key, value)
        _drop_tables()

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        _drop_tables()


REGISTRY: dict[str, Module] = _Registry()


def ready() -> None:
    """Called once by rules.hre after importing every module file."""
    for module in REGISTRY.values():
        if module.ready is not None:
            module.ready()


def register(module: Module) -> Module:
    """Make a module playable; called once by its file at import."""
    if module.id not in CATALOGUE:
        raise ValueError(f"{module.id!r} is not a module of the book")
    if module.id in REGISTRY:
        raise ValueError(f"module {module.id} is registered twice")
    for other in (*module.requires, *module.excludes):
        if other not in CATALOGUE:
            raise ValueError(f"module {module.id} names an unknown module {other!r}")
    if module.validate is not None:
        module.validate()
    REGISTRY[module.id] = module
    _drop_tables()  # also when a test has put a plain dict in the registry's place
    return module


# The fields of Module that are hooks (callables), as `@hook` names them.
_SETTINGS = (
    "id",
    "requires",
    "excludes",
    "options",
    "option_text",
    "data_files",
    "scenarios",
    "prompt_kinds",
)
HOOKS = frozenset(f.name for f in fields(Module) if f.name not in _SETTINGS)

F = TypeVar("F", bound=Callable[..., Any])

# Functions marked by @hook and not yet declared: (their file, the hook they fill, the function).
_MARKED: list[tuple[str, str, Callable[..., Any]]] = []


def hook(fn: F) -> F:
    """Mark a function of a module file as the hook its name says (`_setup` fills `setup`)."""
    name = fn.__name__.removeprefix("_")
    if name not in HOOKS:
        raise ValueError(f"{fn.__module__}.{fn.__name__} is not named after a hook of Module")
    _MARKED.append((fn.__module__, name, fn))
    return fn


def declare(file: str, module_id: str, book: files.Book | None = None, **given: Any) -> Module:
    """Register the module that the file `file` (its `__name__`) declares: its hooks are the
    functions the file marked with @hook, its scenarios those module_scenarios.json lists under
    its id, its data file `book` (whose `check` is its `validate` unless it has its own, which
    then calls it); `given` sets the other fields (or a hook whose function is named otherwise)."""
    from rules.hre.modules import files  # here: files reads the components, which need CATALOGUE

    hooks: dict[str, Any] = {name: fn for where, name, fn in _MARKED if where == file}
    _MARKED[:] = [m for m in _MARKED if m[0] != file]
    twice = sorted(set(hooks) & set(given))
    if twice:
        raise ValueError(f"module {module_id}: {', '.join(twice)} given twice")
    if book is not None:
        given.setdefault("data_files", (book.name,))
        if "validate" not in hooks:
            given.setdefault("validate", book.check)
    shipped = files.load("module_scenarios.json").get(module_id, [])
    made = tuple(
        scenario(
            s["slug"],
            s["title"],
            s["description"],
            s["modules"],
            tuple(s["players"]),
            retired=s.get("retired", False),
        )
        for s in shipped
    )
    return register(Module(module_id, scenarios=made, **hooks, **given))


def config_errors(
    modules: Any, players: int | None = None, registry: Mapping[str, Module] | None = None
) -> list[str]:
    """Readable errors for a scenario's module list (and, when known, its player count)."""
    known = REGISTRY if registry is None else registry
    if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
        return ['modules must be a list of module ids such as ["M01"].']
    errors = []
    if len(set(modules)) != len(modules):
        errors.append("A module is listed twice.")
    chosen = [m for m in modules if m in known]
    for m in modules:
        if m not in CATALOGUE:
            errors.append(f"There is no module {m!r}; modules are {', '.join(CATALOGUE)}.")
        elif m not in known:
            errors.append(f"Module {m} ({CATALOGUE[m].name}) is not playable yet.")
    for m in chosen:
        module = known[m]
        for need in module.requires:
            if need not in modules:
                errors.append(f"Module {m} needs module {need} ({CATALOGUE[need].name}).")
        for other in module.excludes:
            pair = f"Modules {min(m, other)} and {max(m, other)} cannot be played together."
            if other in modules and pair not in errors:
                errors.append(pair)
        entry = CATALOGUE[m]
        if players is not None and not entry.min_players <= players <= entry.max_players:
            seats = (
                str(entry.min_players)
                if entry.min_players == entry.max_players
                else f"{entry.min_players} to {entry.max_players}"
            )
            errors.append(
                f"Module {m} ({entry.name}) is played by {seats} player(s), not {players}."
            )
    return errors


def scenario(
    slug: str,
    title: str,
    description: str,
    modules: list[str],
    players: tuple[int, ...] = (2, 4),
    retired: bool = False,
) -> dict[str, Any]:
    """A shipped scenario playing these modules, with no options set; a retired one is kept
    for the games stored with it and offered for no new game (Engine.scenarios)."""
    found: dict[str, Any] = {
        "slug": slug,
        "title": title,
        "description": description,
        "min_players": players[0],
        "max_players": players[1],
        "config": {"modules": modules, "options": {}},
    }
    if retired:
        found["retired"] = True
    return found


def combined_scenarios() -> list[dict[str, Any]]:
    """The base game with every playable module that joins a multiplayer table, if they combine;
    and, when some of them need 3 players or more, a second one with those that 2 can play.

    Modules with their own table (solo) are left out. They grow as modules are built."""
    chosen = [m for m, mod in REGISTRY.items() if mod.new_state is None]
    found = []
    every = _combined(chosen, "all-modules", "every module together")
    if every is not None:
        found.append(every)
    if every is None or every["min_players"] > 2:
        two = [m for m in chosen if CATALOGUE[m].min_players <= 2]
        pair = _combined(two, "all-modules-2p", "every module two players can play")
        if pair is not None:
            found.append(pair)
    return found


def combined_scenario() -> dict[str, Any] | None:
    """The widest combined scenario (every multiplayer module), if the modules combine."""
    found = combined_scenarios()
    return found[0] if found and found[0]["slug"] == "all-modules" else None


def _combined(chosen: list[str], slug: str, words: str) -> dict[str, Any] | None:
    low = max([2] + [CATALOGUE[m].min_players for m in chosen])
    high = min([4] + [CATALOGUE[m].max_players for m in chosen])
    if len(chosen) < 2 or low > high or config_errors(chosen):
        return None
    names = ", ".join(f"{CATALOGUE[m].name} ({m})" for m in chosen)
    return scenario(
        slug, f"Holy Roman Empire — {words}", f"The base game with {names}.", chosen, (low, high)
    )


def options_of(modules: list[str]) -> dict[str, tuple[Any, ...]]:
    """The scenario options the listed (playable) modules add."""
    found: dict[str, tuple[Any, ...]] = {}
    for m in modules:
        if m in REGISTRY:
            found.update(REGISTRY[m].options)
    return found


def ordered(chosen: list[str]) -> list[str]:
    """The listed modules in id order (the order their hooks run)."""
    return [m for m in REGISTRY if m in chosen]


def part(key: str) -> Callable[[State], dict[str, Any]]:
    """The reader of a module's own part of the state, `state[key]`: m05 = part("m05")."""

    def read(state: State) -> dict[str, Any]:
        found: dict[str, Any] = state[key]
        return found

    return read


# The modules of each set in play, and the hooks of a given name they fill, by the set's ids: the
# hook points run at every step, so they read these instead of scanning the registry each time.
# They hold for one registry: a change to one of its entries drops them (`_Registry`), and so
# does putting another dict in its place, as tests do (`_tables_for_registry`).
_IN_PLAY: dict[tuple[str, ...], tuple[Module, ...]] = {}
_FILLED: dict[tuple[tuple[str, ...], str], tuple[Callable[..., Any], ...]] = {}
_TABLES_OF: list[dict[str, Module]] = [REGISTRY]


def _drop_tables() -> None:
    _IN_PLAY.clear()
    _FILLED.clear()


def _tables_for_registry() -> None:
    """Drop the tables if they were built from another registry than the one in place now."""
    if _TABLES_OF[0] is not REGISTRY:
        _drop_tables()
        _TABLES_OF[0] = REGISTRY


def in_play(state: State) -> tuple[Module, ...]:
    """The modules of this game, in id order; empty for a base game."""
    ids = state.get("modules")
    if not ids:
        return ()
    _tables_for_registry()
    key = tuple(ids)
    found = _IN_PLAY.get(key)
    if found is None:
        found = _IN_PLAY[key] = tuple(REGISTRY[m] for m in key)
    return found


def filled(state: State, name: str) -> tuple[Callable[..., Any], ...]:
    """The hooks `name` of the modules in play that fill it, in id order."""
    ids = state.get("modules")
    if not ids:
        return ()
    _tables_for_registry()
    key = (tuple(ids), name)
    found = _FILLED.get(key)
    if found is None:
        hooks = (getattr(m, name) for m in in_play(state))
        found = _FILLED[key] = tuple(h for h in hooks if h is not None)
    return found


def plays(state: State, module_id: str) -> bool:
    """Whether a module is in play in this game."""
    ids: list[str] | None = state.get("modules")
    return ids is not None and module_id in ids


def option_value(state: State, name: str) -> Any:
    """A module option's value in this game, or its default."""
    for module in in_play(state):
        if name in module.options:
            return state["options"].get(name, module.options[name][0])
    raise KeyError(name)


# The hook points the base rule files call. Each is a no-op for a base game.


def _each(state: State, name: str, *args: Any) -> None:
    """Call the hook `name` of every module in play that fills it, in id order."""
    for hook in filled(state, name):
        hook(*args)


def turn_start(ctx: Ctx, seat: int, extra: int) -> bool:
    """A module may run a seat's turn itself (an automa's turn)."""
    return any(m.turn_start(ctx, seat, extra) for m in in_play(ctx.s) if m.turn_start)


def push_pass(ctx: Ctx, seat: int, mode: str) -> bool:
    """A module may run a seat's Pass itself."""
    return any(m.push_pass(ctx, seat, mode) for m in in_play(ctx.s) if m.push_pass)


def offer_enter(ctx: Ctx, card: str) -> None:
    """A Culture card was dealt into the offer."""
    _each(ctx.s, "offer_enter", ctx, card)


def offer_leave(ctx: Ctx, card: str) -> None:
    """A Culture card left the offer without a player taking it."""
    _each(ctx.s, "offer_leave", ctx, card)


def attacker_retreats(ctx: Ctx, frame: dict[str, Any], units: dict[str, int]) -> bool:
    """A beaten attacker's survivors retreat: a module may send them elsewhere (True if so)."""
    return any(
        m.attacker_retreats(ctx, frame, units) for m in in_play(ctx.s) if m.attacker_retreats
    )


def settle_cost(ctx: Ctx, seat: int, prov: str) -> int | None:
    """A settling cost a module sets for this province, or None for the Ruler's own."""
    for m in in_play(ctx.s):
        if m.settle_cost:
            found = m.settle_cost(ctx, seat, prov)
            if found is not None:
                return found
    return None


def settled(ctx: Ctx, seat: int, prov: str) -> None:
    """A seat has just settled a province."""
    _each(ctx.s, "settled", ctx, seat, prov)


def battle_won(ctx: Ctx, frame: dict[str, Any]) -> None:
    """The attacker won the battle, against a player or Barbarians (the base rewards given)."""
    _each(ctx.s, "battle_won", ctx, frame)


def attacker_wins_tie(ctx: Ctx, frame: dict[str, Any]) -> bool:
    """Whether a module gives a tied battle to the attacker (Module 9, HRE-M09-PLAY-04)."""
    return any(m.attacker_wins_tie(ctx, frame) for m in in_play(ctx.s) if m.attacker_wins_tie)


def title_gained(ctx: Ctx, seat: int, tid: str) -> None:
    """A seat has just claimed or taken a Title."""
    _each(ctx.s, "title_gained", ctx, seat, tid)


def result(state: State, found: Result) -> Result:
    """The base result rewritten by each module in play (their scoring categories added)."""
    for m in in_play(state):
        if m.result is not None:
            found = m.result(state, found)
    return found


def category(
    name: str, vp: Callable[[State], dict[int, int]]
) -> Callable[[State, int], dict[str, int]]:
    """A `scores` hook of one final-scoring category: `vp` gives each seat's VP (absent: 0)."""
    return lambda state, seat: {name: vp(state).get(seat, 0)}


def drop_unseen(
    ctx: Ctx, table: dict[str, Any], seat: int, card: str, rule: str, words: str, name: str
) -> None:
    """A seat removes one of its dealt cards unseen: out of its hand (`table["hands"]`), among
    the cards nobody has seen (`table["unseen"]`); the log says `words`, and names it to the seat."""
    table["hands"][seat].remove(card)
    table["unseen"] = sorted([*table["unseen"], card])
    ctx.log(rule, words, {seat: f"You remove {name}."})


def majority(counts: list[int], ladder: list[int]) -> dict[int, int]:
    """VP by relative majority: tied players take the higher value and the next is skipped;
    nobody scores with a count of 0 (HRE-M09-END-02, HRE-M08-END-01 with AMB-59)."""
    found = {}
    for seat, n in enumerate(counts):
        place = sum(1 for other in counts if other > n)
        found[seat] = ladder[place] if n > 0 and place < len(ladder) else 0
    return found


def auto(ctx: Ctx) -> bool:
    """A module settles the top decision itself (an automa's, or an automatic one): True if so.

    The module answers through `MACHINE.answer` or runs its own rule in place of the prompt;
    either way the decision is gone from the top when it returns True.
    """
    # A loop, not any() over a generator: this runs after every step of a game with modules.
    for hook in filled(ctx.s, "auto"):  # noqa: SIM110
        if hook(ctx):
            return True
    return False


def triggers(ctx: Ctx) -> list[str]:
    """End-game triggers the modules add."""
    return [t for m in in_play(ctx.s) if m.triggers for t in m.triggers(ctx)]


def before_finish(ctx: Ctx) -> bool:
    """A module may run frames once every seat is out, before final scoring."""
    return any(m.before_finish(ctx) for m in in_play(ctx.s) if m.before_finish)


def held(state: State, kind: str) -> list[str]:
    """Pieces of one kind the modules in play hold outside the base places."""
    return [x for m in in_play(state) if m.held for x in m.held(state, kind)]


def card_taken(ctx: Ctx, seat: int, card: str) -> bool:
    """A seat took a card from the offer: True if a module moved it out of the hand."""
    return any(m.card_taken(ctx, seat, card) for m in in_play(ctx.s) if m.card_taken)


def church_built(ctx: Ctx, seat: int, prov: str) -> None:
    """A Church was built (and scored) by a seat."""
    _each(ctx.s, "church_built", ctx, seat, prov)


def scores(state: State, seat: int) -> dict[str, int]:
    """The final-scoring categories the modules in play add for a seat."""
    found: dict[str, int] = {}
    for m in in_play(state):
        if m.scores:
            found.update(m.scores(state, seat))
    return found


def titles_held(state: State, seat: int) -> int:
    """Titles the modules give a seat beyond the Title cards."""
    return sum(m.titles_held(state, seat) for m in in_play(state) if m.titles_held)


def farm_cap(state: State, seat: int) -> int:
    """The most Farms one province of the seat may hold: 2 (HRE-BASE-BUILD-19) unless a module
    in play allows more."""
    return max([2] + [m.farm_cap(state, seat) for m in in_play(state) if m.farm_cap])


def deck_built(ctx: Ctx, deck: list[str]) -> None:
    """The Culture deck is shuffled, before the offer is dealt."""
    _each(ctx.s, "deck_built", ctx, deck)


# Culture card types that never enter a hand: taken, a Benjamin card lies beside its taker's
# board (HRE-M13A-PLAY-01); the Chrobry card never reaches the offer (HRE-M15A-CHROBRY-02).
DECK_ONLY = ("benjamin", "chrobry")


def keep_out_of_hands(state: State, seat: int, cards: Mapping[str, dict[str, Any]]) -> None:
    """After a re-deal of the unseen cards (determinize), deal the rival hands again if one
    holds a card that never enters a hand: hands from the other unseen cards, the rest the deck."""
    others = [i for i in range(len(state["seats"])) if i != seat]
    if not any(cards[c]["type"] in DECK_ONLY for i in others for c in state["seats"][i]["hand"]):
        return
    pool = sorted(state["deck"] + [c for i in others for c in state["seats"][i]["hand"]])
    free = [c for c in pool if cards[c]["type"] not in DECK_ONLY]
    rng.shuffle(state, free)
    for i in others:
        size = len(state["seats"][i]["hand"])
        state["seats"][i]["hand"], free = free[:size], free[size:]
    deck = free + [c for c in pool if cards[c]["type"] in DECK_ONLY]
    rng.shuffle(state, deck)
    state["deck"] = deck


def card_holder(state: State, card: str) -> int | None:
    """The seat holding a Culture card in its hand, or beside its board for a module."""
    for i, me in enumerate(state["seats"]):
        if card in me["hand"]:
            return i
    for m in in_play(state):
        found = m.card_holder(state, card) if m.card_holder else None
        if found is not None:
            return found
    return None
