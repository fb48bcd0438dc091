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

    # the database and the tables' actors (faults)
    #: seconds a database write waits for another connection's lock (SQLite's busy timeout)
    #: before it fails and the table tries it again
    db_busy_timeout_s: float = Field(5.0, gt=0)
    #: times a table tries a failed database write again (a lock, a lost connection) before
    #: it refuses the move (nothing is made that is not stored)
    db_retries: int = Field(4, ge=0)
    #: seconds a table waits before it tries a failed write again the first time; twice as
    #: long before each next try
    db_retry_s: float = Field(0.25, gt=0)
    #: times one table whose actor failed is rebuilt from its stored moves (while the server
    #: runs) before it is left stopped, out of order
    table_restarts: int = Field(3, ge=0)
