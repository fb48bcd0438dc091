"""The club's schema and how a database comes to it: Alembic migrations, configured here in
code (no ``alembic.ini``), run by :class:`~bazar.club.storage.Storage` when it opens a database
and by ``bazar db upgrade``.

``versions/`` holds one file per revision, oldest first: ``0001`` is the schema the club made
with ``create_all`` before it had migrations, and each later one changes it by a step. A
database made by such an older club has the tables but no ``alembic_version``: the baseline
adds the tables it lacks and stamps it, and the later revisions go on from there.

One process at a time upgrades a database: on PostgreSQL under an advisory lock, on SQLite in
an exclusive transaction, so that a club's processes starting at once make one schema (the
others wait, then find it made).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

__all__ = ["FOLDER", "Unmigrated", "config", "head", "revision", "upgrade"]

log = logging.getLogger("bazar.club")

#: the folder of ``env.py`` and ``versions/`` (Alembic's script location)
FOLDER = Path(__file__).parent

#: the key of the PostgreSQL advisory lock an upgrade holds (any number the club alone uses)
LOCK = 0x62617A6172  # "bazar"

#: seconds a process waits for another's upgrade of the same SQLite file to finish
SQLITE_WAIT_S = 120.0


class Unmigrated(Exception):
    """A database whose schema this bazar cannot use as it is: behind the newest revision
    (``at``, None for one never migrated; ``bazar db upgrade`` brings it up), or at a
    revision this bazar does not know (``known`` false: a newer bazar's)."""

    def __init__(self, at: str | None, newest: str, known: bool = True) -> None:
        self.at, self.newest, self.known = at, newest, known
        if known:
            said = f"the database is at revision {at or 'none'}, behind {newest}"
        else:
            said = f"the database is at revision {at}, which this bazar (newest {newest}) lacks"
        super().__init__(said)


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration of the club, running its commands on ``connection``."""
    made = Config()
    made.set_main_option("script_location", str(FOLDER))
    made.attributes["connection"] = connection
    return made


@functools.cache
def _script() -> ScriptDirectory:
    return ScriptDirectory.from_config(config())


def head() -> str:
    """The newest revision."""
    newest = _script().get_current_head()
    assert newest is not None
    return newest


def revision(engine: Engine) -> str | None:
    """The revision the database of ``engine`` is at: None where it was never migrated
    (empty, or made by an older club's ``create_all``)."""
    with engine.connect() as connection:
        return _revision(connection)


def upgrade(engine: Engine, wait_s: float = SQLITE_WAIT_S) -> str | None:
    """Bring the database of ``engine`` to the newest revision, under the lock; the revision
    it was at before (None: never migrated). :class:`Unmigrated` where it is at a revision
    this bazar does not know. ``wait_s`` bounds the wait for another process's upgrade of a
    SQLite file (PostgreSQL's lock waits as long as it takes)."""
    with _locked(engine, wait_s) as connection:
        was = _revision(connection)
        if was == head():
            return was
        if was is None and inspect(connection).has_table("users"):
            log.info("the database has an older bazar's tables: adopting them (revision 0001)")
        command.upgrade(config(connection), "head")
        log.info("the database is upgraded from revision %s to %s", was or "none", head())
        return was


def _revision(connection: Connection) -> str | None:
    at = MigrationContext.configure(connection).get_current_revision()
    if at is not None and at not in {script.revision for script in _script().walk_revisions()}:
        raise Unmigrated(at, head(), known=False)
    return at


@contextmanager
def _locked(engine: Engine, wait_s: float) -> Iterator[Connection]:
    """A connection of ``engine`` in a transaction that holds the database's upgrade lock,
    committed when the block ends."""
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            kept = connection.exec_driver_sql("PRAGMA busy_timeout").scalar()
            connection.exec_driver_sql(f"PRAGMA busy_timeout = {round(wait_s * 1000)}")
            try:
                # the driver begins a transaction only before a write: begin it here, taking
                # the file's write lock before the revision is even read
                connection.exec_driver_sql("BEGIN EXCLUSIVE")
                yield connection
                connection.commit()
            finally:
                connection.exec_driver_sql(f"PRAGMA busy_timeout = {kept}")
            return
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK})
        # another kind of database is upgraded unlocked: start its processes one at a time
        yield connection
        connection.commit()
