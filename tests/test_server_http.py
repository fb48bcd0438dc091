"""The HTTP API's shape and size, attacked as a stranger would over a loopback port: bodies too
large or too deep, bodies of the wrong shape or kind, requests and sockets from other sites'
pages, and uploaded records too long to replay."""

from __future__ import annotations

import json
import select
import socket
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from server_helpers import make_app, served, wait_until

import bazar
from bazar.club.settings import Settings
from bazar.club.storage import RecordRow
from bazar.club.summary import summary
from bazar.core.round import Round

websockets_sync = pytest.importorskip("websockets.sync.client")
from websockets.exceptions import InvalidStatus  # noqa: E402


@pytest.fixture
def club(db: str) -> Iterator[str]:
    # one visitor makes many tables here: the quotas are not what these tests attack
    room = Settings(open_tables_per_user=100, guests_per_address=1000)
    with served(make_app(db, settings=room)) as url:
        yield url


def browser(url: str, name: str = "Masha") -> httpx.Client:
    """A visitor's browser: a guest's cookie, and its club's own Origin on every request."""
    client = httpx.Client(base_url=url, headers={"origin": url}, timeout=60)
    assert client.post("/api/guest", json={"name": name}).status_code == 200
    return client


def refusal(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


def rss() -> int:
    """This process' resident memory in bytes (the server runs on one of its threads)."""
    with open("/proc/self/status") as status:
        line = next(x for x in status if x.startswith("VmRSS:"))
    return int(line.split()[1]) * 1024


def connect(url: str) -> socket.socket:
    parts = urlsplit(url)
    assert parts.hostname and parts.port
    return socket.create_connection((parts.hostname, parts.port), timeout=60)


def status_of(sock: socket.socket) -> int:
    """The status of the answer read from ``sock`` (its first line)."""
    answer = b""
    while b"\r\n" not in answer:
        chunk = sock.recv(4096)
        assert chunk, "the server closed the connection without an answer"
        answer += chunk
    return int(answer.split(b" ")[1])


# sizes


@pytest.mark.parametrize(("path", "declared"), [("/api/guest", 10**9), ("/api/records", 10**9)])
def test_a_body_declared_too_large_is_refused_before_it_is_read(
    club: str, path: str, declared: int
) -> None:
    """Only the headers are sent: a server that waited for the gigabyte would never answer."""
    with connect(club) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {declared}\r\n\r\n".encode()
        )
        assert status_of(sock) == 413


@pytest.mark.parametrize(("path", "limit"), [("/api/guest", 4096), ("/api/records", 1_000_000)])
def test_a_streamed_body_is_refused_as_soon_as_it_passes_the_limit(
    club: str, path: str, limit: int
) -> None:
    """A 100 MB chunked body, with no Content-Length: the server answers 413 once the limit is
    passed, long before the body has all been sent, and holds none of it."""
    total, chunk = 100 * 2**20, b"[" * 2**16
    before = rss()
    sent = 0
    with connect(club) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n".encode()
        )
        frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
        while sent < total:
            if select.select([sock], [], [], 0)[0]:
                break  # the server has answered
            try:
                sock.sendall(frame)
            except OSError:
                break  # ... and closed the connection
            sent += len(chunk)
        assert status_of(sock) == 413
    # what the kernel's buffers take in before the server reads is a few megabytes at most
    assert sent < 20 * 2**20 + limit, sent
    assert rss() - before < 50 * 2**20


def test_a_body_nested_thousands_deep_is_refused_as_not_json(club: str) -> None:
    """2,000 brackets were a RecursionError: a 500, on every endpoint that reads a body."""
    client = browser(club)
    table = client.post("/api/tables", json={"game": "kozel", "players": 2}).json()["table"]
    for path in (
        "/api/guest",
        "/api/register",
        "/api/login",
        "/api/tables",
        f"/api/tables/{table['id']}/join",
        f"/api/tables/{table['id']}/bots",
    ):
        for deep in (b"[" * 2000, b'{"name": ' + b"[" * 2000, b"[" * 2000 + b"]" * 2000):
            r = client.post(path, content=deep, headers={"content-type": "application/json"})
            assert refusal(r) == (400, "not_json"), (path, r.text)


