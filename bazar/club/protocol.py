"""What a client may send the club, as typed models (pydantic): the JSON bodies of the HTTP
API, and the messages of a table's websocket. A body or message of the wrong shape is refused
here, in one place, with the refusal code the page says in its language (see
the catalogue's ``club.CODE``); what the values mean (the rules, the seats) is for the
club to judge. The models are also the protocol's reference: ``docs/protocol.md`` describes
each message of the socket.

>>> read(Join, b'{"seat": 1}')
Join(seat=1, invite=None)
>>> read(Join, b'{"seat": "one"}')
Traceback (most recent call last):
...
bazar.club.errors.ServerError: 'seat' must be a seat number: 0, 1, ...
>>> read_message('{"type": "move", "move": "6-4:R", "v": 12}')
MoveMessage(type='move', move='6-4:R', v=12)
>>> read_message('{"type": "move", "move": 64}')
Traceback (most recent call last):
...
bazar.club.errors.ServerError: 'move' must be a move in notation
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, TypeVar

import pydantic_core
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
)

from bazar import bots as botlib
from bazar.core.rules import VARIANTS, nearest

from .errors import ServerError, refusal_code
from .settings import Settings

__all__ = [
    "ACCESS",
    "LEVELS",
    "BackMessage",
    "Bots",
    "Guest",
    "HelloMessage",
    "Join",
    "LeaveMessage",
    "Login",
    "MoveMessage",
    "NextMessage",
    "Password",
    "PingMessage",
    "PlayNow",
    "Refuse",
    "Register",
    "SocketMessage",
    "TableForm",
    "TournamentBots",
    "TournamentForm",
    "TournamentJoin",
    "option_bounds",
    "out_of_bounds",
    "read",
    "read_message",
]

# HTTP bodies

#: the bot levels a table may call
LEVELS = tuple(botlib.names())
#: who may sit at a table: anyone from the lobby, or only who has its invitation link
ACCESS = ("open", "invitation_link")


def option_bounds(name: str, settings: Settings) -> tuple[int, int]:
    """The range of the numeric option ``name`` that a table or an uploaded record may set: a
    match to ``target`` 10**18 never ends, every move of it is a write, and its record replays
    for seconds (the largest default mark is 300; the games bound ``set_max``,
    ``hand_size`` and such themselves).

    >>> option_bounds("target", Settings())
    (1, 1000)
    """
    if name in ("target", "limit"):
        return 1, settings.max_target
    if name == "deals":
        return 1, settings.max_deals
    return -settings.max_number, settings.max_number


def out_of_bounds(options: Mapping[str, Any], settings: Settings) -> tuple[str, int, int] | None:
    """The first numeric option outside :func:`option_bounds` (its name and range), if any.

    >>> out_of_bounds({"target": 10**18, "fish": "pot"}, Settings())
    ('target', 1, 1000)
    >>> out_of_bounds({"target": float("nan")}, Settings())
    ('target', 1, 1000)
    """
    for name, value in options.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        low, high = option_bounds(name, settings)
        if not low <= value <= high:
            return name, low, high
    return None


@dataclass(frozen=True)
class Refuse:
    """How a body field of the wrong shape is refused: ``refusal(value, context)`` the
    :class:`ServerError` for the value sent (``context`` what :func:`read` was given)."""

    refusal: Callable[[Any, Mapping[str, Any]], ServerError]

    @classmethod
    def by(cls, code: str, **params: Any) -> Refuse:
        """The refusal ``code`` with fixed ``params``, whatever was sent."""
        return cls(lambda value, context: ServerError(code, **params))


class Body(BaseModel):
    """A JSON object sent to the API; each field says with :class:`Refuse` how a value of the
    wrong shape is refused."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")

    #: the refusal of a body that is not a JSON object
    not_object: ClassVar[str] = refusal_code("not_object")


B = TypeVar("B", bound=Body)


def read(model: type[B], raw: bytes, **context: Any) -> B:
    """The body ``raw`` as a ``model`` (an empty body is ``{}``), or the refusal of its first
    fault: not JSON (nested over 200 deep, or a number past what a float holds, is not JSON
    here), not an object, or a field of the wrong shape. ``context`` is what the fields'
    checks need (the club's move times)."""
    try:
        data = pydantic_core.from_json(raw or b"{}")
    except ValueError:
        raise ServerError("not_json") from None
    if not isinstance(data, dict):
        raise ServerError(model.not_object)
    try:
        return model.model_validate(data, context=context)
    except ValidationError as error:
        field = str(error.errors()[0]["loc"][0])
        refuse = next(m for m in model.model_fields[field].metadata if isinstance(m, Refuse))
        raise refuse.refusal(data.get(field), context) from None


