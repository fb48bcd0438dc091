"""What the club sends on its sockets, as typed models (pydantic): the other half of the
protocol, beside :mod:`bazar.club.protocol`'s models of what a client sends. Each message is
one JSON object told apart by its ``type`` (:data:`Message`); a table's events and notices
inside them by their ``t`` (:data:`Event`, :data:`Notice`). ``docs/protocol.md`` says what
each one means; :func:`schema` is the JSON Schema of both directions, the file
``docs/protocol.schema.json`` (``python -m bazar.club.messages`` writes it).

A field that a message carries only at times (a forced move's ``forced``, a paused clock's
``starts_in_s``) is absent otherwise, never null: a model is built with the fields sent and
written with :func:`text`, which leaves the others out.

The club builds its messages itself, so it builds them without validation
(``model_construct``, where a part may stay the plain JSON object it already is, such as a
view's ``to_json()``) and writes each once per audience:

>>> clock = Clock.model_construct(seat=1, left_s=29.5)
>>> move = MoveEvent.model_construct(t="move", v=7, seat=0, move="6-4:R", ends={"L": 6})
>>> text(EventMessage.model_construct(type="event", v=7, event=move, view=None, round=1,
...                                   clock=clock))
'{"type":"event","v":7,"event":{"v":7,"t":"move","seat":0,"move":"6-4:R","ends":{"L":6}},\
"view":null,"round":1,"clock":{"seat":1,"left_s":29.5}}'

A client (a test) reads them with validation:

>>> read('{"type": "pong"}')
PongMessage(type='pong')
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .protocol import OptionValue, SocketMessage

__all__ = [
    "Away",
    "BackEvent",
    "Badge",
    "Clock",
    "ClosedNotice",
    "DisconnectedNotice",
    "Ending",
    "ErrorMessage",
    "Event",
    "EventMessage",
    "Final",
    "MatchEndEvent",
    "Message",
    "MoveEvent",
    "Notice",
    "NoticeMessage",
    "Outcome",
    "Pause",
    "PauseEndNotice",
    "PongMessage",
    "Ratings",
    "ReconnectedNotice",
    "RematchNotice",
    "ReplacedEvent",
    "Reserved",
    "ReturningEvent",
    "RoundEndEvent",
    "RoundStartEvent",
    "RulesInfo",
    "Scores",
    "Seat",
    "SeenNotice",
    "StartEvent",
    "SyncMessage",
    "TableInfo",
    "TableMessage",
    "TablesMessage",
    "TournamentEntry",
    "TournamentInfo",
    "TournamentMessage",
    "TournamentPairing",
    "TournamentRound",
    "TournamentStanding",
    "View",
    "read",
    "schema",
    "text",
]


class Sent(BaseModel):
    """A part of what the club sends: exactly these fields (a field the club sent that is
    not here is a fault of the club, or of this module), each described by its docstring."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


#: a seat's number at its table: 0, 1, ...
SeatNumber = Annotated[int, Field(ge=0)]
#: a tile in notation ("6-4")
TileText = str
#: a plain JSON object, whose fields the family says (a board, a view's extra)
JsonObject = dict[str, Any]


# the table


class Seat(Sent):
    """Who sits at a seat."""

    name: str
    """the player's name (a bot's is its level's)"""
    guest: bool
    """whether he is a guest (his name is not his alone)"""
    bot: str | None
    """the level of the bot that plays the seat (None: its player does)"""
    why: Literal["timeout", "gone"] | None = None
    """present where a bot plays for the seat's player: he ran out of time or stayed away"""
    back: bool = False
    """present where a bot plays for the seat's player: whether he asked for the seat back"""


class Reserved(Sent):
    """An empty seat kept for a player of the match before, while he may accept the
    rematch."""

    seat: SeatNumber
    name: str


class Away(Sent):
    """A player whose page is closed, and the seconds of grace he has left to come back."""

    seat: SeatNumber
    left_s: float


