"""The terminal table of each family: how ``bazar play`` and ``bazar replay`` draw and tell
its game. A family's table lives in the module named after it."""

from __future__ import annotations

from bazar.core.board import Board
from bazar.games.cross.board import CrossBoard
from bazar.games.kolbasa import KolbasaBoard
from bazar.games.line.board import LineBoard
from bazar.games.poker import PokerBoard
from bazar.games.trains.board import TrainsBoard, TreeBoard
from bazar.games.trick import TrickBoard

from .base import GameTable
from .chicken_foot import TreeTable
from .cross import CrossTable
from .kolbasa import KolbasaTable
from .line import LineTable
from .poker import PokerTable
from .trains import TrainTable
from .trick import TrickTable

#: The terminal table of each family, by the class of its board.
GAME_TABLES: dict[type[Board], GameTable] = {
    LineBoard: LineTable(),
    CrossBoard: CrossTable(),
    TrainsBoard: TrainTable(),
    TreeBoard: TreeTable(),
    KolbasaBoard: KolbasaTable(),
    PokerBoard: PokerTable(),
    TrickBoard: TrickTable(),
}


def table_of(board: Board) -> GameTable:
    """The table that draws and tells the game ``board`` lies in."""
    return GAME_TABLES[type(board)]


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
