"""Moves and their notation.

A play is ``TILE[:END]`` (``6-4`` for a lead, ``6-4:R``); other kinds are ``KIND[ ARG]``
(``draw``, ``pass``, ``stop``, ``close 2-2:L``, ``bid 30``). Moves are interned like
tiles, so the same move is the same object:

>>> Move.parse("4-6:R") is Move.play(Tile.parse("6-4"), "R")
True
>>> str(Move.parse("draw")), Move.parse("6-4").end is None
('draw', True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from .errors import Names, invalid
from .tiles import COMPILED, Tile, never_deleted, write_once

__all__ = ["Move", "MoveSpace"]

#: Kinds with no tile and no argument.
BARE_KINDS = ("draw", "pass", "stop", "fold", "call", "check", "skip", "announce")
#: Kinds that carry a tile (and perhaps an end or a number after a colon).
TILE_KINDS = ("close", "cut", "last")
#: Kinds that carry a value (a number or a word).
VALUE_KINDS = ("bid", "trumps", "bet", "raise", "challenge")
KINDS = ("play", *BARE_KINDS, *TILE_KINDS, *VALUE_KINDS)

#: an end id: letters and digits, and a Chicken Foot toe's path of numbers (``3.2.1``)
_END = re.compile(r"^[A-Za-z0-9_]{1,8}(?:\.\d{1,2})*$")


class Move:
    """One atomic action of the seat to move. Immutable and interned; build with :meth:`parse`."""

    __slots__ = ("_text", "end", "kind", "tile", "value")

    # interned and shared: nothing may change a move once it is made (compiled, a Final
    # attribute is read-only; as pure Python, each is written once: tiles.write_once)
    kind: Final[str]
    tile: Final[Tile | None]
    end: Final[str | None]
    value: Final[int | str | None]
    _text: Final[str]

    _interned: ClassVar[dict[tuple[str, int, str | None, int | str | None], Move]] = {}

    def __new__(
        cls,
        kind: str,
        tile: Tile | str | None = None,
        end: str | None = None,
        value: int | str | None = None,
    ) -> Move:
        if isinstance(tile, str):
            tile = Tile.parse(tile)
        key = (kind, -1 if tile is None else tile.index, end, value)
        move = cls._interned.get(key)
        if move is None:
            _validate(kind, tile, end, value)
            move = object.__new__(cls)
            cls._interned[key] = move
        return move

    def __init__(
        self,
        kind: str,
        tile: Tile | str | None = None,
        end: str | None = None,
        value: int | str | None = None,
    ) -> None:
        # Python calls this after __new__ each time: an interned move is made once
        if hasattr(self, "_text"):
            return
        if isinstance(tile, str):
            tile = Tile.parse(tile)
        self.kind = kind
        self.tile = tile
        self.end = end
        self.value = value
        self._text = _format(kind, tile, end, value)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (Move, (self.kind, self.tile, self.end, self.value))

    @staticmethod
    def play(tile: Tile, end: str | None = None) -> Move:
        """Play ``tile`` on ``end`` (``None`` for the lead)."""
        made = Move._interned.get(("play", tile.index, end, None))
        return made if made is not None else Move("play", tile, end)

    @staticmethod
    def parse(text: str | Move | object) -> Move:
        # ``object``: a compiled parse says what is wrong with any value, not a TypeError
        """Parse the notation; a Move is returned as it is. Malformed text raises ValueError."""
        if isinstance(text, Move):
            return text
        move = _PARSED.get(text) if isinstance(text, str) else None
        if move is not None:
            return move
        if not isinstance(text, str):
            raise invalid("move_not_text", text=text)
        move = _parse(text.strip())
        if len(_PARSED) < 100_000:
            _PARSED[text] = move
        return move

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Move({self._text!r})"

    def __hash__(self) -> int:
        # a move is one object (interned): equal only to itself, hashed by its notation
        return hash(self._text)


if not COMPILED:
    setattr(Move, "__setattr__", write_once)  # noqa: B010 - a class's slot, set at run time
    setattr(Move, "__delattr__", never_deleted)  # noqa: B010

_PARSED: dict[str, Move] = {}


def _validate(kind: str, tile: Tile | None, end: str | None, value: int | str | None) -> None:
    if kind not in KINDS:
        raise invalid("move_kind", kind=kind, kinds=Names(KINDS))
    if end is not None and not (isinstance(end, str) and _END.match(end)):
        raise invalid("move_end", end=end)
    if (kind == "play" or kind in TILE_KINDS) and tile is None:
        raise invalid("move_needs_tile", kind=kind)
    if kind in BARE_KINDS and (tile is not None or end is not None or value is not None):
        raise invalid("move_bare", kind=kind)
    if kind in VALUE_KINDS and value is None:
        raise invalid("move_needs_value", kind=kind)


def _format(kind: str, tile: Tile | None, end: str | None, value: int | str | None) -> str:
    if kind == "play":
        return str(tile) if end is None else f"{tile}:{end}"
    if kind in BARE_KINDS:
        return kind
    if kind in TILE_KINDS:
        return f"{kind} {tile}" if end is None else f"{kind} {tile}:{end}"
    return f"{kind} {value}"


def _parse(text: str) -> Move:
    word, _, arg = text.partition(" ")
    arg = arg.strip()
    try:
        if word in BARE_KINDS:
            if arg:
                raise ValueError
            return Move(word)
        if word in VALUE_KINDS:
            if not arg:
                raise ValueError
            value: int | str = int(arg) if re.fullmatch(r"-?\d+", arg) else arg
            return Move(word, value=value)
        if word in TILE_KINDS:
            return Move(word, *_tile_and_end(arg))
        if arg:
            raise ValueError
        return Move("play", *_tile_and_end(word))
    except ValueError:
        raise invalid("malformed_move", text=text) from None


def _tile_and_end(text: str) -> tuple[Tile, str | None]:
    tile_text, colon, end = text.partition(":")
    if colon and not end:
        raise ValueError  # "6-4:" names no end
    return Tile.parse(tile_text), end or None


@dataclass(frozen=True)
class MoveSpace:
    """Every move a round of some rules can ever offer, as the family declares it
    (``Round.move_space``): what a fixed action space (``bazar.rl``) numbers.

    A move that names a tile is one of ``kinds`` × ``tiles`` × ``ends`` (``None``: a move
    that names no end, a lead or a trick's play). Where ``positional`` is set the ends are
    not names but places: end ``i`` of ``ends`` (after ``None``) is the ``i``-th open end of
    the position (``Round.ends()`` in its order), as in Chicken Foot whose branch ids grow
    without bound. Every other move is one of ``others``.

    >>> from bazar.core.tiles import tile_set
    >>> space = MoveSpace(tile_set(6), ("play",), (None, "L", "R"), (Move("pass"),))
    >>> space.tile_moves, space.size
    (84, 85)
    """

    tiles: tuple[Tile, ...]
    kinds: tuple[str, ...]
    ends: tuple[str | None, ...]
    others: tuple[Move, ...]
    positional: bool = False

    @property
    def tile_moves(self) -> int:
        """How many of the moves name a tile."""
        return len(self.kinds) * len(self.tiles) * len(self.ends)

    @property
    def size(self) -> int:
        """How many moves there are in all."""
        return self.tile_moves + len(self.others)