class Pause(Sent):
    """The wait between a round's end and the next round's first turn."""

    left_s: float
    """seconds left of it"""
    waiting: list[SeatNumber]
    """the seats it still waits for (those that may say ``next``)"""


class Ratings(Sent):
    """The ratings' changes a rated match made, by seat (as a JSON object's keys)."""

    kozel: dict[str, int | float] = Field(default_factory=dict)
    """Kozel's points rating: each seat's change (absent: not a Kozel rating)"""
    skill: dict[str, float] = Field(default_factory=dict)
    """each seat's skill rating after the match"""


class Ending(Sent):
    """How a match ended, and what came of it; each field is absent unless it says so."""

    normal: bool = False
    """the match was played to its end"""
    timeout: SeatNumber | None = None
    """the seat whose player ran out of time, or (``gone``) stayed away past the grace"""
    gone: bool = False
    """the ``timeout`` seat's player stayed away"""
    deserted: bool = False
    """bots alone played it for a grace, none of its players here"""
    ratings: Ratings | None = None
    """the ratings' changes of a rated match"""
    rematch: str | None = None
    """the table of its rematch, once one was asked for"""


class Badge(Sent):
    """What a table of a tournament says of it."""

    id: str
    """the tournament"""
    name: str
    round: int | None
    """its round the match is of"""
    board: int | None
    """the board of that round"""


class TableInfo(Sent):
    """A table: its game, its seats and its status (``GET /api/tables/TABLE``)."""

    id: str
    game: str
    """the game's name (``GET /api/games``)"""
    players: int
    options: dict[str, OptionValue]
    """the rules' options"""
    listing: str | None
    """the rules in the notation of a record's header (None: not to be said)"""
    seats: list[Seat | None]
    """who sits at each seat (None: a free seat)"""
    reserved: list[Reserved]
    move_time_s: int
    rated: bool
    access: Literal["open", "invitation_link"]
    status: Literal["open", "playing", "finished"]
    ending: Ending | None
    """how the match ended (None while it is played)"""
    away: list[Away]
    pause: Pause | None
    """the pause between two rounds, while it lasts"""
    rematch_left_s: float | None
    """the seconds the players of a finished match may still ask for a rematch"""
    v: int
    """the table's version: the number of events it has announced"""
    tournament: Badge | None = None
    """present at a tournament's table"""


class Clock(Sent):
    """The seat to move and its time (a live match only)."""

    seat: SeatNumber
    left_s: float
    """the seconds it has left to move (while the table pauses: the whole move time)"""
    starts_in_s: float | None = None
    """present while the table pauses between rounds: the seconds until the clock runs"""


# what a seat sees


class CapabilitiesInfo(Sent):
    """What a client may rely on about a game (``Rules.capabilities``), instead of its
    name."""

    round_score: Literal["award", "bonus", "chips", "penalty", "points"]
    """what the row of a round's change in the score table is"""
    scored_in_play: bool
    """whether points are scored during play"""
    end_names: Literal["pip", "joint", "train", "branch"] | None
    """how an open end is named (None: no tile is laid in a line)"""
    seat_rows: Literal["open", "blind"] | None
    """how the board shows the seats' tiles (None: it does not)"""
    hand_counts: Literal["pips", "tiles"]
    """what a hand left at a round's end counts"""
    has_bazar: bool
    """whether there is a bazar for the table to count"""
    own_trains: bool
    """whether each seat builds a train of its own"""
    satisfies_doubles: bool
    """whether a double laid stays open until tiles satisfy it"""
    club_points: bool
    """whether a rated match also keeps the club's Kozel points"""


class RulesInfo(Sent):
    """The rules a view is played by."""

    name: str
    """the variant's name"""
    family: str
    """its family: line, cross, trains, kolbasa, trick, poker ..."""
    loser: str | None
    """what the match calls its loser (``goat`` in Kozel, ``donkey`` in Osel; None: a plain
    loser)"""
    options: dict[str, OptionValue]
    capabilities: CapabilitiesInfo
    """what a client may rely on about the game, instead of its name"""


