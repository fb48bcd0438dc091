"""Helpers for the server tests: a club on a real SQLite file, players on websockets."""

from __future__ import annotations

import contextlib
import json
import random
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

with warnings.catch_warnings():
    # Starlette would rather have httpx2; httpx is what every platform has today
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from bazar.club import create_app
from bazar.club.settings import Settings
from bazar.core.play import forced

SECRET = "test-secret"
#: the content type of every body posted to the API
JSON = {"content-type": "application/json"}
#: a club whose clocks run out within a test (the form offers 15 seconds and more)
QUICK_CLOCKS = Settings(move_times=(1, 2, 3, 30))

#: the drivers answer bots that do not wait at once, hundreds of messages a second: far past
#: the pace of people, which the socket's rate limit is for (its own tests set it); and they
#: look at no round's result, so no table pauses between rounds for them (its tests set it)
DRIVERS_PACE = {"messages_per_s": 1e6, "message_burst": 1_000_000, "round_pause_s": 0}


def driven(settings: Settings | None = None) -> Settings:
    """``settings`` (else the defaults) with the drivers' pace, where they do not set one."""
    settings = settings or Settings()
    pace = {k: v for k, v in DRIVERS_PACE.items() if k not in settings.model_fields_set}
    return settings.model_copy(update=pace)


def make_app(db: str, bot_delay: float = 0.0, **options: Any) -> Any:
    options["settings"] = driven(options.get("settings"))
    return create_app(db, secret=SECRET, bot_delay=bot_delay, **options)


@contextlib.contextmanager
def served(app: Any) -> Iterator[str]:
    """``app`` under uvicorn on a free loopback port (on a thread of this process), as
    ``http://127.0.0.1:PORT``: what a stranger on the internet would reach (real sockets,
    where a client that does not read holds the server back as on the internet)."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: server.started, 30)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def guest(client: TestClient, name: str) -> dict[str, Any]:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    return r.json()["user"]


def create(client: TestClient, **form: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json=form)
    assert r.status_code == 200, r.text
    return r.json()


def wait_until(condition: Any, seconds: float = 10.0) -> None:
    """Wait for ``condition()`` to hold (the server runs on its own thread)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.01)


def is_forced(view: dict[str, Any]) -> bool:
    legal = view["legal"]
    return len(legal) == 1 and legal[0] in ("draw", "pass")


def settled(table: Any) -> bool:
    """Whether ``table`` waits for a person: the seat to move is no bot's and has a choice
    (a lone draw or pass the table makes itself). Read from the test's thread, it may hold
    while the table is still announcing the move that led there; :func:`until_pong` hears
    the rest."""
    match = table.match  # a copy the table never changes: one position throughout
    if match is None or match.turn is None or match.turn in table.state.bots:
        return False
    return forced(match.legal_moves()) is None


def until_pong(ws: Any) -> list[dict[str, Any]]:
    """What a socket is sent before the answer to a ping sent now. The ping is read on the
    table's event loop between two of its steps, and one step announces a move with the
    rounds it ended and dealt: once the table is :func:`settled`, the pong comes after all
    it has announced."""
    ws.send_json({"type": "ping"})
    said = []
    while (message := ws.receive_json())["type"] != "pong":
        said.append(message)
    return said


def events_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    if message["type"] == "sync":
        return list(message["events"])
    if message["type"] == "event":
        return [message["event"]]
    return []


class Driver:
    """A seat's client: answers its latest view with a random legal move (once per version;
    again after an error, since the move may have been based on a stale view)."""

    def __init__(self, ws: Any, rng: random.Random, log: list[dict[str, Any]] | None = None):
        self.ws, self.rng, self.log = ws, rng, log
        self.view: dict[str, Any] | None = None
        self.v = 0
        self.answered: int | None = None
        self.end: dict[str, Any] | None = None
        ws.send_json({"type": "hello", "v": 0})

    def step(self) -> None:
        """Read one message and answer it if this seat must choose."""
        message = self.ws.receive_json()
        if self.log is not None:
            self.log.append(message)
        for event in events_of(message):
            if event["t"] == "match_end":
                self.end = event
        if message["type"] in ("sync", "event", "table"):
            self.view = message.get("view")
            self.v = message.get("v", self.v)
        elif message["type"] == "error":
            self.answered = None
        view = self.view
        must_choose = self.end is None and view and view["legal"] and not is_forced(view)
        if must_choose and self.answered != self.v:
            self.answered = self.v
            move = self.rng.choice(view["legal"])
            self.ws.send_json({"type": "move", "move": move, "v": self.v})


def play_until_end(
    ws: Any, rng: random.Random, log: list[dict[str, Any]] | None = None, limit: int = 20_000
) -> dict[str, Any]:
    """Play this seat with random moves until the match ends; return the match_end event.
    Every message received is appended to ``log``."""
    driver = Driver(ws, rng, log)
    for _ in range(limit):
        driver.step()
        if driver.end is not None:
            return driver.end
    raise AssertionError("the match did not end")


