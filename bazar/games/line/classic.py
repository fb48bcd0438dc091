"""The classic line games (``classic-draw-block.md``): GameColony's Block and Draw, the
Russian traditional domino and its penalty form; and ``draw-bonus``, Draw with a house rule
(``out_bonus``), which shows how a table's own rule is added: an option, the one place that
reads it, a preset, all in this module.

>>> import bazar
>>> r = bazar.rules("draw-bonus")
>>> out = bazar.Outcome("out", out_seat=0, remaining=[[], ["6-5", "3-2"]])
>>> bazar.Ledger.new(r).settle(out).scores, r[OUT_BONUS]
((26, 0), 10)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bazar.core.errors import invalid
from bazar.core.options import HAND
from bazar.core.rules import Option, Traits, Variant, register
from bazar.core.scoring import award
from bazar.games.line.round import LineRound

from .options import LINE

if TYPE_CHECKING:
    from bazar.core.ledger import Ledger
    from bazar.core.outcome import Outcome

__all__ = ["OUT_BONUS", "settle_with_bonus"]

#: A house rule some tables play: the side that goes out scores a bonus on top of the
#: others' pips (a fish earns none).
OUT_BONUS: Option[int] = Option(
    "out_bonus",
    "int",
    "points the side that goes out scores on top of the others' pips (a house rule)",
    0,
    low=0,
    high=100,
)


def settle_with_bonus(ledger: Ledger, outcome: Outcome) -> Ledger:
    """The classic settlement (:func:`~bazar.core.scoring.award`), and ``out_bonus`` more to
    the side that went out."""
    rules = ledger.rules
    gains = award(rules, outcome)
    if outcome.reason == "out" and outcome.out_seat is not None:
        gains[rules.side_of(outcome.out_seat)] += rules[OUT_BONUS]
    return ledger.replace(scores=[s + g for s, g in zip(ledger.scores, gains, strict=True)])


def _gamecolony_after_block(o: dict[str, Any]) -> str:
    if o["later_lead"] == "rotate":
        return "rotate"
    if o["draw"] is False or o["teams"]:
        return "winner"
    return "random" if o["first_lead"] == "random" else "highest_double_any_tile"


def _gamecolony_after_tie(o: dict[str, Any]) -> str:
    if o["later_lead"] == "rotate":
        return "rotate"
    return "random" if o["first_lead"] == "random" else "highest_double_any_tile"


def _gamecolony(name: str, draw: bool) -> dict[str, Any]:
    return {
        "players": 2,
        "teams": lambda o: o["players"] == 4,
        "set_max": 6,
        "hand_size": 7,
        "draw": draw,
        "bazar_reserve": 0,
        "first_lead": "high",
        "later_lead": "winner",
        "after_block_lead": _gamecolony_after_block,
        "after_tie_lead": _gamecolony_after_tie,
        "scoring": "positive",
        "block_award": "opponents_total",
        "double_blank_value": 0,
        "target": 100,
        "limit": None,
    }


def _classic(penalty: bool) -> dict[str, Any]:
    return {
        "players": 2,
        "teams": False,
        "set_max": 6,
        "hand_size": {2: 7, 3: 5, 4: 5},
        "draw": True,
        "bazar_reserve": 0,
        "first_lead": "low_doubles_high_singles" if penalty else "high",
        "later_lead": "same_rule",
        "after_block_lead": "same_rule",
        "after_tie_lead": "same_rule",
        "scoring": "penalty" if penalty else "positive",
        "block_award": "own_pips" if penalty else "difference",
        "double_blank_value": 10 if penalty else 0,
        "target": None if penalty else 100,
        "limit": 100 if penalty else None,
    }


def _scoring_consistent(o: dict[str, Any]) -> None:
    if o["scoring"] == "penalty":
        if o["limit"] is None:
            raise invalid("penalty_limit")
        if o["block_award"] != "own_pips":
            raise invalid("penalty_block_award")
    else:
        if o["target"] is None:
            raise invalid("positive_target")
        if o["block_award"] == "own_pips":
            raise invalid("own_pips_penalty")
    if o["target"] is not None and o["limit"] is not None:
        raise invalid("target_or_limit")


_LINE_CHECKS = (_scoring_consistent,)

register(
    Variant(
        "block",
        "Block: no drawing; match tiles end to end, first out scores the others' pips (GameColony)",
        "classic-draw-block.md (gamecolony.block)",
        (2, 4),
        2,
        _gamecolony("block", draw=False),
        checks=_LINE_CHECKS,
        options=(*LINE, *HAND),
        aliases=("блок",),
        round=LineRound,
        title="Block",
    )
)
register(
    Variant(
        "draw",
        "Draw: draw from the bazar until you can play; first out scores the others' pips",
        "classic-draw-block.md (gamecolony.draw)",
        (2, 4),
        2,
        _gamecolony("draw", draw=True),
        checks=_LINE_CHECKS,
        options=(*LINE, *HAND),
        aliases=("базар",),
        round=LineRound,
        title="Draw",
    )
)
register(
    Variant(
        "classic",
        "Russian traditional domino: 7/5/5 deal, 6-6 leads, fish = lightest hand, to 100",
        "classic-draw-block.md (classic.ru)",
        (2, 4),
        2,
        _classic(penalty=False),
        checks=_LINE_CHECKS,
        options=(*LINE, *HAND),
        traits=Traits(russian=True),
        aliases=("домино", "классика", "классическое"),
        round=LineRound,
        title="Classic domino",
    )
)
register(
    Variant(
        "classic-penalty",
        "Penalty classic: lowest double leads, everyone records his own pips, fewest at 100 wins",
        "classic-draw-block.md (classic.penalty)",
        (2, 4),
        2,
        _classic(penalty=True),
        checks=_LINE_CHECKS,
        options=(*LINE, *HAND),
        traits=Traits(russian=True),
        aliases=("штрафное",),
        round=LineRound,
        title="Penalty domino",
    )
)
register(
    Variant(
        "draw-bonus",
        "Draw with a house rule: going out scores 10 more on top of the others' pips",
        "classic-draw-block.md (gamecolony.draw) with the house rule out_bonus",
        (2, 4),
        2,
        {**_gamecolony("draw", draw=True), "out_bonus": 10},
        checks=_LINE_CHECKS,
        options=(*LINE, *HAND, OUT_BONUS),
        settle=settle_with_bonus,
        round=LineRound,
        title="Draw, going out pays 10",
    )
)
