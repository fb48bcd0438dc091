"""A live table: one asyncio task owns its :class:`~bazar.Match` (the Lichess round actor)
and plays it through the one seat loop, :func:`~bazar.core.play.play_async`, answering for
every seat: a bot's move, a player's from his socket, the lone draw or pass made for him.

Clients never touch the match. They put requests in the table's inbox; the task validates
each one against the legal moves, appends the move to the database, pushes it, and only then
tells every client what happened: a versioned public event plus that client's own
``match.view(seat)``. A socket's hello names the last version it saw; it hears nothing of the
table until the answer, a sync of the events it missed and its current view, then each later
event once.

A player with no open socket is *gone*: after a grace period a bot takes the seat (casual) or
the match is interrupted (rated), as when his clock runs out. A casual player whose seat a bot
plays asks for it back (``{"type": "back"}``) and has it from the next time his seat is to
move; each change of hands is an event, stored with the seat so that a restart rebuilds it.
Between two rounds the table pauses (``round_pause_s``) so that its players see the final
position and the result: the next round's first turn, and its clock, wait until each seated
player whose page is open has said ``{"type": "next"}`` or the pause is over.
A finished table answers late requests while its players may still ask for a rematch, then
leaves memory (its record stays stored).
The database is written off the event loop, in a thread, and the actor waits for each write
before it tells anyone: a busy database holds up only its own table. A write that fails is
tried again a few times, then the move is refused (nothing is made that is not stored). An
actor that fails for any other reason is its club's to restart (``on_crash``).
Bots think off the event loop, so a slow one never holds up the other tables and sockets
(but the random and the greedy one, whose microsecond's answer a thread's round trip would
cost a hundred times over): the others in a thread, the searching ones in a worker process
(a search in a thread would hold the interpreter lock and slow every answer the server gives
meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from sqlalchemy.orm import Session

from bazar import bots as botlib
from bazar.core import record
from bazar.core.match import Match
from bazar.core.moves import Move
from bazar.core.play import (
    Event,
    MatchEnded,
    Moved,
    RoundEnded,
    RoundStarted,
    answer,
    forced,
    play_async,
    turn,
)
from bazar.core.round import deal_seed
from bazar.core.rules import Rules
from bazar.core.rules import rules as make_rules
from bazar.core.scoring import hand_value
from bazar.core.view import View
from bazar.tournament.record import places

from .errors import ServerError, refusal_code
from .fairness import seed_hash
from .settings import Settings
from .storage import Fence, NotStored, TableRow, TableStore, stored

__all__ = [
    "REPLACEMENT",
    "RESTART",
    "Client",
    "Table",
    "TableError",
    "rules_of",
    "seed_hash",
]

log = logging.getLogger("bazar.club")

T = TypeVar("T")

#: what the end of a match stores besides the table's ending (the club's record and ratings):
#: (the table, the match, its ending, the transaction that stores it) -> the ratings' changes
Settle = Callable[["Table", Match, dict[str, Any], Session], dict[str, Any] | None]


class Workers(Protocol):
    """Where searching bots think: the club's worker processes."""

    def processes(self) -> Executor: ...

    def processes_broken(self, pool: Executor) -> None: ...


#: the events that change what a seat may decide: a move sent before one of them is stale
POSITION_EVENTS = ("move", "replaced", "match_end")

#: the bot that takes the seat of a casual player who timed out or is gone
REPLACEMENT = "greedy"

#: seconds a player's page may be closed during the pause between rounds and still be waited
#: for: a page reloaded comes back within them
RELOAD_S = 3.0

#: the close code and reason of a socket whose table was rebuilt (WebSocket's "service
#: restart"): the client comes again and hears the rebuilt table in its sync
RESTART = (1012, "table restarted")


class TableError(ServerError):
    """A request the table refuses; it goes back to that client only."""


def rules_of(row: TableRow) -> Rules:
    options = dict(row.options)
    players = options.pop("players", len(row.seats))
    return make_rules(row.game, players=players, **options)


#: the close code and reason of a socket dropped because it does not read what it is sent
TOO_SLOW = (4008, "too slow")


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


@dataclass
class _Request:
    client: Client
    seat: int
    #: "move" (``text``, at version ``v``), "back" (the player asks for his seat back from
    #: the bot), "leave" (he leaves the match: a bot takes his seat at once) or "next" (he has
    #: seen the round's end)
    kind: str
    #: the move in notation
    text: str = ""
    #: the version the client saw when it chose the move (None: not checked)
    v: int | None = None


@dataclass
class _Pause:
    """The wait after a round's end: until ``until`` (monotonic), or until no seat of
    ``waiting`` (the seated players whose page was open) has a page open and not said next."""

    until: float
    waiting: set[int]

    def left(self) -> float:
        return max(0.0, self.until - time.monotonic())


