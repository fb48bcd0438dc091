"""The errors bazar raises. Every one is a ValueError whose message says what was wrong and
what is allowed."""

from __future__ import annotations

from .rules import UnknownOption, UnknownVariant

__all__ = ["BadRecord", "IllegalMove", "MatchOver", "UnknownOption", "UnknownVariant"]


class IllegalMove(ValueError):
    """A move that is not legal in the position; the position is unchanged."""


class BadRecord(ValueError):
    """A record that is malformed, illegal or tampered with; names the round and move."""


class MatchOver(ValueError):
    """A move pushed into a match that has ended."""
