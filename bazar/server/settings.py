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
