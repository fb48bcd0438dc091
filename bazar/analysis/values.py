"""What each legal move of a position is worth to the player who must choose, from what he
knew: his :class:`~bazar.View`, never the hidden hands.

The hidden tiles are dealt many times consistently with the view, each deal weighed by how
likely the others' moves so far were had they held it (the search bots'
:class:`~bazar.bots.sampler.Determinizer` and play model). In every deal each legal move is
played and the round finished by the rollout policy (heaviest tile first, a little chance),
with the same random choices after every move of the deal (common random numbers: the moves
differ by themselves, not by luck); with few tiles left and nothing to draw the deal is solved
exactly instead. Each round's end is valued two ways:

* ``win``: the side's chance to win the match from the ledger that end settles into
  (:class:`~bazar.analysis.equity.MatchEquity`, :data:`PLAYOUTS` matches played out from
  each end, from a seed of the deal's own; a match of one round is won or lost by it);
* ``points``: the round's points for the side less the mean of the other sides', signed so
  that more is better (fewer pips taken in the Kozel family).

A move's value is the weighted mean over the deals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bazar.bots import sampler
from bazar.core.ledger import Ledger
from bazar.core.moves import Move
from bazar.core.round import Round
from bazar.core.view import View

from .equity import MatchEquity, equity_of

__all__ = ["DEALS", "MoveValue", "Position", "evaluate_view", "in_endgame"]

#: deals a position is valued over by default
DEALS = 64
#: matches played out from each end of a round of a deal (the match chance's samples)
PLAYOUTS = 16
#: deals tried per deal asked, at most, where some fail to fit the view (a follow-suit void,
#: a long run of passes): a position is valued over as many deals as were asked where it can be
ATTEMPTS = 4
#: hands holding at most this many tiles in all, with nothing to draw: solved exactly
ENDGAME_TILES = 8
#: alpha-beta nodes per move of a deal in the endgame (then the rollout policy finishes)
ENDGAME_NODES = 3000


@dataclass(frozen=True)
class MoveValue:
    """One legal move and its value to the side that plays it: ``win`` (its chance to win
    the match, 0..1) and ``points`` (the round's points against the others)."""

    move: Move
    win: float
    points: float


@dataclass(frozen=True)
class Position:
    """A position's legal moves valued (in the order of ``legal``), over ``deals`` deals."""

    values: tuple[MoveValue, ...]
    deals: int
    exact: bool
    #: each deal's weight and the match chance of every move in it (for the noise)
    rows: tuple[tuple[float, tuple[float, ...]], ...] = ()

    def best(self) -> MoveValue:
        """The move of the highest chance (then points, then the heavier tile)."""
        return max(self.values, key=lambda v: (v.win, v.points, _weight(v.move)))

    def of(self, move: Move) -> MoveValue:
        return next(v for v in self.values if v.move == move)

    def noise(self, a: Move, b: Move) -> float:
        """The standard error of the difference of the chances of ``a`` and ``b``: the
        spread of its value over the deals (weighted, paired: the same deals for both), over
        the square root of the deals' effective number."""
        moves = [v.move for v in self.values]
        i, j = moves.index(a), moves.index(b)
        if i == j or len(self.rows) < 2:
            return 0.0
        total = sum(w for w, _ in self.rows)
        if total <= 0:
            return 0.0
        mean = sum(w * (r[i] - r[j]) for w, r in self.rows) / total
        var = sum(w * (r[i] - r[j] - mean) ** 2 for w, r in self.rows) / total
        effective = total * total / sum(w * w for w, _ in self.rows)
        return math.sqrt(var / max(1.0, effective - 1))


def _weight(move: Move) -> tuple[int, bool]:
    tile = move.tile
    return (-1, False) if tile is None else (tile.pips, tile.is_double)


def in_endgame(rnd: Round) -> bool:
    """Whether ``rnd`` is small enough to solve exactly: nothing left to draw and at most
    :data:`ENDGAME_TILES` tiles in all the hands."""
    return rnd.drawable == 0 and sum(len(h) for h in rnd.hands) <= ENDGAME_TILES


def evaluate_view(
    view: View,
    legal: Sequence[Move],
    seed: int | str = 0,
    deals: int = DEALS,
    equity: MatchEquity | None = None,
    playouts: int = PLAYOUTS,
) -> Position | None:
    """Every move of ``legal`` valued for the seat of ``view`` (see the module's doc), over
    ``deals`` deals drawn from ``seed`` (up to :data:`ATTEMPTS` times as many tried where
    some fail to fit the view); None where the game cannot be dealt from a view
    (Kolbasa's blind rows) or no deal fits it."""
    seat = view.seat
    if seat is None:
        raise ValueError("a position is valued for a seat: the view is an onlooker's")
    rules = view.rules
    side = rules.side_of(seat)
    equity = equity if equity is not None else equity_of(rules)
    dealer = sampler.Determinizer(view, sampler.PlayModel())
    n = len(legal)
    wins = [0.0] * n
    points = [0.0] * n
    total = 0.0
    rows: list[tuple[float, tuple[float, ...]]] = []
    exact_all = True
    made = 0
    for d in range(deals * ATTEMPTS):
        if made == deals or not dealer.can_deal:
            break
        dealt = dealer.deal(random.Random(f"{seed}:deal:{d}"))
        if dealt is None:
            continue
        rnd, weight = dealt
        made += 1
        exact = in_endgame(rnd)
        exact_all = exact_all and exact
        start = rnd.ledger
        row = [0.0] * n
        ends = _Ends(side, start, equity, f"{seed}:match:{d}", playouts)
        for i, move in enumerate(legal):
            rnd.push(move)
            if exact:
                win, pts = _solved(rnd, ends, [ENDGAME_NODES])
            else:
                rng = random.Random(f"{seed}:play:{d}")
                count = sampler.rollout(rnd, rng)
                win, pts = ends.value(rnd)
                sampler.unwind(rnd, count)
            rnd.pop()
            wins[i] += weight * win
            points[i] += weight * pts
            row[i] = win
        rows.append((weight, tuple(row)))
        total += weight
    if not made or total <= 0:
        return None
    values = tuple(
        MoveValue(move, wins[i] / total, points[i] / total) for i, move in enumerate(legal)
    )
    return Position(values, made, exact_all, tuple(rows))


@dataclass(frozen=True)
class _Ends:
    """How the ends of one deal's rounds are valued: for ``side``, from the ledger ``start``
    the round began at, the match played out ``playouts`` times from ``seed`` (the same for
    every move of the deal)."""

    side: int
    start: Ledger
    equity: MatchEquity
    seed: str
    playouts: int

    def value(self, rnd: Round) -> tuple[float, float]:
        return end_value(rnd, self.side, self.start, self.equity, self.seed, self.playouts)


def end_value(
    rnd: Round,
    side: int,
    start: Ledger,
    equity: MatchEquity,
    seed: int | str | None = None,
    playouts: int | None = None,
) -> tuple[float, float]:
    """The value for ``side`` of ``rnd`` played to its end from a round that began at the
    ledger ``start``: the match chance (:meth:`MatchEquity.chances` from ``seed`` over
    ``playouts`` matches) and the round's points (a round the rollout left blocked: the pips
    each side holds, the match as it stood)."""
    rules = rnd.rules
    outcome = rnd.outcome()
    if outcome is None:
        gains = [0.0] * rules.sides
        for seat, tiles in enumerate(rnd.hands):
            gains[rules.side_of(seat)] -= sum(t.pips for t in tiles)
        return equity.chances(start, seed, playouts)[side], _relative(gains)[side]
    after = start.settle(outcome)
    sign = rules.better_sign
    gains = [float(sign * (a - b)) for a, b in zip(after.standing(), start.standing(), strict=True)]
    return equity.chances(after, seed, playouts)[side], _relative(gains)[side]


def _relative(gains: list[float]) -> list[float]:
    n = len(gains)
    if n < 2:
        return gains
    total = sum(gains)
    return [g - (total - g) / (n - 1) for g in gains]


def _solved(rnd: Round, ends: _Ends, nodes: list[int]) -> tuple[float, float]:
    """The value for ``side`` of ``rnd`` with every hand open, by alpha-beta on the match
    chance (then the points), the other sides playing against ``side``; past the node
    budget the rollout policy finishes."""
    return _search(rnd, ends, nodes, (-math.inf, -math.inf), (math.inf, math.inf))


def _search(
    rnd: Round,
    ends: _Ends,
    nodes: list[int],
    alpha: tuple[float, float],
    beta: tuple[float, float],
) -> tuple[float, float]:
    if rnd.is_over():
        return ends.value(rnd)
    nodes[0] -= 1
    if nodes[0] <= 0:
        count = sampler.rollout(rnd, random.Random(0), eps=0.0)
        value = ends.value(rnd)
        sampler.unwind(rnd, count)
        return value
    turn = rnd.turn
    assert turn is not None
    maximise = rnd.rules.side_of(turn) == ends.side
    legal = sorted(rnd.legal_moves(), key=_weight, reverse=True)
    best = (-math.inf, -math.inf) if maximise else (math.inf, math.inf)
    for move in legal:
        rnd.push(move)
        value = _search(rnd, ends, nodes, alpha, beta)
        rnd.pop()
        if maximise:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best
