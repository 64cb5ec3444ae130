"""The greedy bot: one step ahead, the option whose result the game's heuristic likes best (easy).

The bot looks at its position with the hidden things re-dealt (it never sees more than its own
view), tries each option, and scores the result with the game's heuristics. An option that
opens something (an attack, an Endeavor: the stack grows) is scored where that something ends,
after a few random continuations, since the score sees nothing of a fight until it is fought.
Ties, which are common (many choices change nothing the score sees at once), are broken at
random for the seed.
"""

from __future__ import annotations

from rules.bots import heuristics
from rules.bots.base import Bot, BotKind, Budget, mix
from rules.bots.guard import safe
from rules.core import rng
from rules.core.canonical import clone
from rules.core.engine import Engine, Option, State

KIND = BotKind(
    "greedy", "Greedy", "easy", "Takes the choice that looks best right now.", 1, Budget()
)
# Above this many options the bot tries a random sample of them (for speed).
SAMPLE = 40
# Values closer than this are a tie.
EPSILON = 1e-6
# An option that opens a chain of decisions is scored after this many random continuations of
# at most CHAIN actions each, stopping where the chain closes.
SAMPLES = 3
CHAIN = 30


def _depth(state: State) -> int:
    return len(state.get("stack") or ())


def _settled(engine: Engine, state: State, seat: int, start: tuple[int, int | None, str]) -> bool:
    """Whether what the option opened is over: the game ended, the turn passed, the decision's
    own frame closed beneath it, or the seat faces the same kind of decision again."""
    depth, active, kind = start
    if engine.is_over(state) or engine.active_seat(state) != active or _depth(state) < depth:
        return True
    if _depth(state) > depth:
        return False
    prompt = engine.prompt_for(state, seat)
    return prompt is not None and prompt["kind"] == kind


def _score(
    engine: Engine,
    after: State,
    seat: int,
    start: tuple[int, int | None, str],
    seed: int,
    picker: dict[str, int],
) -> float:
    """The heuristic value of an option's result, played on to where what it opened ends."""
    if _settled(engine, after, seat, start):
        return heuristics.value(engine, after, seat)
    total = 0.0
    for sample in range(SAMPLES):
        trial = clone(after)
        trial["rng"] = rng.seed_state(mix(seed, 7, sample))
        for _ in range(CHAIN):
            prompts = engine.prompts(trial)
            if not prompts:
                break
            prompt = rng.choice(picker, prompts)
            action = rng.choice(picker, prompt["options"])["action"]
            engine.apply_trusted(trial, prompt["seat"], action)
            if _settled(engine, trial, seat, start):
                break
        total += heuristics.value(engine, trial, seat)
    return total / SAMPLES


def values(
    engine: Engine, world: State, seat: int, pairs: list[tuple[Option, State]], seed: int
) -> list[float]:
    """The heuristic value for the seat of each (option, position after it) in its own world."""
    picker = {"rng": rng.seed_state(mix(seed, 6))}
    prompt = engine.prompt_for(world, seat)
    start = (_depth(world), engine.active_seat(world), prompt["kind"] if prompt else "")
    return [_score(engine, after, seat, start, seed, picker) for _option, after in pairs]


def choose(
    engine: Engine, state: State, seat: int, options: list[Option], seed: int, budget: Budget
) -> Option:
    """The best-valued option after one step, ties broken at random."""
    picker = {"rng": rng.seed_state(mix(seed, 1))}
    sample = list(options)
    if len(sample) > SAMPLE:
        rng.shuffle(picker, sample)
        sample = sample[:SAMPLE]
    world = engine.determinize(state, seat, mix(seed, 2))
    pairs = safe(engine, world, seat, sample)
    best: list[Option] = []
    best_value = 0.0
    for (option, _after), value in zip(
        pairs, values(engine, world, seat, pairs, seed), strict=True
    ):
        if not best or value > best_value + EPSILON:
            best, best_value = [option], value
        elif value >= best_value - EPSILON:
            best.append(option)
    return rng.choice(picker, best)


BOT = Bot(KIND, choose)
