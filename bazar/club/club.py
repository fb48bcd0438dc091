"""The club: the tables in memory, their creation from the game-request form, seats, bots,
rematches, and what happens when a match ends (its record, the ratings).

Only open and live tables, and finished ones still watched, are held in memory; any other is
rebuilt from the database when asked for.

The club supervises its tables' actors, as in an actor system: one that fails is logged and
its table rebuilt from the database, its clients told to come again; one that fails again and
again, or whose stored moves no longer replay, is left stopped, out of order, and every other
table goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import random
import secrets
import socket
import time
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from sqlalchemy.orm import Session

from bazar import analysis
from bazar.core import record
from bazar.core.errors import UnknownOption, UnknownVariant
from bazar.core.ledger import MatchResult
from bazar.core.match import Match
from bazar.core.rules import rules as make_rules
from bazar.rating import kozel_delta

from . import coach
from .audience import RESTART
from .coach import Coach
from .errors import ServerError, refusal_code
from .lobby import Lobby
from .protocol import LEVELS, PlayNow, TableForm, out_of_bounds
from .routing import RELEASED, Bus, Router, Windows
from .settings import Settings
from .storage import KOZEL, LeaseLost, Played, RecordRow, Stores, TableRow, User, stored
from .summary import summary
from .table import Table
from .tablestate import TableError
from .tournaments import Tournaments, badge_of

__all__ = ["Club", "Elsewhere", "Quota"]

log = logging.getLogger("bazar.club")


class Elsewhere(TableError):
    """The table lives in another process of the club, ``node``, which holds its lease: this
    one does not start it (a client's requests go there, through Redis)."""

    def __init__(self, table_id: str, node: str) -> None:
        super().__init__(refusal_code("table_elsewhere"), 503, table=table_id, retry_after=1)
        self.node = node


class Club:
    def __init__(
        self,
        storage: Stores,
        *,
        bot_delay: float = 0.5,
        grace_s: float = 60.0,
        rematch_window_s: float = 120.0,
        settings: Settings | None = None,
        node: str | None = None,
    ) -> None:
        self.storage = storage
        #: this process's name among the club's processes: unique to each start (a process
        #: started again is another node, which holds none of the old one's leases)
        self.node = node or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        #: the club's limits
        self.settings = settings or Settings()
        self.bot_delay = bot_delay
        #: how long a player may be away before a bot takes the seat (or the match ends)
        self.grace_s = grace_s
        #: how long a finished table stays in memory for its players' rematch
        self.rematch_window_s = rematch_window_s
        self.tables: dict[str, Table] = {}
        #: the guests made lately, by client address
        self.guests = Quota(self.settings.guests_per_address, 3600.0)
        #: the tables being stored for their owners, which the database does not count yet
        self.making: Counter[int] = Counter()
        #: the tables left stopped (their stored moves do not replay, or their actor failed
        #: too often): they answer "table_broken" until the server restarts
        self.broken: set[str] = set()
        #: how many times each table's actor was rebuilt after a failure
        self.restarts: dict[str, int] = {}
        # the bots think here, off the event loop
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="bazar-bot")
        # ... and the searching ones in other processes (started when first needed): a search
        # in a thread would hold the interpreter lock and slow every table's answers
        self._processes: ProcessPoolExecutor | None = None
        #: the pages in the lobby, told whenever the list of open tables changes
        self.lobby = Lobby(self.listing)
        #: the club's other processes, through Redis (``settings.redis_url``; started by
        #: :meth:`start`): None while this process is the whole club
        self.router: Router | None = None
        #: set to look at the leases at once (a process gave its tables up)
        self._look = asyncio.Event()
        #: the players with a socket open on this process, and how many each has
        self.present: Counter[int] = Counter()
        #: what this process's writes of a table carry: they are made only while it holds
        #: the table's lease (storage.Fence)
        self.fence = (self.node, self.settings.lease_s)
        #: the task that renews this process's leases and takes over the tables of the
        #: processes that died (started by :meth:`start`)
        self._keeper: asyncio.Task[None] | None = None
        #: set by close(): the keeper stops at its next turn even if a cancellation was
        #: swallowed on the way (redis-py may swallow one that comes during a read)
        self._closing = False
        #: the leases being given up, written off the event loop
        self._releasing: set[asyncio.Task[None]] = set()
        #: the club's tournaments, and the directors of those this process runs
        self.tournaments = Tournaments(self)
        #: the analyses and hints the pages ask for, made in the bots' worker processes
        self.coach = Coach(self, self.settings)

    def processes(self) -> Executor:
        """The worker processes where searching bots think, started on first use and again
        after one of them died; one core is left to the club itself."""
        if self._processes is None:
            workers = max(1, (os.cpu_count() or 2) - 1)
            self._processes = ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._processes

    def processes_broken(self, pool: Executor) -> None:
        """``pool`` lost a worker: the next search starts a fresh one."""
        if self._processes is pool:
            self._processes = None
            pool.shutdown(wait=False, cancel_futures=True)

    # finding tables

    def table(self, table_id: str) -> Table:
        """The live table ``table_id``, rebuilt from the database if needed (its lease taken:
        :class:`Elsewhere` when another process runs it); TableError if none. This reads the
        database on the calling thread: on the event loop, :meth:`find` does it in a thread."""
        table = self._known(table_id)
        return table if table is not None else self._build(*self._leased(table_id))

    async def find(self, table_id: str) -> Table:
        """:meth:`table`, with the database read and the lease taken off the event loop."""
        table = self._known(table_id)
        if table is not None:
            return table
        row, moves = await stored(self.settings, self._leased, table_id)
        # another request may have built it meanwhile
        table = self.tables.get(table_id)
        return table if table is not None else self._build(row, moves)

    def _known(self, table_id: str) -> Table | None:
        """The table in memory, or None; TableError for one left stopped."""
        table = self.tables.get(table_id)
        if table is None and table_id in self.broken:
            raise TableError("table_broken", 503, table=table_id)
        return table

    def _leased(self, table_id: str) -> tuple[TableRow, list[str]]:
        """Take the lease of table ``table_id`` and read it: its row and its stored moves
        (nothing but the database is touched: this may run in a thread)."""
        row = self.storage.tables.table(table_id) if isinstance(table_id, str) else None
        if row is None:
            raise TableError("no_table", table=str(table_id))
        if not self.storage.tables.lease(row.id, self.node, self.settings.lease_s):
            # another process runs it; it may have given it up since (then it is ours)
            owner = self.storage.tables.owners([row.id]).get(row.id)
            if owner is not None and owner != self.node:
                raise Elsewhere(row.id, owner)
            if not self.storage.tables.lease(row.id, self.node, self.settings.lease_s):
                raise Elsewhere(row.id, owner or "?")
        # the row as it was stored before this process held the lease may be older than the
        # lease: read it again now that nobody else writes it
        row = self.storage.tables.table(row.id) or row
        moves = self.storage.tables.moves(row.id) if row.status != "open" else []
        return row, moves

    def _build(self, row: TableRow, moves: list[str]) -> Table:
        """The table of ``row`` in memory, its match replayed from ``moves`` and going on."""
        try:
            table = self._table(row)
            if row.status != "open":
                table.restore(moves)
        except Exception:
            log.exception("table %s does not replay from its stored moves: left stopped", row.id)
            self.broken.add(row.id)
            raise TableError("table_broken", 503, table=row.id) from None
        if row.status == "finished":
            # its rematch window counts from its end, not from this process's start
            try:
                table.state.rematch_closes = self._rematch_closes(table)
            except TableError:
                table.state.rematch_closes = time.monotonic()
        if row.status != "open":
            # a live match goes on; a finished one leaves memory again once nobody needs it
            table.run()
        self.tables[row.id] = table
        return table

    def _table(self, row: TableRow) -> Table:
        badge = None
        if row.tournament is not None:
            badge = self.tournaments.badges.get(row.id) or badge_of(self.storage.tournaments, row)
        return Table(
            row,
            self.storage.tables,
            bot_delay=self.bot_delay,
            unwatched_bot_delay=self.settings.unwatched_bot_delay_s,
            grace_s=self.grace_s,
            rematch_window_s=self.rematch_window_s,
            executor=self.executor,
            processes=self,
            on_finish=self.finished,
            on_close=self.drop,
            on_crash=self.crashed,
            on_change=self._listed,
            settings=self.settings,
            fence=self.fence,
            badge=badge,
        )

    def _listed(self, table: Table) -> None:
        """``table`` changed what the lobby lists of it (it ended, a bot took a seat); the
        director of its tournament looks at it."""
        self.listing_changed(table)
        self.tournaments.wake(table.row)

    def listing_changed(self, table: Table | None = None) -> None:
        """What the lobby lists of ``table`` (None: of any of this process's tables) may have
        changed: its pages hear soon, and with Redis every process's pages (through the
        lobby's hash, where only what changed is written again)."""
        if self.router is not None:
            self.router.tables_changed(None if table is None else table.id)
        else:
            self.lobby.changed()

    def drop(self, table: Table) -> None:
        """Forget a finished table (its record and moves stay in the database), and give its
        lease up."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._release([table.id])

    def _release(self, table_ids: list[str]) -> None:
        """Give up this process's leases of ``table_ids``, off the event loop (a lease not
        given up expires anyway)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.storage.tables.release(self.node, table_ids)
            return
        task = loop.create_task(self._release_off_loop(table_ids))
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    async def _release_off_loop(self, table_ids: list[str]) -> None:
        try:
            await asyncio.to_thread(self.storage.tables.release, self.node, table_ids)
        except Exception:
            log.warning("the leases of %s were not given up: they expire", table_ids)

    def lost(self, table: Table) -> None:
        """This process no longer holds ``table``'s lease (it could not renew it in time, and
        another process took the table over): stop it here, its clients' sockets closed (they
        come again and reach the table where it lives now)."""
        log.warning("table %s was taken over by another process: stopped here", table.id)
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        table.halt()
        table.audience.close_clients(*RESTART)
        self.listing_changed(table)

    def crashed(self, table: Table, error: BaseException) -> None:
        """A table's actor failed: rebuild the table from the database, its clients' sockets
        closed (they come again, and hear the rebuilt table or why there is none). One that
        failed for its lost lease lives in another process now."""
        if isinstance(error, LeaseLost):
            self.lost(table)
            return
        log.error("table %s failed", table.id, exc_info=error)
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._restart(table.id)
        table.audience.close_clients(*RESTART)

    def _restart(self, table_id: str) -> None:
        """Rebuild a table whose actor failed, unless it failed more than ``table_restarts``
        times: then it is left stopped, out of order."""
        restarts = self.restarts[table_id] = self.restarts.get(table_id, 0) + 1
        if restarts > self.settings.table_restarts:
            log.error("table %s failed %d times: left stopped", table_id, restarts)
            self.broken.add(table_id)
            return
        try:
            again = self.table(table_id)
        except TableError:
            return  # it does not replay (logged): it stays out of order
        except Exception:
            log.exception("table %s was not rebuilt: it will be when next asked for", table_id)
            return
        log.warning(
            "table %s rebuilt from its stored moves, at version %d", table_id, again.state.v
        )

    async def close(self) -> None:
        """Stop every table and the bots' threads (the server is shutting down, or drained):
        every table's lease is given up, so that another process of the club takes each over
        at once from its stored moves, and its clients' sockets are closed for them to come
        again there."""
        self._closing = True
        await self.coach.close()
        if self._keeper is not None:
            self._keeper.cancel()
            # waited for, not awaited: a cancellation of close() itself is not swallowed
            await asyncio.wait([self._keeper])
            self._keeper = None
        await self.tournaments.close()
        tables = list(self.tables.values())
        for table in tables:
            await table.stop()
            table.audience.close_clients(*RESTART)
        self.tables.clear()
        if self._releasing:
            await asyncio.wait(list(self._releasing))
        try:
            await asyncio.to_thread(self.storage.tables.release, self.node, [t.id for t in tables])
        except Exception:
            log.warning("the leases of this process were not given up: they expire")
        if self.router is not None:
            # the other processes take the tables over now, not once the leases expire
            self.router.bus.announce(RELEASED, {"from": self.node})
            await self.router.close()
            self.router = None
        self.executor.shutdown(wait=True, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=True, cancel_futures=True)
            self._processes = None

    async def start(self) -> None:
        """Meet the club's other processes (with Redis), resume the matches no process runs
        (after a restart), and keep this process's leases from then on (:meth:`_keep`)."""
        self._closing = False
        if self.settings.redis_url and self.router is None:
            self.router = Router(self, Bus(self.settings.redis_url, self.node))
            await self.router.start()
        self.resume()
        self.tournaments.resume()
        if self._keeper is None:
            self._keeper = asyncio.get_running_loop().create_task(self._keep())
        if self.router is not None:
            self.listing_changed()

    def look_soon(self) -> None:
        """Look at the leases now, not at the next turn: another process gave tables up."""
        self._look.set()

    def resume(self) -> None:
        """Restart the actors of every match that was being played and that no process runs
        (after a restart; one whose process died is taken over once its lease expires); a
        table that cannot be rebuilt is logged and left out, and every other one goes on."""
        for table_id in self.storage.tables.orphans(limit=10_000):
            with contextlib.suppress(TableError):
                self.table(table_id)

    async def _keep(self) -> None:
        """Every third of a lease: renew this process's leases, stop the tables whose lease
        another process took (this one was too slow to renew it), and take over the matches
        whose process died (their leases expired). A database out of reach for a while only
        delays it (a lease that expires meanwhile is another's to take)."""
        period = self.settings.lease_s / 3
        while not self._closing:
            # processes started together do not all look at the same instant; not
            # asyncio.wait_for: on Python 3.11 it swallows a cancellation that comes as the
            # event is set (close() after look_soon()), and the keeper then never stops
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(period * random.uniform(0.8, 1.0)):
                    await self._look.wait()
            self._look.clear()
            if self._closing:
                return
            try:
                await self.keep()
            except Exception:
                log.exception("the leases were not renewed this time")

    async def keep(self) -> None:
        """One turn of :meth:`_keep`."""
        held = await asyncio.to_thread(self.storage.tables.renew, self.node, self.settings.lease_s)
        for table in list(self.tables.values()):
            if table.id not in held:
                self.lost(table)
        orphans = await asyncio.to_thread(self.storage.tables.orphans, 500)
        for table_id in orphans:
            if table_id in self.tables or table_id in self.broken:
                continue
            with contextlib.suppress(TableError):
                await self.find(table_id)
                log.warning("table %s taken over from a process that stopped", table_id)
        await self.tournaments.keep(held)
        if self.router is not None:
            await self.router.keep()

    async def listing(self) -> list[dict[str, Any]]:
        """The lobby's tables: every process's, with Redis; else this one's."""
        if self.router is not None:
            return await self.router.lobby_tables()
        return self.open_tables()

    def open_tables(self) -> list[dict[str, Any]]:
        """The open-access tables of the database that wait for players or are being played,
        as this process lists them (one run elsewhere is left out)."""
        out = []
        for row in self.storage.tables.lobby(limit=200):
            if row.id in self.broken:
                continue
            with contextlib.suppress(Elsewhere):
                out.append(self.table(row.id).info())
        return out

    # who is online

    async def arrived(self, user_id: int) -> None:
        """A player opened a socket on this process."""
        self.present[user_id] += 1
        if self.router is not None:
            await self.router.seen([user_id])

    def left(self, user_id: int) -> None:
        """A player's socket on this process closed."""
        self.present[user_id] -= 1
        if self.present[user_id] <= 0:
            del self.present[user_id]

    async def online(self) -> int:
        """How many players are online: with a socket open on this process, or lately on any
        of the club's processes (with Redis)."""
        if self.router is not None:
            return await self.router.online()
        return len(self.present)

    # what the HTTP API asks of a table: here, or in the process that runs it

    async def on_table(
        self, table_id: str, do: str, user: dict[str, Any] | None, args: dict[str, Any]
    ) -> Any:
        """Do ``do`` (``info``, ``join``, ``bots``, ``leave``, ``rematch``) at table
        ``table_id`` for ``user`` (``{"id", "name", "guest"}``, or None), with ``args``:
        here if it lives here (or nobody runs it: then it is started here), else in the
        process that runs it, asked through Redis. The answer is what the API sends."""
        try:
            table = await self.find(table_id)
        except Elsewhere as away:
            if self.router is None:
                raise
            message = {"table": table_id, "do": do, "user": user, "args": args}
            return await self.router.bus.call(away.node, message)
        who = None if user is None else _visitor(user)
        if do == "info":
            info = table.info()
            if who is not None:
                info["your_seat"] = table.seat_of(who.id)
                if table.row.owner == who.id:
                    info["invite"] = table.row.invite
            return info
        if who is None:
            raise ServerError("login_first", 401)
        if do == "join":
            seat = await self.join(table, who, args.get("seat"), args.get("invite"))
            return {"seat": seat, "table": table.info()}
        if do == "bots":
            await self.add_bots(table, who, args.get("level"))
            return {"table": table.info()}
        if do == "leave":
            await self.leave(table, who)
            return {"ok": True}
        if do == "rematch":
            return {"table": (await self.rematch(table, who)).info()}
        if do == "review":
            return self.review(table, who, args.get("round"))
        if do == "hint":
            return await self.hint(table, who)
        raise ValueError(f"no such request of a table: {do}")

    # the coach at a table: a finished round's moves graded, a hint

    def review(self, table: Table, who: User, number: Any) -> dict[str, Any]:
        """Where the coach's grades of ``who``'s moves in the finished round ``number`` of
        ``table`` stand (:meth:`Coach.ask`): his own moves, from his own views."""
        seat = table.seat_of(who.id)
        if seat is None:
            raise ServerError("coach_not_seated", 403)
        match = table.match
        rnd = None if match is None else next(
            (r for r in match.rounds if r.number == number and r.is_over()), None
        )  # fmt: skip
        if match is None or rnd is None:
            raise ServerError("no_round", 404, round=number)
        deals = self.settings.coach_deals

        def make() -> tuple[analysis.Plan, dict[int, int]]:
            assert match is not None
            return analysis.plan(match, seat, 0, deals, rounds=[number]), starts(match)

        key = ("round", table.id, number, seat, deals, coach.VERSION)
        return {**self.coach.ask(("user", who.id), key, make), "seats": [seat]}

    async def hint(self, table: Table, who: User) -> dict[str, Any]:
        """The coach's best move for ``who``, whose turn it is, and why: at a casual table
        where every other seat is a bot's, never where a rating, a tournament or another
        person is at stake (each refused with its own code)."""
        seat = table.seat_of(who.id)
        if seat is None:
            raise ServerError("coach_not_seated", 403)
        row = table.row
        if row.rated or row.tournament is not None:
            raise ServerError("hint_rated", 403)
        if any(s is None or not s.get("bot") for i, s in enumerate(row.seats) if i != seat):
            raise ServerError("hint_people", 403)
        match = table.match
        if match is None or match.is_over() or row.status != "playing":
            raise ServerError("hint_no_move", 409)
        if match.turn != seat:
            raise ServerError("hint_not_your_turn", 409)
        v = table.state.v
        hint = await self.coach.hint(
            ("user", who.id),
            ("hint", table.id, v, seat),
            match.view(seat),
            match.legal_moves(),
            f"hint:{table.id}:{v}",
        )
        return {**hint, "v": v}

    # quotas: what one client may make

    async def admit_guest(self, address: str) -> None:
        """Count a new guest from ``address``; ServerError while it made its hour's share
        (counted by every process of the club alike, with Redis)."""
        if self.router is not None:
            said = await Windows(
                self.router.bus.redis, "guests", self.settings.guests_per_address, 3600.0
            ).take(address)
            wait = None if said is None else max(1, round(said))
        else:
            wait = self.guests.take(address)
        if wait is not None:
            limit = self.settings.guests_per_address
            raise ServerError("too_many_guests", 429, limit=limit, retry_after=wait)

    @contextlib.contextmanager
    def _owning(self, user: User) -> Iterator[None]:
        """While ``user``'s new table is stored: TableError if he owns his share of tables
        already, counting the ones being stored (two requests at once cannot both pass)."""
        limit = self.settings.open_tables_per_user
        if self.storage.tables.owned(user.id) + self.making[user.id] >= limit:
            raise TableError("too_many_tables", 429, limit=limit)
        self.making[user.id] += 1
        try:
            yield
        finally:
            self.making[user.id] -= 1
            if not self.making[user.id]:
                del self.making[user.id]

    def bounded(self, game: str, options: dict[str, Any]) -> None:
        """Refuse a numeric option the club would not play to: a match to ``target`` 10**18
        never ends, and every move of it is a write (common.md §10 names the options; the
        games themselves bound the others, such as ``set_max`` and ``hand_size``)."""
        out = out_of_bounds(options, self.settings)
        if out is not None:
            name, low, high = out
            raise TableError("option_range", option=name, game=game, low=low, high=high)

    # the game-request form (online-club.md §1)

    async def create(self, owner: User, form: TableForm) -> Table:
        """A new table from the game-request form, whose shape :class:`TableForm` checked:
        the rules judge its options, and nothing is stored before all of it is accepted; the
        table is stored with its bots, in one write."""
        # the marks asked for, before the rules judge them (1e300 is no whole number either,
        # but it is out of reach first)
        self.bounded(form.game, form.options or {})
        try:
            rules = make_rules(form.game, players=form.players, **(form.options or {}))
        except (UnknownVariant, UnknownOption, ValueError, TypeError) as error:
            raise TableError.passing_on("rules", error) from None
        # a rated match is between registered people (online-club.md §1, §3): never a
        # rated request quietly made casual
        if form.rated and owner.guest:
            raise TableError("rated_guest")
        if form.rated and form.bots is not None:
            raise TableError("rated_bots")
        seats: list[Any] = [None] * rules.players
        if not 0 <= form.seat < rules.players:
            raise TableError("seat_form", last=rules.players - 1)
        seats[form.seat] = _player(owner)
        if form.bots is not None:
            seats = _with_bots(seats, form.bots)
        given = rules.options()
        given.pop("players", None)
        with self._owning(owner):
            row = TableRow(
                id=secrets.token_urlsafe(8),
                game=form.game,
                options={"players": rules.players, **given},
                owner=owner.id,
                move_time_s=form.move_time_s,
                access=form.access,
                invite=secrets.token_urlsafe(12),
                seed=secrets.randbelow(2**62),
                **_seating(seats, form.rated),
            )
            await stored(
                self.settings, self.storage.tables.add_table, row, self.node, self.settings.lease_s
            )
        return self.place(row)

    async def play_now(self, user: User, form: PlayNow) -> tuple[dict[str, Any], int]:
        """A seat for ``user`` at a table of ``form.game`` at once, and its number: the one
        he already sits at, else a free seat at an open table of that game (the one with the
        fewest seats left, which starts soonest; of those, the one waiting longest), else his
        seat at a new table with bots of ``form.level``, which starts at once."""
        rows = [r for r in self.storage.tables.lobby(limit=200) if r.game == form.game]
        rows = [r for r in rows if r.status == "open" and r.id not in self.broken]
        waiting = sorted(reversed(rows), key=lambda r: sum(s is None for s in r.seats))
        for row in waiting:
            seat = next(
                (i for i, s in enumerate(row.seats) if s and s.get("user") == user.id), None
            )
            with contextlib.suppress(ServerError):
                if seat is not None:
                    return await self.on_table(row.id, "info", _visiting(user), {}), seat
                # a seat kept for a rematch's player, or taken meanwhile: the next table
                joined = await self.on_table(row.id, "join", _visiting(user), {})
                return joined["table"], int(joined["seat"])
        made = TableForm.model_construct(
            game=form.game, players=form.players, move_time_s=form.move_time_s, bots=form.level
        )
        return (await self.create(user, made)).info(), made.seat

    def _ours(self, table: Table) -> None:
        """TableError if ``table`` left the club while a change of its seats waited its turn
        (its last player left: it is deleted)."""
        if self.tables.get(table.id) is not table:
            raise TableError("no_table", table=table.id)

    async def join(self, table: Table, user: User, seat: Any = None, invite: Any = None) -> int:
        async with table.seating:
            self._ours(table)
            return await self._join(table, user, seat, invite)

    async def _join(self, table: Table, user: User, seat: Any, invite: Any) -> int:
        row = table.row
        if row.status != "open":
            raise TableError("started")
        if row.access == "invitation_link" and invite != row.invite:
            raise TableError("invitation")
        if table.seat_of(user.id) is not None:
            raise TableError("seated")
        if row.rated and user.guest:
            raise TableError("rated_guest")
        # a rematch keeps its players' seats for them while they may accept it
        reserved = table.audience.now().reservations()
        free = [i for i, s in enumerate(row.seats) if s is None]
        if seat is None:
            mine = [i for i in free if reserved.get(i, (user.id,))[0] == user.id]
            if not mine:
                raise TableError("no_free_seat")
            seat = next((i for i in mine if i in reserved), mine[0])
        if not isinstance(seat, int) or seat not in free:
            raise TableError("seat_taken", seat=str(seat), free=", ".join(map(str, free)))
        if seat in reserved and reserved[seat][0] != user.id:
            raise TableError("seat_reserved", seat=seat, name=reserved[seat][1])
        seats = list(row.seats)
        seats[seat] = _player(user)
        await self._seat(table, seats)
        return seat

    async def add_bots(self, table: Table, user: User, level: Any) -> None:
        """Fill the table's empty seats with bots of ``level`` (its owner asks): they play
        with people, never a match of their own."""
        async with table.seating:
            self._ours(table)
            await self._add_bots(table, user, level)

    async def _add_bots(self, table: Table, user: User, level: Any) -> None:
        if table.row.owner != user.id:
            raise TableError("owner_bots")
        if table.row.status != "open":
            raise TableError("started")
        if table.row.rated:
            raise TableError("rated_bots")
        if level not in LEVELS:
            raise TableError("unknown_level", level=str(level), levels=", ".join(LEVELS))
        if not _people(table.row.seats):
            raise TableError("bots_alone")
        await self._seat(table, _with_bots(table.row.seats, level))

    async def leave(self, table: Table, user: User) -> None:
        """Give up a seat at a table that has not started. The last person to leave closes
        it (no table waits in the lobby for nobody); an owner who leaves others behind hands
        the table to the first of them."""
        async with table.seating:
            self._ours(table)
            await self._leave(table, user)

    async def _leave(self, table: Table, user: User) -> None:
        seat = table.seat_of(user.id)
        if seat is None or table.row.status != "open":
            raise TableError("no_seat_to_leave")
        seats = list(table.row.seats)
        seats[seat] = None
        people = _people(seats)
        if not people:
            await stored(self.settings, self.storage.tables.delete_table, table.id)
            self.drop(table)
            table.audience.close()
            self.listing_changed(table)
            return
        owner = {"owner": people[0]["user"]} if table.row.owner == user.id else {}
        await self._seat(table, seats, **owner)

    async def _seat(self, table: Table, seats: list[Any], **changes: Any) -> None:
        """Store the table's new ``seats`` (and ``changes`` of its row), then make them."""
        write = functools.partial(
            self.storage.tables.update_table,
            table.id,
            self.fence,
            **_seating(seats, table.row.rated),
            **changes,
        )
        table.row = await stored(self.settings, write)
        self._seated(table)

    def place(self, row: TableRow) -> Table:
        """The table of ``row``, stored a moment ago by this process (which holds its lease),
        made live here: kept, and seated (it starts when its seats are full)."""
        table = self._table(row)
        self.tables[row.id] = table
        self._seated(table)
        return table

    def _seated(self, table: Table) -> None:
        """Make the stored seats of ``table``: its match starts once they are full, and its
        clients hear."""
        if table.row.status == "playing":
            table.start()
            table.run()
        table.audience.announce()
        self.listing_changed(table)

    async def rematch(self, table: Table, user: User) -> Table:
        """A player of a finished table asks for a rematch, or accepts the one another asked
        for (online-club.md §2: a rematch seats only the players who accept it). The first to
        ask makes it, once: the same game at a new table where he sits, its bots too, and
        every other player's seat kept for him while the rematch window lasts; each other
        player who asks is seated there. The match starts when every seat is taken."""
        async with table.seating:
            return await self._rematch(table, user)

    async def _rematch(self, table: Table, user: User) -> Table:
        seat = table.seat_of(user.id)
        if seat is None:
            raise TableError("rematch_player")
        if table.row.status != "finished":
            raise TableError("not_over")
        made = (table.row.ending or {}).get("rematch")
        new = None
        if made is not None:
            with contextlib.suppress(TableError):
                # (none: its owner gave it up before anybody else came)
                new = await self.find(made)
            if new is not None and new.seat_of(user.id) is not None:
                return new
        ends = self._rematch_closes(table)
        if made is not None:
            if new is None:
                raise TableError("rematch_closed")
            await self.join(new, user, seat)
            return new
        old = table.row
        # the players as they sat down, without the bots that played for them
        players = [s and {k: v for k, v in s.items() if k != "changes"} for s in old.seats]
        # its bots come again; of the people, only the one who asked
        seats = [s if i == seat or (s and s.get("bot")) else None for i, s in enumerate(players)]
        with self._owning(user):
            row = TableRow(
                id=secrets.token_urlsafe(8),
                game=old.game,
                options=dict(old.options),
                owner=user.id,
                move_time_s=old.move_time_s,
                access=old.access,
                invite=secrets.token_urlsafe(12),
                seed=secrets.randbelow(2**62),
                **_seating(seats, old.rated),
            )
            # kept with the table, so that the process that runs it next keeps them too
            row.reserved = {
                "until": time.time() + (ends - time.monotonic()),
                "seats": {
                    str(i): [s["user"], s["name"]]
                    for i, s in enumerate(players)
                    if s and s.get("user")
                },
            }
            table.row = await stored(
                self.settings,
                self.storage.tables.add_rematch,
                row,
                table.id,
                self.node,
                self.settings.lease_s,
            )
        new = self.place(row)
        table.audience.notify({"t": "rematch", "table": row.id, "seat": seat, "name": user.name})
        return new

    def _rematch_closes(self, table: Table) -> float:
        """When (``time.monotonic()``) the rematch window of the finished ``table`` closes,
        counted from its end (its record's time, so that no restart opens it again);
        TableError once it has."""
        record = self.storage.records.record(table.id)
        left = -1.0 if record is None else record.created + self.rematch_window_s - time.time()
        if left <= 0:
            raise TableError("rematch_closed")
        return time.monotonic() + left

    # the end of a match

    def finished(
        self, table: Table, match: Match, ending: dict[str, Any], db: Session
    ) -> dict[str, Any] | None:
        """Add the record of ``match`` to ``db``, the transaction that ends it, and each
        person's seat in it (:class:`Played`, with his rating after the match where it was
        rated); the ratings' changes (:meth:`_rate`)."""
        names = [s["name"] if s else "?" for s in table.row.seats]
        result = match.result()
        kept = {
            **summary(match),
            "ending": ending,
            # the seats of guests, whose names are not theirs alone
            "guests": [i for i, s in enumerate(table.row.seats) if s and s.get("guest")],
            # and the level of each bot's seat (a bot has no profile, and is named by its level)
            "bots": {str(i): s["bot"] for i, s in enumerate(table.row.seats) if s and s.get("bot")},
        }
        ratings = self._rate(table, match, ending, db)
        skill = (ratings or {}).get("skill", {})
        winners = set() if result is None else set(result.winners)
        # a person played a casual match only where he made a move of his own: a table he
        # left at its deal, that bots then played out, is not a match of his (a rated one or
        # a tournament's is: he answers for it, a no-show too)
        answers = table.row.rated or table.row.tournament is not None
        moved = own_moves(
            table.row.seats, [seat for r in match.rounds for seat, _, _ in r.history()]
        )
        self.storage.records.add_match(
            db,
            RecordRow(
                id=table.id,
                table_id=table.id,
                game=table.row.game,
                players=names,
                text=record.dumps(match),
                summary=kept,
            ),
            (
                Played(
                    record_id=table.id,
                    seat=i,
                    user_id=int(seat["user"]),
                    game=table.row.game,
                    won=i in winners,
                    rating=skill.get(i),
                )
                for i, seat in enumerate(table.row.seats)
                if seat and seat.get("user") and (answers or i in moved)
            ),
        )
        return ratings

    def _rate(
        self, table: Table, match: Match, ending: dict[str, Any], db: Session
    ) -> dict[str, Any] | None:
        """Rate a rated match of registered people (never one with bots): the ratings'
        changes, or None."""
        result = match.result()
        seats = table.row.seats
        if not table.row.rated or any(s is None or not s.get("user") for s in seats):
            return None
        users = [int(s["user"]) for s in seats]
        timed_out = ending.get("timeout")
        ratings: dict[str, Any] = {}
        opts = table.state.rules.options()
        scores = match.ledger.public().get("scores")
        points = table.state.rules.variant.traits.club_rating == "kozel" and opts.get("rating")
        if points and not table.state.rules.teams:
            assert isinstance(scores, list)
            deltas = {}
            for seat, points in enumerate(scores):
                if seat == timed_out:
                    continue
                T = None if timed_out is None else scores[timed_out]
                deltas[seat] = kozel_delta(points, T)
            ratings["kozel"] = deltas
        ratings["skill"] = self._rate_skill(db, table, users, result, timed_out)
        for seat, delta in ratings.get("kozel", {}).items():
            self.storage.ratings.held(db, users[seat], KOZEL).points += delta
        return ratings

    def _rate_skill(
        self, db: Session, table: Table, users: list[int], result: Any, timed_out: int | None
    ) -> dict[int, float]:
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        sides = list(table.state.rules.teams) or [(s,) for s in range(len(users))]
        ranks = skill_ranks(sides, result, timed_out)
        game = table.row.game
        out: dict[int, float] = {}
        teams = []
        rows = []
        for side in sides:
            team = []
            for seat in side:
                row = self.storage.ratings.held(db, users[seat], game)
                team.append(model.create_rating([row.mu, row.sigma]))
                rows.append((seat, row))
            teams.append(team)
        rated = model.rate(teams, ranks=ranks)
        flat = [r for team in rated for r in team]
        for (seat, row), new in zip(rows, flat, strict=True):
            row.mu, row.sigma, row.games = new.mu, new.sigma, row.games + 1
            out[seat] = round(new.ordinal(), 2)
        return out


