"""Load test of the club: N tables at once, each with one client over a real websocket and
three server-side bots (``--bots LEVEL``, random by default), against P server processes
(the club's app under ``uvicorn``, each on its own port) sharing one database and, when
there are several, one Redis.

    python benchmarks/load.py --processes 1 2 --tables 200 1000 --seconds 20

Every combination of ``--processes``, ``--tables`` and ``--paces`` is one cell, run on a
fresh club: a new database (a SQLite file; with ``--db postgresql://...`` a new schema of
that database, dropped after), and for more than one process an emptied Redis (a private
``redis-server`` on a free port, or the one ``--redis`` names, which the run empties). One
process runs alone, as ``bazar serve`` and ``make run`` do, with no Redis.

The clients reach the processes the way a plain load balancer spreads them, round robin with
no stickiness: client k logs in on process k, and creates its j-th table through process
k + j and opens that table's socket on the next one (modulo P), so with two processes every
socket is on the process that did not create its table, and its moves and events travel
through Redis to and from the one that runs it.

Two paces:

- ``flat``: flat out, the server's bots move at once (bot delay 0) and each client answers
  at once: its move as soon as it is its turn, its ``next`` as soon as a round ends;
- ``club``: the club's pace, the bots wait ``--bot-delay`` (0.5 s, the club's own delay) and
  each client thinks like a person, ``--think`` seconds (1 s) before each move it chooses and
  before it says it has seen a round's end (a lone draw or pass the table makes for it).

Each client is a guest who plays random legal moves; a finished match is followed by a new
table. The clients' HTTP requests (logins, new tables) go at most 50 at a time. The
timed window begins ``--warmup`` seconds after every client has opened its first table's
socket (a thousand tables made at once take the club a while: ``seated_s`` in the JSON) and
lasts ``--seconds``. Reported per cell, as a markdown table (``--json``: one JSON object a
cell, with more detail; ``--out FILE`` appends the table to FILE):

- moves/s: every move of every table, the bots' included, heard by the clients within the
  window;
- the move latency, median and p99: from a client sending its move to its hearing the move's
  event;
- errors (refusals the clients heard), reconnects (sockets the club closed with 1012 as
  their table restarted or moved to another process, opened again) and failed clients (a
  socket or request that broke otherwise);
- CPU time per 1,000 moves, in ms: of the servers (user + system time of every server
  process and each of its descendants, bot workers included, read from ``/proc`` at both
  ends of the window), of the private Redis, and of this load client; and, in cores (1.0: a
  whole core over the window), the servers' CPU and what the rest of the machine used
  meanwhile (other programs competing for the same cores).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosed

SERVER = """
import cProfile, os, signal, sys, uvicorn
from bazar.club import create_app
# --profile: SIGUSR1 starts profiling the event loop's thread, SIGUSR2 writes it out
profile, out = cProfile.Profile(), os.environ.get("BAZAR_LOAD_PROFILE")
if out:
    signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
    signal.signal(signal.SIGUSR2, lambda *_: (profile.disable(), profile.dump_stats(out)))
