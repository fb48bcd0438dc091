"""The ledger that keeps a match's score, and the result once the match is decided.

>>> import bazar
>>> r = bazar.rules("classic", players=3)
>>> out = bazar.Outcome("out", out_seat=0, remaining=[[], ["6-5", "3-2"], ["1-0"]])
>>> bazar.Ledger.new(r).settle(out).scores
(17, 0, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import MatchOver, invalid
from .outcome import Outcome
from .rules import Rules
from .scoring import award

__all__ = ["Ledger", "MatchResult"]

#: the entries of :meth:`Ledger.public` that are not the ledger's ``extra``
_FIELDS = ("scores", "remembered", "opened", "pot", "rounds")


@dataclass(frozen=True)
class MatchResult:
    """Who won and who lost a finished match (seats sorted; sides too in team games).

    ``winners`` are the seats that won the match, ``losers`` the seats that lost it. No seat
    is in both; a seat in neither finished between them; partners are always together. By
    the way the match ended:

    * **target** (a winning mark: the classic and GameColony games, ``kozel-beginner``,
      Sea Kozel, the Fives family, Telephone, Bergen, Texas 42): the side that reached it
      wins (where the target is checked after the hand, the highest score; a tie at the top
      plays on) and every other side loses. An outright win (Sea Kozel's 0-0 or 6-6 finish
      and hundred, Kozel's General) is the same: that side wins, every other side loses; a
      failed hundred under ``hundred_failure = lose_if_25`` is its mirror: that side loses,
      every other side wins.
    * **limit** (a losing mark: the Kozel goat, «Осёл», ``classic-penalty``, Chicken Foot
      with a ``limit``): exactly the sides at or past the limit lose; the side with the
      fewest points wins (ties share; nobody, when every side reached the limit); the sides
      between neither win nor lose.
    * **rounds played out** (Mexican Train, Chicken Foot's schedule, Kolbasa's one game,
      poker's ``deals``): the best total wins (the fewest points in the penalty games, the
      most otherwise) and the worst total loses; ties share; when every total is equal,
      all win and nobody loses.
    * **poker's last chips** (fewer than two players can pay the ante): as rounds played
      out: the most chips win, the fewest lose.
    * **timeout** (at the club: a player's clock ran out, or he left): the match is
      interrupted and has no result. ``Match.result()`` stays None, nobody wins or loses,
      and the table's ending names the seat that timed out.

    >>> import bazar
    >>> r = bazar.rules("chicken-foot", players=4, limit=150)
    >>> result = bazar.Ledger(r, scores=[70, 152, 40, 99], rounds=4).result
    >>> result.winners, result.losers
    ((2,), (1,))
    """

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    winning_teams: tuple[int, ...]
    losing_teams: tuple[int, ...]
    ledger: Ledger = field(repr=False, compare=False)


@dataclass(frozen=True, init=False)
class Ledger:
    """The scores of a match between rounds. Immutable: :meth:`settle` returns a new ledger.

    ``scores`` has one entry per seat, or per side where ``rules.teams``. ``remembered``,
    ``opened`` and ``pot`` hold the Kozel family's remembered points, opened accounts and
    fish pot ("eggs").
    """

    rules: Rules
    scores: tuple[int, ...]
    remembered: tuple[int, ...]
    opened: tuple[bool, ...]
    pot: int
    rounds: int
    #: game-specific public state (Sea Kozel's record holder, a General's win, ...)
    extra: tuple[tuple[str, Any], ...]
    result: MatchResult | None

    def __init__(
        self,
        rules: Rules,
        scores: Sequence[int] | None = None,
        remembered: Sequence[int] | None = None,
        opened: Sequence[bool] | None = None,
        pot: int = 0,
        rounds: int = 0,
        extra: Mapping[str, Any] | Sequence[tuple[str, Any]] = (),
    ) -> None:
        sides = rules.sides
        for name, value in (("scores", scores), ("remembered", remembered), ("opened", opened)):
            if value is not None and len(value) != sides:
                raise invalid("ledger_sides", name=name, sides=sides, given=len(value))
        setter = object.__setattr__
        setter(self, "rules", rules)
        setter(self, "scores", tuple(scores) if scores is not None else (0,) * sides)
        setter(self, "remembered", tuple(remembered) if remembered is not None else (0,) * sides)
        setter(self, "opened", tuple(opened) if opened is not None else (False,) * sides)
        setter(self, "pot", pot)
        setter(self, "rounds", rounds)
        items = extra.items() if isinstance(extra, Mapping) else extra
        setter(self, "extra", tuple(sorted((str(k), v) for k, v in items)))
        decide = rules.variant.decide
        setter(self, "result", decide(self) if decide is not None else self._decide())

    @classmethod
    def new(cls, rules: Rules) -> Ledger:
        """The ledger before the first round: zeros, or the game's starting score each
        (poker's ``starting_chips``)."""
        start = rules.variant.starting_score
        return cls(rules, scores=[start(rules) if start is not None else 0] * rules.sides)

    def settle(self, outcome: Outcome) -> Ledger:
        """The ledger after a finished round (pure: this ledger is unchanged)."""
        if self.result is not None:
            raise MatchOver.of("match_decided")
        settle = self.rules.variant.settle
        if settle is not None:
            return settle(self, outcome)
        gains = award(self.rules, outcome)
        return self.replace(scores=[s + g for s, g in zip(self.scores, gains, strict=True)])

    def replace(self, **changes: Any) -> Ledger:
        """A new ledger with some fields changed, one round later unless ``rounds`` is given."""
        fields: dict[str, Any] = {
            "scores": self.scores,
            "remembered": self.remembered,
            "opened": self.opened,
            "pot": self.pot,
            "rounds": self.rounds + 1,
            "extra": self.extra,
        }
        fields.update(changes)
        return Ledger(self.rules, **fields)

    def get(self, key: str, default: Any = None) -> Any:
        """One entry of the game-specific state ``extra``."""
        return dict(self.extra).get(key, default)

    def score(self, seat: int, points: int) -> Ledger:
        """The ledger after one in-play scoring event of ``seat``."""
        scores = list(self.scores)
        scores[self.rules.side_of(seat)] += points
        extra = dict(self.extra)
        extra["in_play"] = True  # mid-hand: a game that decides at the end of the hand waits
        return self.replace(scores=scores, rounds=self.rounds, extra=extra)

    def _decide(self) -> MatchResult | None:
        """The end at ``target`` (the best side wins, every other loses) or at ``limit``."""
        scores = self.scores
        target = self.rules.target
        if target is not None and max(scores) >= target:
            best = max(scores)
            return self.decided([side for side, s in enumerate(scores) if s == best])
        return self.at_limit()

    def at_limit(self) -> MatchResult | None:
        """The end at a losing mark, once a side has reached ``limit`` (else None): every
        side at or past it loses, the fewest points below it win (:class:`MatchResult`)."""
        scores = self.scores
        limit = self.rules.limit
        if limit is None or max(scores) < limit:
            return None
        fewest = min(scores)
        losing = [side for side, s in enumerate(scores) if s >= limit]
        winning = [side for side, s in enumerate(scores) if s == fewest and s < limit]
        return self.decided(winning, losing)

    def by_totals(self, highest: bool) -> MatchResult:
        """The end of a match decided by its totals alone (the rounds played out, poker's
        chips): the best total (``highest`` or lowest) wins, the worst loses; ties share and
        nobody loses when every total is equal."""
        scores = self.scores
        best, worst = (max(scores), min(scores)) if highest else (min(scores), max(scores))
        winning = [side for side, s in enumerate(scores) if s == best]
        losing = [side for side, s in enumerate(scores) if s == worst and s != best]
        return self.decided(winning, losing)

    def decided(self, winning: Sequence[int], losing: Sequence[int] | None = None) -> MatchResult:
        """The result in which the sides ``winning`` win and the sides ``losing`` lose
        (every other side when not given)."""
        rules = self.rules
        if losing is None:
            losing = [side for side in range(rules.sides) if side not in winning]
        seats = range(rules.players)
        return MatchResult(
            winners=tuple(s for s in seats if rules.side_of(s) in winning),
            losers=tuple(s for s in seats if rules.side_of(s) in losing),
            winning_teams=tuple(winning) if rules.teams else (),
            losing_teams=tuple(losing) if rules.teams else (),
            ledger=self,
        )

    def public(self) -> dict[str, Any]:
        """The ledger as every seat sees it, JSON-safe."""
        return {
            "scores": list(self.scores),
            "remembered": list(self.remembered),
            "opened": list(self.opened),
            "pot": self.pot,
            "rounds": self.rounds,
            **dict(self.extra),
        }

    @classmethod
    def from_public(cls, rules: Rules, public: Mapping[str, Any]) -> Ledger:
        """The ledger whose :meth:`public` form is ``public`` (a view's ``scores``); a list
        in its extra comes back a tuple (as the ledger keeps them hashable)."""
        known = {k: public[k] for k in _FIELDS if k in public}
        extra = {
            k: tuple(v) if isinstance(v, list) else v for k, v in public.items() if k not in _FIELDS
        }
        return cls(rules, **known, extra=extra)

    def before_play(self, events: Sequence[tuple[int, int]]) -> Ledger:
        """This ledger without the in-play scoring ``events`` of the round under way, which
        :meth:`score` added (a match's view shows them): the ledger the round began with."""
        if not self.get("in_play"):
            return self
        scores = list(self.scores)
        for seat, points in events:
            scores[self.rules.side_of(seat)] -= points
        extra = dict(self.extra)
        del extra["in_play"]
        return self.replace(scores=scores, rounds=self.rounds, extra=extra)