def skill_ranks(
    sides: list[tuple[int, ...]], result: MatchResult | None, timed_out: int | None
) -> list[float]:
    """Each side's place for the skill rating: the winners first, then the sides that
    neither won nor lost (a limit or the totals decided), then the losers, then the side of a
    player who timed out (there is no result then).

    >>> import bazar
    >>> result = bazar.Ledger(bazar.rules("kozel", players=4), scores=[30, 101, 60, 90]).result
    >>> skill_ranks([(0,), (1,), (2,), (3,)], result, None)
    [1, 3, 2, 2]
    """
    winners = set() if result is None else set(result.winners)
    losers = set() if result is None else set(result.losers)
    return [
        4 if timed_out in side else 1 if set(side) & winners else 3 if set(side) & losers else 2
        for side in sides
    ]


class Quota:
    """At most ``limit`` of something per key (a client's address) in any ``period``
    seconds: the times of the last ones, by key.

    >>> quota = Quota(2, 60.0)
    >>> quota.take("a", now=0), quota.take("a", now=1), quota.take("a", now=30)
    (None, None, 30)
    >>> quota.take("a", now=61), quota.take("b", now=61)
    (None, None)
    """

    def __init__(self, limit: int, period: float) -> None:
        self.limit = limit
        self.period = period
        self.taken: dict[str, deque[float]] = {}

    def take(self, key: str, now: float | None = None) -> int | None:
        """Count one for ``key``; or, when its share is taken, the seconds until there is
        room again (and nothing is counted)."""
        now = time.monotonic() if now is None else now
        if len(self.taken) > 10_000:
            # keys that came once and never again
            for old in [k for k, times in self.taken.items() if times[-1] <= now - self.period]:
                del self.taken[old]
        times = self.taken.setdefault(key, deque())
        while times and times[0] <= now - self.period:
            times.popleft()
        if len(times) >= self.limit:
            return max(1, round(times[0] + self.period - now))
        times.append(now)
        return None


