"""What one seat may know: the only thing bots, clients and agents ever receive.

A :class:`View` is frozen and self-contained: it holds no reference to the round, no tile
of another seat's hand and not the order of the bazar (``common.md`` §9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from .board import Board
from .errors import invalid
from .moves import Move
from .outcome import Outcome
from .rules import Rules
from .rules import rules as make_rules
from .score_state import PublicScores
from .tiles import Tile

if TYPE_CHECKING:
    from .round import Round

__all__ = ["View"]

HistoryEntry = tuple[int, Move, Tile | None]


@dataclass(frozen=True)
class View:
    """One seat's information set (``seat`` None: a spectator's)."""

    seat: int | None
    rules: Rules
    turn: int | None
    hand: tuple[Tile, ...] | None
    hand_sizes: tuple[int, ...]
    bazar_size: int
    drawable: int
    ends: dict[str, int]
    #: the tiles on the table as the layout places them, one Board class per family
    board: Board
    history: tuple[HistoryEntry, ...]
    legal: tuple[Move, ...]
    #: the match's scores as every seat sees them (``Ledger.public``; empty: no ledger)
    scores: PublicScores = field(default_factory=lambda: PublicScores())
    outcome: Outcome | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, rnd: Round, seat: int | None, scores: PublicScores | None = None) -> View:
        """The view of ``rnd`` from ``seat``."""
        if seat is not None and not 0 <= seat < rnd.players:
            raise invalid("seat", seat=seat, last=rnd.players - 1)
        history = tuple(
            (s, move, tile if s == seat and seat is not None else None)
            for s, move, tile in rnd.history()
        )
        turn = rnd.turn
        return cls(
            seat=seat,
            rules=rnd.rules,
            turn=turn,
            hand=None if seat is None else rnd.seen_hand(seat),
            hand_sizes=rnd.hand_sizes(),
            bazar_size=rnd.bazar_size,
            drawable=rnd.drawable,
            ends=rnd.ends(),
            board=rnd.board,
            history=history,
            legal=tuple(rnd.legal_moves()) if seat is not None and seat == turn else (),
            scores=rnd.ledger.public() if scores is None else scores,
            outcome=rnd.outcome(),
            extra=rnd.public_extra(seat),
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict; :meth:`from_json` reverses it."""
        return {
            "seat": self.seat,
            "rules": {
                "name": self.rules.name,
                "family": self.rules.variant.family,
                "loser": self.rules.variant.traits.loser,
                "options": self.rules.options(),
                "capabilities": self.rules.capabilities().to_json(),
            },
            "turn": self.turn,
            "hand": None if self.hand is None else [str(t) for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "bazar_size": self.bazar_size,
            "drawable": self.drawable,
            "ends": dict(self.ends),
            "board": self.board.to_json(),
            "history": [[s, str(m), None if t is None else str(t)] for s, m, t in self.history],
            "legal": [str(m) for m in self.legal],
            "scores": self.scores,
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> View:
        options = dict(data["rules"]["options"])
        players = options.pop("players", None)
        return cls(
            seat=data["seat"],
            rules=make_rules(data["rules"]["name"], players=players, **options),
            turn=data["turn"],
            hand=None if data["hand"] is None else tuple(Tile.parse(t) for t in data["hand"]),
            hand_sizes=tuple(data["hand_sizes"]),
            bazar_size=data["bazar_size"],
            drawable=data["drawable"],
            ends=dict(data["ends"]),
            board=Board.from_json(data["board"]),
            history=tuple(
                (s, Move.parse(m), None if t is None else Tile.parse(t))
                for s, m, t in data["history"]
            ),
            legal=tuple(Move.parse(m) for m in data["legal"]),
            scores=cast(PublicScores, data.get("scores", {})),
            outcome=None if data.get("outcome") is None else Outcome.from_json(data["outcome"]),
            extra=data.get("extra", {}),
        )
