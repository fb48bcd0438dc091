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