def _one_of(values: tuple[Any, ...]) -> AfterValidator:
    def check(value: Any) -> Any:
        if value not in values:
            raise ValueError(value)
        return value

    return AfterValidator(check)


def _offered_time(value: int, info: ValidationInfo) -> int:
    if value not in (info.context or {}).get("move_times", ()):
        raise ValueError(value)
    return value


def _unknown_game(value: Any, context: Mapping[str, Any]) -> ServerError:
    games = ", ".join(VARIANTS)
    near = ", ".join(nearest(str(value), list(VARIANTS)))
    if near:
        return ServerError("unknown_game_near", game=str(value), near=near, games=games)
    return ServerError("unknown_game", game=str(value), games=games)


def _bad_time(value: Any, context: Mapping[str, Any]) -> ServerError:
    return ServerError("move_time", times=", ".join(map(str, context.get("move_times", ()))))


def _unknown_level(value: Any, context: Mapping[str, Any]) -> ServerError:
    return ServerError("unknown_level", level=str(value), levels=", ".join(LEVELS))


#: a plain option value: the rules say which of them each option takes
OptionValue = str | int | float | bool | None
Name = Annotated[str, Refuse.by("name_form")]
Level = Annotated[str, _one_of(LEVELS), Refuse(_unknown_level)]


class Guest(Body):
    """``POST /api/guest``: a guest's name."""

    name: Name


class Register(Body):
    """``POST /api/register``: a new account."""

    not_object: ClassVar[str] = refusal_code("not_login")
    name: Name
    password: Annotated[str, Refuse.by("password_form")]


class Login(Body):
    """``POST /api/login``: a password of the wrong shape is as wrong as a wrong one."""

    not_object: ClassVar[str] = refusal_code("not_login")
    name: Name
    password: Annotated[str, Refuse.by("wrong_login")]


class Password(Body):
    """``POST /api/password``: a registered player's old password and his new one."""

    not_object: ClassVar[str] = refusal_code("not_password")
    old: Annotated[str, Refuse.by("wrong_password")]
    new: Annotated[str, Refuse.by("password_form")]


#: the club's game where none is named: the lobby's first choice, a form's default, the
#: leaderboard shown first
DEFAULT_GAME = "kozel"


class TableForm(Body):
    """``POST /api/tables``: the game-request form (online-club.md §1). ``options`` maps the
    rules' option names to plain values (the rules judge them); ``seat`` is the owner's;
    ``bots`` fills the other seats at once."""

    game: Annotated[str, _one_of(tuple(VARIANTS)), Refuse(_unknown_game)] = DEFAULT_GAME
    players: Annotated[int | None, Refuse.by("players_form")] = None
    options: Annotated[dict[str, OptionValue] | None, Refuse.by("options_form")] = None
    move_time_s: Annotated[int, AfterValidator(_offered_time), Refuse(_bad_time)] = 30
    access: Annotated[str, _one_of(ACCESS), Refuse.by("access", values=", ".join(ACCESS))] = "open"
    rated: Annotated[bool, Refuse.by("rated_form")] = False
    seat: Annotated[int, Refuse.by("seat_number")] = 0
    bots: Annotated[Level | None, Refuse(_unknown_level)] = None


class Join(Body):
    """``POST /api/tables/{id}/join``: a seat (else the first free one) and, at a table by
    invitation, the link's token."""

    seat: Annotated[int | None, Refuse.by("seat_number")] = None
    invite: Annotated[str | None, Refuse.by("invite_form")] = None


class PlayNow(Body):
    """``POST /api/play-now``: a seat at a table of ``game`` at once. The other fields are
    the player's remembered settings, for the table made when none waits for players: how
    many play, the move time, and the level of the bots that fill it."""

    game: Annotated[str, _one_of(tuple(VARIANTS)), Refuse(_unknown_game)] = DEFAULT_GAME
    players: Annotated[int | None, Refuse.by("players_form")] = None
    move_time_s: Annotated[int, AfterValidator(_offered_time), Refuse(_bad_time)] = 30
    level: Level = "greedy"


