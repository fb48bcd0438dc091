"""The club server: accounts, tables, live play over websockets, records and ratings, with
the real app on a real database (``db``: SQLite, and PostgreSQL where the run has one)."""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path
from typing import Any

import pytest
from server_helpers import (
    JSON,
    QUICK_CLOCKS,
    Driver,
    Person,
    TestClient,
    create,
    driven,
    events_of,
    guest,
    is_forced,
    make_app,
    play_together,
    play_until_end,
    settled,
    until_pong,
    wait_until,
)

import bazar
from bazar import i18n
from bazar.club import create_app
from bazar.club.fairness import seed_hash, verify
from bazar.club.settings import Settings
from bazar.club.storage import User
from bazar.core.round import deal_seed


@pytest.fixture
def client(db: str):  # type: ignore[no-untyped-def]
    with TestClient(make_app(db)) as c:
        yield c


def test_import_bazar_loads_no_server_dependency() -> None:
    import subprocess
    import sys

    code = (
        "import sys, bazar, bazar.club, bazar.club.fairness; "
        "print([m for m in sys.modules if m.split('.')[0] in "
        "('starlette','sqlalchemy','uvicorn','argon2','openskill')])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_guest_plays_a_whole_kozel_match_against_bots(client: TestClient) -> None:
    guest(client, "Masha")
    table = create(client, game="kozel", players=4, bots="random")["table"]
    assert table["status"] == "playing"
    with client.websocket_connect(f"/ws/{table['id']}") as ws:
        end = play_until_end(ws, random.Random(1))
    assert end["ending"] == {"normal": True}
    assert end["ratings"] is None
    records = client.get("/api/records").json()["records"]
    assert [r["id"] for r in records] == [table["id"]]
    text = client.get(f"/api/records/{table['id']}?download=1").text
    match = bazar.record.loads(text)
    assert match.is_over()
    assert match.ledger.public()["scores"] == end["scores"]["scores"]


def test_registration_hashes_the_password_and_login_checks_it(client: TestClient) -> None:
    r = client.post("/api/register", json={"name": "Olya", "password": "secret-1"})
    assert r.status_code == 200 and r.json()["user"]["guest"] is False
    again = client.post("/api/register", json={"name": "Olya", "password": "other-12"})
    assert again.status_code == 400
    storage = client.app.state.storage  # type: ignore[attr-defined]
    with storage.session() as session:
        user = session.query(User).filter_by(name="Olya").one()
        assert user.password_hash and "secret-1" not in user.password_hash
    client.post("/api/logout")
    assert client.get("/api/session").json()["user"] is None
    wrong = client.post("/api/login", json={"name": "Olya", "password": "wrong!!"})
    assert wrong.status_code == 400
    r = client.post("/api/login", json={"name": "Olya", "password": "secret-1"})
    assert r.status_code == 200
    assert client.get("/api/session").json()["user"]["name"] == "Olya"
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie


def test_the_session_cookie_cannot_be_forged(db: str) -> None:
    with TestClient(make_app(db)) as c:
        guest(c, "Alex")
        c.cookies.set("bazar", "eyJ1c2VyIjogMX0=.forged.sig")
        assert c.get("/api/session").json()["user"] is None


def test_bad_table_requests_say_what_is_wrong(client: TestClient) -> None:
    assert client.post("/api/tables", json={"game": "kozel"}).status_code == 401
    guest(client, "Serg")
    for form, word in [
        ({"game": "chess"}, "unknown game"),
        ({"game": "kozel", "players": 9}, "players"),
        ({"game": "kozel", "options": {"nonsense": 1}}, "nonsense"),
        ({"game": "kozel", "move_time_s": "fast"}, "move_time_s"),
        ({"game": "kozel", "access": "secret"}, "access"),
        ({"game": "kozel", "bots": "grandmaster"}, "bot level"),
    ]:
        r = client.post("/api/tables", json=form)
        assert r.status_code == 400 and word in r.json()["error"], (form, r.text)
    r = client.post("/api/tables", content=b"{" * 10_000, headers=JSON)
    assert r.status_code == 413
    assert client.get("/api/tables/nope").status_code == 400


def test_tables_are_listed_joined_and_started_when_full(db: str) -> None:
    with TestClient(make_app(db)) as client:
        masha, alex = Person(client, "Masha"), Person(client, "Alex")
        table = masha.create(game="kozel", players=2)["table"]
        listed = alex.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [table["id"]]
        assert alex.post(f"/api/tables/{table['id']}/join", json={"seat": 0}).status_code == 400
        assert alex.post(f"/api/tables/{table['id']}/join", json={}).json() == {"seat": 1}
        info = alex.get(f"/api/tables/{table['id']}").json()["table"]
        assert info["status"] == "playing" and info["your_seat"] == 1
        assert alex.post(f"/api/tables/{table['id']}/join", json={}).status_code == 400


def test_an_invitation_table_needs_its_link(db: str) -> None:
    with TestClient(make_app(db)) as client:
        masha, olya = Person(client, "Masha"), Person(client, "Olya")
        made = masha.create(game="kozel", players=2, access="invitation_link")
        tid = made["table"]["id"]
        assert olya.get("/api/tables").json()["tables"] == []
        assert olya.post(f"/api/tables/{tid}/join", json={}).status_code == 400
        r = olya.post(f"/api/tables/{tid}/join", json={"invite": made["invite"]})
        assert r.status_code == 200


def test_two_people_play_a_match_and_each_acts_only_for_his_seat(db: str) -> None:
    with TestClient(make_app(db)) as client:
        masha, alex = Person(client, "Masha"), Person(client, "Alex")
        tid = masha.create(game="kozel", players=2)["table"]["id"]
        alex.post(f"/api/tables/{tid}/join", json={})
        with masha.ws(f"/ws/{tid}") as ws0, alex.ws(f"/ws/{tid}") as ws1:
            rng = random.Random(5)
            drivers = [Driver(ws0, rng, log0 := []), Driver(ws1, rng, log1 := [])]
            play_together(drivers)
            for seat, log in enumerate((log0, log1)):
                assert all(m["view"]["seat"] == seat for m in log if m.get("view"))
            assert drivers[0].end == drivers[1].end


def _state(client: TestClient, tid: str) -> tuple[int, str]:
    table = client.app.state.club.tables[tid]  # type: ignore[attr-defined]
    return len(table.state.events), bazar.record.dumps(table.match)


def test_bad_messages_get_an_error_to_that_client_only_and_change_nothing(db: str) -> None:
    app = make_app(db, bot_delay=60)
    with TestClient(app) as client:
        masha, watcher = Person(client, "Masha"), Person(client)
        tid = masha.create(game="kozel", players=4, bots="random")["table"]["id"]
        table = app.state.club.tables[tid]
        with masha.ws(f"/ws/{tid}") as ws, watcher.ws(f"/ws/{tid}") as spectator:
            ws.send_json({"type": "hello", "v": 0})
            sync = ws.receive_json()
            spectator.send_json({"type": "hello", "v": 0})
            assert spectator.receive_json()["view"]["hand"] is None
            before = _state(client, tid)
            my_turn = table.match.turn == 0
            bad = [
                "not json",
                json.dumps([1, 2]),
                json.dumps({"type": "shout"}),
                json.dumps({"type": "move"}),
                json.dumps({"type": "move", "move": 42}),
                json.dumps({"type": "move", "move": "9-9x"}),
                json.dumps({"type": "move", "move": "6-6:Q"}),
                json.dumps({"type": "move", "move": "x" * 10_000}),
                json.dumps(
                    {
                        "type": "move",
                        "move": sync["view"]["legal"][0] if my_turn else "draw",
                        "v": -3,
                    }
                ),
            ]
            if not my_turn:
                bad.append(json.dumps({"type": "move", "move": "pass"}))
            for text in bad:
                ws.send_text(text)
                reply = ws.receive_json()
                assert reply["type"] == "error", (text, reply)
                assert _state(client, tid) == before
            ws.send_bytes(b"\x00\x01")
            assert ws.receive_json()["type"] == "error"
            assert _state(client, tid) == before
            spectator.send_json({"type": "move", "move": "draw"})
            assert spectator.receive_json()["type"] == "error"
            # nothing reached the spectator but its own error: a ping is answered next
            spectator.send_json({"type": "ping"})
            assert spectator.receive_json() == {"type": "pong"}
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
        with masha.ws("/ws/no-such-table") as ws:
            assert ws.receive_json()["type"] == "error"


def test_a_reconnecting_client_gets_what_it_missed_and_its_hand(db: str) -> None:
    # the bots answer at once, watched or not (nobody watches while she is away)
    app = make_app(db, bot_delay=0, settings=Settings(unwatched_bot_delay_s=0))
    with TestClient(app) as masha:
        guest(masha, "Masha")
        tid = create(masha, game="kozel", players=3, bots="greedy")["table"]["id"]
        table = app.state.club.tables[tid]
        with masha.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "v": 0})
            # the bots answer, then the table waits for her
            wait_until(lambda: settled(table))
            heard = [e["v"] for m in until_pong(ws) for e in events_of(m)]
            seen = heard[-1]
            assert heard == list(range(1, seen + 1))
            legal = [str(m) for m in table.match.legal_moves()]
            ends = table.match.round.ends()
            ws.send_json({"type": "move", "move": random.Random(3).choice(legal), "v": seen})
        # she left as she moved: her move and the bots' answers are what she missed
        wait_until(lambda: len(table.state.events) > seen and settled(table))
        with masha.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "v": seen})
            sync = ws.receive_json()
        assert sync["type"] == "sync"
        # the table waits for her again: it has announced nothing since her sync
        assert sync["events"] == table.state.events[seen:] and sync["v"] == len(table.state.events)
        # with the open ends it was laid against: the page's log names an end by its pip
        assert sync["events"][0] == {
            "t": "move",
            "seat": 0,
            "move": sync["events"][0]["move"],
            "ends": ends,
            "v": seen + 1,
        }
        assert sync["view"]["seat"] == 0
        hand = sorted(str(t) for t in table.match.round.hands[0])
        assert sorted(sync["view"]["hand"]) == hand


