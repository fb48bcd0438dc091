"""The club's schema (``bazar/club/migrations``): a fresh database brought to the newest
revision is the models' schema, an older club's database keeps every row through the upgrade
and the club reads it, processes starting at once on one database make one schema, and the
database refuses a second of what the club holds to be one. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("alembic")

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from server_helpers import make_app
from sqlalchemy import create_engine, func, insert, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

import bazar
from bazar.club import migrations, names
from bazar.club.storage import (
    Base,
    Lease,
    MoveRow,
    NameRow,
    Rating,
    RecordRow,
    Storage,
    TableRow,
    engine_url,
)
from bazar.club.summary import summary

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent

#: the tables of the oldest club: its accounts had no names held, no revocable sessions, and
#: its players' seats were read from the records
OLDEST = ("users", "tables", "moves", "records", "ratings", "settings")


def differences(engine: Engine) -> list[Any]:
    """What Alembic's autogenerate finds between the database and the club's models."""
    with engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))


def versions(engine: Engine) -> list[str]:
    with engine.connect() as connection:
        return list(connection.scalars(text("SELECT version_num FROM alembic_version")))


def test_a_fresh_database_at_the_newest_revision_has_the_models_schema(db: str) -> None:
    storage = Storage(db)
    assert migrations.revision(storage.engine) == migrations.head()
    assert differences(storage.engine) == []
    storage.close()


def older_club(url: str) -> Engine:
    """The database of the oldest club, as its ``create_all`` left it: the baseline's tables
    that it had, and no ``alembic_version``."""
    engine = create_engine(engine_url(url))
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), "0001")
        connection.execute(text("DROP TABLE alembic_version"))
        for name in ("played", "names", "sessions"):
            connection.execute(text(f"DROP TABLE {name}"))
    return engine


def finished_match() -> tuple[bazar.Match, list[tuple[int, str]]]:
    """A match of Block to its end, and its moves as the club stores them: (seat, move)."""
    match = bazar.Match(bazar.rules("block"), seed=11)
    moves = []
    while not match.is_over():
        move = match.legal_moves()[0]
        seat = match.turn
        assert seat is not None
        moves.append((seat, str(move)))
        match.push(move)
    return match, moves


def test_an_older_clubs_database_keeps_every_row_and_the_club_reads_it(db: str) -> None:
    engine = older_club(db)
    match, moves = finished_match()
    winner = match.result().winners[0]
    seats = [{"bot": "greedy", "name": "Greedy"}, {"bot": "random", "name": "Random"}]
    seats[winner] = {"user": 1, "name": "Alice"}
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (id, name, password_hash, guest, kozel_rating, created)"
                " VALUES (1, 'Alice', 'argon2-hash', false, 7, 1000.0),"
                " (2, 'Bob', NULL, true, 0, 1001.0)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO tables (id, game, options, seats, owner, move_time_s, rated,"
                " access, invite, status, seed, ending, created) VALUES ('t1', 'block', :options,"
                " :seats, 1, 30, false, 'open', 'invite', 'finished', 11, :ending, 1002.0)"
            ),
            {
                "options": json.dumps(match.rules.options()),
                "seats": json.dumps(seats),
                "ending": json.dumps({"normal": True}),
            },
        )
        connection.execute(
            text("INSERT INTO moves (table_id, n, seat, move) VALUES ('t1', :n, :seat, :move)"),
            [{"n": n, "seat": seat, "move": move} for n, (seat, move) in enumerate(moves)],
        )
        connection.execute(
            text(
                "INSERT INTO records (id, table_id, game, players, text, summary, uploaded,"
                " created) VALUES ('t1', 't1', 'block', :players, :text, :summary, false, 1003.0)"
            ),
            {
                "players": json.dumps([s["name"] for s in seats]),
                "text": bazar.record.dumps(match),
                "summary": json.dumps(summary(match)),
            },
        )
        connection.execute(
            text("INSERT INTO settings (key, value) VALUES ('secret', 'kept')"),
        )
    counted = {name: _count(engine, name) for name in OLDEST}
    engine.dispose()

    storage = Storage(db)
    assert migrations.revision(storage.engine) == migrations.head()
    assert differences(storage.engine) == []
    assert {name: _count(storage.engine, name) for name in OLDEST} == counted
    alice = storage.user(1)
    assert alice is not None
    assert (alice.name, alice.kozel_rating, alice.guest) == ("Alice", 7, False)
    assert storage.moves("t1") == [move for _, move in moves]
    record = storage.record("t1")
    assert record is not None and record.text == bazar.record.dumps(match)
    assert storage.secret() == "kept"
    # the backfills of the start: Alice's name is held, her seat in the match is noted
    holder = storage.holder(names.keys("Alice"))
    assert holder is not None and holder.id == 1
    assert storage.played(1) == [("block", 1, 1)]
    storage.close()

    with TestClient(make_app(db)) as client:
        history = client.get("/api/records", params={"player": "Alice"}).json()
        assert [(r["id"], r["seats"]) for r in history["records"]] == [("t1", [winner])]
        replay = client.get("/api/records/t1").json()
        assert replay["players"][winner] == "Alice"
        profile = client.get("/api/profile/Alice").json()
        assert profile["played"][0]["games"] == 1


def _count(engine: Engine, table: str) -> int:
    with engine.connect() as connection:
        return int(connection.scalar(text(f"SELECT count(*) FROM {table}")) or 0)


def test_a_database_made_between_the_baseline_and_the_migrations_is_adopted(db: str) -> None:
    """A club that ran the leases before its migrations: ``create_all`` added the leases
    table to the baseline's, never the rematch's column."""
    engine = create_engine(engine_url(db))
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), "0001")
        connection.execute(text("DROP TABLE alembic_version"))
    Base.metadata.tables["leases"].create(engine)
    engine.dispose()
    storage = Storage(db)
    assert migrations.revision(storage.engine) == migrations.head()
    assert differences(storage.engine) == []
    storage.close()


def test_processes_starting_at_once_on_a_fresh_database_make_one_schema(db: str) -> None:
    """Each process waits for a moment they share, then opens the club's storage: one
    upgrades the database, the others wait for its lock and find it done."""
    start = time.time() + 4
    script = (
        "import sys, time\n"
        "from bazar.club.storage import Storage\n"
        "time.sleep(max(0.0, float(sys.argv[2]) - time.time()))\n"
        "Storage(sys.argv[1]).close()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", script, db, str(start)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    for process in processes:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    engine = create_engine(engine_url(db))
    assert versions(engine) == [migrations.head()]
    assert differences(engine) == []
    engine.dispose()


def test_a_database_of_a_newer_bazar_is_refused_not_changed(db: str) -> None:
    Storage(db).close()
    engine = create_engine(engine_url(db))
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    for upgrade in (True, False):
        with pytest.raises(migrations.Unmigrated) as refused:
            Storage(db, upgrade=upgrade)
        assert (refused.value.at, refused.value.known) == ("9999", False)
    assert versions(engine) == ["9999"]
    engine.dispose()


def test_a_storage_that_may_not_upgrade_refuses_a_database_behind(db: str) -> None:
    engine = create_engine(engine_url(db))
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), "0002")
    with pytest.raises(migrations.Unmigrated) as refused:
        Storage(db, upgrade=False)
    assert (refused.value.at, refused.value.newest) == ("0002", migrations.head())
    assert versions(engine) == ["0002"]
    migrations.upgrade(engine)
    Storage(db, upgrade=False).close()
    engine.dispose()


# -- what the club holds to be one -------------------------------------------------------------


def _table(table_id: str) -> TableRow:
    return TableRow(
        id=table_id, game="block", options={}, seats=[None, None], owner=1, invite="x", seed=1
    )


def _record(record_id: str, table_id: str | None) -> dict[str, Any]:
    return {
        "id": record_id,
        "table_id": table_id,
        "game": "block",
        "players": [],
        "text": "{}",
        "summary": {},
        "uploaded": table_id is None,
        "created": 0.0,
    }


#: rows of which the club holds there is one: the second of each is refused
ONES = {
    "a table's record": (RecordRow, _record("r1", "t1"), _record("r2", "t1")),
    "a name's key": (NameRow, {"key": "alice", "user_id": 1}, {"key": "alice", "user_id": 2}),
    "a player's rating in a game": (
        Rating,
        {"user_id": 1, "game": "block", "mu": 25.0, "sigma": 8.0, "games": 1},
        {"user_id": 1, "game": "block", "mu": 20.0, "sigma": 7.0, "games": 2},
    ),
    "a table's move of a number": (
        MoveRow,
        {"table_id": "t1", "n": 0, "seat": 0, "move": "6-6"},
        {"table_id": "t1", "n": 0, "seat": 1, "move": "6-5"},
    ),
    "a table's lease": (
        Lease,
        {"table_id": "t1", "node": "a", "expires": 1.0},
        {"table_id": "t1", "node": "b", "expires": 2.0},
    ),
}


@pytest.mark.parametrize("what", list(ONES))
def test_the_database_refuses_a_second_of_what_is_one(db: str, what: str) -> None:
    storage = Storage(db)
    storage.add_user("Alice", "hash")
    storage.add_user("Bob", "hash")
    storage.add_table(_table("t1"))
    model, first, second = ONES[what]
    with storage.engine.begin() as connection:
        connection.execute(insert(model), first)
    with pytest.raises(IntegrityError), storage.engine.begin() as connection:
        connection.execute(insert(model), second)
    storage.close()


def test_uploaded_records_name_no_table_and_are_many(db: str) -> None:
    storage = Storage(db)
    with storage.engine.begin() as connection:
        connection.execute(insert(RecordRow), [_record("u1", None), _record("u2", None)])
    with storage.engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(RecordRow)) == 2
    storage.close()