app = create_app(sys.argv[1], secret="load", bot_delay=float(sys.argv[3]))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            ws_max_size=65536, backlog=4096)
"""

#: the close code of a socket whose table restarted or moved to another process: come again
RESTART = 1012

#: the HTTP requests (logins, new tables) the clients make at once, the others waiting: a
#: thousand guests arriving in the same instant is a burst no club sees
REQUESTS_AT_ONCE = 50

#: the seconds a client's move may take on the table's clock: the longest the club offers
MOVE_TIME_S = 120


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Pace:
    """How fast the tables are played: the server bots' delay, the clients' thinking."""

    name: str
    bot_delay: float
    think: float


@dataclass
class Stats:
    """What the clients heard; ``window`` (perf_counter) is the timed window, set once every
    client is at its first table: moves and latencies outside it are not counted."""

    window: tuple[float, float] = (math.inf, math.inf)
    #: the clients whose first table's socket has said hello
    seated: set[int] = field(default_factory=set)
    moves: int = 0
    #: sockets the club closed for a restart or a move of their table, opened again
    reconnects: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    why: Counter[str] = field(default_factory=Counter)
    matches: int = 0

    def within(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]

    def left(self) -> float | None:
        """Seconds until the window closes (None: it is not set yet)."""
        stop = self.window[1]
        return None if stop == math.inf else stop - time.perf_counter()


# CPU time, from /proc


def _proc_times() -> dict[int, tuple[int, int]]:
    """Every process's parent and CPU time in clock ticks: user + system time of its own
    threads and of its children it has reaped (``/proc/PID/stat``, proc(5))."""
    times = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        # the command name (field 2) is in parentheses and may hold spaces
        fields = text[text.rindex(")") + 2 :].split()
        # fields[1] is the ppid; fields[11:15] utime, stime, cutime, cstime
        times[int(entry)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
    return times


def cpu_seconds(roots: list[int]) -> float:
    """The CPU seconds the processes ``roots`` and all their descendants have used (those
    that ended included, once reaped: their time joins their parent's)."""
    times = _proc_times()
    children: defaultdict[int, list[int]] = defaultdict(list)
    for pid, (ppid, _) in times.items():
        children[ppid].append(pid)
    ticks, todo = 0, list(roots)
    while todo:
        pid = todo.pop()
        if pid in times:
            ticks += times[pid][1]
            todo.extend(children[pid])
    return ticks / os.sysconf("SC_CLK_TCK")


def machine_cpu_seconds() -> float:
    """The CPU seconds every core of the machine has been busy (``/proc/stat``: all but
    idle and iowait)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    busy = sum(values[:8]) - values[3] - values[4]
    return busy / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Cpu:
    """CPU seconds used so far by the servers, by the run's own Redis, by this load client,
    and by the whole machine; the difference of two is what was used between them."""

    servers: float
    redis: float
    client: float
    machine: float

    @classmethod
    def now(cls, servers: list[int], redis: int | None) -> Cpu:
        return cls(
            cpu_seconds(servers),
            0.0 if redis is None else cpu_seconds([redis]),
            time.process_time(),
            machine_cpu_seconds(),
        )

    def __sub__(self, other: Cpu) -> Cpu:
        return Cpu(
            self.servers - other.servers,
            self.redis - other.redis,
            self.client - other.client,
            self.machine - other.machine,
        )


# the clients


async def player(
    bases: list[str],
    http: httpx.AsyncClient,
    index: int,
    stats: Stats,
    pace: Pace,
    bots: str,
    requests: asyncio.Semaphore,
) -> None:
    """Client ``index``: a guest who logs in on process ``index``, then plays table after
    table until the window closes, each made through one process and played over a socket
    on the next (round robin over ``bases``). A socket the club closes with 1012 (its table
    restarted, or moved to another process) is opened again on the next process, as the web
    page does, from the last version it heard. Its HTTP requests wait for ``requests``."""
    async with requests:
        r = await http.post(bases[index % len(bases)] + "/api/guest", json={"name": f"load{index}"})
    r.raise_for_status()
    cookie = f"bazar={r.cookies['bazar']}"
    rng = random.Random(index)
    made = 0
    while time.perf_counter() < stats.window[1]:
        maker = bases[(index + made) % len(bases)]
        made += 1
        async with requests:
            r = await http.post(
                maker + "/api/tables",
                headers={"cookie": cookie},
                json={"game": "kozel", "players": 4, "bots": bots, "move_time_s": MOVE_TIME_S},
            )
        r.raise_for_status()
        tid = r.json()["table"]["id"]
        seat = Seat()
        for host in itertools.islice(itertools.cycle(bases), index + made, None):
            try:
                async with websockets.connect(
                    host.replace("http", "ws") + f"/ws/{tid}",
                    additional_headers={"cookie": cookie},
                    max_size=2**22,
                    open_timeout=120,
                ) as ws:
                    await ws.send(json.dumps({"type": "hello", "v": seat.v}))
                    stats.seated.add(index)
                    if await play(ws, rng, seat, stats, pace):
                        stats.matches += 1
                break
            except ConnectionClosed as closed:
                if closed.rcvd is None or closed.rcvd.code != RESTART:
                    raise
                if stats.within(time.perf_counter()):
                    stats.reconnects += 1
                # the move sent before may be lost with the socket: choose again
                seat.sent_at, seat.waiting, seat.answered = None, False, -1


@dataclass
class Seat:
    """What a client knows of its seat at one table, over its sockets: the legal moves of
    the last view and its version, the round shown and the last round started, its move on
    its way (when it was sent, at which version), and whether a pause holds the table."""

    legal: list[str] = field(default_factory=list)
    v: int = 0
    shown: int = 0
    started: int = 0
    answered: int = -1
    sent_at: float | None = None
    waiting: bool = False
    paused: bool = False


async def play(ws: Any, rng: random.Random, seat: Seat, stats: Stats, pace: Pace) -> bool:
    """Play seat 0 of one table until the match ends (True) or the window closes (False).
    One move at a time: the events already on their way still show the old turn. A view is
    acted on only once its round's start has been heard and the pause after the round before
    is over: the last move of a round already shows the next round's deal."""
    while time.perf_counter() < stats.window[1]:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), stats.left()))
        except TimeoutError:
            return False
        kind = message["type"]
        if kind == "error":
            if stats.within(time.perf_counter()):
                stats.errors += 1
                stats.why[str(message.get("message") or message.get("error"))] += 1
            seat.answered, seat.sent_at, seat.waiting = -1, None, False
            continue
        if kind == "sync":
            # a socket opened again may have missed the pause's end, or its own next
            pause = message["table"]["pause"]
            seat.paused = pause is not None
            if pause is not None and 0 in pause["waiting"]:
                await ws.send(json.dumps({"type": "next"}))
        for event in message.get("events") or [message.get("event")]:
            if not event:
                continue
            if event["t"] == "move":
                heard = time.perf_counter()
                if stats.within(heard):
                    stats.moves += 1
                if event["seat"] == 0:
                    seat.waiting = False
                    sent_at, seat.sent_at = seat.sent_at, None
                    if sent_at is not None and stats.within(sent_at) and stats.within(heard):
                        stats.latencies.append(heard - sent_at)
            elif event["t"] == "round_start":
                seat.started = event["number"]
            elif event["t"] == "round_end" and 0 in event["waiting"]:
                seat.paused = True
                if pace.think:
                    await asyncio.sleep(pace.think)
                await ws.send(json.dumps({"type": "next"}))
            elif event["t"] == "pause_end":
                seat.paused = False
            elif event["t"] == "match_end":
                return True
        if kind in ("sync", "event"):
            seat.legal, seat.v = message["view"]["legal"], message["v"]
            seat.shown = message["round"]
        legal = seat.legal
        forced = len(legal) == 1 and legal[0] in ("draw", "pass")
        ready = seat.shown == seat.started and not seat.paused and not seat.waiting
        if ready and legal and not forced and seat.answered != seat.v:
            seat.answered = seat.v
            if pace.think:
                await asyncio.sleep(pace.think)
            seat.sent_at = time.perf_counter()
            seat.waiting = True
            move = {"type": "move", "move": rng.choice(legal), "v": seat.v}
            await ws.send(json.dumps(move))
    return False


