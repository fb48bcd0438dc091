"""A live table: the actor that runs a :class:`~bazar.club.tablestate.TableState` (the
Lichess round actor). The state holds every rule of the table; the actor feeds it commands
in order, one at a time, and performs the effects it answers with: it writes to the database
(off the event loop, and nothing else is fed until the write's answer), asks the bots (off
the event loop but the quick ones, :mod:`~bazar.club.work`), tells its clients
(:mod:`~bazar.club.audience`, which also hears what they ask) and wakes the state when it
asked to be (one timer for every table, :mod:`~bazar.club.timers`). An actor that fails is
its club's to restart (``on_crash``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any

from sqlalchemy.orm import Session

from bazar.core.match import Match

from . import audience, work
from . import tablestate as ts
from .settings import Settings
from .storage import Fence, TableRow, TableStore
from .tablestate import TableState
from .timers import timers

__all__ = ["Settle", "Table"]

log = logging.getLogger("bazar.club")

#: what the end of a match stores besides the table's ending (the club's record and ratings):
#: (the table, the match, its ending, the transaction that stores it) -> the ratings' changes
Settle = Callable[["Table", Match, dict[str, Any], Session], dict[str, Any] | None]


class Table:
    """A table of the club: its state, its clients, and the work its state asks for."""

    def __init__(
        self,
        row: TableRow,
        storage: TableStore,
        *,
        bot_delay: float = 0.5,
        unwatched_bot_delay: float = 0.0,
        grace_s: float = 60.0,
        rematch_window_s: float = 120.0,
        executor: Executor | None = None,
        processes: work.Workers | None = None,
        on_finish: Settle | None = None,
        on_close: Callable[[Table], None] | None = None,
        on_crash: Callable[[Table, BaseException], None] | None = None,
        on_change: Callable[[Table], None] | None = None,
        settings: Settings | None = None,
        fence: Fence | None = None,
        badge: dict[str, Any] | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.state = TableState(
            row, self.settings, bot_delay, unwatched_bot_delay, grace_s, rematch_window_s,
            badge, time.monotonic(),
        )  # fmt: skip
        self.storage, self.fence = storage, fence
        self.executor, self.workers = executor, processes
        self.on_finish, self.on_close, self.on_crash = on_finish, on_close, on_crash
        #: told when what the lobby lists of the table changes (it ended, a bot took a seat)
        self.on_change = on_change
        #: its clients, and what they are told
        self.audience = audience.Audience(self.state, self._feed)
        #: the club's changes of the seats, one at a time
        self.seating = asyncio.Lock()
        #: what waits for the state: commands, and the hellos that must see it settled
        self._queue: deque[ts.Command | Callable[[], None]] = deque()
        self._tasks: set[asyncio.Task[None]] = set()
        #: set once the table is stopped or failed: it does nothing more
        self.stopped = False

    # what the state says (and the audience: its clients, and what it tells them)

    @property
    def row(self) -> TableRow:
        return self.state.row

    @row.setter
    def row(self, row: TableRow) -> None:
        self.state.row = row

    @property
    def id(self) -> str:
        return self.state.row.id

    @property
    def running(self) -> bool:
        """Whether the table still plays or waits for a rematch (not stopped, not closed)."""
        return not self.stopped and not self.state.closed

    @property
    def match(self) -> Match | None:
        """The match after its last stored move, a copy the table never changes (what
        other threads may read)."""
        return self.state.published

    def info(self) -> dict[str, Any]:
        return self.audience.now().info()

    def seat_of(self, user_id: int) -> int | None:
        return self.state.seat_of(user_id)

    # starting, restoring, stopping

    def start(self) -> None:
        """Deal the match (the seats are full) and announce the first round."""
        self._feed(ts.Start())

    def restore(self, moves: list[str]) -> None:
        """Rebuild the match and the event log from the stored moves (after a restart)."""
        self.state.restore(moves, time.monotonic())

    def run(self) -> None:
        """Let the table look at its clocks and seats, once the sockets that found it have
        come in (in the running event loop)."""
        asyncio.get_running_loop().call_soon(self._wake)

    def halt(self) -> None:
        """Stop the table's work: its write, its bots' thinking, its timer."""
        self.stopped = True
        timers().cancel(self)
        for task in list(self._tasks):
            task.cancel()

    async def stop(self) -> None:
        """:meth:`halt`, and wait until its work has stopped."""
        self.halt()
        if self._tasks:
            await asyncio.wait(list(self._tasks))

    # the actor

    def _feed(self, item: ts.Command | Callable[[], None]) -> None:
        self._queue.append(item)
        self._drain()

    def _drain(self) -> None:
        """Feed the state what waits, in order, while no write is out."""
        state = self.state
        while not self.stopped and self._queue and state.writing is None:
            item = self._queue.popleft()
            if callable(item):
                item()
            else:
                self._step(item)
        if not self.stopped and state.writing is None:
            timers().at(self, state.wake_at(), self._wake)

    def _wake(self) -> None:
        self._feed(ts.Tick())

    def _step(self, command: ts.Command) -> None:
        try:
            self._perform(self.state.step(command, time.monotonic()))
        except Exception as error:
            self._crash(error)

    def _perform(self, effects: ts.Step) -> None:
        for effect in effects:
            match effect:
                case ts.Emit(event=event):
                    self.audience.emit(event)
                case ts.Notice(event=event, but=but):
                    # the state holds its clients as objects: it knows no sockets
                    self.audience.notify(event, but)  # type: ignore[arg-type]  # a client
                case ts.Refuse(client=client, error=error):
                    client.refuse(error)  # type: ignore[attr-defined]  # a client
                case ts.Write() | ts.Seats() | ts.Finish():
                    settle = self.on_finish and functools.partial(self.on_finish, self)
                    store = self.settings, self.storage, self.id, self.fence
                    self._spawn(work.write(*store, effect, settle))
                case ts.Ask():
                    self._ask(effect)
                case ts.Changed():
                    if self.on_change is not None:
                        self.on_change(self)
                case ts.Close():
                    if self.on_close is not None:
                        self.on_close(self)

    def _spawn(self, doing: Awaitable[ts.Command]) -> None:
        """Do ``doing`` off the loop's turn, and feed the state its answer: a write's at
        once (nothing else is fed while it is out), a bot's in turn."""

        async def answer() -> None:
            try:
                command = await doing
            except Exception as error:
                self._crash(error)
                return
            if isinstance(command, ts.Stored | ts.Failed):
                self._step(command)
                self._drain()
            else:
                self._feed(command)

        task = asyncio.get_running_loop().create_task(answer())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _crash(self, error: BaseException) -> None:
        """The actor failed: the club is told (never lost unseen)."""
        self.stopped = True
        timers().cancel(self)
        if self.on_crash is None:
            log.error("table %s failed", self.id, exc_info=error)
            return
        self.on_crash(self, error)

    def _ask(self, ask: ts.Ask) -> None:
        bot = self.state.bots[ask.seat]
        if bot.quick:
            # a microsecond's answer: a thread's round trip would cost a hundred times more
            # (in turn: a request that came meanwhile is not put off by the bots' moves)
            self._queue.append(ts.Thought(ask.seat, ask.v, bot.choose(ask.view, ask.legal)))
        else:
            self._spawn(work.think(bot, ask, self.workers, self.executor))
