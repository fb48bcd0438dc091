"""Tournaments in the club (docs/protocol.md, "Tournaments"): created, entered, filled with
bots, started and played through by the club's director on real databases: a Swiss between
bots, a person's table played on its socket, a no-show who loses, a restart in the middle of
a round, every format, a 2x2 team event, the file exported and imported, the refusals."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from server_helpers import (
    JSON,
    Driver,
    Person,
    TestClient,
    make_app,
    play_together,
    play_until_end,
    wait_until,
)
from sqlalchemy import insert

from bazar.club.settings import Settings
from bazar.club.storage import Lease, Storage
from bazar.core import record
from bazar.tournament import places

#: quick bots and no wait for an unwatched table's bots: a tournament of bots plays in seconds
QUICK = Settings(unwatched_bot_delay_s=0, tournament_pause_s=0)
#: a short match: kozel with a low limit
SHORT = {"limit": 25}


def app_on(db: str, **options: Any) -> Any:
    options.setdefault("grace_s", 30)
    return make_app(db, bot_delay=0.0, settings=QUICK, **options)


def made(person: Person, **form: Any) -> dict[str, Any]:
    r = person.post("/api/tournaments", json=form)
    assert r.status_code == 201, r.text
    return dict(r.json()["tournament"])


def ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    return dict(response.json())


def refused(response: Any, code: str, status: int = 400) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error = response.json()
    assert error["code"] == code, error
    return dict(error)


def upload(person: Person, body: bytes) -> Any:
    """A tournament's file posted to the import."""
    headers = {**JSON, "cookie": f"bazar={person.cookie}"}
    return person.client.post("/api/tournaments/import", content=body, headers=headers)


def replayed(client: Any, record_id: str) -> list[int]:
    """The places of the finished match a record holds (the library's reading of it)."""
    match = record.loads(client.get(f"/api/records/{record_id}?download=1").text)
    assert match.is_over()
    return list(places(match))


def tournament(person: Person, tid: str) -> dict[str, Any]:
    return dict(ok(person.get(f"/api/tournaments/{tid}"))["tournament"])


def finished(person: Person, tid: str, seconds: float = 120.0) -> dict[str, Any]:
    wait_until(lambda: tournament(person, tid)["status"] == "finished", seconds)
    return tournament(person, tid)


def swiss_of_bots(person: Person, count: int = 4, **form: Any) -> str:
    """A Swiss of 2 rounds of ``count`` bots, started."""
    form = {"game": "kozel", "players": 2, "options": SHORT, "rounds": 2, **form}
    tid = made(person, name="Yard", format="swiss", **form)["id"]
    ok(person.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": count}))
    ok(person.post(f"/api/tournaments/{tid}/start"))
    return str(tid)


def test_a_swiss_between_bots_is_played_through_with_standings_tables_and_records(
    db: str,
) -> None:
    with TestClient(app_on(db)) as client:
        masha = Person(client, "Masha")
        tid = made(masha, name="Yard", game="kozel", players=2, options=SHORT, rounds=2)["id"]
        t = ok(masha.post(f"/api/tournaments/{tid}/bots", json={"level": "random", "count": 3}))
        t = ok(masha.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 3}))
        names = [e["name"] for e in t["tournament"]["entries"]]
        assert names == ["random#1", "random#2", "random#3", "greedy#1", "greedy#2", "greedy#3"]
        assert t["tournament"]["status"] == "open"
        listed = ok(masha.get("/api/tournaments"))["tournaments"]
        assert [x["id"] for x in listed] == [tid] and listed[0]["entries"] == 6
        ok(masha.post(f"/api/tournaments/{tid}/start"))
        t = finished(masha, tid)
    rounds = t["rounds_played"]
    assert [r["round"] for r in rounds] == [1, 2]
    for r in rounds:
        # six entries, two a table: three tables a round, every entry once
        assert len(r["pairings"]) == 3
        seen = [e for p in r["pairings"] for e in p["entries"]]
        assert sorted(seen) == list(range(6))
    # no pairing repeated
    pairs = [frozenset(p["entries"]) for r in rounds for p in r["pairings"]]
    assert len(set(pairs)) == len(pairs)
    # the standings' points are what the matches gave
    given = sum(x for r in rounds for p in r["pairings"] for x in p["points"])
    assert sum(s["points"] for s in t["standings"]) == pytest.approx(given)
    assert sorted(s["entry"] for s in t["standings"]) == list(range(6))
    assert all(s["played"] == 2 for s in t["standings"])
    with TestClient(app_on(db)) as client:
        for p in (p for r in rounds for p in r["pairings"]):
            table = client.get(f"/api/tables/{p['table']}").json()["table"]
            assert table["status"] == "finished"
            assert table["tournament"]["id"] == tid
            # the table's record replays to the places the tournament took from it
            assert replayed(client, p["record"]) == p["places"]


