"""Accounts under attack: password guessing, the event loop while passwords hash, sessions
that must end, and names that pass for someone else's (the real app on a real database)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from argon2.exceptions import VerificationError
from server_helpers import Person, TestClient, make_app

from bazar.server import auth
from bazar.server.settings import Settings


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
