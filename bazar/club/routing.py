"""The club's processes, one Redis between them: any process takes any client, and each
table lives in the one process that holds its lease (:class:`~bazar.club.club.Club`).

Each process listens on a channel of its own, ``bazar:node:NODE``, and says there what it
has for another: a socket's messages for the process that runs its table, and that table's
messages for the process the socket is open on, in the order they were said (one publishing
connection, in order); a request of the HTTP API for the table's process, and the answer.
A process that serves a socket for a table elsewhere is its *edge*; the table's process
holds a :class:`RemoteClient` for it, which the table treats like any other client.

The lobby's list is one hash, ``bazar:lobby``: each process writes its own open-access
tables there as they change, and says so on ``bazar:lobby``; every process then sends its
lobby pages the new list. Who is online is a sorted set, ``bazar:online`` (a player's last
sign of life). Each process says it is alive (``bazar:alive:NODE``, expiring with a lease):
a table's process forgets the clients of an edge that died, an edge closes the sockets of a
table whose process died (its players come again, and reach it where it is taken over).

The way Colyseus scales rooms (each room in one process, Redis for presence and pub/sub) and
lila-ws talks to lila over Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from . import protocol
from .audience import Client
from .errors import ServerError
from .table import Table

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

    from .club import Club

__all__ = ["Edge", "RemoteClient", "Router", "Windows", "dispatch"]

log = logging.getLogger("bazar.club")

#: the hash of the lobby's tables (table id -> its listing), and the channel that says it
#: changed
LOBBY = "bazar:lobby"
#: the players' last signs of life (user id -> time.time())
ONLINE = "bazar:online"
#: the channel a process says it gave tables up on (it stops): another takes them at once
RELEASED = "bazar:released"
#: seconds a player counts as online after his last sign of life
ONLINE_S = 120.0
#: seconds a request of the HTTP API waits for the table's process to answer
CALL_TIMEOUT_S = 10.0
#: the start of a frame that holds a text for a socket (never the start of a JSON object)
OUT = "o:"
OUT_BYTES = OUT.encode()
#: messages published in one round trip at most
BATCH = 512


def channel(node: str) -> str:
    return f"bazar:node:{node}"


def alive_key(node: str) -> str:
    return f"bazar:alive:{node}"


def dispatch(table: Table, client: Client, text: str, user_id: int | None) -> None:
    """A socket's message ``text`` for ``table``, from ``client`` whose player is
    ``user_id`` (None: a spectator without a session): read as the protocol says, and made
    by the table (its answers go to the client)."""
    try:
        message = protocol.read_message(text)
    except ServerError as error:
        client.refuse(error)
        return
    match message:
        case protocol.HelloMessage(v=since):
            # the seat may have been taken since the socket opened
            client.seat = None if user_id is None else table.seat_of(user_id)
            table.audience.hello(client, since)
        case _ if not client.listening:
            # what it would act on is in the sync it has not asked for yet
            client.refuse(ServerError("hello_first"))
        case protocol.MoveMessage(move=move, v=v):
            table.audience.submit(client, move, v)
        case protocol.BackMessage():
            table.audience.take_back(client)
        case protocol.LeaveMessage():
            table.audience.leave(client)
        case protocol.NextMessage():
            table.audience.seen_round_end(client)
        case protocol.PingMessage():
            client.send({"type": "pong"})


@dataclass(eq=False)
class RemoteClient(Client):
    """A socket open on another process (``node``, the edge, as ``cid``): what the table
    tells it is published to that process, in order; it is never too slow here (the edge
    holds the socket's outbox and drops it)."""

    node: str = ""
    cid: str = ""
    router: Router | None = None
    user_id: int | None = None

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closing is not None or self.router is None:
            return
        # written once, as its socket will be sent it: the edge passes the text on unread
        text = (
            message
            if isinstance(message, str)
            else json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        )
        self.router.bus.send_text(self.node, self.cid, text)

    def drop(self, code: int, reason: str) -> None:
        if self.closing is not None:
            return
        self.closing = (code, reason)
        self.dropped.set()
        if self.router is not None:
            self.router.bus.send(
                self.node, {"op": "drop", "c": self.cid, "code": code, "reason": reason}
            )
            self.router.forget(self.cid)


@dataclass(eq=False)
class Edge:
    """A socket this process serves for a table of another process, ``owner``."""

    client: Client
    table_id: str
    owner: str


class Bus:
    """Redis for the club's processes: this process's channel, what it publishes, in order,
    and the answers it waits for."""

    def __init__(self, url: str, node: str) -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.node = node
        # a request waits for one of the pool's connections rather than failing when a
        # burst of them (a thousand logins at once) wants more than it keeps
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=64, timeout=20)
        self.redis: Redis = aioredis.Redis(connection_pool=pool)
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._answers: dict[str, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: PubSub | None = None
        self._closing = False

    async def start(
        self,
        heard: Callable[[str, dict[str, Any]], None],
        told: Callable[[str, str], None],
    ) -> None:
        """Listen on this process's channel, the lobby's and the released tables', each
        message ``heard(channel, message)`` on the event loop, in order; each text for a
        socket served here ``told(client id, text)``."""
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(channel(self.node), LOBBY, RELEASED)
        self._tasks = [
            asyncio.create_task(self._read(self._pubsub, heard, told)),
            asyncio.create_task(self._write()),
        ]

    async def close(self) -> None:
        # what is still to be said (the drops of a process that stops) goes first
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5.0):
                await self._drain()
        # the reader also stops by itself: redis-py's read with a timeout may swallow a
        # cancellation that comes as its timeout does (then the loop would read on for ever)
        self._closing = True
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=5.0)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.delete(alive_key(self.node))
        await self.redis.aclose()

    async def _drain(self) -> None:
        while not self._out.empty():
            await asyncio.sleep(0.01)

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Publish ``message`` to process ``node`` (after every message published before)."""
        self._out.put_nowait((channel(node), json.dumps(message, separators=(",", ":"))))

    def send_text(self, node: str, cid: str, text: str) -> None:
        """Publish to process ``node`` the ``text`` its socket ``cid`` is to be sent, as it
        is (a frame of its own: ``OUT`` + the client's id + the text, no JSON around it)."""
        self._out.put_nowait((channel(node), f"{OUT}{cid} {text}"))

    def announce(self, where: str, message: dict[str, Any]) -> None:
        """Publish ``message`` on the channel ``where`` every process listens on."""
        self._out.put_nowait((where, json.dumps(message, separators=(",", ":"))))

    async def call(self, node: str, message: dict[str, Any]) -> Any:
        """Ask process ``node`` and wait for its answer (ServerError when it refuses, or when
        it does not answer in time: it may have just stopped, and the client may ask again)."""
        ask = secrets.token_hex(8)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._answers[ask] = answer
        self.send(node, {**message, "op": "call", "ask": ask, "from": self.node})
        try:
            async with asyncio.timeout(CALL_TIMEOUT_S):
                reply = await answer
        except TimeoutError:
            raise ServerError(
                "table_elsewhere", 503, table=message.get("table", ""), retry_after=1
            ) from None
        finally:
            self._answers.pop(ask, None)
        if "error" in reply:
            error = reply["error"]
            raise ServerError(error["code"], error["status"], **error["params"])
        return reply["ok"]

    def answer(self, node: str, ask: str, reply: dict[str, Any]) -> None:
        self.send(node, {"op": "answer", "ask": ask, **reply})

    def answered(self, message: dict[str, Any]) -> None:
        waiting = self._answers.get(message["ask"])
        if waiting is not None and not waiting.done():
            waiting.set_result(message)

    async def _read(
        self,
        pubsub: PubSub,
        heard: Callable[[str, dict[str, Any]], None],
        told: Callable[[str, str], None],
    ) -> None:
        while not self._closing:
            try:
                # a blocking read: no timeout to arm and disarm for every message
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self._heard(message, heard, told)
                    if self._closing:
                        return
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("Redis: what this process was sent was not read; again in 1 s")
                await asyncio.sleep(1.0)

    @staticmethod
    def _heard(
        message: dict[str, Any],
        heard: Callable[[str, dict[str, Any]], None],
        told: Callable[[str, str], None],
    ) -> None:
        where = message["channel"].decode()
        data: bytes = message["data"]
        try:
            if data.startswith(OUT_BYTES):
                cid, _, text = data[len(OUT_BYTES) :].decode().partition(" ")
                told(cid, text)
            else:
                heard(where, json.loads(data))
        except Exception:
            log.exception("Redis: a message on %s was not handled", where)

    async def _write(self) -> None:
        while True:
            batch = [await self._out.get()]
            while len(batch) < BATCH and not self._out.empty():
                batch.append(self._out.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for where, data in batch:
                        pipe.publish(where, data)
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:
                # Redis out of reach: what these said is lost (the sockets concerned come
                # again when their process is seen to be gone)
                log.exception("Redis: %d messages were not published", len(batch))
                await asyncio.sleep(0.5)
            # redis-py may swallow the cancellation of a pipeline under way (close() cancels
            # this task just after it took the last batch): stop all the same, or the
            # process's close waits here for ever and SIGTERM never ends it
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                return


@dataclass
class Router:
    """This process's side of the club's Redis: the edges it serves, the remote clients of
    its tables, the lobby's list as every process sees it."""

    club: Club
    bus: Bus
    #: the sockets this process serves for tables elsewhere, by client id
    edges: dict[str, Edge] = field(default_factory=dict)
    #: the clients on other processes of the tables here, by client id
    hosted: dict[str, tuple[Table, RemoteClient]] = field(default_factory=dict)
    #: what the sockets whose table is being started here sent meanwhile, by client id
    waiting: dict[str, list[str]] = field(default_factory=dict)
    #: the lobby's tables this process wrote to the hash (to take out when they leave)
    listed: set[str] = field(default_factory=set)
    #: the tables whose lobby entries are to be written again (None: all of them)
    dirty: set[str] | None = None
    _lobby_pending: asyncio.TimerHandle | None = None
    _lobby_task: asyncio.Task[None] | None = None
    _calls: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def node(self) -> str:
        return self.bus.node

    async def start(self) -> None:
        await self.bus.start(self.heard, self.told)
        await self.beat()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            if self.listed:
                await self.bus.redis.hdel(LOBBY, *self.listed)
                self.listed.clear()
            self.bus.announce(LOBBY, {"from": self.node})
        await self.bus.close()

    async def beat(self) -> None:
        """Say this process is alive, for a lease's time."""
        ms = max(1000, int(self.club.settings.lease_s * 1000))
        await self.bus.redis.set(alive_key(self.node), b"1", px=ms)

    async def alive(self, nodes: set[str]) -> set[str]:
        """Which of ``nodes`` said lately that they are alive."""
        ordered = sorted(nodes)
        if not ordered:
            return set()
        said = await self.bus.redis.mget([alive_key(n) for n in ordered])
        return {node for node, value in zip(ordered, said, strict=True) if value is not None}

    async def keep(self) -> None:
        """One turn of the club's keeper: say this process is alive; close the sockets it
        serves for tables whose process is gone or changed (their players come again and
        reach the table where it is now); forget the clients of edges that died."""
        await self.beat()
        await self.seen(list(self.club.present))
        if self.listed and None in await self.bus.redis.hmget(LOBBY, sorted(self.listed)):
            # the hash lost this process's tables (Redis was started again): write them again
            self.tables_changed()
        if self.edges:
            tables = {edge.table_id for edge in self.edges.values()}
            owners = await asyncio.to_thread(self.club.storage.tables.owners, tables)
            # a lease that lapsed for a moment (a busy process renews late; a finished table
            # gave its lease up) moves nothing while its process is alive
            lapsed = {e.owner for e in self.edges.values() if owners.get(e.table_id) is None}
            alive = await self.alive(lapsed)
            for cid, edge in list(self.edges.items()):
                holder = owners.get(edge.table_id)
                if holder == edge.owner or (holder is None and edge.owner in alive):
                    continue
                edge.client.drop(1012, "table moved")
                self.edges.pop(cid, None)
        nodes = {client.node for _, client in self.hosted.values()}
        if nodes:
            gone = nodes - await self.alive(nodes)
            for cid, (table, client) in list(self.hosted.items()):
                if client.node in gone:
                    self.forget(cid)
                    table.audience.detach(client)

    # what the other processes say

    def heard(self, where: str, message: dict[str, Any]) -> None:
        if where == LOBBY:
            self.club.lobby.changed()
            return
        if where == RELEASED:
            if message.get("from") != self.node:
                self.club.look_soon()
            return
        op = message.get("op")
        if op == "drop":
            edge = self.edges.pop(message["c"], None)
            if edge is not None:
                edge.client.drop(int(message["code"]), str(message["reason"]))
        elif op == "attach":
            self._attach(message)
        elif op == "msg":
            hosted = self.hosted.get(message["c"])
            if message["c"] in self.waiting:
                self.waiting[message["c"]].append(message["text"])
            elif hosted is not None:
                table, client = hosted
                dispatch(table, client, message["text"], client.user_id)
        elif op == "detach":
            self.waiting.pop(message["c"], None)
            hosted = self.hosted.pop(message["c"], None)
            if hosted is not None:
                table, client = hosted
                table.audience.detach(client)
        elif op == "call":
            task = asyncio.get_running_loop().create_task(self._called(message))
            self._calls.add(task)
            task.add_done_callback(self._calls.discard)
        elif op == "answer":
            self.bus.answered(message)

    def told(self, cid: str, text: str) -> None:
        """A text for a socket served here, from its table's process."""
        edge = self.edges.get(cid)
        if edge is not None:
            edge.client.send(text)

    def _attach(self, message: dict[str, Any]) -> None:
        """A socket opened on another process for a table here (or that is to be here: one
        nobody runs is started, its database read off the event loop; what the socket sends
        meanwhile waits for it)."""
        cid = message["c"]
        table = self.club.tables.get(message["table"])
        if table is not None:
            self._attached(message, table)
            return
        self.waiting[cid] = []
        task = asyncio.get_running_loop().create_task(self._attach_later(message))
        self._calls.add(task)
        task.add_done_callback(self._calls.discard)

    async def _attach_later(self, message: dict[str, Any]) -> None:
        cid = message["c"]
        try:
            table = await self.club.find(message["table"])
        except ServerError:
            # it has moved, or stopped: the socket comes again and finds where it is now
            self.waiting.pop(cid, None)
            self.bus.send(
                message["from"], {"op": "drop", "c": cid, "code": 1012, "reason": "table moved"}
            )
            return
        said = self.waiting.pop(cid, None)
        if said is None:
            return  # it closed meanwhile
        client = self._attached(message, table)
        for text in said:
            dispatch(table, client, text, client.user_id)

    def _attached(self, message: dict[str, Any], table: Table) -> RemoteClient:
        user_id = message.get("user")
        client = RemoteClient(
            seat=None if user_id is None else table.seat_of(user_id),
            node=message["from"],
            cid=message["c"],
            router=self,
            user_id=user_id,
        )
        self.hosted[client.cid] = (table, client)
        table.audience.attach(client)
        return client

    def forget(self, cid: str) -> None:
        """A remote client is dropped by its table: nothing more goes to it."""
        self.hosted.pop(cid, None)

    async def _called(self, message: dict[str, Any]) -> None:
        """A request of the HTTP API made on another process for a table here."""
        try:
            done = await self.club.on_table(
                message["table"], message["do"], message.get("user"), message.get("args", {})
            )
        except ServerError as error:
            reply: dict[str, Any] = {
                "error": {"code": error.code, "status": error.status, "params": error.params}
            }
        except Exception:
            log.exception("a request for table %s failed", message.get("table"))
            reply = {
                "error": {
                    "code": "table_elsewhere",
                    "status": 503,
                    "params": {"table": message.get("table", ""), "retry_after": 1},
                }
            }
        else:
            reply = {"ok": done}
        self.bus.answer(message["from"], message["ask"], reply)

    # sockets this process serves for tables elsewhere

    def open_edge(self, table_id: str, owner: str, client: Client, user_id: int | None) -> str:
        """Serve ``client``'s socket for the table ``table_id`` of process ``owner``: its
        id, for :meth:`forward` and :meth:`close_edge`."""
        cid = secrets.token_hex(8)
        self.edges[cid] = Edge(client, table_id, owner)
        self.bus.send(
            owner,
            {"op": "attach", "c": cid, "from": self.node, "table": table_id, "user": user_id},
        )
        return cid

    def forward(self, cid: str, text: str) -> None:
        edge = self.edges.get(cid)
        if edge is not None:
            self.bus.send(edge.owner, {"op": "msg", "c": cid, "text": text})

    def close_edge(self, cid: str) -> None:
        edge = self.edges.pop(cid, None)
        if edge is not None:
            self.bus.send(edge.owner, {"op": "detach", "c": cid})

    # the lobby and presence

    def tables_changed(self, table_id: str | None = None) -> None:
        """This process's table ``table_id`` (None: any of them) changed what the lobby
        lists of it: write it to the hash soon (a burst of changes at once), and say so to
        every process."""
        if table_id is None:
            self.dirty = None
        elif self.dirty is not None:
            self.dirty.add(table_id)
        if self._lobby_pending is None:
            self._lobby_pending = asyncio.get_running_loop().call_later(
                self.club.lobby.settle_s, self._write_lobby
            )

    def _write_lobby(self) -> None:
        self._lobby_pending = None
        if self._lobby_task is not None and not self._lobby_task.done():
            # a write is under way: this one after it
            self._lobby_pending = asyncio.get_running_loop().call_later(
                self.club.lobby.settle_s, self._write_lobby
            )
            return
        dirty, self.dirty = self.dirty, set()
        self._lobby_task = asyncio.get_running_loop().create_task(self._publish_lobby(dirty))

    async def _publish_lobby(self, dirty: set[str] | None) -> None:
        """Write the lobby's entries of the tables ``dirty`` names (None: of every table of
        this process), and take out those no longer listed."""
        tables = self.club.tables
        ids = set(tables) | self.listed if dirty is None else dirty
        entries: dict[str, str] = {}
        gone: set[str] = set()
        for table_id in ids:
            table = tables.get(table_id)
            if (
                table is not None
                and table.row.access == "open"
                and table.row.status in ("open", "playing")
                and table_id not in self.club.broken
            ):
                entries[table_id] = json.dumps(
                    {**table.info(), "created": table.row.created, "node": self.node}
                )
            elif table_id in self.listed:
                gone.add(table_id)
        if not entries and not gone:
            return
        try:
            async with self.bus.redis.pipeline(transaction=True) as pipe:
                if entries:
                    pipe.hset(LOBBY, mapping=cast(Any, entries))
                if gone:
                    pipe.hdel(LOBBY, *gone)
                await pipe.execute()
        except Exception:
            log.exception("Redis: the lobby's list was not written")
            # all of it again next time
            self.dirty = None
            return
        self.listed = (self.listed | set(entries)) - gone
        self.bus.announce(LOBBY, {"from": self.node})

    async def lobby_tables(self, limit: int = 200) -> list[dict[str, Any]]:
        """The lobby's tables as every process lists them, newest first: those of processes
        that are alive (a process that died lists nothing; its tables come back when they
        are taken over)."""
        raw = await self.bus.redis.hgetall(LOBBY)
        entries = [json.loads(value) for value in raw.values()]
        alive = await self.alive({entry["node"] for entry in entries})
        listed = [e for e in entries if e["node"] in alive]
        listed.sort(key=lambda e: -float(e["created"]))
        for entry in listed:
            del entry["created"], entry["node"]
        return listed[:limit]

    async def seen(self, user_ids: list[int]) -> None:
        """Players showed a sign of life (a socket of theirs opened, or is still open)."""
        if user_ids:
            now = time.time()
            await self.bus.redis.zadd(ONLINE, {str(user): now for user in user_ids})

    async def online(self) -> int:
        """How many players showed a sign of life lately, on any process."""
        now = time.time()
        await self.bus.redis.zremrangebyscore(ONLINE, "-inf", now - ONLINE_S)
        return int(await self.bus.redis.zcard(ONLINE))


#: take a place in a sliding window if there is room: KEYS[1] the window; ARGV: now, its
#: length (s), its limit, a unique member. Nothing (nil) when taken, else the seconds until
#: there is room (as a string).
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tostring(tonumber(oldest[2]) + tonumber(ARGV[2]) - tonumber(ARGV[1]))
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])))
return false
"""


class Windows:
    """At most ``limit`` of something per key in any ``period`` seconds, counted by every
    process of the club alike (a sorted set per key in Redis, of the times): the guests one
    address makes, the wrong passwords one name or one address tries. The same windows as
    :class:`~bazar.club.club.Quota` and :class:`~bazar.club.auth.Tries` keep in one process,
    which N processes would otherwise let through N times over."""

    def __init__(self, redis: Redis, name: str, limit: int, period: float) -> None:
        self.redis, self.name, self.limit, self.period = redis, name, limit, period

    def _key(self, key: str) -> str:
        return f"bazar:window:{self.name}:{key}"

    async def take(self, key: str) -> float | None:
        """Count one for ``key``; or, when its share is taken, the seconds until there is
        room again (and nothing is counted)."""
        member = f"{time.time()}:{secrets.token_hex(4)}"
        said = await self.redis.eval(
            _TAKE, 1, self._key(key), time.time(), self.period, self.limit, member
        )
        return None if said is None else max(0.0, float(said))

    async def wait(self, key: str) -> float:
        """The seconds until ``key`` may try again (0: now)."""
        now = time.time()
        window = self._key(key)
        await self.redis.zremrangebyscore(window, "-inf", now - self.period)
        if await self.redis.zcard(window) < self.limit:
            return 0.0
        oldest = await self.redis.zrange(window, 0, 0, withscores=True)
        return max(0.0, float(oldest[0][1]) + self.period - now) if oldest else 0.0

    async def add(self, keys: list[str]) -> None:
        """Count one try for each of ``keys`` (the newest ``limit`` are kept)."""
        now = time.time()
        async with self.redis.pipeline(transaction=True) as pipe:
            for key in keys:
                window = self._key(key)
                pipe.zadd(window, {f"{now}:{secrets.token_hex(4)}": now})
                pipe.zremrangebyrank(window, 0, -self.limit - 1)
                pipe.expire(window, math.ceil(self.period))
            await pipe.execute()

    async def give_back(self, keys: list[str]) -> None:
        """Take back the newest try of each of ``keys`` (it was right)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            for key in keys:
                pipe.zpopmax(self._key(key))
            await pipe.execute()
