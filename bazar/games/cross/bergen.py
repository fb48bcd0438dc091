"""Bergen («Берген»): a line game scored for matching ends (``bergen.md``).

After every placement the mover scores 2 for a double lead, 2 when both ends show the same
number ("double header"), 3 when one of them is a double ("triple header"). Going out, or
winning a blocked hand, is worth 2 more. The last two bazar tiles are never drawn. First to
15 (two players) or 10 wins.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("bergen"), hands=[["1-1", "4-2", "3-0"], ["1-4", "2-1", "5-5"]],
...                   bazar=[], leader=0)
>>> for move in ["1-1", "1-4:R", "4-2:R", "2-1:R"]:
...     rnd.push(move)
>>> rnd.scoring()                                  # the double lead, then a triple header
[(0, 2), (1, 3)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bazar.core.errors import invalid
from bazar.core.options import HAND
from bazar.core.rules import Option, Traits, Variant, per_players, register
from bazar.core.scoring import hand_value
from bazar.games.cross.round import CrossRound
from bazar.games.line.options import LINE

from .fives import decide
from .options import CROSS_ROUND

if TYPE_CHECKING:
    from bazar.core.ledger import Ledger
    from bazar.core.outcome import Outcome
    from bazar.core.round import Round
    from bazar.core.rules import Rules

    from .round import CrossRound

__all__ = ["block_winner", "score_play", "settle"]

LEAD_DOUBLE_POINTS: Option[int] = Option(
    "lead_double_points", "int", "points for leading a double", 2, low=0
)
DOUBLE_HEADER_POINTS: Option[int] = Option(
    "double_header_points", "int", "points when both ends show the same number", 2, low=0
)
TRIPLE_HEADER_POINTS: Option[int] = Option(
    "triple_header_points", "int", "points when equal ends include a double", 3, low=0
)
OUT_POINTS: Option[int] = Option("out_points", "int", "points for going out", 2, low=0)
BLOCK_POINTS: Option[int] = Option(
    "block_points", "int", "points for winning a blocked hand", 2, low=0
)
NO_OVERSHOOT_HEADERS: Option[bool] = Option(
    "no_overshoot_headers",
    "bool",
    "a player within 2 (3) points of the target scores only 1 (2) for a header (Celko)",
    False,
)


def score_play(rnd: Round) -> int:
    """The points of the tile just placed. Equal ends score a double header, a triple header
    when one end is a double; both ends a double is the lone double lead."""
    assert isinstance(rnd, CrossRound)  # the cross family's hook (Variant.score)
    rules = rnd.rules
    ends = rnd.ends()
    if ends["L"] != ends["R"]:
        return 0
    doubles = rnd.is_double_end("L") + rnd.is_double_end("R")
    if doubles == 2:
        return int(rules[LEAD_DOUBLE_POINTS])
    points = int(rules[TRIPLE_HEADER_POINTS] if doubles else rules[DOUBLE_HEADER_POINTS])
    if rules[NO_OVERSHOOT_HEADERS] and points:
        seat = rnd.history()[-1][0]
        now = rnd.ledger.scores[seat] + sum(p for s, p in rnd.scoring() if s == seat)
        target = rules.target
        assert target is not None  # Bergen is played to a target (its checks)
        short = target - now
        if short <= 2:
            points = min(points, 1)
        elif short <= 3:
            points = min(points, 2)
    return points


def block_winner(rules: Rules, outcome: Outcome) -> int | None:
    """The player awarded a blocked hand (§5): the only one without a double; among several
    such, the one with fewest pips; if all hold a double, the holder of the lowest; a tie
    for fewest pips: nobody.

    >>> import bazar
    >>> r = bazar.rules("bergen", players=3)
    >>> block_winner(r, bazar.Outcome("fish", remaining=[["2-3", "4-5"], ["1-1"], ["0-6", "3-3"]]))
    0
    """
    hands = [tuple(h or ()) for h in outcome.remaining]
    free = [seat for seat, hand in enumerate(hands) if not any(t.is_double for t in hand)]
    if not free:
        lowest = min((t.high, seat) for seat, hand in enumerate(hands) for t in hand if t.is_double)
        return lowest[1]
    pips = [hand_value(rules, hands[seat]) for seat in free]
    fewest = min(pips)
    if pips.count(fewest) > 1:
        return None
    return free[pips.index(fewest)]


def settle(ledger: Ledger, outcome: Outcome) -> Ledger:
    """The headers scored during play, then 2 for going out or for winning a blocked hand."""
    rules = ledger.rules
    scores = list(ledger.scores)
    for seat, points in outcome.scoring:
        scores[seat] += points
    if outcome.reason == "out" and outcome.out_seat is not None:
        scores[outcome.out_seat] += rules[OUT_POINTS]
    elif outcome.reason == "fish":
        winner = block_winner(rules, outcome)
        if winner is not None:
            scores[winner] += rules[BLOCK_POINTS]
    return ledger.replace(scores=scores)


def _check(o: dict[str, Any]) -> None:
    if o["target"] is None:
        raise invalid("needs_target", game="bergen")


register(
    Variant(
        "bergen",
        "Bergen: score for matching ends, 2 for a double header, 3 for a triple, to 15 / 10",
        "bergen.md",
        (2, 4),
        2,
        {
            "players": 2,
            "set_max": 6,
            "hand_size": {2: 6, 3: 6, 4: 5},
            "draw": True,
            "bazar_reserve": 2,
            "first_lead": "low",
            "later_lead": "same_rule",
            "draw_mode": "until_playable",
            "lead_double_points": 2,
            "double_header_points": 2,
            "triple_header_points": 3,
            "out_points": 2,
            "block_points": 2,
            "target": per_players({2: 15, 3: 10, 4: 10}),
            "win_check": "immediate",
            "no_overshoot_headers": False,
        },
        family="cross",
        settle=settle,
        decide=decide,
        score=score_play,
        checks=(_check,),
        aliases=("берген",),
        round=CrossRound,
        options=(
            *LINE,
            *HAND,
            *CROSS_ROUND,
            LEAD_DOUBLE_POINTS,
            DOUBLE_HEADER_POINTS,
            TRIPLE_HEADER_POINTS,
            OUT_POINTS,
            BLOCK_POINTS,
            NO_OVERSHOOT_HEADERS,
        ),
        traits=Traits(ends_branch=True, scored_in_play=True),
        title="Bergen",
    )
)
