"""The club against its abusers: rematches nobody can force on a former opponent, quotas of
guests and tables, options bounded to matches that end, and no match of bots alone. The
real app on a real database (``db``: SQLite, and PostgreSQL where the run has one)."""

from __future__ import annotations

import secrets
import time
from typing import Any

from server_helpers import Person, TestClient, events_of, make_app, wait_until

from bazar.club.settings import Settings
from bazar.club.storage import RecordRow, TableRow

GRACE = 0.3


def refusal(response: Any) -> tuple[int, str]:
    return response.status_code, response.json().get("code")


def rated_match_ended(client: TestClient, club: Any) -> tuple[Person, Person, str]:
    """Masha and Alex sit down at a rated table and go away: the grace ends it (rated, a
    player gone interrupts the match) without a move to play."""
    masha = Person(client, "Masha", "password-1")
    alex = Person(client, "Alex", "password-2")
    tid = masha.create(game="kozel", players=2, rated=True)["table"]["id"]
    assert alex.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    wait_until(lambda: club.storage.tables.table(tid).status == "finished")
    return masha, alex, tid


# rematches (online-club.md §2: a rematch seats only the players who accept it)


def test_a_rematch_seats_only_the_players_who_accept_it(db: str) -> None:
    app = make_app(db, grace_s=GRACE)
    club = app.state.club
    with TestClient(app) as client:
        masha, alex, tid = rated_match_ended(client, club)
        olya = Person(client, "Olya", "password-3")
        with alex.ws(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "v": 0})
            assert ws.receive_json()["type"] == "sync"
            new = masha.post(f"/api/tables/{tid}/rematch").json()["table"]
            # Masha alone sits at the new table; Alex's seat waits for him, and he hears so
            assert new["status"] == "open" and new["rated"]
            seats = [s and s["name"] for s in new["seats"]]
            alex_seat = seats.index(None)
            assert seats[1 - alex_seat] == "Masha"
            assert new["reserved"] == [{"seat": alex_seat, "name": "Alex"}]
            for _ in range(100):
                message = ws.receive_json()
                if message["type"] == "notice" and message["event"]["t"] == "rematch":
                    break
            assert message["event"]["table"] == new["id"]
            assert message["table"]["ending"]["rematch"] == new["id"]
        # nobody else may take Alex's seat, nor ask for a rematch of a table he did not play
        r = olya.post(f"/api/tables/{new['id']}/join", json={"seat": alex_seat})
        assert refusal(r) == (400, "seat_reserved")
        assert refusal(olya.post(f"/api/tables/{new['id']}/join", json={})) == (
            400,
            "no_free_seat",
        )
        assert refusal(olya.post(f"/api/tables/{tid}/rematch")) == (400, "rematch_player")
        # Masha asking again makes no other table
        again = masha.post(f"/api/tables/{tid}/rematch").json()["table"]
        assert again["id"] == new["id"] and again["status"] == "open"
        # Alex accepts: the same call seats him at the same table, and the match starts
        accepted = alex.post(f"/api/tables/{tid}/rematch").json()["table"]
        assert accepted["id"] == new["id"]
        assert accepted["status"] == "playing"
        assert [s["name"] for s in accepted["seats"]] == [
            s["name"] for s in masha.get(f"/api/tables/{tid}").json()["table"]["seats"]
        ]
        assert alex.post(f"/api/tables/{tid}/rematch").json()["table"]["id"] == new["id"]
        with club.storage.session() as session:
            assert session.query(TableRow).count() == 2


