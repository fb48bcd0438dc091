"""Persistence: the club's database (SQLAlchemy), a store per aggregate of it.

- :mod:`~bazar.club.storage.accounts`: the players, their names, their sessions, the club's
  own settings;
- :mod:`~bazar.club.storage.tables`: the tables, their moves and the leases of the processes
  that run them;
- :mod:`~bazar.club.storage.records`: the records of finished matches and the people's seats
  in them;
- :mod:`~bazar.club.storage.tournaments`: the tournaments;
- :mod:`~bazar.club.storage.ratings`: the players' skills and Kozel points.

Each store is a class over the engine and sessions of one :class:`Storage`, behind a
``Protocol`` that is what its users type (:class:`AccountStore`, :class:`TableStore`...), and
:class:`Storage` opens the database and holds one of each. A write that spans aggregates is
one transaction still: the end of a match is the tables' :meth:`SqlTables.finish_match`, whose
``settle`` adds the record and the ratings to its session. The models are in
:mod:`~bazar.club.storage.models`, the writes off the event loop in
:mod:`~bazar.club.storage.writers`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.orm import sessionmaker

from .. import migrations
from .accounts import SESSION_SEEN_S, AccountStore, SqlAccounts
from .models import (
    AnalysisRow,
    Base,
    Lease,
    MoveRow,
    NameRow,
    Played,
    Rating,
    RecordRow,
    SessionRow,
    Setting,
    TableRow,
    TournamentRow,
    User,
)
from .ratings import KOZEL, RatingStore, SqlRatings
from .records import RecordStore, SqlRecords
from .tables import TOURNAMENT_LEASE, Fence, LeaseLost, SqlTables, TableStore
from .tournaments import SqlTournaments, TournamentStore
from .writers import NotStored, Writers, stored

__all__ = [
    "KOZEL",
    "SESSION_SEEN_S",
    "TOURNAMENT_LEASE",
    "AccountStore",
    "AnalysisRow",
    "Base",
    "Fence",
    "Lease",
    "LeaseLost",
    "MoveRow",
    "NameRow",
    "NotStored",
    "Played",
    "Rating",
    "RatingStore",
    "RecordRow",
    "RecordStore",
    "SessionRow",
    "Setting",
    "SqlAccounts",
    "SqlRatings",
    "SqlRecords",
    "SqlTables",
    "SqlTournaments",
    "Storage",
    "Stores",
    "TableRow",
    "TableStore",
    "TournamentRow",
    "TournamentStore",
    "User",
    "Writers",
    "default_db_url",
    "engine_url",
    "stored",
]


def default_db_url() -> str:
    """A SQLite file in the user's data directory (``platformdirs``)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("bazar", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'club.sqlite3'}"


def engine_url(url: str) -> URL:
    """The SQLAlchemy URL of a database URL: one for PostgreSQL that names no driver gets
    psycopg (version 3, the one the server extra installs).

    >>> engine_url("postgresql://club@localhost/bazar").drivername
    'postgresql+psycopg'
    >>> engine_url("sqlite:///club.sqlite3").drivername
    'sqlite'
    """
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg")
    return parsed


#: seconds a PostgreSQL connection serves before the pool replaces it
POOL_RECYCLE_S = 1800


class Stores(Protocol):
    """A club's stores, one per aggregate, as the club's services that use several of them
    see them (:class:`Storage`)."""

    @property
    def accounts(self) -> AccountStore: ...

    @property
    def tables(self) -> TableStore: ...

    @property
    def records(self) -> RecordStore: ...

    @property
    def tournaments(self) -> TournamentStore: ...

    @property
    def ratings(self) -> RatingStore: ...

    def close(self) -> None: ...


class Storage:
    """The database of one club, brought to the newest schema when it opens
    (:mod:`bazar.club.migrations`), or with ``upgrade`` false refused with
    :class:`~bazar.club.migrations.Unmigrated` unless it is there already (a deployment that
    migrates as a step of its own, ``bazar db upgrade``); and its stores, which share its
    engine: ``accounts``, ``tables``, ``records``, ``tournaments`` and ``ratings``.

    On PostgreSQL each process keeps ``pool_size`` connections and opens up to
    ``max_overflow`` more at a peak; a connection is checked before it is used and replaced
    after ``POOL_RECYCLE_S``, so that one the server (or a proxy, or a failover) closed
    meanwhile costs a reconnect, not a refused write."""

    def __init__(
        self,
        url: str,
        busy_timeout_s: float = 5.0,
        pool_size: int = 10,
        max_overflow: int = 20,
        upgrade: bool = True,
    ) -> None:
        self.url = url
        parsed = engine_url(url)
        sqlite = parsed.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {}
        if sqlite:
            # the tables write from worker threads; a write waits this long for a lock
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": busy_timeout_s}
        else:
            kwargs |= {
                "pool_size": pool_size,
                "max_overflow": max_overflow,
                "pool_pre_ping": True,
                "pool_recycle": POOL_RECYCLE_S,
            }
        self.engine: Engine = create_engine(parsed, **kwargs)
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            if upgrade:
                migrations.upgrade(self.engine)
            elif (at := migrations.revision(self.engine)) != migrations.head():
                raise migrations.Unmigrated(at, migrations.head())
        except BaseException:
            self.engine.dispose()
            raise
        self.session = sessionmaker(self.engine, expire_on_commit=False)
        self.accounts = SqlAccounts(self.engine, self.session)
        self.tables = SqlTables(self.engine, self.session)
        self.records = SqlRecords(self.engine, self.session)
        self.tournaments = SqlTournaments(self.engine, self.session)
        self.ratings = SqlRatings(self.engine, self.session)
        # what a database older than the names and played tables lacks of them
        self.accounts.hold_names()
        self.records.note_seats()

    def close(self) -> None:
        """Close the database's connections."""
        self.engine.dispose()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
