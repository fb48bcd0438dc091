"""How a round ended: :class:`Outcome`, everything a ledger's settlement reads.

>>> import bazar
>>> out = bazar.Outcome("out", out_seat=0, remaining=[[], ["6-5"]], leader=1, lead="3-3")
>>> out.points, str(out.lead), [str(t) for t in out.remaining[1]]
((0, 0), '3-3', ['6-5'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .tiles import Tile, TileLike

__all__ = ["Outcome"]


@dataclass(frozen=True)
class Outcome:
    """How a round ended; everything :meth:`Ledger.settle` reads.

    ``remaining`` and ``points`` are per seat; ``scoring`` is the ordered ``(seat, points)``
    events during play and ``points`` their per-seat sum. ``last_turn`` holds the tiles of
    the turn that laid the round's last tile (:func:`final_turn`).
    """

    reason: str
    out_seat: int | None = None
    remaining: tuple[tuple[Tile, ...] | None, ...] = ()
    points: tuple[int, ...] = ()
    fisher: int | None = None
    leader: int | None = None
    lead: Tile | None = None
    last_turn: tuple[Tile, ...] = ()
    scoring: tuple[tuple[int, int], ...] = ()
    extra: dict[str, Any] | None = field(default=None, compare=False)

    def __init__(
        self,
        reason: str,
        out_seat: int | None = None,
        remaining: Sequence[Sequence[TileLike] | None] = (),
        points: Sequence[int] = (),
        fisher: int | None = None,
        leader: int | None = None,
        lead: TileLike | None = None,
        last_turn: Sequence[TileLike] = (),
        scoring: Sequence[tuple[int, int]] = (),
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        hands = tuple(None if h is None else tuple(Tile.parse(t) for t in h) for h in remaining)
        setter = object.__setattr__
        setter(self, "reason", reason)
        setter(self, "out_seat", out_seat)
        setter(self, "remaining", hands)
        setter(self, "points", tuple(points) if points else (0,) * len(hands))
        setter(self, "fisher", fisher)
        setter(self, "leader", leader)
        setter(self, "lead", None if lead is None else Tile.parse(lead))
        setter(self, "last_turn", tuple(Tile.parse(t) for t in last_turn))
        setter(self, "scoring", tuple((int(s), int(p)) for s, p in scoring))
        setter(self, "extra", None if extra is None else dict(extra))

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "out_seat": self.out_seat,
            "remaining": [None if h is None else [str(t) for t in h] for h in self.remaining],
            "points": list(self.points),
            "fisher": self.fisher,
            "leader": self.leader,
            "lead": None if self.lead is None else str(self.lead),
            "last_turn": [str(t) for t in self.last_turn],
            "scoring": [list(e) for e in self.scoring],
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            data["reason"],
            data.get("out_seat"),
            data.get("remaining", ()),
            data.get("points", ()),
            data.get("fisher"),
            data.get("leader"),
            data.get("lead"),
            data.get("last_turn", ()),
            [tuple(e) for e in data.get("scoring", ())],
            data.get("extra"),
        )
