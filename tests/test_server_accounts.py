"""Accounts under attack: password guessing, the event loop while passwords hash, sessions
that must end, and names that pass for someone else's (the real app on a real database)."""

from __future__ import annotations

import base64
import json
import random
import threading
import time
from typing import Any

import itsdangerous
import pytest
from argon2.exceptions import VerificationError
from server_helpers import SECRET, Driver, Person, TestClient, make_app, play_together

from bazar.club import auth, names
from bazar.club.settings import Settings


def refusal(response: Any) -> tuple[int, str]:
    return response.status_code, response.json().get("code")


# guessing passwords


def test_wrong_passwords_are_refused_after_a_few_until_the_window_passes(db: str) -> None:
    app = make_app(db, settings=Settings(login_tries=3, login_window_s=300))
    with TestClient(app) as client:
        Person(client, "Olya", "secret-1")
        start = time.monotonic()
        answers = [
            client.post("/api/login", json={"name": "Olya", "password": f"guess-{i}"})
            for i in range(80)
        ]
        third = time.monotonic()  # the three wrong tries were counted between the two
        codes = [refusal(r) for r in answers]
        assert codes[:3] == [(400, "wrong_login")] * 3
        assert codes[3:] == [(429, "too_many_tries")] * 77
        wait = answers[-1].json()["params"]["retry_after"]
        assert 1 <= wait <= 300 and answers[-1].headers["retry-after"] == str(wait)
        # the right password is not even checked until the window has passed: the club's
        # clock is moved on by hand, not waited for
        right = {"name": "Olya", "password": "secret-1"}
        tries = app.state.accounts.tries
        tries.clock = lambda: start + 299
        locked = client.post("/api/login", json=right)
        assert refusal(locked) == (429, "too_many_tries")
        assert locked.json()["params"]["retry_after"] >= 1
        tries.clock = lambda: third + 300.5
        assert client.post("/api/login", json=right).status_code == 200


def test_a_guesser_holds_up_neither_another_name_nor_another_address(db: str) -> None:
    app = make_app(db, settings=Settings(login_tries=3))
    with TestClient(app) as client:
        Person(client, "Olya", "secret-1")
        Person(client, "Petr", "secret-2")
        for i in range(5):
            client.post("/api/login", json={"name": "Olya", "password": f"guess-{i}"})
        # the guesser's address is held up, whatever name it tries
        there = client.post("/api/login", json={"name": "Petr", "password": "secret-2"})
        assert refusal(there) == (429, "too_many_tries")
        # another address logs in to another name, and its wrong password is only wrong
        elsewhere = TestClient(app, client=("10.9.8.7", 40000))
        assert elsewhere.post(
            "/api/login", json={"name": "Petr", "password": "secret-2"}
        ).is_success
        wrong = elsewhere.post("/api/login", json={"name": "Petr", "password": "nope-nope"})
        assert refusal(wrong) == (400, "wrong_login")
        # ... while the name that was guessed at is held up from everywhere
        olya = elsewhere.post("/api/login", json={"name": "Olya", "password": "secret-1"})
        assert refusal(olya) == (429, "too_many_tries")