async def run_cell(
    bases: list[str],
    tables: int,
    pace: Pace,
    args: argparse.Namespace,
    servers: list[int],
    redis: int | None,
) -> dict[str, Any]:
    """One cell's clients, from their logins to the end of the window."""
    clients = [
        httpx.AsyncClient(timeout=120, limits=httpx.Limits(max_connections=4))
        for _ in range(tables)
    ]
    try:
        stats = Stats()
        started = time.perf_counter()
        requests = asyncio.Semaphore(REQUESTS_AT_ONCE)
        tasks = [
            asyncio.create_task(player(bases, c, i, stats, pace, args.bots, requests))
            for i, c in enumerate(clients)
        ]
        # every client at its first table (or failed), before the warm-up begins
        while len(stats.seated | {i for i, t in enumerate(tasks) if t.done()}) < tables:
            await asyncio.sleep(0.1)
        seated_s = time.perf_counter() - started
        begin = time.perf_counter() + args.warmup
        stats.window = (begin, begin + args.seconds)
        await asyncio.sleep(args.warmup)
        before = Cpu.now(servers, redis)
        _signal(servers, signal.SIGUSR1, args.profile)
        await asyncio.sleep(args.seconds)
        _signal(servers, signal.SIGUSR2, args.profile)
        used = Cpu.now(servers, redis) - before
        # a client still waiting on a request when the window closed is let go
        done, late = await asyncio.wait(tasks, timeout=10)
        for task in late:
            task.cancel()
        results = [t.exception() for t in done if not t.cancelled()]
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))
    failures = [r for r in results if r is not None]
    lat = sorted(stats.latencies)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan")
    per_1k = 1000 / stats.moves if stats.moves else float("nan")
    return {
        "processes": len(bases),
        "tables": tables,
        "pace": pace.name,
        "bot_delay_s": pace.bot_delay,
        "think_s": pace.think,
        "seconds": args.seconds,
        "seated_s": round(seated_s, 1),
        "moves_per_s": round(stats.moves / args.seconds, 1),
        "client_moves": len(lat),
        "latency_ms": {
            "median": round(statistics.median(lat) * 1000, 1) if lat else None,
            "p99": round(p99 * 1000, 1) if lat else None,
        },
        "matches": stats.matches,
        "errors": stats.errors,
        "reconnects": stats.reconnects,
        "error_messages": dict(stats.why.most_common(5)),
        "failed_clients": len(failures),
        "first_failure": repr(failures[0]) if failures else None,
        "cpu_ms_per_1k_moves": {
            "servers": round(used.servers * per_1k * 1000, 1),
            "redis": None if redis is None else round(used.redis * per_1k * 1000, 1),
            "client": round(used.client * per_1k * 1000, 1),
        },
        "servers_cores": round(used.servers / args.seconds, 2),
        "others_cores": round(
            max(0.0, used.machine - used.servers - used.redis - used.client) / args.seconds, 2
        ),
    }