def _seating(seats: list[Any], rated: bool) -> dict[str, Any]:
    """What a table's row says of ``seats``: them, its status (a full table plays), and
    whether it is rated (a full one only if registered people alone sit there).

    >>> _seating([{"user": 1}, None], True)
    {'seats': [{'user': 1}, None], 'status': 'open', 'rated': True}
    >>> _seating([{"user": 1}, {"bot": "greedy"}], True)
    {'seats': [{'user': 1}, {'bot': 'greedy'}], 'status': 'playing', 'rated': False}
    """
    full = all(s is not None for s in seats)
    if full:
        rated = rated and all(s.get("user") for s in seats)
    return {"seats": seats, "status": "playing" if full else "open", "rated": rated}


def _with_bots(seats: list[Any], level: str) -> list[Any]:
    """``seats`` with bots of ``level`` in the empty ones."""
    return [
        s if s is not None else {"bot": level, "name": f"{level} bot {i + 1}"}
        for i, s in enumerate(seats)
    ]


def _people(seats: list[Any]) -> list[dict[str, Any]]:
    """The seats people (not bots) sit at."""
    return [s for s in seats if s is not None and s.get("user")]


def starts(match: Match) -> dict[int, int]:
    """Where each round's moves start among all the moves of ``match`` (by round number):
    the replay's count of moves."""
    out, made = {}, 0
    for rnd in match.rounds:
        out[rnd.number] = made
        made += len(rnd.moves)
    return out


