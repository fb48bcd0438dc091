"""Sea Kozel («Морской козёл», ``sea-kozel.md``): only the round winner scores, from 25 up,
one record holder at a time, 125 wins, finishing with 0-0 or 6-6 wins outright, and the record
holder may open a round with a "hundred" (6-6).

>>> import bazar
>>> r = bazar.rules("sea-kozel", players=2)
>>> won = bazar.Outcome("out", out_seat=0, remaining=[[], ["6-5", "6-4", "3-3"]])
>>> after = bazar.Ledger(r).settle(won)
>>> after.scores, after.get("record_holder")
((27, 0), 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bazar.core.errors import invalid
from bazar.core.options import HAND
from bazar.core.rules import SCORING, Option, Traits, Variant, register
from bazar.core.scoring import award, hand_value
from bazar.games.line.round import LineRound

from .kozel import FISH_MODE, OPEN_THRESHOLD
from .options import LINE, SINGLE_RECORD

if TYPE_CHECKING:
    from bazar.core.ledger import Ledger, MatchResult
    from bazar.core.outcome import Outcome
    from bazar.core.rules import Rules

__all__ = ["decide", "settle"]

KNOCK_OFF: Option[str] = Option(
    "knock_off",
    "enum",
    "what another player's entry does to the record",
    "wipe_all",
    values=("wipe_all", "replace"),
)
ZERO_ZERO_FINISH_WINS: Option[bool] = Option(
    "zero_zero_finish_wins", "bool", "finishing with 0-0 wins the match", True
)
SIX_SIX_FINISH_WINS: Option[bool] = Option(
    "six_six_finish_wins", "bool", "finishing with 6-6 wins the match", True
)
SIX_SIX_NEEDS_LOSER_OVER_25: Option[bool] = Option(
    "six_six_needs_loser_over_25",
    "bool",
    "the 6-6 finish wins only if some loser holds more than 25",
    False,
)
HUNDRED_FAILURE: Option[str] = Option(
    "hundred_failure",
    "enum",
    "what a failed hundred costs",
    "reset",
    values=("reset", "lose_if_25"),
)


def settle(ledger: Ledger, outcome: Outcome) -> Ledger:
    """One round of Sea Kozel (§4), pure: instant results, a failed hundred, the record."""
    rules = ledger.rules
    extra = dict(ledger.extra)
    scores = list(ledger.scores)
    holder: int | None = extra.get("record_holder")
    seats = range(rules.players)
    values = [hand_value(rules, hand or ()) for hand in outcome.remaining]
    out_side = None if outcome.out_seat is None else rules.side_of(outcome.out_seat)
    won = lost = None
    if out_side is not None:
        final = {str(t) for t in outcome.last_turn}
        losers = [values[s] for s in seats if rules.side_of(s) != out_side]
        bald = "0-0" in final and rules[ZERO_ZERO_FINISH_WINS]
        six = "6-6" in final and rules[SIX_SIX_FINISH_WINS]
        if six and rules[SIX_SIX_NEEDS_LOSER_OVER_25]:
            six = any(v > 25 for v in losers)
        if bald or six:
            won = out_side
    hundred = (outcome.extra or {}).get("hundred")
    if hundred is not None:
        if out_side == hundred:
            won = hundred
        elif rules[HUNDRED_FAILURE] == "reset":
            scores[hundred] = 0
            if holder == hundred:
                holder = None
        elif sum(values[s] for s in seats if rules.side_of(s) == hundred) >= 25:
            lost = hundred
    for side, points in enumerate(award(rules, outcome)):
        if points > 0:
            before = scores[side]
            holder = _record(rules, scores, holder, side, points)
            if scores[side] > before:
                extra.setdefault("first_recorded", side)
    if holder is not None:
        extra["record_holder"] = holder
    else:
        extra.pop("record_holder", None)
    if won is not None:
        extra["won_by"] = won
    elif lost is not None:
        extra["lost_by"] = lost
    return ledger.replace(scores=scores, extra=extra)


def _record(
    rules: Rules, scores: list[int], holder: int | None, side: int, points: int
) -> int | None:
    """Record a round award (§4.3); returns the record holder after it."""
    threshold = rules[OPEN_THRESHOLD] or 0
    if not rules[SINGLE_RECORD]:
        if scores[side] > 0 or points >= threshold:
            scores[side] += points
        return None
    if side == holder:
        scores[side] += points
    elif points >= threshold:
        if holder is None:
            scores[side] = points
            return side
        if rules[KNOCK_OFF] == "wipe_all":
            scores[:] = [0] * len(scores)
            return None
        scores[holder] = 0
        scores[side] = points
        return side
    return holder


def decide(ledger: Ledger) -> MatchResult | None:
    """An instant result, else the first side to reach ``target``."""
    won, lost = ledger.get("won_by"), ledger.get("lost_by")
    if won is not None:
        return ledger.decided([won])
    if lost is not None:
        return ledger.decided([s for s in range(ledger.rules.sides) if s != lost])
    return ledger._decide()


def _check(o: dict[str, Any]) -> None:
    if o["doubles_per_turn"] > 2:
        raise invalid("sea_kozel_doubles")


register(
    Variant(
        "sea-kozel",
        "Sea Kozel: only the winner scores, from 25 up, one record at a time, 125 wins, "
        "0-0 / 6-6 finishes win",
        "sea-kozel.md",
        (2, 4),
        4,
        {
            "players": 4,
            "teams": lambda o: o["players"] == 4,
            "set_max": 6,
            "hand_size": 7,
            "draw": True,
            "bazar_reserve": 0,
            "redeal_min_doubles": None,
            "redeal_min_suit": None,
            "first_lead": "kozel",
            "zero_zero_may_lead": True,
            "later_lead": "winner_or_fisher",
            "doubles_per_turn": 2,
            "early_fish": "standard",
            "lone_values": True,
            "open_threshold": 25,
            "fish_mode": "lowest_wins",
            "block_award": "opponents_total",
            "single_record": True,
            "knock_off": "wipe_all",
            "target": 125,
            "limit": None,
            "zero_zero_finish_wins": True,
            "six_six_finish_wins": True,
            "six_six_needs_loser_over_25": False,
            "hundred_privilege": True,
            "hundred_failure": "reset",
        },
        checks=(_check,),
        aliases=("морской козёл", "морской козел", "морской"),
        settle=settle,
        decide=decide,
        traits=Traits(russian=True, goat=True, loser="goat"),
        round=LineRound,
        options=(
            *LINE,
            *HAND,
            SCORING,
            OPEN_THRESHOLD,
            FISH_MODE,
            SINGLE_RECORD,
            KNOCK_OFF,
            ZERO_ZERO_FINISH_WINS,
            SIX_SIX_FINISH_WINS,
            SIX_SIX_NEEDS_LOSER_OVER_25,
            HUNDRED_FAILURE,
        ),
        title="Sea Kozel",
    )
)
