"""A base game runs on the base rules' own tables (`HreMachine.base`), without the modules' hooks.

Every module adds options to decisions it does not own and wraps steps, all of which offer
nothing and pass straight through where the module is not in play. The base tables leave them
out; these tests play random base games and check, at every position, that the base tables and
the full ones give the same prompts and, after the same answer, the same state and events.
"""

from __future__ import annotations

from rules.core import rng
from rules.core.canonical import clone
from rules.core.machine import Machine
from rules.hre import ENGINE, handlers, modules
from rules.hre.state import Ctx

CONFIG = {"modules": [], "options": {}}


def _full_step(state: dict[str, object], seat: int, action: object) -> list[object]:
    """Answer and advance on the full tables (every module's options and wrappers)."""
    ctx = Ctx(state)
    Machine.answer(handlers.MACHINE, ctx, seat, action)
    Machine.advance(handlers.MACHINE, ctx)
    return list(ctx.events)


def test_base_tables_hold_no_module_hook() -> None:
    """The base tables were kept before any module registered: none of their hooks is there."""
    base = handlers.MACHINE.base
    assert base is not None
    assert modules.REGISTRY, "the modules are registered after the base tables were kept"
    assert len(base.free_actions) <= len(handlers.MACHINE.free_actions)
    for kind, extras in base.extensions.items():
        assert len(extras) <= len(handlers.MACHINE.extensions[kind])
    assert any(base.steps[k] is not handlers.MACHINE.steps[k] for k in ("battle", "pass"))
    assert not any(k.startswith("m0") or k.startswith("m1") for k in base.decisions)


def test_base_tables_prompt_and_play_as_the_full_ones() -> None:
    """Same prompts, and the same state and events after each answer, in random base games."""
    positions = 0
    for players in (2, 3, 4):
        for seed in (1,):
            state = ENGINE.setup(seed, CONFIG, players)
            chooser = {"rng": rng.seed_state(seed)}
            while not state["over"]:
                prompts = ENGINE.prompts(state)
                assert prompts == Machine.prompts(handlers.MACHINE, Ctx(state))
                prompt = rng.choice(chooser, prompts)
                action = rng.choice(chooser, prompt["options"])["action"]
                full = clone(state)
                full_events = _full_step(full, prompt["seat"], action)
                events = ENGINE.apply_trusted(state, prompt["seat"], action)
                assert state == full and events == full_events
                positions += 1
    assert positions > 500
