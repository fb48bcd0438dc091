"""The cross games' board: the line ``L`` to ``R`` through the spinner, which lies across
it, and the spinner's arms ``U`` and ``D``; a double laid with ``close`` lies face down.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("domino-five"), hands=[["5-5", "3-5", "6-1"], ["5-0", "0-2"]],
...                   bazar=[], leader=0)
>>> for move in ["5-5", "5-0:L", "3-5:R", "0-2:L"]:
...     rnd.push(move)
>>> rnd.board.line, rnd.board.spinner
((Laid('2|0'), Laid('0|5'), Laid('5|5'), Laid('5|3')), 5)
>>> rnd.board.to_json()["line"]
['2|0', '0|5', '5|5', '5|3']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bazar.core.board import Board, Laid
from bazar.core.tiles import Tile

__all__ = ["CrossBoard"]


@dataclass(frozen=True, slots=True)
class CrossBoard(Board):
    """The line ``L`` to ``R`` (``first`` faces ``L``), the spinner's value (None before
    one is laid) and its arms from the spinner outward (``first`` toward it)."""

    kind: ClassVar[str] = "cross"

    line: tuple[Laid, ...] = ()
    spinner: int | None = None
    up: tuple[Laid, ...] = ()
    down: tuple[Laid, ...] = ()
    #: the doubles laid with ``close``, face down
    closed: frozenset[Tile] = frozenset()

    def tiles(self) -> tuple[Tile, ...]:
        return tuple(laid.tile for laid in (*self.line, *self.up, *self.down))

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "line": [str(laid) for laid in self.line],
            "spinner": self.spinner,
            "U": [str(laid) for laid in self.up],
            "D": [str(laid) for laid in self.down],
            "closed": [str(tile) for tile in sorted(self.closed)],
        }

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> CrossBoard:
        return cls(
            line=tuple(Laid.parse(text) for text in data["line"]),
            spinner=data["spinner"],
            up=tuple(Laid.parse(text) for text in data["U"]),
            down=tuple(Laid.parse(text) for text in data["D"]),
            closed=frozenset(Tile.parse(text) for text in data["closed"]),
        )
