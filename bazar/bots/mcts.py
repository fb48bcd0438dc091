"""The searching bots: ``pimc``, ``ismcts`` and the measuring-only ``omniscient``.

``pimc`` (perfect-information Monte Carlo): deal the hidden tiles many times consistently
with the view (:func:`bazar.bots.sampler.sample_deal`), play every legal move out to the end of the
round in each deal with a fast greedy rollout, and keep the move with the best mean value
in the game's own points (:func:`bazar.bots.sampler.outcome_value`) -- unless the heuristic
prefers another move and the samples do not show the best one better by more than their
noise (one standard error of the paired difference over the same deals).

``ismcts`` (information-set MCTS, single observer): one tree over the bot's own information
set; each iteration deals a fresh consistent deal, walks down the tree choosing by UCB
among the moves legal in that deal, adds one node and rolls out. A deal counts by how likely
the others' moves so far were had they held its hands, under a soft-greedy model of their
play (:class:`bazar.bots.sampler.PlayModel`: heavy tiles and doubles first). Rewards are per
side, so partners in team games pull together. With few tiles left and nothing to draw it solves
the sampled deals exactly instead (alpha-beta, :func:`bazar.bots.sampler.solve`). In Mexican
Train (``Variant.own_trains``) the heuristic's move -- its plan of one's own train -- stands
unless the tree's mean reward for the most-visited move beats it by more than a standard
error: heaviest-first rollouts cannot see a plan that pays off over a dozen turns.

``omniscient`` sees the whole round through :meth:`OmniscientBot.choose_round` (never a
View); the arena gives it the round, nothing else does. It measures what hidden
information costs the others. It is not listed by :func:`bazar.bots.names`.

Budgets: ``pimc@200`` (playouts), ``pimc@50ms``, ``ismcts@1000``, ``ismcts@1s``, and a
count with a hard time cap, ``pimc@200/40ms``. The default levels are capped: ``pimc`` is
64 playouts within 45 ms, ``ismcts`` 400 iterations within 900 ms.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bazar.core.ledger import Ledger
from bazar.core.moves import Move
from bazar.core.round import Round
from bazar.core.view import View

from . import sampler as search
from .base import Bot, register
from .heuristic import HeuristicBot
from .sampler import Budget

__all__ = ["BlindIsmctsBot", "IsmctsBot", "OmniscientBot", "PimcBot", "RoundIsmctsBot", "evaluate"]

#: hands holding at most this many tiles in all, with nothing to draw: solved exactly
ENDGAME_TILES = 8
#: alpha-beta nodes per sampled deal in the endgame
ENDGAME_NODES = 4000


def evaluate(
    rnd: Round,
    legal: Sequence[Move],
    side: int,
    rng: random.Random,
    rollouts: int = 1,
    ledger: Ledger | None = None,
) -> list[float]:
    """The value for ``side`` of each move of ``legal`` in ``rnd`` (one deal): the mean of
    ``rollouts`` greedy playouts, or the exact value in a small endgame. With the match's
    ``ledger``, values are for the match (:func:`bazar.bots.sampler.match_standing`)."""
    exact = rnd.drawable == 0 and sum(len(h) for h in rnd.hands) <= ENDGAME_TILES
    values = []
    for move in legal:
        rnd.push(move)
        if exact:
            values.append(search.solve(rnd, side, [ENDGAME_NODES], ledger=ledger))
        else:
            total = 0.0
            for _ in range(rollouts):
                count = search.rollout(rnd, rng)
                total += search.round_value(rnd, ledger)[side]
                search.unwind(rnd, count)
            values.append(total / rollouts)
        rnd.pop()
    return values


class _Searching(Bot):
    """A bot with a budget and the heuristic to fall back on."""

    default: Budget = Budget(64)
    takes_budget = True
    searches = True
    #: values rounds by the match's standing (the ledger in the view), not the round alone
    for_match = True

    def __init__(self, seed: int | None = None, budget: str | None = None) -> None:
        super().__init__(seed)
        self.budget = Budget.parse(budget, self.default)
        self.fallback = HeuristicBot(seed)
        self.fallback.rng = self.rng

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


@register
class PimcBot(_Searching):
    """Perfect-information Monte Carlo over consistent deals (budget: playouts or ms)."""

    name = "pimc"
    #: 64 playouts, never more than 45 ms (the level promises at most 50 ms a move)
    default = Budget(64, 45.0)
    #: standard errors by which a sampled best move must beat the heuristic's choice
    margin = 1.0

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        me = view.seat
        assert me is not None
        side = view.rules.side_of(me)
        clock = self.budget.clock()  # the heuristic's opinion is part of the time taken
        ledger = search.ledger_of(view) if self.for_match else None
        liked = legal.index(self.fallback.choose(view, legal))
        totals = [0.0] * len(legal)
        rows: list[list[float]] = []
        while clock.more() or not rows:
            rnd = search.determinize(view, self.rng)
            if rnd is None:
                return legal[liked]
            values = evaluate(rnd, legal, side, self.rng, ledger=ledger)
            for i, v in enumerate(values):
                totals[i] += v
            rows.append(values)
            for _ in legal:
                clock.tick()
        best = max(range(len(legal)), key=lambda i: (totals[i], _order(legal[i])))
        # the heuristic's move stands unless the samples show the best one better by more
        # than their noise (paired over the same deals)
        if liked != best and _not_clearly_better(rows, best, liked, self.margin):
            return legal[liked]
        return legal[best]


def _not_clearly_better(rows: list[list[float]], best: int, other: int, z: float) -> bool:
    diffs = [row[best] - row[other] for row in rows]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean <= 0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean <= z * math.sqrt(var / n)


def _clearly_better(best: _Node | None, other: _Node | None, z: float) -> bool:
    """Whether ``best``'s mean reward beats ``other``'s by more than ``z`` standard errors
    of the difference (a move seldom tried is never clearly worse)."""
    if best is None or best.visits < 2:
        return False
    if other is None or other.visits < 2:
        return True
    error = 0.0
    for node in (best, other):
        mean = node.total / node.visits
        error += max(0.0, node.squares / node.visits - mean * mean) / (node.visits - 1)
    return best.total / best.visits - other.total / other.visits > z * math.sqrt(error)


def _order(move: Move) -> tuple[int, bool, str]:
    tile = move.tile
    return (-1, False, str(move)) if tile is None else (tile.pips, tile.is_double, str(move))


@dataclass(frozen=True)
class Stats:
    """What the last search of a bot did (``IsmctsBot.stats``): its iterations (deals solved
    in the endgame), the distinct deals among them, the mean and the deepest reach of the
    tree in plies, and whether the exact endgame decided."""

    iterations: int
    deals: int
    mean_depth: float
    depth: int
    endgame: bool


class _Node:
    __slots__ = ("avail", "children", "side", "squares", "total", "visits")

    def __init__(self, side: int) -> None:
        self.children: dict[Move, _Node] = {}
        self.visits = 0.0  # weighted: each deal by its likelihood against the mean
        self.total = 0.0
        self.squares = 0.0  # of the rewards, for their spread
        self.avail = 0
        self.side = side  # the side that chose the move leading here


@register
class IsmctsBot(_Searching):
    """Information-set MCTS (single observer) with an exact endgame (budget: iterations or
    ms)."""

    name = "ismcts"
    #: 400 iterations, never more than 900 ms (the level promises at most 1 s a move)
    default = Budget(400, 900.0)
    explore = 0.7
    #: in the games of one's own train (``Variant.own_trains``) the heuristic's move stands
    #: unless the tree shows another better by more than ``margin`` standard errors (as in
    #: ``pimc``): the plan of one's own train is a long-range idea that heaviest-first
    #: rollouts cannot see
    margin = 1.0
    #: how the search models the other seats' choices, to weigh each deal by how likely
    #: their moves were under it (None: every consistent deal alike)
    model: search.PlayModel | None = search.PlayModel()
    #: what the last search did (None: the last move needed none)
    stats: Stats | None = None

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        self.stats = None
        if len(legal) == 1:
            return legal[0]
        me = view.seat
        assert me is not None
        rules = view.rules
        side = rules.side_of(me)
        clock = self.budget.clock()
        model = self.model
        first = search.weighted_deal(view, self.rng, model)
        if first is None:
            return self.fallback.choose(view, legal)
        probe = first[0]
        ledger = search.ledger_of(view) if self.for_match else None
        if probe.drawable == 0 and sum(len(h) for h in probe.hands) <= ENDGAME_TILES:
            return self._endgame(view, legal, side, clock, ledger)
        depths = 0
        deepest = 0
        deals: set[tuple[int | None, ...]] = set()
        root = _Node(-1)
        scale = 10.0
        seen_abs = 0.0
        weights = 0.0
        runs = 0
        while clock.more() or runs == 0:
            dealt = first if runs == 0 else search.weighted_deal(view, self.rng, model)
            if dealt is None:
                break
            rnd, weight = dealt
            runs += 1
            clock.tick()
            node = root
            path = [node]
            pushed = 0
            while not rnd.is_over():
                moves = rnd.legal_moves() if pushed else list(legal)
                turn = rnd.turn
                assert turn is not None
                mover = rules.side_of(turn)
                untried = [m for m in moves if m not in node.children]
                for m in moves:
                    child = node.children.get(m)
                    if child is not None:
                        child.avail += 1
                if untried:
                    move = untried[int(self.rng.random() * len(untried))]
                    child = _Node(mover)
                    child.avail = 1
                    node.children[move] = child
                    rnd.push(move)
                    pushed += 1
                    node = child
                    path.append(node)
                    break
                best_move = moves[0]
                best_ucb = -math.inf
                for m in moves:
                    c = node.children[m]
                    ucb = c.total / c.visits + self.explore * math.sqrt(
                        math.log(max(c.avail, 1)) / c.visits
                    )
                    if ucb > best_ucb:
                        best_ucb, best_move = ucb, m
                rnd.push(best_move)
                pushed += 1
                node = node.children[best_move]
                path.append(node)
            depths += pushed
            deepest = max(deepest, pushed)
            count = search.rollout(rnd, self.rng)
            values = search.round_value(rnd, ledger)
            search.unwind(rnd, count + pushed)
            deals.add(tuple(rnd.hand_mask(s) for s in range(rules.players)))
            seen_abs += sum(abs(v) for v in values) / len(values)
            scale = max(1.0, seen_abs / runs)
            # each deal counts by its likelihood against the mean so far (importance sampling)
            weights += weight
            w = weight * runs / weights
            for n in path[1:]:
                reward = 0.5 + 0.5 * math.tanh(values[n.side] / scale)
                n.visits += w
                n.total += w * reward
                n.squares += w * reward * reward
        self.stats = Stats(runs, len(deals), depths / max(runs, 1), deepest, False)
        best = max(
            range(len(legal)),
            key=lambda i: (
                root.children[legal[i]].visits if legal[i] in root.children else -1,
                _order(legal[i]),
            ),
        )
        if rules.variant.own_trains:
            liked = self.fallback.choose(view, legal)
            if liked != legal[best] and not _clearly_better(
                root.children.get(legal[best]), root.children.get(liked), self.margin
            ):
                return liked
        return legal[best]

    def _endgame(
        self,
        view: View,
        legal: Sequence[Move],
        side: int,
        clock: search._Clock,
        ledger: Ledger | None,
    ) -> Move:
        totals = [0.0] * len(legal)
        deals = 0
        while clock.more() or deals == 0:
            dealt = search.weighted_deal(view, self.rng, self.model)
            if dealt is None:
                break
            rnd, weight = dealt
            for i, v in enumerate(evaluate(rnd, legal, side, self.rng, ledger=ledger)):
                totals[i] += weight * v
            deals += 1
            for _ in range(4 * len(legal)):  # an exact solve is worth several iterations
                clock.tick()
        self.stats = Stats(deals, deals, 0.0, 0, True)
        best = max(range(len(legal)), key=lambda i: (totals[i], _order(legal[i])))
        return legal[best]


class BlindIsmctsBot(IsmctsBot):
    """``ismcts`` that weighs every consistent deal alike (no model of the others' choices):
    for measuring what the model is worth (not offered to players)."""

    name = "ismcts-blind"
    model = None


class RoundIsmctsBot(IsmctsBot):
    """``ismcts`` that values each round as if the match began with it: for measuring
    what playing for the match is worth (not offered to players)."""

    name = "ismcts-round"
    for_match = False


class OmniscientBot(_Searching):
    """Sees every hand and the bazar: for measurement only (see the module's doc)."""

    name = "omniscient"
    default = Budget(96)
    #: the arena hands this bot the round itself
    sees_all = True

    def choose_round(self, rnd: Round) -> Move:
        """The move for the seat to play in ``rnd`` (the full round, copied by the caller)."""
        legal = rnd.legal_moves()
        if len(legal) == 1:
            return legal[0]
        turn = rnd.turn
        assert turn is not None
        side = rnd.rules.side_of(turn)
        rollouts = max(1, self.budget.playouts // len(legal)) if self.budget.playouts else 8
        values = evaluate(rnd, legal, side, self.rng, rollouts=rollouts)
        best = max(range(len(legal)), key=lambda i: (values[i], _order(legal[i])))
        return legal[best]

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        """Given only a view it cannot peek: it plays like ``pimc``."""
        # pimc's choice borrowed unbound: this bot is no PimcBot, but has all it reads
        return PimcBot.choose(self, view, legal)  # type: ignore[arg-type]