def test_a_finished_table_gives_no_rematch_after_its_window(db: str) -> None:
    window = 0.5
    app = make_app(db, grace_s=GRACE, rematch_window_s=window)
    club = app.state.club
    with TestClient(app) as client:
        masha, _, tid = rated_match_ended(client, club)
        ended = time.monotonic()
        wait_until(lambda: time.monotonic() > ended + 2 * window)
        assert refusal(masha.post(f"/api/tables/{tid}/rematch")) == (400, "rematch_closed")
    # a day later the club rebuilds the table from its moves: still no rematch of it
    with club.storage.session() as session:
        session.get(RecordRow, tid).created -= 86_400
        session.commit()
    with TestClient(make_app(db)) as client:
        masha.client = client
        assert refusal(masha.post(f"/api/tables/{tid}/rematch")) == (400, "rematch_closed")
        with club.storage.session() as session:
            assert session.query(TableRow).count() == 1


# quotas


def test_one_address_makes_a_few_guests_an_hour(db: str) -> None:
    with TestClient(make_app(db, settings=Settings(guests_per_address=3))) as client:
        for n in range(3):
            Person(client, f"Guest {n}")
        r = Person(client).post("/api/guest", json={"name": "Guest 4"})
        assert refusal(r) == (429, "too_many_guests")
        params = r.json()["params"]
        assert params["limit"] == 3 and 1 <= params["retry_after"] <= 3600


def test_one_player_owns_a_few_tables_at_once(db: str) -> None:
    quota = Settings(open_tables_per_user=2, unwatched_bot_delay_s=0)
    app = make_app(db, grace_s=GRACE, settings=quota)
    club = app.state.club
    with TestClient(app) as client:
        masha = Person(client, "Masha")
        first = masha.create(game="kozel", players=2)["table"]["id"]
        masha.create(game="kozel", players=2, bots="random")
        assert refusal(masha.post("/api/tables", json={"game": "kozel"})) == (
            429,
            "too_many_tables",
        )
        # a table given up, or over, is none of them
        assert masha.post(f"/api/tables/{first}/leave").status_code == 200
        third = masha.create(game="kozel", players=2, bots="random")["table"]["id"]
        wait_until(lambda: club.storage.tables.table(third).status == "finished", 60)
        assert masha.post("/api/tables", json={"game": "kozel"}).status_code == 200


def test_the_lobby_lists_the_open_tables_however_many_have_finished(db: str) -> None:
    app = make_app(db)
    storage = app.state.storage
    with TestClient(app) as client:
        masha = Person(client, "Masha")
        tid = masha.create(game="kozel", players=2)["table"]["id"]
        later = time.time() + 1
        for n in range(201):
            storage.tables.add_table(
                TableRow(
                    id=secrets.token_urlsafe(8),
                    game="kozel",
                    options={"players": 2},
                    seats=[None, None],
                    owner=0,
                    invite="x",
                    status="finished",
                    seed=n,
                    created=later + n,
                )
            )
        assert [t["id"] for t in masha.get("/api/tables").json()["tables"]] == [tid]


# tables nobody sits at


def test_the_last_player_to_leave_a_table_closes_it(db: str) -> None:
    app = make_app(db)
    club = app.state.club
    with TestClient(app) as client:
        masha, alex = Person(client, "Masha"), Person(client, "Alex")
        tid = masha.create(game="kozel", players=3)["table"]["id"]
        assert alex.post(f"/api/tables/{tid}/join", json={}).status_code == 200
        # the owner leaves: the table is Alex's, who may call the bots
        assert masha.post(f"/api/tables/{tid}/leave").status_code == 200
        assert refusal(masha.post(f"/api/tables/{tid}/bots", json={})) == (400, "owner_bots")
        with alex.ws(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "v": 0})
            assert ws.receive_json()["type"] == "sync"
            assert alex.post(f"/api/tables/{tid}/leave").status_code == 200
            assert ws.receive_json()["event"]["t"] == "closed"
        # ... and nobody can start a match of bots at it
        assert refusal(alex.post(f"/api/tables/{tid}/bots", json={})) == (400, "no_table")
        assert refusal(alex.get(f"/api/tables/{tid}")) == (400, "no_table")
        assert alex.get("/api/tables").json()["tables"] == []
        assert tid not in club.tables


