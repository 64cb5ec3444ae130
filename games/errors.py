"""The refusal every layer raises for a request that changes nothing (a leaf module)."""

from __future__ import annotations


class MoveRefused(Exception):
    """A submission that changes nothing; the message is for the player."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