# shapes


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        ("/api/guest", {"name": 5}, "name_form"),
        ("/api/guest", [], "not_object"),
        ("/api/register", ["Olya", "secret-1"], "not_login"),
        ("/api/register", {"name": "Olya", "password": 123456}, "password_form"),
        ("/api/login", {"name": "Olya", "password": ["secret-1"]}, "wrong_login"),
        ("/api/tables", {"game": 5}, "unknown_game"),
        ("/api/tables", {"players": True}, "players_form"),
        ("/api/tables", {"options": {"target": [100]}}, "options_form"),
        ("/api/tables", {"options": ["target"]}, "options_form"),
        ("/api/tables", {"seat": "first"}, "seat_number"),
        ("/api/tables", {"rated": "yes"}, "rated_form"),
        ("/api/tables", {"access": ["open"]}, "access"),
        ("/api/tables", {"bots": 3}, "unknown_level"),
        ("/api/tables", {"move_time_s": 30.0}, "move_time"),
        ("/api/tables/{id}/join", {"seat": "1"}, "seat_number"),
        ("/api/tables/{id}/join", {"invite": 7}, "invite_form"),
        ("/api/tables/{id}/bots", {"level": ["greedy"]}, "unknown_level"),
    ],
)
def test_a_body_of_the_wrong_shape_is_refused_with_the_code_of_its_field(
    club: str, path: str, body: Any, code: str
) -> None:
    client = browser(club)
    table = client.post("/api/tables", json={"game": "kozel", "players": 2}).json()["table"]
    r = client.post(path.format(id=table["id"]), json=body)
    assert refusal(r) == (400, code), r.text
    assert r.json()["error"]  # the English, for a client without the code


@pytest.mark.parametrize("seconds", [1, 7, 3600, 0, -30])
def test_a_table_has_one_of_the_clocks_the_form_offers(club: str, seconds: int) -> None:
    client = browser(club)
    r = client.post("/api/tables", json={"game": "kozel", "move_time_s": seconds})
    assert refusal(r) == (400, "move_time")
    assert r.json()["params"]["times"] == "15, 30, 60, 120"
    assert client.get("/api/tables").json()["tables"] == []
    offered = client.get("/api/games").json()["move_times"]
    assert offered == [15, 30, 60, 120]
    for clock in offered:
        r = client.post("/api/tables", json={"game": "kozel", "move_time_s": clock})
        assert r.status_code == 200 and r.json()["table"]["move_time_s"] == clock


def test_a_refused_table_request_leaves_no_table(club: str) -> None:
    client = browser(club)
    for form in (
        {"game": "kozel", "players": 2, "bots": "grandmaster"},
        {"game": "kozel", "players": 2, "seat": 5},
        {"game": "block", "options": {"target": 10**18}},
        {"game": "kozel", "options": {"limit": 1001}},
    ):
        assert client.post("/api/tables", json=form).status_code == 400, form
    assert client.get("/api/tables").json()["tables"] == []


def test_the_marks_of_a_table_are_bounded(club: str) -> None:
    client = browser(club)
    r = client.post("/api/tables", json={"game": "block", "options": {"target": 10**18}})
    assert refusal(r) == (400, "option_range")
    assert r.json()["params"] == {"option": "target", "game": "block", "low": 1, "high": 1000}
    r = client.post("/api/tables", json={"game": "block", "options": {"target": 1000}})
    assert r.status_code == 200


# other sites, other kinds