def play_together(drivers: list[Driver], limit: int = 50_000) -> None:
    """Several seats at one table, each on its own thread (as separate browsers would be),
    until every one of them saw the end."""
    errors: list[BaseException] = []

    def run(driver: Driver) -> None:
        try:
            for _ in range(limit):
                driver.step()
                if driver.end is not None:
                    return
            raise AssertionError("the match did not end")
        except BaseException as error:  # reported on the main thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(d,)) for d in drivers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


class Person:
    """One browser: its own session cookie, sharing the app's single test client (one event
    loop, as under uvicorn)."""

    def __init__(self, client: TestClient, name: str | None = None, password: str | None = None):
        self.client = client
        self.cookie = ""
        if name is not None:
            path = "/api/register" if password else "/api/guest"
            r = self.post(path, json={"name": name, "password": password})
            assert r.status_code == 200, r.text

    def _headers(self) -> dict[str, str]:
        return {"cookie": f"bazar={self.cookie}"} if self.cookie else {}

    def _keep(self, response: Any) -> Any:
        value = response.cookies.get("bazar")
        if value:
            self.cookie = value
        self.client.cookies.clear()
        return response

    def get(self, url: str) -> Any:
        return self._keep(self.client.get(url, headers=self._headers()))

    def post(self, url: str, **kw: Any) -> Any:
        headers = {**self._headers(), **kw.pop("headers", {})}
        return self._keep(self.client.post(url, headers=headers, **kw))

    def ws(self, url: str) -> Any:
        return self.client.websocket_connect(url, headers=self._headers())

    def create(self, **form: Any) -> dict[str, Any]:
        r = self.post("/api/tables", json=form)
        assert r.status_code == 200, r.text
        return r.json()


class JsonSocket:
    """A real websocket (the ``websockets`` package's sync client) with the test client's
    JSON calls, so that :class:`Driver` plays over it; each wait is bounded by ``wait``."""

    def __init__(self, ws: Any, wait: float = 30.0) -> None:
        self.ws = ws
        self.wait = wait

    def send_json(self, data: Any) -> None:
        self.ws.send(json.dumps(data))

    def receive_json(self) -> Any:
        return json.loads(self.ws.recv(timeout=self.wait))


# every word the page shows that the browser broke across lines, cut short or let run out of
# its box (a geometric check: each word's boxes, Range.getClientRects, against the lines and
# the box that clips it); a word may break only after a hyphen, a dash or a slash, and a text
# may be cut only on its one line where its element names it whole (a long name's title)
BROKEN_WORDS = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const clipOf = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.overflowX === "hidden" || s.overflowX === "clip") return e;
    }
    return null;
  };
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !el.getClientRects().length) continue;
    if (el.closest("svg, script, style, select, .sr-only, [aria-hidden=true], [hidden]")) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== "visible") continue;
    const clip = clipOf(el);
    const box = clip && clip.getBoundingClientRect();
    // a text cut with an ellipsis or clamped to some lines, unless its element names it whole
    const cutter = clip && (getComputedStyle(clip).textOverflow === "ellipsis"
      || getComputedStyle(clip).webkitLineClamp !== "none");
    const named = clip && clip.title && clip.title === clip.textContent.trim()
      && getComputedStyle(clip).webkitLineClamp === "none";
    if (cutter && !named && (clip.scrollWidth > clip.clientWidth + 1
        || clip.scrollHeight > clip.clientHeight + 1)) {
      found.push(`cut short: ${JSON.stringify(clip.textContent.trim().slice(0, 60))}`);
    }
    for (const m of n.data.matchAll(/[^\\s\\u00a0\\u202f\\u2009\\-\\u2010-\\u2014\\/]+/g)) {
      if (m[0].length < 2) continue;
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0.5);
      if (!rects.length) continue;
      const tops = rects.map((r) => r.top);
      const word = JSON.stringify(m[0]) + " in " + JSON.stringify(n.data.trim().slice(0, 50));
      // a string longer than any line its box can hold (a hash) may break where it must
      let block = el;
      while (block.parentElement && getComputedStyle(block).display.startsWith("inline")) {
        block = block.parentElement;
      }
      const long = rects.reduce((w, r) => w + r.width, 0) > block.clientWidth - 1;
      if (Math.max(...tops) - Math.min(...tops) > 2 && !long) found.push(`broken: ${word}`);
      if (box) {
        const r = rects[rects.length - 1];
        if (r.left < box.right - 1 && r.right > box.right + 1 && !named) {
          found.push(`cut: ${word}`);
        }
      }
    }
  }
  return [...new Set(found)];
}"""
