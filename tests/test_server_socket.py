"""The table socket under attack, on a real uvicorn server on a loopback port (real sockets:
a client that does not read holds the server's writes back, as on the internet), a fresh
database each: its outbox is bounded, its messages are rate-limited, its hellos are cheap,
and every message is refused by its shape (``bazar.club.protocol``)."""

from __future__ import annotations

import json
import random
import threading
import time
import typing
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Driver, JsonSocket, TestClient, events_of, make_app, served, wait_until
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bazar.club import create_app, protocol
from bazar.club.audience import Client
from bazar.club.errors import ServerError
from bazar.club.settings import Settings

DOCS = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def socket_of(base: str, tid: str, cookie: str | None = None) -> ClientConnection:
    """A websocket to table ``tid``; uncompressed, so what the server writes fills the
    buffers of one that does not read as fast as plain text would."""
    headers = {"cookie": cookie} if cookie else None
    url = base.replace("http", "ws") + f"/ws/{tid}"
    return connect(url, additional_headers=headers, compression=None, proxy=None, max_queue=4)


def seated(base: str, name: str, **form: Any) -> tuple[str, str]:
    """A guest's cookie and the table he made and sits at."""
    with httpx.Client(base_url=base) as http:
        assert http.post("/api/guest", json={"name": name}).status_code == 200
        r = http.post("/api/tables", json=form)
        assert r.status_code == 200, r.text
        return f"bazar={http.cookies['bazar']}", r.json()["table"]["id"]


def read_to_the_close(ws: ClientConnection, most: int = 50_000) -> tuple[list[Any], int | None]:
    """What a socket was sent until its close (at most ``most`` messages), and the close code
    (None: still open when the messages stopped coming or passed ``most``)."""
    said = []
    try:
        for _ in range(most):
            said.append(json.loads(ws.recv(timeout=15)))
    except ConnectionClosed:
        assert ws.protocol.close_rcvd is not None, "closed without a close frame"
        return said, ws.protocol.close_rcvd.code
    except TimeoutError:
        pass
    return said, None


def test_a_spectator_who_floods_hellos_and_never_reads_is_closed_while_the_club_plays_on(
    tmp_path: Path,
) -> None:
    """The attack of issue 13: 40,000 hellos from a spectator who never reads. With the club's
    own limits he is refused past the rate and closed soon after, having cost a few dozen
    syncs; a player at another table gets every answer meanwhile."""
    settings = Settings()
    app = create_app(f"sqlite:///{tmp_path / 'club.sqlite3'}", secret="s", bot_delay=0.1)
    with served(app) as base:
        _, watched = seated(base, "Owner", game="kozel", players=4, bots="random")
        cookie, own = seated(base, "Masha", game="kozel", players=4, bots="random")
        with socket_of(base, watched) as flooder:
            sent = [0]

            def flood() -> None:
                deadline = time.monotonic() + 10
                hello = json.dumps({"type": "hello", "v": 0})
                try:
                    while sent[0] < 40_000 and time.monotonic() < deadline:
                        flooder.send(hello)
                        sent[0] += 1
                except ConnectionClosed:
                    pass

            thread = threading.Thread(target=flood)
            thread.start()
            with socket_of(base, own, cookie) as ws:
                log: list[dict[str, Any]] = []
                player = Driver(JsonSocket(ws), random.Random(7), log)
                mine: set[int] = set()
                while len(mine) < 10 and player.end is None:
                    player.step()
                    mine |= {
                        e["v"] for e in events_of(log[-1]) if e["t"] == "move" and e["seat"] == 0
                    }
            thread.join()
            said, code = read_to_the_close(flooder)
        assert code == 4029, (sent[0], len(said))
        syncs = [m for m in said if m["type"] == "sync"]
        # the burst and what the rate gave back while he sent: not one sync a hello
        assert len(syncs) <= 3 * settings.message_burst, (sent[0], len(syncs))
        assert [m["code"] for m in said if m["type"] == "error"] == ["too_fast"]
        assert all(m["events"] == [] for m in syncs[1:])
        wait_until(lambda: not app.state.club.tables[watched].audience.clients)


def test_a_socket_that_does_not_read_is_dropped_when_its_outbox_is_full(tmp_path: Path) -> None:
    """A spectator who sends and never reads: once the socket's buffers are full what he is
    sent waits in his outbox, which holds ``outbox`` messages at most; past it he is dropped
    (close 4008 "too slow") and detached from the table."""
    app = make_app(f"sqlite:///{tmp_path / 'club.sqlite3'}", settings=Settings(outbox=8))
    with served(app) as base:
        _, tid = seated(base, "Owner", game="kozel", players=4, bots="greedy")
        table = app.state.club.tables[tid]
        with socket_of(base, tid) as ws:
            most, pairs = 0, 0
            try:
                # a sync fills the buffers fast; then the pongs pile up (a sync replaces a sync)
                for pairs in range(1, 50_000):  # noqa: B007
                    ws.send(json.dumps({"type": "hello", "v": 0}))
                    ws.send(json.dumps({"type": "ping"}))
                    most = max([most, *(len(c.outbox) for c in list(table.audience.clients))])
                    if not table.audience.clients:
                        break
            except ConnectionClosed:
                pass
            said, code = read_to_the_close(ws)
            closing = ws.protocol.close_rcvd
        assert most <= 8
        assert code == 4008, (pairs, len(said))
        assert closing is not None and closing.reason == "too slow"
        wait_until(lambda: not table.audience.clients)


