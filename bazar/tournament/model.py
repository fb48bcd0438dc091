"""The values a tournament is made of: its entries, its pairings (one table of one round) and
the standings computed from them, and the error it raises.

>>> p = Pairing(round=1, board=1, entries=(0, 1))
>>> p.done, Pairing(round=1, board=2, entries=(2,), bye=True, points=(1.0,)).done
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bazar.core.errors import BazarError

__all__ = ["Entry", "Pairing", "Standing", "TournamentError"]


class TournamentError(BazarError):
    """A tournament that cannot be made, joined, paired or reported as asked; ``code`` says
    which (``closed``, ``round_unfinished``, ``over``, ``bad_file`` ...)."""

    __module__ = "bazar.tournament"


@dataclass
class Entry:
    """One player, one bot or one 2x2 team in a tournament.

    ``id`` is the entry's number in the order the entries joined, never reused; ``members``
    are a team's two players (empty for one player); ``rating`` seeds the knock-out and the
    first Swiss round; ``bot`` is the bot that plays the entry, if one does; ``data`` is the
    club's own JSON, kept as it is.
    """

    id: int
    name: str
    members: tuple[str, ...] = ()
    rating: float = 0.0
    bot: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    withdrawn: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "members": list(self.members),
            "rating": self.rating,
            "bot": self.bot,
            "data": self.data,
            "withdrawn": self.withdrawn,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        return cls(
            id=int(data["id"]),
            name=str(data["name"]),
            members=tuple(str(m) for m in data.get("members", ())),
            rating=float(data.get("rating", 0.0)),
            bot=None if data.get("bot") is None else str(data["bot"]),
            data=dict(data.get("data") or {}),
            withdrawn=bool(data.get("withdrawn", False)),
        )


@dataclass
class Pairing:
    """One table of one round (in an arena, one game).

    ``entries`` are the entry ids in side order: side *i* plays seat *i* (a team entry plays
    both seats of its side). A knock-out table short of entries has fewer ids than the game
    has sides: bots (:data:`~bazar.tournament.FILLER_BOT`) play the sides after them. A
    ``bye`` has one entry and no game. Once reported, ``places`` holds each side's place
    (1 = best, equal sides share), ``points`` the tournament points each entry got, and
    ``forfeit`` the entries that lost by not showing up.
    """

    round: int
    board: int
    entries: tuple[int, ...]
    bye: bool = False
    places: tuple[int, ...] | None = None
    points: tuple[float, ...] | None = None
    forfeit: tuple[int, ...] = ()
    table: str | None = None
    record: str | None = None
    started: float | None = None
    finished: float | None = None

    @property
    def done(self) -> bool:
        """Whether the pairing has its result (a bye has it from the start)."""
        return self.bye or self.places is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "board": self.board,
            "entries": list(self.entries),
            "bye": self.bye,
            "places": None if self.places is None else list(self.places),
            "points": None if self.points is None else list(self.points),
            "forfeit": list(self.forfeit),
            "table": self.table,
            "record": self.record,
            "started": self.started,
            "finished": self.finished,
        }


@dataclass(frozen=True)
class Standing:
    """One line of the standings: the entry's rank (equal points and tie-breaks share one),
    its points, the games it played (byes not counted), its wins (first places; a shared
    first counts its fraction), its tie-breaks by name, and in a knock-out the round it went
    out in (None while it is still in, or won)."""

    rank: int
    entry: Entry
    points: float
    played: int
    wins: float
    tiebreaks: dict[str, float]
    out: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The line as the club's pages and ``bazar tournament --json`` show it: the entry
        by its number and its name."""
        return {
            "rank": self.rank,
            "entry": self.entry.id,
            "name": self.entry.name,
            "points": self.points,
            "played": self.played,
            "wins": self.wins,
            "tiebreaks": dict(self.tiebreaks),
            "out": self.out,
        }
