"""The services the club is tested on: SQLite databases always, PostgreSQL where
``BAZAR_TEST_PG`` names a database the tests may make schemas in, and a Redis server of the
run's own where ``redis-server`` is installed.

A test that needs a service it cannot reach skips on a developer's machine, and fails where
``BAZAR_TEST_SERVICES=required`` (``.ci/run`` sets it once it has set them up): a test that
needs a service never passes by not running."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

PG = os.environ.get("BAZAR_TEST_PG")
#: whether a test that cannot reach its service fails instead of skipping (CI)
REQUIRED = os.environ.get("BAZAR_TEST_SERVICES") == "required"

# the tests' tables play their rounds one after another: the pause a table makes between
# rounds for its players to see the result is off unless a test sets it (Settings)
os.environ.setdefault("BAZAR_ROUND_PAUSE_S", "0")

DATABASES = ["sqlite", "postgresql"]


def unreachable(reason: str, required: bool = REQUIRED) -> NoReturn:
    """The test's service cannot be reached: it fails where services are ``required``, else
    skips, saying why."""
    if required:
        pytest.fail(f"{reason}, and this run requires it (BAZAR_TEST_SERVICES=required)")
    pytest.skip(reason)


class Databases:
    """Empty databases for one test: SQLite files in its folder, or schemas of the
    ``BAZAR_TEST_PG`` database, dropped after the test."""

    def __init__(self, kind: str, folder: Path) -> None:
        self.kind, self.folder = kind, folder
        self.made: list[str] = []
        self.admin: Any = None

    def new(self) -> str:
        """The URL of one more empty database."""
        name = f"club{len(self.made)}_{secrets.token_hex(4)}"
        self.made.append(name)
        if self.kind == "sqlite":
            return f"sqlite:///{self.folder / name}.sqlite3"
        from sqlalchemy import create_engine, text

        from bazar.club.storage import engine_url

        assert PG is not None
        url = engine_url(PG)
        if self.admin is None:
            self.admin = create_engine(url)
        with self.admin.begin() as connection:
            connection.execute(text(f"CREATE SCHEMA {name}"))
        schema = url.update_query_dict({"options": f"-csearch_path={name}"})
        return str(schema.render_as_string(hide_password=False))

    def drop(self) -> None:
        if self.admin is None:
            return
        from sqlalchemy import text

        with self.admin.begin() as connection:
            # a connection a club left inside a transaction would hold its tables: fail, not hang
            connection.execute(text("SET lock_timeout = '10s'"))
            for name in self.made:
                connection.execute(text(f"DROP SCHEMA {name} CASCADE"))
        self.admin.dispose()


@pytest.fixture(params=DATABASES)
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Databases]:
    if request.param == "postgresql" and not PG:
        unreachable("BAZAR_TEST_PG is not set (a PostgreSQL URL to test on it too)")
    made = Databases(request.param, tmp_path)
    yield made
    made.drop()


@pytest.fixture
def db(databases: Databases) -> str:
    """A fresh database's URL, on each kind of database this run can reach."""
    return databases.new()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Redis server of this test run (Debian's ``redis-server``, on a free loopback
    port, keeping nothing on disk), as ``redis://127.0.0.1:PORT``. Where it is not installed
    the tests that need it skip, but they fail in CI (``CI`` set, or ``BAZAR_TEST_SERVICES``:
    ``.ci/run`` installs it)."""
    import shutil
    import subprocess
    import time

    binary = shutil.which("redis-server")
    if binary is None:
        unreachable(
            "redis-server is not installed (apt-get install redis-server)",
            required=REQUIRED or bool(os.environ.get("CI")),
        )
    port = _free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    import redis

    client = redis.Redis.from_url(url)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if process.poll() is not None:
                pytest.fail(f"redis-server exited with {process.returncode}")
            time.sleep(0.05)
    else:
        process.kill()
        pytest.fail("redis-server did not answer within 5 s")
    client.close()
    yield url
    process.terminate()
    process.wait(10)


@pytest.fixture
def redis_url(redis_server: str) -> Iterator[str]:
    """The test run's Redis server, emptied before the test."""
    import redis

    client = redis.Redis.from_url(redis_server)
    client.flushall()
    client.close()
    yield redis_server


#: what the browser tests say when they skip for want of Chromium (test_web_*.py and the
#: browser tests of the server); the run's summary says it once for all of them
NO_CHROMIUM = "Chromium is not installed"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line at the end of a run whose browser tests skipped without Chromium, saying how
    to get it (the skips themselves are one per file, and ``-q`` lists none)."""
    skipped = terminalreporter.stats.get("skipped", [])
    files = {r.nodeid.split("::")[0] for r in skipped if NO_CHROMIUM in str(r.longrepr)}
    if files:
        terminalreporter.write_line(
            f"{len(files)} browser test files skipped: they need Chromium at /usr/bin/chromium"
            " (apt-get install chromium)",
            yellow=True,
        )