def test_a_post_from_another_sites_page_is_refused_and_changes_nothing(db: str) -> None:
    settings = Settings(
        allowed_origins="https://friend.example, http://localhost:5173", open_tables_per_user=100
    )
    with served(make_app(db, settings=settings)) as url:
        client = browser(url)
        table = client.post("/api/tables", json={"game": "kozel", "players": 2}).json()["table"]
        for origin in ("http://evil.example", "null", url.replace("127.0.0.1", "localhost")):
            r = client.post(f"/api/tables/{table['id']}/leave", headers={"origin": origin})
            assert refusal(r) == (403, "origin"), origin
            r = client.post("/api/tables", json={"game": "kozel"}, headers={"origin": origin})
            assert refusal(r) == (403, "origin"), origin
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [table["id"]]
        assert client.get(f"/api/tables/{table['id']}").json()["table"]["your_seat"] == 0
        # the club's own pages, allowed sites, and clients that are no browser may
        for origin in ("https://friend.example", "http://localhost:5173"):
            r = client.post("/api/tables", json={"game": "kozel"}, headers={"origin": origin})
            assert r.status_code == 200, origin
        del client.headers["origin"]
        assert client.post("/api/tables", json={"game": "kozel"}).status_code == 200


def test_a_socket_from_another_sites_page_is_closed_before_it_hears_anything(club: str) -> None:
    """The handshake carries the visitor's cookie: served, it would show him his hand."""
    client = browser(club)
    table = client.post("/api/tables", json={"game": "kozel", "players": 2, "bots": "random"})
    tid = table.json()["table"]["id"]
    cookie = f"bazar={client.cookies['bazar']}"
    ws_url = club.replace("http", "ws") + f"/ws/{tid}"
    for origin in ("http://evil.example", "null"):
        with (
            pytest.raises(InvalidStatus) as refused,
            websockets_sync.connect(
                ws_url, origin=origin, additional_headers={"cookie": cookie}, open_timeout=60
            ) as ws,
        ):
            ws.send(json.dumps({"type": "hello", "v": 0}))
            pytest.fail(f"served: {ws.recv(timeout=60)[:200]}")
        assert refused.value.response.status_code == 403
    with websockets_sync.connect(
        ws_url, origin=club, additional_headers={"cookie": cookie}, open_timeout=60
    ) as ws:
        ws.send(json.dumps({"type": "hello", "v": 0}))
        sync = json.loads(ws.recv(timeout=60))
        assert sync["type"] == "sync" and sync["view"]["hand"]


