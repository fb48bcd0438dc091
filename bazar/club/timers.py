"""One timer for every table of an event loop: a heap of the times the tables want to be
looked at again, and a single loop callback at the earliest of them.

A table at the club's pace wants waking a few times a move (its bot's delay, its player's
clock, a grace): one ``asyncio`` timer handle each, created and cancelled every time, costs
more than the move. Here a table says when (:meth:`Timers.at`); a later call replaces the
earlier one (the heap keeps the stale entry, skipped when it comes up).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import time
import weakref
from collections.abc import Callable

__all__ = ["Timers", "timers"]


class Timers:
    """The wake-ups of one event loop's tables: ``at(key, when, call)`` calls ``call()`` at
    ``when`` (:func:`time.monotonic`) unless ``key`` is given another time
    or cancelled first."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        #: (when, number) of every time asked for; a number whose call was replaced or
        #: cancelled is skipped when it comes up (the heap holds no table)
        self._heap: list[tuple[float, int]] = []
        self._calls: dict[int, tuple[object, Callable[[], None]]] = {}
        #: each key's number and time now
        self._keys: dict[object, tuple[int, float]] = {}
        self._count = itertools.count()
        self._handle: asyncio.TimerHandle | None = None
        self._handle_at = math.inf

    def at(self, key: object, when: float, call: Callable[[], None]) -> None:
        now = self._keys.get(key)
        if now is not None:
            if now[1] == when:
                self._calls[now[0]] = (key, call)
                return
            self.cancel(key)
        if when == math.inf:
            return
        n = next(self._count)
        self._keys[key] = (n, when)
        self._calls[n] = (key, call)
        heapq.heappush(self._heap, (when, n))
        if when < self._handle_at:
            self._arm(when)

    def cancel(self, key: object) -> None:
        now = self._keys.pop(key, None)
        if now is not None:
            del self._calls[now[0]]

    def _arm(self, when: float) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle_at = when
        # (the loop's own clock may count from elsewhere: uvloop's)
        self._handle = self.loop.call_later(max(0.0, when - time.monotonic()), self._fire)

    def _fire(self) -> None:
        self._handle, self._handle_at = None, math.inf
        now = time.monotonic()
        heap, calls = self._heap, self._calls
        due = []
        while heap and heap[0][0] <= now:
            _, n = heapq.heappop(heap)
            made = calls.pop(n, None)
            if made is not None:
                del self._keys[made[0]]
                due.append(made[1])
        # the stale ones leave the heap as they come up
        while heap and heap[0][1] not in calls:
            heapq.heappop(heap)
        if heap:
            self._arm(heap[0][0])
        for call in due:
            call()


_of_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Timers] = weakref.WeakKeyDictionary()


def timers() -> Timers:
    """The timers of the running event loop."""
    loop = asyncio.get_running_loop()
    made = _of_loop.get(loop)
    if made is None:
        made = _of_loop[loop] = Timers(loop)
    return made