def test_deals_are_committed_before_and_revealed_after_each_round(client: TestClient) -> None:
    guest(client, "Masha")
    tid = create(client, game="kozel", players=4, bots="greedy")["table"]["id"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        log: list[dict] = []
        end = play_until_end(ws, random.Random(2), log)
    events = {e["v"]: e for m in log for e in events_of(m)}
    starts = {e["number"]: e["seed_hash"] for e in events.values() if e["t"] == "round_start"}
    ends = {e["number"]: e for e in events.values() if e["t"] == "round_end"}
    assert set(ends) == set(starts)
    for number, event in ends.items():
        assert seed_hash(int(event["seed"])) == starts[number]
        assert int(event["seed"]) == deal_seed(int(end["seed"]), number)
    text = client.get(f"/api/records/{tid}?download=1").text
    assert all(r["confirmed"] for r in verify(text))
    assert [r["seed_hash"] for r in verify(text)] == [starts[k] for k in sorted(starts)]


def test_a_round_result_starts_from_the_scores_the_round_was_dealt_with(
    client: TestClient,
) -> None:
    """In All Fives the points scored during play are part of the round's result: the top row
    of the table is the score before the round, not the score before its last move."""
    guest(client, "Masha")
    tid = create(client, game="fives", players=2, bots="random")["table"]["id"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        log: list[dict] = []
        end = play_until_end(ws, random.Random(4), log)
    events = {e["v"]: e for m in log for e in events_of(m)}
    ends = [e for _, e in sorted(events.items()) if e["t"] == "round_end"]
    scored_in_play = [e for e in ends if e["outcome"]["scoring"]]
    assert scored_in_play, "no round had points scored during play"
    before = bazar.Ledger.new(bazar.rules("fives", players=2)).public()["scores"]
    for event in ends:
        assert event["before"]["scores"] == before, event["number"]
        before = event["after"]["scores"]
    assert before == end["scores"]["scores"]


def test_records_can_be_uploaded_and_bad_ones_are_refused(client: TestClient) -> None:
    m = bazar.Match(bazar.rules("block"), seed=4)
    while not m.is_over():
        m.push(m.legal_moves()[0])
    r = client.post("/api/records", content=bazar.record.dumps(m).encode(), headers=JSON)
    assert r.status_code == 200
    got = client.get(f"/api/records/{r.json()['id']}").json()
    assert got["game"] == "block" and all(d["confirmed"] for d in got["deals"])
    assert (
        client.post("/api/records", content=b'{"format": "nope"}', headers=JSON).status_code == 400
    )
    assert client.post("/api/records", content=b" " * 2_000_000, headers=JSON).status_code == 413


def test_a_restarted_server_resumes_the_match_with_no_move_lost(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # no secret configured: the club keeps the one it made, and its players stay logged in
    monkeypatch.delenv("BAZAR_SECRET", raising=False)
    rng = random.Random(9)
    app = create_app(db, bot_delay=0, settings=driven())
    with TestClient(app) as masha:
        guest(masha, "Masha")
        cookies = dict(masha.cookies)
        tid = create(masha, game="kozel", players=4, bots="random")["table"]["id"]
        moves = 0
        with masha.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "v": 0})
            while moves < 5:
                message = ws.receive_json()
                view = message.get("view")
                if (
                    view
                    and view["legal"]
                    and not (len(view["legal"]) == 1 and view["legal"][0] in ("draw", "pass"))
                    and message["v"] == len(app.state.club.tables[tid].state.events)
                ):
                    ws.send_json({"type": "move", "move": rng.choice(view["legal"])})
                    moves += 1
        stored = app.state.storage.tables.moves(tid)
        before = bazar.record.dumps(app.state.club.tables[tid].match)
        events = len(app.state.club.tables[tid].state.events)
    assert len(stored) >= 5
    again = create_app(db, bot_delay=0, settings=driven())
    with TestClient(again) as masha:
        for name, value in cookies.items():
            masha.cookies.set(name, value)
        assert masha.get("/api/session").json()["user"]["name"] == "Masha"
        table = again.state.club.tables[tid]
        assert again.state.storage.tables.moves(tid)[: len(stored)] == stored
        assert bazar.record.dumps(table.match).startswith(before[:-3]) or len(
            again.state.storage.tables.moves(tid)
        ) >= len(stored)
        with masha.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "v": events})
            sync = ws.receive_json()
            assert sync["view"]["seat"] == 0
            assert [e["v"] for e in sync["events"]] == list(range(events + 1, sync["v"] + 1))
            end = play_until_end(ws, rng)
        record = bazar.record.loads(masha.get(f"/api/records/{tid}?download=1").text)
        played = [str(m) for r in record.rounds for m in r.moves]
        assert played[: len(stored)] == stored
        assert end["ending"] == {"normal": True}


