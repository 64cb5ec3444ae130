"""Errors an engine raises; their messages are shown to players and admins."""


class IllegalAction(Exception):
    """An action the rules do not allow now; the state is left exactly as it was."""


class ScenarioError(ValueError):
    """A scenario configuration or option set the engine cannot play."""


class InvariantError(AssertionError):
    """A broken invariant: a bug in the engine, never a player's mistake."""


class RulesVersionError(ValueError):
    """A stored state or game record of a rules version this engine cannot read or replay."""