def _visiting(user: User) -> dict[str, Any]:
    """``user`` as a request for a table in another process names him."""
    return {"id": user.id, "name": user.name, "guest": user.guest}


def _visitor(user: dict[str, Any]) -> User:
    """The player a request for a table names (:func:`_visiting`): what the table needs of
    him, not a row to store."""
    return User(id=int(user["id"]), name=str(user["name"]), guest=bool(user["guest"]))


def _player(user: User) -> dict[str, Any]:
    return {"user": user.id, "name": user.name, "guest": user.guest}


def own_moves(seats: Sequence[Any], movers: Sequence[int]) -> set[int]:
    """The seats of ``seats`` (a table's) whose person made a move of his own: ``movers`` is
    the seat of each move in order, and a seat's ``changes`` say from which move a bot played
    it ("replaced") and from which its person again ("back")."""
    own = set()
    for i, seat in enumerate(seats):
        if not seat or not seat.get("user"):
            continue
        changes = sorted((c["at"], c["v"], c["t"]) for c in seat.get("changes", ()))
        bot = False
        k = 0
        for n, mover in enumerate(movers):
            while k < len(changes) and changes[k][0] <= n:
                if changes[k][2] == "replaced":
                    bot = True
                elif changes[k][2] == "back":
                    bot = False
                k += 1
            if mover == i and not bot:
                own.add(i)
                break
    return own