def _register(client: TestClient, name: str) -> None:
    r = client.post("/api/register", json={"name": name, "password": "password-" + name})
    assert r.status_code == 200


def test_a_rated_kozel_match_between_people_changes_their_ratings(db: str) -> None:
    app = make_app(db)
    with TestClient(app) as client:
        masha = Person(client, "Masha", "password-1")
        alex = Person(client, "Alex", "password-2")
        tid = masha.create(game="kozel", players=2, rated=True)["table"]["id"]
        alex.post(f"/api/tables/{tid}/join", json={})
        table = app.state.club.tables[tid]
        assert table.row.rated
        rng = random.Random(11)
        with masha.ws(f"/ws/{tid}") as ws0, alex.ws(f"/ws/{tid}") as ws1:
            drivers = [Driver(ws0, rng), Driver(ws1, rng)]
            play_together(drivers)
        end = drivers[0].end
        assert end is not None and end["ratings"] is not None
        scores = end["scores"]["scores"]
        kozel = {int(k): v for k, v in end["ratings"]["kozel"].items()}
        assert kozel == {s: bazar.rating.kozel_delta(p) for s, p in enumerate(scores)}
        me = masha.get("/api/session").json()["user"]
        assert me["kozel_rating"] == kozel[0]
        board = masha.get("/api/leaderboard?game=kozel").json()
        assert sorted(row["name"] for row in board["skill"]) == ["Alex", "Masha"]
        profile = masha.get("/api/profile/Alex").json()
        assert profile["ratings"][0]["games"] == 1
        # his rating chart has the match, at the rating the match left him with
        [rating] = profile["ratings"]
        [(_, after)] = profile["chart"]["kozel"]
        assert after == rating["rating"] == round(end["ratings"]["skill"]["1"], 2)
        won = 1 in end["winners"]
        assert profile["played"] == [{"game": "kozel", "games": 1, "wins": int(won)}]


