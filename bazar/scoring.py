"""Pure scoring helpers: hand values, rounding (``common.md`` §7) and the award of a round.

>>> round_half_away(75, 10), round_half_away(-15, 10), round_to(13, 5), ceil_div(22, 5)
(8, -2, 15, 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .tiles import Tile

if TYPE_CHECKING:
    from .round import Outcome
    from .rules import Rules

__all__ = ["award", "ceil_div", "hand_value", "round_half_away", "round_to", "side_values"]


def round_half_away(numerator: int, denominator: int = 1) -> int:
    """``numerator / denominator`` to the nearest integer, halves away from zero (never
    Python's ``round``, which rounds halves to even)."""
    if denominator <= 0:
        raise ValueError("the denominator must be positive")
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)
    return magnitude if numerator >= 0 else -magnitude


def round_to(n: int, m: int) -> int:
    """The multiple of ``m`` nearest to ``n`` (halves away from zero)."""
    return round_half_away(n, m) * m


def ceil_div(n: int, m: int) -> int:
    """The smallest integer not below ``n / m``."""
    return -(-n // m)


def hand_value(rules: Rules, tiles: Iterable[Tile]) -> int:
    """What a hand counts at the end of a round: its pips, with the game's special tiles."""
    blank = getattr(rules, "double_blank_value", 0)
    total = 0
    for tile in tiles:
        total += blank if (blank and tile.index == 0) else tile.pips
    return total


def side_values(rules: Rules, remaining: Sequence[Sequence[Tile] | None]) -> list[int]:
    """The value of each side's hands (one entry per seat without teams)."""
    values = [0] * rules.sides
    for seat, hand in enumerate(remaining):
        values[rules.side_of(seat)] += hand_value(rules, hand or ())
    return values


def award(rules: Rules, outcome: Outcome) -> list[int]:
    """The points each side records for a finished round of a classic line game.

    ``positive`` scoring gives the winner the others' pips (after a fish: the lightest side,
    by ``block_award``); ``penalty`` scoring records every side's own pips (the out player 0).
    """
    sides = rules.sides
    points = [0] * sides
    if outcome.reason == "out":
        winner = rules.side_of(outcome.out_seat)  # type: ignore[arg-type]
        hands = [list(h or ()) for h in outcome.remaining]
        if rules.teams:
            # the out player's partner's tiles count for nobody (classic-draw-block.md §1a)
            for seat in rules.teams[winner]:
                hands[seat] = []
        values = side_values(rules, hands)
        if rules.scoring == "penalty":
            return values
        points[winner] = sum(values) - values[winner]
        return points
    values = side_values(rules, outcome.remaining)
    if rules.scoring == "penalty" or rules.block_award == "own_pips":
        return values
    lightest = fish_winner(rules, outcome)
    if lightest is None:
        return points
    winner = lightest
    others = sum(values) - values[winner]
    points[winner] = others - values[winner] if rules.block_award == "difference" else others
    return points


def fish_winner(rules: Rules, outcome: Outcome) -> int | None:
    """The side with the lightest hands after a fish, or None when the lightest is tied."""
    values = side_values(rules, outcome.remaining)
    best = min(values)
    if values.count(best) > 1:
        return None
    return values.index(best)
