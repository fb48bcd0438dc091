"""Matches: rounds until the match ends, each round settled into the ledger.

>>> import bazar
>>> r = bazar.rules("classic", players=3)
>>> out = bazar.Outcome("out", out_seat=0, remaining=[[], ["6-5", "3-2"], ["1-0"]])
>>> bazar.Ledger.new(r).settle(out).scores
(17, 0, 0)
"""

from __future__ import annotations

import random

from .errors import MatchOver
from .ledger import Ledger, MatchResult
from .moves import Move
from .outcome import Outcome
from .round import Round, deal_seed
from .rules import Rules
from .view import View

__all__ = ["Match"]


class Match:
    """Rounds until the match ends. ``Match(rules, seed=1)`` deals round k from
    :func:`~bazar.core.round.deal_seed` of the match seed."""

    def __init__(self, rules: Rules, seed: int | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.rules = rules
        self.seed: int | None = seed
        #: what seeds the next deals of a match loaded from a seedless record
        self.fallback_seed: str = ""
        self.ledger = Ledger.new(rules)
        self.rounds: list[Round] = [self._deal(1, None)]
        self._sync()

    def _deal(self, number: int, previous: Outcome | None) -> Round:
        return Round(
            self.rules,
            deal_seed(self.seed if self.seed is not None else self.fallback_seed, number),
            number=number,
            previous=previous,
            ledger=self.ledger,
        )

    @property
    def round(self) -> Round:
        """The current round (the last one once the match is over)."""
        return self.rounds[-1]

    def is_over(self) -> bool:
        return self.ledger.result is not None

    def result(self) -> MatchResult | None:
        return self.ledger.result

    def legal_moves(self) -> list[Move]:
        return [] if self.is_over() else self.round.legal_moves()

    @property
    def turn(self) -> int | None:
        return None if self.is_over() else self.round.turn

    def push(self, move: Move | str) -> None:
        """Push into the current round; settle it when it ends and deal the next one."""
        if self.is_over():
            raise MatchOver.of("match_over", move=move)
        rnd = self.round
        rnd.push(move)
        self._sync()

    def copy(self) -> Match:
        """A copy that moves on without this match: its current round is copied, the
        finished ones (which no push changes) are shared."""
        twin = Match.__new__(Match)
        twin.__dict__.update(self.__dict__)
        twin.rounds = [*self.rounds[:-1], self.round.copy()]
        return twin

    def point(self) -> tuple[int, Ledger]:
        """Where the match stands, for :meth:`back_to` to come back to after one push."""
        return len(self.rounds), self.ledger

    def back_to(self, point: tuple[int, Ledger]) -> Move:
        """Take back the one move pushed since :meth:`point` gave ``point`` (the rounds it
        ended and dealt, the ledger it settled), and return it."""
        rounds, ledger = point
        del self.rounds[rounds:]
        move = self.round.pop()
        self.ledger = ledger
        return move

    def _sync(self) -> None:
        """Bring the ledger up to the current round: its points scored during play so far, or
        its settlement once it is over (then the next round is dealt)."""
        rnd = self.round
        outcome = rnd.outcome()
        while outcome is not None:
            self.ledger = rnd.ledger.settle(outcome)
            if self.ledger.result is not None:
                return
            rnd = self._deal(len(self.rounds) + 1, outcome)
            self.rounds.append(rnd)
            # a round can end as it is dealt (poker without betting): it is settled at once
            outcome = rnd.outcome()
        ledger = rnd.ledger
        for seat, points in rnd.scoring():
            ledger = ledger.score(seat, points)
        self.ledger = ledger

    def view(self, seat: int | None) -> View:
        """The current round's view for ``seat``, with the ledger (made once a position: a
        push or a pop of the round makes the next)."""
        rnd = self.round
        views = rnd._views
        if views is None:
            views = rnd._views = {}
        view = views.get(seat)
        if view is None:
            view = views[seat] = View.of(rnd, seat, scores=self.ledger.public())
        return view
