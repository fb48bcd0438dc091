"""Faults: a database that is locked or fails, a table's actor that fails, a table whose stored
moves no longer replay, a crash at the end of a match, and what a restart gives back. The
real app under uvicorn on a loopback port, a fresh database each; every wait is bounded."""

from __future__ import annotations

import json
import logging
import random
import socket
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import httpx
import uvicorn
from server_helpers import SECRET, Driver, JsonSocket, driven, events_of, is_forced, wait_until
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bazar.club import create_app
from bazar.club.audience import RESTART
from bazar.club.settings import Settings
from bazar.club.storage import Storage
from bazar.club.tablestate import rules_of
from bazar.core.match import Match

#: the longest any one answer may take on a loaded machine: a bound, never a measure
WAIT = 60.0


class Server:
    """The club on ``db`` under uvicorn on a free loopback port, in a thread of its own; the
    app is made at once (to be looked into before it starts), served from ``with``."""

    def __init__(self, db: str, **options: Any) -> None:
        # the players here answer at once, far past a person's pace: the socket's rate limit
        # is not what these tests attack
        options["settings"] = driven(options.get("settings"))
        self.app = create_app(db, secret=SECRET, **{"bot_delay": 0.0, **options})
        self.club = self.app.state.club
        self.storage = self.app.state.storage
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        # no log_config: uvicorn leaves logging as the test's caplog set it
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=port, log_config=None, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        wait_until(lambda: self.server.started or not self.thread.is_alive(), WAIT)
        assert self.server.started, "the server did not start"
        return self

    def __exit__(self, *_: Any) -> None:
        self.server.should_exit = True
        self.thread.join(WAIT)


class Player:
    """One browser: its session cookie, for HTTP and for the tables' sockets."""

    def __init__(
        self, server: Server, name: str | None = None, password: str | None = None
    ) -> None:
        self.base = server.base
        self.http = httpx.Client(base_url=self.base, headers={"origin": self.base}, timeout=WAIT)
        if name is not None:
            path = "/api/register" if password else "/api/guest"
            r = self.http.post(path, json={"name": name, "password": password})
            assert r.status_code == 200, r.text

    def at(self, server: Server) -> Player:
        """The same browser on a restarted server."""
        again = Player(server)
        again.http.cookies.update(self.http.cookies)
        return again

    def create(self, **form: Any) -> str:
        r = self.http.post("/api/tables", json=form)
        assert r.status_code == 200, r.text
        return str(r.json()["table"]["id"])

    def ws(self, tid: str) -> ClientConnection:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        return connect(
            self.base.replace("http", "ws") + f"/ws/{tid}",
            additional_headers={"cookie": cookie},
            origin=self.base,  # type: ignore[arg-type]
            open_timeout=WAIT,
        )


def hello(connection: ClientConnection, v: int = 0) -> dict[str, Any]:
    """Say hello; the sync."""
    sock = JsonSocket(connection, WAIT)
    sock.send_json({"type": "hello", "v": v})
    sync: dict[str, Any] = sock.receive_json()
    assert sync["type"] == "sync", sync
    return sync


def my_turn(connection: ClientConnection) -> tuple[str, int]:
    """Say hello and read until this seat must choose a move: a legal one, and the version
    it was seen at."""
    sock = JsonSocket(connection, WAIT)
    sock.send_json({"type": "hello", "v": 0})
    for _ in range(10_000):
        message = sock.receive_json()
        view = message.get("view")
        if message["type"] in ("sync", "event") and view and view["legal"] and not is_forced(view):
            return view["legal"][0], message["v"]
    raise AssertionError("never this seat's turn")


