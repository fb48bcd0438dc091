"""The table actor's own cost per move, without sockets or a database: ``--tables`` tables of
bots (``--bots``, random by default) in one event loop, each watched by ``--watchers``
clients (the events serialised for them as for sockets, never written), their writes made by
an in-memory store through the club's writer threads. The CPU time of the whole process per
move, and moves per second, for ``--seconds``: flat out (bots move at once), or at the
club's pace with ``--bot-delay 0.5``:

    PYTHONPATH=. python benchmarks/table_actor.py --tables 200 --seconds 10

A steadier figure than benchmarks/load.py's (no client, no neighbours on the sockets), for
comparing two versions of the table on one machine back to back.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import time
from typing import Any

from bazar.club.audience import Client
from bazar.club.settings import Settings
from bazar.club.storage import TableRow
from bazar.club.table import Table


class Memory:
    """The three writes a table makes, kept in memory."""

    def __init__(self) -> None:
        self.moves = 0

    def append_move(self, table_id: str, n: int, seat: int, move: str, fence: Any = None) -> None:
        self.moves += 1

    def update_table(self, table_id: str, fence: Any = None, **changes: Any) -> TableRow:
        raise NotImplementedError  # bots alone change no hands

    def finish_match(
        self, table_id: str, ending: Any, last: Any, settle: Any, fence: Any = None
    ) -> TableRow:
        self.moves += last is not None
        return row(table_id, status="finished", ending=ending)


def row(table_id: str, **changes: Any) -> TableRow:
    fields: dict[str, Any] = {
        "id": table_id,
        "game": "kozel",
        "options": {"players": 4},
        "seats": [{"bot": LEVEL, "name": f"bot {i}"} for i in range(4)],
        "owner": 0,
        "move_time_s": 30,
        "rated": False,
        "access": "open",
        "invite": "x",
        "status": "playing",
        "seed": secrets.randbelow(2**62),
    }
    return TableRow(**(fields | changes))


LEVEL = "random"


async def drain(client: Client) -> None:
    """Take what the client is sent, as its socket's writer would."""
    while True:
        message = await client.next()
        if not isinstance(message, str):
            json.dumps(message)


async def run(tables: int, watchers: int, seconds: float, delay: float) -> dict[str, float]:
    store = Memory()
    live: list[Table] = []
    readers = []

    def again(table: Table) -> None:
        live.remove(table)
        start()

    def start() -> None:
        table = Table(row(secrets.token_urlsafe(6)), store, bot_delay=delay, on_close=again,
                      settings=Settings(round_pause_s=0))  # fmt: skip
        for _ in range(watchers):
            client = Client(seat=None, limit=10**6)
            table.audience.hello(client, 0)
            readers.append(asyncio.create_task(drain(client)))
        live.append(table)
        table.start()
        table.run()

    for _ in range(tables):
        start()
    await asyncio.sleep(1.0)
    moves, cpu, wall = store.moves, time.process_time(), time.perf_counter()
    await asyncio.sleep(seconds)
    moves, cpu = store.moves - moves, time.process_time() - cpu
    wall = time.perf_counter() - wall
    for table in list(live):
        await table.stop()
    for task in readers:
        task.cancel()
    return {"moves_per_s": round(moves / wall), "cpu_us_per_move": round(cpu / moves * 1e6, 1)}


def main() -> None:
    global LEVEL
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--watchers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--bot-delay", type=float, default=0.0, help="0.5: the club's pace")
    args = parser.parse_args()
    LEVEL = args.bots
    print(json.dumps(asyncio.run(run(args.tables, args.watchers, args.seconds, args.bot_delay))))


if __name__ == "__main__":
    main()
