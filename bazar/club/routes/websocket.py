"""The websocket of a table: one reader, one writer, and a drop, whichever ends first; the
reader holds a client to the message rate. The lobby's websocket only writes: the list of
open tables, whenever it changes."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from bazar.club.audience import Client
from bazar.club.club import Elsewhere
from bazar.club.errors import ServerError
from bazar.club.lobby import Watcher
from bazar.club.routing import dispatch
from bazar.club.table import Table
from bazar.club.tablestate import TableError

from .http import RouteGroup

#: the close code and reason of a socket that sends far more than Settings.messages_per_s
TOO_MANY = (4029, "too many messages")
#: how long a dropped socket's close frame may wait to be written (seconds)
CLOSE_TIMEOUT_S = 10.0


class SocketRoutes(RouteGroup):
    """``/ws/lobby`` and ``/ws/{table_id}``."""

    def routes(self) -> list[BaseRoute]:
        # the lobby first: a table's id is never "lobby" (it is 11 characters long)
        return [
            WebSocketRoute("/ws/lobby", self.lobby),
            WebSocketRoute("/ws/{table_id}", self.socket),
        ]

    async def lobby(self, ws: WebSocket) -> None:
        """The lobby's list of open tables, now and at each change, until the page goes; what
        it sends is read only to hear it go (and to hold it to the message rate)."""
        await ws.accept()
        watcher = await self.club.lobby.watch()
        tasks = [
            asyncio.create_task(self._hear_lobby(ws)),
            asyncio.create_task(_write_lobby(ws, watcher)),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.club.lobby.unwatch(watcher)
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks)
        for task in tasks:
            if task.done() and not task.cancelled() and task.result():
                await _close(ws, *TOO_MANY)

    async def _hear_lobby(self, ws: WebSocket) -> bool:
        """Read the lobby socket until it closes (False) or sends far too much (True)."""
        bucket = Bucket(self.settings.messages_per_s, self.settings.message_burst)
        with contextlib.suppress(WebSocketDisconnect):
            while (await ws.receive())["type"] != "websocket.disconnect":
                if bucket.take() < -self.settings.message_burst:
                    return True
        return False

    async def socket(self, ws: WebSocket) -> None:
        await ws.accept()
        table_id = ws.path_params["table_id"]
        try:
            user = await self.user_of(ws)
            try:
                table: Table | None = await self.club.find(table_id)
            except Elsewhere as away:
                if self.club.router is None:
                    raise
                # the table lives in another process: this one is the socket's edge
                table, owner = None, away.node
        except ServerError as error:
            await ws.send_json({"type": "error", **error.to_json()})
            # no such table (or one that cannot be reached); else a database too busy to
            # upgrade an old cookie (come again)
            code = (
                4404 if isinstance(error, TableError) and not isinstance(error, Elsewhere) else 1013
            )
            await ws.close(code=code)
            return
        user_id = None if user is None else user.id
        router = self.club.router
        if table is not None:
            client = Client(
                seat=None if user is None else table.seat_of(user.id), limit=self.settings.outbox
            )
            table.audience.attach(client)
            here = table

            def said(text: str) -> None:
                dispatch(here, client, text, user_id)

            def gone() -> None:
                here.audience.detach(client)
        else:
            assert router is not None
            client = Client(seat=None, limit=self.settings.outbox)
            cid = router.open_edge(table_id, owner, client, user_id)

            def said(text: str) -> None:
                assert router is not None
                router.forward(cid, text)

            def gone() -> None:
                assert router is not None
                router.close_edge(cid)

        if user_id is not None:
            await self.club.arrived(user_id)
        try:
            await self._serve(ws, client, said, gone)
        finally:
            if user_id is not None:
                self.club.left(user_id)

    async def _serve(
        self, ws: WebSocket, client: Client, said: Callable[[str], None], gone: Callable[[], None]
    ) -> None:
        """Serve a table's socket: what it sends goes to ``said`` (held to the club's limits),
        what its client is sent is written to it, until it closes, is dropped or stops
        reading; then ``gone()``."""
        # the socket lives while it reads, writes and is not dropped: whichever ends first
        tasks = [
            asyncio.create_task(self._listen(ws, client, said)),
            asyncio.create_task(_write(ws, client)),
            asyncio.create_task(client.dropped.wait()),
        ]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone()
            for task in tasks:
                task.cancel()
            # wait, not gather: gather would raise their cancellation as if it were this one's
            await asyncio.wait(tasks)
        for task in done:
            task.result()
        if client.closing is not None:
            await _close(ws, *client.closing)

    async def _listen(self, ws: WebSocket, client: Client, said: Callable[[str], None]) -> None:
        settings = self.settings
        bucket = Bucket(settings.messages_per_s, settings.message_burst)
        held_back = False
        with contextlib.suppress(WebSocketDisconnect):
            while client.closing is None:
                # the writer takes what the last message earned before the next is read: a
                # client that sends many at once has not stopped reading
                await asyncio.sleep(0)
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                left = bucket.take()
                if left < -settings.message_burst:
                    client.drop(*TOO_MANY)
                    return
                if left < 0:
                    # told once; what it sends while held back is dropped unread
                    if not held_back:
                        client.refuse(ServerError("too_fast", rate=settings.messages_per_s))
                    held_back = True
                    continue
                held_back = False
                text = message.get("text")
                if text is None:
                    client.refuse(ServerError("text_frames"))
                    continue
                if len(text) > settings.max_message:
                    client.refuse(ServerError("message_too_large", limit=settings.max_message))
                    continue
                said(text)


async def _write(ws: WebSocket, client: Client) -> None:
    # a client that went away ends its writer quietly; the reader sees the disconnect
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await client.next()
            if isinstance(message, str):
                await ws.send_text(message)
            else:
                await ws.send_json(message)


async def _write_lobby(ws: WebSocket, watcher: Watcher) -> bool:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            await ws.send_json(await watcher.next())
    return False


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    """Close a socket the club drops; one that does not read may never take the close frame,
    and is left to the server to hang up."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError, TimeoutError):
        async with asyncio.timeout(CLOSE_TIMEOUT_S):
            await ws.close(code, reason)


@dataclass
class Bucket:
    """A token bucket: ``burst`` messages at once, then ``rate`` a second. Each message takes
    a token, refused or not, so one that keeps sending while held back sinks below zero and
    one that pauses comes back.

    >>> bucket = Bucket(rate=1.0, burst=2.0, at=0.0)
    >>> [bucket.take(now=0.0) for _ in range(4)]
    [1.0, 0.0, -1.0, -2.0]
    >>> bucket.take(now=3.0)
    0.0
    """

    rate: float
    burst: float
    at: float = field(default_factory=time.monotonic)
    tokens: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self, now: float | None = None) -> float:
        """Take a token for one message: the tokens left (below zero: over the rate)."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate) - 1
        self.at = now
        return self.tokens
