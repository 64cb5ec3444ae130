"""The bot package: the registry, the interface's promises, and that no bot goes in circles."""

from __future__ import annotations

import pytest

import rules.bots as bots
from rules.bots import search
from rules.bots.base import Budget
from rules.bots.guard import safe
from rules.core.canonical import canonical_json, clone, state_hash
from rules.core.playout import LoopWatch
from rules.core.registry import get_engine
from tests.rules.bots.helpers import advance, deciding, position, scenario_seats

SMALL = Budget(iterations=12)


def test_the_registry_offers_the_four_kinds_weakest_first() -> None:
    assert [k.slug for k in bots.BOTS] == ["random", "greedy", "search", "search-strong"]
    assert [k.strength for k in bots.BOTS] == sorted(k.strength for k in bots.BOTS)
    assert bots.get_bot("search").level == "normal"
    with pytest.raises(KeyError, match="no bot called 'nobody'"):
        bots.get_bot("nobody")


def test_a_seat_with_nothing_to_decide_is_refused() -> None:
    engine = get_engine("hre")
    state = position(engine, "base", 2, 5)
    idle = 1 - deciding(engine, state)
    if engine.prompt_for(state, idle) is None:
        with pytest.raises(ValueError, match="nothing to decide"):
            bots.choose("greedy", engine, state, idle, 1)


@pytest.mark.parametrize(("engine", "scenario", "players"), scenario_seats()[::3])
@pytest.mark.parametrize("slug", ["random", "greedy", "search"])
def test_bots_choose_only_offered_options_and_change_nothing(
    engine: object, scenario: dict[str, object], players: int, slug: str
) -> None:
    from rules.core.engine import Engine

    assert isinstance(engine, Engine)
    for steps in (3, 40):
        state = position(engine, str(scenario["slug"]), players, steps, seed=steps)
        if engine.is_over(state):
            continue
        seat = deciding(engine, state)
        before = canonical_json(state)
        action = bots.choose(slug, engine, state, seat, 7, SMALL)
        assert canonical_json(state) == before
        offered = [canonical_json(o["action"]) for o in engine.prompt_for(state, seat)["options"]]
        assert canonical_json(action) in offered
        assert bots.choose(slug, engine, state, seat, 7, SMALL) == action


@pytest.mark.parametrize(
    ("game", "slug", "players", "steps"),
    [("hre", "base", 3, 60), ("ema", "27-charlemagne", 2, 150), ("feudal", "duel", 2, 80)],
)
@pytest.mark.parametrize("bot", ["greedy", "search"])
def test_a_decision_ignores_hidden_things_re_dealt(
    game: str, slug: str, players: int, steps: int, bot: str
) -> None:
    """Same seed, same view: the same choice whatever the hidden cards really are."""
    engine = get_engine(game)
    state = position(engine, slug, players, steps)
    seat = deciding(engine, state)
    chosen = bots.choose(bot, engine, state, seat, 11, SMALL)
    for deal in (1, 2):
        other = engine.determinize(state, seat, deal)
        assert engine.view(other, seat) == engine.view(state, seat)
        assert bots.choose(bot, engine, other, seat, 11, SMALL) == chosen


def test_search_with_an_iteration_budget_is_deterministic_and_seeded() -> None:
    engine = get_engine("hre")
    state = position(engine, "base", 2, 30)
    seat = deciding(engine, state)
    first = bots.choose("search", engine, state, seat, 3, Budget(iterations=40))
    assert bots.choose("search", engine, state, seat, 3, Budget(iterations=40)) == first