class Review(Body):
    """``POST /api/tables/{id}/review``: the round of the match whose moves of the asker's
    seat the coach grades (its number, as the round-end sheet shows it)."""

    round: Annotated[int, Refuse.by("round_number")]


class Bots(Body):
    """``POST /api/tables/{id}/bots``: the level of the bots that fill the empty seats."""

    level: Level = "greedy"


#: the formats of a tournament (``bazar.tournament.FORMATS``, which this layer does not
#: import before a tournament is asked for)
FORMATS = ("round_robin", "swiss", "knockout", "arena")
#: who may enter a tournament: anyone, or only who has its invitation
TOURNAMENT_ACCESS = ("open", "invite")


class TournamentForm(Body):
    """``POST /api/tournaments``: a tournament's game and options (as a table's), its format,
    its rounds (Swiss, round robin) or its minutes (arena), whether it is for 2x2 teams,
    rated, open or by invitation, when it starts by itself (``time.time()``; none: when its
    organiser starts it), and its tables' move time."""

    name: Annotated[str, Refuse.by("tournament_name_form")] = ""
    game: Annotated[str, _one_of(tuple(VARIANTS)), Refuse(_unknown_game)] = DEFAULT_GAME
    players: Annotated[int | None, Refuse.by("players_form")] = None
    options: Annotated[dict[str, OptionValue] | None, Refuse.by("options_form")] = None
    format: Annotated[
        str, _one_of(FORMATS), Refuse.by("tournament_format", formats=", ".join(FORMATS))
    ] = "swiss"
    rounds: Annotated[int | None, Refuse.by("tournament_rounds_form")] = None
    duration_min: Annotated[int | float | None, Refuse.by("tournament_duration_form")] = None
    teams: Annotated[bool, Refuse.by("teams_form")] = False
    rated: Annotated[bool, Refuse.by("rated_form")] = False
    access: Annotated[
        str,
        _one_of(TOURNAMENT_ACCESS),
        Refuse.by("access", values=", ".join(TOURNAMENT_ACCESS)),
    ] = "open"
    starts_at: Annotated[int | float | None, Refuse.by("starts_at_form")] = None
    move_time_s: Annotated[int, AfterValidator(_offered_time), Refuse(_bad_time)] = 30


class TournamentJoin(Body):
    """``POST /api/tournaments/{id}/join``: in a 2x2 event the partner's name (a registered
    player), and for one by invitation its token."""

    partner: Annotated[str | None, Refuse.by("partner_form")] = None
    invite: Annotated[str | None, Refuse.by("invite_form")] = None


class TournamentBots(Body):
    """``POST /api/tournaments/{id}/bots``: ``count`` bots of ``level`` enter (the
    organiser fills the field)."""

    level: Level = "greedy"
    count: Annotated[int, Refuse.by("bots_count_form")] = 1


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


class LeaveMessage(_Message):
    """The player leaves the match under way: a bot takes his seat at once, as if his grace
    had run out (a rated match is interrupted)."""

    type: Literal["leave"]


class NextMessage(_Message):
    """The player has seen the end of the round: the table need not wait for him before the
    next round's first turn (it waits for every seated player whose page is open, or
    ``round_pause_s``, whichever comes first)."""

    type: Literal["next"]


class PingMessage(_Message):
    """Answered with ``{"type": "pong"}``, to tell a live socket from a dead one."""

    type: Literal["ping"]


SocketMessage = Annotated[
    HelloMessage | MoveMessage | BackMessage | LeaveMessage | NextMessage | PingMessage,
    Field(discriminator="type"),
]

_SOCKET_MESSAGE: TypeAdapter[SocketMessage] = TypeAdapter(SocketMessage)

#: the refusal of a known message whose field is wrong, by field
_FIELD_REFUSALS = {"move": refusal_code("move_form"), "v": refusal_code("v_form")}


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
        return refusal_code("unknown_message")
    where = error["loc"]
    # (kind, field) for a field of a known kind; () for what is no message at all
    shape = refusal_code("message_form")
    return _FIELD_REFUSALS.get(where[1], shape) if len(where) > 1 else shape
