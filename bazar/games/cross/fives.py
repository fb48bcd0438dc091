"""The Fives family (``fives.md``): a play scores when the open ends add up to a multiple of
5 (All Threes: 3); the hand's winner adds a bonus from the losers' pips.

Presets: ``fives`` (All Fives after Pagat), ``muggins`` (the same without a spinner),
``five-up`` (GameColony, with its table listings), ``domino-five`` («Домино пять»),
``pyaterochka`` («Пятёрочка») and ``all-threes``.

>>> import bazar
>>> r = bazar.rules("domino-five", players=4)
>>> out = bazar.Outcome("fish", fisher=1, remaining=[["2-1"], ["4-1"], ["6-5"], ["6-5", "1-1"]])
>>> bazar.Ledger.new(r).settle(out).scores       # (5 + 11 + 13 - 3) -> 25 -> / 5
(5, 0, 0, 0)
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bazar.core.errors import invalid
from bazar.core.options import HAND
from bazar.core.rules import Family, Option, Traits, Variant, register
from bazar.core.scoring import round_to, side_values
from bazar.games.cross.round import CrossRound
from bazar.games.line.options import LINE

from .options import CROSS_ROUND, EXACT_TARGET, WIN_CHECK
from .round import count_ends

if TYPE_CHECKING:
    from bazar.core.ledger import Ledger, MatchResult
    from bazar.core.outcome import Outcome
    from bazar.core.round import Round
    from bazar.core.rules import Rules

    from .round import CrossRound

__all__ = [
    "BASE",
    "BONUS_DIVIDE",
    "DIVIDE_IN_PLAY",
    "LOSERS_SUBTRACT",
    "bonus",
    "decide",
    "score_play",
    "settle",
]

BASE: Option[int] = Option(
    "base", "int", "the number whose multiples score during play", 5, values=(3, 5)
)
DIVIDE_IN_PLAY: Option[bool] = Option(
    "divide_in_play",
    "bool",
    "in-play points are the ends' sum divided by the multiple that scores",
    False,
)
BONUS_DIVIDE: Option[bool] = Option(
    "bonus_divide",
    "bool",
    "the end-of-round bonus is rounded to the multiple that scores and divided by it",
    False,
)
LOSERS_SUBTRACT: Option[bool] = Option(
    "losers_subtract",
    "bool",
    "at the end of a hand every side subtracts its own rounded pips instead of the winner's bonus",
    False,
)


def score_play(rnd: Round) -> int:
    """The points of the turn just played: the count when it is a multiple of ``base``."""
    assert isinstance(rnd, CrossRound)  # the cross family's hook (Variant.score)
    rules = rnd.rules
    count = count_ends(rnd)
    if count <= 0 or count % rules[BASE]:
        return 0
    return count // rules[BASE] if rules[DIVIDE_IN_PLAY] else count


def _winner(rules: Rules, outcome: Outcome, values: list[int]) -> list[int]:
    """The sides that win the hand: the out side, else the lightest (several when tied)."""
    if outcome.out_seat is not None:
        return [rules.side_of(outcome.out_seat)]
    best = min(values)
    return [side for side, v in enumerate(values) if v == best]


def bonus(rules: Rules, outcome: Outcome) -> list[int]:
    """The end-of-hand points of each side (``fives.md`` §7)."""
    hands = [list(h or ()) for h in outcome.remaining]
    base, divide = rules[BASE], rules[BONUS_DIVIDE]
    sides = rules.sides
    if outcome.reason not in ("out", "fish"):
        return [0] * sides
    values = side_values(rules, hands)
    if rules[LOSERS_SUBTRACT]:
        return [-(round_to(v, base) // base if divide else round_to(v, base)) for v in values]
    if outcome.out_seat is not None and rules.teams:
        for seat in rules.teams[rules.side_of(outcome.out_seat)]:
            hands[seat] = []  # the out player's partner's tiles count for nobody
        values = side_values(rules, hands)
    winners = _winner(rules, outcome, values)
    points = [0] * sides
    if len(winners) == 1:
        win = winners[0]
        total = sum(values) - values[win]
        if outcome.reason == "fish" and rules.block_award == "difference":
            total -= values[win]
        rounded = round_to(max(total, 0), base)
        points[win] = rounded // base if divide else rounded
    elif len(winners) == 2 and sides == 3 and rules.name in ("fives", "muggins"):
        # Pagat, three players: the two tied lowest split what one winner would get
        (loser,) = [s for s in range(3) if s not in winners]
        share = round_to(values[loser], base) // 2
        share = share // base if divide else share - share % base
        for win in winners:
            points[win] = share
    return points


def settle(ledger: Ledger, outcome: Outcome) -> Ledger:
    """In-play points, then the bonus; with ``exact_target`` a score that would pass the
    target is not taken."""
    rules = ledger.rules
    scores = list(ledger.scores)
    for seat, points in outcome.scoring:
        scores[rules.side_of(seat)] += points
    for side, points in enumerate(bonus(rules, outcome)):
        target = rules.target
        if rules[EXACT_TARGET] and target is not None and scores[side] + points > target:
            continue
        scores[side] += points
    return ledger.replace(scores=scores)


def decide(ledger: Ledger) -> MatchResult | None:
    """The first side to reach the target wins; checked after each score (``immediate``) or
    after each hand, when the highest score wins and a tie at the top plays another hand.
    Telephone and Bergen decide alike (they have no ``exact_target``)."""
    rules = ledger.rules
    if rules[WIN_CHECK] == "end_of_hand" and ledger.get("in_play"):
        return None
    best = max(ledger.scores)
    target = rules.target
    assert target is not None  # every game that decides so takes one (its checks)
    if best < target or (rules[EXACT_TARGET] and best != target):
        return None
    top = [side for side, s in enumerate(ledger.scores) if s == best]
    if len(top) > 1:
        return None
    return ledger.decided(top)


def _pagat_target(o: dict[str, Any]) -> int:
    if o["divide_in_play"]:
        return 61
    return 250 if o["players"] == 2 else 200


def _check(o: dict[str, Any]) -> None:
    if o["target"] is None:
        raise invalid("fives_target")
    if o["limit"] is not None:
        raise invalid("fives_limit")


def _preset(**overrides: Any) -> dict[str, Any]:
    options: dict[str, Any] = {
        "players": 2,
        "teams": False,
        "set_max": 6,
        "hand_size": {2: 7, 3: 5, 4: 5},
        "draw": True,
        "bazar_reserve": 0,
        "spinner": True,
        "spinner_count": "covered_only",
        "base": 5,
        "divide_in_play": False,
        "bonus_divide": True,
        "block_award": "difference",
        "first_lead": "lot",
        "later_lead": "winner",
        "after_block_lead": "winner",
        "after_tie_lead": "lot",
        "target": 100,
        "limit": None,
        "win_check": "end_of_hand",
        "exact_target": False,
        "losers_subtract": False,
    }
    options.update(overrides)
    return options


#: what the Fives family plugs into each of its presets (the Russian ones: ``_RUSSIAN``)
_FAMILY: Family = {
    "round": CrossRound,
    "family": "cross",
    "settle": settle,
    "decide": decide,
    "score": score_play,
    "checks": (_check,),
    "options": (*LINE, *HAND, *CROSS_ROUND, BASE, DIVIDE_IN_PLAY, BONUS_DIVIDE, LOSERS_SUBTRACT),
    "traits": Traits(ends_branch=True, scored_in_play=True),
}
_RUSSIAN: Family = {**_FAMILY, "traits": replace(_FAMILY["traits"], russian=True)}

_PAGAT = _preset(
    teams=lambda o: o["players"] == 4,
    hand_size={2: 9, 3: 7, 4: 5},
    divide_in_play=False,
    bonus_divide=lambda o: o["divide_in_play"],
    block_award="opponents_total",
    after_block_lead="lot",
    target=_pagat_target,
    win_check="immediate",
)

register(
    Variant(
        "fives",
        "All Fives (Pagat): a spinner, multiples of 5 score as they are made, 250/200",
        "fives.md (fives.pagat)",
        (2, 4),
        2,
        _PAGAT,
        aliases=("all fives", "all-fives"),
        **_FAMILY,
        title="All Fives",
    )
)
register(
    Variant(
        "muggins",
        "Muggins: All Fives without a spinner",
        "fives.md (fives.muggins)",
        (2, 4),
        2,
        {**_PAGAT, "spinner": False},
        **_FAMILY,
        title="Muggins",
    )
)


def _five_up_after_block(o: dict[str, Any]) -> str:
    if o["later_lead"] == "rotate":
        return "rotate"
    return "random" if o["first_lead"] == "random" else "highest_double_any_tile"


register(
    Variant(
        "five-up",
        "GameColony Five-up: 2 players, 7 tiles, optional spinner, 100-500 points",
        "fives.md (fives.gamecolony)",
        (2, 2),
        2,
        _preset(
            hand_size=7,
            bonus_divide=False,
            block_award="opponents_total",
            first_lead="high",
            after_block_lead=_five_up_after_block,
            after_tie_lead=_five_up_after_block,
        ),
        aliases=("five up", "fiveup"),
        **_FAMILY,
        title="Five-Up",
    )
)
register(
    Variant(
        "domino-five",
        "«Домино пять» (Gambler): the first double is a cross, the bonus is /5",
        "fives.md (fives.gambler)",
        (2, 4),
        2,
        _preset(),
        aliases=("домино пять", "domino five"),
        **_RUSSIAN,
        title="Domino Five",
    )
)
register(
    Variant(
        "pyaterochka",
        "«Пятёрочка»: as Domino five, the free sides of the cross count",
        "fives.md (fives.pyaterochka)",
        (2, 4),
        2,
        _preset(spinner_count="open_arms"),
        aliases=("пятёрочка", "пятерочка"),
        **_RUSSIAN,
        title="Pyaterochka",
    )
)
register(
    Variant(
        "all-threes",
        "All Threes: as Domino five with multiples of 3",
        "fives.md (fives.allthrees)",
        (2, 4),
        2,
        _preset(base=3),
        aliases=("all threes",),
        **_FAMILY,
        title="All Threes",
    )
)
