"""The databases the server's storage is tested on: SQLite always, and PostgreSQL where
``BAZAR_TEST_PG`` names a database the tests may make schemas in."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PG = os.environ.get("BAZAR_TEST_PG")

# the tests' tables play their rounds one after another: the pause a table makes between
# rounds for its players to see the result is off unless a test sets it (Settings)
os.environ.setdefault("BAZAR_ROUND_PAUSE_S", "0")

DATABASES = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=pytest.mark.skipif(
            not PG, reason="BAZAR_TEST_PG is not set (a PostgreSQL URL to test on it too)"
        ),
    ),
]


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
    made = Databases(request.param, tmp_path)
    yield made
    made.drop()


@pytest.fixture
def db(databases: Databases) -> str:
    """A fresh database's URL, on each kind of database this run can reach."""
    return databases.new()