def test_a_person_plays_his_round_on_the_tables_socket(db: str) -> None:
    with TestClient(app_on(db)) as client:
        masha = Person(client, "Masha")
        tid = made(masha, game="kozel", players=2, options=SHORT, rounds=1)["id"]
        assert ok(masha.post(f"/api/tournaments/{tid}/join", json={}))["entry"] == 0
        ok(masha.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 1}))
        ok(masha.post(f"/api/tournaments/{tid}/start"))
        wait_until(lambda: tournament(masha, tid)["rounds_played"], 10)
        t = tournament(masha, tid)
        assert t["you"] == 0
        (pairing,) = t["rounds_played"][0]["pairings"]
        table = ok(masha.get(f"/api/tables/{pairing['table']}"))["table"]
        assert table["your_seat"] == pairing["entries"].index(0)
        assert table["tournament"] == {"id": tid, "name": "kozel", "round": 1, "board": 1}
        with masha.ws(f"/ws/{pairing['table']}") as ws:
            end = play_until_end(ws, random.Random(3))
        assert end["ending"] == {"normal": True}
        t = finished(masha, tid, 30)
        (pairing,) = t["rounds_played"][0]["pairings"]
        assert pairing["forfeit"] == []
        assert replayed(client, pairing["record"]) == pairing["places"]


def test_an_eight_player_swiss_kozel_of_seven_bots_and_a_person(db: str) -> None:
    """The issue's event: four-player Kozel, two rounds, two tables a round, places giving
    3/2/1/0 points (the goat nothing)."""
    with TestClient(app_on(db)) as client:
        masha = Person(client, "Masha")
        tid = made(masha, game="kozel", players=4, options=SHORT, rounds=2)["id"]
        ok(masha.post(f"/api/tournaments/{tid}/join", json={}))
        ok(masha.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 7}))
        ok(masha.post(f"/api/tournaments/{tid}/start"))
        for number in (1, 2):
            wait_until(lambda n=number: tournament(masha, tid)["round"] == n, 60)
            (mine,) = [p for p in _round(masha, tid, number) if 0 in p["entries"]]
            table = ok(masha.get(f"/api/tables/{mine['table']}"))["table"]
            assert table["your_seat"] == mine["entries"].index(0)
            with masha.ws(f"/ws/{mine['table']}") as ws:
                play_until_end(ws, random.Random(number))
        t = finished(masha, tid)
        for r in t["rounds_played"]:
            assert [len(p["entries"]) for p in r["pairings"]] == [4, 4]
            for p in r["pairings"]:
                assert replayed(client, p["record"]) == p["places"]
                # each place's points: 3, 2, 1, 0, shared places sharing theirs
                if sorted(p["places"]) == [1, 2, 3, 4]:
                    assert [p["points"][p["places"].index(k)] for k in (1, 2, 3, 4)] == [3, 2, 1, 0]
    assert sum(s["points"] for s in t["standings"]) == pytest.approx(
        sum(x for r in t["rounds_played"] for p in r["pairings"] for x in p["points"])
    )
    assert [s["played"] for s in t["standings"]] == [2] * 8


