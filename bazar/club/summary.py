"""What the club keeps of a stored match beside its record: made once, when the match is
stored (its end at a table, an upload), so that listing or showing it never replays it.

>>> import bazar
>>> m = bazar.Match(bazar.rules("block"), seed=3)
>>> while not m.is_over():
...     m.push(m.legal_moves()[0])
>>> kept = summary(m)
>>> kept["rounds"] == len(kept["results"]) == len(kept["deals"])
True
>>> kept["results"][-1]["scores"]["scores"] == kept["scores"]["scores"]
True
"""

from __future__ import annotations

from typing import Any

from bazar.core.match import Match

from .fairness import deals

__all__ = ["LISTED", "results", "summary"]

#: the parts of a summary shown with the record itself, not in every list of records
LISTED = frozenset({"scores", "winners", "losers", "rounds", "ending", "guests", "bots"})


def summary(match: Match) -> dict[str, Any]:
    """The totals, who won and lost, each round's :func:`results` and its :func:`deals`."""
    result = match.result()
    return {
        "scores": match.ledger.public(),
        "winners": [] if result is None else list(result.winners),
        "losers": [] if result is None else list(result.losers),
        "rounds": len(match.rounds),
        "results": results(match),
        "deals": deals(match),
    }


def results(match: Match) -> list[dict[str, Any]]:
    """Each round as the replay lists it: the seat of each of its moves (the record has the
    moves), how it ended (``reason``: "out", "fish", ...; ``out``: the seat that went out)
    and the scores after it; a round not played out has None for all three."""
    out = []
    for i, rnd in enumerate(match.rounds):
        outcome = rnd.outcome()
        after = match.rounds[i + 1].ledger if i + 1 < len(match.rounds) else match.ledger
        out.append(
            {
                "number": rnd.number,
                "seats": [seat for seat, _, _ in rnd.history()],
                "reason": None if outcome is None else outcome.reason,
                "out": None if outcome is None else outcome.out_seat,
                "scores": None if outcome is None else after.public(),
            }
        )
    return out
