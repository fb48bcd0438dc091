"""The line games' board: one line of tiles from its left end ``L`` to its right end ``R``.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("block"), hands=[["6-4", "1-1"], ["4-4", "2-0"]], leader=0)
>>> rnd.push("6-4"); rnd.push("4-4:R"); rnd.board
LineBoard(line=(Laid('6|4'), Laid('4|4')))
>>> rnd.board.to_json()
{'kind': 'line', 'line': ['6|4', '4|4']}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bazar.core.board import Board, Laid
from bazar.core.tiles import Tile

__all__ = ["LineBoard"]


@dataclass(frozen=True, slots=True)
class LineBoard(Board):
    """The line ``L`` to ``R``, each tile's ``first`` half facing ``L``."""

    kind: ClassVar[str] = "line"

    line: tuple[Laid, ...] = ()

    def tiles(self) -> tuple[Tile, ...]:
        return tuple(laid.tile for laid in self.line)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "line": [str(laid) for laid in self.line]}

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> LineBoard:
        return cls(tuple(Laid.parse(text) for text in data["line"]))