def test_a_rated_tournament_rates_its_tables_of_people(db: str) -> None:
    with TestClient(app_on(db)) as client:
        masha = Person(client, "Masha", "password-1")
        alex = Person(client, "Alex", "password-2")
        olya = Person(client, "Olya")
        tid = made(masha, game="kozel", players=2, options=SHORT, rounds=1, rated=True)["id"]
        # a guest plays no rated event
        refused(olya.post(f"/api/tournaments/{tid}/join", json={}), "rated_guest")
        ok(masha.post(f"/api/tournaments/{tid}/join", json={}))
        ok(alex.post(f"/api/tournaments/{tid}/join", json={}))
        ok(masha.post(f"/api/tournaments/{tid}/start"))
        wait_until(lambda: tournament(masha, tid)["rounds_played"], 10)
        (pairing,) = _round(masha, tid, 1)
        assert ok(masha.get(f"/api/tables/{pairing['table']}"))["table"]["rated"] is True
        with masha.ws(f"/ws/{pairing['table']}") as one, alex.ws(f"/ws/{pairing['table']}") as two:
            play_together([Driver(one, random.Random(1)), Driver(two, random.Random(2))])
        finished(masha, tid, 30)
        table = ok(masha.get(f"/api/tables/{pairing['table']}"))["table"]
        assert table["ending"]["ratings"]["skill"]
        played = ok(masha.get("/api/profile/Masha"))
        assert played["ratings"], played


def test_a_tournament_starts_by_itself_at_its_time(db: str) -> None:
    with TestClient(app_on(db)) as client:
        masha = Person(client, "Masha")
        form = {"game": "kozel", "players": 2, "options": SHORT, "rounds": 1}
        tid = made(masha, starts_at=time.time() + 1, **form)["id"]
        ok(masha.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 2}))
        assert tournament(masha, tid)["status"] == "open"
        t = finished(masha, tid)
        assert len(_round(masha, tid, 1)) == 1 and t["standings"][0]["played"] == 1
        # one that comes to its time with too few entries is finished unplayed
        tid = made(masha, starts_at=time.time() + 0.5, **form)["id"]
        t = finished(masha, tid, 10)
        assert t["rounds_played"] == []


def test_a_swiss_player_withdraws_between_rounds(db: str) -> None:
    settings = Settings(unwatched_bot_delay_s=0, tournament_pause_s=1.5)
    with TestClient(make_app(db, settings=settings)) as client:
        masha = Person(client, "Masha")
        tid = made(masha, game="kozel", players=2, options=SHORT, rounds=2)["id"]
        ok(masha.post(f"/api/tournaments/{tid}/join", json={}))
        ok(masha.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 3}))
        ok(masha.post(f"/api/tournaments/{tid}/start"))
        wait_until(lambda: tournament(masha, tid)["rounds_played"], 10)
        # before the round is over, nobody leaves
        refused(masha.post(f"/api/tournaments/{tid}/withdraw"), "tournament_refused")
        (mine,) = [
            p for p in tournament(masha, tid)["rounds_played"][0]["pairings"] if 0 in p["entries"]
        ]
        with masha.ws(f"/ws/{mine['table']}") as ws:
            play_until_end(ws, random.Random(8))
        wait_until(lambda: all(p["places"] for p in _round(masha, tid, 1)), 30)
        # the round is over and the next not paired yet: she withdraws
        assert tournament(masha, tid)["round"] == 1
        ok(masha.post(f"/api/tournaments/{tid}/withdraw"))
        t = finished(masha, tid)
    (second,) = [r["pairings"] for r in t["rounds_played"] if r["round"] == 2]
    assert all(0 not in p["entries"] for p in second)
    assert [p["bye"] for p in second].count(True) == 1
    assert next(e for e in t["entries"] if e["id"] == 0)["withdrawn"] is True


def _round(person: Person, tid: str, number: int) -> list[dict[str, Any]]:
    t = tournament(person, tid)
    return [p for r in t["rounds_played"] if r["round"] == number for p in r["pairings"]]


def test_a_player_who_never_comes_loses_his_match(db: str) -> None:
    with TestClient(app_on(db, grace_s=0.3)) as client:
        masha, alex = Person(client, "Masha"), Person(client, "Alex")
        tid = made(masha, game="kozel", players=2, options=SHORT, rounds=1)["id"]
        ok(masha.post(f"/api/tournaments/{tid}/join", json={}))
        ok(alex.post(f"/api/tournaments/{tid}/join", json={}))
        ok(masha.post(f"/api/tournaments/{tid}/start"))
        wait_until(lambda: tournament(masha, tid)["rounds_played"], 10)
        (pairing,) = tournament(masha, tid)["rounds_played"][0]["pairings"]
        seat = pairing["entries"].index(0)
        # Masha plays; Alex never opens the table
        with masha.ws(f"/ws/{pairing['table']}") as ws:
            end = play_until_end(ws, random.Random(5))
        assert end["ending"]["timeout"] == 1 - seat and end["ending"]["gone"] is True
        t = finished(masha, tid, 30)
    (pairing,) = t["rounds_played"][0]["pairings"]
    assert pairing["forfeit"] == [1]
    assert pairing["places"][seat] == 1 and pairing["places"][1 - seat] == 2
    assert t["standings"][0]["name"] == "Masha"


