"""Tiles and tile sets.

A tile is an unordered pair of pips. Tiles are interned: there is exactly one
:class:`Tile` object for each pair, so identity comparisons are cheap and tiles
can index tables.

>>> t = Tile.parse("4-6")
>>> str(t), t.high, t.low, t.pips, t.is_double
('6-4', 6, 4, 10, False)
>>> t is Tile.parse("[6|4]")
True
>>> len(tile_set(6)), len(tile_set(12))
(28, 91)

The canonical order sorts tiles by their high half, then their low half
(``0-0, 1-0, 1-1, 2-0, ...``); :attr:`Tile.index` is the position in that order.
The order of double-six is the start of the order of double-nine and so on, so
an index means the same tile in every set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from .errors import Names, invalid

__all__ = ["MAX_PIP", "Tile", "TileLike", "mask_of", "parse_tiles", "tile_set", "tiles_of"]

#: The largest set bazar supports is double-18.
MAX_PIP = 18
SET_SIZES = (6, 9, 12, 15, 18)

_PATTERN = re.compile(r"^\s*(\[)?\s*(\d{1,2})\s*[-|]\s*(\d{1,2})\s*(?(1)\])\s*$")


class Tile:
    """One domino: ``high >= low``. Build tiles with :meth:`parse` or :meth:`of`."""

    __slots__ = ("_suits", "_text", "high", "index", "is_double", "low", "pips")

    # interned and shared by every round: nothing may change a tile once it is made (compiled,
    # a Final attribute is read-only; as pure Python, each is written once: write_once)
    high: Final[int]
    low: Final[int]
    pips: Final[int]
    is_double: Final[bool]
    index: Final[int]
    _text: Final[str]

    def __init__(self, high: int, low: int) -> None:
        self.high = high
        self.low = low
        self.pips = high + low
        self.is_double = high == low
        self.index = high * (high + 1) // 2 + low
        self._text = f"{high}-{low}"

    @staticmethod
    def of(a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b`` in either order."""
        if not (0 <= a <= MAX_PIP and 0 <= b <= MAX_PIP):
            raise invalid("no_tile", a=a, b=b, high=MAX_PIP)
        return _BY_INDEX[_index(a, b)]

    @staticmethod
    def parse(text: str | Tile | object) -> Tile:
        # ``object``: a compiled parse says what is wrong with any value, not a TypeError
        """Parse ``"6-4"``, ``"4-6"``, ``"6|4"`` or ``"[6|4]"``; a Tile is returned as it is."""
        if isinstance(text, Tile):
            return text
        tile = _PARSED.get(text) if isinstance(text, str) else None
        if tile is not None:
            return tile
        match = _PATTERN.match(text) if isinstance(text, str) else None
        if match is None:
            raise invalid("malformed_tile", text=text)
        a, b = int(match.group(2)), int(match.group(3))
        if a > MAX_PIP or b > MAX_PIP:
            raise invalid("malformed_tile", text=text)
        return Tile.of(a, b)

    @staticmethod
    def from_index(index: int) -> Tile:
        """The tile at ``index`` in the canonical order."""
        return _BY_INDEX[index]

    def has(self, pip: int) -> bool:
        """Whether one half of the tile shows ``pip``."""
        return pip == self.high or pip == self.low

    def other(self, pip: int) -> int:
        """The half opposite the half showing ``pip`` (which must be on the tile)."""
        return self.low if pip == self.high else self.high

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Tile({self._text!r})"

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (Tile.of, (self.high, self.low))

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        # a tile is one object (interned): equal only to itself, hashed by its place in the
        # set (a compiled class that orders has no hash of its own)
        return self.index


def write_once(obj: object, name: str, value: object) -> None:
    """``__setattr__`` of an immutable class run as pure Python: an attribute is set once,
    as the object is made, and never again (compiled, its Final attributes are read-only)."""
    if hasattr(obj, name):
        raise AttributeError(f"{type(obj).__name__} is immutable")
    object.__setattr__(obj, name, value)


def never_deleted(obj: object, name: str) -> None:
    """``__delattr__`` of an immutable class run as pure Python."""
    raise AttributeError(f"{type(obj).__name__} is immutable")


#: whether this module runs compiled (bazar.hotpath): its classes then keep their Final
#: attributes read-only by themselves
COMPILED = not __file__.endswith(".py")
if not COMPILED:
    setattr(Tile, "__setattr__", write_once)  # noqa: B010 - a class's slot, set at run time
    setattr(Tile, "__delattr__", never_deleted)  # noqa: B010


def _index(a: int, b: int) -> int:
    high, low = (a, b) if a >= b else (b, a)
    return high * (high + 1) // 2 + low


_BY_INDEX: list[Tile] = [Tile(h, lo) for h in range(MAX_PIP + 1) for lo in range(h + 1)]
_PARSED: dict[str, Tile] = {}
for _t in _BY_INDEX:
    _PARSED[str(_t)] = _t
    _PARSED[f"{_t.low}-{_t.high}"] = _t
_SETS: dict[int, tuple[Tile, ...]] = {n: tuple(_BY_INDEX[: _index(n, n) + 1]) for n in SET_SIZES}


#: a tile or its text (``"6-4"``), as the public constructors take them
TileLike = Tile | str


def tile_set(n: int = 6) -> tuple[Tile, ...]:
    """The tiles of double-``n`` (6, 9, 12, 15 or 18) in canonical order."""
    try:
        return _SETS[n]
    except KeyError:
        raise invalid("no_set", n=n, sizes=Names(SET_SIZES)) from None


def parse_tiles(items: Iterable[str | Tile]) -> list[Tile]:
    """Parse each item with :meth:`Tile.parse`."""
    return [Tile.parse(item) for item in items]


def mask_of(tiles: Iterable[Tile]) -> int:
    """The bit set of ``tiles`` (bit ``t.index`` for each tile)."""
    mask = 0
    for tile in tiles:
        mask |= 1 << tile.index
    return mask


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles of a bit set, in canonical order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_BY_INDEX[low.bit_length() - 1])
        mask ^= low
    return tuple(out)
