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
from sqlalchemy import create_engine, func, insert, inspect, select, text
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
    # and one more: Alice's Kozel points, on a ratings row of their own since revision 0005
    counted["ratings"] += 1
    engine.dispose()

    storage = Storage(db)
    assert migrations.revision(storage.engine) == migrations.head()
    assert differences(storage.engine) == []
    assert {name: _count(storage.engine, name) for name in OLDEST} == counted
    alice = storage.accounts.user(1)
    assert alice is not None
    assert (alice.name, storage.ratings.points(1), alice.guest) == ("Alice", 7, False)
    assert storage.tables.moves("t1") == [move for _, move in moves]
    record = storage.records.record("t1")
    assert record is not None and record.text == bazar.record.dumps(match)
    assert storage.accounts.secret() == "kept"
    # the backfills of the start: Alice's name is held, her seat in the match is noted
    holder = storage.accounts.holder(names.keys("Alice"))
    assert holder is not None and holder.id == 1
    assert storage.records.played(1) == [("block", 1, 1)]
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
    storage.accounts.add_user("Alice", "hash")
    storage.accounts.add_user("Bob", "hash")
    storage.tables.add_table(_table("t1"))
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


# -- revision 0005: the Kozel points in the ratings --------------------------------------------

#: the tables of a club at revision 0004, each with the columns that order its rows
AT_0004 = {
    "users": "id",
    "names": "key",
    "sessions": "id_hash",
    "tables": "id",
    "moves": "table_id, n",
    "leases": "table_id",
    "records": "id",
    "played": "record_id, seat",
    "ratings": "user_id, game",
    "tournaments": "id",
    "settings": "key",
}

#: the players of the club at 0004: (id, name, registered, Kozel points), and the games each
#: has a rating in: Alice in Kozel and Block, Bob in none, Carol (a guest) in Block, Dan in
#: none and with no points, Eve in Osel (whose matches count Kozel points too) but not Kozel
PLAYERS = [(1, "Alice", True, 7), (2, "Bob", True, -3), (3, "Carol", False, 2), (4, "Dan", True, 0)]
PLAYERS.append((5, "Eve", True, 12))
RATED = {1: ["kozel", "block"], 3: ["block"], 5: ["osel"]}


def club_at_0004(url: str) -> Engine:
    """A club's database at revision 0004 with rows in every table."""
    engine = create_engine(engine_url(url))
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), "0004")
        connection.execute(
            text(
                "INSERT INTO users (id, name, password_hash, guest, kozel_rating, created)"
                " VALUES (:id, :name, :hash, :guest, :points, :created)"
            ),
            [
                {
                    "id": i,
                    "name": name,
                    "hash": "argon2-hash" if registered else None,
                    "guest": not registered,
                    "points": points,
                    "created": 1000.0 + i,
                }
                for i, name, registered, points in PLAYERS
            ],
        )
        connection.execute(
            text("INSERT INTO names (key, user_id) VALUES (:key, :user)"),
            [{"key": name.lower(), "user": i} for i, name, registered, _ in PLAYERS if registered],
        )
        connection.execute(
            text(
                "INSERT INTO sessions (id_hash, user_id, created, last_seen, revoked)"
                " VALUES ('h1', 1, 1.0, 2.0, false)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO ratings (user_id, game, mu, sigma, games) VALUES (:user, :game,"
                " :mu, :sigma, :games)"
            ),
            [
                {"user": user, "game": game, "mu": 20.0 + k, "sigma": 6.5, "games": 3 + k}
                for user, games in RATED.items()
                for k, game in enumerate(games)
            ],
        )
        connection.execute(
            text(
                "INSERT INTO tournaments (id, name, game, options, format, rounds, duration_s,"
                " teams, rated, access, invite, owner, status, starts_at, move_time_s, state,"
                " created) VALUES ('c1', 'Cup', 'kozel', '{}', 'swiss', 3, NULL, false, true,"
                " 'open', 'inv', 1, 'playing', NULL, 30, '{\"entries\": []}', 1100.0)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO tables (id, game, options, seats, owner, move_time_s, rated,"
                " access, invite, status, seed, reserved, ending, created, tournament) VALUES"
                " ('t1', 'kozel', '{}', :seats, 1, 30, true, 'open', 'inv', 'finished', 11,"
                " NULL, '{\"normal\": true}', 1200.0, 'c1')"
            ),
            {"seats": json.dumps([{"user": 1, "name": "Alice"}, {"user": 2, "name": "Bob"}])},
        )
        connection.execute(
            text(
                "INSERT INTO moves (table_id, n, seat, move) VALUES ('t1', 0, 0, '6-6'),"
                " ('t1', 1, 1, '6-5:R')"
            )
        )
        connection.execute(
            text("INSERT INTO leases (table_id, node, expires) VALUES ('t:c1', 'node-a', 5.0)")
        )
        connection.execute(
            text(
                "INSERT INTO records (id, table_id, game, players, text, summary, uploaded,"
                " created) VALUES ('t1', 't1', 'kozel', '[\"Alice\", \"Bob\"]', '{}',"
                " '{\"winners\": [0]}', false, 1300.0)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO played (record_id, seat, user_id, game, won, rating, created)"
                " VALUES ('t1', 0, 1, 'kozel', true, 1.5, 1300.0),"
                " ('t1', 1, 2, 'kozel', false, NULL, 1300.0)"
            )
        )
        connection.execute(text("INSERT INTO settings (key, value) VALUES ('secret', 'kept')"))
    return engine


