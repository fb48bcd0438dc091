"""The club's writes: made through :func:`stored`, in a thread, never on the event loop its
tables and sockets answer on. A write that waits for a lock holds up only the request (or the
table) that made it, and one the database refuses again and again is refused in turn
(:class:`NotStored`)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import queue
import threading
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, cast

from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from ..errors import ServerError, refusal_code
from ..settings import Settings
from .tables import SqlTables

__all__ = ["NotStored", "Writers", "stored"]

log = logging.getLogger("bazar.club")

T = TypeVar("T")


class NotStored(ServerError):
    """A write the database refused again and again (locked, out of reach): nothing that
    waited for it is made. ``code`` tells whoever asked: ``db_busy`` by default (503)."""

    def __init__(self, code: str = refusal_code("db_busy"), retry_after: int = 1) -> None:
        super().__init__(code, 503, retry_after=retry_after)


async def stored(
    settings: Settings,
    write: Callable[..., T],
    *args: Any,
    about: str = "the club",
    refusal: str = refusal_code("db_busy"),
) -> T:
    """``write(*args)`` (a store's method) in a writer thread (:class:`Writers`),
    off the event loop; tried again while the database refuses it (locked, out of reach),
    ``settings.db_retries`` times, first after ``settings.db_retry_s`` and each next time
    after twice as long; then :class:`NotStored` with the code ``refusal``. ``about`` names
    the writer in the log.

    Only ``write`` runs in the thread: what it gives back is made on the loop, by the caller.
    """
    wait, tries = settings.db_retry_s, 0
    while True:
        try:
            return await Writers.write(write, args, most=settings.db_pool_size)
        except (OperationalError, PoolTimeout) as error:
            tries += 1
            if tries > settings.db_retries:
                log.error("%s: the database refused a write %d times (%s)", about, tries, error)
                # worth asking again after the pause the next try would have waited
                raise NotStored(refusal, retry_after=max(1, math.ceil(wait))) from error
            log.warning(
                "%s: the database refused a write (%s), trying again in %.2f s", about, error, wait
            )
        await asyncio.sleep(wait)
        wait *= 2


#: seconds a writer thread waits for the next write before it ends
WRITER_IDLE_S = 2.0

#: a write made: the future that waits for it, its result, or the exception it raised
Made = tuple["asyncio.Future[Any]", Any, BaseException | None]


class Writers:
    """The threads that make one event loop's writes: as many as there are writes at once,
    up to ``most``, each taking the next write from one queue; one that has waited
    :data:`WRITER_IDLE_S` for a write ends. Handing a write over costs a put in that queue
    and, once it is made, one call on the loop (``asyncio.to_thread`` makes a thread pool's
    future, with a lock and a condition, and chains it to one of the loop's).

    The moves are committed together: a move handed over while another of the same table
    store (:class:`SqlTables`) waits for its transaction, or is being stored, joins the next
    transaction of that store, which stores every move that came meanwhile
    (:meth:`SqlTables.append_moves`). A club of a thousand tables, each move a write, then
    makes a commit for several moves, and one store's moves never wait for each other's
    locks."""

    _lock: ClassVar[threading.Lock] = threading.Lock()
    _of: ClassVar[dict[asyncio.AbstractEventLoop, Writers]] = {}

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        #: the threads, and those of them waiting for a write
        self.threads = self.idle = 0
        #: each store's moves waiting for its next transaction, while one is due or made
        self.moves: dict[SqlTables, list[tuple[tuple[Any, ...], asyncio.Future[Any]]]] = {}

    @classmethod
    def write(cls, write: Callable[..., T], args: tuple[Any, ...], most: int) -> asyncio.Future[T]:
        """``write(*args)`` in one of the running loop's writer threads: its result, or its
        exception, once it is made."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with cls._lock:
            writers = cls._of.get(loop)
            if writers is None:
                writers = cls._of[loop] = cls(loop)
            if getattr(write, "__func__", None) is SqlTables.append_move:
                tables: SqlTables = cast(Any, write).__self__
                waiting = writers.moves.get(tables)
                if waiting is not None:
                    waiting.append((args, future))
                    return future
                writers.moves[tables] = [(args, future)]
                job = functools.partial(writers._append, tables)
            else:
                job = functools.partial(writers._make, write, args, future)
            writers.queue.put(job)
            if writers.idle < writers.queue.qsize() and writers.threads < most:
                writers.threads += 1
                threading.Thread(target=writers._work, name="bazar-writer", daemon=True).start()
        return future

    def _work(self) -> None:
        while True:
            with self._lock:
                self.idle += 1
            try:
                job = self.queue.get(timeout=WRITER_IDLE_S)
            except queue.Empty:
                with self._lock:
                    self.idle -= 1
                    if self.queue.empty():
                        self.threads -= 1
                        if self.threads == 0:
                            del self._of[self.loop]
                        return
                continue
            with self._lock:
                self.idle -= 1
            job()
            # what the write held (a table, its match) is not kept alive while this thread
            # waits for the next one
            del job

    def _make(self, write: Callable[..., Any], args: tuple[Any, ...], future: Any) -> None:
        made: Made
        try:
            made = (future, write(*args), None)
        except BaseException as error:
            made = (future, None, error)
        self._tell([made])

    def _append(self, tables: SqlTables) -> None:
        """Store the waiting moves of ``tables``, a transaction at a time, until none waits."""
        while True:
            with self._lock:
                batch, self.moves[tables] = self.moves[tables], []
            self._tell(_append_together(tables, batch))
            with self._lock:
                if not self.moves[tables]:
                    del self.moves[tables]
                    return

    def _tell(self, made: list[Made]) -> None:
        # a loop closed meanwhile has nobody waiting for the writes
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(_settle, made)


def _append_together(
    tables: SqlTables, batch: list[tuple[tuple[Any, ...], asyncio.Future[Any]]]
) -> list[Made]:
    """Store the moves of ``batch`` in one transaction: (future, result, error) of each. A
    database that refuses the transaction (locked, out of reach) refuses each move, to be
    tried again; one move that cannot be stored (a lease lost) must not take the others
    with it: they are then stored one by one, each with its own outcome."""
    made: list[Made] = []
    if len(batch) > 1:
        try:
            tables.append_moves([args for args, _ in batch])
            return [(future, None, None) for _, future in batch]
        except (OperationalError, PoolTimeout) as error:
            return [(future, None, error) for _, future in batch]
        except Exception:
            pass
    for args, future in batch:
        try:
            tables.append_move(*args)
            made.append((future, None, None))
        except BaseException as error:
            made.append((future, None, error))
    return made


def _settle(made: list[Made]) -> None:
    for future, result, error in made:
        if future.cancelled():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