class Scores(Sent):
    """The match's scores as every seat sees them (``Ledger.public``), and beside these
    fields the family's own (Fives' ``in_play``, Kozel's ``title``, ...)."""

    model_config = ConfigDict(extra="allow")

    scores: list[int | float]
    """each side's score (poker: chips)"""
    remembered: list[int | float]
    opened: list[bool]
    pot: int | float
    rounds: int
    """the rounds played"""


class Outcome(Sent):
    """How a round ended (``Outcome.to_json``)."""

    reason: str
    """``out`` (a seat went out), ``fish`` (blocked), or the family's own"""
    out_seat: SeatNumber | None
    remaining: list[list[TileText] | None]
    """each seat's tiles left (None: a hand the rules keep hidden)"""
    points: list[int]
    """each seat's points for the round"""
    fisher: SeatNumber | None
    leader: SeatNumber | None
    lead: TileText | None
    last_turn: list[TileText]
    """the tiles of the turn that laid the round's last tile"""
    scoring: list[tuple[SeatNumber, int]]
    """the points scored during play, in order: (seat, points)"""
    extra: JsonObject | None
    """the family's own account of the end"""


class EventView(Sent):
    """What one seat may see now, as an event's message carries it: the view without its
    rules, which never change (the sync's view has them)."""

    seat: SeatNumber | None
    """the seat (None: a spectator)"""
    turn: SeatNumber | None
    """the seat to move (None: the round is over)"""
    hand: list[TileText] | None
    hand_sizes: list[int]
    bazar_size: int
    drawable: int
    """the tiles a seat may still draw"""
    ends: dict[str, int]
    """the open ends by name (``L``, ``R``; a train's), each the pip it shows"""
    board: JsonObject
    """the tiles on the table as the family lays them out; ``kind`` names the layout"""
    history: list[tuple[SeatNumber, str, TileText | None]]
    """the round's moves: (seat, move, the tile drawn: this seat's own draws alone)"""
    legal: list[str]
    """the moves this seat may make now (none unless it is to move)"""
    scores: Scores
    outcome: Outcome | None
    """how the round ended, once it has"""
    extra: JsonObject
    """the family's public state: the leader, the round's number, the forced lead ..."""


class View(EventView):
    """What one seat may see now (``View.to_json``); a spectator's has no hand. The board and
    ``extra`` are each family's own JSON objects: their shapes are the boards' classes'
    (``Board.to_json``, one per family, told apart by ``kind``), which read them back."""

    rules: RulesInfo


# the table's events: versioned, in its log


class _Versioned(Sent):
    v: int
    """the event's version: its number in the table's log (1, 2, ...)"""


class StartEvent(_Versioned):
    """The match is dealt."""

    t: Literal["start"]
    seats: list[Seat | None]


class RoundStartEvent(_Versioned):
    """A round is dealt."""

    t: Literal["round_start"]
    number: int
    seed_hash: str
    """the hash of the round's seed, told before its play (its end tells the seed)"""


class MoveEvent(_Versioned):
    """A seat's move."""

    t: Literal["move"]
    seat: SeatNumber
    move: str
    """the move in notation"""
    ends: dict[str, int]
    """the open ends it was made against"""
    forced: bool = False
    """present (true) where the table made it for the seat's player: his lone draw or pass"""


class Final(Sent):
    """The position a round ended in."""

    view: View
    """what a spectator sees of it"""
    hands: list[list[TileText] | None]
    """each seat's tiles left (None: a hand the rules keep hidden)"""
    values: list[int | None]
    """what each hand counts by the rules"""


class RoundEndEvent(_Versioned):
    """A round ended; the next one, if any, is dealt at once."""

    t: Literal["round_end"]
    number: int
    outcome: Outcome
    final: Final
    next_in_s: float
    """the seconds the table waits before the next round (0: it does not)"""
    waiting: list[SeatNumber]
    """the seats it waits for"""
    before: Scores
    """the scores the round was dealt with"""
    after: Scores
    seed: str
    """the round's seed (a string: a JavaScript number would lose its low digits)"""
    seed_hash: str


