"""A record's moves graded (:func:`analyse`): each position as its player saw it, every legal
move valued (:mod:`bazar.analysis.values`), the move played against the best.

The positions are independent, so they are valued in parallel (``jobs`` processes), each from
a seed of its own made from the analysis's seed and where it stands in the match: the result
is the same whatever the number of processes or the order they finish in.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bazar.core.match import Match
from bazar.core.moves import Move
from bazar.core.view import View

from .advice import Advice, advise
from .grades import SYMBOLS, Thresholds, accuracy, mean_accuracy
from .values import DEALS, MoveValue, Position, evaluate_view

__all__ = ["Analysis", "GradedMove", "Spot", "analyse", "spots"]


@dataclass(frozen=True)
class Spot:
    """One move of a match as its player faced it: the round's number, the move's index in
    the round, the seat, its view before the move, the legal moves and the move made."""

    round: int
    ply: int
    seat: int
    view: View
    legal: tuple[Move, ...]
    played: Move

    @property
    def forced(self) -> bool:
        return len(self.legal) == 1

    def seed(self, seed: int) -> str:
        """The seed this position is valued from (its place in the match, the analysis's
        seed)."""
        return f"{seed}:{self.round}:{self.ply}"


@dataclass(frozen=True)
class GradedMove:
    """A move graded: where it was played, every legal move's value, the best one, what the
    move played gave up (``loss``: of the winning chances on -1..1; ``points_lost``: of the
    round's points), its grade and accuracy, and why, where a principle applies."""

    round: int
    ply: int
    seat: int
    played: Move
    best: Move
    values: tuple[MoveValue, ...]
    loss: float
    points_lost: float
    grade: str
    accuracy: float | None
    advice: Advice | None = None
    #: the side's chance to win the match before the move (its best move's) and after it
    win_before: float = 0.0
    win_after: float = 0.0

    @property
    def is_best(self) -> bool:
        """Whether the move played was its position's best."""
        return self.played == self.best

    @property
    def symbol(self) -> str:
        """The move list's mark: ``?!``, ``?``, ``??`` or nothing."""
        return SYMBOLS.get(self.grade, "")

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "ply": self.ply,
            "seat": self.seat,
            "played": str(self.played),
            "best": str(self.best),
            "grade": self.grade,
            "is_best": self.is_best,
            "symbol": self.symbol,
            "loss": round(self.loss, 4),
            "points_lost": round(self.points_lost, 3),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "win_before": round(self.win_before, 4),
            "win_after": round(self.win_after, 4),
            "values": [
                {"move": str(v.move), "win": round(v.win, 4), "points": round(v.points, 3)}
                for v in self.values
            ],
            "advice": None if self.advice is None else self.advice.to_json(),
        }