def test_a_rated_osel_match_gets_the_kozel_points_rating_its_preset_names(db: str) -> None:
    assert bazar.rules("osel").options()["rating"] is True
    app = make_app(db)
    with TestClient(app) as client:
        masha = Person(client, "Masha", "password-1")
        alex = Person(client, "Alex", "password-2")
        tid = masha.create(game="osel", players=2, rated=True)["table"]["id"]
        alex.post(f"/api/tables/{tid}/join", json={})
        rng = random.Random(5)
        with masha.ws(f"/ws/{tid}") as ws0, alex.ws(f"/ws/{tid}") as ws1:
            drivers = [Driver(ws0, rng), Driver(ws1, rng)]
            play_together(drivers)
        end = drivers[0].end
        assert end is not None and end["ratings"] is not None
        scores = end["scores"]["scores"]
        kozel = {int(k): v for k, v in end["ratings"]["kozel"].items()}
        assert kozel == {s: bazar.rating.kozel_delta(p) for s, p in enumerate(scores)}
        assert masha.get("/api/session").json()["user"]["kozel_rating"] == kozel[0]


def test_bot_games_never_change_human_ratings(db: str) -> None:
    with TestClient(make_app(db)) as masha:
        _register(masha, "Masha")
        tid = create(masha, game="kozel", players=3, bots="random")["table"]["id"]
        with masha.websocket_connect(f"/ws/{tid}") as ws:
            end = play_until_end(ws, random.Random(4))
        assert end["ratings"] is None
        assert masha.get("/api/session").json()["user"]["kozel_rating"] == 0
        assert masha.get("/api/profile/Masha").json()["ratings"] == []


