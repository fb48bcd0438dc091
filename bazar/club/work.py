"""The work a table's state asks for that takes time, done off the event loop: its writes
(:func:`write`, through the club's writer threads) and its bots' thinking (:func:`think`,
in a thread, or in a worker process for a searching bot: a search in a thread would hold
the interpreter lock and slow every answer the server gives meanwhile). Each answers with
the command that tells the state how it went.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from sqlalchemy.orm import Session

from bazar import bots as botlib

from . import tablestate as ts
from .errors import refusal_code
from .settings import Settings
from .storage import Fence, NotStored, TableRow, stored

__all__ = ["Workers", "think", "write"]


class Workers(Protocol):
    """Where searching bots think: the club's worker processes."""

    def processes(self) -> Executor: ...

    def processes_broken(self, pool: Executor) -> None: ...


#: what the end of a match stores with it: (the match, its ending, the transaction) -> the
#: ratings' changes (the club's record and ratings)
Settle = Callable[[Any, dict[str, Any], Session], dict[str, Any] | None]


async def write(
    settings: Settings,
    storage: Any,
    table_id: str,
    fence: Fence | None,
    effect: ts.Write | ts.Seats | ts.Finish,
    settle: Settle | None,
) -> ts.Stored | ts.Failed:
    """Make the write ``effect`` asks for, as :func:`~bazar.club.storage.stored` writes:
    Stored, or Failed when the database never took it (any other error is raised)."""
    # a move is handed over as the storage's own method and its arguments: the writers
    # commit the moves that come at once together (:class:`~bazar.club.storage.Writers`)
    made: Callable[..., Any]
    args: tuple[Any, ...]
    match effect:
        case ts.Write(n=n, seat=seat, text=text):
            made, args = storage.append_move, (table_id, n, seat, text, fence)
        case ts.Seats(seats=seats):
            made = functools.partial(storage.update_table, table_id, fence, seats=seats)
            args = ()
        case ts.Finish(match=match, ending=ending, last=last):
            with_it = None if settle is None else functools.partial(settle, match, ending)
            made, args = storage.finish_match, (table_id, ending, last, with_it, fence)
    try:
        row = await stored(
            settings, made, *args, about=f"table {table_id}", refusal=refusal_code("not_stored")
        )
    except NotStored as error:
        return ts.Failed(error)
    return ts.Stored(row if isinstance(row, TableRow) else None)


async def think(
    bot: botlib.Bot, ask: ts.Ask, workers: Workers | None, executor: Executor | None
) -> ts.Thought:
    """The move of ``bot`` from the view ``ask`` gives; a searching bot thinks in a worker
    process and comes back with its random source moved on."""
    loop = asyncio.get_running_loop()
    if bot.searches and workers is not None:
        pool = workers.processes()
        try:
            move, moved_on = await loop.run_in_executor(
                pool, botlib.think, bot, ask.view, ask.legal
            )
        except BrokenProcessPool:
            # a worker died (killed, out of memory): think here this time
            workers.processes_broken(pool)
        else:
            return ts.Thought(ask.seat, ask.v, move, bot, moved_on)
    move = await loop.run_in_executor(executor, bot.choose, ask.view, ask.legal)
    return ts.Thought(ask.seat, ask.v, move)
