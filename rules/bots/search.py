"""The information-set search bot: ISMCTS (Cowling, Powley and Whitehouse 2012), normal and strong.

One tree over the bot's information set: every iteration deals a fresh determinization (the
hidden things re-dealt consistently with the bot's view), walks the tree choosing, at each
node, among the options legal in that deal (UCB1 with availability counts, so an option that is
often not offered is not starved), adds one node, plays on at random for a number of actions
and scores the end with `returns` (game over) or the game's heuristics. Each node keeps every
seat's reward, and a seat chooses by its own. Long option lists are widened progressively: a
node considers about 2·√visits options at first, in a random order for the seed. The root's
options start from the greedy bot's one-step values as a few virtual visits (progressive bias),
so a short search begins where greedy stands and a longer one outgrows it. The prior sits on
the same scale as the rewards (2026-12-02): before, it was centred on the options' mean while
real rewards sat at the seat's lead, so the first real visit of greedy's choice outranked every
prior and the search locked onto it (it played as greedy). Rewards squash each seat's lead less
its lead at the root, so they are steepest where the game stands (FL's leads saturated).

With an iteration budget the decision is a function of (view, seed, budget); a wall-clock cap
(`ms`) stops earlier on a slow machine and is the one source of variation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from timeit import default_timer
from typing import Any

from rules.bots import greedy, heuristics
from rules.bots.base import Bot, BotKind, Budget, action_key, mix
from rules.bots.guard import safe
from rules.core import rng
from rules.core.canonical import clone
from rules.core.engine import Engine, Option, State

NORMAL = BotKind(
    "search",
    "Search",
    "normal",
    "Thinks a few moves ahead, about a second a decision.",
    2,
    Budget(ms=1000),
)
STRONG = BotKind(
    "search-strong",
    "Search",
    "strong",
    "Thinks further ahead, about three seconds a decision.",
    3,
    Budget(ms=3000),
)
# Rollouts stop after this many actions and are scored by the heuristics.
ROLLOUT = {2: 12, 3: 20}
# UCB1's exploration constant. Rewards lie in [0, 1], but a heuristic lead squashed by the
# game's SCALE separates options by a few hundredths: at 0.7 the visits stayed nearly even and
# the most visited option was close to a draw among the widened ones.
EXPLORE = 0.15
WIDEN = 2.0  # a node considers about WIDEN·√visits options
# Without any budget given, this many iterations (the command line's default).
DEFAULT_ITERATIONS = 200
# The root's options start with this many virtual visits at the greedy bot's one-step value
# (progressive bias): a short search starts from what greedy sees, a long one outgrows it.
PRIOR_VISITS = 4


@dataclass(frozen=True)
class Style:
    """How a search plays: its rollouts, their policy and the root's prior."""

    rollout: int = 12  # actions played after the tree's, then scored
    policy: str = "random"  # "random" or "greedy": how a rollout picks its actions
    prior_visits: int = PRIOR_VISITS  # virtual visits of greedy's value at the root
    policy_sample: int = 3  # the greedy policy tries at most this many options a step
    epsilon: float = 0.1  # and takes a uniform one this often
    prior_reward: bool = True  # prior at the reward of greedy's value (else centred on mean)
    finish: int = 0  # first play on at most this many actions while a frame opened is open
    centre: bool = True  # rewards squash each seat's lead less its lead at the root


STYLES = {2: Style(rollout=ROLLOUT[2]), 3: Style(rollout=ROLLOUT[3])}
# A game whose play measured better another way (bench/README.md, "Bots"). EMA: an Endeavor, a
# Conquest or a Parley is a chain of decisions and dice whose worth shows only when it closes,
# and twelve random actions after the tree left most chains open half-way; finishing the open
# chain at random (at most 30 actions) and scoring where it closes, as the greedy bot does,
# with no rollout past it, won 14 of 20 against greedy where 12-action rollouts won 3 of the
# first 6 of those seeds (EMA 27, two players, 200 iterations; bench/README.md, "Bots").
GAME_STYLES: dict[str, dict[str, Any]] = {"ema": {"rollout": 0, "finish": 30}}


def style_for(engine: Engine, level: int) -> Style:
    """The style of a search level in this game."""
    changes = GAME_STYLES.get(engine.game_id)
    return replace(STYLES[level], **changes) if changes else STYLES[level]


def _squash(x: float) -> float:
    """A lead in SCALE units as a reward in (0, 1) (clamped: no overflow far from the root)."""
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


