"""What a client may send the club, as typed models (pydantic): a message is refused by its
shape here, in one place, with the refusal code the page says in its language. The models
are also the protocol's reference: ``docs/protocol.md`` describes each one.

>>> read_message('{"type": "move", "move": "6-4:R", "v": 12}')
MoveMessage(type='move', move='6-4:R', v=12)
>>> read_message('{"type": "move", "move": 64}')
Traceback (most recent call last):
...
bazar.server.errors.ServerError: 'move' must be a move in notation
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from .errors import ServerError

__all__ = [
    "BackMessage",
    "HelloMessage",
    "MoveMessage",
    "PingMessage",
    "SocketMessage",
    "read_message",
]


# Socket messages: what a page at a table sends on its websocket (/ws/TABLE), one JSON
# object a text frame, told apart by "type"

#: a version of the table: the number of events it has announced (0 before the first)
Version = Annotated[StrictInt, Field(ge=0)]


class _Message(BaseModel):
    # a newer page may send more than this server reads: what it does not know it ignores
    model_config = ConfigDict(frozen=True, extra="ignore")


class HelloMessage(_Message):
    """The first message of a socket: the last version the page saw (0: none). The answer
    is a sync (the events after ``v`` and the page's view); the socket hears every later
    event once. A later hello on the same socket is answered with a sync of what it has not
    been sent (nothing but the view and the table once its first sync has gone out)."""

    type: Literal["hello"]
    v: Version = 0


class MoveMessage(_Message):
    """A move of the socket's seat in notation (``"6-4:R"``, ``"draw"``), with the version
    the player saw when he chose it: a move chosen before the position changed is refused
    as stale rather than played."""

    type: Literal["move"]
    move: Annotated[str, Field(max_length=40)]
    v: Version | None = None


class BackMessage(_Message):
    """The player of a seat a bot took asks for it back: his from its next turn."""

    type: Literal["back"]


class PingMessage(_Message):
    """Answered with ``{"type": "pong"}``, to tell a live socket from a dead one."""

    type: Literal["ping"]


SocketMessage = Annotated[
    HelloMessage | MoveMessage | BackMessage | PingMessage, Field(discriminator="type")
]

_SOCKET_MESSAGE: TypeAdapter[SocketMessage] = TypeAdapter(SocketMessage)

#: the refusal of a known message whose field is wrong, by field
_FIELD_REFUSALS = {"move": "move_form", "v": "v_form"}


def read_message(text: str) -> SocketMessage:
    """The message a socket's text frame holds, or the ServerError that refuses it: not a
    JSON object (nested too deep to read included: ``message_form``), no known ``type``
    (``unknown_message``), a field of the wrong form (``move_form``, ``v_form``)."""
    try:
        return _SOCKET_MESSAGE.validate_json(text)
    except ValidationError as error:
        raise ServerError(_refusal(error.errors()[0])) from None


def _refusal(error: Any) -> str:
    if error["type"] in ("union_tag_not_found", "union_tag_invalid"):
        return "unknown_message"
    where = error["loc"]
    # (kind, field) for a field of a known kind; () for what is no message at all
    return _FIELD_REFUSALS.get(where[1], "message_form") if len(where) > 1 else "message_form"
