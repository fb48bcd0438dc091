"""The coach: every move of a record graded by what its player knew, as Lichess grades a chess
game (:func:`analyse`).

>>> import bazar
>>> from bazar import analysis
>>> match = bazar.Match(bazar.rules("block"), seed=5)
>>> while not match.is_over():
...     match.push(match.legal_moves()[0])
>>> report = analysis.analyse(match, seat=0, deals=8)
>>> {m.grade for m in report.moves} <= set(analysis.GRADES)
True
"""

from .advice import Advice, advise
from .analyse import Analysis, GradedMove, Plan, Spot, analyse, grade, plan, spots, value
from .equity import MatchEquity, equity_of
from .grades import GRADES, SYMBOLS, Thresholds, accuracy, mean_accuracy
from .values import DEALS, MoveValue, Position, evaluate_view

__all__ = [
    "DEALS",
    "GRADES",
    "SYMBOLS",
    "Advice",
    "Analysis",
    "GradedMove",
    "MatchEquity",
    "MoveValue",
    "Plan",
    "Position",
    "Spot",
    "Thresholds",
    "accuracy",
    "advise",
    "analyse",
    "equity_of",
    "evaluate_view",
    "grade",
    "mean_accuracy",
    "plan",
    "spots",
    "value",
]
