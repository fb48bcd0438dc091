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
from typing import TYPE_CHECKING, Any, Generic, cast, overload

from .errors import MatchOver, invalid
from .outcome import Outcome
from .rules import Rules
from .score_state import PublicScores, ScoreState
from .scoring import award

if TYPE_CHECKING:
    # a default for the state (PEP 696): a bare ``Ledger`` holds any family's state
    from typing_extensions import TypeVar
else:
    from typing import TypeVar

__all__ = ["Ledger", "MatchResult"]

if TYPE_CHECKING:
    S = TypeVar("S", bound=ScoreState, covariant=True, default=ScoreState)
else:
    S = TypeVar("S", bound=ScoreState, covariant=True)
T = TypeVar("T", bound=ScoreState)

#: a ledger's ``extra`` as given: the game-specific public state, by name
Extra = Mapping[str, Any] | Sequence[tuple[str, Any]]
#: the keys of the public scores that are no family's own ``extra``
PUBLIC_KEYS = frozenset(PublicScores.__annotations__)


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
class Ledger(Generic[S]):
    """The scores of a match between rounds. Immutable: :meth:`settle` returns a new ledger.

    ``scores`` has one entry per seat, or per side where ``rules.teams``. ``state`` is what
    the family keeps beside them (:class:`~bazar.core.score_state.ScoreState`, its class
    named by ``Variant.score_state``): the Kozel family's remembered points, opened accounts
    and fish pot ("eggs", ``bazar.games.line.accounts.KozelScores``), nothing elsewhere
    (:class:`~bazar.core.score_state.Points`). ``remembered``, ``opened`` and ``pot``, given
    to the constructor or read back, are the state's public form.
    """

    rules: Rules
    scores: tuple[int, ...]
    #: the family's own score state
    state: S
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
        pot: int | None = None,
        rounds: int = 0,
        extra: Extra = (),
        *,
        state: S | None = None,
    ) -> None:
        sides = rules.sides
        for name, value in (("scores", scores), ("remembered", remembered), ("opened", opened)):
            if value is not None and len(value) != sides:
                raise invalid("ledger_sides", name=name, sides=sides, given=len(value))
        kind = rules.variant.score_state
        given = _accounts(remembered, opened, pot)
        if state is None:
            made = kind.from_public(rules, given) if given else kind.start(rules)
        elif given:
            raise TypeError("a ledger is given its state or the state's accounts, not both")
        elif not isinstance(state, kind):
            raise TypeError(f"the state of a ledger of {rules.name} is a {kind.__name__}")
        setter = object.__setattr__
        setter(self, "rules", rules)
        setter(self, "scores", tuple(scores) if scores is not None else (0,) * sides)
        setter(self, "state", made if state is None else state)
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

    @classmethod
    def from_public(cls, rules: Rules, public: PublicScores) -> Ledger:
        """The ledger whose :meth:`public` form is ``public`` (a view's scores), the family
        reading its own state back (``ScoreState.from_public``).

        >>> import bazar
        >>> r = bazar.rules("kozel", players=3)
        >>> ledger = bazar.Ledger(r, scores=[20, 0, 0], opened=[True, False, False], pot=9)
        >>> bazar.Ledger.from_public(r, ledger.public()) == ledger
        True
        """
        scores = public.get("scores")
        extra = {
            k: tuple(v) if isinstance(v, list) else v
            for k, v in public.items()
            if k not in PUBLIC_KEYS
        }
        return Ledger(
            rules,
            scores=None if scores is None else list(scores),
            rounds=int(public.get("rounds", 0)),
            extra=extra,
            state=rules.variant.score_state.from_public(rules, public),
        )

    def settle(self, outcome: Outcome) -> Ledger[S]:
        """The ledger after a finished round (pure: this ledger is unchanged)."""
        if self.result is not None:
            raise MatchOver.of("match_decided")
        settle = self.rules.variant.settle
        if settle is not None:
            return settle(self, outcome)
        gains = award(self.rules, outcome)
        return self.replace(scores=[s + g for s, g in zip(self.scores, gains, strict=True)])

    @overload
    def replace(
        self,
        *,
        scores: Sequence[int] | None = None,
        rounds: int | None = None,
        extra: Extra | None = None,
        remembered: Sequence[int] | None = None,
        opened: Sequence[bool] | None = None,
        pot: int | None = None,
    ) -> Ledger[S]: ...

    @overload
    def replace(
        self,
        *,
        state: T,
        scores: Sequence[int] | None = None,
        rounds: int | None = None,
        extra: Extra | None = None,
    ) -> Ledger[T]: ...

    def replace(
        self,
        *,
        state: ScoreState | None = None,
        scores: Sequence[int] | None = None,
        rounds: int | None = None,
        extra: Extra | None = None,
        remembered: Sequence[int] | None = None,
        opened: Sequence[bool] | None = None,
        pot: int | None = None,
    ) -> Ledger:
        """A new ledger with some fields changed (the family's ``state``, or its accounts
        in their public form), one round later unless ``rounds`` is given."""
        given = _accounts(remembered, opened, pot)
        if given:
            if state is not None:
                raise TypeError("a ledger is given its state or the state's accounts, not both")
            rules = self.rules
            public: PublicScores = {**self.state.accounts(rules.sides), **given}
            state = rules.variant.score_state.from_public(rules, public)
        return Ledger(
            self.rules,
            scores=self.scores if scores is None else scores,
            rounds=self.rounds + 1 if rounds is None else rounds,
            extra=self.extra if extra is None else extra,
            state=self.state if state is None else state,
        )

    @property
    def remembered(self) -> tuple[int, ...]:
        """Each side's points held off its score (Kozel's remembered points; zeros in the
        games that keep none): the state's public form."""
        return tuple(self.state.accounts(self.rules.sides)["remembered"])

    @property
    def opened(self) -> tuple[bool, ...]:
        """Whether each side's account is open (Kozel; closed in the games that keep none)."""
        return tuple(self.state.accounts(self.rules.sides)["opened"])

    @property
    def pot(self) -> int:
        """The points a tied fish left for a later round (Kozel's eggs; else 0)."""
        return self.state.accounts(self.rules.sides)["pot"]

    def standing(self) -> tuple[float, ...]:
        """Each side's points as the match stands, as the family counts them
        (``ScoreState.standing``: Kozel's remembered points at what they are expected to
        weigh): what a bot that plays for the match reads."""
        return self.state.standing(self.scores)

    def get(self, key: str, default: Any = None) -> Any:
        """One entry of the game-specific state ``extra``."""
        return dict(self.extra).get(key, default)

    def score(self, seat: int, points: int) -> Ledger[S]:
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

    def public(self) -> PublicScores:
        """The ledger as every seat sees it, JSON-safe (:meth:`from_public` reads it back)."""
        accounts = self.state.accounts(self.rules.sides)
        public: dict[str, object] = {
            "scores": list(self.scores),
            "remembered": accounts["remembered"],
            "opened": accounts["opened"],
            "pot": accounts["pot"],
            "rounds": self.rounds,
            **dict(self.extra),
        }
        # the family's own entries beside the typed ones (``PublicScores``)
        return cast(PublicScores, public)

    def before_play(self, events: Sequence[tuple[int, int]]) -> Ledger[S]:
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


def _accounts(
    remembered: Sequence[int] | None, opened: Sequence[bool] | None, pot: int | None
) -> PublicScores:
    """The accounts given to a ledger in their public form (none given: empty)."""
    given: PublicScores = {}
    if remembered is not None:
        given["remembered"] = list(remembered)
    if opened is not None:
        given["opened"] = list(opened)
    if pot is not None:
        given["pot"] = pot
    return given
