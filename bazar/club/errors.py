"""What the club refuses, and why: each refusal has a stable code and its parameters beside
its English message, so the web page can say it in its own language (``i18n.js`` has the
``error.CODE`` texts); the message is what a client without the code shows.

>>> error = ServerError("not_your_turn", seat=2)
>>> error.to_json()
{'message': 'not your turn: seat 2 is to move', 'code': 'not_your_turn', 'params': {'seat': 2}}
"""

from __future__ import annotations

from typing import Any, Self

from bazar import i18n

__all__ = ["ERRORS", "ServerError"]

#: code: the English message, str.format fields by name
ERRORS: dict[str, str] = {
    # requests
    "login_first": "log in first (as a guest or with your account)",
    "too_large": "the request is too large (at most {limit} bytes)",
    "not_json": "the request body must be JSON",
    "not_login": "expected {{name, password}}",
    "not_object": "the request must be a JSON object",
    "json_only": "send the request body as application/json",
    "origin": "a request from another site ({origin}) may not act on this club",
    # accounts
    "name_form": "a name is 1 to 24 letters, digits, spaces, dots or dashes",
    "password_form": "a password has 6 to 200 characters",
    "name_taken": "the name '{name}' is taken",
    "wrong_login": "wrong name or password",
    # quotas
    "too_many_guests": "at most {limit} guests an hour from one address:"
    " try again in {retry_after} s",
    "too_many_tables": "you have {limit} tables open or playing already: finish or leave one first",
    "too_many_tries": "too many tries: try again in {retry_after} s",
    "name_reserved": "the name '{name}' is a bot's",
    "wrong_password": "wrong password",
    "guest_password": "a guest has no password: register first",
    "not_password": "expected {{old, new}}",
    # the game-request form
    "unknown_game": "unknown game '{game}'; games: {games}",
    "unknown_game_near": "unknown game '{game}' (did you mean {near}?); games: {games}",
    "options_form": "'options' must map option names to plain values",
    "players_form": "'players' must be a whole number",
    "rules": "{reason}",
    "move_time": "'move_time_s' must be one of {times} (seconds)",
    "access": "'access' must be one of {values}",
    "seat_form": "'seat' must be 0 to {last}",
    "option_range": "option {option} of {game} takes a number from {low} to {high} here",
    "seat_number": "'seat' must be a seat number: 0, 1, ...",
    "rated_form": "'rated' must be true or false",
    "invite_form": "'invite' must be the token of the table's invitation link",
    "rated_guest": "a rated table is for registered players: guests play unrated tables",
    "rated_bots": "a rated table has no bots (ratings are between registered players only):"
    " untick rated, or leave the seats to people",
    # seats
    "no_table": "no table '{table}'",
    "table_broken": "table '{table}' is out of order: the server could not rebuild it from its"
    " stored moves",
    "started": "the table has started",
    "invitation": "this table is by invitation link only",
    "seated": "you already sit at this table",
    "no_free_seat": "no free seat",
    "seat_taken": "seat {seat} is not free; free seats: {free}",
    "owner_bots": "only the table's owner can call bots",
    "unknown_level": "unknown bot level '{level}'; levels: {levels}",
    "no_seat_to_leave": "you have no seat to leave at a table that has not started",
    "seat_reserved": "seat {seat} is kept for {name}, who played the match before",
    "bots_alone": "bots play with people: sit at the table before you call them",
    "rematch_player": "only a player of the table can ask for a rematch",
    "not_over": "the match is not over",
    "rematch_closed": "the time for a rematch of this table is over",
    # moves, over the socket
    "text_frames": "send JSON in text frames",
    "message_too_large": "message over {limit} bytes",
    "message_form": "messages are JSON objects",
    "hello_first": 'send {{"type": "hello", "v": N}} first',
    "unknown_message": "unknown message; send hello, move, back or ping",
    "too_fast": "too many messages: at most {rate} a second",
    "spectator": "spectators cannot move",
    "move_form": "'move' must be a move in notation",
    "v_form": "'v' must be the last version seen",
    "malformed_move": "malformed move '{move}': {reason}",
    "illegal_move": "illegal move '{move}'; legal now: {legal}",
    "not_started": "the match has not started",
    "match_over": "the match is over",
    "bot_seat": "a bot has taken your seat",
    "no_bot_for_you": "no bot plays for you",
    "not_your_turn": "not your turn: seat {seat} is to move",
    "stale": "stale move: the table is at version {v}, not {yours}",
    "not_stored": "the server could not store your move (its database is busy): the move is not"
    " made, send it again",
    "db_busy": "the club's database is busy: nothing was changed; try again in {retry_after} s",
    # records and players
    "no_record": "no such record",
    "ply_form": "'ply' must be a whole number",
    "record_too_large": "a record has at most {limit} bytes",
    "bad_record": "{reason}",
    "no_player": "no such player",
}


class ServerError(ValueError):
    """A refusal: ``code`` (a key of :data:`ERRORS`), its ``params``, the HTTP ``status``."""

    def __init__(self, code: str, status: int = 400, **params: Any) -> None:
        self.code = code
        self.params = params
        self.status = status
        super().__init__(ERRORS[code].format(**params))

    @classmethod
    def passing_on(cls, code: str, error: Exception) -> Self:
        """The refusal ``code`` that passes on a library error (rules, a record): its English
        as ``reason``, its Russian (where the catalogue has one) as ``reason_ru``."""
        reason = str(error)
        return cls(code, reason=reason, reason_ru=i18n.translate(reason, "ru") or reason)

    def to_json(self) -> dict[str, Any]:
        return {"message": str(self), "code": self.code, "params": self.params}
