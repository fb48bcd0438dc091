"""The boards of the families that are one module each (Kolbasa, Domino Poker, the trick
game): what a view shows of the table. They are kept apart from the rounds, whose modules
mypyc compiles (:mod:`bazar.hotpath`): a board is made for a view, not in the hot path, and a
slotted frozen dataclass is a plain Python class."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bazar.core.board import Board, Laid
from bazar.core.tiles import Tile

__all__ = ["KolbasaBoard", "PokerBoard", "TrickBoard"]


@dataclass(frozen=True, slots=True)
class KolbasaBoard(Board):
    """The sausage from its (dead) start to its open end ``R``, each tile ``back|front``
    (``first`` toward the start); joint ``j`` lies between tiles ``j - 1`` and ``j``."""

    kind: ClassVar[str] = "kolbasa"

    sausage: tuple[Laid, ...] = ()

    def tiles(self) -> tuple[Tile, ...]:
        return tuple(laid.tile for laid in self.sausage)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "sausage": [str(laid) for laid in self.sausage]}

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> KolbasaBoard:
        return cls(tuple(Laid.parse(text) for text in data["sausage"]))


@dataclass(frozen=True, slots=True)
class PokerBoard(Board):
    """Poker lays no tile on the table: the pot and the stakes are the view's ``extra``."""

    kind: ClassVar[str] = "poker"

    def tiles(self) -> tuple[Tile, ...]:
        return ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> PokerBoard:
        return cls()


@dataclass(frozen=True, slots=True)
class TrickBoard(Board):
    """The trick on the table: each tile with the seat that played it, in the order played
    (the tricks taken are the view's ``extra["tricks"]``)."""

    kind: ClassVar[str] = "trick"

    trick: tuple[tuple[int, Tile], ...] = ()

    def tiles(self) -> tuple[Tile, ...]:
        return tuple(tile for _, tile in self.trick)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "trick": [[seat, str(tile)] for seat, tile in self.trick]}

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> TrickBoard:
        return cls(tuple((seat, Tile.parse(text)) for seat, text in data["trick"]))
