"""The club's coach: the analyses (:mod:`bazar.analysis`) its pages ask for, made in the
search bots' worker processes and never on the event loop, one at a time per player, in the
order they were asked for.

An analysis is asked for by a key (a record and the seats it grades, or a live table's
round and seat) and polled: each ask answers where it stands, ``queued`` (with how many are
ahead of it), ``running`` (with how many of its positions are valued) or ``done`` (with the
analysis). The same analysis asked for by many players is made once. A player who waits for
one analysis is refused another (``analysis_busy``, with how many are ahead of his); the
queue holds ``settings.coach_queue`` analyses at most (``coach_full``).

A finished analysis is handed to the asker's ``keep`` (the club stores a record's with the
record: a page never computes it twice) and kept in memory for the next polls.

The hint of a position (:meth:`Coach.hint`) is one position valued: it waits for no queue,
but a player has one at a time.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from bazar import analysis
from bazar.analysis import Analysis, MoveValue, Plan, Position
from bazar.analysis.analyse import Job as Work
from bazar.core.moves import Move
from bazar.core.view import View

from .errors import ServerError
from .settings import Settings
from .work import Workers

__all__ = ["VERSION", "Coach", "Job"]

log = logging.getLogger("bazar.club")

#: the coach's version: an analysis kept by another version is made again (raise it when
#: the grades change)
VERSION = 1

#: the analyses finished lately, kept in memory for the polls that come for them
KEPT = 64


@dataclass
class Job:
    """One analysis asked for: the work (``make`` gives its plan, off the event loop, and
    where each round's moves start in the whole match), who waits for it, how far it is."""

    key: Hashable
    make: Callable[[], tuple[Plan, dict[int, int]]]
    keep: Callable[[str], Awaitable[None]] | None
    askers: set[Hashable] = field(default_factory=set)
    done: int = 0
    total: int | None = None
    running: bool = False


class Coach:
    """The club's analyses and hints (see the module)."""

    def __init__(self, workers: Workers, settings: Settings) -> None:
        self.workers = workers
        self.settings = settings
        #: the analyses asked for and not finished, by key; those waiting, in order
        self._jobs: dict[Hashable, Job] = {}
        self._queue: deque[Job] = deque()
        #: what each asker waits for
        self._waiting: dict[Hashable, Job] = {}
        #: the analyses finished lately (as JSON), and those that failed (told once)
        self._finished: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
        self._failed: dict[Hashable, ServerError] = {}
        #: the hints being made, by asker; those made lately, by position
        self._hinting: set[Hashable] = set()
        self._hints: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
        self._runner: asyncio.Task[None] | None = None

    # analyses

    def ask(
        self,
        asker: Hashable,
        key: Hashable,
        make: Callable[[], tuple[Plan, dict[int, int]]],
        keep: Callable[[str], Awaitable[None]] | None = None,
    ) -> dict[str, Any]:
        """Where the analysis ``key`` stands for ``asker``, asked for now if it was not
        (``make`` gives its plan: see :class:`Job`)."""
        finished = self._finished.get(key)
        if finished is not None:
            self._finished.move_to_end(key)
            return {"state": "done", "analysis": finished}
        failed = self._failed.pop(key, None)
        if failed is not None:
            raise failed
        job = self._jobs.get(key)
        mine = self._waiting.get(asker)
        if mine is not None and mine is not job:
            raise ServerError("analysis_busy", 429, ahead=self.ahead(mine))
        if job is None:
            if len(self._queue) >= self.settings.coach_queue:
                raise ServerError("coach_full", 503, retry_after=5)
            job = self._jobs[key] = Job(key, make, keep)
            self._queue.append(job)
            self._start()
        job.askers.add(asker)
        self._waiting[asker] = job
        return self.state(job)

    def ahead(self, job: Job) -> int:
        """How many analyses will be made before ``job`` starts (the one running among them)."""
        if job.running:
            return 0
        running = 1 if any(j.running for j in self._jobs.values()) else 0
        return running + self._queue.index(job)

    def state(self, job: Job) -> dict[str, Any]:
        if job.running:
            return {"state": "running", "done": job.done, "total": job.total}
        return {"state": "queued", "ahead": self.ahead(job)}

    def _start(self) -> None:
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        """Make the analyses asked for, one after another, in their order."""
        while self._queue:
            job = self._queue[0]
            job.running = True
            self._queue.popleft()
            try:
                made = await self._made(job)
            except asyncio.CancelledError:
                raise
            except ServerError as error:
                self._failed[job.key] = error
            except Exception:
                log.exception("the coach failed an analysis (%s)", job.key)
                self._failed[job.key] = ServerError("analysis_failed", 500)
            else:
                self._finished[job.key] = made
                while len(self._finished) > KEPT:
                    self._finished.popitem(last=False)
            finally:
                del self._jobs[job.key]
                for asker in job.askers:
                    if self._waiting.get(asker) is job:
                        del self._waiting[asker]

    async def _made(self, job: Job) -> dict[str, Any]:
        planned, starts = await asyncio.to_thread(job.make)
        job.total = planned.positions
        # the rounds are valued ``coach_jobs`` at a time: the other worker processes stay
        # with the bots that search
        slots = asyncio.Semaphore(self.settings.coach_jobs)
        positions: list[list[Position | None]] = [[] for _ in planned.jobs]

        async def one(i: int, work: Work) -> None:
            async with slots:
                positions[i] = await self._valued(analysis.value, work)
                job.done += len(work[0])

        try:
            async with asyncio.TaskGroup() as group:
                for i, work in enumerate(planned.jobs):
                    group.create_task(one(i, work))
        except BaseExceptionGroup as failed:
            # the first round that failed fails the analysis (the others were cancelled)
            raise failed.exceptions[0] from None
        graded = await asyncio.to_thread(
            planned.graded, [p for round_ in positions for p in round_]
        )
        made = _shown(graded, starts)
        if job.keep is not None:
            try:
                await job.keep(_text(made))
            except Exception:
                # not kept: it is made again another time, and shown now
                log.warning("the coach's analysis %s was not stored", job.key)
        return made

    async def _valued(self, do: Callable[..., Any], *args: Any) -> Any:
        """``do(*args)`` in the workers' processes (in a fresh pool once, if a worker died)."""
        loop = asyncio.get_running_loop()
        for _ in range(2):
            pool = self.workers.processes()
            try:
                return await loop.run_in_executor(pool, do, *args)
            except BrokenProcessPool:
                self.workers.processes_broken(pool)
        raise ServerError("analysis_failed", 500)

    # hints

    async def hint(
        self, asker: Hashable, key: Hashable, view: View, legal: Sequence[Move], seed: str
    ) -> dict[str, Any]:
        """The best move of ``view`` and why (its advice against the next best), for
        ``asker``, who may have one hint made at a time; the hint of ``key`` (a table's
        position and seat) is made once."""
        if len(legal) == 1:
            return {"move": str(legal[0]), "forced": True, "advice": None, "values": []}
        given = self._hints.get(key)
        if given is not None:
            return given
        if asker in self._hinting:
            raise ServerError("hint_busy", 429)
        self._hinting.add(asker)
        try:
            position: Position | None = await self._valued(
                analysis.evaluate_view, view, tuple(legal), seed, self.settings.coach_deals
            )
        finally:
            self._hinting.discard(asker)
        if position is None:
            raise ServerError("hint_unvalued", 409)
        best = position.best()
        ranked = [best, *sorted(
            (v for v in position.values if v is not best), key=lambda v: (-v.win, -v.points)
        )]  # fmt: skip
        # why: the principle the next best move would have broken, where one applies
        advice = analysis.advise(view, ranked[1].move, best.move)
        given = self._hints[key] = {
            "move": str(best.move),
            "forced": False,
            "win": round(best.win, 4),
            "points": round(best.points, 3),
            "advice": None if advice is None else advice.to_json(),
            # the move the advice weighs it against: the next best
            "against": str(ranked[1].move),
            "values": [_value(v) for v in ranked],
        }
        while len(self._hints) > KEPT:
            self._hints.popitem(last=False)
        return given

    async def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            await asyncio.wait([self._runner])
            self._runner = None


def _value(value: MoveValue) -> dict[str, Any]:
    return {"move": str(value.move), "win": round(value.win, 4), "points": round(value.points, 3)}


def _shown(graded: Analysis, starts: dict[int, int]) -> dict[str, Any]:
    """The analysis as the page reads it: each move with where it stands in the whole match
    (``at``: the moves before it, as the replay counts them)."""
    shown = graded.to_json()
    for move in shown["moves"]:
        move["at"] = starts.get(move["round"], 0) + move["ply"]
    return shown


def _text(made: dict[str, Any]) -> str:
    return json.dumps(made, ensure_ascii=False, sort_keys=True)