@pytest.mark.parametrize(
    ("game", "slug", "steps"),
    [("hre", "base", 30), ("feudal", "duel", 12), ("ema", "27-charlemagne", 20)],
)
def test_search_stopping_early_when_settled_decides_as_the_whole_budget(
    game: str, slug: str, steps: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search stops once the leading option leads by more visits than iterations remain;
    the decision is the one the whole budget gives."""
    engine = get_engine(game)
    state = position(engine, slug, 2, steps)
    seat = deciding(engine, state)
    budget = Budget(iterations=60)
    early = bots.choose("search", engine, state, seat, 5, budget)
    monkeypatch.setattr(search.Search, "settled", lambda self, remaining: False)
    assert bots.choose("search", engine, state, seat, 5, budget) == early


def test_the_guard_leaves_out_a_cancel_that_only_goes_back() -> None:
    """EMA: after choosing Conquest, Cancel returns to the very position before; the guard
    keeps the bot going forward (the measured greedy loop: Conquest, Cancel, forever)."""
    engine = get_engine("ema")
    state = position(engine, "27-charlemagne", 2, 0, seed=3)
    for _ in range(400):
        prompt = engine.prompts(state)[0]
        if prompt["kind"] == "declare" and any("cancel" in o["action"] for o in prompt["options"]):
            break
        action = bots.choose("greedy", engine, state, prompt["seat"], 1)
        engine.apply_trusted(state, prompt["seat"], action)
    else:
        pytest.fail("no Endeavor declaration with a Cancel within 400 actions")
    seat = prompt["seat"]
    kept = [o["action"] for o, _after in safe(engine, state, seat, prompt["options"])]
    assert {"cancel": True} not in kept
    assert len(kept) == len(prompt["options"]) - 1


@pytest.mark.parametrize(
    ("game", "slug", "players"),
    [("ema", "27-charlemagne", 2), ("ema", "28-millenium", 3), ("hre", "base", 2)],
)
def test_greedy_never_comes_back_to_a_position_within_a_turn(
    game: str, slug: str, players: int
) -> None:
    engine = get_engine(game)
    state = position(engine, slug, players, 0, seed=3)
    turn, seen = None, set()
    for index in range(300):
        if engine.is_over(state):
            break
        seat = deciding(engine, state)
        engine.apply_trusted(state, seat, bots.choose("greedy", engine, state, seat, index))
        if engine.active_seat(state) != turn:
            turn, seen = engine.active_seat(state), set()
        digest = state_hash(state)
        assert digest not in seen, f"position repeated at action {index}"
        seen.add(digest)


def test_the_loop_watch_reports_a_position_recurring_within_a_turn() -> None:
    engine = get_engine("hre")
    state = position(engine, "base", 2, 10)
    watch = LoopWatch(limit=2)
    assert watch.see(engine, state, "a") is None
    assert watch.see(engine, state, "a") is None
    message = watch.see(engine, state, "a")
    assert message is not None and "3 times" in message
    moved = advance(engine, clone(state), 1, 1)
    if engine.active_seat(moved) != engine.active_seat(state):
        assert watch.see(engine, moved, "a") is None  # a new turn starts afresh


def test_an_ema_rollout_finishes_the_open_chain_and_stops_where_it_closes() -> None:
    """EMA's search style (search.GAME_STYLES): a rollout plays on only while a chain the tree
    opened is open (at most `finish` actions) and scores there; HRE keeps its 12-action rollouts."""
    engine = get_engine("ema")
    style = search.style_for(engine, 2)
    assert (style.rollout, style.finish) == (0, 30)
    assert search.style_for(get_engine("hre"), 2) == search.STYLES[2]
    config = next(s for s in engine.scenarios() if s["slug"] == "27-charlemagne")["config"]
    state = engine.setup(3, config, 2)
    prompt = engine.prompts(state)[0]
    depth = len(state["stack"])
    played = 0
    for option in prompt["options"]:
        world = clone(state)
        engine.apply_trusted(world, prompt["seat"], option["action"])
        if len(world["stack"]) <= depth:
            continue
        bot = search.Search(engine, state, prompt["seat"], 1, style)
        steps = []
        original = bot._step
        bot._step = lambda w, steps=steps, original=original: steps.append(1) or original(w)  # type: ignore[method-assign]
        rewards = bot._rollout(world)
        played += 1
        assert len(rewards) == 2 and all(0.0 <= r <= 1.0 for r in rewards)
        closed = len(world["stack"]) <= depth or engine.is_over(world)
        assert closed or len(steps) == style.finish
        if closed:  # the step that closed the chain was the last one played
            assert steps, "the option opened a chain, so at least one step closes it"
    assert played > 0


def test_feudal_bots_announce_no_attack_after_two_called_off() -> None:
    """FL-COMBAT-SEND-06 and A-24's default reading: an attack with nobody sent is called off and
    the seat may attack again, so the bots restrain themselves (heuristics.feudal.restrain). The
    measured hang: the normal search bot went attack, "Send nobody", attack... for thousands of
    actions in a duel against random (seed 23), each Lone die roll making a new position."""
    from tests.rules.feudal.helpers import PETER, RICHARD, act, action_phase, blank, duel, field

    engine = get_engine("feudal")
    state = blank(duel(), ld=3)
    field(state, PETER, "brass")
    state = action_phase(state, PETER)
    attack = {"do": "attack", "target": RICHARD}
    for called_off in range(2):
        options = engine.prompt_for(state, PETER)["options"]
        kept = [o["action"] for o, _after in safe(engine, state, PETER, options)]
        assert attack in kept, f"attack withheld after {called_off} called off"
        state, _ = act(state, attack)
        state, _ = act(state, {"do": "done"})  # "Send nobody": the attack is called off
    options = engine.prompt_for(state, PETER)["options"]
    assert attack in [o["action"] for o in options]  # the rules still allow it
    kept = [o["action"] for o, _after in safe(engine, state, PETER, options)]
    assert attack not in kept and kept
    for kind in ("random", "greedy", "search"):
        chosen = bots.choose(kind, engine, state, PETER, 7, Budget(iterations=40))
        assert chosen != attack, kind


def test_the_loop_watch_reports_a_turn_that_never_passes() -> None:
    """A cycle through new positions (a counter or a die roll on each round) is still a loop."""
    engine = get_engine("hre")
    state = position(engine, "base", 2, 10)
    watch = LoopWatch(turn_limit=5)
    for index in range(5):
        assert watch.see(engine, state, f"position {index}") is None
    message = watch.see(engine, state, "position 5")
    assert message is not None and "6 actions" in message
