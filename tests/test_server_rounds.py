"""The end of a round at a live table, on a real uvicorn server: the round_end event holds the
position the round ended in and every hand the rules turn face up, and the table pauses
before the next round's first turn while its players look (``round_pause_s``), until each of
them has said ``next`` or the pause is over; bots and seats a bot plays are not waited for."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from server_helpers import QUICK_CLOCKS, JsonSocket, events_of, is_forced, make_app, served
from websockets.sync.client import connect

from bazar.club.tablestate import RELOAD_S
from bazar.core.board import Board
from bazar.core.moves import Move


@pytest.fixture
def club(db: str, request: pytest.FixtureRequest) -> Iterator[str]:
    """A served club whose tables pause ``request.param`` seconds between rounds."""
    pause = getattr(request, "param", 0)
    settings = QUICK_CLOCKS.model_copy(update={"round_pause_s": pause})
    with served(make_app(db, settings=settings)) as base:
        yield base


def seated(base: str, **form: Any) -> JsonSocket:
    """The socket of a guest who made the table of ``form`` (and sits at seat 0), its hello
    sent."""
    with httpx.Client(base_url=base) as http:
        assert http.post("/api/guest", json={"name": "Masha"}).status_code == 200
        r = http.post("/api/tables", json=form)
        assert r.status_code == 200, r.text
        return socket_at(base, r.json()["table"]["id"], f"bazar={http.cookies['bazar']}")


def socket_at(base: str, tid: str, cookie: str) -> JsonSocket:
    """A socket to table ``tid`` with the session ``cookie``, its hello sent."""
    url = base.replace("http", "ws") + f"/ws/{tid}"
    ws = JsonSocket(connect(url, additional_headers={"cookie": cookie}, proxy=None), wait=20)
    ws.send_json({"type": "hello", "v": 0})
    return ws


def two_at_a_round_end(base: str) -> tuple[JsonSocket, JsonSocket, Callable[[], JsonSocket]]:
    """Masha's and Olya's sockets at a Kozel table of theirs, once both have heard its first
    round end (each plays random moves on a thread of its own, as two browsers would), and
    how Olya opens another (her page reloaded)."""
    with httpx.Client(base_url=base) as masha, httpx.Client(base_url=base) as olya:
        assert masha.post("/api/guest", json={"name": "Masha"}).status_code == 200
        assert olya.post("/api/guest", json={"name": "Olya"}).status_code == 200
        r = masha.post("/api/tables", json={"game": "kozel", "players": 2, "move_time_s": 30})
        tid = r.json()["table"]["id"]
        assert olya.post(f"/api/tables/{tid}/join", json={"seat": 1}).status_code == 200
        cookies = [f"bazar={c.cookies['bazar']}" for c in (masha, olya)]
    sockets = [socket_at(base, tid, cookie) for cookie in cookies]
    errors: list[BaseException] = []

    def play(ws: JsonSocket, seed: int) -> None:
        try:
            to_a_round_end(ws, random.Random(seed))
        except BaseException as error:  # reported on the main thread
            errors.append(error)

    threads = [threading.Thread(target=play, args=(ws, i)) for i, ws in enumerate(sockets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return sockets[0], sockets[1], lambda: socket_at(base, tid, cookies[1])


def to_a_round_end(ws: JsonSocket, rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play the seat with random moves until a round ends: the message that tells it, and
    its round_end event."""
    view: dict[str, Any] | None = None
    v, answered = 0, None
    for _ in range(20_000):
        message = ws.receive_json()
        for event in events_of(message):
            if event["t"] == "round_end":
                return message, event
        if message["type"] in ("sync", "event"):
            view, v = message["view"], message["v"]
        elif message["type"] == "error":
            answered = None
        if view and view["legal"] and not is_forced(view) and answered != v:
            answered = v
            ws.send_json({"type": "move", "move": rng.choice(view["legal"]), "v": v})
    raise AssertionError("no round ended")