def refusal(response: Any) -> tuple[int, str, dict[str, Any]]:
    """A refused request's status, code and parameters (the English message is there too)."""
    body = response.json()
    assert body["error"] == i18n.t(f"club.{body['code']}", "en", **body["params"])
    return response.status_code, body["code"], body["params"]


def test_a_rated_table_is_never_quietly_made_casual(db: str) -> None:
    """online-club.md §1, §3: ratings are between registered people. A rated request with
    bots, or from a guest, is refused, as are bots or guests at a rated table."""
    with TestClient(make_app(db)) as client:
        masha = Person(client, "Masha", "password-1")
        asked = masha.post(
            "/api/tables", json={"game": "kozel", "players": 3, "rated": True, "bots": "random"}
        )
        assert refusal(asked) == (400, "rated_bots", {})
        assert masha.get("/api/tables").json()["tables"] == []
        tid = masha.create(game="kozel", players=3, rated=True)["table"]["id"]
        called = masha.post(f"/api/tables/{tid}/bots", json={"level": "random"})
        assert refusal(called) == (400, "rated_bots", {})
        olya = Person(client, "Olya")
        assert refusal(olya.post(f"/api/tables/{tid}/join", json={})) == (400, "rated_guest", {})
        asked = olya.post("/api/tables", json={"game": "kozel", "rated": True})
        assert refusal(asked) == (400, "rated_guest", {})
        table = masha.get(f"/api/tables/{tid}").json()["table"]
        assert table["rated"] and [s is None for s in table["seats"]] == [False, True, True]


def test_every_refusal_has_a_code_the_page_says_in_both_languages(client: TestClient) -> None:
    """The web page says a refusal by its code, in its language: the club sends it an English
    and a Russian text of every code it refuses with (its messages are the catalogue's
    club.CODE), using only the parameters it sends."""
    from babel.messages.pofile import read_po

    with (i18n.LOCALE / "en" / "LC_MESSAGES" / "bazar.po").open("rb") as po:
        messages = {m.id[5:]: m.string for m in read_po(po) if str(m.id).startswith("club.")}
    english, russian = (client.get(f"/i18n/{lang}.json").json() for lang in ("en", "ru"))
    assert messages and sorted(k for k in russian if k.startswith("error.")) == sorted(
        f"error.{code}" for code in messages
    )
    formatter = string.Formatter()
    for code, message in messages.items():
        sent = {f for _, f, _, _ in formatter.parse(message) if f}
        if "reason" in sent:
            sent.add("reason_ru")  # a library error passed on, in Russian too
        for said in (english[f"error.{code}"], russian[f"error.{code}"]):
            assert {f for _, f, _, _ in formatter.parse(said) if f} <= sent, code
        assert re.search("[а-яё]", russian[f"error.{code}"] + "ё"), code
        assert not re.search("[а-яё]", english[f"error.{code}"]), code


def test_the_page_gets_its_texts_in_either_language_and_no_other(client: TestClient) -> None:
    got = client.get("/i18n/ru.json")
    assert got.status_code == 200 and got.json()["lobby"] == "Лобби"
    assert "max-age" in got.headers["cache-control"]
    assert client.get("/i18n/en.json").json()["lobby"] == "Lobby"
    assert client.get("/i18n/de.json").status_code == 404


