"""Every game, one folder or module per family. Importing this package registers them all,
in the order ``bazar.rules.names()`` lists them."""

from __future__ import annotations

from bazar.core.rules import Variant, rules

# the order the families register in is the order their variants are listed in
from . import line, cross, kolbasa, trains, trick, poker, gamecolony  # isort: skip

rules.notation = gamecolony

#: the shelves the club's lobby puts the games on, in the order it shows them
SHELVES = ("line", "kozel", "cross", "trains", "other")


def shelf(game: Variant) -> str:
    """The lobby's shelf of ``game``, as players group them: the yards' games with a loser
    (Kozel, Osyol), the other line games, the cross games that score as they go, the trains
    and Chicken Foot, and the rest (Kolbasa, the trick and the poker games).

    >>> from bazar.core.rules import variant
    >>> [shelf(variant(name)) for name in ("block", "osel", "fives", "chicken-foot", "poker")]
    ['line', 'kozel', 'cross', 'trains', 'other']
    """
    if game.traits.loser is not None:
        return "kozel"
    if game.family in ("line", "cross"):
        return game.family
    return "trains" if game.family in ("trains", "tree") else "other"


__all__ = [
    "SHELVES",
    "cross",
    "gamecolony",
    "kolbasa",
    "line",
    "poker",
    "shelf",
    "trains",
    "trick",
]
