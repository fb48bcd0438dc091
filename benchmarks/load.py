"""Load test of the club server: N tables at once, each with one bot-driven client over a real
websocket (and three server-side bots, ``--bots LEVEL``, random by default), against a local
``uvicorn`` server in its own process.

    python benchmarks/load.py --tables 50 200 1000 --seconds 20

Reports, for each N: moves/s over the whole server (every move of every table, the bots'
included) and the client's move latency (from sending a move to receiving its event), median
and p99. Each client plays random legal moves; a finished match is followed by a new table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets

SERVER = """
import sys, uvicorn
from bazar.club import create_app
app = create_app(sys.argv[1], secret="load", bot_delay=float(sys.argv[3]))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            ws_max_size=65536, backlog=4096)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.moves = 0
        self.latencies: list[float] = []
        self.errors = 0
        self.why: Counter[str] = Counter()
        self.matches = 0


async def login(http: httpx.AsyncClient, index: int) -> str:
    r = await http.post("/api/guest", json={"name": f"load{index}"})
    r.raise_for_status()
    return f"bazar={http.cookies['bazar']}"


async def player(
    base: str,
    http: httpx.AsyncClient,
    cookie: str,
    index: int,
    stop: float,
    stats: Stats,
    move_time: int,
    think: float,
    bots: str = "random",
) -> None:
    rng = random.Random(index)
    while time.perf_counter() < stop:
        r = await http.post(
            "/api/tables",
            headers={"cookie": cookie},
            json={"game": "kozel", "players": 4, "bots": bots, "move_time_s": move_time},
        )
        r.raise_for_status()
        tid = r.json()["table"]["id"]
        ws_url = base.replace("http", "ws") + f"/ws/{tid}"
        async with websockets.connect(
            ws_url, additional_headers={"cookie": cookie}, max_size=2**22
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "v": 0}))
            sent_at: float | None = None
            answered = -1
            waiting = False
            while time.perf_counter() < stop:
                message = json.loads(await ws.recv())
                kind = message["type"]
                if kind == "error":
                    stats.errors += 1
                    stats.why[str(message.get("message") or message.get("error"))] += 1
                    answered, sent_at, waiting = -1, None, False
                    continue
                events = (
                    message.get("events") or [message.get("event")]
                    if kind in ("sync", "event")
                    else []
                )
                ended = False
                for event in events:
                    if not event:
                        continue
                    if event["t"] == "move":
                        stats.moves += 1
                        if event["seat"] == 0:
                            waiting = False
                        if sent_at is not None and event["seat"] == 0:
                            stats.latencies.append(time.perf_counter() - sent_at)
                            sent_at = None
                    ended = ended or event["t"] == "match_end"
                if ended:
                    stats.matches += 1
                    break
                view = message.get("view")
                v = message.get("v", 0)
                legal = view["legal"] if view else []
                forced = len(legal) == 1 and legal[0] in ("draw", "pass")
                # one move at a time: the events already on their way still show the old turn
                if legal and not forced and answered != v and not waiting:
                    answered = v
                    if think:
                        await asyncio.sleep(think)
                    sent_at = time.perf_counter()
                    waiting = True
                    await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "v": v}))


async def run_level(
    base: str, tables: int, seconds: float, think: float, bots: str = "random"
) -> dict[str, Any]:
    stats = Stats()
    clients = [httpx.AsyncClient(base_url=base, timeout=120) for _ in range(tables)]
    try:
        cookies = await asyncio.gather(*(login(c, i) for i, c in enumerate(clients)))
        start = time.perf_counter()
        stop = start + seconds
        tasks = [
            asyncio.create_task(player(base, c, cookies[i], i, stop, stats, 120, think, bots))
            for i, c in enumerate(clients)
        ]
        results = await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))
    elapsed = time.perf_counter() - start
    failures = [r for r in results if isinstance(r, BaseException)]
    lat = sorted(stats.latencies)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan")
    return {
        "tables": tables,
        "seconds": round(elapsed, 1),
        "moves_per_s": round(stats.moves / elapsed, 1),
        "client_moves": len(lat),
        "latency_ms": {
            "median": round(statistics.median(lat) * 1000, 1) if lat else None,
            "p99": round(p99 * 1000, 1) if lat else None,
        },
        "matches": stats.matches,
        "errors": stats.errors,
        "error_messages": dict(stats.why.most_common(5)),
        "failed_clients": len(failures),
        "first_failure": repr(failures[0]) if failures else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.0,
        help="seconds a server bot waits before moving (the club uses 0.5)",
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds a client waits before answering"
    )
    parser.add_argument(
        "--bots",
        default="random",
        help="the level of the three server-side bots (pimc, ismcts: searching)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for n in args.tables:
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            db = f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
            server = subprocess.Popen(
                [sys.executable, "-c", SERVER, db, str(port), str(args.bot_delay)],
                # every client comes from this machine: no quota of a public club; and they are
                # programs that answer at once: the socket's rate limit is for people (set
                # BAZAR_MESSAGES_PER_S and BAZAR_MESSAGE_BURST to load with it)
                env={
                    "BAZAR_MESSAGES_PER_S": "1e6",
                    "BAZAR_MESSAGE_BURST": "1000000",
                    **os.environ,
                    "BAZAR_GUESTS_PER_ADDRESS": str(10 * n),
                    "BAZAR_OPEN_TABLES_PER_USER": "10",
                },
            )
            try:
                base = f"http://127.0.0.1:{port}"
                for _ in range(200):
                    try:
                        httpx.get(base + "/api/session", timeout=1)
                        break
                    except httpx.HTTPError:
                        time.sleep(0.1)
                result = asyncio.run(run_level(base, n, args.seconds, args.think, args.bots))
            finally:
                server.terminate()
                server.wait(10)
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            lat = result["latency_ms"]
            print(
                f"{n:5d} tables: {result['moves_per_s']:8.1f} moves/s, latency median "
                f"{lat['median']} ms, p99 {lat['p99']} ms ({result['client_moves']} client "
                f"moves, {result['matches']} matches, {result['errors']} errors, "
                f"{result['failed_clients']} failed clients)",
                flush=True,
            )


if __name__ == "__main__":
    main()
