"""The errors bazar raises. Every one is a ValueError whose message says what was wrong and
what is allowed. They are shown as ``bazar.IllegalMove`` and so on, the names users import."""

from __future__ import annotations

__all__ = ["BadRecord", "IllegalMove", "MatchOver", "UnknownOption", "UnknownVariant"]


class UnknownVariant(ValueError):
    """No variant has that name; the message names the known ones."""

    __module__ = "bazar"


class UnknownOption(ValueError):
    """The game has no option of that name; the message names the game's options."""

    __module__ = "bazar"


class IllegalMove(ValueError):
    """A move that is not legal in the position; the position is unchanged."""

    __module__ = "bazar"


class BadRecord(ValueError):
    """A record that is malformed, illegal or tampered with; names the round and move."""

    __module__ = "bazar"


class MatchOver(ValueError):
    """A move pushed into a match that has ended."""

    __module__ = "bazar"