class Table:
    """A table of the club: its seats, its match once started, its event log, its clients."""

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
        processes: Workers | None = None,
        on_finish: Settle | None = None,
        on_close: Callable[[Table], None] | None = None,
        on_crash: Callable[[Table, BaseException], None] | None = None,
        on_change: Callable[[Table], None] | None = None,
        settings: Settings | None = None,
        fence: Fence | None = None,
        badge: dict[str, Any] | None = None,
    ) -> None:
        self.row = row
        #: the tournament whose match this is, as the table says of it ({"id", "name",
        #: "round", "board"}), or None
        self.badge = badge
        #: what its writes carry: made only while this process holds the table's lease
        self.fence = fence
        self.storage = storage
        self.settings = settings or Settings()
        self.rules = rules_of(row)
        self.bot_delay = bot_delay
        #: a bot's least wait before its move while no socket watches the table
        self.unwatched_bot_delay = unwatched_bot_delay
        self.grace_s = grace_s
        self.rematch_window_s = rematch_window_s
        #: when (monotonic) the players of the finished match may no longer ask for a
        #: rematch; None while it is played
        self.rematch_closes: float | None = None
        self.executor = executor
        self.workers = processes
        self.on_finish = on_finish
        self.on_close = on_close
        self.on_crash = on_crash
        #: told when what the lobby lists of the table changes (it ended, a bot took a seat)
        self.on_change = on_change
        #: the match as the seat loop makes it, move by move (the actor's alone)
        self._match: Match | None = None
        #: a copy of it made after each move: what everyone else reads, so that a reader
        #: in another thread never meets a move half made
        self.match: Match | None = None
        #: the copy made to store the move the seat loop makes next, with that move made:
        #: what everyone reads once it is made
        self._next: Match | None = None
        self.events: list[dict[str, Any]] = []
        self.clients: set[Client] = set()
        self.bots: dict[int, botlib.Bot] = {}
        #: the players with no open socket: seat -> when the last one closed (monotonic)
        self.gone: dict[int, float] = {}
        #: the players' seats a bot plays (casual): seat -> why ("timeout" or "gone")
        self.replaced: dict[int, str] = {}
        #: those whose player asked for them back: his again the next time they are to move
        self.returning: set[int] = set()
        #: since when (monotonic) a bot plays every player's seat and none of them is here
        self.deserted: float | None = None
        #: a rematch's seats kept for the players of the match before: seat -> (user, name),
        #: until ``reserved_until`` (monotonic)
        kept = row.reserved or {}
        self.reserved: dict[int, tuple[int, str]] = {
            int(seat): (int(user), str(name))
            for seat, (user, name) in kept.get("seats", {}).items()
        }
        self.reserved_until = time.monotonic() + float(kept.get("until", 0.0)) - time.time()
        #: requests; None only wakes the actor to look at the clocks and seats again
        self.inbox: asyncio.Queue[_Request | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        #: the club's changes of the seats, one at a time: each checks them, waits for its
        #: write and makes it before the next one looks
        self.seating = asyncio.Lock()
        self.turn_started = time.monotonic()
        #: the wait between a round's end and the next round's first turn, while it lasts
        self.pause: _Pause | None = None

    @property
    def id(self) -> str:
        return self.row.id

    # state and its public description

    def info(self) -> dict[str, Any]:
        row = self.row
        listing = None
        with contextlib.suppress(Exception):
            listing = self.rules.notation()
        return {
            "id": row.id,
            "game": row.game,
            "players": len(row.seats),
            "options": self.rules.options(),
            "listing": listing,
            "seats": [self._seat_info(seat, s) for seat, s in enumerate(row.seats)],
            "reserved": [
                {"seat": seat, "name": name} for seat, (_, name) in self.reservations().items()
            ],
            "move_time_s": row.move_time_s,
            "rated": row.rated,
            "access": row.access,
            "status": row.status,
            "ending": row.ending,
            "away": [
                {"seat": seat, "left_s": round(left, 1)} for seat, left in self.graces().items()
            ],
            "pause": None if self.pause is None else self._pause_info(self.pause),
            "rematch_left_s": self.rematch_left(),
            "v": len(self.events),
            **({"tournament": self.badge} if self.badge is not None else {}),
        }

    def rematch_left(self) -> float | None:
        """The seconds the players of the finished match may still ask for a rematch (None
        while it is played)."""
        if self.rematch_closes is None:
            return None
        return round(max(0.0, self.rematch_closes - time.monotonic()), 1)

    @staticmethod
    def _pause_info(pause: _Pause) -> dict[str, Any]:
        return {"left_s": round(pause.left(), 1), "waiting": sorted(pause.waiting)}

    def _seat_info(self, seat: int, s: dict[str, Any] | None) -> dict[str, Any] | None:
        if s is None:
            return None
        # a guest's name is not his alone: wherever it is shown, he is marked as a guest
        who = {"name": s["name"], "guest": bool(s.get("guest"))}
        if seat not in self.replaced:
            return {**who, "bot": s.get("bot")}
        # a bot plays for this player: why, and whether he asked for the seat back
        why, back = self.replaced[seat], seat in self.returning
        return {**who, "bot": REPLACEMENT, "why": why, "back": back}

    def reservations(self) -> dict[int, tuple[int, str]]:
        """The empty seats kept for a rematch's players while they may still accept it."""
        if self.row.status != "open" or time.monotonic() >= self.reserved_until:
            return {}
        return {i: who for i, who in self.reserved.items() if self.row.seats[i] is None}

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.row.seats):
            if s is not None and s.get("user") == user_id:
                return i
        return None

    @property
    def live(self) -> bool:
        """Whether the match is being played (dealt, not over, not interrupted)."""
        return self.match is not None and not self.match.is_over() and self.row.status == "playing"

    def clock(self) -> dict[str, Any] | None:
        if not self.live:
            return None
        assert self.match is not None
        if self.pause is not None:
            # the clock starts once the pause is over, with the whole move time
            starts_in_s = round(self.pause.left(), 1)
            return {
                "seat": self.match.turn,
                "left_s": self.row.move_time_s,
                "starts_in_s": starts_in_s,
            }
        left = self.row.move_time_s - (time.monotonic() - self.turn_started)
        return {"seat": self.match.turn, "left_s": round(max(0.0, left), 1)}

    def graces(self) -> dict[int, float]:
        """The seconds each gone player has left to come back, by seat."""
        now = time.monotonic()
        return {
            seat: max(0.0, self.grace_s - (now - since))
            for seat, since in sorted(self.gone.items())
        }

    def round_number(self) -> int | None:
        """The number of the round the views show (the next one as soon as one ends)."""
        return None if self.match is None else self.match.round.number

    def view_json(self, seat: int | None) -> dict[str, Any] | None:
        return None if self.match is None else self.match.view(seat).to_json()

    def sync(self, client: Client, since: int) -> dict[str, Any]:
        """What a (re)connecting client missed since version ``since``, and its current view."""
        since = max(0, min(since, len(self.events)))
        return {
            "type": "sync",
            "v": len(self.events),
            "events": self.events[since:],
            "view": self.view_json(client.seat),
            "round": self.round_number(),
            "table": self.info(),
            "clock": self.clock(),
        }

    # starting and restoring

    def start(self) -> None:
        """Deal the match (the seats are full) and announce the first round."""
        self._match = Match(self.rules, seed=self.row.seed)
        self.match = _copy(self._match)
        self._make_bots()
        self._emit({"t": "start", "seats": self.info()["seats"]})
        self._emit_round_start()
        self._look_at_seats()

    def restore(self, moves: list[str]) -> None:
        """Rebuild the match and the event log from the stored moves (after a restart)."""
        self.start()
        assert self._match is not None
        # the seats' changes of hands, in the order they were announced, by the number of
        # moves made when they were (several may come between two moves)
        changes: dict[int, list[tuple[int, str, str | None]]] = {}
        for _, at, seat, kind, why in sorted(
            (c["v"], c["at"], seat, c["t"], c.get("why"))
            for seat, s in enumerate(self.row.seats)
            for c in (s or {}).get("changes", ())
        ):
            changes.setdefault(at, []).append((seat, kind, why))
        for n in range(len(moves) + 1):
            for seat, kind, why in changes.get(n, ()):
                self._hand_over(seat, kind, why)
            if n < len(moves):
                asked = turn(self._match)
                assert asked is not None
                answer(self._match, asked, self.match_move(moves[n]), self._replayed)
        if self.row.ending is not None and self.row.status == "finished":
            self._emit({"t": "match_end", **self._result()})
        # nobody watched the replay: nobody waits for the next round
        self.pause = None

    def _make_bots(self) -> None:
        for i, s in enumerate(self.row.seats):
            if s is not None and s.get("bot"):
                self.bots[i] = botlib.make(s["bot"], seed=self.row.seed + i)

    def run(self) -> None:
        """Start the actor task (in the running event loop) if it is not running."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._loop())
            self.task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[None]) -> None:
        """The actor's task ended: a failure goes to the club (never lost unseen)."""
        if task.cancelled() or task.exception() is None:
            return
        error = task.exception()
        assert error is not None
        if self.on_crash is None:
            log.error("table %s failed", self.id, exc_info=error)
            return
        self.on_crash(self, error)

    def close_clients(self, code: int, reason: str) -> None:
        """Close every client's socket (the table is rebuilt, or stopped): what they have not
        been sent yet they hear in the sync of their next socket."""
        for client in list(self.clients):
            client.drop(code, reason)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            # waited for, not awaited: a cancellation of stop() itself is not swallowed
            await asyncio.wait([self.task])

    # the actor

    def match_move(self, text: str) -> Move:
        """The legal move ``text`` names, or TableError."""
        assert self.match is not None
        try:
            wanted = str(Move.parse(text))
        except ValueError as error:
            raise TableError("malformed_move", move=text, reason=str(error)) from None
        for move in self.match.legal_moves():
            if str(move) == wanted:
                return move
        legal = ", ".join(str(m) for m in self.match.legal_moves())
        raise TableError("illegal_move", move=text, legal=legal)

    async def _loop(self) -> None:
        """Play the match through the seat loop (:func:`~bazar.core.play.play_async`), the
        table answering for every seat (:meth:`choose`); it stops whenever the table was
        woken for something else, and goes on while the match is played."""
        while self.live or self._unfinished():
            assert self._match is not None and self.match is not None
            try:
                if self._unfinished():
                    await self._finish(self.match, {"normal": True})
                else:
                    await play_async(self._match, [self] * self.rules.players, self._told)
            except NotStored:
                # nothing changed: the loop goes on, after a pause
                await asyncio.sleep(self.settings.db_retry_s)
        await self._linger()

    def _unfinished(self) -> bool:
        """Whether the stored moves end the match but its end is not stored (a crash
        between the two, before they were stored together)."""
        return self.match is not None and self.match.is_over() and self.row.status == "playing"

    async def choose(self, view: View, legal: Sequence[Move]) -> Move | None:
        """The move of ``view.seat``, stored: its bot's, the lone draw or pass of a player
        (online-club.md §2: made at once, without a clock), or the one he sends; None when
        something else came first (a request refused or made, a clock run out, a grace over,
        a change of hands). A bot's delay is waited out here, with the same view, not
        through a new turn of the seat loop."""
        seat = view.seat
        assert seat is not None
        if await self._give_up_the_gone():
            return None
        if self._pausing():
            request = await self._next_request(self._pause_wait())
            if request is not None:
                await self._handle(request)
            return None
        if seat in self.returning:
            await self._change_hands(seat, "back")
            return None
        elapsed = time.monotonic() - self.turn_started
        if seat in self.bots:
            left = self.bot_pause() - elapsed
            if left > 0 and self.inbox.empty():
                # its delay is waited out here, with this view, unless a request comes
                request = await self._next_request(min([left, *self.graces().values()]))
                if request is not None:
                    return await self._handle(request)
                left = self.bot_pause() - (time.monotonic() - self.turn_started)
            if left <= 0 and self.inbox.empty():
                return await self._stored(seat, await self._think(seat, view, legal))
        elif (lone := forced(legal)) is not None:
            return await self._stored(seat, lone)
        else:
            left = self.row.move_time_s - elapsed
            if left <= 0:
                await self._give_up(seat, "timeout")
                return None
        request = await self._next_request(min([left, *self.graces().values()]))
        return None if request is None else await self._handle(request)

    def bot_pause(self) -> float:
        """How long a bot waits before its move: the club's delay, and longer while nobody
        watches (a match of bots alone for a while is no race)."""
        if self.clients:
            return self.bot_delay
        return max(self.bot_delay, self.unwatched_bot_delay)

    async def _think(self, seat: int, view: View, legal: Sequence[Move]) -> Move:
        """The bot's move, chosen off the loop: the view is frozen and the bot is this
        table's alone, and nothing else moves the match while the actor waits here. A searching
        bot thinks in a worker process and comes back with its random source moved on."""
        bot = self.bots[seat]
        if bot.quick:
            # a microsecond's answer: a thread's round trip would cost a hundred times more
            return bot.choose(view, legal)
        loop = asyncio.get_running_loop()
        if bot.searches and self.workers is not None:
            pool = self.workers.processes()
            try:
                move, moved_on = await loop.run_in_executor(pool, botlib.think, bot, view, legal)
            except BrokenProcessPool:
                # a worker died (killed, out of memory): think here this time
                self.workers.processes_broken(pool)
            else:
                if self.bots.get(seat) is bot:
                    self.bots[seat] = moved_on
                return move
        return await loop.run_in_executor(self.executor, bot.choose, view, legal)

    async def _next_request(self, timeout: float) -> _Request | None:
        """The next request, or None when ``timeout`` passes or the actor is woken."""
        if not self.inbox.empty():
            return self.inbox.get_nowait()
        try:
            # not asyncio.wait_for, which on Python 3.11 may swallow stop()'s cancellation
            # when a request comes at the same instant (the actor would then run on)
            async with asyncio.timeout(max(0.0, timeout)):
                return await self.inbox.get()
        except TimeoutError:
            return None

    async def _linger(self) -> None:
        """After the end: answer late requests while somebody watches and a rematch may still
        be asked for, then leave the club's memory."""
        if self.rematch_closes is None:
            self.rematch_closes = time.monotonic() + self.rematch_window_s
        closing = self.rematch_closes
        while self.clients and (left := closing - time.monotonic()) > 0:
            request = await self._next_request(left)
            if request is not None:
                await self._handle(request)
        while not self.inbox.empty():
            request = self.inbox.get_nowait()
            if request is not None:
                await self._handle(request)
        if self.on_close is not None:
            self.on_close(self)

    async def _handle(self, request: _Request) -> Move | None:
        """A client's request: the move it sends, once stored, if it is its seat's to make
        now; else None, the request refused to that client or (a seat asked back) made."""
        try:
            if self.match is None:
                raise TableError("not_started")
            if not self.live:
                raise TableError("match_over")
            if request.kind == "leave":
                await self._leave(request.seat)
                return None
            if request.kind == "back":
                await self._ask_back(request.seat)
                return None
            if request.kind == "next":
                self._seen(request.seat)
                return None
            if request.seat in self.bots:
                raise TableError("bot_seat")
            if self.pause is not None:
                raise TableError("round_pause", left_s=round(self.pause.left()))
            if self.match.turn != request.seat:
                raise TableError("not_your_turn", seat=self.match.turn)
            if request.v is not None and not self._current(request.v):
                raise TableError("stale", v=len(self.events), yours=request.v)
            return await self._stored(request.seat, self.match_move(request.text))
        except (TableError, NotStored) as error:
            request.client.refuse(error)
            return None

    def _current(self, v: int) -> bool:
        """Whether a move sent from version ``v`` saw the position as it is: no move was made
        since (the events after a round's last move -- its end, the next deal's commitment --
        change nothing a player decides on, and arrive in the same instant)."""
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= len(self.events):
            return False
        return all(event.get("t") not in POSITION_EVENTS for event in self.events[v:])

    def submit(self, client: Client, text: str, v: int | None = None) -> None:
        """A client's move request (its form checked by the protocol), checked for legality
        by the actor."""
        self._request(client, "move", text, v)

    def take_back(self, client: Client) -> None:
        """A player asks for his seat back from the bot that plays it (the actor checks)."""
        self._request(client, "back")

    def leave(self, client: Client) -> None:
        """A player leaves the match under way (the actor gives his seat up)."""
        self._request(client, "leave")

    def seen_round_end(self, client: Client) -> None:
        """A player has seen the round's end: the pause need not wait for him. A spectator's,
        or one said after the pause, changes nothing."""
        if client.seat is not None and self.pause is not None:
            self._request(client, "next")

    def _request(self, client: Client, kind: str, text: str = "", v: int | None = None) -> None:
        if client.seat is None:
            client.refuse(TableError("spectator"))
            return
        if self.match is not None and not self.live:
            # the actor may have left already
            client.refuse(TableError("match_over"))
            return
        self.inbox.put_nowait(_Request(client, client.seat, kind, text, v))

    # who is at the table

    def attach(self, client: Client) -> None:
        """A socket opened (its player is at the table), or named its seat again."""
        watched = bool(self.clients)
        self.clients.add(client)
        self._look_at_seats(client)
        if not watched:
            # a bot that waited for nobody need not wait any longer (bot_pause)
            self.inbox.put_nowait(None)

    def hello(self, client: Client, since: int) -> None:
        """A socket's hello: its sync, then every event after it. Nothing can be emitted
        between the sync and ``listening`` (one event loop), so the client hears each event
        once. A later hello costs little: the socket has been sent every event since its
        first sync, so its sync holds none of them but those of a sync it replaces, one its
        writer has not taken yet (one sync at a time, however many hellos it sends)."""
        self.attach(client)
        if client.listening:
            unsent = client.take_back_sync()
            since = len(self.events) if unsent is None else unsent
        client.send_sync(self.sync(client, since))
        client.listening = True

    def detach(self, client: Client) -> None:
        """A socket closed; the actor looks again at the seats' graces, or at who is left."""
        self.clients.discard(client)
        self._look_at_seats()
        self.inbox.put_nowait(None)

    def _look_at_seats(self, newcomer: Client | None = None) -> None:
        """Start the grace of each player whose last socket closed; end it for one back (and
        tell the others: the ``newcomer`` hears its own news in its sync)."""
        if not self.live:
            return
        present = {c.seat for c in self.clients}
        for seat, s in enumerate(self.row.seats):
            if s is None or seat in self.bots:
                continue
            if seat in present and seat in self.gone:
                del self.gone[seat]
                self._notify({"t": "reconnected", "seat": seat, "name": s["name"]}, but=newcomer)
            elif seat not in present and seat not in self.gone:
                self.gone[seat] = time.monotonic()
                self._notify(
                    {"t": "disconnected", "seat": seat, "name": s["name"], "grace_s": self.grace_s}
                )

    async def _give_up_the_gone(self) -> bool:
        """Give up every seat whose grace is over, and the match when a bot has played every
        player's seat for a grace with none of them back; whether there was one."""
        over = [seat for seat, left in self.graces().items() if left <= 0]
        for seat in over:
            if self.live:
                await self._give_up(seat, "gone")
            self.gone.pop(seat, None)
        if self.live and self._is_deserted():
            assert self.match is not None
            await self._finish(self.match, {"deserted": True})
            self._emit({"t": "match_end", **self._result()})
            return True
        return bool(over)

    def _is_deserted(self) -> bool:
        """Whether bots alone have played the match for a grace: a bot plays every player's
        seat, nobody asked for his back, and no player's socket is open (online-club.md §2
        gives a player a grace to come back; a match of bots alone is nobody's)."""
        people = [i for i, s in enumerate(self.row.seats) if s is not None and s.get("user")]
        if not people:
            # a tournament's match between bots: nobody was to be here
            return False
        present = {c.seat for c in self.clients}
        alone = all(i in self.replaced and i not in self.returning for i in people)
        if not alone or present & set(people):
            self.deserted = None
            return False
        now = time.monotonic()
        if self.deserted is None:
            self.deserted = now
        return now - self.deserted >= self.grace_s

    async def _store(self, write: Callable[..., T], *args: Any) -> T:
        """``write(*args)`` off the event loop, as :func:`~bazar.club.storage.stored`
        writes; NotStored ("not_stored": the move is not made) when the database never took
        it."""
        return await stored(
            self.settings,
            write,
            *args,
            about=f"table {self.id}",
            refusal=refusal_code("not_stored"),
        )

    async def _stored(self, seat: int, move: Move) -> Move:
        """Store ``move``, the seat loop's to push next: the last one with the end of the
        match, its record and its ratings, in one transaction."""
        assert self.match is not None
        after = _after(self.match, move)
        n = self._moves_made()
        if after.is_over():
            await self._finish(after, {"normal": True}, (n, seat, str(move)))
        else:
            await self._store(self.storage.append_move, self.id, n, seat, str(move), self.fence)
        # stored: the match everyone reads once the seat loop has made it (the same position)
        self._next = after
        return move

    def _moves_made(self) -> int:
        assert self.match is not None
        return sum(len(r.moves) for r in self.match.rounds)

    def _told(self, event: Event) -> None:
        """Announce what the seat loop did: a move (the match everyone reads is now the one
        after it, the clock the next seat's), the rounds it ended and began, the end."""
        if isinstance(event, Moved):
            assert self._match is not None
            # the copy the move was stored from is the match after it: no second copy
            after, self._next = self._next, None
            self.match = after if after is not None else _copy(self._match)
            self.turn_started = time.monotonic()
            # what the page's log says of the move, the same live and after a reload: the open
            # ends it was laid against (an end is named by its pip), and whether the table made
            # it for a player, his lone draw or pass (made at once: its haste tells it anyway)
            move: dict[str, Any] = {"t": "move", "seat": event.seat, "move": str(event.move)}
            move["ends"] = dict(event.view.ends)
            if event.seat not in self.bots and forced(event.view.legal) is not None:
                move["forced"] = True
            self._emit(move)
        elif isinstance(event, RoundEnded):
            self.pause = self._pause_after(event)
            outcome = event.outcome.to_json()
            self._emit(
                {
                    "t": "round_end",
                    "number": event.round.number,
                    "outcome": outcome,
                    # the position the round ended in, as a spectator sees it, and each
                    # hand the rules turn face up at its end (None: one they keep hidden,
                    # a folded poker hand)
                    "final": {
                        "view": View.of(event.round, None, event.after.public()).to_json(),
                        "hands": outcome["remaining"],
                        # what each hand counts, its special tiles at their worth (a lone
                        # 0-0 in Kozel, Chicken Foot's 0-0)
                        "values": [
                            None if hand is None else hand_value(self.rules, hand)
                            for hand in event.outcome.remaining
                        ],
                    },
                    # the seconds the table waits before the next round (0: it does not)
                    # and the seats it waits for
                    "next_in_s": 0 if self.pause is None else self.settings.round_pause_s,
                    "waiting": [] if self.pause is None else sorted(self.pause.waiting),
                    # the scores the round was dealt with: the match's ledger has taken in
                    # the points scored during play (Fives), part of this round's result
                    "before": event.before.public(),
                    "after": event.after.public(),
                    # a string: JavaScript numbers lose the low digits of a 64-bit seed
                    "seed": str(deal_seed(self.row.seed, event.round.number)),
                    "seed_hash": seed_hash(deal_seed(self.row.seed, event.round.number)),
                }
            )
        elif isinstance(event, RoundStarted):
            self._emit_round_start()
        else:
            self._emit({"t": "match_end", **self._result()})

    def _pause_after(self, event: RoundEnded) -> _Pause | None:
        """The pause after the round ``event`` ended: none after the match's last round, nor
        with no seated player here to see it (a bot does not need to look)."""
        assert self._match is not None
        if self._match.is_over() or self.settings.round_pause_s <= 0:
            return None
        waiting = self._people_here()
        if not waiting:
            return None
        return _Pause(time.monotonic() + self.settings.round_pause_s, waiting)

    def _people_here(self) -> set[int]:
        """The seats played by their players (no bot) whose page is open."""
        present = {c.seat for c in self.clients if c.closing is None}
        return {seat for seat in present - set(self.bots) if seat is not None}

    def _pausing(self) -> bool:
        """Whether the pause between rounds goes on; its end is told (with the clock, which
        starts now)."""
        pause = self.pause
        if pause is None:
            return False
        now = time.monotonic()
        pause.waiting -= {seat for seat, since in self.gone.items() if now - since >= RELOAD_S}
        if pause.waiting and pause.left() > 0:
            return True
        self.pause = None
        self.turn_started = time.monotonic()
        self._notify({"t": "pause_end"})
        return False

    def _pause_wait(self) -> float:
        """The seconds until the pause is to be looked at again: its end, a waited player's
        page closed for longer than a reload, a grace over."""
        assert self.pause is not None
        now = time.monotonic()
        closed = [
            since + RELOAD_S - now for s, since in self.gone.items() if s in self.pause.waiting
        ]
        return min([self.pause.left(), *closed, *self.graces().values()])

    def _seen(self, seat: int) -> None:
        """A player has seen the round's end: the others hear who is still looking."""
        if self.pause is None or seat not in self.pause.waiting:
            return
        self.pause.waiting.discard(seat)
        waiting = sorted(self.pause.waiting)
        self._notify(
            {"t": "seen", "seat": seat, "name": self.row.seats[seat]["name"], "waiting": waiting}
        )

    def _replayed(self, event: Event) -> None:
        """What ``restore`` replays is announced as it was, but for the end of the match,
        which its stored ending tells."""
        if not isinstance(event, MatchEnded):
            self._told(event)

    def _emit_round_start(self) -> None:
        assert self.match is not None
        number = self.match.round.number
        self._emit(
            {
                "t": "round_start",
                "number": number,
                "seed_hash": seed_hash(deal_seed(self.row.seed, number)),
            }
        )

    async def _give_up(self, seat: int, why: str) -> None:
        """A player who ran out of time (``why`` "timeout") or stayed away past the grace
        ("gone"), online-club.md §2: rated, or in a tournament (where he loses the match),
        the match is interrupted; casual, a bot plays the seat until he takes it back."""
        if self.row.rated or self.row.tournament is not None:
            assert self.match is not None
            ending: dict[str, Any] = {"timeout": seat}
            if why == "gone":
                ending["gone"] = True
            await self._finish(self.match, ending)
            self._emit({"t": "match_end", **self._result()})
            return
        await self._change_hands(seat, "replaced", why)

    async def _leave(self, seat: int) -> None:
        """A player who says he leaves is one whose grace is over now: he need not be waited
        for (a rated match is interrupted, a bot plays a casual seat; he may ask it back). A
        seat a bot already plays is no longer his to leave."""
        if seat in self.bots:
            raise TableError("bot_seat")
        await self._give_up(seat, "gone")

    async def _ask_back(self, seat: int) -> None:
        """The player of a seat a bot plays wants it back: his from its next turn (the
        actor's loop hands it over when the seat is to move)."""
        if seat not in self.replaced:
            raise TableError("no_bot_for_you")
        if seat not in self.returning:
            await self._change_hands(seat, "returning")

    async def _change_hands(self, seat: int, kind: str, why: str | None = None) -> None:
        """Store a change of hands with the seat (the database first), then make it."""
        assert self.match is not None
        change: dict[str, Any] = {"t": kind, "at": self._moves_made(), "v": len(self.events) + 1}
        if why is not None:
            change["why"] = why
        seats = list(self.row.seats)
        s = seats[seat]
        seats[seat] = {**s, "changes": [*s.get("changes", ()), change]}
        self.row = await self._store(
            functools.partial(self.storage.update_table, self.id, self.fence, seats=seats)
        )
        self._hand_over(seat, kind, why)
        if self.on_change is not None:
            self.on_change(self)

    def _hand_over(self, seat: int, kind: str, why: str | None) -> None:
        """Make and announce a change of hands (live, or replayed by ``restore``): a bot takes
        the seat ("replaced", ``why`` it did), its player asks for it back ("returning") or
        has it back ("back", with a full clock)."""
        if kind == "replaced":
            assert why is not None
            self.bots[seat] = botlib.make(REPLACEMENT, seed=self.row.seed + seat)
            self.replaced[seat] = why
            self.gone.pop(seat, None)
        elif kind == "returning":
            self.returning.add(seat)
        else:
            del self.bots[seat]
            del self.replaced[seat]
            self.returning.discard(seat)
            self.turn_started = time.monotonic()
        event = {"t": kind, "seat": seat, "name": self.row.seats[seat]["name"]}
        if why is not None:
            event["why"] = why
        self._emit({**event, "seats": self.info()["seats"]})
        if kind == "back":
            # a player who asked and left meanwhile: his grace begins
            self._look_at_seats()

    async def _finish(
        self, match: Match, ending: dict[str, Any], last: tuple[int, int, str] | None = None
    ) -> None:
        """Store the end of ``match`` (the one after its ``last`` move, if it ended on one)
        with that move, its record and its ratings, in one transaction (the club's
        ``on_finish`` adds the record and the ratings); the caller announces it."""
        settle = None
        if self.on_finish is not None:
            settle = functools.partial(self.on_finish, self, match, ending)
        self.row = await self._store(
            self.storage.finish_match, self.id, ending, last, settle, self.fence
        )
        self.gone.clear()
        self.pause = None
        self.rematch_closes = time.monotonic() + self.rematch_window_s
        if self.on_change is not None:
            self.on_change(self)

    def _result(self) -> dict[str, Any]:
        assert self.match is not None
        result = self.match.result()
        return {
            "ending": self.row.ending,
            "winners": [] if result is None else list(result.winners),
            "losers": [] if result is None else list(result.losers),
            # each seat's place, 1 the best (partners share theirs); None without a result
            "places": None if result is None else list(places(self.match, self.rules.players)),
            "scores": self.match.ledger.public(),
            "seed": str(self.row.seed),
            "ratings": (self.row.ending or {}).get("ratings"),
        }

    def close(self) -> None:
        """The table is given up before it started: its clients hear so."""
        self._notify({"t": "closed"})

    def announce(self) -> None:
        """Tell every client the table's seats and status (unversioned: not part of the game)."""
        for client in self.listeners():
            view = self.view_json(client.seat)
            client.send({"type": "table", "table": self.info(), "view": view})

    def listeners(self) -> list[Client]:
        """The clients whose hello has been answered (every other one will hear it in its sync)
        and that are not dropped."""
        return [c for c in self.clients if c.listening and c.closing is None]

    def _notify(self, event: dict[str, Any], but: Client | None = None) -> None:
        """Tell the clients of a change that is not part of the game (unversioned)."""
        message = {"type": "notice", "event": event, "table": self.info(), "clock": self.clock()}
        for client in self.listeners():
            if client is not but:
                client.send(message)

    def _emit(self, event: dict[str, Any]) -> None:
        event["v"] = len(self.events) + 1
        self.events.append(event)
        listeners = self.listeners()
        if not listeners:
            return
        views: dict[int | None, dict[str, Any] | None] = {}
        clock = self.clock()
        number = self.round_number()
        for client in listeners:
            if client.seat not in views:
                views[client.seat] = self.view_json(client.seat)
            client.send(
                {
                    "type": "event",
                    "v": event["v"],
                    "event": event,
                    "view": views[client.seat],
                    "round": number,
                    "clock": clock,
                }
            )

    def record_text(self) -> str:
        assert self.match is not None
        return record.dumps(self.match)


def _copy(match: Match) -> Match:
    """A copy of ``match`` that moves on without it (its current round is copied, the
    finished ones are shared)."""
    twin = copy.copy(match)
    twin.rounds = [*match.rounds[:-1], match.round.copy()]
    return twin


def _after(match: Match, move: Move) -> Match:
    """The match after ``move``; ``match`` itself is untouched."""
    after = _copy(match)
    after.push(move)
    return after
