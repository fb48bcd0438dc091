"""A club of several processes (``bazar/club/routing.py``, the leases of
``bazar/club/club.py`` and ``storage.py``): real server processes on one database (SQLite,
and PostgreSQL where the run has it), meeting at a real Redis server; a client on each, a
process killed with kill -9 or drained in the middle of matches."""

from __future__ import annotations

import json
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis")

from processes import WAIT, Person, Process, Seat, commitments, moves_of

from bazar.club.storage import Storage
from bazar.club.table import Table


@pytest.fixture
def club(db: str, redis_url: str, tmp_path: Path) -> Iterator[Any]:
    """Start processes of one club (``club(n)`` starts n more), stopped after the test;
    none of them may have logged a failure."""
    started: list[Process] = []

    def start(count: int = 1, redis: str | None = redis_url, **limits: str) -> list[Process]:
        made = [
            Process(db, redis, tmp_path / f"server{len(started) + i}.log", **limits).start()
            for i in range(count)
        ]
        started.extend(made)
        return made

    start.processes = started  # type: ignore[attr-defined]
    start.db = db  # type: ignore[attr-defined]
    yield start
    for process in started:
        process.stop()
    opened = _READERS.pop(db, None)
    if opened is not None:
        opened.close()
    failures = [line for p in started for line in p.failures()]
    assert not failures, "\n".join(failures)


#: the test's own connection to each club's database (opened once: a storage that opens
#: brings the schema up to date, which takes the database's lock)
_READERS: dict[str, Storage] = {}


def reader(db: str) -> Storage:
    if db not in _READERS:
        _READERS[db] = Storage(db)
    return _READERS[db]


def stored_moves(db: str, table: str) -> list[str]:
    return reader(db).tables.moves(table)


def holder(db: str, table: str) -> str | None:
    return reader(db).tables.owners([table]).get(table)


