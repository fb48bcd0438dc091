"""The club's limits: each has a sensible default, and the environment variable named
``BAZAR_`` + its name in capitals sets it (``BAZAR_MAX_BODY=8192``; pydantic-settings).

A limit keeps one stranger from costing everyone else: the size of what a client may send,
how fast it may send it, how many guests and tables one address may make, how large a record
may be. The README's "Limits" table lists them all.

>>> Settings().max_body
4096
>>> Settings(max_body=8192).max_body
8192
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings"]


class Settings(BaseSettings):
    """The club's limits (see the module)."""

    model_config = SettingsConfigDict(env_prefix="BAZAR_", frozen=True, extra="ignore")

    # what a client may send
    #: bytes of an API request body (refused by Content-Length, and while it streams in)
    max_body: int = Field(4096, ge=1)
    #: bytes of an uploaded record
    max_record: int = Field(1_000_000, ge=1)
    #: bytes of one websocket message
    max_message: int = Field(4096, ge=1)

    # tables and bots: what one client may open, and how long a match may run
    #: guests one client address may make in an hour (a flood of guests is a flood of tables)
    guests_per_address: int = Field(20, ge=1)
    #: tables one player may own at once, open or playing (each a seat in the lobby)
    open_tables_per_user: int = Field(3, ge=1)
    #: the largest ``target`` or ``limit`` of a table (points): a match is played to it
    max_target: int = Field(1000, ge=1)
    #: the most deals of a match that counts them (Poker's ``deals``)
    max_deals: int = Field(100, ge=1)
    #: the largest size of any other numeric option of a table (Kolbasa's ``max_reveals``,
    #: Poker's chips, bonus points)
    max_number: int = Field(10_000, ge=1)
    #: seconds a bot of a table that no player watches waits before its move, at least (the
    #: club's bot delay when more): nobody's match hurries for nobody
    unwatched_bot_delay_s: float = Field(2.0, ge=0)
    #: seconds a table waits after a round that does not end the match, before the next
    #: round's first turn, for its players to see the final position and the result: less
    #: once every seated player whose page is open has said he has seen it (0: no pause)
    round_pause_s: float = Field(10.0, ge=0)
    #: seconds a tournament waits between its rounds, the last result in, before it pairs
    #: the next one: its players see the standings, and may enter or withdraw (Swiss)
    tournament_pause_s: float = Field(30.0, ge=0)
    #: seconds a finished table waits in memory for its players to ask for a rematch
    #: (``bazar serve --rematch-window`` sets it)
    rematch_window_s: float = Field(120.0, ge=0)

    # the coach: the analyses of records and rounds, and the hints (bazar.club.coach)
    #: deals each position of an analysis or a hint is valued over (the coach's budget: as
    #: ``bazar analyse --deals``; fewer is quicker and less sure)
    coach_deals: int = Field(64, ge=1)
    #: rounds of one analysis valued at once, each in one of the search bots' worker
    #: processes (the others stay with the bots)
    coach_jobs: int = Field(1, ge=1)
    #: analyses waiting at most, every player's together: one more is refused (coach_full)
    coach_queue: int = Field(32, ge=1)

    # accounts: logins, passwords, sessions
    #: wrong passwords one name, or one client address, may try within ``login_window_s``;
    #: then its logins are refused until the oldest of them is that old
    login_tries: int = Field(10, ge=1)
    #: seconds over which ``login_tries`` are counted (a sliding window)
    login_window_s: float = Field(300.0, gt=0)
    #: threads that hash and check passwords (argon2: about 64 MiB of memory each), so that
    #: logins never hold up the tables and cannot take every thread of the server
    hash_threads: int = Field(2, ge=1)

    # the HTTP API: the clocks, uploaded records, the sites that may act on the club
    #: the seconds per move a table may be created with (what the form offers)
    move_times: tuple[int, ...] = (15, 30, 60, 120)
    #: rounds in an uploaded record (the longest match measured, Telephone to the highest
    #: mark a table may set, 1000, had 267)
    record_rounds: int = Field(500, ge=1)
    #: moves in an uploaded record, all rounds together (the longest measured had 6,775; at
    #: each game's own mark, 1,695)
    record_moves: int = Field(10_000, ge=1)
    #: other sites (scheme://host[:port], comma-separated) whose pages may act on the club
    #: besides its own: a browser request or socket from any other site is refused
    allowed_origins: str = ""

    # the table socket: what one page at a table may cost the club
    #: messages waiting to be written to one socket: a client that lets more pile up (it does
    #: not read what it is sent) is dropped, its socket closed with code 4008 "too slow"
    outbox: int = Field(100, ge=1)
    #: messages a second one socket may send, on average (a token bucket); beyond it and its
    #: burst the socket is told once (too_fast) and its messages are dropped
    messages_per_s: float = Field(20.0, gt=0)
    #: messages one socket may send at once before the rate holds it back; a socket that sends
    #: as many again while held back is closed with code 4029 "too many messages"
    message_burst: int = Field(60, ge=1)

    # the database and the tables' actors (faults); the HTTP requests' writes (writes)
    #: seconds a database write waits for another connection's lock (SQLite's busy timeout)
    #: before it fails and is tried again (off the event loop: only its table or request waits)
    db_busy_timeout_s: float = Field(5.0, gt=0)
    #: times a failed database write (a lock, a lost connection) is tried again before it is
    #: refused: a table's move ("not_stored"), or a request with 503 "db_busy" (a guest, a
    #: login, a table, a seat, a record); nothing is made that is not stored
    db_retries: int = Field(4, ge=0)
    #: seconds before a failed write is tried again the first time; twice as long before each
    #: next try (a refused request is told to come again after the next such pause)
    db_retry_s: float = Field(0.25, gt=0)
    #: connections each server process keeps open to a PostgreSQL database, and how many
    #: more it may open at a peak (SQLAlchemy's pool; SQLite has none)
    db_pool_size: int = Field(10, ge=1)
    db_max_overflow: int = Field(20, ge=0)
    #: whether a process brings the database to the newest schema when it starts; false
    #: (``BAZAR_DB_UPGRADE=0``) for a deployment that runs ``bazar db upgrade`` as a step of
    #: its own: a process then refuses to start on a database that is behind
    db_upgrade: bool = True
    #: times one table whose actor failed is rebuilt from its stored moves (while the server
    #: runs) before it is left stopped, out of order
    table_restarts: int = Field(3, ge=0)

    # many processes: where they meet, and how a table changes hands between them
    #: the database of the club (a SQLAlchemy URL; empty: a SQLite file in the user's data
    #: folder); ``bazar serve --db`` sets it
    db_url: str = ""
    #: the Redis server that the club's processes route socket messages, table events, the
    #: lobby and presence through (redis://host:port/db); empty: one process, nothing shared
    redis_url: str = ""
    #: seconds a process holds a table's lease without renewing it; it renews them every
    #: third of that, and another process takes over a table whose lease has expired (a
    #: process killed mid-match: its tables go on elsewhere within about twice this)
    lease_s: float = Field(5.0, gt=0)
