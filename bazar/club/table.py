"""A live table: the actor that runs a :class:`~bazar.club.tablestate.TableState` (the
Lichess round actor). The state holds every rule of the table; the actor feeds it commands
in order, one at a time, and performs the effects it answers with: it writes to the database
(off the event loop, and nothing else is fed until the write's answer), asks the bots,
tells every audience (:mod:`~bazar.club.audience`) and wakes the state when it
asked to be (one timer for every table, :mod:`~bazar.club.timers`).

Clients never touch the match. A socket's hello names the last version it saw; it hears
nothing of the table until the answer, a sync of the events it missed and its current view,
then each later event once.

Bots think off the event loop, so a slow one never holds up the other tables and sockets
(but the random and the greedy one, whose microsecond's answer a thread's round trip would
cost a hundred times over): the others in a thread, the searching ones in a worker process.
An actor that fails is its club's to restart (``on_crash``).
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

from bazar.core import record
from bazar.core.match import Match

from . import audience, work
from . import tablestate as ts
from .audience import Client
from .fairness import seed_hash
from .settings import Settings
from .storage import Fence, TableRow, TableStore
from .tablestate import RELOAD_S, REPLACEMENT, TableError, TableState, rules_of
from .timers import timers

__all__ = ["RELOAD_S", "REPLACEMENT", "RESTART", "Client", "Table", "TableError", "rules_of"]
__all__ += ["seed_hash"]

log = logging.getLogger("bazar.club")

#: what the end of a match stores besides the table's ending (the club's record and ratings):
#: (the table, the match, its ending, the transaction that stores it) -> the ratings' changes
Settle = Callable[["Table", Match, dict[str, Any], Session], dict[str, Any] | None]

#: the close code and reason of a socket whose table was rebuilt (WebSocket's "service
#: restart"): the client comes again and hears the rebuilt table in its sync
RESTART = (1012, "table restarted")


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
        #: the clients, each with the seat the state was told it has
        self.clients: dict[Client, int | None] = {}
        #: the club's changes of the seats, one at a time
        self.seating = asyncio.Lock()
        #: what waits for the state: commands, and the hellos that must see it settled
        self._queue: deque[ts.Command | Callable[[], None]] = deque()
        self._tasks: set[asyncio.Task[None]] = set()
        #: set once the table is stopped or failed: it does nothing more
        self.stopped = False

    # what the state says

    @property
    def row(self) -> TableRow:
        return self.state.row

    @row.setter
    def row(self, row: TableRow) -> None:
        self.state.row = row

    @property
    def rematch_closes(self) -> float | None:
        return self.state.rematch_closes

    @rematch_closes.setter
    def rematch_closes(self, when: float | None) -> None:
        self.state.rematch_closes = when

    @property
    def id(self) -> str:
        return self.state.row.id

    @property
    def running(self) -> bool:
        """Whether the table still plays or waits for a rematch (not stopped, not closed)."""
        return not self.stopped and not self.state.closed

    def __getattr__(self, name: str) -> Any:
        # what the state knows: rules, badge, events, bots, live, turn_started, pause ...
        if name in _OF_STATE:
            return getattr(self.state, name)
        raise AttributeError(name)

    @property
    def match(self) -> Match | None:
        """The match after its last stored move, a copy the table never changes (what
        other threads may read)."""
        return self.state.published

    def info(self) -> dict[str, Any]:
        return self._now().info()

    def clock(self) -> dict[str, Any] | None:
        return self._now().clock()

    def seat_of(self, user_id: int) -> int | None:
        return self.state.seat_of(user_id)

    def reservations(self) -> dict[int, tuple[int, str]]:
        return self._now().reservations()

    def view_json(self, seat: int | None) -> dict[str, Any] | None:
        return self.state.view_json(seat)

    def _current(self, v: int) -> bool:
        return self.state.current(v)

    def _now(self) -> TableState:
        self.state.now = time.monotonic()
        return self.state

    def record_text(self) -> str:
        assert self.match is not None
        return record.dumps(self.match)

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

    def close_clients(self, code: int, reason: str) -> None:
        """Close every client's socket (the table is rebuilt, or stopped): what they have not
        been sent yet they hear in the sync of their next socket."""
        for client in list(self.clients):
            client.drop(code, reason)

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
                    self._emit(event)
                case ts.Notice(event=event, but=but):
                    self.notify(event, but)  # type: ignore[arg-type]  # a client
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

    # who is at the table

    def attach(self, client: Client) -> None:
        """A socket opened (its player is at the table), or named its seat again."""
        if client in self.clients:
            if self.clients[client] == client.seat:
                return
            self._feed(ts.Detach(self.clients[client]))
        self.clients[client] = client.seat
        self._feed(ts.Attach(client.seat, client))

    def detach(self, client: Client) -> None:
        """A socket closed; the state looks again at the seats' graces, or at who is left."""
        if client in self.clients:
            self._feed(ts.Detach(self.clients.pop(client)))

    def hello(self, client: Client, since: int) -> None:
        """A socket's hello: its sync, then every event after it, each once (the sync is made
        once the state has settled what it is doing). A later hello costs little: only what
        a sync still unsent held is sent again."""
        self.attach(client)
        self._feed(functools.partial(self._sync, client, since))

    def _sync(self, client: Client, since: int) -> None:
        if client.listening:
            unsent = client.take_back_sync()
            since = self.state.v if unsent is None else unsent
        client.send_sync(audience.sync(self._now(), client.seat, since))
        client.listening = True

    def _request(self, client: Client, make: Callable[[int], ts.Command]) -> None:
        if client.seat is None:
            client.refuse(TableError("spectator"))
        elif self.state.match is not None and not self.state.live and self.state.writing is None:
            client.refuse(TableError("match_over"))
        else:
            self._feed(make(client.seat))

    def submit(self, client: Client, text: str, v: int | None = None) -> None:
        self._request(client, lambda seat: ts.Submit(client, seat, text, v))

    def take_back(self, client: Client) -> None:
        self._request(client, lambda seat: ts.Back(client, seat))

    def leave(self, client: Client) -> None:
        self._request(client, lambda seat: ts.Leave(client, seat))

    def seen_round_end(self, client: Client) -> None:
        if client.seat is not None and self.state.pause is not None:
            self._feed(ts.Next(client, client.seat))

    # telling

    def listeners(self) -> list[Client]:
        """The clients whose hello has been answered (every other one will hear it in its sync)
        and that are not dropped."""
        return [c for c in self.clients if c.listening and c.closing is None]

    def _emit(self, event: dict[str, Any]) -> None:
        audience.broadcast(self.listeners(), audience.event(self._now(), event))

    def notify(self, event: dict[str, Any], but: Client | None = None) -> None:
        """Tell the clients of a change that is not part of the game (unversioned)."""
        audience.broadcast(self.listeners(), audience.notice(self._now(), event), but)

    def announce(self) -> None:
        """Tell every client the table's seats and status (unversioned: not part of the game)."""
        audience.broadcast(self.listeners(), audience.table(self._now()))

    def close(self) -> None:
        """The table is given up before it started: its clients hear so."""
        self.notify({"t": "closed"})


#: what a table answers of its state
_OF_STATE = frozenset(
    ("rules", "badge", "events", "bots", "live", "turn_started", "pause", "gone", "replaced")
)
