"""The coach in the club: a record's analysis asked for and polled, kept with the record; a
player has only his own moves graded in a match he played; a finished round's moves graded
at the table; the hint, at casual tables of bots only. Attacked as the club's other
requests are: by strangers, at other people's tables, with bodies of the wrong shape."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from server_helpers import JSON, Driver, Person, TestClient, make_app, settled, wait_until

import bazar
from bazar.club import coach
from bazar.club.settings import Settings

#: a coach quick enough for a test: few deals a position
QUICK = Settings(coach_deals=4, open_tables_per_user=20)


def finished(seed: int = 2) -> bazar.Match:
    match = bazar.Match(bazar.rules("block"), seed=seed)
    rng = random.Random(seed)
    while not match.is_over():
        match.push(rng.choice(match.legal_moves()))
    return match


def polled(person: Person, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """Ask for an analysis until it is done; every answer on the way says where it stands."""
    deadline = time.monotonic() + 120
    while True:
        r = person.post(url, json=body or {})
        assert r.status_code == 200, r.text
        said = r.json()
        if said["state"] == "done":
            return said
        assert said["state"] in ("queued", "running")
        if said["state"] == "running":
            assert 0 <= said["done"] <= said["total"]
        else:
            assert said["ahead"] >= 0
        assert time.monotonic() < deadline, "the analysis was never made"
        time.sleep(0.05)


def test_an_uploaded_record_is_analysed_for_every_seat_once_and_kept(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bazar.club.routes import records

    planned: list[Any] = []
    plan = records.plan
    monkeypatch.setattr(records, "plan", lambda *a, **k: planned.append(a) or plan(*a, **k))
    match = finished()
    app = make_app(db, settings=QUICK)
    with TestClient(app) as client:
        masha = Person(client, "Masha")
        rid = masha.post("/api/records", content=bazar.record.dumps(match), headers=JSON).json()[
            "id"
        ]
        done = polled(masha, f"/api/records/{rid}/analysis")
        assert done["seats"] == [0, 1]
        moves = done["analysis"]["moves"]
        flat = [str(m) for rnd in match.rounds for m in rnd.moves]
        # every move of both seats, each placed where the replay counts it
        assert [m["played"] for m in moves] == flat
        assert [m["at"] for m in moves] == list(range(len(flat)))
        assert {p["seat"] for p in done["analysis"]["players"]} == {0, 1}
        assert done["analysis"]["deals"] == 4
        # kept with the record: asked again, by another, it is read and not made again
        alex = Person(client, "Alex")
        assert polled(alex, f"/api/records/{rid}/analysis") == done
        assert len(planned) == 1
        stored = app.state.club.storage.records.analysis(rid, "0,1", 4, coach.VERSION)
        assert stored is not None
    # another process of the club (the server started again) reads it too
    with TestClient(make_app(db, settings=QUICK)) as client:
        olga = Person(client, "Olga")
        answer = olga.post(f"/api/records/{rid}/analysis", json={}).json()
        assert answer == done
    assert len(planned) == 1


def test_a_record_that_is_not_stored_has_no_analysis(db: str) -> None:
    with TestClient(make_app(db, settings=QUICK)) as client:
        masha = Person(client, "Masha")
        for rid in ("nope", "x" * 5000, "%00"):
            r = masha.post(f"/api/records/{rid}/analysis", json={})
            assert (r.status_code, r.json()["code"]) == (404, "no_record")


def played_against_a_bot(client: TestClient, person: Person, seed: int) -> str:
    """A whole match of ``person`` against a random bot at the club: its record's id."""
    tid = person.create(game="block", players=2, bots="random")["table"]["id"]
    with person.ws(f"/ws/{tid}") as ws:
        driver = Driver(ws, random.Random(seed))
        while driver.end is None:
            driver.step()
    return tid


def test_a_player_has_his_own_moves_graded_and_anyone_else_every_seat_s(db: str) -> None:
    app = make_app(db, settings=QUICK)
    with TestClient(app) as client:
        masha = Person(client, "Masha")
        rid = played_against_a_bot(client, masha, 5)
        wait_until(lambda: app.state.club.storage.records.record(rid) is not None)
        mine = polled(masha, f"/api/records/{rid}/analysis")
        # the bot's hand was hidden from her: her moves alone are graded, and only her seat
        assert mine["seats"] == [0]
        assert mine["analysis"]["moves"] and {m["seat"] for m in mine["analysis"]["moves"]} == {0}
        assert [p["seat"] for p in mine["analysis"]["players"]] == [0]
        stranger = Person(client, "Alex")
        theirs = polled(stranger, f"/api/records/{rid}/analysis")
        assert theirs["seats"] == [0, 1]
        assert {m["seat"] for m in theirs["analysis"]["moves"]} == {0, 1}
        # her grades are the same moves graded the same, whoever asked first
        hers = [m for m in theirs["analysis"]["moves"] if m["seat"] == 0]
        assert [(m["at"], m["grade"]) for m in hers] == [
            (m["at"], m["grade"]) for m in mine["analysis"]["moves"]
        ]
        # a visitor with no session is a stranger too
        client.cookies.clear()
        r = client.post(f"/api/records/{rid}/analysis", json={})
        assert r.status_code == 200 and r.json()["seats"] == [0, 1]