def test_a_restart_in_the_middle_of_a_round_loses_nothing(db: str) -> None:
    slow = Settings(unwatched_bot_delay_s=0.05, tournament_pause_s=0)
    app = make_app(db, bot_delay=0.05, settings=slow)
    with TestClient(app) as client:
        masha = Person(client, "Masha")
        tid = swiss_of_bots(masha, 4, options={"limit": 61})
        wait_until(lambda: tournament(masha, tid)["rounds_played"], 10)
        # some moves made, no match of the round over
        time.sleep(0.3)
        before = tournament(masha, tid)
    assert before["status"] == "playing"
    tables = [p["table"] for p in before["rounds_played"][0]["pairings"]]
    with TestClient(app_on(db)) as client:
        masha.client = client
        # the same round goes on at the same tables, and the tournament ends
        t = finished(masha, tid)
    assert [p["table"] for p in t["rounds_played"][0]["pairings"]] == tables
    assert [r["round"] for r in t["rounds_played"]] == [1, 2]
    assert all(p["places"] is not None for r in t["rounds_played"] for p in r["pairings"])
    assert t["entries"] == before["entries"]


def test_a_tournament_whose_process_died_is_taken_over_once_its_lease_expires(db: str) -> None:
    slow = Settings(unwatched_bot_delay_s=0.05, tournament_pause_s=0)
    with TestClient(make_app(db, bot_delay=0.05, settings=slow)) as client:
        masha = Person(client, "Masha")
        tid = swiss_of_bots(masha, 4, options={"limit": 61})
        wait_until(lambda: tournament(masha, tid)["rounds_played"], 10)
    # as if its process had been killed: another node's lease, about to expire
    storage = Storage(db)
    with storage.engine.begin() as connection:
        connection.execute(
            insert(Lease), {"table_id": f"t:{tid}", "node": "dead", "expires": time.time() + 3}
        )
    storage.close()
    quick = Settings(unwatched_bot_delay_s=0, tournament_pause_s=0, lease_s=1)
    with TestClient(make_app(db, settings=quick)) as client:
        masha.client = client
        club = client.app.state.club
        assert tid not in club.tournaments.directors
        t = finished(masha, tid)
    assert [r["round"] for r in t["rounds_played"]] == [1, 2]


@pytest.mark.parametrize(
    ("form", "entries"),
    [
        ({"format": "round_robin"}, 4),
        ({"format": "knockout"}, 5),
        ({"format": "arena", "duration_min": 0.05}, 4),
    ],
)
def test_every_format_is_played_through(db: str, form: dict[str, Any], entries: int) -> None:
    with TestClient(app_on(db)) as client:
        masha = Person(client, "Masha")
        tid = made(masha, game="kozel", players=2, options=SHORT, **form)["id"]
        ok(masha.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": entries}))
        ok(masha.post(f"/api/tournaments/{tid}/start"))
        t = finished(masha, tid)
    games = [p for r in t["rounds_played"] for p in r["pairings"] if not p["bye"]]
    assert games and all(p["places"] is not None for p in games)
    if form["format"] == "round_robin":
        met = {frozenset(p["entries"]) for p in games}
        assert len(met) == len(games) == entries * (entries - 1) // 2
    if form["format"] == "knockout":
        assert [s["out"] for s in t["standings"]].count(None) == 1
    given = sum(x for r in t["rounds_played"] for p in r["pairings"] for x in p["points"] or ())
    assert sum(s["points"] for s in t["standings"]) == pytest.approx(given)


def test_a_team_event_seats_each_pair_on_its_side(db: str) -> None:
    with TestClient(app_on(db)) as client:
        masha = Person(client, "Masha", "password-1")
        Person(client, "Petya", "password-2")
        # a 2x2 event of Kozel plays its team game (the option said or not)
        form = {"game": "kozel", "players": 4, "options": SHORT, "rounds": 1}
        tid = made(masha, teams=True, **form)["id"]
        refused(masha.post(f"/api/tournaments/{tid}/join", json={}), "partner_needed")
        refused(
            masha.post(f"/api/tournaments/{tid}/join", json={"partner": "Nobody"}), "no_partner"
        )
        ok(masha.post(f"/api/tournaments/{tid}/join", json={"partner": "Petya"}))
        ok(masha.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 1}))
        t = tournament(masha, tid)
        assert t["entries"][0]["name"] == "Masha & Petya"
        assert t["entries"][0]["members"] == ["Masha", "Petya"]
        ok(masha.post(f"/api/tournaments/{tid}/start"))
        wait_until(lambda: tournament(masha, tid)["rounds_played"], 10)
        (pairing,) = tournament(masha, tid)["rounds_played"][0]["pairings"]
        table = ok(masha.get(f"/api/tables/{pairing['table']}"))["table"]
    side = pairing["entries"].index(0)
    # partners sit opposite: seats side and side + 2
    assert [table["seats"][side]["name"], table["seats"][side + 2]["name"]] == ["Masha", "Petya"]
    assert all(table["seats"][s]["bot"] == "greedy" for s in (1 - side, 3 - side))


