"""Fixtures of the module tests."""

from tests.rules.hre.modules.solo import d20

__all__ = ["d20"]
