"""The chance of each side to win its match from a ledger between rounds: what a move is worth
where a match is at stake.

A chance here is a match's expected score, as chess counts one: a win 1, a loss 0, and 1/2
for finishing between the winners and the losers (a Kozel player who is neither the goat nor
the best). With two sides it is the plain chance to win.

A round's end is valued by what it leaves the match: the chance that each side wins from the
ledger it settles into. :class:`MatchEquity` estimates that chance for one game by playing the
rest of the match out many times, not with tiles but with whole rounds: it first plays a pool
of rounds of the game by the searching bots' rollout policy (heaviest tile first, a little
chance) and keeps how each ended (its :class:`~bazar.Outcome`); then, from any ledger, it
settles outcomes drawn from the pool, one after another, until the match is decided, and
counts who won. The ledger's own rules settle each draw (:meth:`bazar.Ledger.settle`), so
Kozel's accounts and eggs, a target, a limit, a schedule of rounds or poker's chips all count
as the game counts them, with nothing written per game.

Ledgers played out from the same seed meet the same draws: their difference, which is what
grades a move, is far steadier than either chance alone (common random numbers). The analysis
plays the ends of one deal out from one seed, a few matches each, and the deals from seeds of
their own, so that the chance's own noise averages out over the deals. A ledger's chance is
kept once worked out, for its seed.

>>> import bazar
>>> rules = bazar.rules("kozel", players=4, teams=True)
>>> equity = MatchEquity(rules)
>>> even = equity.chances(bazar.Ledger.new(rules))
>>> abs(even[0] - even[1]) < 0.1
True
>>> ahead = equity.chances(bazar.Ledger(rules, scores=[90, 10]))
>>> ahead[1] > 0.9  # side 0 is 11 points from the goat, side 1 is 91
True
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

from bazar.bots import sampler
from bazar.core.ledger import Ledger, MatchResult
from bazar.core.match import Match
from bazar.core.outcome import Outcome
from bazar.core.rules import Rules

__all__ = ["MatchEquity", "equity_of", "result_chances"]

#: rounds played for the pool of outcomes
POOL_ROUNDS = 3000
#: matches played out from each ledger
PLAYOUTS = 400
#: the chances kept at most (then forgotten, all at once)
KEPT = 100_000
#: rounds after which a match still undecided is judged by its totals
LONGEST = 200


def result_chances(rules: Rules, result: MatchResult) -> tuple[float, ...]:
    """Each side's score of a decided match, as chess scores a game: 1 for a side among the
    winners, 0 for one among the losers, 1/2 for a side that finished between them (a
    Kozel player neither the goat nor the one with the fewest points)."""
    won = {rules.side_of(s) for s in result.winners}
    lost = {rules.side_of(s) for s in result.losers}
    return tuple(
        1.0 if side in won else 0.0 if side in lost else 0.5 for side in range(rules.sides)
    )


class MatchEquity:
    """The chance of each side to win the match from a ledger of ``rules`` (see the module's
    doc). ``rounds`` outcomes make the pool; ``playouts`` matches are played from each ledger
    asked; both are seeded by ``seed``, so the chances are the same in every process."""

    def __init__(
        self, rules: Rules, rounds: int = POOL_ROUNDS, playouts: int = PLAYOUTS, seed: int = 0
    ) -> None:
        self.rules = rules
        self.playouts = playouts
        self.seed = seed
        self.pool = _pool(rules, rounds, seed)
        self._known: dict[tuple[str, int | str, int], tuple[float, ...]] = {}

    def chances(
        self, ledger: Ledger, seed: int | str | None = None, playouts: int | None = None
    ) -> tuple[float, ...]:
        """Each side's chance to win the match from ``ledger`` (between rounds), over
        ``playouts`` matches played out from ``seed`` (the equity's own by default)."""
        if ledger.result is not None:
            return result_chances(self.rules, ledger.result)
        seed = self.seed if seed is None else seed
        playouts = self.playouts if playouts is None else playouts
        key = (json.dumps(ledger.public(), sort_keys=True, default=str), seed, playouts)
        known = self._known.get(key)
        if known is None:
            if len(self._known) >= KEPT:
                self._known.clear()
            known = self._known[key] = self._played_out(ledger, seed, playouts)
        return known

    def _played_out(self, ledger: Ledger, seed: int | str, playouts: int) -> tuple[float, ...]:
        rules = self.rules
        rng = random.Random(seed)
        pool = self.pool
        wins = [0.0] * rules.sides
        for _ in range(playouts):
            now = ledger
            for _ in range(LONGEST):
                now = now.settle(pool[int(rng.random() * len(pool))])
                if now.result is not None:
                    break
            result = now.result or now.by_totals(highest=not rules.lower_wins)
            for side, share in enumerate(result_chances(rules, result)):
                wins[side] += share
        return tuple(w / playouts for w in wins)


def _pool(rules: Rules, rounds: int, seed: int) -> list[Outcome]:
    """How ``rounds`` rounds of ``rules`` ended, played in whole matches seeded from
    ``seed`` by the rollout policy: the heaviest tile, one move in ten at random (so the
    pool holds later rounds too, with their own leaders and accounts)."""
    rng = random.Random(seed)
    outcomes: list[Outcome] = []
    while len(outcomes) < rounds:
        match = Match(rules, seed=rng.randrange(2**63))
        for _ in range(100_000):
            if match.is_over() or len(outcomes) >= rounds:
                break
            rnd = match.round
            legal = rnd.legal_moves()
            if rng.random() < 0.1:
                move = legal[int(rng.random() * len(legal))]
            else:
                move = sampler.greedy_move(legal)
            match.push(move)
            if match.round is not rnd or match.is_over():
                outcome = rnd.outcome()
                if outcome is not None:
                    outcomes.append(outcome)
    return outcomes


@lru_cache(maxsize=32)
def equity_of(rules: Rules) -> MatchEquity:
    """The one :class:`MatchEquity` of ``rules`` in this process (worked out on first use)."""
    return MatchEquity(rules)
