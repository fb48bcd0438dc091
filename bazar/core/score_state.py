"""A family's own score state: what a match keeps between rounds beside each side's points.

Most games keep nothing more (:class:`Points`). The Kozel family keeps remembered points,
opened accounts and a fish pot (``bazar.games.line.accounts.KozelScores``). A variant names
its state's class (``Variant.score_state``); the :class:`~bazar.Ledger` holds one and is
generic over it, and each family's settlement reads and writes its own.

Every state has the same public form, the club protocol's ``Scores``
(:class:`PublicScores`): ``remembered``, ``opened`` and ``pot`` are sent for every game
(zeros, closed accounts and no pot where the family keeps none).

>>> import bazar
>>> Points.start(bazar.rules("block")).accounts(2), Points().standing((10, 3))
({'remembered': [0, 0], 'opened': [False, False], 'pot': 0}, (10.0, 3.0))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypedDict

if TYPE_CHECKING:
    from typing import Self

    from .rules import Rules

__all__ = ["Accounts", "Points", "PublicScores", "ScoreState"]


class Accounts(TypedDict):
    """The part of the public scores a score state writes: the Kozel accounts' fields."""

    #: each side's points not yet on its score (Kozel's remembered points)
    remembered: list[int]
    #: whether each side's account is open (Kozel: its awards go on the score)
    opened: list[bool]
    #: the points a tied fish left for a later round (Kozel's eggs)
    pot: int


class PublicScores(TypedDict, total=False):
    """The match's scores as every seat sees them (:meth:`bazar.Ledger.public`, a view's
    ``scores``; the protocol's ``Scores``). A ledger's public form holds every key below, and
    beside them the family's own (Fives' ``in_play``, Kozel's ``title``, Sea Kozel's
    ``record_holder``, ...); a view made without a ledger holds none."""

    #: each side's score (poker: chips)
    scores: list[int]
    remembered: list[int]
    opened: list[bool]
    pot: int
    #: the rounds played
    rounds: int


class ScoreState(Protocol):
    """What a family keeps of a match's score beside the points, immutable.

    A state is made at the start of a match (:meth:`start`) or read back from the public
    form (:meth:`from_public`, what a bot does with a view's scores); it says its part of the
    public form (:meth:`accounts`) and how the match stands for each side (:meth:`standing`).
    """

    @classmethod
    def start(cls, rules: Rules) -> Self:
        """The state before the first round."""
        ...

    @classmethod
    def from_public(cls, rules: Rules, public: PublicScores) -> Self:
        """The state whose public form is ``public`` (its missing entries as at the start)."""
        ...

    def accounts(self, sides: int) -> Accounts:
        """Its part of the public form, for ``sides`` sides."""
        ...

    def standing(self, scores: tuple[int, ...]) -> tuple[float, ...]:
        """Each side's points as the match stands, ``scores`` and what the state holds off
        them at what they are expected to weigh (Kozel's remembered points): what a bot that
        plays for the match counts."""
        ...


@dataclass(frozen=True)
class Points:
    """The state of the games that keep nothing beside each side's points."""

    @classmethod
    def start(cls, rules: Rules) -> Points:
        return _POINTS

    @classmethod
    def from_public(cls, rules: Rules, public: PublicScores) -> Points:
        return _POINTS

    def accounts(self, sides: int) -> Accounts:
        # the protocol sends the Kozel accounts' fields for every game: empty here
        return {"remembered": [0] * sides, "opened": [False] * sides, "pot": 0}

    def standing(self, scores: tuple[int, ...]) -> tuple[float, ...]:
        return tuple(float(s) for s in scores)


_POINTS = Points()
