"""Persistence: accounts, tables, their moves, finished records and ratings (SQLAlchemy).

Every move is appended here before a client hears of it, so a table can be rebuilt after a
restart by replaying its moves from its seed. A match's last move is stored with its end, its
record and its ratings, in one transaction: a crash leaves either all of them or none.

The club writes through :func:`stored`, in a thread, never on the event loop its tables and
sockets answer on: a write that waits for a lock holds up only the request (or the table) that
made it, and one the database refuses again and again is refused in turn (:class:`NotStored`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import math
import queue
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from . import migrations, names
from .errors import ServerError, refusal_code
from .settings import Settings

__all__ = [
    "TOURNAMENT_LEASE",
    "Base",
    "Lease",
    "LeaseLost",
    "MoveRow",
    "NameRow",
    "NotStored",
    "Played",
    "Rating",
    "RecordRow",
    "SessionRow",
    "Setting",
    "Storage",
    "TableRow",
    "TournamentRow",
    "User",
    "Writers",
    "default_db_url",
    "engine_url",
    "stored",
]

log = logging.getLogger("bazar.club")

T = TypeVar("T")


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


#: how stale a session's "last seen" may grow before a request notes it again (seconds)
SESSION_SEEN_S = 3600.0

#: seconds a PostgreSQL connection serves before the pool replaces it
POOL_RECYCLE_S = 1800


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), index=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=True)
    kozel_rating: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[float] = mapped_column(Float, default=time.time)


class NameRow(Base):
    """A key a registered player's name holds (see :mod:`bazar.club.names`): no other
    registered name may have it, and no guest may take a name that has it."""

    __tablename__ = "names"
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)


class SessionRow(Base):
    """A login: the session cookie holds its id, this table only its sha256, so that what it
    keeps cannot log anyone in; logging out or a new password revokes it."""

    __tablename__ = "sessions"
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created: Mapped[float] = mapped_column(Float, default=time.time)
    last_seen: Mapped[float] = mapped_column(Float, default=time.time)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: one entry per seat: {"user": id, "name": str} | {"bot": level, "name": str} | None; a
    #: player's seat a bot played has its "changes" of hands: [{"t", "at", "v", "why"?}]
    seats: Mapped[list[Any]] = mapped_column(JSON)
    owner: Mapped[int] = mapped_column(Integer)
    move_time_s: Mapped[int] = mapped_column(Integer, default=30)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    access: Mapped[str] = mapped_column(String(20), default="open")
    invite: Mapped[str] = mapped_column(String(40))
    #: "open" (waiting for players), "playing", "finished"
    status: Mapped[str] = mapped_column(String(12), default="open")
    #: below 2**62, more than PostgreSQL's 32-bit integer holds
    seed: Mapped[int] = mapped_column(BigInteger)
    #: a rematch's seats kept for the players of the match before, while they may accept
    #: it: {"until": time.time(), "seats": {seat: [user, name]}}; None for any other table
    reserved: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: how the match ended: {"normal": true}, or early {"timeout": seat} ("gone": true when
    #: the player stayed away past the grace), with the "ratings"; None while it is played
    ending: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[float] = mapped_column(Float, default=time.time)
    #: the tournament whose round this table plays (:class:`TournamentRow`), or None
    tournament: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)


class TournamentRow(Base):
    """A tournament of the club: what its organiser asked for, and its whole state (the
    entries, the pairings and their results: ``bazar.tournament``'s ``to_json``), written in
    one piece after every change, so that the process that runs it next (after a restart, or
    taking it over) goes on from there. Its process holds the lease ``"t:" + id``."""

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: "round_robin", "swiss", "knockout" or "arena"
    format: Mapped[str] = mapped_column(String(20))
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    duration_s: Mapped[float | None] = mapped_column(Float, nullable=True)
    teams: Mapped[bool] = mapped_column(Boolean, default=False)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: "open" or "invite" (joined with the ``invite`` its organiser hands out)
    access: Mapped[str] = mapped_column(String(20), default="open")
    invite: Mapped[str] = mapped_column(String(40))
    owner: Mapped[int] = mapped_column(Integer)
    #: "open" (taking entries), "playing", "finished"
    status: Mapped[str] = mapped_column(String(12), default="open", index=True)
    #: when it starts by itself (``time.time()``); None: when its organiser starts it
    starts_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    move_time_s: Mapped[int] = mapped_column(Integer, default=30)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float, default=time.time)


class MoveRow(Base):
    __tablename__ = "moves"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(40))


class Lease(Base):
    """Which server process runs a table, and until when (``time.time()``): it renews the
    lease while the table lives in it, and no other process starts the table before the
    lease expires (or is given up). Every move a process stores renews its lease in the same
    transaction, and is refused once the lease is another's."""

    __tablename__ = "leases"
    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: the process (its node name, unique per start)
    node: Mapped[str] = mapped_column(String(64), index=True)
    expires: Mapped[float] = mapped_column(Float)


class RecordRow(Base):
    __tablename__ = "records"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: the table the match was played at (one record a table); None for an uploaded match
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True, unique=True, index=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[list[Any]] = mapped_column(JSON)
    text: Mapped[str] = mapped_column(Text)
    summary: Mapped[dict[str, Any]] = mapped_column(JSON)
    uploaded: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[float] = mapped_column(Float, default=time.time)


class Played(Base):
    """A person's seat in a match the club stored (a bot's seat has none): what his own
    history, his profile's games and wins and his rating chart read, without opening the
    records. A table of its own, which the baseline migration adds to an older database."""

    __tablename__ = "played"
    record_id: Mapped[str] = mapped_column(ForeignKey("records.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    won: Mapped[bool] = mapped_column(Boolean, default=False)
    #: his skill rating in ``game`` (mu - 3 sigma) after the match; None where it was unrated
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    created: Mapped[float] = mapped_column(Float, default=time.time)


class Rating(Base):
    __tablename__ = "ratings"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class Setting(Base):
    """A value the server made for itself once and keeps (the session secret)."""

    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Storage:
    """The database of one club, brought to the newest schema when it opens
    (:mod:`bazar.club.migrations`), or with ``upgrade`` false refused with
    :class:`~bazar.club.migrations.Unmigrated` unless it is there already (a deployment that
    migrates as a step of its own, ``bazar db upgrade``).

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
        self._hold_names()
        self._note_seats()

    def close(self) -> None:
        self.engine.dispose()

    def secret(self) -> str:
        """The club's session secret: made on first use and kept, so that a restarted server
        still knows its players' cookies."""
        with self.session() as db:
            row = db.get(Setting, "secret")
            if row is not None:
                return row.value
            db.add(Setting(key="secret", value=secrets.token_hex(32)))
            try:
                db.commit()
            except IntegrityError:
                # another server process on the same database made it first
                db.rollback()
            row = db.get(Setting, "secret")
            assert row is not None
            return row.value

    # accounts

    def add_user(
        self, name: str, password_hash: str | None, keys: Iterable[str] = ()
    ) -> User | None:
        """A new guest, or with a ``password_hash`` a registered player whose name holds
        ``keys``; None if one of them is another player's (the database decides, so two
        registrations at once cannot both have it)."""
        with self.session() as db:
            user = User(name=name, password_hash=password_hash, guest=password_hash is None)
            db.add(user)
            db.flush()
            db.add_all(NameRow(key=key, user_id=user.id) for key in keys)
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
                return None
            return user

    def user(self, user_id: int) -> User | None:
        with self.session() as db:
            return db.get(User, user_id)

    def registered(self, name: str) -> User | None:
        if not _storable(name):
            return None
        with self.session() as db:
            return db.scalars(select(User).where(User.name == name, User.guest.is_(False))).first()

    def holder(self, keys: Iterable[str]) -> User | None:
        """The registered player whose name holds one of ``keys``."""
        keys = [k for k in keys if _storable(k)]
        with self.session() as db:
            return db.scalars(
                select(User).join(NameRow, NameRow.user_id == User.id).where(NameRow.key.in_(keys))
            ).first()

    def set_password(self, user_id: int, password_hash: str) -> None:
        """A player's new password; every session he had is revoked with it, in the same
        transaction (no copy of an old cookie outlives the change)."""
        with self.session() as db:
            db.execute(update(User).where(User.id == user_id).values(password_hash=password_hash))
            db.execute(update(SessionRow).where(SessionRow.user_id == user_id).values(revoked=True))
            db.commit()

    def _hold_names(self) -> None:
        """Give the registered players of a database older than the names table their names'
        keys (where two names are alike, the older player keeps the key)."""
        with self.session() as db:
            holders = select(NameRow.user_id)
            players = db.scalars(
                select(User).where(User.guest.is_(False), User.id.not_in(holders)).order_by(User.id)
            )
            for user in players:
                for key in names.keys(user.name):
                    if db.get(NameRow, key) is None:
                        db.add(NameRow(key=key, user_id=user.id))
                        db.flush()
            try:
                db.commit()
            except IntegrityError:
                # another server on the same database gave them first
                db.rollback()

    def _note_seats(self) -> None:
        """Note the people's seats of the matches stored before the played table was (a
        table's record whose seats have none noted): from the table's seats, the record's
        winners and the ratings the table's ending kept."""
        with self.session() as db:
            noted = select(Played.record_id)
            rows = db.execute(
                select(RecordRow, TableRow)
                .join(TableRow, TableRow.id == RecordRow.table_id)
                .where(RecordRow.id.not_in(noted))
            )
            for record, table in rows:
                winners = record.summary.get("winners", [])
                skill = ((table.ending or {}).get("ratings") or {}).get("skill") or {}
                for seat, who in enumerate(table.seats):
                    if who and who.get("user"):
                        rating = skill.get(str(seat))
                        db.add(
                            Played(
                                record_id=record.id,
                                seat=seat,
                                user_id=int(who["user"]),
                                game=record.game,
                                won=seat in winners,
                                rating=None if rating is None else float(rating),
                                created=record.created,
                            )
                        )
            try:
                db.commit()
            except IntegrityError:
                # another server on the same database noted them first
                db.rollback()

    # sessions

    def add_session(self, user_id: int, replacing: str | None = None) -> str:
        """A new session of ``user_id``: its id, for the cookie (and kept only hashed); the
        session it replaces on the same browser, if any, is revoked in the same transaction."""
        session_id = secrets.token_urlsafe(32)
        with self.session() as db:
            if replacing is not None and _storable(replacing):
                db.execute(
                    update(SessionRow)
                    .where(SessionRow.id_hash == _digest(replacing))
                    .values(revoked=True)
                )
            db.add(SessionRow(id_hash=_digest(session_id), user_id=user_id))
            db.commit()
        return session_id

    def session_user(self, session_id: str) -> tuple[User, float] | None:
        """The player of a session that has not been revoked, and when the session was last
        seen (``time.time()``; :meth:`seen` notes it)."""
        if not _storable(session_id):
            return None
        with self.session() as db:
            row = db.get(SessionRow, _digest(session_id))
            if row is None or row.revoked:
                return None
            user = db.get(User, row.user_id)
            return None if user is None else (user, row.last_seen)

    def seen(self, session_id: str) -> None:
        """Note that a session is in use now."""
        with self.session() as db:
            db.execute(
                update(SessionRow)
                .where(SessionRow.id_hash == _digest(session_id))
                .values(last_seen=time.time())
            )
            db.commit()

    def upgrade_legacy(self, user_id: int) -> str | None:
        """A session for the cookie of a server before sessions were revocable, which held
        ``{"user": id}`` and nothing to revoke: the first such cookie of ``user_id`` shown
        becomes a session of his (nobody is logged out by an upgrade); any other copy of it is
        refused from then on, so a copied cookie cannot outlive the logout of the first. The
        old cookies expire anyway with the signature's age (14 days)."""
        marker = _digest(f"legacy:{user_id}")
        with self.session() as db:
            if db.get(SessionRow, marker) is not None or db.get(User, user_id) is None:
                return None
            db.add(SessionRow(id_hash=marker, user_id=user_id, revoked=True))
            try:
                db.commit()
            except IntegrityError:
                # another request of the same cookie upgraded it first
                return None
        return self.add_session(user_id)

    def revoke_session(self, session_id: str) -> None:
        if not _storable(session_id):
            return
        with self.session() as db:
            db.execute(
                update(SessionRow)
                .where(SessionRow.id_hash == _digest(session_id))
                .values(revoked=True)
            )
            db.commit()

    # tables

    def add_table(self, row: TableRow, node: str | None = None, lease_s: float = 0.0) -> None:
        """Store the new table ``row``, leased to ``node`` for ``lease_s`` (the process that
        made it runs it), in one transaction."""
        with self.session() as db:
            db.add(row)
            if node is not None:
                db.add(Lease(table_id=row.id, node=node, expires=time.time() + lease_s))
            db.commit()

    def add_rematch(
        self, row: TableRow, of: str, node: str | None = None, lease_s: float = 0.0
    ) -> TableRow:
        """Store the table ``row``, the rematch of the finished table ``of``, and name it in
        that one's ending, in one transaction (``row`` leased to ``node`` as
        :meth:`add_table` leases it): the row of ``of``."""
        with self.session() as db:
            db.add(row)
            if node is not None:
                db.add(Lease(table_id=row.id, node=node, expires=time.time() + lease_s))
            old = db.get(TableRow, of)
            assert old is not None
            old.ending = {**(old.ending or {}), "rematch": row.id}
            db.commit()
            return old

    def table(self, table_id: str) -> TableRow | None:
        if not _storable(table_id):
            return None
        with self.session() as db:
            return db.get(TableRow, table_id)

    def update_table(self, table_id: str, fence: Fence | None = None, **changes: Any) -> TableRow:
        """Change the row of ``table_id``; with a ``fence`` (node, lease seconds), only
        while that node holds the table's lease (:class:`LeaseLost` else), renewed in the
        same transaction."""
        with self.session() as db:
            if fence is not None:
                _renew(db.connection(), table_id, fence)
            row = db.get(TableRow, table_id)
            assert row is not None
            for key, value in changes.items():
                setattr(row, key, value)
            db.commit()
            return row

    def tables(self, status: str | None = None, limit: int = 200) -> list[TableRow]:
        with self.session() as db:
            query = select(TableRow).order_by(TableRow.created.desc()).limit(limit)
            if status is not None:
                query = query.where(TableRow.status == status)
            return list(db.scalars(query))

    def lobby(self, limit: int = 200) -> list[TableRow]:
        """The newest open-access tables that wait for players or are being played (the
        finished ones, however many, never push a live one out of the lobby)."""
        with self.session() as db:
            query = (
                select(TableRow)
                .where(TableRow.access == "open", TableRow.status.in_(("open", "playing")))
                .order_by(TableRow.created.desc())
                .limit(limit)
            )
            return list(db.scalars(query))

    def owned(self, owner: int) -> int:
        """How many tables ``owner`` has open or playing."""
        with self.session() as db:
            query = select(func.count()).where(
                TableRow.owner == owner, TableRow.status.in_(("open", "playing"))
            )
            return int(db.scalar(query) or 0)

    def delete_table(self, table_id: str) -> None:
        """Forget a table that never started (it has no moves, no record), and its lease."""
        with self.session() as db:
            row = db.get(TableRow, table_id)
            if row is not None:
                db.delete(row)
            db.execute(delete(Lease).where(Lease.table_id == table_id))
            db.commit()

    def append_move(
        self, table_id: str, n: int, seat: int, move: str, fence: Fence | None = None
    ) -> None:
        """Store move ``n`` of a table; with a ``fence``, only while its node holds the
        table's lease, which the same transaction renews (:class:`LeaseLost` else: a process
        that lost a table can never write one more move of it)."""
        # the hot path of every move: Core statements, without the ORM's unit of work
        with self.engine.begin() as connection:
            if fence is not None:
                _renew(connection, table_id, fence)
            connection.execute(
                insert(MoveRow), {"table_id": table_id, "n": n, "seat": seat, "move": move}
            )

    def append_moves(self, moves: Sequence[tuple[Any, ...]]) -> None:
        """Store the moves of several tables in one transaction, each as :meth:`append_move`
        takes it (table, number, seat, move, fence): all of them, or none. The club's writer
        threads store the moves that come at once so (:class:`Writers`): two statements and
        a commit for them all, whatever their number."""
        rows: list[dict[str, Any]] = []
        fenced: dict[Fence, set[str]] = {}
        for table_id, n, seat, move, *fence in moves:
            rows.append({"table_id": table_id, "n": n, "seat": seat, "move": move})
            if fence and fence[0] is not None:
                fenced.setdefault(fence[0], set()).add(table_id)
        with self.engine.begin() as connection:
            for (node, lease_s), tables in fenced.items():
                now = time.time()
                renewed = connection.execute(
                    update(Lease)
                    .where(Lease.table_id.in_(tables), Lease.node == node)
                    .values(expires=now + lease_s)
                )
                if renewed.rowcount != len(tables):
                    raise LeaseLost(", ".join(sorted(tables)))
            connection.execute(insert(MoveRow), rows)

    # tournaments

    def add_tournament(self, row: TournamentRow) -> None:
        with self.session() as db:
            db.add(row)
            db.commit()

    def tournament(self, tournament_id: str) -> TournamentRow | None:
        if not _storable(tournament_id):
            return None
        with self.session() as db:
            return db.get(TournamentRow, tournament_id)

    def change_tournament(
        self,
        tournament_id: str,
        change: Callable[[TournamentRow, Session], T],
        fence: Fence | None = None,
    ) -> tuple[TournamentRow, T]:
        """Change the row of ``tournament_id`` by ``change`` (which may raise to change
        nothing, and may add rows to the transaction it is given: a round's tables) in one
        transaction, the row read for update (two requests at once change it one after the
        other, neither losing the other's change): the row after it, and what ``change``
        returned. With a ``fence``, only while its node holds the tournament's lease
        (:class:`LeaseLost` else)."""
        with self.session() as db:
            if fence is not None:
                _renew(db.connection(), TOURNAMENT_LEASE + tournament_id, fence)
            row = db.get(TournamentRow, tournament_id, with_for_update=True)
            if row is None:
                raise KeyError(tournament_id)
            said = change(row, db)
            # a JSON column changed in place is not seen as changed: it is set anew
            row.state = dict(row.state)
            db.commit()
            return row, said

    def owned_tournaments(self, owner: int) -> int:
        """How many tournaments ``owner`` organises that take entries or are played."""
        with self.session() as db:
            query = select(func.count()).where(
                TournamentRow.owner == owner, TournamentRow.status.in_(("open", "playing"))
            )
            return int(db.scalar(query) or 0)

    def tournaments(self, limit: int = 50) -> list[TournamentRow]:
        """The tournaments taking entries and being played, then the ones finished last."""
        with self.session() as db:
            live = db.scalars(
                select(TournamentRow)
                .where(TournamentRow.status.in_(("open", "playing")))
                .order_by(TournamentRow.created.desc())
                .limit(limit)
            )
            over = db.scalars(
                select(TournamentRow)
                .where(TournamentRow.status == "finished")
                .order_by(TournamentRow.created.desc())
                .limit(limit)
            )
            return [*live, *over]

    def tournament_tables(self, tournament_id: str) -> list[TableRow]:
        """The tables of a tournament's matches, oldest first."""
        with self.session() as db:
            return list(
                db.scalars(
                    select(TableRow)
                    .where(TableRow.tournament == tournament_id)
                    .order_by(TableRow.created)
                )
            )

    def tournament_orphans(self, limit: int = 100) -> list[str]:
        """The tournaments to be run (taking entries with a start time, or being played)
        that no process runs: no lease, or one let expire."""
        lease = TOURNAMENT_LEASE + TournamentRow.id
        with self.session() as db:
            rows = db.scalars(
                select(TournamentRow.id)
                .outerjoin(Lease, Lease.table_id == lease)
                .where(
                    or_(
                        TournamentRow.status == "playing",
                        (TournamentRow.status == "open") & TournamentRow.starts_at.is_not(None),
                    ),
                    or_(Lease.table_id.is_(None), Lease.expires < time.time()),
                )
                .order_by(TournamentRow.created)
                .limit(limit)
            )
            return list(rows)

    # leases: which process runs which table

    def lease(self, table_id: str, node: str, lease_s: float) -> bool:
        """Take the lease of ``table_id`` for ``node`` (or renew it), for ``lease_s``
        seconds: whether ``node`` holds it now. It is taken only when nobody holds it or its
        holder let it expire; two processes asking at once cannot both have it."""
        now = time.time()
        with self.engine.begin() as connection:
            taken = connection.execute(
                update(Lease)
                .where(Lease.table_id == table_id, or_(Lease.node == node, Lease.expires < now))
                .values(node=node, expires=now + lease_s)
            )
            if taken.rowcount:
                return True
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    insert(Lease), {"table_id": table_id, "node": node, "expires": now + lease_s}
                )
        except IntegrityError:
            # another process holds it (or took it just now)
            return False
        return True

    def renew(self, node: str, lease_s: float) -> set[str]:
        """Renew every lease ``node`` holds: the tables it still holds. One it let expire is
        still its own until another process takes it (a busy process that renews late keeps
        its tables); one another process took is not among them."""
        now = time.time()
        with self.engine.begin() as connection:
            connection.execute(
                update(Lease).where(Lease.node == node).values(expires=now + lease_s)
            )
            held = connection.execute(select(Lease.table_id).where(Lease.node == node))
            return {table_id for (table_id,) in held}

    def release(self, node: str, table_ids: Iterable[str]) -> None:
        """Give up ``node``'s leases of ``table_ids`` (its tables left it, or it stops):
        another process may take them over at once."""
        ids = list(table_ids)
        if not ids:
            return
        with self.engine.begin() as connection:
            connection.execute(delete(Lease).where(Lease.node == node, Lease.table_id.in_(ids)))

    def owners(self, table_ids: Iterable[str]) -> dict[str, str]:
        """The node that holds each of ``table_ids`` now (a table nobody holds, or whose
        lease expired, is left out)."""
        ids = [i for i in table_ids if _storable(i)]
        if not ids:
            return {}
        with self.session() as db:
            rows = db.execute(
                select(Lease.table_id, Lease.node).where(
                    Lease.table_id.in_(ids), Lease.expires >= time.time()
                )
            )
            return {table_id: node for table_id, node in rows}

    def orphans(self, limit: int = 500) -> list[str]:
        """The matches being played that no process runs: no lease, or one let expire (its
        process died), oldest first."""
        with self.session() as db:
            rows = db.scalars(
                select(TableRow.id)
                .outerjoin(Lease, Lease.table_id == TableRow.id)
                .where(
                    TableRow.status == "playing",
                    or_(Lease.table_id.is_(None), Lease.expires < time.time()),
                )
                .order_by(TableRow.created)
                .limit(limit)
            )
            return list(rows)

    def finish_match(
        self,
        table_id: str,
        ending: dict[str, Any],
        last: tuple[int, int, str] | None = None,
        settle: Callable[[Session], dict[str, Any] | None] | None = None,
        fence: Fence | None = None,
    ) -> TableRow:
        """Store the end of a match in one transaction: its ``last`` move (number, seat,
        notation; None when it was interrupted or its last move is stored already), the
        table's status and ``ending``, and whatever ``settle`` adds (the record, the players'
        ratings: it returns the ratings' changes, kept in the ending); with a ``fence``, as
        :meth:`append_move` stores a move."""
        with self.session() as db:
            if fence is not None:
                _renew(db.connection(), table_id, fence)
            if last is not None:
                n, seat, move = last
                db.add(MoveRow(table_id=table_id, n=n, seat=seat, move=move))
            ratings = settle(db) if settle is not None else None
            row = db.get(TableRow, table_id)
            assert row is not None
            row.status = "finished"
            row.ending = {**ending, "ratings": ratings} if ratings else ending
            db.commit()
            return row

    def moves(self, table_id: str) -> list[str]:
        with self.session() as db:
            rows = db.scalars(
                select(MoveRow).where(MoveRow.table_id == table_id).order_by(MoveRow.n)
            )
            return [r.move for r in rows]

    # records and ratings

    def add_record(self, row: RecordRow) -> None:
        with self.session() as db:
            db.add(row)
            db.commit()

    def record(self, record_id: str) -> RecordRow | None:
        if not _storable(record_id):
            return None
        with self.session() as db:
            return db.get(RecordRow, record_id)

    def records(
        self, limit: int = 100, offset: int = 0, player: int | None = None
    ) -> list[RecordRow]:
        """The newest records from ``offset`` on; with ``player``, only the matches that
        player sat in."""
        query = select(RecordRow)
        if player is not None:
            query = query.where(
                RecordRow.id.in_(select(Played.record_id).where(Played.user_id == player))
            )
        with self.session() as db:
            order = (RecordRow.created.desc(), RecordRow.id)
            return list(db.scalars(query.order_by(*order).offset(offset).limit(limit)))

    def seats_in(self, user_id: int, record_ids: Iterable[str]) -> dict[str, list[int]]:
        """The seats a player sat in, in each of the records ``record_ids`` he played."""
        out: dict[str, list[int]] = {}
        with self.session() as db:
            rows = db.execute(
                select(Played.record_id, Played.seat)
                .where(Played.user_id == user_id, Played.record_id.in_(list(record_ids)))
                .order_by(Played.seat)
            )
            for record_id, seat in rows:
                out.setdefault(record_id, []).append(seat)
        return out

    def played(self, user_id: int) -> list[tuple[str, int, int]]:
        """How many stored matches a player sat in, and won, per game: (game, games, wins)."""
        with self.session() as db:
            rows = db.execute(
                select(Played.game, func.count(), func.sum(Played.won.cast(Integer)))
                .where(Played.user_id == user_id)
                .group_by(Played.game)
                .order_by(func.count().desc(), Played.game)
            )
            return [(game, int(games), int(wins or 0)) for game, games, wins in rows]

    def rating_history(self, user_id: int, limit: int = 2000) -> list[Played]:
        """A player's rated matches, oldest first (the last ``limit``): the points of his
        rating chart."""
        with self.session() as db:
            rows = db.scalars(
                select(Played)
                .where(Played.user_id == user_id, Played.rating.is_not(None))
                .order_by(Played.created.desc())
                .limit(limit)
            )
            return list(reversed(list(rows)))

    def rating(self, db: Session, user_id: int, game: str) -> Rating | None:
        return db.get(Rating, (user_id, game))

    def ratings_of(self, user_id: int) -> list[Rating]:
        with self.session() as db:
            return list(db.scalars(select(Rating).where(Rating.user_id == user_id)))

    def leaderboard(self, game: str, limit: int = 50) -> list[tuple[User, Rating]]:
        if not _storable(game):
            return []
        with self.session() as db:
            rows = db.execute(
                select(User, Rating)
                .join(Rating, Rating.user_id == User.id)
                .where(Rating.game == game)
                .order_by((Rating.mu - 3 * Rating.sigma).desc())
                .limit(limit)
            )
            return [(u, r) for u, r in rows]

    def kozel_leaderboard(self, limit: int = 50) -> list[User]:
        with self.session() as db:
            return list(
                db.scalars(
                    select(User)
                    .where(User.guest.is_(False))
                    .order_by(User.kozel_rating.desc())
                    .limit(limit)
                )
            )


#: what a tournament's lease is named by, before its id (a table's is its id alone)
TOURNAMENT_LEASE = "t:"

#: a write's fence: (node, lease seconds): made only while that node holds the table's lease
Fence = tuple[str, float]


class LeaseLost(Exception):
    """A table's write refused: its process no longer holds the table's lease (it let it
    expire, and another process has taken the table over). Nothing of the write is made."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is no longer leased to this process")
        self.table_id = table_id


def _renew(connection: Any, table_id: str, fence: Fence) -> None:
    """Renew ``fence``'s node's lease of ``table_id`` in the transaction of ``connection``;
    :class:`LeaseLost` when that node does not hold it, another process having taken it (the
    transaction is then rolled back, whatever else it held). A lease that expired and that
    nobody took is still the node's: an expiry only lets another process take it."""
    node, lease_s = fence
    now = time.time()
    renewed = connection.execute(
        update(Lease)
        .where(Lease.table_id == table_id, Lease.node == node)
        .values(expires=now + lease_s)
    )
    if not renewed.rowcount:
        raise LeaseLost(table_id)


class NotStored(ServerError):
    """A write the database refused again and again (locked, out of reach): nothing that
    waited for it is made. ``code`` tells whoever asked: ``db_busy`` by default (503)."""

    def __init__(self, code: str = refusal_code("db_busy"), retry_after: int = 1) -> None:
        super().__init__(code, 503, retry_after=retry_after)


async def stored(
    settings: Settings,
    write: Callable[..., T],
    *args: Any,
    about: str = "the club",
    refusal: str = refusal_code("db_busy"),
) -> T:
    """``write(*args)`` (a :class:`Storage` method) in a writer thread (:class:`Writers`),
    off the event loop; tried again while the database refuses it (locked, out of reach),
    ``settings.db_retries`` times, first after ``settings.db_retry_s`` and each next time
    after twice as long; then :class:`NotStored` with the code ``refusal``. ``about`` names
    the writer in the log.

    Only ``write`` runs in the thread: what it gives back is made on the loop, by the caller.
    """
    wait, tries = settings.db_retry_s, 0
    while True:
        try:
            return await Writers.write(write, args, most=settings.db_pool_size)
        except (OperationalError, PoolTimeout) as error:
            tries += 1
            if tries > settings.db_retries:
                log.error("%s: the database refused a write %d times (%s)", about, tries, error)
                # worth asking again after the pause the next try would have waited
                raise NotStored(refusal, retry_after=max(1, math.ceil(wait))) from error
            log.warning(
                "%s: the database refused a write (%s), trying again in %.2f s", about, error, wait
            )
        await asyncio.sleep(wait)
        wait *= 2


#: seconds a writer thread waits for the next write before it ends
WRITER_IDLE_S = 2.0

#: a write made: the future that waits for it, its result, or the exception it raised
Made = tuple["asyncio.Future[Any]", Any, BaseException | None]


class Writers:
    """The threads that make one event loop's writes: as many as there are writes at once,
    up to ``most``, each taking the next write from one queue; one that has waited
    :data:`WRITER_IDLE_S` for a write ends. Handing a write over costs a put in that queue
    and, once it is made, one call on the loop (``asyncio.to_thread`` makes a thread pool's
    future, with a lock and a condition, and chains it to one of the loop's).

    The moves are committed together: a move handed over while another of the same storage
    waits for its transaction, or is being stored, joins the next transaction of that
    storage, which stores every move that came meanwhile (:meth:`Storage.append_moves`). A
    club of a thousand tables, each move a write, then makes a commit for several moves, and
    one storage's moves never wait for each other's locks."""

    _lock: ClassVar[threading.Lock] = threading.Lock()
    _of: ClassVar[dict[asyncio.AbstractEventLoop, Writers]] = {}

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        #: the threads, and those of them waiting for a write
        self.threads = self.idle = 0
        #: each storage's moves waiting for its next transaction, while one is due or made
        self.moves: dict[Storage, list[tuple[tuple[Any, ...], asyncio.Future[Any]]]] = {}

    @classmethod
    def write(cls, write: Callable[..., T], args: tuple[Any, ...], most: int) -> asyncio.Future[T]:
        """``write(*args)`` in one of the running loop's writer threads: its result, or its
        exception, once it is made."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with cls._lock:
            writers = cls._of.get(loop)
            if writers is None:
                writers = cls._of[loop] = cls(loop)
            if getattr(write, "__func__", None) is Storage.append_move:
                storage: Storage = cast(Any, write).__self__
                waiting = writers.moves.get(storage)
                if waiting is not None:
                    waiting.append((args, future))
                    return future
                writers.moves[storage] = [(args, future)]
                job = functools.partial(writers._append, storage)
            else:
                job = functools.partial(writers._make, write, args, future)
            writers.queue.put(job)
            if writers.idle < writers.queue.qsize() and writers.threads < most:
                writers.threads += 1
                threading.Thread(target=writers._work, name="bazar-writer", daemon=True).start()
        return future

    def _work(self) -> None:
        while True:
            with self._lock:
                self.idle += 1
            try:
                job = self.queue.get(timeout=WRITER_IDLE_S)
            except queue.Empty:
                with self._lock:
                    self.idle -= 1
                    if self.queue.empty():
                        self.threads -= 1
                        if self.threads == 0:
                            del self._of[self.loop]
                        return
                continue
            with self._lock:
                self.idle -= 1
            job()
            # what the write held (a table, its match) is not kept alive while this thread
            # waits for the next one
            del job

    def _make(self, write: Callable[..., Any], args: tuple[Any, ...], future: Any) -> None:
        made: Made
        try:
            made = (future, write(*args), None)
        except BaseException as error:
            made = (future, None, error)
        self._tell([made])

    def _append(self, storage: Storage) -> None:
        """Store ``storage``'s waiting moves, a transaction at a time, until none waits."""
        while True:
            with self._lock:
                batch, self.moves[storage] = self.moves[storage], []
            self._tell(_append_together(storage, batch))
            with self._lock:
                if not self.moves[storage]:
                    del self.moves[storage]
                    return

    def _tell(self, made: list[Made]) -> None:
        # a loop closed meanwhile has nobody waiting for the writes
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(_settle, made)


def _append_together(
    storage: Storage, batch: list[tuple[tuple[Any, ...], asyncio.Future[Any]]]
) -> list[Made]:
    """Store the moves of ``batch`` in one transaction: (future, result, error) of each. A
    database that refuses the transaction (locked, out of reach) refuses each move, to be
    tried again; one move that cannot be stored (a lease lost) must not take the others
    with it: they are then stored one by one, each with its own outcome."""
    made: list[Made] = []
    if len(batch) > 1:
        try:
            storage.append_moves([args for args, _ in batch])
            return [(future, None, None) for _, future in batch]
        except (OperationalError, PoolTimeout) as error:
            return [(future, None, error) for _, future in batch]
        except Exception:
            pass
    for args, future in batch:
        try:
            storage.append_move(*args)
            made.append((future, None, None))
        except BaseException as error:
            made.append((future, None, error))
    return made


def _settle(made: list[Made]) -> None:
    for future, result, error in made:
        if future.cancelled():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)


def _digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


def _storable(text: str) -> bool:
    """Whether ``text`` may be looked for: PostgreSQL refuses a query with a NUL character in
    it where SQLite merely finds nothing (nothing stored has one)."""
    return "\x00" not in text


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