@dataclass
class Analysis:
    """A match's graded moves, in the order they were played, and each player's accuracy
    by round and over the match."""

    seats: tuple[int, ...]
    moves: list[GradedMove]
    seed: int
    deals: int
    thresholds: Thresholds = field(default_factory=Thresholds)
    #: positions that could not be valued (a game dealt blind from a view: Kolbasa)
    unvalued: int = 0

    def of(self, seat: int) -> list[GradedMove]:
        return [m for m in self.moves if m.seat == seat]

    def accuracy(self, seat: int, round: int | None = None) -> float | None:
        """``seat``'s accuracy over the match, or over one ``round``; None where it made no
        choice."""
        return mean_accuracy(
            m.accuracy
            for m in self.moves
            if m.seat == seat and m.accuracy is not None and round in (None, m.round)
        )

    def counts(self, seat: int) -> dict[str, int]:
        """How many of ``seat``'s moves got each grade."""
        counts: dict[str, int] = {}
        for m in self.of(seat):
            counts[m.grade] = counts.get(m.grade, 0) + 1
        return counts

    def worst(self, seat: int, n: int = 3) -> list[GradedMove]:
        """``seat``'s ``n`` moves that gave up the most (those that gave up something)."""
        lost = [m for m in self.of(seat) if m.loss > 0 and m.grade != "forced"]
        return sorted(lost, key=lambda m: (-m.loss, m.round, m.ply))[:n]

    def to_json(self) -> dict[str, Any]:
        rounds = sorted({m.round for m in self.moves})
        return {
            "seed": self.seed,
            "deals": self.deals,
            "thresholds": {
                "inaccuracy": self.thresholds.inaccuracy,
                "mistake": self.thresholds.mistake,
                "blunder": self.thresholds.blunder,
            },
            "unvalued": self.unvalued,
            "players": [
                {
                    "seat": seat,
                    "accuracy": _rounded(self.accuracy(seat)),
                    "rounds": {str(r): _rounded(self.accuracy(seat, r)) for r in rounds},
                    "grades": self.counts(seat),
                }
                for seat in self.seats
            ],
            "moves": [m.to_json() for m in self.moves],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def spots(match: Match, seats: Sequence[int] | None = None) -> Iterator[Spot]:
    """Every move of ``match`` as its player faced it (of ``seats`` only, where given), in the
    order played: each round replayed from its deal, the view of the seat to move taken
    with the match's scores as they stood."""
    for rnd in match.rounds:
        replay = rnd.copy()
        moves = list(replay.moves)
        for _ in moves:
            replay.pop()
        start = replay.ledger
        for ply, move in enumerate(moves):
            seat = replay.turn
            assert seat is not None
            if seats is None or seat in seats:
                ledger = start
                for scorer, points in replay.scoring():
                    ledger = ledger.score(scorer, points)
                view = View.of(replay, seat, scores=ledger.public())
                yield Spot(rnd.number, ply, seat, view, tuple(replay.legal_moves()), move)
            replay.push(move)


#: the standard errors of noise taken off a move's loss before it is graded
NOISE_Z = 1.0

#: the positions of one round, the analysis's seed and its deals: one process's share
Job = tuple[list[Spot], int, int]


def value(job: Job) -> list[Position | None]:
    """The positions of one round valued (a round at a time, so that a process meets the
    ledgers its round's ends settle into again: :class:`~bazar.analysis.MatchEquity` keeps
    them). A forced move is valued over a quarter of the deals: only the graph reads it."""
    todo, seed, deals = job
    return [
        evaluate_view(
            spot.view, spot.legal, spot.seed(seed), max(8, deals // 4) if spot.forced else deals
        )
        for spot in todo
    ]


def grade(
    spot: Spot, position: Position | None, thresholds: Thresholds | None = None
) -> GradedMove | None:
    """``spot``'s move graded from its ``position`` (None: it could not be valued)."""
    thresholds = thresholds or Thresholds()
    if position is None:
        return None
    best = position.best()
    played = position.of(spot.played)
    # what the analysis is sure of: the loss less one standard error of its noise (the
    # deals dealt), so that a move is not marked for the luck of the deals; the best of
    # several noisy values is also a little too good, and this takes that back
    raw = 2.0 * (best.win - played.win)
    loss = max(0.0, raw - NOISE_Z * 2.0 * position.noise(best.move, played.move))
    points_lost = max(0.0, best.points - played.points)
    if spot.forced:
        return GradedMove(
            spot.round, spot.ply, spot.seat, spot.played, spot.played, position.values,
            0.0, 0.0, "forced", None, None, played.win, played.win,
        )  # fmt: skip
    mark = thresholds.grade(loss)
    advice = advise(spot.view, spot.played, best.move) if mark in SYMBOLS else None
    return GradedMove(
        spot.round, spot.ply, spot.seat, spot.played, best.move, position.values,
        loss, points_lost, mark, accuracy(loss), advice, best.win, played.win,
    )  # fmt: skip


def analyse(
    match: Match | str,
    seat: int | Sequence[int] | None = None,
    deals: int = DEALS,
    seed: int = 0,
    jobs: int = 1,
    thresholds: Thresholds | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Every move of ``match`` (a :class:`~bazar.Match` or a record's text) graded, or those of
    ``seat`` (one or several); each position valued over ``deals`` deals from ``seed``, in
    ``jobs`` processes. ``progress(done, total)`` is told after each position."""
    from bazar.core import record

    if isinstance(match, str):
        match = record.loads(match)
    if deals < 1:
        raise ValueError("an analysis needs one deal at least")
    if jobs < 1:
        raise ValueError("an analysis needs one job at least")
    thresholds = thresholds or Thresholds()
    planned = plan(match, seat, seed, deals)
    todo = [spot for job in planned.jobs for spot in job[0]]
    positions: list[Position | None] = []
    if jobs == 1 or len(planned.jobs) < 2:
        results: Iterator[list[Position | None]] = map(value, planned.jobs)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=min(jobs, len(planned.jobs)))
        results = pool.map(value, planned.jobs)
    try:
        for valued in results:
            positions.extend(valued)
            if progress is not None:
                progress(len(positions), len(todo))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return planned.graded(positions, thresholds)


@dataclass(frozen=True)
class Plan:
    """An analysis cut into its work: the positions of each round to value (:func:`value`,
    anywhere: each job is picklable), then :meth:`graded` with what they were worth."""

    seats: tuple[int, ...]
    jobs: list[Job]
    seed: int
    deals: int

    @property
    def positions(self) -> int:
        return sum(len(job[0]) for job in self.jobs)

    def graded(
        self, positions: Sequence[Position | None], thresholds: Thresholds | None = None
    ) -> Analysis:
        """The analysis, from the value of every position of :attr:`jobs` in their order."""
        thresholds = thresholds or Thresholds()
        todo = [spot for job in self.jobs for spot in job[0]]
        graded: list[GradedMove] = []
        unvalued = 0
        for spot, position in zip(todo, positions, strict=True):
            move = grade(spot, position, thresholds)
            if move is None:
                unvalued += 1
            else:
                graded.append(move)
        return Analysis(self.seats, graded, self.seed, self.deals, thresholds, unvalued)


def plan(
    match: Match,
    seat: int | Sequence[int] | None = None,
    seed: int = 0,
    deals: int = DEALS,
    rounds: Sequence[int] | None = None,
) -> Plan:
    """The work of analysing ``match`` for ``seat`` (one or several; every seat where None),
    of the rounds numbered ``rounds`` only where given: a job per round."""
    if deals < 1:
        raise ValueError("an analysis needs one deal at least")
    players = match.rules.players
    if seat is None:
        seats: tuple[int, ...] = tuple(range(players))
    else:
        seats = (seat,) if isinstance(seat, int) else tuple(seat)
    for s in seats:
        if not 0 <= s < players:
            raise ValueError(f"seat {s} is not at this table (seats 0 to {players - 1})")
    by_round: dict[int, list[Spot]] = {}
    for spot in spots(match, seats):
        if rounds is None or spot.round in rounds:
            by_round.setdefault(spot.round, []).append(spot)
    return Plan(seats, [(group, seed, deals) for group in by_round.values()], seed, deals)
