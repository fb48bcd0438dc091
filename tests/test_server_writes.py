"""The HTTP side's database writes: a guest, a session, a table, a seat. Each is written off
the event loop, so a write that waits for a lock holds up no other table; one the database
refuses past every try is answered "db_busy" (503) and leaves nothing half-made; two requests
that change the same seats or the same owner's share are made one after the other. The real
app under uvicorn on a loopback port, a fresh database each; every wait is bounded."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import JsonSocket, wait_until
from sqlalchemy import func, select, update
from test_server_faults import WAIT, Player, Server, Spy, answer, hello, sqlite_lock
from websockets.sync.client import ClientConnection

from bazar.club.settings import Settings
from bazar.club.storage import SessionRow, User

#: a write gives up within seconds: three tries of a second each, a pause between them
#: (the sockets' pace is lifted: the watcher pings as fast as it is answered)
BUSY = Settings(
    db_busy_timeout_s=1.0,
    db_retries=2,
    db_retry_s=0.1,
    messages_per_s=1e6,
    message_burst=1_000_000,
)


def while_locked(
    path: Path, watcher: ClientConnection, send: Callable[[], httpx.Response]
) -> tuple[httpx.Response, int]:
    """``send()`` (an HTTP request) on a thread of its own while another program holds the
    database's write lock, the watcher's socket (another table's) pinged meanwhile: the
    answer, and how many pongs came back before it (the server answering other tables)."""
    lock = sqlite_lock(path)
    answers: list[httpx.Response] = []
    thread = threading.Thread(target=lambda: answers.append(send()), daemon=True)
    sock = JsonSocket(watcher, WAIT)
    pongs = 0
    try:
        thread.start()
        for _ in range(100_000):
            if not thread.is_alive():
                break
            sock.send_json({"type": "ping"})
            answer(watcher, "pong")
            pongs += thread.is_alive()
            # a ping each few milliseconds: the machine runs other tests too
            threading.Event().wait(0.005)
        thread.join(WAIT)
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert answers, "the request got no answer"
    return answers[0], pongs


def refused_busy(response: httpx.Response) -> None:
    """``response`` is the coded refusal of a write the database never took."""
    assert response.status_code == 503, response.text
    said = response.json()
    assert said["code"] == "db_busy", said
    assert response.headers["retry-after"] == str(said["params"]["retry_after"])
    assert "bazar" not in response.cookies


def users(server: Server) -> int:
    with server.storage.session() as db:
        return int(db.scalar(select(func.count()).select_from(User)) or 0)


@contextlib.contextmanager
def watching(server: Server) -> Iterator[ClientConnection]:
    """Vera at a table of her own, her socket open: the other table that must go on."""
    vera = Player(server, "Vera")
    with vera.ws(vera.create(game="kozel", players=2)) as ws:
        hello(ws)
        yield ws


# a write that waits for a lock holds up nobody else, and then is refused whole


def test_a_guest_is_made_off_the_loop_and_refused_whole_while_the_database_is_locked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "club.sqlite3"
    with Server(f"sqlite:///{path}", settings=BUSY) as server, watching(server) as watcher:
        made = users(server)
        spy = Spy(server.storage.accounts.add_user)
        monkeypatch.setattr(server.storage.accounts, "add_user", spy)
        masha = Player(server)
        send = lambda: masha.http.post("/api/guest", json={"name": "Masha"})  # noqa: E731
        response, pongs = while_locked(path, watcher, send)
        # the other table answered all along, and the write was tried three times
        assert pongs >= 3 and spy.began == spy.ended == 3
        refused_busy(response)
        assert users(server) == made
        assert masha.http.get("/api/session").json() == {"user": None}
        again = send()
        assert again.status_code == 200, again.text
        assert masha.http.get("/api/session").json()["user"]["name"] == "Masha"


def test_a_table_is_made_off_the_loop_and_refused_whole_while_the_database_is_locked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "club.sqlite3"
    with Server(f"sqlite:///{path}", settings=BUSY) as server:
        masha = Player(server, "Masha")
        with watching(server) as watcher:
            lobby = masha.http.get("/api/tables").json()["tables"]
            tables = set(server.club.tables)
            spy = Spy(server.storage.tables.add_table)
            monkeypatch.setattr(server.storage.tables, "add_table", spy)
            form = {"game": "kozel", "players": 2, "bots": "random"}
            send = lambda: masha.http.post("/api/tables", json=form)  # noqa: E731
            response, pongs = while_locked(path, watcher, send)
            assert pongs >= 3 and spy.began == spy.ended == 3
            refused_busy(response)
            assert masha.http.get("/api/tables").json()["tables"] == lobby
            assert set(server.club.tables) == tables
            me = masha.http.get("/api/session").json()["user"]
            assert server.storage.tables.owned(me["id"]) == 0
            again = send()
            assert again.status_code == 200, again.text
            tid = again.json()["table"]["id"]
            # stored with its bots, in one write: it plays at once
            assert server.storage.tables.table(tid).status == "playing"
            assert server.club.tables[tid].match is not None


def test_a_seat_is_taken_off_the_loop_and_refused_whole_while_the_database_is_locked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "club.sqlite3"
    with Server(f"sqlite:///{path}", settings=BUSY) as server:
        masha, alex = Player(server, "Masha"), Player(server, "Alex")
        tid = masha.create(game="kozel", players=2)
        table = server.club.tables[tid]
        with watching(server) as watcher:
            spy = Spy(server.storage.tables.update_table)
            monkeypatch.setattr(server.storage.tables, "update_table", spy)
            send = lambda: alex.http.post(f"/api/tables/{tid}/join", json={})  # noqa: E731
            response, pongs = while_locked(path, watcher, send)
            assert pongs >= 3 and spy.began == spy.ended == 3
            refused_busy(response)
            # no seat in memory that the database does not have
            stored = server.storage.tables.table(tid)
            assert table.row.seats == stored.seats and stored.seats[1] is None
            assert table.row.status == stored.status == "open" and table.match is None
            seen = alex.http.get(f"/api/tables/{tid}").json()["table"]
            assert seen["your_seat"] is None and seen["status"] == "open"
            again = send()
            assert again.status_code == 200 and again.json() == {"seat": 1}, again.text
            assert server.storage.tables.table(tid).status == "playing" and table.match is not None


def test_a_session_is_noted_off_the_loop_and_a_locked_database_only_leaves_the_note(
    tmp_path: Path,
) -> None:
    """A request now and then notes its session's last use: a write, which waits for a lock
    off the loop, and which a locked database only puts off (the request is answered)."""
    path = tmp_path / "club.sqlite3"
    with Server(f"sqlite:///{path}", settings=BUSY) as server:
        masha = Player(server, "Masha")
        with watching(server) as watcher:
            with server.storage.session() as db:
                db.execute(update(SessionRow).values(last_seen=0.0))
                db.commit()
            send = lambda: masha.http.get("/api/session")  # noqa: E731
            response, pongs = while_locked(path, watcher, send)
            assert pongs >= 3
            assert response.status_code == 200, response.text
            assert response.json()["user"]["name"] == "Masha"
        last_seen = select(func.max(SessionRow.last_seen))
        with server.storage.session() as db:
            assert db.scalar(last_seen) == 0.0
        # the lock gone, the next request notes it
        assert send().status_code == 200
        with server.storage.session() as db:
            assert db.scalar(last_seen) > 0.0


# requests at once: the seats and the owner's share are changed one at a time


class Gate:
    """A storage method whose calls wait until the gate opens (a slow database)."""

    def __init__(self, method: Any) -> None:
        self.method = method
        self.opened = threading.Event()
        self.began = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.began += 1
        assert self.opened.wait(WAIT), "the gate never opened"
        return self.method(*args, **kwargs)


def at_once(
    server: Server,
    monkeypatch: pytest.MonkeyPatch,
    entry: str,
    gate: Gate,
    requests: list[Callable[[], httpx.Response]],
) -> list[httpx.Response]:
    """Send ``requests`` at once, each on a thread of its own; open the ``gate`` of the
    first write once every one of them reached the club's ``entry`` method."""
    entered: list[Any] = []
    original = getattr(server.club, entry)

    async def counted(*args: Any, **kwargs: Any) -> Any:
        entered.append(args)
        return await original(*args, **kwargs)

    monkeypatch.setattr(server.club, entry, counted)
    answers: dict[int, httpx.Response] = {}
    threads = [
        threading.Thread(target=lambda i=i, r=r: answers.update({i: r()}), daemon=True)
        for i, r in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    wait_until(lambda: len(entered) == len(requests) and gate.began >= 1, WAIT)
    gate.opened.set()
    for thread in threads:
        thread.join(WAIT)
    return [answers[i] for i in range(len(requests))]


def test_two_players_racing_for_the_last_seat_do_not_both_get_it(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Server(db) as server:
        masha, alex, vera = (Player(server, name) for name in ("Masha", "Alex", "Vera"))
        tid = masha.create(game="kozel", players=2)
        table = server.club.tables[tid]
        gate = Gate(server.storage.tables.update_table)
        monkeypatch.setattr(server.storage.tables, "update_table", gate)
        racers = [alex, vera]
        answers = at_once(
            server,
            monkeypatch,
            "join",
            gate,
            [lambda p=p: p.http.post(f"/api/tables/{tid}/join", json={}) for p in racers],
        )
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 400], [r.text for r in answers]
        winner = racers[[r.status_code for r in answers].index(200)]
        loser = answers[[r.status_code for r in answers].index(400)]
        assert loser.json()["code"] == "started", loser.text
        assert gate.began == 1
        stored = server.storage.tables.table(tid)
        assert table.row.seats == stored.seats and stored.status == "playing"
        me = winner.http.get("/api/session").json()["user"]
        assert stored.seats[1]["user"] == me["id"]


def test_tables_asked_for_at_once_count_against_the_owners_share(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Server(db, settings=Settings(open_tables_per_user=1)) as server:
        masha = Player(server, "Masha")
        browsers = [masha, masha.at(server)]
        gate = Gate(server.storage.tables.add_table)
        monkeypatch.setattr(server.storage.tables, "add_table", gate)
        form = {"game": "kozel", "players": 2}
        answers = at_once(
            server,
            monkeypatch,
            "create",
            gate,
            [lambda b=b: b.http.post("/api/tables", json=form) for b in browsers],
        )
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 429], [r.text for r in answers]
        assert gate.began == 1
        me = masha.http.get("/api/session").json()["user"]
        assert server.storage.tables.owned(me["id"]) == 1
        assert len(masha.http.get("/api/tables").json()["tables"]) == 1