def test_refusals_carry_a_code_and_parameters_over_http_and_the_socket(client: TestClient) -> None:
    assert refusal(client.post("/api/guest", json={"name": "$$$"})) == (400, "name_form", {})
    assert refusal(client.post("/api/tables", json={})) == (401, "login_first", {})
    guest(client, "Masha")
    status, code, params = refusal(client.post("/api/tables", json={"game": "kozle"}))
    assert (status, code) == (400, "unknown_game_near")
    assert params["near"].split(", ")[0] == "kozel" and params["game"] == "kozle"
    status, code, params = refusal(client.post("/api/tables", json={"players": 7}))
    assert (code, params["reason"]) == ("rules", "kozel takes 2 to 4 players, not 7")
    assert params["reason_ru"] == "в kozel играют от 2 до 4 игроков, не 7"
    table = create(client, game="kozel", players=2)["table"]
    with client.websocket_connect(f"/ws/{table['id']}") as ws:
        ws.send_json({"type": "move", "move": "6-6"})
        said = ws.receive_json()
        assert (said["type"], said["code"]) == ("error", "hello_first")
        ws.send_json({"type": "hello", "v": 0})
        assert ws.receive_json()["type"] == "sync"
        ws.send_json({"type": "move", "move": 64})
        said = ws.receive_json()
        assert (said["type"], said["code"]) == ("error", "move_form")
        ws.send_text("{}")
        assert ws.receive_json() == {
            "type": "error",
            "code": "unknown_message",
            "params": {},
            "message": "unknown message; send hello, move, back or ping",
        }
    with client.websocket_connect("/ws/nosuch") as ws:
        assert ws.receive_json()["code"] == "no_table"


def test_a_casual_player_who_times_out_is_replaced_by_a_bot(db: str) -> None:
    with TestClient(make_app(db, settings=QUICK_CLOCKS)) as masha:
        guest(masha, "Masha")
        tid = create(masha, game="kozel", players=2, bots="greedy", move_time_s=1)["table"]["id"]
        events = []
        with masha.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "v": 0})
            for _ in range(10_000):
                events += events_of(ws.receive_json())
                if events and events[-1]["t"] == "match_end":
                    break
            else:
                raise AssertionError("no end")
        info = masha.get(f"/api/tables/{tid}").json()["table"]
        assert info["seats"][0]["bot"] == "greedy"
        assert info["ending"] == {"normal": True}
        (replaced,) = [e for e in events if e["t"] == "replaced"]
        assert replaced["seat"] == 0 and replaced["why"] == "timeout"
        # the seat is still hers: she may ask for a rematch, and plays it herself
        assert info["your_seat"] == 0
        rematch = masha.post(f"/api/tables/{tid}/rematch").json()["table"]
        assert rematch["seats"][0] == {"name": "Masha", "guest": True, "bot": None}
    # a restarted server rebuilds the same event log, the bot's arrival included
    with TestClient(make_app(db)) as again, again.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "v": 0})
        rebuilt = ws.receive_json()["events"]

    def shape(log: list[dict]) -> list[tuple]:
        return [(e["v"], e["t"], e.get("move"), e.get("seat"), e.get("why")) for e in log]

    assert shape(rebuilt) == shape(events)


def test_a_rated_player_who_times_out_interrupts_the_match(db: str) -> None:
    with TestClient(make_app(db, settings=QUICK_CLOCKS)) as client:
        masha = Person(client, "Masha", "password-1")
        alex = Person(client, "Alex", "password-2")
        tid = masha.create(game="kozel", players=2, rated=True, move_time_s=1)["table"]["id"]
        alex.post(f"/api/tables/{tid}/join", json={})
        with masha.ws(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "v": 0})
            for _ in range(1000):
                message = ws.receive_json()
                ends = [e for e in events_of(message) if e["t"] == "match_end"]
                if ends:
                    break
        (end,) = ends
        timed_out = end["ending"]["timeout"]
        assert timed_out in (0, 1)
        other = 1 - timed_out
        assert set(end["ratings"]["kozel"]) == {str(other)}
        assert end["ratings"]["kozel"][str(other)] >= 1


def test_a_rematch_seats_the_same_players_at_a_new_table(client: TestClient) -> None:
    guest(client, "Masha")
    tid = create(client, game="kozel", players=2, bots="random")["table"]["id"]
    assert client.post(f"/api/tables/{tid}/rematch").status_code == 400
    with client.websocket_connect(f"/ws/{tid}") as ws:
        play_until_end(ws, random.Random(6))
    new = client.post(f"/api/tables/{tid}/rematch").json()["table"]
    assert new["id"] != tid and new["status"] == "playing"
    assert [s["name"] for s in new["seats"]] == [
        s["name"] for s in client.get(f"/api/tables/{tid}").json()["table"]["seats"]
    ]


def test_pages_and_static_files_are_served(client: TestClient) -> None:
    pages = ("/", "/history", "/leaderboard", "/table/abc", "/replay/x", "/profile/y")
    for path in (*pages, "/tournaments", "/tournament/abc"):
        r = client.get(path)
        assert r.status_code == 200 and "<html" in r.text.lower()
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/api/games").json()["games"][0]["name"]