def wait_for(condition: Any, seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


def test_two_processes_play_one_match_a_client_on_each(club: Any) -> None:
    """Masha's table lives in the process she made it on; Alex joins it and plays it through
    the other: his requests and moves reach it through Redis, its events reach him."""
    a, b = club(2)
    masha, alex = Person(a.base, "Masha"), Person(b.base, "Alex")
    table = masha.post(a.base, "/api/tables", game="kozel", players=2)["table"]["id"]
    assert alex.post(b.base, f"/api/tables/{table}/join")["seat"] == 1
    # what the other process says of the table is the table's own word
    seen_a = masha.get(a.base, f"/api/tables/{table}")["table"]
    seen_b = alex.get(b.base, f"/api/tables/{table}")["table"]
    assert seen_a["status"] == seen_b["status"] == "playing"
    assert seen_b["your_seat"] == 1 and seen_a["your_seat"] == 0
    seats = [Seat(masha, table, lambda: a.base, 1), Seat(alex, table, lambda: b.base, 2)]
    for seat in seats:
        seat.start()
    ends = [seat.result() for seat in seats]
    assert ends[0] == ends[1] and ends[0]["ending"] == {"normal": True}
    # each heard every event once, in order, on his one socket
    assert all(len(seat.logs) == 1 for seat in seats)
    heard = [seat.events() for seat in seats]
    assert [e["v"] for e in heard[1]] == list(range(1, len(heard[1]) + 1))
    assert [json.dumps(e, sort_keys=True) for e in heard[0]] == [
        json.dumps(e, sort_keys=True) for e in heard[1]
    ]
    assert stored_moves(club.db, table) == moves_of(heard[0])


def test_the_lobby_is_the_same_from_every_process(club: Any) -> None:
    """A table made on one process is listed by the other, in its list and on its lobby
    socket, at once."""
    from websockets.sync.client import connect

    a, b = club(2)
    masha, alex = Person(a.base, "Masha"), Person(b.base, "Alex")
    with connect(b.base.replace("http", "ws") + "/ws/lobby", open_timeout=WAIT) as lobby:
        first = json.loads(lobby.recv(timeout=WAIT))
        assert first["type"] == "tables" and first["tables"] == []
        made = masha.post(a.base, "/api/tables", game="kozel", players=4)["table"]["id"]
        other = alex.post(b.base, "/api/tables", game="block", players=2)["table"]["id"]
        deadline = time.monotonic() + WAIT
        listed: set[str] = set()
        while listed != {made, other}:
            assert time.monotonic() < deadline
            listed = {t["id"] for t in json.loads(lobby.recv(timeout=WAIT))["tables"]}

    def ids(base: str) -> list[str]:
        return [t["id"] for t in masha.get(base, "/api/tables")["tables"]]

    wait_for(lambda: ids(a.base) == ids(b.base) == [other, made])
    # the table made on the first is joined through the second, and both lists say so
    alex.post(b.base, f"/api/tables/{made}/join")

    def seats(base: str) -> list[Any]:
        tables = masha.get(base, "/api/tables")["tables"]
        return next(t["seats"] for t in tables if t["id"] == made)

    wait_for(lambda: seats(a.base) == seats(b.base) and seats(a.base)[1] is not None)


def test_a_killed_process_s_match_goes_on_in_the_other(club: Any) -> None:
    """kill -9 the process of a match in the middle of it: the other takes the table over
    once its lease expires, from its stored moves; both players' pages come again (to the
    process that is left, as a load balancer sends them) and play to the end. No move is
    lost or made twice, and every round keeps the deal it committed to."""
    a, b = club(2)
    masha, alex = Person(a.base, "Masha"), Person(b.base, "Alex")
    table = masha.post(a.base, "/api/tables", game="kozel", players=2)["table"]["id"]
    alex.post(b.base, f"/api/tables/{table}/join")
    alive = {"a": True}
    masha_at = Seat(masha, table, lambda: a.base if alive["a"] else b.base, 3)
    alex_at = Seat(alex, table, lambda: b.base, 4)
    masha_at.start()
    alex_at.start()
    wait_for(lambda: masha_at.heard() >= 12)
    before = masha_at.events()
    owner = holder(club.db, table)
    assert owner is not None
    killed = time.monotonic()
    a.kill()
    alive["a"] = False
    wait_for(lambda: holder(club.db, table) not in (None, owner), 15)
    taken_over_in = time.monotonic() - killed
    ends = [masha_at.result(), alex_at.result()]
    assert ends[0] == ends[1] and ends[0]["ending"] == {"normal": True}
    # the lease was 2 s here: it was taken over well within the default's 10
    assert taken_over_in < 6
    after = alex_at.events()
    moves = moves_of(after)
    assert moves_of(before) == moves[: len(moves_of(before))]
    assert stored_moves(club.db, table) == moves
    assert moves_of(masha_at.events()) == moves
    kept = commitments(before)
    assert kept and all(commitments(after)[n] == h for n, h in kept.items())
    assert len(masha_at.logs) >= 2 and len(alex_at.logs) >= 2


def test_a_drained_process_hands_its_tables_over_and_exits(club: Any) -> None:
    """SIGTERM, as an upgrade stops a process: it gives its tables up and exits; the other
    process takes each over at once, not after a lease."""
    a, b = club(2, BAZAR_LEASE_S="30")
    masha, alex = Person(a.base, "Masha"), Person(b.base, "Alex")
    table = masha.post(a.base, "/api/tables", game="kozel", players=2)["table"]["id"]
    alex.post(b.base, f"/api/tables/{table}/join")
    alive = {"a": True}
    seats = [
        Seat(masha, table, lambda: a.base if alive["a"] else b.base, 5),
        Seat(alex, table, lambda: b.base, 6),
    ]
    for seat in seats:
        seat.start()
    wait_for(lambda: seats[0].heard() >= 10)
    owner = holder(club.db, table)
    alive["a"] = False
    began = time.monotonic()
    # uvicorn stops gracefully, then exits by the signal it was sent
    assert a.drain() in (0, -signal.SIGTERM)
    wait_for(lambda: holder(club.db, table) not in (None, owner), 10)
    # with 30 s leases, only the hand-over explains a take-over this soon
    assert time.monotonic() - began < 10
    ends = [seat.result() for seat in seats]
    assert ends[0] == ends[1]
    assert stored_moves(club.db, table) == moves_of(seats[1].events())


def test_two_processes_on_one_database_never_both_run_a_table(club: Any) -> None:
    """Without Redis as with it, a process starts only the tables it holds the lease of:
    two processes on one database no longer both resume the same matches (whose bots would
    write the same moves), and when one dies the other takes its matches over."""
    (a,) = club(1, redis=None, BAZAR_GRACE_S="600")
    masha = Person(a.base, "Masha")
    tables = [
        masha.post(a.base, "/api/tables", game="block", players=2, bots="random")["table"]["id"]
        for _ in range(3)
    ]
    (b,) = club(1, redis=None, BAZAR_GRACE_S="600")
    owners = {t: holder(club.db, t) for t in tables}
    assert None not in owners.values() and len(set(owners.values())) == 1
    time.sleep(3)
    # b held none of them (its keeper looked at them more than once)
    assert {t: holder(club.db, t) for t in tables} == owners
    assert not b.failures() and not a.failures()
    a.kill()
    wait_for(lambda: all(holder(club.db, t) not in (None, *owners.values()) for t in tables), 15)


def test_no_table_runs_twice_under_concurrent_joins_and_restarts(club: Any) -> None:
    """Many people making and joining tables on three processes while processes are killed
    and started again: no move is ever stored twice or out of turn (every process's log is
    free of failures, checked by the fixture), and every match's stored moves replay."""
    from bazar.core import record

    quick = {"BAZAR_GRACE_S": "3"}
    processes = club(3, **quick)
    rng = random.Random(7)
    people = [Person(processes[i % 3].base, f"P{i}") for i in range(6)]
    tables: list[str] = []
    for round_ in range(4):
        live = [p for p in club.processes if p.process.poll() is None]
        for person in people:
            base = rng.choice(live).base
            tables.append(
                person.post(base, "/api/tables", game="block", players=2, bots="random")["table"][
                    "id"
                ]
            )
        # a table of two people, joined through another process than its owner's
        host, guest = rng.sample(people, 2)
        made = host.post(rng.choice(live).base, "/api/tables", game="kozel", players=2)
        guest.post(rng.choice(live).base, f"/api/tables/{made['table']['id']}/join")
        tables.append(made["table"]["id"])
        time.sleep(1)
        victim = rng.choice(live)
        victim.kill() if round_ % 2 == 0 else victim.drain()
        club(1, **quick)
    time.sleep(3)
    storage = reader(club.db)
    for table in tables:
        row = storage.tables.table(table)
        assert row is not None
        moves = storage.tables.moves(table)
        if row.status != "open":
            # every stored move is the legal move of its seat, in turn, from the table's deal
            Table(row, storage.tables).restore(moves)
        if row.status == "finished":
            text = storage.records.record(table)
            assert text is not None
            match = record.loads(text.text)
            assert [str(m) for r in match.rounds for m in r.moves] == moves


def test_every_process_counts_who_is_online(club: Any) -> None:
    """A player with a socket open on either process is online on both."""
    a, b = club(2)
    masha, alex = Person(a.base, "Masha"), Person(b.base, "Alex")
    table = masha.post(a.base, "/api/tables", game="kozel", players=2)["table"]["id"]
    assert masha.get(a.base, "/api/online") == {"players": 0}
    with masha.ws(a.base, table), alex.ws(b.base, table):
        wait_for(lambda: all(masha.get(p.base, "/api/online")["players"] == 2 for p in (a, b)))


def test_when_an_edge_dies_its_players_are_gone_and_come_back_elsewhere(club: Any) -> None:
    """kill -9 the process that served Alex's socket for a table of the other process: the
    table sees him gone (Masha is told, his grace begins) once that process no longer says
    it is alive; he comes again through the process that is left and plays on."""
    a, b = club(2)
    masha, alex = Person(a.base, "Masha"), Person(b.base, "Alex")
    table = masha.post(a.base, "/api/tables", game="kozel", players=2)["table"]["id"]
    alex.post(b.base, f"/api/tables/{table}/join")
    # Alex's page tries the dead process again and again, until the load balancer sends
    # him to the other (after the table has seen him gone)
    sent = {"to": b.base}
    masha_at = Seat(masha, table, lambda: a.base, 8)
    alex_at = Seat(alex, table, lambda: sent["to"], 9)
    masha_at.start()
    alex_at.start()
    wait_for(lambda: masha_at.heard() >= 8)
    b.kill()

    def told(kind: str) -> bool:
        return any(
            m["type"] == "notice" and m["event"]["t"] == kind and m["event"]["seat"] == 1
            for log in list(masha_at.logs)
            for m in list(log)
        )

    wait_for(lambda: told("disconnected"), 20)
    sent["to"] = a.base
    wait_for(lambda: told("reconnected"), 20)
    ends = [masha_at.result(), alex_at.result()]
    assert ends[0] == ends[1] and ends[0]["ending"] == {"normal": True}
    # Masha's one socket heard the whole match, the table never left its process
    assert len(masha_at.logs) == 1
    assert stored_moves(club.db, table) == moves_of(masha_at.events())


def test_the_limits_of_one_address_hold_across_the_processes(club: Any) -> None:
    """The guests one address may make, and the wrong passwords one name may try, are
    counted by every process alike: a stranger does not get N shares from N processes."""
    import httpx

    a, b = club(2, BAZAR_GUESTS_PER_ADDRESS="3", BAZAR_LOGIN_TRIES="2")
    made = [
        httpx.post(f"{p.base}/api/guest", json={"name": f"G{i}"}, timeout=WAIT).status_code
        for i, p in enumerate((a, a, b, b))
    ]
    assert made == [200, 200, 200, 429]
    r = httpx.post(f"{a.base}/api/register", json={"name": "Olga", "password": "secret-1"})
    assert r.status_code == 200, r.text
    wrong = [
        httpx.post(
            f"{p.base}/api/login", json={"name": "Olga", "password": "nope-nope"}, timeout=WAIT
        )
        for p in (a, b, b)
    ]
    assert [r.json()["code"] for r in wrong[:2]] == ["wrong_login", "wrong_login"]
    assert wrong[2].status_code == 429 and wrong[2].json()["code"] == "too_many_tries"
