"""The one seat loop: ask the seat whose turn it is for its move, push it, tell what it did.

>>> import bazar
>>> from bazar import bots
>>> from bazar.core.play import play
>>> match = bazar.Match(bazar.rules("block"), seed=1)
>>> result = play(match, [bots.make("greedy", seed=1), bots.make("random", seed=2)])
>>> match.is_over(), result is match.result()
(True, True)

A seat is whatever answers ``choose(view, legal)`` with one of ``legal``: a bot, a person at
a terminal, a socket (:class:`Seat`). The loop hands it its own :class:`~bazar.View` and
pushes the answer into the match; ``on_event`` then hears, in this order, :class:`Moved`,
a :class:`RoundEnded` for each round the move ended, a :class:`RoundStarted` for the round
dealt after it, and :class:`MatchEnded`. Events follow moves only: whoever starts the loop
announces the round in play when it starts. A seat that raises, or answers a move that is
not legal (:class:`~bazar.IllegalMove`), ends the loop with that error and the match as it
was before it was asked. The seats in ``auto`` are not asked for a forced move, a lone
``draw`` or ``pass`` (:func:`forced`): it is made for them.

The logic is in two steps, :func:`turn` (whose turn it is and what he is asked) and
:func:`answer` (push his move and tell what it did); :func:`play` and :func:`play_async`
are the same loop around them, once with a call and once with an ``await``. Two drivers,
because a seat that waits on a socket must not hold up the event loop its club shares with
every other table, while the arena and the terminal have no event loop, and one started
per move would cost the arena more than its bots take to think.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import Protocol

from .ledger import Ledger, MatchResult
from .match import Match
from .moves import Move
from .outcome import Outcome
from .round import Round
from .view import View

__all__ = [
    "AsyncSeat",
    "Event",
    "MatchEnded",
    "Moved",
    "RoundEnded",
    "RoundStarted",
    "Seat",
    "Turn",
    "answer",
    "forced",
    "play",
    "play_async",
    "playout",
    "turn",
]


class Seat(Protocol):
    """Who plays a seat: a bot, a person at a terminal. ``legal`` is ``view.legal``."""

    def choose(self, view: View, legal: Sequence[Move], /) -> Move: ...


class AsyncSeat(Protocol):
    """A seat that waits for its move (a socket): None when it has none yet."""

    async def choose(self, view: View, legal: Sequence[Move], /) -> Move | None: ...


@dataclass(frozen=True, slots=True)
class Turn:
    """What the seat to move is asked: his ``view`` and his ``legal`` moves. ``forced``: the
    move made for him without asking, where he is one of the ``auto`` seats."""

    seat: int
    view: View
    legal: tuple[Move, ...]
    forced: Move | None


@dataclass(frozen=True, slots=True)
class Moved:
    """``seat`` made ``move``, chosen from ``view``, in ``round`` (now the round after it);
    ``scored``: the points it scored during play, as ``(seat, points)``."""

    seat: int
    move: Move
    view: View
    round: Round
    scored: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """``round`` ended with ``outcome``: the scores went from ``before`` (those it was
    dealt with) to ``after``."""

    round: Round
    outcome: Outcome
    before: Ledger
    after: Ledger


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """The next ``round`` was dealt and is to be played."""

    round: Round


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is decided."""

    result: MatchResult


Event = Moved | RoundEnded | RoundStarted | MatchEnded

#: what hears the events of a loop
OnEvent = Callable[[Event], None]

#: the moves a seat is never asked for when they are his only one (DESIGN.md)
FORCED = ("draw", "pass")


def forced(legal: Sequence[Move]) -> Move | None:
    """The move nobody need be asked for: a lone ``draw`` or ``pass``; else None.

    >>> from bazar import Move
    >>> forced([Move.parse("draw")]), forced([Move.parse("6-4:L"), Move.parse("draw")])
    (Move('draw'), None)
    """
    if len(legal) == 1 and legal[0].kind in FORCED:
        return legal[0]
    return None


def turn(match: Match, auto: Container[int] = ()) -> Turn | None:
    """Whose turn it is and what he is asked; None once the match is over."""
    seat = match.turn
    if seat is None:
        return None
    view = match.view(seat)
    legal = view.legal
    return Turn(seat, view, legal, forced(legal) if seat in auto else None)


def answer(match: Match, asked: Turn, move: Move, on_event: OnEvent | None = None) -> None:
    """Push ``move``, the answer to ``asked``, and tell ``on_event`` what it did. An illegal
    move raises :class:`~bazar.IllegalMove` and changes nothing."""
    if on_event is None:
        match.push(move)
        return
    rnd = match.round
    scored = len(rnd.scoring())
    dealt = len(match.rounds)
    match.push(move)
    on_event(Moved(asked.seat, move, asked.view, rnd, tuple(rnd.scoring()[scored:])))
    if not rnd.is_over():
        return
    # one move may end several rounds: its own, and any dealt after it that ended at once
    for after in match.rounds[dealt - 1 :]:
        outcome = after.outcome()
        if outcome is None:
            on_event(RoundStarted(after))
        else:
            on_event(RoundEnded(after, outcome, after.ledger, after.ledger.settle(outcome)))
    result = match.result()
    if result is not None:
        on_event(MatchEnded(result))


def play(
    match: Match,
    seats: Sequence[Seat],
    on_event: OnEvent | None = None,
    *,
    auto: Container[int] = (),
) -> MatchResult:
    """Play ``match`` to its end, ``seats[s]`` choosing the moves of seat ``s``."""
    while (asked := turn(match, auto)) is not None:
        move = asked.forced
        if move is None:
            move = seats[asked.seat].choose(asked.view, asked.legal)
        answer(match, asked, move, on_event)
    result = match.result()
    assert result is not None
    return result


async def play_async(
    match: Match,
    seats: Sequence[AsyncSeat],
    on_event: OnEvent | None = None,
    *,
    auto: Container[int] = (),
) -> MatchResult | None:
    """:func:`play` with seats that wait for their moves. A seat that answers None (it was
    woken for something else: a clock, a change of hands) stops the loop with nothing
    pushed, and the result None: its caller looks at what changed and starts it again."""
    while (asked := turn(match, auto)) is not None:
        move = asked.forced
        if move is None:
            move = await seats[asked.seat].choose(asked.view, asked.legal)
            if move is None:
                return None
        answer(match, asked, move, on_event)
    return match.result()


def playout(rnd: Round, choice: Callable[[Sequence[Move]], Move]) -> int:
    """Push ``choice(rnd.legal_moves())`` until ``rnd`` is over; how many moves it holds.
    With ``random.choice`` this is the benchmark loop of DESIGN.md, the one ``bazar bench``
    and ``benchmarks/peers.py`` time: one round, no seat, no view, nothing told.

    >>> import random, bazar
    >>> playout(bazar.Round(bazar.rules("block"), seed=1), random.Random(0).choice) > 0
    True
    """
    while not rnd.is_over():
        rnd.push(choice(rnd.legal_moves()))
    return len(rnd.moves)