def test_passwords_hash_in_a_small_pool_while_the_club_goes_on_answering(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(db, settings=Settings(hash_threads=2))
    release, lock = threading.Event(), threading.Lock()
    running: list[str] = []
    released: list[bool] = []

    class SlowHasher:
        hash = auth._hasher.hash

        def verify(self, password_hash: str, password: str) -> bool:
            with lock:
                running.append(threading.current_thread().name)
            released.append(release.wait(timeout=10))
            raise VerificationError("wrong")

    with TestClient(app) as client:
        Person(client, "Olya", "secret-1")
        monkeypatch.setattr(auth, "_hasher", SlowHasher())

        def guess(i: int) -> None:
            client.post("/api/login", json={"name": "Olya", "password": f"guess-{i}"})

        guessers = [threading.Thread(target=guess, args=(i,)) for i in range(4)]
        for thread in guessers:
            thread.start()
        try:
            for _ in range(1000):
                with lock:
                    if len(running) >= 2:
                        break
                release.wait(0.01)
            # two hashes are running, two wait for a thread: the club still answers
            assert client.get("/api/session").status_code == 200
            assert not released, "the session was answered only after a hash ended"
            with lock:
                assert len(running) == 2
        finally:
            release.set()
            for thread in guessers:
                thread.join()
    assert len(running) == 4
    assert all(name.startswith("bazar-hash") for name in running), running


# sessions


def test_a_cookie_copied_before_logout_is_refused_after_it(db: str) -> None:
    with TestClient(make_app(db)) as client:
        olya = Person(client, "Olya", "secret-1")
        copy = Person(client)
        copy.cookie = olya.cookie
        assert copy.get("/api/session").json()["user"]["name"] == "Olya"
        olya.post("/api/logout")
        assert copy.get("/api/session").json()["user"] is None
        assert copy.post("/api/tables", json={}).status_code == 401
        # a guest's session ends the same way
        masha = Person(client, "Masha")
        copy.cookie = masha.cookie
        masha.post("/api/logout")
        assert copy.get("/api/session").json()["user"] is None


def old_cookie(user_id: int) -> str:
    """The cookie a server before revocable sessions gave: the signed ``{"user": id}``."""
    data = base64.b64encode(json.dumps({"user": user_id}).encode())
    return itsdangerous.TimestampSigner(SECRET).sign(data).decode()


def test_an_old_cookie_becomes_a_session_once_and_its_copies_are_refused(db: str) -> None:
    with TestClient(make_app(db)) as client:
        olya = Person(client, "Olya", "secret-1")
        user_id = olya.get("/api/session").json()["user"]["id"]
        # upgrading the server logs nobody out: his browser's old cookie is a session now
        browser, copy = Person(client), Person(client)
        browser.cookie = copy.cookie = old_cookie(user_id)
        assert browser.get("/api/session").json()["user"]["name"] == "Olya"
        assert browser.cookie != copy.cookie
        # ... which he can end; a copy of the old cookie never comes back to life
        browser.post("/api/logout")
        assert browser.get("/api/session").json()["user"] is None
        assert copy.get("/api/session").json()["user"] is None
        # an old cookie naming nobody logs nobody in
        copy.cookie = old_cookie(10_000)
        assert copy.get("/api/session").json()["user"] is None


def test_a_new_password_ends_every_session_of_the_player(db: str) -> None:
    with TestClient(make_app(db)) as client:
        home = Person(client, "Olya", "secret-1")
        phone = Person(client)
        assert phone.post("/api/login", json={"name": "Olya", "password": "secret-1"}).is_success
        before = home.cookie
        wrong = home.post("/api/password", json={"old": "guessed", "new": "secret-2"})
        assert refusal(wrong) == (400, "wrong_password")
        assert phone.get("/api/session").json()["user"]["name"] == "Olya"
        changed = home.post("/api/password", json={"old": "secret-1", "new": "secret-2"})
        assert changed.status_code == 200, changed.text
        # this browser goes on in a new session; every other copy of a cookie is refused
        assert home.get("/api/session").json()["user"]["name"] == "Olya"
        assert phone.get("/api/session").json()["user"] is None
        old = Person(client)
        old.cookie = before
        assert old.get("/api/session").json()["user"] is None
        assert refusal(old.post("/api/login", json={"name": "Olya", "password": "secret-1"})) == (
            400,
            "wrong_login",
        )
        assert old.post("/api/login", json={"name": "Olya", "password": "secret-2"}).is_success
        guest = Person(client, "Masha")
        assert refusal(guest.post("/api/password", json={"old": "x", "new": "secret-3"})) == (
            400,
            "guest_password",
        )


# names


@pytest.mark.parametrize(
    ("taken", "alike"),
    [
        ("Alice", "alice"),
        ("Alice", "ALICE"),
        ("Alice", "\u0430lice"),  # a Cyrillic а
        ("Alice", "AIice"),  # a capital I for the l
        ("Alice", "  Alice "),
        ("Ivan", "ivan"),
        ("Kate", "\u041aate"),  # a Cyrillic К
        ("Olya", "0lya"),
    ],
)
def test_registered_names_are_unique_in_any_case_and_look_alike_letters(
    db: str, taken: str, alike: str
) -> None:
    with TestClient(make_app(db)) as client:
        Person(client, taken, "secret-1")
        again = client.post("/api/register", json={"name": alike, "password": "secret-2"})
        assert refusal(again) == (400, "name_taken")
        # a guest may not pass for the player either
        assert refusal(client.post("/api/guest", json={"name": alike})) == (400, "name_taken")
        # the database holds it too: two registrations at once cannot both have the name
        storage = client.app.state.storage  # type: ignore[attr-defined]
        assert storage.accounts.add_user(alike.strip(), "argon2-hash", names.keys(alike)) is None


def test_names_that_only_differ_are_free(db: str) -> None:
    with TestClient(make_app(db)) as client:
        for name in ("Alice", "Alina", "Alice 2", "Алиса"):
            assert Person(client, name, "secret-1").get("/api/session").json()["user"]["name"]
        # guests share names among themselves: they are marked as guests
        assert Person(client, "Masha").cookie and Person(client, "Masha").cookie


@pytest.mark.parametrize(
    "name",
    ["greedy bot 2", "Greedy Bot 2", "RANDOM", "ismcts bot 11", "pimc bot", "gr\u0435edy b0t 3"],
)
def test_bot_names_are_the_bots(db: str, name: str) -> None:
    with TestClient(make_app(db)) as client:
        said = client.post("/api/guest", json={"name": name})
        assert refusal(said) == (400, "name_reserved")
        said = client.post("/api/register", json={"name": name, "password": "secret-1"})
        assert refusal(said) == (400, "name_reserved")


def test_guests_are_marked_at_the_table_in_the_lobby_and_in_the_records(db: str) -> None:
    with TestClient(make_app(db)) as client:
        olya, masha = Person(client, "Olya", "secret-1"), Person(client, "Masha")
        tid = olya.create(game="kozel", players=2)["table"]["id"]
        masha.post(f"/api/tables/{tid}/join", json={})
        seats = [
            (s["name"], s["guest"]) for s in olya.get(f"/api/tables/{tid}").json()["table"]["seats"]
        ]
        assert seats == [("Olya", False), ("Masha", True)]
        lobby = olya.get("/api/tables").json()["tables"]
        assert [(s["name"], s["guest"]) for s in lobby[0]["seats"]] == seats
        with olya.ws(f"/ws/{tid}") as ws0, masha.ws(f"/ws/{tid}") as ws1:
            rng = random.Random(3)
            drivers = [Driver(ws0, rng), Driver(ws1, rng)]
            play_together(drivers)
        [record] = olya.get("/api/records").json()["records"]
        assert record["players"] == ["Olya", "Masha"] and record["summary"]["guests"] == [1]
        assert olya.get(f"/api/records/{tid}").json()["summary"]["guests"] == [1]
        # a guest alone with bots: only he is a guest
        bots = masha.create(game="kozel", players=3, bots="random")["table"]
        assert [s["guest"] for s in bots["seats"]] == [True, False, False]