class Node:
    """A tree node: per child action, visits, availability and every seat's reward sum."""

    __slots__ = ("children", "visits")

    def __init__(self) -> None:
        self.children: dict[str, Child] = {}
        self.visits = 0


class Child:
    """An edge of the tree: the action, its statistics and the node it leads to."""

    __slots__ = ("action", "avail", "node", "order", "totals", "visits")

    def __init__(self, action: Any, seats: int, order: int) -> None:
        self.action = action
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * seats
        self.node = Node()
        self.order = order


def _ucb(child: Child, seat: int) -> float:
    if child.visits == 0:
        return math.inf
    mean = child.totals[seat] / child.visits
    return mean + EXPLORE * math.sqrt(math.log(max(child.avail, 1)) / child.visits)


def _width(visits: int) -> int:
    return max(1, int(WIDEN * math.sqrt(visits + 1)))


class Search:
    """One decision's search: the tree, the root options and the random stream."""

    def __init__(self, engine: Engine, state: State, seat: int, seed: int, style: Style) -> None:
        self.engine = engine
        self.state = state
        self.seat = seat
        self.seed = seed
        self.style = style
        self.seats = engine.seats(state)
        self.root = Node()
        self.rng = {"rng": rng.seed_state(mix(seed, 3))}
        self.size = heuristics.scale(engine, state)
        self.centre = [0.0] * self.seats

    def centre_on(self, world: State) -> None:
        """Centre the rewards on each seat's lead in the bot's own (determinized) position."""
        if self.style.centre and self.seats > 1:
            self.centre = heuristics.relative(heuristics.potentials(self.engine, world))

    def seed_root(self, options: list[Option], values: list[float]) -> None:
        """Start the root's children from one-step values, relative to their mean."""
        mean = sum(values) / len(values)
        if self.style.prior_reward:
            mean = self.centre[self.seat]
        weight = self.style.prior_visits
        for order, (option, value) in enumerate(zip(options, values, strict=True)):
            prior = _squash((value - mean) / self.size)
            child = Child(option["action"], self.seats, order)
            child.visits = child.avail = weight
            child.totals = [weight * (1.0 - prior)] * self.seats
            child.totals[self.seat] = weight * prior
            self.root.children[action_key(option["action"])] = child
        self.root.visits = weight * len(options)

    def iterate(self, index: int, root_options: list[Option]) -> None:
        """One iteration: deal, select and expand, roll out, back up."""
        engine = self.engine
        world = engine.determinize(self.state, self.seat, mix(self.seed, 4, index))
        path: list[Child] = []
        node = self.root
        mover, options = self.seat, root_options
        while True:
            child = self._select(node, mover, options)
            path.append(child)
            engine.apply_trusted(world, mover, child.action)
            if engine.is_over(world) or child.visits == 0:
                break
            node = child.node
            prompt = self._prompt(world)
            if prompt is None:
                break
            mover, options = prompt["seat"], prompt["options"]
        rewards = self._rollout(world)
        node = self.root
        node.visits += 1
        for child in path:
            child.visits += 1
            for i, reward in enumerate(rewards):
                child.totals[i] += reward
            child.node.visits += 1

    def _prompt(self, world: State) -> Any:
        prompts = self.engine.prompts(world)
        if not prompts:
            return None
        return prompts[0] if len(prompts) == 1 else rng.choice(self.rng, prompts)

    def _select(self, node: Node, mover: int, options: list[Option]) -> Child:
        """UCB1 over the children legal here, within the widened set; a new child if room."""
        legal: list[Child] = []
        fresh: list[tuple[str, Option]] = []
        for option in options:
            key = action_key(option["action"])
            child = node.children.get(key)
            if child is None:
                fresh.append((key, option))
            else:
                legal.append(child)
        if fresh and len(legal) < _width(node.visits):
            key, option = fresh[rng.below(self.rng, len(fresh))]
            child = Child(option["action"], self.seats, len(node.children))
            node.children[key] = child
            legal.append(child)
            for other in legal:
                other.avail += 1
            return child
        for other in legal:
            other.avail += 1
        return max(legal, key=lambda c: (_ucb(c, mover), -c.order))

    def _rollout(self, world: State) -> list[float]:
        """Finish what the tree left open (with `finish`), play `rollout` actions, score."""
        depth = len(self.state.get("stack") or ())
        for _ in range(self.style.finish):
            if len(world.get("stack") or ()) <= depth or not self._step(world):
                break
        for _ in range(self.style.rollout):
            if not self._step(world):
                break
        return self._rewards(world)

    def _step(self, world: State) -> bool:
        """One rollout action by the policy; False once the game is over or nobody is asked."""
        if self.engine.is_over(world):
            return False
        prompt = self._prompt(world)
        if prompt is None or not prompt["options"]:
            return False
        option = self._pick(world, prompt)
        self.engine.apply_trusted(world, prompt["seat"], option["action"])
        return True

    def _rewards(self, world: State) -> list[float]:
        """Each seat's reward in [0, 1]: `returns` once over, else its lead squashed (less
        its lead at the root, with `centre`, so the squash is steepest where the game is)."""
        engine = self.engine
        if self.seats == 1 or engine.is_over(world) or not self.style.centre:
            return heuristics.rewards(engine, world)
        leads = heuristics.relative(heuristics.potentials(engine, world))
        return [
            _squash((lead - centre) / self.size)
            for lead, centre in zip(leads, self.centre, strict=True)
        ]

    def _pick(self, world: State, prompt: Any) -> Option:
        """A rollout's action: uniform, or the best-valued of a few options for the mover."""
        options: list[Option] = prompt["options"]
        style = self.style
        if (
            style.policy == "random"
            or len(options) == 1
            or rng.below(self.rng, 1000) < int(style.epsilon * 1000)
        ):
            return rng.choice(self.rng, options)
        engine, seat = self.engine, prompt["seat"]
        sample = list(options)
        if len(sample) > style.policy_sample:
            rng.shuffle(self.rng, sample)
            sample = sample[: style.policy_sample]
        best: Option = sample[0]
        best_value = -math.inf
        for option in sample:
            trial = clone(world)
            engine.apply_trusted(trial, seat, option["action"])
            value = heuristics.value(engine, trial, seat)
            if value > best_value:
                best, best_value = option, value
        return best

    def settled(self, remaining: int) -> bool:
        """Whether the most visited root option leads by more visits than iterations remain:
        then no further iteration can change the decision, and the search stops early."""
        first = second = 0
        for child in self.root.children.values():
            if child.visits > first:
                first, second = child.visits, first
            elif child.visits > second:
                second = child.visits
        return first - second > remaining

    def best(self) -> Child:
        """The most visited root option; ties by mean reward, then by the order tried."""
        seat = self.seat
        return max(
            self.root.children.values(),
            key=lambda c: (c.visits, c.totals[seat] / max(c.visits, 1), -c.order),
        )


