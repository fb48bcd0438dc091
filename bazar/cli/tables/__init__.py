"""The terminal table of each family: how ``bazar play`` and ``bazar replay`` draw and tell
its game. A family's table lives in the module named after it."""

from __future__ import annotations

from .base import GameTable
from .chicken_foot import TreeTable
from .cross import CrossTable
from .kolbasa import KolbasaTable
from .line import LineTable
from .poker import PokerTable
from .trains import TrainTable
from .trick import TrickTable

#: The terminal table of each family, by ``Variant.family``.
GAME_TABLES: dict[str, GameTable] = {
    "line": LineTable(),
    "cross": CrossTable(),
    "trains": TrainTable(),
    "tree": TreeTable(),
    "kolbasa": KolbasaTable(),
    "poker": PokerTable(),
    "trick": TrickTable(),
}


def table_of(family: str) -> GameTable:
    """The table of ``family``; a family without one is told as a line game."""
    return GAME_TABLES.get(family, GAME_TABLES["line"])


__all__ = [
    "GAME_TABLES",
    "CrossTable",
    "GameTable",
    "KolbasaTable",
    "LineTable",
    "PokerTable",
    "TrainTable",
    "TreeTable",
    "TrickTable",
    "table_of",
]
