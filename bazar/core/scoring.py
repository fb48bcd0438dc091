"""Pure scoring helpers: hand values, rounding (``common.md`` §7) and the award of a round.

>>> round_half_away(75, 10), round_half_away(-15, 10), round_to(13, 5), ceil_div(22, 5)
(8, -2, 15, 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .options import HAND_VALUES, LONE_VALUES
from .tiles import Tile

if TYPE_CHECKING:
    from .outcome import Outcome
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
    """What a hand counts at the end of a round: its pips, with the game's special tiles
    (``double_blank_value``; the Kozel family's ``hand_values`` and ``lone_values``)."""
    hand = tuple(tiles)
    special = rules[HAND_VALUES]
    if rules[LONE_VALUES] or special != "face":
        lone = _LONE.get(special if special != "face" else "lone_values", {})
        key = frozenset(t.index for t in hand)
        if key in lone:
            return lone[key]
    values = _ANYWHERE.get(special, {})
    blank = rules.double_blank_value
    if blank:
        values = {**values, 0: blank}
    total = 0
    for tile in hand:
        total += values.get(tile.index, tile.pips)
    return total


_ZERO, _SIX = 0, Tile.of(6, 6).index
#: hands worth a fixed value when they hold exactly these tiles (kozel.md §7, sea-kozel.md §4.1)
_LONE: dict[str, dict[frozenset[int], int]] = {
    "lone_00_10": {frozenset({_ZERO}): 10},
    "lone_66_50_00_25": {frozenset({_ZERO}): 25, frozenset({_SIX}): 50},
    "lone_values": {
        frozenset({_ZERO}): 25,
        frozenset({_SIX}): 50,
        frozenset({_ZERO, _SIX}): 75,
    },
}
#: tiles worth a fixed value wherever they are in the hand
_ANYWHERE: dict[str, dict[int, int]] = {
    "00_25": {_ZERO: 25},
    "00_25_66_50": {_ZERO: 25, _SIX: 50},
}


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
        assert outcome.out_seat is not None  # a round won by going out names its seat
        winner = rules.side_of(outcome.out_seat)
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