def _decide(
    engine: Engine,
    state: State,
    seat: int,
    options: list[Option],
    seed: int,
    budget: Budget,
    style: Style,
) -> Option:
    world = engine.determinize(state, seat, mix(seed, 5))
    pairs = safe(engine, world, seat, options)
    allowed = [option for option, _after in pairs]
    if len(allowed) == 1:
        return allowed[0]
    iterations = budget.iterations
    if iterations is None and budget.ms is None:
        iterations = DEFAULT_ITERATIONS
    deadline = None if budget.ms is None else default_timer() + budget.ms / 1000.0
    search = Search(engine, clone(state), seat, seed, style)
    search.centre_on(world)
    if len(pairs) <= greedy.SAMPLE and style.prior_visits > 0:
        priors = greedy.values(engine, world, seat, pairs, seed)
        search.seed_root(allowed, priors)
    index = 0
    started = default_timer()
    while iterations is None or index < iterations:
        search.iterate(index, allowed)
        index += 1
        if iterations is not None and search.settled(iterations - index):
            break
        if deadline is not None:
            now = default_timer()
            if now >= deadline:
                break
            # as many iterations again as the time left would give, at the pace so far
            if search.settled(int(index * (deadline - now) / max(now - started, 1e-9))):
                break
    chosen = search.best().action
    key = action_key(chosen)
    return next(o for o in options if action_key(o["action"]) == key)


def choose_normal(
    engine: Engine, state: State, seat: int, options: list[Option], seed: int, budget: Budget
) -> Option:
    """The normal search bot (about a second a decision)."""
    return _decide(engine, state, seat, options, seed, budget, style_for(engine, 2))


def choose_strong(
    engine: Engine, state: State, seat: int, options: list[Option], seed: int, budget: Budget
) -> Option:
    """The strong search bot (about three seconds a decision, longer rollouts)."""
    return _decide(engine, state, seat, options, seed, budget, style_for(engine, 3))


BOTS = [Bot(NORMAL, choose_normal), Bot(STRONG, choose_strong)]