def test_messages_beyond_the_rate_are_refused_once_then_the_socket_is_closed(
    tmp_path: Path,
) -> None:
    """Pings faster than ``messages_per_s``: the burst is answered, the first one over it is
    refused (too_fast), the rest dropped unanswered, and a socket that sends as many again as
    the burst while held back is closed (4029)."""
    rate, burst = 1.0, 10
    settings = Settings(messages_per_s=rate, message_burst=burst)
    app = make_app(f"sqlite:///{tmp_path / 'club.sqlite3'}", settings=settings)
    with served(app) as base:
        _, tid = seated(base, "Owner", game="kozel", players=2)
        with socket_of(base, tid) as ws:
            started = time.monotonic()
            ws.send(json.dumps({"type": "hello", "v": 0}))
            assert json.loads(ws.recv(timeout=15))["type"] == "sync"
            try:
                for _ in range(200):
                    ws.send(json.dumps({"type": "ping"}))
            except ConnectionClosed:
                pass
            said, code = read_to_the_close(ws)
            elapsed = time.monotonic() - started
    assert code == 4029
    pongs = [m for m in said if m["type"] == "pong"]
    # the hello took a token of the burst
    assert burst - 1 <= len(pongs) <= burst + rate * elapsed
    refused = [m for m in said if m["type"] == "error"]
    assert [(m["code"], m["params"]) for m in refused] == [("too_fast", {"rate": rate})]


def test_a_socket_held_back_by_the_rate_is_served_again_once_it_slows_down(
    tmp_path: Path,
) -> None:
    settings = Settings(messages_per_s=10.0, message_burst=5)
    app = make_app(f"sqlite:///{tmp_path / 'club.sqlite3'}", settings=settings)
    with served(app) as base:
        _, tid = seated(base, "Owner", game="kozel", players=2)
        with socket_of(base, tid) as ws:
            ws.send(json.dumps({"type": "hello", "v": 0}))
            assert json.loads(ws.recv(timeout=15))["type"] == "sync"
            # four of the burst left: the rest is held back, not yet enough to be closed
            for _ in range(7):
                ws.send(json.dumps({"type": "ping"}))
            answers = [json.loads(ws.recv(timeout=15))["type"] for _ in range(4)]
            assert answers == ["pong"] * 4
            # a second at 10 a second gives back more than the three it went over
            time.sleep(1.0)
            ws.send(json.dumps({"type": "hello", "v": 0}))
            rest = []
            while not rest or rest[-1] != "sync":
                rest.append(json.loads(ws.recv(timeout=15))["type"])
            assert set(rest[:-1]) <= {"pong", "error"} and rest.count("error") <= 1


NESTED = "[" * 2000 + "]" * 2000


@pytest.mark.parametrize(
    "text", [NESTED, json.dumps({"type": "move", "move": "x"})[:-1] + f', "v": {NESTED}}}']
)
def test_deeply_nested_json_is_refused_by_its_form_and_the_socket_stays_open(
    tmp_path: Path, text: str
) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    with served(app) as base:
        _, tid = seated(base, "Owner", game="kozel", players=2)
        with socket_of(base, tid) as ws:
            for _ in range(2):
                ws.send(text)
                said = json.loads(ws.recv(timeout=15))
                assert (said["type"], said["code"]) == ("error", "message_form")
                ws.send(json.dumps({"type": "hello", "v": 0}))
                assert json.loads(ws.recv(timeout=15))["type"] == "sync"


def test_a_second_hello_on_a_socket_resends_no_event(tmp_path: Path) -> None:
    """A socket has been sent every event since its first sync: a later hello, whatever
    version it names, is answered with the view and the table and no event again."""
    app = make_app(f"sqlite:///{tmp_path / 'club.sqlite3'}", bot_delay=60)
    with served(app) as base:
        cookie, tid = seated(base, "Masha", game="kozel", players=4, bots="random")
        with socket_of(base, tid, cookie) as ws:
            ws.send(json.dumps({"type": "hello", "v": 0}))
            first = json.loads(ws.recv(timeout=15))
            assert first["type"] == "sync" and len(first["events"]) == first["v"] > 0
            ws.send(json.dumps({"type": "hello", "v": 0}))
            again = json.loads(ws.recv(timeout=15))
            assert again["type"] == "sync" and again["events"] == []
            assert (again["v"], again["view"]) == (first["v"], first["view"])