class MatchEndEvent(_Versioned):
    """The match ended."""

    t: Literal["match_end"]
    ending: Ending | None
    winners: list[SeatNumber]
    losers: list[SeatNumber]
    places: list[int] | None
    """each seat's place, 1 the best (None: interrupted without a result)"""
    scores: Scores
    seed: str
    """the match's seed"""
    ratings: Ratings | None


class _HandsChange(_Versioned):
    seat: SeatNumber
    name: str
    """the seat's player"""
    seats: list[Seat | None]
    """the seats after the change"""


class ReplacedEvent(_HandsChange):
    """A bot took a player's seat."""

    t: Literal["replaced"]
    why: Literal["timeout", "gone"]


class ReturningEvent(_HandsChange):
    """The player asked for his seat back: his from its next turn."""

    t: Literal["returning"]


class BackEvent(_HandsChange):
    """The player has his seat back."""

    t: Literal["back"]


Event = Annotated[
    StartEvent
    | RoundStartEvent
    | MoveEvent
    | RoundEndEvent
    | MatchEndEvent
    | ReplacedEvent
    | ReturningEvent
    | BackEvent,
    Field(discriminator="t"),
]


# the table's notices: not part of the game, unversioned


class _Someone(Sent):
    seat: SeatNumber
    name: str


class DisconnectedNotice(_Someone):
    """A player's last page closed: his grace begins."""

    t: Literal["disconnected"]
    grace_s: float


class ReconnectedNotice(_Someone):
    """A player is back within his grace."""

    t: Literal["reconnected"]


class SeenNotice(_Someone):
    """A player said ``next``."""

    t: Literal["seen"]
    waiting: list[SeatNumber]
    """the seats the pause still waits for"""


class PauseEndNotice(Sent):
    """The next round's first turn begins, and its clock runs."""

    t: Literal["pause_end"]


class ClosedNotice(Sent):
    """The table was given up before it started."""

    t: Literal["closed"]


class RematchNotice(_Someone):
    """A player asked for a rematch (``seat``, ``name``): its table."""

    t: Literal["rematch"]
    table: str


Notice = Annotated[
    DisconnectedNotice
    | ReconnectedNotice
    | SeenNotice
    | PauseEndNotice
    | ClosedNotice
    | RematchNotice,
    Field(discriminator="t"),
]


# a table's socket


class SyncMessage(Sent):
    """The answer to a hello: what the socket missed, and where the table stands."""

    type: Literal["sync"]
    v: int
    """the table's version"""
    events: list[Event]
    """the events after the version the hello named"""
    view: View | None
    """what the socket's seat sees (None: not dealt)"""
    round: int | None
    """the number of the round the view shows"""
    table: TableInfo
    clock: Clock | None


class EventMessage(Sent):
    """One event of the table, and the socket's view after it."""

    type: Literal["event"]
    v: int
    event: Event
    view: View | EventView | None
    """the seat's view after the event: without its rules (the sync's), but at ``start``"""
    round: int | None
    clock: Clock | None


class NoticeMessage(Sent):
    """A change that is not part of the game."""

    type: Literal["notice"]
    event: Notice
    table: TableInfo
    clock: Clock | None


class TableMessage(Sent):
    """The table's seats or status changed."""

    type: Literal["table"]
    table: TableInfo
    view: View | None


class ErrorMessage(Sent):
    """A message of this socket was refused (nothing changed), or the socket cannot be
    served."""

    type: Literal["error"]
    message: str
    """the refusal in English"""
    code: str
    """the refusal's code (the catalogue's ``club.CODE``)"""
    params: JsonObject
    """what the refusal names"""


class PongMessage(Sent):
    """The answer to a ping."""

    type: Literal["pong"]


# the lobby's socket and a tournament's


class TablesMessage(Sent):
    """The lobby's list of open tables (``/ws/lobby``), newest first."""

    type: Literal["tables"]
    tables: list[TableInfo]


