"""The club speaks its protocol: every message a real socket is sent over whole matches of
every family (and a reconnect, refusals, a seat a bot took and given back) is one of
:mod:`bazar.club.messages`' models with no field they do not name, and
docs/protocol.schema.json is the schema those models make."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Driver, JsonSocket, events_of, make_app, play_until_end, served
from websockets.sync.client import connect

from bazar.club import messages

SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "protocol.schema.json"

#: a whole match of each family, the shortest its options make
GAMES = [
    {"game": "kozel", "players": 4, "options": {"limit": 25}},
    {"game": "fives", "players": 2, "options": {"target": 61}},
    {"game": "mexican-train", "players": 2, "options": {"set_max": 6, "hand_size": 7}},
    {"game": "chicken-foot", "players": 2, "options": {"set_max": 6, "hand_size": 7}},
    {"game": "kolbasa", "players": 2},
    {"game": "poker", "players": 2},
    {"game": "texas-42", "players": 4},
    {"game": "block", "players": 2},
    {"game": "sea-kozel", "players": 4},
    {"game": "bergen", "players": 2},
]


def test_the_schema_file_is_the_one_the_models_make() -> None:
    """docs/protocol.schema.json is current: ``python -m bazar.club.messages >
    docs/protocol.schema.json`` makes it again after a model changes."""
    assert json.loads(SCHEMA.read_text()) == messages.schema()


def test_the_schema_covers_both_directions() -> None:
    defs = messages.schema()["$defs"]
    sent = defs["ClubMessage"]["discriminator"]["mapping"]
    said = defs["ClientMessage"]["discriminator"]["mapping"]
    assert set(sent) == {
        "sync",
        "event",
        "notice",
        "table",
        "error",
        "pong",
        "tables",
        "tournament",
    }
    assert set(said) == {"hello", "move", "back", "leave", "next", "ping"}
    assert defs["MoveEvent"]["additionalProperties"] is False


def test_a_field_the_models_do_not_name_fails() -> None:
    with pytest.raises(ValueError):
        messages.read('{"type": "pong", "late": 1}')


def test_text_writes_what_the_club_wrote_as_a_dict() -> None:
    """A message built without validation is written as the plain dict was."""
    event = {"t": "move", "seat": 0, "move": "draw", "ends": {"L": 6}, "forced": True, "v": 3}
    built = messages.EventMessage.model_construct(
        type="event",
        v=3,
        event=messages.MoveEvent.model_construct(**event),
        view=None,
        round=1,
        clock=messages.Clock.model_construct(seat=1, left_s=30),
    )
    said = json.loads(messages.text(built))
    assert said == {
        "type": "event",
        "v": 3,
        "event": event,
        "view": None,
        "round": 1,
        "clock": {"seat": 1, "left_s": 30},
    }


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A served club on SQLite (what the club sends is the same on any database)."""
    path = tmp_path_factory.mktemp("club") / "club.sqlite3"
    with served(make_app(f"sqlite:///{path}")) as base:
        yield base


def seated(base: str, form: dict[str, Any]) -> tuple[JsonSocket, str, str]:
    """A guest's socket at the table of ``form`` he made with random bots (he sits at seat
    0; its hello not sent), the table's id and his cookie."""
    with httpx.Client(base_url=base) as http:
        assert http.post("/api/guest", json={"name": "Masha"}).status_code == 200
        r = http.post("/api/tables", json={**form, "bots": "random", "move_time_s": 30})
        assert r.status_code == 200, r.text
        cookie = f"bazar={http.cookies['bazar']}"
        tid = r.json()["table"]["id"]
    return opened(base, tid, cookie), tid, cookie


def opened(base: str, tid: str, cookie: str) -> JsonSocket:
    url = base.replace("http", "ws") + f"/ws/{tid}"
    return JsonSocket(connect(url, additional_headers={"cookie": cookie}, proxy=None), wait=20)


def valid(said: list[dict[str, Any]]) -> None:
    """Each message read again as the models say it (extra fields forbidden)."""
    for message in said:
        messages.read(json.dumps(message))


@pytest.mark.parametrize("form", GAMES, ids=[g["game"] for g in GAMES])
def test_every_message_of_a_whole_match_is_a_model(club: str, form: dict[str, Any]) -> None:
    ws, _, _ = seated(club, form)
    said: list[dict[str, Any]] = []
    end = play_until_end(ws, random.Random(7), said)
    ws.ws.close()
    valid(said)
    kinds = {e["t"] for m in said for e in events_of(m)}
    assert {"start", "round_start", "move", "round_end", "match_end"} <= kinds
    assert end["t"] == "match_end"


def test_a_reconnect_refusals_and_a_seat_taken_back_are_models(club: str) -> None:
    """A second socket's hello with an old version, a stale and an illegal move, a message
    of no kind, leaving the seat to a bot and asking it back: all said in the models."""
    ws, tid, cookie = seated(club, {"game": "kozel", "players": 2})
    said: list[dict[str, Any]] = []
    driver = Driver(ws, random.Random(3), said)
    while driver.v < 6:
        driver.step()
    ws.send_json({"type": "move", "move": "9-9:L", "v": 0})
    ws.send_json({"type": "move", "move": "9-9:L"})
    ws.send_json({"type": "shout"})
    ws.send_json({"type": "leave"})
    ws.send_json({"type": "back"})
    again = opened(club, tid, cookie)
    again.send_json({"type": "hello", "v": 2})
    while not driver.end:
        driver.step()
    valid(said)
    errors = {m["code"] for m in said if m["type"] == "error"}
    assert {"unknown_message"} <= errors
    assert errors & {"stale", "illegal_move", "not_your_turn"}
    kinds = {e["t"] for m in said for e in events_of(m)}
    assert {"replaced", "returning", "back"} <= kinds
    resumed = []
    while (message := again.receive_json())["type"] != "sync":
        resumed.append(message)
    valid([*resumed, message])
    assert message["events"][0]["v"] == 3
    ws.ws.close()
    again.ws.close()


def test_the_lobby_socket_speaks_the_models(club: str) -> None:
    seated(club, {"game": "block", "players": 2})[0].ws.close()
    url = club.replace("http", "ws") + "/ws/lobby"
    lobby = JsonSocket(connect(url, proxy=None), wait=20)
    valid([lobby.receive_json()])
    lobby.ws.close()
