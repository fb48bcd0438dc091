"""The boards of the engine games: the engine double in the centre and the rows that run out
from it, each tile's ``first`` half toward the engine. Mexican Train's rows are the trains,
by train id (the seats' ``"0"``, ``"1"``, …, and ``"M"``); Chicken Foot's are the branches,
by branch id (the arms ``"1"``, ``"2"``, … and the toes of a foot ``"3.1"``, ``"3.2"``, …):
the ids the moves name.

>>> import bazar
>>> r = bazar.rules("mexican-train", players=2, set_max=6, hand_size=3)
>>> rnd = bazar.Round(r, hands=[["6-1", "1-1", "5-4"], ["6-2", "3-0", "4-4"]],
...                   bazar=["2-2"], leader=0)
>>> rnd.push("6-1:0"); rnd.push("1-1:0"); rnd.board.trains["0"]
(Laid('6|1'), Laid('1|1'))
>>> rnd.board.to_json()
{'kind': 'trains', 'engine': '6-6', 'trains': {'0': ['6|1', '1|1'], '1': [], 'M': []}}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from bazar.core.board import Board, Laid
from bazar.core.tiles import Tile

__all__ = ["TrainsBoard", "TreeBoard"]


def _rows_json(rows: dict[str, tuple[Laid, ...]]) -> dict[str, list[str]]:
    return {row: [str(laid) for laid in tiles] for row, tiles in rows.items()}


def _rows(data: dict[str, list[str]]) -> dict[str, tuple[Laid, ...]]:
    return {row: tuple(Laid.parse(text) for text in tiles) for row, tiles in data.items()}


@dataclass(frozen=True, slots=True)
class TrainsBoard(Board):
    """The engine and every train from the engine out, by train id, in the order of the
    round's ends (the seats' trains, then ``M``)."""

    kind: ClassVar[str] = "trains"

    engine: Tile
    trains: dict[str, tuple[Laid, ...]] = field(default_factory=dict)

    def tiles(self) -> tuple[Tile, ...]:
        return (self.engine, *(laid.tile for train in self.trains.values() for laid in train))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "engine": str(self.engine), "trains": _rows_json(self.trains)}

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> TrainsBoard:
        return cls(Tile.parse(data["engine"]), _rows(data["trains"]))


@dataclass(frozen=True, slots=True)
class TreeBoard(Board):
    """The engine and every branch of the tree from its start outward, by branch id, in the
    order the branches were started."""

    kind: ClassVar[str] = "tree"

    engine: Tile
    branches: dict[str, tuple[Laid, ...]] = field(default_factory=dict)

    def tiles(self) -> tuple[Tile, ...]:
        return (self.engine, *(laid.tile for branch in self.branches.values() for laid in branch))

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "engine": str(self.engine),
            "branches": _rows_json(self.branches),
        }

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> TreeBoard:
        return cls(Tile.parse(data["engine"]), _rows(data["branches"]))