def test_the_replay_shows_the_position_after_any_move(client: TestClient) -> None:
    m = bazar.Match(bazar.rules("kozel", players=2), seed=8)
    while not m.is_over():
        m.push(m.legal_moves()[-1])
    rid = client.post("/api/records", content=bazar.record.dumps(m).encode(), headers=JSON).json()[
        "id"
    ]
    moves = [str(x) for r in m.rounds for x in r.moves]
    end = client.get(f"/api/records/{rid}/position").json()
    assert end["plies"] == len(moves) and end["ply"] == len(moves)
    for ply in (0, 1, 7, len(moves) // 2):
        got = client.get(f"/api/records/{rid}/position?ply={ply}").json()
        assert got["ply"] == ply and got["view"]["hand"] is None
        assert got["last"] == (moves[ply - 1] if ply else None)
    assert client.get(f"/api/records/{rid}/position?ply=x").status_code == 400


def test_a_key_no_database_could_hold_finds_nothing(client: TestClient) -> None:
    # PostgreSQL refuses a NUL character in text: it must mean "no such thing", not a crash
    assert client.get("/api/tables/a%00b").status_code == 400
    assert client.get("/api/records/a%00b").status_code == 404
    assert client.get("/api/profile/a%00b").status_code == 404
    assert client.get("/api/leaderboard?game=a%00b").json()["skill"] == []
    with client.websocket_connect("/ws/a%00b") as ws:
        assert ws.receive_json()["type"] == "error"


def test_bazar_serve_gives_the_club_its_grace_and_rematch_window(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn
    from sqlalchemy.engine import make_url
    from typer.testing import CliRunner

    from bazar.cli import app as cli

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda club, **_: served.append(club))
    args = ["serve", "--db", db, "--grace", "7.5", "--rematch-window", "30"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    password = make_url(db).password
    assert password is None or f":{password}@" not in out.output  # the printed URL hides it
    club = served[0].state.club
    served[0].state.storage.close()
    assert (club.grace_s, club.rematch_window_s) == (7.5, 30)


def test_bazar_verify_confirms_the_deals_of_a_record(tmp_path: Path) -> None:
    import subprocess
    import sys

    m = bazar.Match(bazar.rules("kozel"), seed=12)
    while not m.is_over():
        m.push(m.legal_moves()[0])
    good = tmp_path / "good.json"
    good.write_text(bazar.record.dumps(m))
    run = [sys.executable, "-m", "bazar", "verify"]
    out = subprocess.run([*run, str(good), "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    rounds = json.loads(out.stdout)["rounds"]
    assert len(rounds) == len(m.rounds)
    assert rounds[0]["seed_hash"] == seed_hash(deal_seed(12, 1))
    data = json.loads(good.read_text())
    hands = data["rounds"][0]["deal"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # a dealt tile moved to another hand
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    out = subprocess.run([*run, str(bad)], capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.startswith("bazar:")
    assert "round 1" in out.stderr


def test_a_move_answering_the_last_move_is_not_stale_for_the_events_after_it(db: str) -> None:
    """A round's last move, its end and the next deal's commitment are sent in one instant; a
    player who leads the next round and answers the first of those messages (its view is
    already the new round's) is not told his move is stale: only a move in between makes
    it so."""
    app = make_app(db)
    with TestClient(app) as client:
        guest(client, "Masha")
        rng = random.Random(5)
        crossed = 0  # moves sent while a round's end was still on its way
        for _ in range(6):
            tid = create(client, game="kozel", players=4, bots="random")["table"]["id"]
            with client.websocket_connect(f"/ws/{tid}") as ws:
                ws.send_json({"type": "hello", "v": 0})
                sent: int | None = None
                ended = False
                while not ended:
                    message = ws.receive_json()
                    assert message["type"] != "error", message
                    for event in events_of(message):
                        ended = ended or event["t"] == "match_end"
                        if sent is not None and event["t"] == "round_start":
                            crossed += 1
                        if event["t"] == "move" and event.get("seat") == 0:
                            sent = None
                    view = message.get("view")
                    if ended or sent is not None or not view or not view["legal"]:
                        continue
                    if not is_forced(view):
                        sent = message["v"]
                        ws.send_json({"type": "move", "move": rng.choice(view["legal"]), "v": sent})
            if crossed:
                break
        assert crossed, "no round began while a move was on its way: nothing was tested"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("notaurl", "not a database URL: notaurl (sqlite:///FILE"),
        ("postgresql://nobody:hush@127.0.0.1:1/club", "connection"),
        ("mysql://someone@localhost/club", "MySQLdb"),
    ],
)
def test_bazar_serve_says_in_one_line_why_it_cannot_open_the_database(url: str, why: str) -> None:
    """A malformed URL, a server that does not answer, a driver not installed: exit 2 and one
    line naming the database (its password hidden), no traceback."""
    from typer.testing import CliRunner

    from bazar.cli import app as cli

    out = CliRunner().invoke(cli, ["serve", "--db", url])
    assert out.exit_code == 2, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(("bazar: cannot open the database", "bazar: not a database URL"))
    assert why in lines[0] and "hush" not in lines[0]


def test_only_a_version_the_table_has_reached_may_be_current(db: str) -> None:
    """A move's version is a count of events: a negative one, one from the future or a
    boolean is never current, whoever's turn it is."""
    app = make_app(db, bot_delay=60)
    with TestClient(app) as client:
        guest(client, "Masha")
        tid = create(client, game="kozel", players=4, bots="random")["table"]["id"]
        table = app.state.club.tables[tid]
        made = len(table.state.events)
        assert table.state.current(made)
        for bad in (-1, -3, made + 1, True, "3", None):
            assert not table.state.current(bad), bad  # type: ignore[arg-type]


def test_a_socket_hears_nothing_before_its_sync_and_only_newer_events_after_it(db: str) -> None:
    """A socket opened while the table plays on hears no event or notice, and its move is
    refused, until its hello is answered with the sync that holds them all; after the sync
    it hears each newer event once, in order, and nothing it already has."""
    app = make_app(db)
    with TestClient(app) as client:
        masha, alex, watcher = Person(client, "Masha"), Person(client, "Alex"), Person(client)
        tid = masha.create(game="kozel", players=2)["table"]["id"]
        alex.post(f"/api/tables/{tid}/join", json={})
        table = app.state.club.tables[tid]
        with masha.ws(f"/ws/{tid}") as ws0, watcher.ws(f"/ws/{tid}") as spectator:
            ws0.send_json({"type": "hello", "v": 0})
            first = ws0.receive_json()
            assert first["type"] == "sync"
            wait_until(lambda: len(table.audience.clients) == 2)
            with alex.ws(f"/ws/{tid}") as ws1:
                # Alex's socket is announced to Masha (a kozel round never opens with a lone
                # draw: nothing else happened meanwhile): a notice the spectator must not hear
                back = {"type": "notice", "event": {"t": "reconnected", "seat": 1, "name": "Alex"}}
                assert ws0.receive_json().items() >= back.items()
                ws1.send_json({"type": "move", "move": "draw"})
                refused = ws1.receive_json()
                assert refused["type"] == "error" and "hello" in refused["message"]
                listening = [ws0]

                def the_seat_to_choose_moves(v: int) -> None:
                    """From version ``v``, where the table waits for that seat."""
                    mover = (ws0, ws1)[table.match.turn]
                    if mover not in listening:
                        mover.send_json({"type": "hello", "v": 0})
                        assert mover.receive_json()["type"] == "sync"
                        listening.append(mover)
                    move = str(table.match.legal_moves()[0])
                    mover.send_json({"type": "move", "move": move, "v": v})

                wait_until(lambda: settled(table))
                made = max([first["v"], *(e["v"] for m in until_pong(ws0) for e in events_of(m))])
                the_seat_to_choose_moves(made)
                while all(e["v"] <= made for e in events_of(ws0.receive_json())):
                    pass
                spectator.send_json({"type": "hello", "v": 0})
                sync = spectator.receive_json()
                assert sync["type"] == "sync" and sync["v"] > made
                assert [e["v"] for e in sync["events"]] == list(range(1, sync["v"] + 1))
                # the table's own draws after that move may come after the sync, and the next
                # move does: each time the table waits for a person again, the spectator has
                # heard every event once, in order
                wait_until(lambda: settled(table))
                after = [e for m in until_pong(spectator) for e in events_of(m)]
                assert sync["events"] + after == table.state.events
                now = len(table.state.events)
                the_seat_to_choose_moves(now)
                wait_until(lambda: len(table.state.events) > now and settled(table))
                after += [e for m in until_pong(spectator) for e in events_of(m)]
                assert sync["events"] + after == table.state.events
            # then Alex's leaving
            gone = spectator.receive_json()
            assert gone["type"] == "notice" and gone["event"]["t"] == "disconnected"