class TournamentEntry(Sent):
    """An entry of a tournament: a player, a team or a bot."""

    id: int
    name: str
    members: list[str]
    bot: str | None
    withdrawn: bool
    user: int | None = None
    """present for a person's entry: his account"""


class TournamentPairing(Sent):
    """A match of a round (or a bye)."""

    board: int
    entries: list[int]
    """the entries in side order"""
    bye: bool
    places: list[int] | None
    points: list[float] | None
    table: str | None
    record: str | None
    """the finished match's record"""
    forfeit: list[int]


class TournamentRound(Sent):
    """A round's pairings."""

    round: int
    pairings: list[TournamentPairing]


class TournamentStanding(Sent):
    """A line of the standings."""

    rank: int
    entry: int
    name: str
    points: float
    played: int
    wins: float
    tiebreaks: dict[str, float]
    out: int | None
    """the knock-out round the entry went out in"""


class TournamentInfo(Sent):
    """A tournament (``T`` of docs/protocol.md)."""

    id: str
    name: str
    game: str
    players: int | None
    format: Literal["round_robin", "swiss", "knockout", "arena"]
    rounds: int | None
    duration_s: float | None
    teams: bool
    rated: bool
    access: Literal["open", "invite"]
    status: Literal["open", "playing", "finished"]
    owner: int | None
    starts_at: float | None
    started_at: float | None
    round: int
    """the rounds paired so far"""
    entries: list[TournamentEntry]
    options: dict[str, OptionValue]
    move_time_s: int
    rounds_played: list[TournamentRound]
    standings: list[TournamentStanding]
    you: int | None = None
    """present for a player entered: his entry"""
    invite: str | None = None
    """present for its organiser: the invitation's token"""


class TournamentMessage(Sent):
    """A tournament, at once and after each change (``/ws/tournaments/ID``)."""

    type: Literal["tournament"]
    tournament: TournamentInfo


Message = Annotated[
    SyncMessage
    | EventMessage
    | NoticeMessage
    | TableMessage
    | ErrorMessage
    | PongMessage
    | TablesMessage
    | TournamentMessage,
    Field(discriminator="type"),
]

_MESSAGE: TypeAdapter[Message] = TypeAdapter(Message)


def text(message: Sent) -> str:
    """The JSON text of ``message`` as the club sends it: the fields it was built with, in
    the model's order, not validated. A part left as a plain JSON object is written as it
    is (pydantic's warning that it is no model is the point, not a fault)."""
    return message.model_dump_json(exclude_unset=True, warnings=False)


def read(raw: str | bytes) -> Message:
    """The message the club sent as ``raw``, validated (ValidationError if it is not one)."""
    return _MESSAGE.validate_json(raw)


def schema() -> dict[str, Any]:
    """The JSON Schema of the socket protocol, both directions: a message is a
    ``ClientMessage`` (what a client sends) or a ``ClubMessage`` (what the club sends), each
    a union told apart by ``type``; the parts are in ``$defs``."""
    sides: dict[str, tuple[TypeAdapter[Any], str]] = {
        "ClientMessage": (TypeAdapter(SocketMessage), "a message a client sends the club"),
        "ClubMessage": (_MESSAGE, "a message the club sends a client"),
    }
    found, parts = TypeAdapter.json_schemas(
        [(name, "validation", adapter) for name, (adapter, _) in sides.items()],
        title="The bazar club's socket protocol",
        description=(
            "One JSON object per text frame of a socket (/ws/TABLE, /ws/lobby, "
            "/ws/tournaments/ID), told apart by its type; docs/protocol.md says what each "
            "means. Made from bazar/club/protocol.py and bazar/club/messages.py by "
            "python -m bazar.club.messages."
        ),
    )
    defs = dict(parts.pop("$defs"))
    for name, (_, about) in sides.items():
        defs[name] = {**found[(name, "validation")], "description": about}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **parts,
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in sides],
        "$defs": dict(sorted(defs.items())),
    }


if __name__ == "__main__":
    json.dump(schema(), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