def test_a_hello_while_its_sync_is_unwritten_replaces_it(db: str) -> None:
    """Hellos faster than the socket is written hold one sync in its outbox, not one each:
    it holds every event from the version the first named."""
    app = make_app(db, bot_delay=60)
    with TestClient(app) as http:
        assert http.post("/api/guest", json={"name": "Masha"}).status_code == 200
        tid = http.post("/api/tables", json={"game": "kozel", "players": 4, "bots": "random"})
        table = app.state.club.tables[tid.json()["table"]["id"]]
        client = Client(seat=None)

        def hellos() -> None:
            for _ in range(1_000):
                table.audience.hello(client, 0)

        http.portal.call(hellos)  # type: ignore[attr-defined]
        assert [m["type"] for m in client.outbox] == ["sync"]
        sync = client.outbox[0]
        assert sync["events"] == table.state.events and sync["v"] == len(table.state.events)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", "message_form"),
        ("[1, 2]", "message_form"),
        ('"hello"', "message_form"),
        ("{}", "unknown_message"),
        ('{"type": "shout"}', "unknown_message"),
        ('{"type": 7}', "unknown_message"),
        ('{"type": "move"}', "move_form"),
        ('{"type": "move", "move": 42}', "move_form"),
        ('{"type": "move", "move": "' + "x" * 41 + '"}', "move_form"),
        ('{"type": "move", "move": "draw", "v": true}', "v_form"),
        ('{"type": "move", "move": "draw", "v": 1.0}', "v_form"),
        ('{"type": "move", "move": "draw", "v": -1}', "v_form"),
        ('{"type": "hello", "v": "3"}', "v_form"),
        ('{"type": "hello", "v": ' + "9" * 5000 + "}", "message_form"),
    ],
)
def test_a_socket_message_is_refused_by_its_shape(text: str, code: str) -> None:
    with pytest.raises(ServerError) as refused:
        protocol.read_message(text)
    assert refused.value.code == code


def test_every_socket_message_is_read_into_its_kind() -> None:
    assert protocol.read_message('{"type": "hello"}') == protocol.HelloMessage(type="hello", v=0)
    move = protocol.read_message('{"type": "move", "move": "6-4:R", "v": 3, "later": 1}')
    assert move == protocol.MoveMessage(type="move", move="6-4:R", v=3)
    assert isinstance(protocol.read_message('{"type": "back"}'), protocol.BackMessage)
    assert isinstance(protocol.read_message('{"type": "leave"}'), protocol.LeaveMessage)
    assert isinstance(protocol.read_message('{"type": "next"}'), protocol.NextMessage)
    assert isinstance(protocol.read_message('{"type": "ping"}'), protocol.PingMessage)


def test_a_player_who_leaves_the_match_hands_his_seat_to_a_bot_at_once(tmp_path: Path) -> None:
    """Leaving is a grace run out now: the bot takes the seat and says why, the match goes
    on without waiting for the player, and a seat a bot plays is not his to leave again."""
    app = make_app(f"sqlite:///{tmp_path / 'club.sqlite3'}", bot_delay=0.2, grace_s=600)
    with served(app) as base:
        cookie, tid = seated(base, "Masha", game="kozel", players=2, bots="random")
        with socket_of(base, tid, cookie) as ws:
            ws.send(json.dumps({"type": "hello", "v": 0}))
            assert json.loads(ws.recv(timeout=15))["type"] == "sync"
            ws.send(json.dumps({"type": "leave"}))
            said = json.loads(ws.recv(timeout=15))
            while not [e for e in events_of(said) if e["t"] == "replaced"]:
                said = json.loads(ws.recv(timeout=15))
            (event,) = [e for e in events_of(said) if e["t"] == "replaced"]
            assert (event["seat"], event["why"]) == (0, "gone")
            assert event["seats"][0]["bot"] and event["seats"][0]["why"] == "gone"
            # the bot plays her seat: moves of seat 0 come without her
            moved = False
            while not moved:
                said = json.loads(ws.recv(timeout=15))
                moved = any(e["t"] == "move" and e["seat"] == 0 for e in events_of(said))
            ws.send(json.dumps({"type": "leave"}))
            while (said := json.loads(ws.recv(timeout=15)))["type"] != "error":
                pass
            assert said["code"] == "bot_seat"


def test_the_protocol_page_describes_every_socket_message_and_limit() -> None:
    """docs/protocol.md has a section for each kind of socket message, naming each of its
    fields, and names each limit of the table socket."""
    page = DOCS.read_text()
    sections = {part.split("\n", 1)[0].strip("` "): part for part in page.split("\n#### ")[1:]}
    kinds = typing.get_args(typing.get_args(protocol.SocketMessage)[0])
    for kind in kinds:
        name = kind.model_fields["type"].annotation.__args__[0]
        assert name in sections, name
        for field in set(kind.model_fields) - {"type"}:
            assert f"`{field}`" in sections[name], (name, field)
    for limit in ("max_message", "outbox", "messages_per_s", "message_burst"):
        assert f"`BAZAR_{limit.upper()}`" in page, limit