def test_bots_never_sit_down_at_a_table_without_people(db: str) -> None:
    app = make_app(db)
    storage = app.state.storage
    with TestClient(app) as client:
        masha = Person(client, "Masha")
        owner = masha.get("/api/session").json()["user"]["id"]
        # a table nobody sits at (a club before this rule could leave one)
        storage.tables.add_table(
            TableRow(
                id="empty",
                game="kozel",
                options={"players": 2},
                seats=[None, None],
                owner=owner,
                invite="x",
                status="open",
                seed=1,
            )
        )
        assert refusal(masha.post("/api/tables/empty/bots", json={})) == (400, "bots_alone")
        assert storage.tables.table("empty").status == "open"


def test_a_match_bots_play_alone_for_a_grace_is_interrupted(db: str) -> None:
    app = make_app(db, grace_s=GRACE)
    club = app.state.club
    with TestClient(app) as client:
        masha = Person(client, "Masha")
        tid = masha.create(game="kozel", players=4, bots="random")["table"]["id"]
        # Masha never comes: a bot takes her seat after the grace, and bots alone play on
        wait_until(lambda: club.storage.tables.table(tid).status == "finished", 60)
        info = masha.get(f"/api/tables/{tid}").json()["table"]
        assert info["ending"] == {"deserted": True}
        assert info["seats"][0]["why"] == "gone"
        assert masha.get(f"/api/records/{tid}").status_code == 200
        # a restart rebuilds the same end
        with masha.ws(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "v": 0})
            (end,) = [e for e in events_of(ws.receive_json()) if e["t"] == "match_end"]
            assert end["ending"] == {"deserted": True} and end["winners"] == []


def test_the_bots_of_a_table_nobody_watches_take_their_time(db: str) -> None:
    pause = 0.25
    app = make_app(db, grace_s=1.0, settings=Settings(unwatched_bot_delay_s=pause))
    club = app.state.club
    with TestClient(app) as client:
        masha = Person(client, "Masha")
        began = time.monotonic()
        tid = masha.create(game="kozel", players=4, bots="random")["table"]["id"]
        # Masha never comes: bots play without her until her grace, then for her one more
        wait_until(lambda: club.storage.tables.table(tid).status == "finished", 60)
        took = time.monotonic() - began
        made = len(club.storage.tables.moves(tid))
        # at most one move per pause, however fast or slow the machine (at the club's bot
        # delay, here none, a whole match takes well under a second)
        assert 0 < made <= took / pause + 1, (made, took)


# options


def test_a_table_is_played_to_marks_a_match_can_reach(db: str) -> None:
    with TestClient(make_app(db, settings=Settings(open_tables_per_user=10))) as client:
        masha = Person(client, "Masha")
        too_far = [
            ("block", {"target": 10**18}),
            ("block", {"target": 1001}),
            ("kozel", {"limit": 5000}),
            ("poker", {"deals": 10**6}),
            ("kolbasa", {"max_reveals": 10**9}),
            ("fives", {"target": 1e300}),
        ]
        for game, options in too_far:
            r = masha.post("/api/tables", json={"game": game, "options": options})
            assert refusal(r) == (400, "option_range"), (game, options, r.text)
            (name,) = options
            assert r.json()["params"]["option"] == name
        # JSON's 1e999 reads as infinity
        form = b'{"game": "fives", "options": {"target": 1e999}}'
        headers = {**masha._headers(), "content-type": "application/json"}
        r = client.post("/api/tables", content=form, headers=headers)
        assert refusal(r) == (400, "option_range")
        assert masha.get("/api/tables").json()["tables"] == []
        for game, options in [("block", {"target": 1000}), ("poker", {"deals": 100})]:
            assert masha.post("/api/tables", json={"game": game, "options": options}).json()
        assert len(masha.get("/api/tables").json()["tables"]) == 2
