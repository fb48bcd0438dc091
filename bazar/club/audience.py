"""Who hears a table: its clients (one a socket, its outbox) and the broadcaster that writes
each message once per audience (the public, each seat) and hands the text to every client of
that audience.

A client's outbox holds dicts (its sync, its own refusals and pongs) and texts (the table's
news, serialised once for its whole audience).
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pydantic_core

from . import tablestate as ts
from .errors import ServerError
from .settings import Settings
from .tablestate import TableError, TableState

__all__ = [
    "TOO_SLOW",
    "Audience",
    "Client",
    "broadcast",
    "dumps",
    "event",
    "notice",
    "sync",
    "table",
]

#: what a table's actor is fed: a command, or what must see the state settled (a hello)
Fed = ts.Command | Callable[[], None]
#: a message as each seat is sent it
Said = Callable[[int | None], dict[str, Any]]


def dumps(message: dict[str, Any]) -> str:
    """A message as its socket is sent it (pydantic's serialiser: a third of the time of
    the standard library's)."""
    return pydantic_core.to_json(message).decode()


#: the close code and reason of a socket dropped because it does not read what it is sent
TOO_SLOW = (4008, "too slow")
#: the close code and reason of a socket whose table was rebuilt (WebSocket's "service
#: restart"): the client comes again and hears the rebuilt table in its sync
RESTART = (1012, "table restarted")


@dataclass(eq=False)
class Client:
    """One websocket: its seat (None for a spectator) and its outbox, the messages its writer
    has not taken yet. The outbox holds at most ``limit``: a client that lets more pile up
    does not read, and is dropped (the socket closes it) rather than kept in memory."""

    seat: int | None
    limit: int = Settings.model_fields["outbox"].default
    #: (a text is a message written already, as a socket of another process is sent it)
    outbox: deque[dict[str, Any] | str] = field(default_factory=deque)
    #: whether its hello has been answered: until then it hears nothing of the table (only
    #: the errors its own messages earn), since the sync holds whatever happened before
    listening: bool = False
    #: its sync still in the outbox (at most one: a new hello takes it back and replaces it)
    pending: dict[str, Any] | None = None
    #: set once it is dropped, with ``closing`` the close code and reason its socket gets
    dropped: asyncio.Event = field(default_factory=asyncio.Event)
    closing: tuple[int, str] | None = None
    _ready: asyncio.Event = field(default_factory=asyncio.Event)

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closing is not None:
            return
        if len(self.outbox) >= self.limit:
            self.drop(*TOO_SLOW)
            return
        self.outbox.append(message)
        self._ready.set()

    def refuse(self, error: ServerError) -> None:
        """Tell this client a request of its was refused, and why."""
        self.send({"type": "error", **error.to_json()})

    def drop(self, code: int, reason: str) -> None:
        """Hear no more of the table: the socket closes with ``code`` and ``reason``."""
        if self.closing is None:
            self.closing = (code, reason)
            self.outbox.clear()
            self.pending = None
            self.dropped.set()

    async def next(self) -> dict[str, Any] | str:
        """The next message to write, once there is one."""
        while not self.outbox:
            self._ready.clear()
            await self._ready.wait()
        message = self.outbox.popleft()
        if message is self.pending:
            self.pending = None
        return message

    def send_sync(self, sync: dict[str, Any]) -> None:
        """Send its sync: the one it may take back until its writer takes it."""
        self.send(sync)
        if self.outbox and self.outbox[-1] is sync:
            self.pending = sync

    def take_back_sync(self) -> int | None:
        """Take back its sync still in the outbox, and the table's news queued after it (a
        new sync will hold it all): the version that sync began at; None if it has gone."""
        sync, self.pending = self.pending, None
        if sync is None:
            return None
        kept = []
        while (message := self.outbox.pop()) is not sync:
            # its own refusals and pongs answer what it sent, not the table: they stay
            if isinstance(message, dict) and message["type"] in ("error", "pong"):
                kept.append(message)
        self.outbox.extend(reversed(kept))
        return int(sync["v"]) - len(sync["events"])


def broadcast(clients: Iterable[Client], message: Said, but: Client | None = None) -> None:
    """Send each client but ``but`` the ``message`` of its seat, made and written once per
    seat however many clients that seat has."""
    texts: dict[int | None, str] = {}
    for client in clients:
        if client is but:
            continue
        text = texts.get(client.seat)
        if text is None:
            text = texts[client.seat] = dumps(message(client.seat))
        client.send(text)


# the messages of a table (their models: bazar/club/messages.py)


def sync(state: TableState, seat: int | None, since: int) -> dict[str, Any]:
    """What a (re)connecting client of ``seat`` missed since version ``since``, and what it
    sees now."""
    since = max(0, min(since, state.v))
    return {
        "type": "sync",
        "v": state.v,
        "events": state.events[since:],
        "view": state.view_json(seat),
        "round": state.round_number(),
        "table": state.info(),
        "clock": state.clock(),
    }


def event(state: TableState, told: dict[str, Any]) -> Said:
    """The event ``told``, with each seat's view after it: its rules left out (the sync's),
    but at the match's start, which a page open before it hears with no sync after it."""
    clock, number = state.clock(), state.round_number()
    rules = told["t"] == "start"
    return lambda seat: {
        "type": "event",
        "v": told["v"],
        "event": told,
        "view": state.view_json(seat, rules=rules),
        "round": number,
        "clock": clock,
    }


def notice(state: TableState, told: dict[str, Any]) -> Said:
    """A change that is not part of the game, the same for every seat."""
    message = {"type": "notice", "event": told, "table": state.info(), "clock": state.clock()}
    return lambda seat: message


def table(state: TableState) -> Said:
    """The table's seats and status, with each seat's view."""
    info = state.info()
    return lambda seat: {"type": "table", "table": info, "view": state.view_json(seat)}


class Audience:
    """A table's clients, each with the seat its state was told it has, and what it tells
    them: each message made once per seat (:func:`broadcast`), heard only by the clients whose
    hello has been answered (any other hears it in its sync)."""

    def __init__(self, state: TableState, feed: Callable[[Fed], None]) -> None:
        self.state, self._feed = state, feed
        self.clients: dict[Client, int | None] = {}

    # who comes and goes, and what each asks: fed to the state in turn

    def attach(self, client: Client) -> None:
        """A socket opened (its player is at the table), or named its seat again."""
        clients = self.clients
        if client in clients:
            if clients[client] == client.seat:
                return
            self._feed(ts.Detach(clients[client]))
        clients[client] = client.seat
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
        self._feed(functools.partial(self.sync, client, since))

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

    # what they are told

    def now(self) -> TableState:
        """The state, its clocks read as of now."""
        self.state.now = time.monotonic()
        return self.state

    def listeners(self) -> list[Client]:
        """The clients whose hello has been answered and that are not dropped."""
        return [c for c in self.clients if c.listening and c.closing is None]

    def sync(self, client: Client, since: int) -> None:
        """Answer a hello of ``client``: what it missed since ``since`` and its view. A later
        hello costs little: only what a sync still unsent held is sent again."""
        if client.listening:
            unsent = client.take_back_sync()
            since = self.state.v if unsent is None else unsent
        client.send_sync(sync(self.now(), client.seat, since))
        client.listening = True

    def emit(self, told: dict[str, Any]) -> None:
        """Tell every listener an event of the game, with its seat's view after it."""
        broadcast(self.listeners(), event(self.now(), told))

    def notify(self, told: dict[str, Any], but: Client | None = None) -> None:
        """Tell the listeners (but ``but``) of a change that is not part of the game."""
        broadcast(self.listeners(), notice(self.now(), told), but)

    def announce(self) -> None:
        """Tell every listener the table's seats and status (unversioned)."""
        broadcast(self.listeners(), table(self.now()))

    def close(self) -> None:
        """The table is given up before it started: its clients hear so."""
        self.notify({"t": "closed"})

    def close_clients(self, code: int, reason: str) -> None:
        """Close every client's socket (the table is rebuilt, or stopped): what they have not
        been sent yet they hear in the sync of their next socket."""
        for client in list(self.clients):
            client.drop(code, reason)
