"""The cost of a table's moves to the database: N tables storing their moves at once, each
one move after another as a table does (it waits for its write before it goes on), through
the club's :func:`~bazar.club.storage.stored` (its writer threads commit the moves that come
at once together) and, to compare, through one ``asyncio.to_thread`` per move.

    python benchmarks/writes.py --tables 200 --moves 10
    python benchmarks/writes.py --db postgresql://bazar:bazar@localhost/bazar_test

Reports, each way, the CPU time and the wall time of the process per move. Each way runs on
a new database: a SQLite file, or a new schema of the PostgreSQL database ``--db`` names
(dropped afterwards).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bazar.club.settings import Settings
from bazar.club.storage import Storage, TableRow, engine_url, stored


@contextlib.contextmanager
def database(url: str | None) -> Iterator[Storage]:
    """A storage on a new database: a SQLite file, or a new schema of ``url``."""
    if url is None:
        with tempfile.TemporaryDirectory() as tmp:
            storage = Storage(f"sqlite:///{Path(tmp) / 'writes.sqlite3'}")
            yield storage
            storage.close()
        return
    from sqlalchemy import create_engine, text

    name = f"writes_{secrets.token_hex(4)}"
    admin = create_engine(engine_url(url))
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {name}"))
    schema = engine_url(url).update_query_dict({"options": f"-csearch_path={name}"})
    try:
        storage = Storage(schema.render_as_string(hide_password=False))
        yield storage
        storage.close()
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {name} CASCADE"))
        admin.dispose()


async def write(storage: Storage, way: str, tables: int, moves: int) -> None:
    settings = Settings()

    async def table(i: int) -> None:
        for n in range(moves):
            if way == "stored":
                await stored(settings, storage.tables.append_move, f"t{i}", n, n % 4, "6-4")
            else:
                await asyncio.to_thread(storage.tables.append_move, f"t{i}", n, n % 4, "6-4")

    await asyncio.gather(*(table(i) for i in range(tables)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=10, help="moves each table stores")
    parser.add_argument("--db", help="a PostgreSQL URL (else a SQLite file)")
    args = parser.parse_args()
    for way in ("to_thread", "stored"):
        with database(args.db) as storage:
            for i in range(args.tables):
                row = TableRow(
                    id=f"t{i}",
                    game="kozel",
                    options={},
                    seats=[None] * 4,
                    owner=1,
                    invite="x",
                    seed=i,
                )
                storage.tables.add_table(row)
            cpu, wall = time.process_time(), time.perf_counter()
            asyncio.run(write(storage, way, args.tables, args.moves))
            count = args.tables * args.moves
            cpu_us = (time.process_time() - cpu) / count * 1e6
            wall_us = (time.perf_counter() - wall) / count * 1e6
            print(f"{way:9s}: {count} moves, {cpu_us:.0f} us of CPU and {wall_us:.0f} us a move")


if __name__ == "__main__":
    main()