def _signal(pids: list[int], number: int, profiling: Path | None) -> None:
    """Tell the servers to start or stop profiling (``--profile``)."""
    if profiling is not None:
        for pid in pids:
            os.kill(pid, number)


# the services


@contextlib.contextmanager
def private_redis() -> Iterator[tuple[str, int]]:
    """A redis-server of this run on a free loopback port, keeping nothing on disk: its URL
    and its process id."""
    binary = shutil.which("redis-server")
    if binary is None:
        sys.exit("redis-server is not installed (apt-get install redis-server), or give --redis")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        yield f"redis://127.0.0.1:{port}/0", process.pid
    finally:
        process.terminate()
        process.wait(10)


def empty_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    for _ in range(100):
        try:
            client.flushdb()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    client.close()


@contextlib.contextmanager
def database(url: str | None, folder: Path) -> Iterator[str]:
    """A new empty database for one cell: a SQLite file in ``folder``, or a new schema of
    the PostgreSQL database ``url``, dropped afterwards."""
    if url is None:
        yield f"sqlite:///{folder / 'load.sqlite3'}"
        return
    from sqlalchemy import create_engine, text

    from bazar.club.storage import engine_url

    name = f"load_{os.getpid()}_{int(time.time() * 1000)}"
    admin = create_engine(engine_url(url))
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {name}"))
    schema = engine_url(url).update_query_dict({"options": f"-csearch_path={name}"})
    try:
        yield schema.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {name} CASCADE"))
        admin.dispose()