def test_the_file_exported_imports_to_the_same_standings(db: str) -> None:
    with TestClient(app_on(db)) as client:
        masha = Person(client, "Masha")
        tid = swiss_of_bots(masha, 3)
        t = finished(masha, tid)
        r = masha.get(f"/api/tournaments/{tid}/export")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        text = r.text
        assert '"bazar_tournament": 1' in text or '"bazar_tournament":1' in text
        r = upload(masha, text.encode())
        assert r.status_code == 201, r.text
        again = r.json()["tournament"]
        assert again["id"] != tid and again["status"] == "finished"
        assert again["standings"] == t["standings"]
        # a file whose record says otherwise than its places is refused
        refused(
            upload(masha, b'{"bazar_tournament": 1}'),
            "tournament_refused",
        )


def test_the_socket_sends_the_tournament_and_its_changes(db: str) -> None:
    with TestClient(app_on(db)) as client:
        masha, alex = Person(client, "Masha"), Person(client, "Alex")
        tid = made(masha, game="kozel", players=2, options=SHORT, rounds=1)["id"]
        with alex.ws(f"/ws/tournaments/{tid}") as ws:
            first = ws.receive_json()
            assert first["type"] == "tournament" and first["tournament"]["entries"] == []
            ok(alex.post(f"/api/tournaments/{tid}/join", json={}))
            changed = ws.receive_json()
            assert [e["name"] for e in changed["tournament"]["entries"]] == ["Alex"]
            assert changed["tournament"]["you"] == 0


def test_what_the_club_refuses(db: str) -> None:
    with TestClient(app_on(db)) as client:
        masha, alex, olya = Person(client, "Masha"), Person(client, "Alex"), Person(client)
        refused(olya.post("/api/tournaments", json={"game": "kozel"}), "login_first", 401)
        refused(masha.post("/api/tournaments", json={"format": "ladder"}), "tournament_format")
        refused(masha.post("/api/tournaments", json={"rated": True}), "rated_guest")
        tid = made(masha, game="kozel", players=2, rounds=1, access="invite")["id"]
        invite = tournament(masha, tid)["invite"]
        assert "invite" not in tournament(alex, tid)
        refused(alex.post(f"/api/tournaments/{tid}/join", json={}), "invitation")
        ok(alex.post(f"/api/tournaments/{tid}/join", json={"invite": invite}))
        refused(
            alex.post(f"/api/tournaments/{tid}/join", json={"invite": invite}),
            "tournament_entered",
        )
        refused(alex.post(f"/api/tournaments/{tid}/join", json={"partner": "X"}), "no_partner")
        refused(
            alex.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy"}),
            "tournament_owner",
        )
        refused(alex.post(f"/api/tournaments/{tid}/start"), "tournament_owner")
        refused(masha.post(f"/api/tournaments/{tid}/bots", json={"count": 1000}), "bots_count_form")
        # alone, it does not start
        refused(masha.post(f"/api/tournaments/{tid}/start"), "tournament_refused")
        ok(alex.post(f"/api/tournaments/{tid}/withdraw"))
        refused(alex.post(f"/api/tournaments/{tid}/withdraw"), "not_entered")
        refused(masha.get("/api/tournaments/nope"), "no_tournament", 404)