def rows(engine: Engine) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of revision 0004, in order."""
    with engine.connect() as connection:
        return {
            table: [
                dict(row._mapping)
                for row in connection.execute(text(f"SELECT * FROM {table} ORDER BY {order}"))
            ]
            for table, order in AT_0004.items()
        }


def to(engine: Engine, revision: str) -> None:
    """Upgrade or downgrade the database to ``revision``."""
    with engine.begin() as connection:
        at = migrations.revision(engine)
        step = command.upgrade if (at or "") < revision else command.downgrade
        step(migrations.config(connection), revision)


def test_the_kozel_points_move_into_the_ratings_and_back_with_every_row_kept(db: str) -> None:
    engine = club_at_0004(db)
    before = rows(engine)
    to(engine, "0005")
    assert versions(engine) == ["0005"]
    to(engine, migrations.head())
    assert differences(engine) == []
    after = rows(engine)

    # the users keep every column but their points; every other table but the ratings, all
    assert after["users"] == [
        {k: v for k, v in user.items() if k != "kozel_rating"} for user in before["users"]
    ]
    assert {t: r for t, r in after.items() if t not in ("users", "ratings")} == {
        t: r for t, r in before.items() if t not in ("users", "ratings")
    }
    # each rating is kept, with the points of its player on his Kozel row alone
    points = {user: points for user, _, _, points in PLAYERS}
    kept = {(r["user_id"], r["game"]): r for r in after["ratings"]}
    for rating in before["ratings"]:
        key = (rating["user_id"], rating["game"])
        moved = points[key[0]] if key[1] == "kozel" else 0
        assert kept.pop(key) == {**rating, "points": moved}
    # Bob, Carol and Eve had points and no Kozel row: one of points alone; Dan had none
    fresh = {"mu": 25.0, "sigma": pytest.approx(25 / 3), "games": 0}
    assert kept == {
        (user, "kozel"): {"user_id": user, "game": "kozel", **fresh, "points": points[user]}
        for user in (2, 3, 5)
    }

    # the club reads them where they are now: the players' points, their skills as before
    storage = Storage(db, upgrade=False)
    assert [storage.ratings.points(user) for user, *_ in PLAYERS] == [7, -3, 2, 0, 12]
    assert [(u.name, p) for u, p in storage.ratings.kozel_leaderboard()] == [
        ("Eve", 12),
        ("Alice", 7),
        ("Dan", 0),
        ("Bob", -3),
    ]
    assert [r.game for r in storage.ratings.ratings_of(2)] == []
    assert [r.game for r in storage.ratings.ratings_of(5)] == ["osel"]
    assert [u.name for u, _ in storage.ratings.leaderboard("kozel")] == ["Alice"]
    storage.close()

    to(engine, "0004")
    assert versions(engine) == ["0004"]
    assert rows(engine) == before
    engine.dispose()


def test_a_downgraded_database_has_the_schema_of_0004(db: str) -> None:
    engine = create_engine(engine_url(db))
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), "0004")
    made = _columns(engine)
    to(engine, "0005")
    to(engine, "0004")
    assert _columns(engine) == made
    engine.dispose()


def test_the_analyses_come_and_go_with_0006_and_leave_the_schema_of_0005(db: str) -> None:
    engine = create_engine(engine_url(db))
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), "0005")
    made = _columns(engine)
    to(engine, "0006")
    assert set(_columns(engine)) == set(made) | {"analyses"}
    storage = Storage(db, upgrade=False)
    assert storage.records.analysis("r1", "0", 16, 1) is None
    storage.close()
    to(engine, "0005")
    assert _columns(engine) == made
    engine.dispose()


def _columns(engine: Engine) -> dict[str, list[tuple[str, str, bool, Any]]]:
    """Each table's columns: name, type, whether it may be null, its default."""
    found = inspect(engine)
    return {
        table: sorted(
            (c["name"], str(c["type"]), c["nullable"], c.get("default"))
            for c in found.get_columns(table)
        )
        for table in found.get_table_names()
    }
