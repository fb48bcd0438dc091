"""The club's tables, as SQLAlchemy models: what each store of :mod:`bazar.club.storage`
reads and writes, and what the migrations bring a database to."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Integer, String, Text, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "AnalysisRow",
    "Base",
    "Lease",
    "MoveRow",
    "NameRow",
    "Played",
    "Rating",
    "RecordRow",
    "SessionRow",
    "Setting",
    "TableRow",
    "TournamentRow",
    "User",
]


class Base(DeclarativeBase):
    """The club's models, whose metadata the migrations compare a database with."""


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), index=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=True)
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


class AnalysisRow(Base):
    """A record's analysis by the coach (:mod:`bazar.analysis`), kept with it so that a page
    never computes it twice: of the seats ``seats`` (their numbers, comma-separated), at
    ``deals`` deals a position, by the coach of ``version`` (a coach that grades otherwise
    computes its own). ``text`` is :meth:`~bazar.analysis.Analysis.dumps`. Revision 0006."""

    __tablename__ = "analyses"
    record_id: Mapped[str] = mapped_column(ForeignKey("records.id"), primary_key=True)
    seats: Mapped[str] = mapped_column(String(40), primary_key=True)
    deals: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float, default=time.time)


class Rating(Base):
    """A player's ratings in a game: his skill (``mu``, ``sigma``: openskill's Plackett-Luce,
    after ``games`` rated matches) and, on his ``"kozel"`` row, the club's Kozel points that
    his rated matches of the games that count them won or lost (a row of points alone has
    ``games`` 0: he has no skill in Kozel yet)."""

    __tablename__ = "ratings"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))


class Setting(Base):
    """A value the server made for itself once and keeps (the session secret)."""

    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
