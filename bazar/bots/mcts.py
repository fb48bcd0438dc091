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
the sampled deals exactly instead (alpha-beta, :func:`bazar.bots.sampler.solve`). In a game
that rewards long plans (:attr:`bazar.Round.rewards_long_plans`: Mexican Train's own train)
the heuristic's move -- its plan -- stands unless the tree's mean reward for the most-visited
move beats it by more than a standard error: heaviest-first rollouts cannot see a plan that
pays off over a dozen turns.

Both make one :class:`bazar.bots.sampler.Determinizer` of the view a move, and deal from it.

``omniscient`` sees the whole round through :meth:`OmniscientBot.choose_round` (never a
View); the arena gives it the round, nothing else does. It measures what hidden
information costs the others; given only a view it is the ``pimc`` it inherits from. It is
not listed by :func:`bazar.bots.names`.

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


def in_endgame(rnd: Round) -> bool:
    """Whether ``rnd`` is small enough to solve exactly: nothing left to draw and at most
    :data:`ENDGAME_TILES` tiles in all the hands."""
    return rnd.drawable == 0 and sum(len(h) for h in rnd.hands) <= ENDGAME_TILES


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
    exact = in_endgame(rnd)
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

    def _ledger(self, view: View) -> Ledger | None:
        """The match's ledger the view shows, where the bot plays for the match."""
        return search.ledger_of(view) if self.for_match else None


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
        ledger = self._ledger(view)
        liked = legal.index(self.fallback.choose(view, legal))
        rows = self._sampled_values(search.Determinizer(view), legal, side, clock, ledger)
        if rows is None:
            return legal[liked]
        return legal[self._best(rows, legal, liked)]

    def _sampled_values(
        self,
        dealer: search.Determinizer,
        legal: Sequence[Move],
        side: int,
        clock: search.Clock,
        ledger: Ledger | None,
    ) -> list[list[float]] | None:
        """Deal after deal while the budget lasts (one at least), the value of every legal
        move in it (:func:`evaluate`), a row a deal; None where a deal cannot be made."""
        rows: list[list[float]] = []
        while clock.more() or not rows:
            rnd = dealer.round(self.rng)
            if rnd is None:
                return None
            rows.append(evaluate(rnd, legal, side, self.rng, ledger=ledger))
            for _ in legal:
                clock.tick()
        return rows

    def _best(self, rows: list[list[float]], legal: Sequence[Move], liked: int) -> int:
        """The index of the move with the best total over the deals' ``rows``; the
        heuristic's move (``liked``) stands unless the samples show the best one better by
        more than their noise (paired over the same deals, :attr:`margin`)."""
        totals = [0.0] * len(legal)
        for row in rows:
            for i, v in enumerate(row):
                totals[i] += v
        best = max(range(len(legal)), key=lambda i: (totals[i], _order(legal[i])))
        if liked != best and _not_clearly_better(rows, best, liked, self.margin):
            return liked
        return best


def _not_clearly_better(rows: list[list[float]], best: int, other: int, z: float) -> bool:
    """Whether the paired differences of the ``rows`` between ``best`` and ``other`` show
    ``best`` better by no more than ``z`` standard errors (pimc's test against the
    heuristic's move)."""
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
    """A move's rank on a tie: the heavier tile, a double, then its name."""
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
    """A node of the tree: the move leading to it as the search has tried it (its rewards,
    weighted, and how often it was legal when its parent was reached), and the moves
    tried from it."""

    __slots__ = ("avail", "children", "side", "squares", "total", "visits")

    def __init__(self, side: int) -> None:
        self.children: dict[Move, _Node] = {}
        self.visits = 0.0  # weighted: each deal by its likelihood against the mean
        self.total = 0.0
        self.squares = 0.0  # of the rewards, for their spread
        self.avail = 0
        self.side = side  # the side that chose the move leading here

    def offered(self, moves: Sequence[Move]) -> list[Move]:
        """The moves of ``moves`` (those legal from here in this deal) not tried yet; each
        child among them counts one more time it was available."""
        untried = [m for m in moves if m not in self.children]
        for m in moves:
            child = self.children.get(m)
            if child is not None:
                child.avail += 1
        return untried

    def ucb(self, explore: float) -> float:
        """The child's mean reward and its exploration bonus (UCB1 over the times its move
        was available, as information-set MCTS counts them)."""
        return self.total / self.visits + explore * math.sqrt(
            math.log(max(self.avail, 1)) / self.visits
        )

    def backup(self, reward: float, weight: float) -> None:
        """Add one iteration's ``reward``, counted ``weight`` times."""
        self.visits += weight
        self.total += weight * reward
        self.squares += weight * reward * reward


class _Tree:
    """One search's tree over the bot's information set, and what its iterations saw: how
    many, their weights, the mean size of their values (the scale rewards are squashed
    by), how deep they reached and the distinct deals they played."""

    def __init__(self) -> None:
        self.root = _Node(-1)
        self.runs = 0
        self.weights = 0.0
        self.seen_abs = 0.0
        self.depths = 0
        self.deepest = 0
        self.deals: set[tuple[int | None, ...]] = set()

    def record(self, rnd: Round, depth: int) -> None:
        """Note an iteration that reached ``depth`` plies into the tree, dealt ``rnd`` (at
        the root again)."""
        self.depths += depth
        self.deepest = max(self.deepest, depth)
        self.deals.add(tuple(rnd.hand_mask(s) for s in range(rnd.players)))

    def backup(self, path: Sequence[_Node], values: Sequence[float], weight: float) -> None:
        """Give every node of ``path`` below the root the reward of its side's value in
        ``values``, squashed into 0..1 by the mean size of the values seen so far; the
        deal counts by its likelihood ``weight`` against the mean so far (importance
        sampling)."""
        self.runs += 1
        self.seen_abs += sum(abs(v) for v in values) / len(values)
        scale = max(1.0, self.seen_abs / self.runs)
        self.weights += weight
        w = weight * self.runs / self.weights
        for node in path[1:]:
            node.backup(0.5 + 0.5 * math.tanh(values[node.side] / scale), w)

    def most_visited(self, legal: Sequence[Move]) -> Move:
        """The root's most visited move (the heaviest tile on a tie)."""
        children = self.root.children
        return max(legal, key=lambda m: (children[m].visits if m in children else -1, _order(m)))

    def stats(self) -> Stats:
        """What the search did (:class:`Stats`), the endgame aside."""
        return Stats(
            self.runs, len(self.deals), self.depths / max(self.runs, 1), self.deepest, False
        )


class IsmctsBot(_Searching):
    """Information-set MCTS (single observer) with an exact endgame (budget: iterations or
    ms).

    Each iteration of :meth:`_search` deals a fresh deal of the view and walks down the
    tree in it (:meth:`_tree_walk`): at a node with a move legal in this deal that was
    never tried it expands one (:meth:`_expand`), else it selects by UCB among the moves
    legal in this deal (:meth:`_select`); then it plays the deal out from the new node
    (:meth:`_rollout`) and backs the values up the path (:meth:`_Tree.backup`)."""

    name = "ismcts"
    #: 400 iterations, never more than 900 ms (the level promises at most 1 s a move)
    default = Budget(400, 900.0)
    #: the weight of the exploration term of UCB (:meth:`_select`)
    explore = 0.7
    #: in the games that reward long plans (``Round.rewards_long_plans``: one's own train)
    #: the heuristic's move stands unless the tree shows another better by more than
    #: ``margin`` standard errors (as in ``pimc``): heaviest-first rollouts cannot see it
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
        side = view.rules.side_of(me)
        clock = self.budget.clock()
        dealer = search.Determinizer(view, self.model)
        first = dealer.deal(self.rng)
        if first is None:
            return self.fallback.choose(view, legal)
        ledger = self._ledger(view)
        probe = first[0]
        if in_endgame(probe):  # the first deal shows the endgame; the solves deal afresh
            return self._endgame(dealer, legal, side, clock, ledger)
        tree = self._search(dealer, first, legal, clock, ledger)
        self.stats = tree.stats()
        best = tree.most_visited(legal)
        if probe.rewards_long_plans:
            return self._keep_plan(view, legal, best, tree)
        return best

    def _search(
        self,
        dealer: search.Determinizer,
        first: tuple[Round, float],
        legal: Sequence[Move],
        clock: search.Clock,
        ledger: Ledger | None,
    ) -> _Tree:
        """The tree of iterations while the budget lasts (one at least), the ``first`` deal
        first; it stops early where no deal can be made."""
        tree = _Tree()
        while clock.more() or tree.runs == 0:
            dealt = first if tree.runs == 0 else dealer.deal(self.rng)
            if dealt is None:
                break
            clock.tick()
            rnd, weight = dealt
            path = self._tree_walk(tree.root, rnd, legal)
            values = self._rollout(rnd, ledger)
            search.unwind(rnd, len(path) - 1)
            tree.record(rnd, len(path) - 1)
            tree.backup(path, values, weight)
        return tree

    def _tree_walk(self, root: _Node, rnd: Round, legal: Sequence[Move]) -> list[_Node]:
        """Walk down from ``root`` in the deal ``rnd``, pushing the moves: select while
        every move legal in the deal was tried, expand the first node with one untried,
        and stop there (or at the round's end). Returns the nodes passed, root first."""
        node = root
        path = [root]
        while not rnd.is_over():
            moves = rnd.legal_moves() if len(path) > 1 else list(legal)
            untried = node.offered(moves)
            move = self._expand(node, rnd, untried) if untried else self._select(node, moves)
            rnd.push(move)
            node = node.children[move]
            path.append(node)
            if untried:
                break
        return path

    def _expand(self, node: _Node, rnd: Round, untried: Sequence[Move]) -> Move:
        """One of the ``untried`` moves at random, added to ``node`` as a new child (for the
        side of the seat to move in ``rnd``)."""
        move = untried[int(self.rng.random() * len(untried))]
        turn = rnd.turn
        assert turn is not None
        child = _Node(rnd.rules.side_of(turn))
        child.avail = 1
        node.children[move] = child
        return move

    def _select(self, node: _Node, moves: Sequence[Move]) -> Move:
        """The move of ``moves`` (all tried from ``node``) whose child has the highest UCB
        (the first on a tie)."""
        best_move = moves[0]
        best_ucb = -math.inf
        for m in moves:
            ucb = node.children[m].ucb(self.explore)
            if ucb > best_ucb:
                best_ucb, best_move = ucb, m
        return best_move

    def _rollout(self, rnd: Round, ledger: Ledger | None) -> list[float]:
        """Play ``rnd`` out greedily (:func:`bazar.bots.sampler.rollout`) and return every
        side's value of its end; the playout is taken back."""
        count = search.rollout(rnd, self.rng)
        values = search.round_value(rnd, ledger)
        search.unwind(rnd, count)
        return values

    def _keep_plan(self, view: View, legal: Sequence[Move], best: Move, tree: _Tree) -> Move:
        """In a game that rewards long plans, the heuristic's planned move, unless the tree
        shows ``best`` better by more than :attr:`margin` standard errors."""
        liked = self.fallback.choose(view, legal)
        children = tree.root.children
        if liked != best and not _clearly_better(
            children.get(best), children.get(liked), self.margin
        ):
            return liked
        return best

    def _endgame(
        self,
        dealer: search.Determinizer,
        legal: Sequence[Move],
        side: int,
        clock: search.Clock,
        ledger: Ledger | None,
    ) -> Move:
        """The move of the best weighted total over deals solved exactly (alpha-beta,
        :func:`evaluate`), while the budget lasts; a solve counts as several iterations."""
        totals = [0.0] * len(legal)
        deals = 0
        while clock.more() or deals == 0:
            dealt = dealer.deal(self.rng)
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
    model: search.PlayModel | None = None


class RoundIsmctsBot(IsmctsBot):
    """``ismcts`` that values each round as if the match began with it: for measuring
    what playing for the match is worth (not offered to players)."""

    name = "ismcts-round"
    for_match = False


class OmniscientBot(PimcBot):
    """Sees every hand and the bazar: for measurement only (see the module's doc). Given
    only a view (:meth:`choose`) it cannot peek, and plays as the ``pimc`` it is."""

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


# (registered here, not by a decorator: a decorated class would not be compiled)
register(PimcBot)
register(IsmctsBot)
