"""Helpers for the tests of a club of several processes: each a real ``uvicorn`` server in
its own operating-system process, on one database, meeting at one real Redis server; people
as real HTTP and websocket clients that a load balancer could send to any process."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Driver, JsonSocket
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]

SERVER = """
import sys, uvicorn
from bazar.club import create_app
app = create_app(sys.argv[1], bot_delay=float(sys.argv[3]))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""

#: the limits of the clubs these tests start: quick leases, no pause between rounds, and
#: drivers that answer at once far past the rate a person sends at
LIMITS = {
    "BAZAR_LEASE_S": "2",
    "BAZAR_ROUND_PAUSE_S": "0",
    "BAZAR_MESSAGES_PER_S": "1000000",
    "BAZAR_MESSAGE_BURST": "1000000",
    "BAZAR_OPEN_TABLES_PER_USER": "1000",
    "BAZAR_GUESTS_PER_ADDRESS": "100000",
    "BAZAR_UNWATCHED_BOT_DELAY_S": "0",
}

#: seconds any wait of these tests may last
WAIT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Process:
    """One process of the club: ``bazar``'s app under uvicorn on its own port."""

    def __init__(
        self,
        db: str,
        redis: str | None,
        log: Path,
        bot_delay: float = 0.0,
        **limits: str,
    ) -> None:
        self.db, self.redis, self.log, self.bot_delay = db, redis, log, bot_delay
        self.limits = limits
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Process:
        env = {**os.environ, **LIMITS, **self.limits, "PYTHONPATH": str(ROOT)}
        env.pop("BAZAR_REDIS_URL", None)
        if self.redis is not None:
            env["BAZAR_REDIS_URL"] = self.redis
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-c", SERVER, self.db, str(self.port), str(self.bot_delay)],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + WAIT
        while True:
            assert self.process.poll() is None, f"the server exited: {self.log.read_text()}"
            try:
                if httpx.get(f"{self.base}/api/tables", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def kill(self) -> None:
        """kill -9: nothing of it runs any more, nothing it held is given up."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(WAIT)

    def drain(self) -> int:
        """Stop it as a deployment does (SIGTERM): its exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(WAIT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(WAIT)

    def failures(self) -> list[str]:
        """The lines of its log that tell of a failure (a table's actor that failed, a move
        stored twice, anything unhandled)."""
        said = self.log.read_text(errors="replace").splitlines()
        bad = ("Traceback", "IntegrityError", "UNIQUE constraint", "duplicate key", " failed")
        return [line for line in said if any(b in line for b in bad)]


class Person:
    """A browser: its session cookie, which any process knows (the sessions are in the
    database), and the process its next request goes to."""

    def __init__(self, base: str, name: str) -> None:
        r = httpx.post(f"{base}/api/guest", json={"name": name}, timeout=WAIT)
        assert r.status_code == 200, r.text
        self.cookie = r.cookies["bazar"]
        self.id = r.json()["user"]["id"]

    def headers(self) -> dict[str, str]:
        return {"cookie": f"bazar={self.cookie}"}

    def post(self, base: str, path: str, **body: Any) -> Any:
        r = httpx.post(f"{base}{path}", json=body, headers=self.headers(), timeout=WAIT)
        assert r.status_code == 200, r.text
        return r.json()

    def get(self, base: str, path: str) -> Any:
        r = httpx.get(f"{base}{path}", headers=self.headers(), timeout=WAIT)
        assert r.status_code == 200, r.text
        return r.json()

    def ws(self, base: str, table: str) -> ClientConnection:
        url = base.replace("http", "ws") + f"/ws/{table}"
        return connect(url, additional_headers=self.headers(), open_timeout=WAIT)


class Seat(threading.Thread):
    """A person playing his seat with random legal moves on his own thread, until the match
    ends: each time his socket closes he comes again, to the process ``where()`` names then
    (as a page does, through the load balancer). ``logs`` holds what each socket heard."""

    def __init__(self, person: Person, table: str, where: Any, seed: int) -> None:
        super().__init__(daemon=True)
        import random

        self.person, self.table, self.where = person, table, where
        self.rng = random.Random(seed)
        self.logs: list[list[dict[str, Any]]] = []
        self.end: dict[str, Any] | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        deadline = time.monotonic() + 3 * WAIT
        try:
            while self.end is None:
                assert time.monotonic() < deadline, "the match did not end"
                log: list[dict[str, Any]] = []
                self.logs.append(log)
                try:
                    with self.person.ws(self.where(), self.table) as connection:
                        driver = Driver(JsonSocket(connection, WAIT), self.rng, log)
                        while driver.end is None:
                            driver.step()
                        self.end = driver.end
                except (ConnectionClosed, OSError, TimeoutError):
                    time.sleep(0.3)
        except BaseException as error:  # reported on the test's thread
            self.error = error

    def result(self) -> dict[str, Any]:
        self.join(3 * WAIT + 10)
        if self.error is not None:
            raise self.error
        assert self.end is not None
        return self.end

    def events(self) -> list[dict[str, Any]]:
        """Every event of the table, as his last socket's sync and events told them."""
        last = self.logs[-1]
        events: list[dict[str, Any]] = []
        for message in last:
            if message["type"] == "sync":
                events = events[: message["v"] - len(message["events"])] + message["events"]
            elif message["type"] == "event":
                events.append(message["event"])
        return events

    def heard(self) -> int:
        """How many moves he has heard of so far (on any socket)."""
        return sum(
            1
            for log in list(self.logs)
            for message in list(log)
            if message["type"] == "event" and message["event"]["t"] == "move"
        )


def moves_of(events: list[dict[str, Any]]) -> list[str]:
    return [e["move"] for e in events if e["t"] == "move"]


def commitments(events: list[dict[str, Any]]) -> dict[int, str]:
    """Each round's deal commitment, by its number."""
    return {e["number"]: e["seed_hash"] for e in events if e["t"] == "round_start"}


def dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True)
