"""The engine contract every game meets (ARCHITECTURE §2)."""

from rules.core.canonical import canonical_json, clone, state_hash
from rules.core.engine import Engine, Event, Option, Prompt, Result, SeatResult, Step
from rules.core.errors import IllegalAction, InvariantError, RulesVersionError, ScenarioError
from rules.core.registry import all_engines, get_engine, register

__all__ = [
    "Engine",
    "Event",
    "IllegalAction",
    "InvariantError",
    "Option",
    "Prompt",
    "Result",
    "RulesVersionError",
    "ScenarioError",
    "SeatResult",
    "Step",
    "all_engines",
    "canonical_json",
    "clone",
    "get_engine",
    "register",
    "state_hash",
]
