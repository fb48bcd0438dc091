"""Telephone («Телефон», «Домики»): a draw game on a cross scored in fifths (``telephone.md``).

The first double laid is the "house", open on four sides. Whenever the open ends add up to a
multiple of 5 the mover scores the total divided by 5; the round's winner adds the others'
pips divided by 5 and rounded up. The first to 61 wins.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("telephone", players=2), hands=[["5-5", "6-1"], ["5-0", "2-2"]],
...                   bazar=[], leader=0)
>>> rnd.push("5-5"); rnd.push("5-0:L"); rnd.scoring()      # 10 -> 2, then 10 + 0 -> 2
[(0, 2), (1, 2)]
>>> out = bazar.Outcome("out", out_seat=0, remaining=[[], ["6-5", "2-0"], ["4-3", "1-1"]])
>>> bazar.Ledger.new(bazar.rules("telephone", players=3)).settle(out).scores  # 22 -> 5
(5, 0, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bazar.core.errors import invalid
from bazar.core.options import HAND
from bazar.core.rules import Option, Traits, Variant, register
from bazar.core.scoring import ceil_div, fish_winner, round_to, side_values
from bazar.games.cross.round import CrossRound
from bazar.games.line.options import LINE

from .fives import DIVIDE_IN_PLAY, decide
from .options import CROSS_ROUND
from .round import count_ends

if TYPE_CHECKING:
    from bazar.core.ledger import Ledger
    from bazar.core.outcome import Outcome
    from bazar.core.round import Round
    from bazar.core.rules import Rules

    from .round import CrossRound

__all__ = ["bonus", "score_play", "settle"]

BONUS_ROUNDING: Option[str] = Option(
    "bonus_rounding",
    "enum",
    "the bonus is the others' pips / 5, rounded up or to the nearest (rounded to 5 first)",
    "ceil",
    values=("ceil", "nearest"),
)


def score_play(rnd: Round) -> int:
    """The points of the turn just played: a fifth of the open ends when they make a
    multiple of 5 (the house covered on both sides counts nothing, ``covered_only``)."""
    assert isinstance(rnd, CrossRound)  # the cross family's hook (Variant.score)
    count = count_ends(rnd)
    if count <= 0 or count % 5:
        return 0
    return count // 5 if rnd.rules[DIVIDE_IN_PLAY] else count


def bonus(rules: Rules, outcome: Outcome) -> list[int]:
    """The end-of-round points of each side (§5): the winner's opponents' pips divided by 5,
    rounded up (``bonus_rounding = nearest``: rounded to 5, then divided).

    >>> import bazar
    >>> r = bazar.rules("telephone", players=3)
    >>> bonus(r, bazar.Outcome("fish", fisher=1, remaining=[["3-1"], ["6-4"], ["6-5", "1-0"]]))
    [5, 0, 0]
    """
    points = [0] * rules.sides
    if outcome.reason not in ("out", "fish"):
        return points
    hands = [list(h or ()) for h in outcome.remaining]
    if outcome.out_seat is not None:
        winner = rules.side_of(outcome.out_seat)
        for seat in range(rules.players):
            if rules.side_of(seat) == winner:
                hands[seat] = []  # the out player's partner's tiles count for nobody
        total = sum(side_values(rules, hands))
    else:
        lightest = fish_winner(rules, outcome)
        if lightest is None:
            return points
        winner = lightest
        values = side_values(rules, hands)
        total = sum(values) - values[winner]
        if rules.block_award == "difference":
            total -= values[winner]
    if rules[BONUS_ROUNDING] == "ceil":
        points[winner] = ceil_div(total, 5)
    else:
        points[winner] = round_to(total, 5) // 5
    return points


def settle(ledger: Ledger, outcome: Outcome) -> Ledger:
    """The points scored during play, then the winner's bonus."""
    rules = ledger.rules
    scores = list(ledger.scores)
    for seat, points in outcome.scoring:
        scores[rules.side_of(seat)] += points
    for side, points in enumerate(bonus(rules, outcome)):
        scores[side] += points
    return ledger.replace(scores=scores)


def _check(o: dict[str, Any]) -> None:
    if o["target"] is None:
        raise invalid("needs_target", game="telephone")
    if o["block_award"] == "own_pips":
        raise invalid("telephone_block_award")


register(
    Variant(
        "telephone",
        "Telephone: the first double is the house, multiples of 5 score a fifth, first to 61",
        "telephone.md",
        (2, 4),
        4,
        {
            "players": 4,
            "teams": False,
            "set_max": 6,
            "hand_size": 7,
            "draw": True,
            "bazar_reserve": 0,
            "spinner": True,
            "spinner_count": "covered_only",
            "divide_in_play": True,
            "bonus_rounding": "ceil",
            "doubles_per_turn": 1,
            "first_lead": "kozel",
            "later_lead": "winner_or_fisher",
            "block_award": "opponents_total",
            "target": 61,
            "win_check": "immediate",
        },
        family="cross",
        settle=settle,
        decide=decide,
        score=score_play,
        checks=(_check,),
        aliases=("телефон", "домики"),
        options=(*LINE, *HAND, *CROSS_ROUND, DIVIDE_IN_PLAY, BONUS_ROUNDING),
        traits=Traits(ends_branch=True, scored_in_play=True, russian=True),
        round=CrossRound,
        title="Telephone",
    )
)