def until(ws: JsonSocket, kind: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The messages before the first that is (or tells) ``kind``, and that one."""
    before = []
    for _ in range(10_000):
        message = ws.receive_json()
        told = [message["event"]["t"]] if message["type"] in ("event", "notice") else []
        if message["type"] == kind or kind in told:
            return before, message
        before.append(message)
    raise AssertionError(f"no {kind}")


GAMES = [
    {"game": "kozel", "players": 4},
    {"game": "fives", "players": 2},
    {"game": "mexican-train", "players": 3},
    {"game": "kolbasa", "players": 2},
    {"game": "poker", "players": 3},
    {"game": "texas-42", "players": 4},
]


@pytest.mark.parametrize("form", GAMES, ids=[f["game"] for f in GAMES])
def test_a_round_end_holds_the_final_position_and_the_hands_the_rules_show(
    club: str, form: dict[str, Any]
) -> None:
    ws = seated(club, bots="random", **form)
    _, end = to_a_round_end(ws, random.Random(3))
    final = end["final"]
    view = final["view"]
    # a spectator's view of the round as it ended, not the next deal that came with it
    assert view["seat"] is None and view["hand"] is None and view["legal"] == []
    assert view["extra"]["number"] == end["number"]
    assert view["outcome"] == end["outcome"]
    assert view["scores"] == end["after"]
    # the hands are those the rules show: tiles left where a hand is turned up
    assert final["hands"] == end["outcome"]["remaining"]
    assert len(final["hands"]) == form["players"]
    for size, hand in zip(view["hand_sizes"], final["hands"], strict=True):
        assert hand is None or len(hand) == size
    if form["game"] != "poker":
        assert all(hand is not None for hand in final["hands"]), final["hands"]
    # the board as the round's last tile left it: that tile is on it
    laid = [Move.parse(m).tile for _, m, _ in view["history"]]
    tiles = [t for t in laid if t is not None]
    if form["game"] not in ("poker", "texas-42", "kolbasa"):
        assert tiles[-1] in Board.from_json(view["board"]).tiles()
    # no one looks at it here: the tables of these tests do not pause
    assert end["next_in_s"] == 0 and end["waiting"] == []


def test_a_poker_hand_that_did_not_show_down_stays_hidden(club: str) -> None:
    ws = seated(club, game="poker", players=3, bots="random")
    rng = random.Random(5)
    for _ in range(30):
        _, end = to_a_round_end(ws, rng)
        if end["outcome"]["reason"] == "fold":
            break
    else:
        pytest.skip("no hand was folded in 30 deals")
    hidden = [s for s, hand in enumerate(end["final"]["hands"]) if hand is None]
    assert hidden, end["final"]["hands"]


@pytest.mark.parametrize("club", [30], indirect=True)
def test_the_next_round_waits_until_the_player_has_seen_the_end(club: str) -> None:
    ws = seated(club, game="kozel", players=2, bots="greedy", move_time_s=30)
    message, end = to_a_round_end(ws, random.Random(1))
    assert end["next_in_s"] == 30 and end["waiting"] == [0]
    assert 29 < message["clock"]["starts_in_s"] <= 30
    # the next round is dealt, but nobody moves in it: the bot waits, a move is refused (a
    # move Masha sent as the round ended may be refused before it)
    time.sleep(0.5)
    ws.send_json({"type": "ping"})
    before, _ = until(ws, "pong")
    assert [e["t"] for m in before for e in events_of(m)] == ["round_start"]
    assert {m["type"] for m in before} <= {"event", "error"}
    ws.send_json({"type": "move", "move": "draw", "v": message["v"] + 1})
    assert ws.receive_json()["code"] == "round_pause"
    ws.send_json({"type": "ping"})
    before, _ = until(ws, "pong")
    assert before == []
    said = time.monotonic()
    ws.send_json({"type": "next"})
    before, resumed = until(ws, "pause_end")
    assert time.monotonic() - said < 5
    # the others hear that she has seen it; nobody moved before the pause ended
    assert [(m["event"]["t"], m["event"]["waiting"]) for m in before] == [("seen", [])]
    # the move clock starts now, whole
    assert "starts_in_s" not in resumed["clock"] and resumed["clock"]["left_s"] > 29
    assert resumed["table"]["pause"] is None


@pytest.mark.parametrize("club", [1], indirect=True)
def test_the_pause_ends_by_itself_when_its_time_is_over(club: str) -> None:
    ws = seated(club, game="kozel", players=2, bots="greedy", move_time_s=30)
    _, end = to_a_round_end(ws, random.Random(1))
    ended = time.monotonic()
    assert end["next_in_s"] == 1
    until(ws, "pause_end")
    assert 0.8 < time.monotonic() - ended < 5


@pytest.mark.parametrize("club", [30], indirect=True)
def test_a_seat_a_bot_plays_is_not_waited_for(club: str) -> None:
    """Masha never moves: her clock runs out, a bot plays for her while she watches, and the
    table has nobody to wait for between its rounds."""
    ws = seated(club, game="kozel", players=2, bots="greedy", move_time_s=1, target=30)
    ends = []
    for _ in range(20_000):
        message = ws.receive_json()
        events = events_of(message)
        ends += [e for e in events if e["t"] == "round_end"]
        if any(e["t"] == "match_end" for e in events):
            break
    else:
        raise AssertionError("the match did not end")
    assert ends and all(e["next_in_s"] == 0 and e["waiting"] == [] for e in ends)


@pytest.mark.parametrize("club", [30], indirect=True)
def test_the_pause_waits_for_every_player_here(club: str) -> None:
    masha, olya, _ = two_at_a_round_end(club)
    masha.send_json({"type": "next"})
    _, seen = until(olya, "seen")
    assert seen["event"]["name"] == "Masha" and seen["event"]["waiting"] == [1]
    time.sleep(0.3)
    olya.send_json({"type": "ping"})
    before, _ = until(olya, "pong")
    assert not [m for m in before if m["type"] == "notice" and m["event"]["t"] == "pause_end"]
    olya.send_json({"type": "next"})
    for ws in (masha, olya):
        until(ws, "pause_end")


@pytest.mark.parametrize("club", [30], indirect=True)
def test_a_player_who_leaves_during_the_pause_is_not_waited_for(club: str) -> None:
    masha, olya, _ = two_at_a_round_end(club)
    masha.send_json({"type": "next"})
    olya.ws.close()
    said = time.monotonic()
    until(masha, "pause_end")
    # a page closed for longer than a reload takes
    assert RELOAD_S - 0.5 < time.monotonic() - said < RELOAD_S + 5


@pytest.mark.parametrize("club", [30], indirect=True)
def test_a_page_reloaded_during_the_pause_is_still_waited_for(club: str) -> None:
    masha, olya, reopen = two_at_a_round_end(club)
    masha.send_json({"type": "next"})
    olya.ws.close()
    again = reopen()
    time.sleep(RELOAD_S + 0.5)
    masha.send_json({"type": "ping"})
    before, _ = until(masha, "pong")
    assert "pause_end" not in [m["event"]["t"] for m in before if m["type"] == "notice"]
    again.send_json({"type": "next"})
    until(masha, "pause_end")