def start_server(
    db: str, redis: str, pace: Pace, tables: int, profile: Path | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """One server process on a free port, once it answers: the process and its base URL."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, db, str(port), str(pace.bot_delay)],
        # every client comes from this machine: no quota of a public club; and they are
        # programs that answer at once: the socket's rate limit is for people (set
        # BAZAR_MESSAGES_PER_S and BAZAR_MESSAGE_BURST to load with it)
        env={
            "BAZAR_MESSAGES_PER_S": "1e6",
            "BAZAR_MESSAGE_BURST": "1000000",
            **os.environ,
            "BAZAR_GUESTS_PER_ADDRESS": str(10 * tables),
            "BAZAR_OPEN_TABLES_PER_USER": "10",
            "BAZAR_DB_URL": db,
            "BAZAR_REDIS_URL": redis,
            **({"BAZAR_LOAD_PROFILE": str(profile)} if profile is not None else {}),
        },
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        if server.poll() is not None:
            sys.exit(f"a server process exited with {server.returncode} before it answered")
        try:
            httpx.get(base + "/api/session", timeout=1)
            return server, base
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    sys.exit("a server process did not answer within 30 s")


def stop(servers: list[subprocess.Popen[bytes]]) -> None:
    """Stop the cell's servers, all at once: a process told to stop hands its tables to the
    others, who stop too; what is left after a few seconds is killed (the next cell starts
    on a new database and an emptied Redis)."""
    for server in servers:
        server.terminate()
    deadline = time.monotonic() + 5
    for server in servers:
        try:
            server.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def cell(
    processes: int, tables: int, pace: Pace, args: argparse.Namespace, redis: tuple[str, int | None]
) -> dict[str, Any]:
    """Start a fresh club of ``processes`` processes, load it, stop it: the cell's result."""
    url, redis_pid = redis if processes > 1 else ("", None)
    if url:
        empty_redis(url)
    servers: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as tmp, database(args.db, Path(tmp)) as db:
        try:
            bases = []
            # one after another: the first makes the database's tables, the others find them
            for n in range(processes):
                profile = None
                if args.profile is not None:
                    args.profile.mkdir(parents=True, exist_ok=True)
                    profile = args.profile / f"{processes}p-{tables}t-{pace.name}-{n}.prof"
                server, base = start_server(db, url, pace, tables, profile)
                servers.append(server)
                bases.append(base)
            pids = [s.pid for s in servers]
            return asyncio.run(run_cell(bases, tables, pace, args, pids, redis_pid))
        finally:
            stop(servers)


# the report

COLUMNS = (
    "| processes | tables | pace | moves/s | median ms | p99 ms | errors | reconnects | failed "
    "| servers' CPU ms/1k moves | Redis ms/1k | client ms/1k | servers' cores | others' cores |"
)


def row(result: dict[str, Any]) -> str:
    lat, cpu = result["latency_ms"], result["cpu_ms_per_1k_moves"]
    redis = "–" if cpu["redis"] is None else cpu["redis"]
    return (
        f"| {result['processes']} | {result['tables']} | {result['pace']} "
        f"| {result['moves_per_s']:.0f} | {lat['median']} | {lat['p99']} | {result['errors']} "
        f"| {result['reconnects']} | {result['failed_clients']} | {cpu['servers']} | {redis} "
        f"| {cpu['client']} "
        f"| {result['servers_cores']} | {result['others_cores']} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--paces", nargs="+", choices=("flat", "club"), default=["flat", "club"])
    parser.add_argument("--seconds", type=float, default=20.0, help="the timed window")
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds of play before the window"
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.5,
        help="the club's pace: seconds a server bot waits before moving",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="the club's pace: seconds a client thinks before a move or its next",
    )
    parser.add_argument(
        "--bots",
        default="random",
        help="the level of the three server-side bots (pimc, ismcts: searching)",
    )
    parser.add_argument(
        "--db",
        help="a PostgreSQL URL: each cell runs in a new schema of it (else a new SQLite file)",
    )
    parser.add_argument(
        "--redis",
        help="the Redis URL several processes meet in; the run empties it (FLUSHDB) before "
        "each cell (else a private redis-server)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="a folder: each server's event-loop thread is profiled (cProfile) during the "
        "window, into PROCESSESp-TABLESt-PACE-N.prof there (read: python -m pstats FILE); "
        "the profiler's own cost inflates the CPU column",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object a cell")
    parser.add_argument("--out", type=Path, help="append the markdown table to this file")
    args = parser.parse_args()
    # a run told to stop stops its servers and its Redis on the way out
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    paces = {
        "flat": Pace("flat", 0.0, 0.0),
        "club": Pace("club", args.bot_delay, args.think),
    }
    lines = [
        f"`{' '.join(['python', *sys.argv])}` ({time.strftime('%Y-%m-%d %H:%M', time.gmtime())} "
        f"UTC, "
        f"{os.cpu_count()} cores, {args.seconds:g} s a cell after {args.warmup:g} s of play; "
        f"club pace: bots {args.bot_delay:g} s, client {args.think:g} s)",
        "",
        COLUMNS,
        "|" + "---|" * (COLUMNS.count("|") - 1),
    ]
    if not args.json:
        print("\n".join(lines), flush=True)
    with contextlib.ExitStack() as stack:
        redis: tuple[str, int | None] = (args.redis or "", None)
        if not args.redis and max(args.processes) > 1:
            redis = stack.enter_context(private_redis())
        for processes in args.processes:
            for tables in args.tables:
                for name in args.paces:
                    result = cell(processes, tables, paces[name], args, redis)
                    lines.append(row(result))
                    print(json.dumps(result) if args.json else lines[-1], flush=True)
    if args.out is not None:
        with args.out.open("a") as out:
            out.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