def at_her_turn(app: Any, person: Person, **form: Any) -> tuple[str, Any]:
    tid = person.create(**form)["table"]["id"]
    return tid, app.state.club.tables[tid]


def test_a_hint_is_the_coach_s_best_move_at_a_casual_table_of_bots(db: str) -> None:
    app = make_app(db, settings=QUICK)
    with TestClient(app) as client:
        masha = Person(client, "Masha")
        tid, table = at_her_turn(app, masha, game="fives", players=2, bots="random")
        with masha.ws(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "v": 0})
            ws.receive_json()
            wait_until(lambda: settled(table) and table.match.turn == 0, 30)
            legal = [str(m) for m in table.match.legal_moves()]
            r = masha.post(f"/api/tables/{tid}/hint")
            assert r.status_code == 200, r.text
            hint = r.json()
            assert hint["move"] in legal and hint["v"] == table.state.v
            assert sorted(v["move"] for v in hint["values"]) == sorted(legal)
            assert hint["values"][0]["move"] == hint["move"]
            assert hint["against"] == hint["values"][1]["move"]
            # asked again at the same position: the same hint
            assert masha.post(f"/api/tables/{tid}/hint").json() == hint
            # not at her table, not for a stranger
            alex = Person(client, "Alex")
            r = alex.post(f"/api/tables/{tid}/hint")
            assert (r.status_code, r.json()["code"]) == (403, "coach_not_seated")
            client.cookies.clear()
            r = client.post(f"/api/tables/{tid}/hint")
            assert (r.status_code, r.json()["code"]) == (401, "login_first")


def test_no_hint_at_a_rated_table_or_where_another_person_plays(db: str) -> None:
    app = make_app(db, settings=QUICK)
    with TestClient(app) as client:
        masha = Person(client, "Masha", "password-1")
        alex = Person(client, "Alex", "password-2")
        rated = masha.create(game="kozel", players=2, rated=True)["table"]["id"]
        assert alex.post(f"/api/tables/{rated}/join", json={}).status_code == 200
        casual = masha.create(game="kozel", players=2)["table"]["id"]
        assert alex.post(f"/api/tables/{casual}/join", json={}).status_code == 200
        for person in (masha, alex):
            r = person.post(f"/api/tables/{rated}/hint")
            assert (r.status_code, r.json()["code"]) == (403, "hint_rated")
            r = person.post(f"/api/tables/{casual}/hint")
            assert (r.status_code, r.json()["code"]) == (403, "hint_people")
        r = masha.post("/api/tables/no-such-table/hint")
        assert r.json()["code"] == "no_table"


def test_a_finished_round_is_graded_at_the_table_for_its_player_alone(db: str) -> None:
    app = make_app(db, settings=QUICK)
    with TestClient(app) as client:
        masha = Person(client, "Masha")
        tid, table = at_her_turn(app, masha, game="block", players=2, bots="random")
        url = f"/api/tables/{tid}/review"
        # no round is over yet
        r = masha.post(url, json={"round": 1})
        assert (r.status_code, r.json()["code"]) == (404, "no_round")
        with masha.ws(f"/ws/{tid}") as ws:
            driver = Driver(ws, random.Random(3))
            while driver.end is None and not (
                table.match is not None and table.match.rounds[0].is_over()
            ):
                driver.step()
        first = table.match.rounds[0]
        done = polled(masha, url, {"round": 1})
        assert done["seats"] == [0]
        moves = done["analysis"]["moves"]
        mine = [str(m) for i, m in enumerate(first.moves) if first.history()[i][0] == 0]
        assert [m["played"] for m in moves] == mine
        assert {m["round"] for m in moves} == {1} and {m["seat"] for m in moves} == {0}
        # the bodies it refuses, and the people
        for body, code in (
            ({"round": "1"}, "round_number"),
            ({"round": 10**30}, "no_round"),
            ({"round": True}, "round_number"),
            ({}, "round_number"),
            ({"round": 99}, "no_round"),
        ):
            r = masha.post(url, json=body)
            assert r.json()["code"] == code, body
        r = masha.post(url, content=b"[" * 100_000, headers=JSON)
        assert r.status_code == 413
        alex = Person(client, "Alex")
        r = alex.post(url, json={"round": 1})
        assert (r.status_code, r.json()["code"]) == (403, "coach_not_seated")


def test_no_hint_at_a_tournament_table_even_among_bots(db: str) -> None:
    """A tournament's table is refused a hint whatever sits at it: the coach would play for
    its entrant."""
    import asyncio

    from bazar.club.club import Club
    from bazar.club.errors import ServerError
    from bazar.club.storage import Storage, TableRow, User
    from bazar.club.table import Table

    storage = Storage(db)
    club = Club(storage, settings=QUICK)
    seats = [{"user": 1, "name": "Masha"}, {"bot": "random", "name": "bot"}]
    row = TableRow(
        id="t1", game="block", options={"players": 2}, seats=seats, owner=1, invite="x",
        seed=1, tournament="c1", status="playing",
    )  # fmt: skip
    table = Table(row, storage.tables, settings=QUICK)
    masha = User(id=1, name="Masha", guest=False)

    async def hint() -> Any:
        return await club.hint(table, masha)

    with pytest.raises(ServerError) as refused:
        asyncio.run(hint())
    assert (refused.value.code, refused.value.status) == ("hint_rated", 403)
    storage.close()
