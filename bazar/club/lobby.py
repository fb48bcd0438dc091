"""The lobby's live list: the tables that wait for players or are being played, sent to
every page in the lobby whenever one of them opens, fills, starts, changes hands or ends,
so that nobody reloads to find a game."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Lobby", "Watcher"]


@dataclass(eq=False)
class Watcher:
    """A lobby page's socket: only the newest list waits for it (one that reads slowly
    skips the lists it no longer needs, and nothing piles up for it)."""

    latest: dict[str, Any] | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def put(self, message: dict[str, Any]) -> None:
        """Wait ``message`` for the page, unless it is the list the page has already (a
        change that moved nothing in the list, a table by invitation opening, says nothing)."""
        if message == self.latest:
            return
        self.latest = message
        self.ready.set()

    async def next(self) -> dict[str, Any]:
        """The newest list not yet taken, once there is one."""
        await self.ready.wait()
        self.ready.clear()
        assert self.latest is not None
        return self.latest


class Lobby:
    """The watchers of the lobby and what they are sent. ``listing`` is the club's list of
    open tables (its own, or every process's); a burst of changes (a table made with its bots
    opens, fills and starts at once) is sent as one list, ``settle_s`` after the first of
    them."""

    def __init__(
        self, listing: Callable[[], Awaitable[list[dict[str, Any]]]], settle_s: float = 0.05
    ) -> None:
        self.listing = listing
        self.settle_s = settle_s
        self.watchers: set[Watcher] = set()
        self._pending: asyncio.TimerHandle | None = None
        self._sending: asyncio.Task[None] | None = None

    async def message(self) -> dict[str, Any]:
        """The list as a lobby socket sends it."""
        return {"type": "tables", "tables": await self.listing()}

    async def watch(self) -> Watcher:
        """A new watcher, sent the list as it stands at once."""
        watcher = Watcher()
        watcher.put(await self.message())
        self.watchers.add(watcher)
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)

    def changed(self) -> None:
        """A table's place in the list may have changed: the watchers hear the new list
        soon (nothing is read while nobody watches)."""
        if not self.watchers or self._pending is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._pending = loop.call_later(self.settle_s, self._send)

    def _send(self) -> None:
        self._pending = None
        if not self.watchers:
            return
        if self._sending is not None and not self._sending.done():
            # a list is being read: another after it
            self.changed()
            return
        self._sending = asyncio.get_running_loop().create_task(self._send_list())

    async def _send_list(self) -> None:
        message = await self.message()
        for watcher in self.watchers:
            watcher.put(message)