def answer(connection: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (the ones before it are read and left)."""
    sock = JsonSocket(connection, WAIT)
    for _ in range(10_000):
        message: dict[str, Any] = sock.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind}")


def move_event(connection: ClientConnection, seat: int, move: str) -> dict[str, Any]:
    """The event that announces ``move`` by ``seat``."""
    sock = JsonSocket(connection, WAIT)
    for _ in range(10_000):
        message = sock.receive_json()
        assert message["type"] != "error", message
        for event in events_of(message):
            if event["t"] == "move" and (event["seat"], event["move"]) == (seat, move):
                return event
    raise AssertionError(f"no move {move}")


def match_end(connection: ClientConnection) -> dict[str, Any]:
    """The event that ends the match."""
    sock = JsonSocket(connection, WAIT)
    for _ in range(10_000):
        for event in events_of(sock.receive_json()):
            if event["t"] == "match_end":
                return event
    raise AssertionError("no match_end")


def play(
    player: Player, tid: str, rng: random.Random, logs: list[list[dict[str, Any]]]
) -> dict[str, Any] | None:
    """Play a seat with random legal moves until the match ends (its match_end event),
    opening the table again, as the web page does, each time the server closes the socket
    (one log of messages per socket in ``logs``); None once the table is out of order."""
    for _ in range(20):
        log: list[dict[str, Any]] = []
        logs.append(log)
        with player.ws(tid) as connection:
            try:
                driver = Driver(JsonSocket(connection, WAIT), rng, log)
                for _ in range(50_000):
                    driver.step()
                    if driver.end is not None:
                        return driver.end
            except ConnectionClosed as closed:
                if closed.rcvd is not None and closed.rcvd.code == 4404:
                    return None
                continue
        raise AssertionError("the match did not end")
    raise AssertionError("the socket was closed again and again")


class Spy:
    """A storage method that counts the calls that began and the ones that ended."""

    def __init__(self, method: Any) -> None:
        self.method = method
        self.began = self.ended = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.began += 1
        try:
            return self.method(*args, **kwargs)
        finally:
            self.ended += 1


def sqlite_lock(path: Path) -> sqlite3.Connection:
    """Another program's connection to the club's SQLite file, holding its write lock."""
    lock = sqlite3.connect(path, isolation_level=None, timeout=WAIT)
    lock.execute("BEGIN IMMEDIATE")
    return lock


# a database that is locked


def test_a_write_waiting_for_a_lock_holds_up_no_other_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move waits for another program's lock on the database in a thread: meanwhile the
    server answers other sockets and requests, and the move is made once the lock goes."""
    path = tmp_path / "club.sqlite3"
    with Server(f"sqlite:///{path}", settings=Settings(db_busy_timeout_s=WAIT)) as server:
        masha, alex = Player(server, "Masha"), Player(server, "Alex")
        tid = masha.create(game="kozel", players=2, bots="random")
        other = alex.create(game="kozel", players=2)
        table = server.club.tables[tid]
        with masha.ws(tid) as ws, alex.ws(other) as watcher:
            hello(watcher)
            move, v = my_turn(ws)
            made = len(server.storage.tables.moves(tid))
            spy = Spy(server.storage.tables.append_move)
            monkeypatch.setattr(server.storage.tables, "append_move", spy)
            lock = sqlite_lock(path)
            ws.send(json.dumps({"type": "move", "move": move, "v": v}))
            wait_until(lambda: spy.began == 1, WAIT)
            JsonSocket(watcher, WAIT).send_json({"type": "ping"})
            assert answer(watcher, "pong") == {"type": "pong"}
            assert alex.http.get(f"/api/tables/{other}").status_code == 200
            assert masha.http.get(f"/api/tables/{tid}").status_code == 200
            # all of that was answered while the move's write still waited for the lock
            assert spy.ended == 0 and len(server.storage.tables.moves(tid)) == made
            assert len(table.state.events) == v
            lock.execute("ROLLBACK")
            move_event(ws, 0, move)
            assert server.storage.tables.moves(tid)[made] == move


def test_a_move_the_database_refuses_again_and_again_is_refused_not_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A write that fails while the database is locked is tried again; when every try
    fails, the mover hears that his move is not made, and may make it again later."""
    caplog.set_level(logging.WARNING, logger="bazar.club")
    path = tmp_path / "club.sqlite3"
    settings = Settings(db_busy_timeout_s=0.05, db_retries=2, db_retry_s=0.05)
    with Server(f"sqlite:///{path}", settings=settings) as server:
        masha = Player(server, "Masha")
        tid = masha.create(game="kozel", players=2, bots="random")
        table = server.club.tables[tid]
        with masha.ws(tid) as ws:
            move, v = my_turn(ws)
            made, events = len(server.storage.tables.moves(tid)), len(table.state.events)
            spy = Spy(server.storage.tables.append_move)
            monkeypatch.setattr(server.storage.tables, "append_move", spy)
            lock = sqlite_lock(path)
            ws.send(json.dumps({"type": "move", "move": move, "v": v}))
            refused = answer(ws, "error")
            assert refused["code"] == "not_stored", refused
            assert spy.began == 3  # the first try and two more
            assert len(server.storage.tables.moves(tid)) == made
            assert len(table.state.events) == events
            lock.execute("ROLLBACK")
            tries = [r for r in caplog.records if "refused a write" in r.getMessage()]
            assert [r.levelname for r in tries] == ["WARNING", "WARNING", "ERROR"]
            ws.send(json.dumps({"type": "move", "move": move, "v": v}))
            move_event(ws, 0, move)
            assert server.storage.tables.moves(tid)[made] == move


# a table's actor that fails


def test_a_table_whose_actor_fails_is_rebuilt_and_its_match_goes_on(
    db: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The supervisor: an actor that fails is logged, its table rebuilt from its stored
    moves, its sockets closed for their clients to come again; no move is lost."""
    caplog.set_level(logging.INFO, logger="bazar.club")
    with Server(db) as server:
        masha = Player(server, "Masha")
        tid = masha.create(game="kozel", players=2, bots="random")
        original = server.storage.tables.append_move
        calls: list[Any] = []

        def fails_once(*args: Any) -> None:
            calls.append(args)
            if len(calls) == 6:
                raise RuntimeError("a fault in the storage")
            original(*args)

        monkeypatch.setattr(server.storage.tables, "append_move", fails_once)
        logs: list[list[dict[str, Any]]] = []
        end = play(masha, tid, random.Random(5), logs)
        assert end is not None and end["ending"] == {"normal": True}
        # the socket was closed once, as the table was rebuilt
        assert len(logs) == 2
        failed = [r for r in caplog.records if r.getMessage() == f"table {tid} failed"]
        assert len(failed) == 1 and failed[0].exc_info is not None
        assert isinstance(failed[0].exc_info[1], RuntimeError)
        assert any(r.getMessage().startswith(f"table {tid} rebuilt") for r in caplog.records)
        # every event heard before the failure is the rebuilt table's at that version
        heard = {e["v"]: e for message in logs[0] for e in events_of(message)}
        after = [e for message in logs[1] for e in events_of(message)]
        assert after[0]["v"] == 1 and [e["v"] for e in after] == list(range(1, len(after) + 1))
        assert heard and all(after[v - 1] == event for v, event in heard.items())
        moves = [e["move"] for e in after if e["t"] == "move"]
        assert server.storage.tables.moves(tid) == moves
        record = masha.http.get(f"/api/records/{tid}").json()["record"]
        assert [m for r in record["rounds"] for m in r["moves"]] == moves


def test_a_table_that_fails_again_and_again_is_left_stopped(
    db: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bazar.club")
    with Server(db, settings=Settings(table_restarts=1)) as server:
        masha, alex = Player(server, "Masha"), Player(server, "Alex")
        tid = masha.create(game="kozel", players=2, bots="random")
        other = alex.create(game="kozel", players=2)

        def fails(*args: Any) -> None:
            raise RuntimeError("a fault in the storage")

        monkeypatch.setattr(server.storage.tables, "append_move", fails)
        logs: list[list[dict[str, Any]]] = []
        assert play(masha, tid, random.Random(6), logs) is None
        failed = [r for r in caplog.records if r.getMessage() == f"table {tid} failed"]
        assert len(failed) == 2
        assert any(
            r.getMessage() == f"table {tid} failed 2 times: left stopped" for r in caplog.records
        )
        r = masha.http.get(f"/api/tables/{tid}")
        assert r.status_code == 503 and r.json()["code"] == "table_broken"
        assert alex.http.get(f"/api/tables/{other}").status_code == 200
        listed = [t["id"] for t in alex.http.get("/api/tables").json()["tables"]]
        assert other in listed and tid not in listed


# a table whose stored moves no longer replay


def test_a_table_whose_moves_do_not_replay_is_left_out_and_the_others_resume(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bazar.club")
    with Server(db, bot_delay=600) as server:
        masha = Player(server, "Masha")
        broken = masha.create(game="kozel", players=2, bots="random")
        fine = masha.create(game="kozel", players=2, bots="random")
    storage = Storage(db)
    row = storage.tables.table(broken)
    assert row is not None and row.status == "playing"
    match = Match(rules_of(row), seed=row.seed)
    seat = match.turn
    assert seat is not None
    play_ = next(m for m in match.legal_moves() if m.kind == "play")
    # the same tile twice: the second time it is on the table, no longer in a hand
    storage.tables.append_move(broken, 0, seat, str(play_))
    storage.tables.append_move(broken, 1, (seat + 1) % 2, str(play_))
    storage.close()
    with Server(db, bot_delay=600) as server:
        masha = masha.at(server)
        assert any(
            r.levelname == "ERROR" and r.getMessage().startswith(f"table {broken} does not replay")
            for r in caplog.records
        )
        assert fine in server.club.tables and server.club.tables[fine].running
        r = masha.http.get(f"/api/tables/{broken}")
        assert r.status_code == 503 and r.json()["code"] == "table_broken", r.text
        assert masha.http.get(f"/api/tables/{fine}").json()["table"]["status"] == "playing"
        listed = [t["id"] for t in masha.http.get("/api/tables").json()["tables"]]
        assert listed == [fine]
        with masha.ws(broken) as ws:
            refused = JsonSocket(ws, WAIT).receive_json()
            assert refused["type"] == "error" and refused["code"] == "table_broken"


# the end of a match


def _rated_table(db: str) -> tuple[str, list[Player]]:
    """A rated Kozel table of Masha and Alex, started (on a server stopped since)."""
    with Server(db) as server:
        masha = Player(server, "Masha", "password-1")
        alex = Player(server, "Alex", "password-2")
        tid = masha.create(game="kozel", players=2, rated=True)
        r = alex.http.post(f"/api/tables/{tid}/join", json={})
        assert r.status_code == 200, r.text
    return tid, [masha, alex]


def _store_a_match(db: str, tid: str, but_last: bool) -> tuple[int, str]:
    """Store random moves that end the table's match (all but the last one when
    ``but_last``: one a player chooses, among several), as a server would have; its last
    move, by seat."""
    storage = Storage(db)
    row = storage.tables.table(tid)
    assert row is not None
    for seed in range(100):
        rng, match = random.Random(seed), Match(rules_of(row), seed=row.seed)
        moves: list[tuple[int, str]] = []
        while not match.is_over():
            seat, legal = match.turn, match.legal_moves()
            assert seat is not None
            chosen = rng.choice(legal)
            moves.append((seat, str(chosen)))
            match.push(chosen)
        if not but_last or not is_forced({"legal": [str(m) for m in legal]}):
            break
    kept = moves[:-1] if but_last else moves
    for n, (seat, move) in enumerate(kept):
        storage.tables.append_move(tid, n, seat, move)
    storage.close()
    return moves[-1]


def _ratings(storage: Storage, users: list[int]) -> list[tuple[int, list[int]]]:
    """Each player's Kozel rating and the number of his rated games, by game."""
    out = []
    for user_id in users:
        points = storage.ratings.points(user_id)
        out.append((points, [r.games for r in storage.ratings.ratings_of(user_id)]))
    return out


def test_a_match_whose_end_was_never_stored_is_finished_once_on_restart(db: str) -> None:
    """A server that stopped between a match's last move and its end (as one stored before
    they were one transaction could): the restarted one stores the end, the record and the
    ratings, once."""
    tid, players = _rated_table(db)
    _store_a_match(db, tid, but_last=False)
    with Server(db) as server:
        masha = players[0].at(server)
        wait_until(lambda: server.storage.tables.table(tid).status == "finished", WAIT)
        row = server.storage.tables.table(tid)
        users = [s["user"] for s in row.seats]
        ratings = row.ending["ratings"]
        assert row.ending == {"normal": True, "ratings": ratings}
        kozel = ratings["kozel"]
        assert _ratings(server.storage, users) == [(kozel["0"], [1]), (kozel["1"], [1])]
        assert masha.http.get(f"/api/records/{tid}").status_code == 200
        with masha.ws(tid) as ws:
            end = hello(ws)["events"][-1]
        assert end["t"] == "match_end" and end["ratings"] == ratings
    with Server(db) as server:
        masha = players[0].at(server)
        assert masha.http.get(f"/api/tables/{tid}").json()["table"]["status"] == "finished"
        assert _ratings(server.storage, users) == [(kozel["0"], [1]), (kozel["1"], [1])]
        assert len(server.storage.records.records()) == 1


def test_the_last_move_is_stored_with_the_end_of_the_match_or_not_at_all(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The last move, the end, the record and the ratings are one transaction: a failure
    while they are stored leaves none of them, the table is rebuilt before its last move,
    and the move made again ends the match once."""
    caplog.set_level(logging.INFO, logger="bazar.club")
    tid, players = _rated_table(db)
    seat, last = _store_a_match(db, tid, but_last=True)
    server = Server(db, grace_s=600)
    finished = server.club.finished
    calls: list[Any] = []

    def fails_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        if len(calls) == 1:
            raise RuntimeError("a fault while the record is stored")
        return finished(*args, **kwargs)

    server.club.finished = fails_once
    with server:
        player = players[seat].at(server)
        storage = server.storage
        row = storage.tables.table(tid)
        users = [s["user"] for s in row.seats]
        made = len(storage.tables.moves(tid))
        with player.ws(tid) as ws:
            hello(ws)
            ws.send(json.dumps({"type": "move", "move": last}))
            with pytest.raises(ConnectionClosed) as closed:
                answer(ws, "never")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == RESTART[0]
        assert calls and storage.tables.table(tid).status == "playing"
        assert len(storage.tables.moves(tid)) == made and storage.records.record(tid) is None
        assert _ratings(storage, users) == [(0, []), (0, [])]
        with player.ws(tid) as ws:
            hello(ws)
            ws.send(json.dumps({"type": "move", "move": last}))
            move_event(ws, seat, last)
            end = match_end(ws)
        kozel = end["ratings"]["kozel"]
        assert _ratings(storage, users) == [(kozel["0"], [1]), (kozel["1"], [1])]
        assert storage.tables.table(tid).status == "finished"
        assert storage.tables.moves(tid)[-1] == last
        assert storage.records.record(tid) is not None


# what a restart gives back


def test_a_restarted_table_sends_the_events_it_sent_before(db: str) -> None:
    """Two seats a bot took at the same move, then a whole match of the bots: a restarted
    server's sync holds exactly the events a watcher heard, each at its version."""
    with Server(db, grace_s=0.2) as server:
        masha, alex, watcher = (Player(server, name) for name in ("Masha", "Alex", "Vera"))
        tid = masha.create(game="kozel", players=2)
        heard: list[dict[str, Any]] = []
        with watcher.ws(tid) as ws:
            hello(ws)
            # Alex sits down: the match starts, and neither of them ever opens the table
            assert alex.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
            sock = JsonSocket(ws, WAIT)
            while not heard or heard[-1]["t"] != "match_end":
                heard += events_of(sock.receive_json())
    kinds = [e["t"] for e in heard]
    assert kinds[:4] == ["start", "round_start", "replaced", "replaced"] and "move" in kinds
    assert [e["v"] for e in heard] == list(range(1, len(heard) + 1))
    with Server(db, grace_s=0.2) as server, watcher.at(server).ws(tid) as ws:
        assert hello(ws)["events"] == heard


def test_a_connection_the_database_server_closed_is_replaced_before_a_write_uses_it(
    db: str,
) -> None:
    """PostgreSQL's pool, sized by the settings, checks a connection before it lends it: one
    the server closed meanwhile (a restart, a failover, an idle timeout) costs a reconnect,
    not a refused write."""
    if not db.startswith("postgresql"):
        pytest.skip("SQLite has no server to close a connection")
    from sqlalchemy import create_engine, text

    app = create_app(db, secret=SECRET, settings=Settings(db_pool_size=2, db_max_overflow=1))
    storage: Storage = app.state.storage
    assert (storage.engine.pool.size(), storage.engine.pool._max_overflow) == (2, 1)  # type: ignore[attr-defined]
    with storage.engine.connect() as connection:
        # the one connection the pool holds: every use so far was one at a time
        pid = connection.scalar(text("SELECT pg_backend_pid()"))
    admin = create_engine(storage.engine.url)
    with admin.begin() as connection:
        assert connection.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    admin.dispose()
    assert storage.accounts.add_user("Masha", None) is not None
    storage.close()
