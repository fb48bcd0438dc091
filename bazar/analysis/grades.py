"""Grades and accuracy, as Lichess gives them to a chess game.

A move's **loss** is how much of the side's winning chances it gave up against the best move
of its position, on Lichess's scale of winning chances from -1 (lost) to +1 (won): twice the
difference of the 0..1 chances. Lichess (``Advice.scala``) calls a loss of 0.1 an inaccuracy,
0.2 a mistake and 0.3 a blunder; :class:`Thresholds` holds them, and they are settings.

A move's **accuracy** is Lichess's published formula on the loss of win percentage (0..100):
``103.1668 * exp(-0.04354 * loss) - 3.1669``, held to 0..100: 100 for the best move, about 80
for a loss of five percentage points, about 40 for twenty. A player's accuracy over a round or
a match is the mean of the arithmetic and the harmonic mean of his graded moves' accuracies
(forced moves do not count): the harmonic mean lets one blunder weigh as it does in a
player's memory, the arithmetic mean keeps one bad move from erasing the rest. Lichess also
weighs each move by how volatile the game was around it; a round of dominoes gives a player
five to ten choices, too few to measure volatility on, so no weights here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["GRADES", "SYMBOLS", "Thresholds", "accuracy", "mean_accuracy"]

#: the grades, best first: "good" (no mark: the best move or near it), the three marks, and
#: "forced" for a move that was the only legal one
GRADES = ("good", "inaccuracy", "mistake", "blunder", "forced")
#: the marks on a move list
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@dataclass(frozen=True)
class Thresholds:
    """The losses of winning chances (on -1..1) from which a move is an inaccuracy, a
    mistake, a blunder (Lichess's own)."""

    inaccuracy: float = 0.1
    mistake: float = 0.2
    blunder: float = 0.3

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder <= 2:
            raise ValueError("the thresholds must rise: 0 < inaccuracy <= mistake <= blunder <= 2")

    def grade(self, loss: float) -> str:
        """The grade of a move that gave up ``loss`` of the winning chances."""
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return "good"


def accuracy(loss: float) -> float:
    """A move's accuracy (0..100) from its ``loss`` of winning chances on -1..1 (Lichess's
    formula on the loss in win percent, which is 50 times it).

    >>> round(accuracy(0.0), 1), round(accuracy(0.1), 1), round(accuracy(0.4), 1)
    (100.0, 79.8, 40.0)
    """
    percent = 50.0 * max(0.0, loss)
    value = 103.1668100711649 * math.exp(-0.04354415386753951 * percent) - 3.166924740191411
    return min(100.0, max(0.0, value))


def mean_accuracy(values: Iterable[float]) -> float | None:
    """A player's accuracy over moves of these accuracies: the mean of their arithmetic and
    harmonic means (each held to at least 1 for the latter); None for no moves.

    >>> mean_accuracy([100.0, 100.0]), round(mean_accuracy([100.0, 20.0]), 1)
    (100.0, 46.7)
    """
    items = list(values)
    if not items:
        return None
    arithmetic = sum(items) / len(items)
    harmonic = len(items) / sum(1.0 / max(1.0, v) for v in items)
    return (arithmetic + harmonic) / 2
