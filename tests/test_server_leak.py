"""No message a seat receives holds another seat's tile or the bazar order (DESIGN.md:
"a leak is a bug of the highest order"). Every message of several random matches is recorded
and checked against the deals of the finished records."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Driver, Person, TestClient, make_app, play_together

import bazar
from bazar.core.round import deal_seed

#: a tile as messages write it ("6-4", "6-4:R", "6|4", "close 2-2:L"), never part of a longer
#: word: a table id or invitation token (base64url, "Ab9-4xYz") must not read as the tile 9-4
TILE = re.compile(r"(?<![\w-])(\d{1,2})[-|](\d{1,2})(?![\w-])")


def tiles_in(data: Any) -> set[frozenset[int]]:
    text = json.dumps(data)
    return {frozenset((int(a), int(b))) for a, b in TILE.findall(text)}


def test_a_token_is_not_read_as_a_tile() -> None:
    """The leak check reads every tile a message names, and nothing else: a table id such as
    "Ab9-4xYz" made it see the tile 9-4 and fail at random."""
    message = {
        "id": "Ab9-4xYz",
        "invite": "x_1-2",
        "move": "6-4:R",
        "board": ["5|5", "close 2-2:L"],
    }
    assert tiles_in(message) == {frozenset((6, 4)), frozenset((5,)), frozenset((2,))}


def key(tile: Any) -> frozenset[int]:
    return frozenset((tile.high, tile.low))


def check(message: dict[str, Any], seat: int, match: bazar.Match, seed: int) -> None:
    view = message.get("view")
    if not view or message.get("round") is None:
        return
    number = message["round"]
    rnd = match.rounds[number - 1]
    deal = rnd.deal()
    allowed = {key(bazar.Tile.parse(t)) for t in deal["hands"][seat]}
    for s, _move, tile in rnd.history():
        if s == seat and tile is not None:
            allowed.add(key(tile))
    for s, move, tile in view["history"]:
        if s != seat:
            assert tile is None, f"seat {seat} was shown seat {s}'s drawn tile"
        allowed |= tiles_in(move)
    allowed |= tiles_in(view["board"])
    if view.get("outcome"):
        allowed |= tiles_in(view["outcome"])
    public = dict(message)
    # a finished round's result shows the hands as the game shows them: that is public
    events = [e for e in (message.get("events") or [message.get("event")]) if e]
    public.pop("event", None)
    public.pop("events", None)
    # a move event names only a played tile (a draw is bare "draw"): public once played
    for e in events:
        if e["t"] == "move":
            assert (
                e["move"] == "draw"
                or TILE.search(e["move"])
                or " " in e["move"]
                or e["move"] in ("pass", "stop")
            ), e
            allowed |= tiles_in(e["move"])
    shown = tiles_in(public) | tiles_in([e for e in events if e["t"] not in ("round_end",)])
    leaked = shown - allowed
    assert not leaked, f"seat {seat}, round {number}: foreign tiles {leaked}"
    # neither the match seed nor an unfinished round's deal seed may appear
    text = json.dumps(message)
    if not any(e["t"] == "match_end" for e in events):
        assert str(seed) not in text
    current = str(deal_seed(seed, number))
    assert current not in json.dumps(public)
    for e in events:
        if e["t"] != "round_end" or e["number"] != number:
            assert current not in json.dumps(e)
    assert "bazar" not in view or not isinstance(view.get("bazar"), list)


@pytest.mark.parametrize(
    ("game", "players", "humans", "seed"),
    [
        ("kozel", 4, 2, 1),
        ("kozel", 3, 3, 2),
        ("block", 2, 1, 3),
        ("draw", 3, 2, 4),
        ("kozel", 2, 2, 5),
    ],
)
def test_no_message_holds_another_seats_tile_or_the_bazar(
    tmp_path: Path, game: str, players: int, humans: int, seed: int
) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    with TestClient(app) as client:
        people = [Person(client, f"P{i}") for i in range(humans)]
        tid = people[0].create(game=game, players=players)["table"]["id"]
        for p in people[1:]:
            assert p.post(f"/api/tables/{tid}/join", json={}).status_code == 200
        if humans < players:
            people[0].post(f"/api/tables/{tid}/bots", json={"level": "random"})
        sockets = [p.ws(f"/ws/{tid}") for p in people]
        logs: list[list[dict[str, Any]]] = [[] for _ in people]
        rng = random.Random(seed)
        try:
            opened = [ws.__enter__() for ws in sockets]
            drivers = [Driver(ws, rng, log) for ws, log in zip(opened, logs, strict=True)]
            play_together(drivers)
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)
        text = people[0].get(f"/api/records/{tid}?download=1").text
    match = bazar.record.loads(text)
    table_seed = json.loads(text)["seed"]
    for seat, log in enumerate(logs):
        assert log
        for message in log:
            check(message, seat, match, table_seed)