@pytest.mark.parametrize(
    "kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_a_body_that_is_not_sent_as_json_is_refused(club: str, kind: str | None) -> None:
    """A page on another site may post these kinds without asking the club (no preflight)."""
    client = browser(club)
    headers = {} if kind is None else {"content-type": kind}
    for path, body in (
        ("/api/tables", b'{"game": "kozel"}'),
        ("/api/records", b'{"format": "bazar-record"}'),
        ("/api/guest", b'{"name": "Mallory"}'),
    ):
        r = client.post(path, content=body, headers=headers)
        assert refusal(r) == (415, "json_only"), (path, kind)
    assert client.get("/api/tables").json()["tables"] == []
    # a POST with no body needs no kind; JSON with its charset is JSON
    assert client.post("/api/logout").status_code == 200
    r = client.post(
        "/api/guest",
        content=b'{"name": "Masha"}',
        headers={"content-type": "Application/JSON; charset=utf-8"},
    )
    assert r.status_code == 200


def test_every_response_says_the_page_is_not_framed_sniffed_or_fed_other_scripts(
    club: str,
) -> None:
    client = browser(club)
    for method, path in (
        ("GET", "/"),
        ("GET", "/static/app.js"),
        ("GET", "/static/style.css"),
        ("GET", "/api/games"),
        ("GET", "/api/records/nothing"),
        ("GET", "/no/such/page"),
        ("POST", "/api/tables"),
    ):
        r = client.request(method, path, json={} if method == "POST" else None)
        policy = r.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy, path
        assert "frame-ancestors 'none'" in policy and "unsafe" not in policy, path
        assert r.headers["x-frame-options"] == "DENY", path
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "same-origin", path


# records


def long_record(moves: int, target: int = 10**18) -> str:
    """A legal block match of ``moves`` moves (or fewer, if it ends) towards ``target``:
    34,000 of them fill 1 MB."""
    match = bazar.Match(bazar.rules("block", target=target), seed=1)
    for _ in range(moves):
        if match.is_over():
            break
        match.push(match.legal_moves()[0])
    return bazar.record.dumps(match)


def upload(client: httpx.Client, text: str) -> httpx.Response:
    return client.post(
        "/api/records", content=text.encode(), headers={"content-type": "application/json"}
    )


def test_a_record_too_long_to_replay_is_refused_by_its_rounds_moves_and_marks(db: str) -> None:
    """34,000 moves of a block match to 10**18 in 1 MB: every GET of it replayed it (1.5 s of
    the whole server). Each bound refuses it on its own."""
    text = long_record(34_000)
    assert len(text) < 1_000_000
    wide = 10**6
    for settings, reason in (
        (Settings(), "record has 2964 rounds, more than the 500 accepted"),
        (Settings(record_rounds=wide), "record has 34000 moves, more than the 10000 accepted"),
        (
            Settings(record_rounds=wide, record_moves=wide),
            "record rules: option target takes a number from 1 to 1000; not 1000000000000000000",
        ),
    ):
        with served(make_app(db, settings=settings)) as url:
            r = upload(browser(url), text)
            assert refusal(r) == (400, "bad_record"), r.text
            assert r.json()["params"]["reason"] == reason
            assert r.json()["params"]["reason_ru"] != reason
    with served(make_app(db)) as url:
        assert browser(url).get("/api/records").json()["records"] == []


@pytest.mark.parametrize(
    ("seed", "said"),
    [
        ("9" * 5000, "a number has 5000 digits (at most 30)"),
        ("9" * 25, "record seed must be within ±2**63"),
    ],
)
def test_a_record_seed_out_of_range_is_a_bad_record(club: str, seed: str, said: str) -> None:
    text = long_record(40, target=100).replace('"seed":1,', f'"seed":{seed},')
    r = upload(browser(club), text)
    assert refusal(r) == (400, "bad_record") and said in r.json()["params"]["reason"]


def test_a_stored_record_is_shown_without_being_replayed(
    club: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deals are verified once, at the upload; showing the record replays no move."""
    client = browser(club)
    rid = upload(client, long_record(2000, target=1000)).json()["id"]
    pushed = []
    push = Round.push

    def counted(rnd: Round, move: Any) -> Any:
        pushed.append(move)
        return push(rnd, move)

    monkeypatch.setattr(Round, "push", counted)
    for _ in range(5):
        shown = client.get(f"/api/records/{rid}").json()
        assert len(shown["deals"]) == shown["summary"]["rounds"]
        assert all(deal["confirmed"] for deal in shown["deals"])
    assert pushed == []
    assert "deals" not in client.get("/api/records").json()["records"][0]["summary"]


def finished_match(game: str = "kozel", seed: int = 4) -> bazar.Match:
    match = bazar.Match(bazar.rules(game), seed=seed)
    while not match.is_over():
        match.push(match.legal_moves()[0])
    return match


def test_an_uploaded_record_names_nobody_and_lists_each_round_s_scores(club: str) -> None:
    client = browser(club)
    match = finished_match()
    rid = upload(client, bazar.record.dumps(match)).json()["id"]
    [listed] = client.get("/api/records").json()["records"]
    assert listed["players"] == [None] * 4 and listed["uploaded"] is True
    assert listed["loser"] == "goat" and listed["summary"]["losers"] == list(match.result().losers)
    shown = client.get(f"/api/records/{rid}").json()
    results = shown["results"]
    assert [r["number"] for r in results] == [r.number for r in match.rounds]
    for i, (result, rnd) in enumerate(zip(results, match.rounds, strict=True)):
        after = match.rounds[i + 1].ledger if i + 1 < len(match.rounds) else match.ledger
        assert result["scores"] == after.public()
        assert result["seats"] == [seat for seat, _, _ in rnd.history()]
        outcome = rnd.outcome()
        assert outcome is not None and (result["reason"], result["out"]) == (
            outcome.reason,
            outcome.out_seat,
        )


def test_the_end_of_a_round_is_seen_before_the_next_deal(club: str) -> None:
    """At the ply that ends a round the replay shows the next deal; with ``end`` it shows the
    round that ended, every hand as it was left."""
    client = browser(club)
    match = finished_match()
    rid = upload(client, bazar.record.dumps(match)).json()["id"]
    first = match.rounds[0]
    ply = len(first.moves)
    ended = client.get(f"/api/records/{rid}/position?ply={ply}&end=1").json()
    assert (ended["round"], ended["over"]) == (1, True)
    assert ended["hands"] == [[str(t) for t in hand] for hand in first.hands]
    assert ended["last"] == str(first.moves[-1])
    assert ended["view"]["scores"] == match.rounds[1].ledger.public()
    dealt = client.get(f"/api/records/{rid}/position?ply={ply}").json()
    assert (dealt["round"], dealt["over"]) == (2, False)
    assert dealt["hands"] == [list(hand) for hand in match.rounds[1].deal()["hands"]]


def test_a_record_stored_before_its_rounds_were_kept_is_replayed_as_it_is_shown(db: str) -> None:
    match = finished_match()
    app = make_app(db)
    storage = app.state.club.storage
    kept = {k: v for k, v in summary(match).items() if k not in ("results", "deals")}
    storage.records.add_record(
        RecordRow(
            id="old",
            game="kozel",
            players=["seat 0", "seat 1", "seat 2", "seat 3"],
            text=bazar.record.dumps(match),
            summary=kept,
            uploaded=True,
        )
    )
    with served(app) as url:
        shown = browser(url).get("/api/records/old").json()
    assert shown["results"] == summary(match)["results"]
    assert len(shown["deals"]) == len(match.rounds)
    # the seat numbers it stored are not names
    assert shown["players"] == [None] * 4


@pytest.mark.parametrize("path", ["/api/records/{id}/position?ply=1500", "/api/records"])
def test_a_replay_holds_up_no_other_request(
    club: str, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """A replay (the position after a move, an upload) runs off the event loop: while one is
    held up, the club still answers everyone else."""
    client = browser(club)
    text = long_record(2000, target=1000)
    rid = upload(client, text).json()["id"]
    held, release = threading.Event(), threading.Event()
    from_data = bazar.record.from_data

    def slow(*args: Any, **kw: Any) -> Any:
        held.set()
        release.wait(60)
        return from_data(*args, **kw)

    monkeypatch.setattr(bazar.record, "from_data", slow)
    answers: list[int] = []

    def replay() -> None:
        if path == "/api/records":
            answers.append(upload(client, text).status_code)
        else:
            answers.append(client.get(path.format(id=rid)).status_code)

    worker = threading.Thread(target=replay)
    worker.start()
    try:
        wait_until(held.is_set, 60)
        other = httpx.get(client.base_url.join("/api/games"), timeout=30)
        assert other.status_code == 200
    finally:
        release.set()
        worker.join(60)
    assert answers == [200]


def test_the_history_is_asked_for_a_page_in_whole_numbers(club: str) -> None:
    client = browser(club)
    for query in ("offset=x", "limit=1.5"):
        assert refusal(client.get(f"/api/records?{query}")) == (400, "page_form")
    assert client.get("/api/records?offset=-3&limit=1000").json() == {"records": [], "more": False}
