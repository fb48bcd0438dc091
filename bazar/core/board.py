"""Layouts: where tiles lie on the table and which ends are open, and the typed
:class:`Board` every family shows in its views.

:class:`Line` is the layout of the line and cross games (``common.md`` §3.1–3.2): two ends
``L`` and ``R``; with ``spinner=True`` the first double played grows the arms ``U`` and ``D``
once both of its sides are covered, offered as one free-slot entry ``S`` while it has fewer
than four covered arms. The spinner is kept as its value and its covered arms.

>>> line = Line(spinner=True)
>>> for tile, end in [("5-5", None), ("5-3", "L"), ("5-1", "R"), ("5-2", "S")]:
...     line.place(Tile.parse(tile), end)
>>> line.ends()
{'L': 3, 'R': 1, 'U': 2, 'S': 5}
>>> line.spinner.value, line.spinner.covered
(5, 3)

The line and cross rounds keep their hot state as bit sets and build this layout from the
history on access: it is their ``layout()`` and what their boards show.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import invalid
from .tiles import MAX_PIP, Tile

__all__ = ["ARM_IDS", "Board", "Laid", "Line", "Spinner"]

#: The arms of a line or cross, in the order they open.
ARM_IDS = ("L", "R", "U", "D")


@dataclass(frozen=True, slots=True)
class Laid:
    """A tile as it lies in a row on the table: ``first`` is the half read first (toward
    the line's left end, the engine, the spinner or the sausage's start), written ``a|b``.

    >>> laid = Laid.parse("4|6")
    >>> laid.tile, laid.first, laid.second, str(laid)
    (Tile('6-4'), 4, 6, '4|6')
    """

    first: int
    second: int

    @classmethod
    def parse(cls, text: str) -> Laid:
        """Read ``"a|b"``, the form :func:`str` writes."""
        a, bar, b = text.partition("|")
        if not (bar and a.isdigit() and b.isdigit() and max(int(a), int(b)) <= MAX_PIP):
            raise invalid("malformed_laid", text=text, high=MAX_PIP)
        return cls(int(a), int(b))

    @property
    def tile(self) -> Tile:
        return Tile.of(self.first, self.second)

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    def __str__(self) -> str:
        return f"{self.first}|{self.second}"

    def __repr__(self) -> str:
        return f"Laid({str(self)!r})"


class Board(ABC):
    """What lies on the table, as a family's layout places it: each family defines one
    frozen dataclass (``LineBoard``, ``CrossBoard``, ``TrainsBoard``, ...) and its views
    hold it. Every board lists its :meth:`tiles` and has a JSON form tagged by its
    :attr:`kind`, which :meth:`from_json` reads back to the same board (``docs/api.md``,
    "Boards")."""

    __slots__ = ()

    #: the family's tag in the JSON form
    kind: ClassVar[str]
    #: every board class by kind, filled as the families define them
    kinds: ClassVar[dict[str, type[Board]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # a slotted dataclass is made anew from its class: the later one is the board
        Board.kinds[cls.kind] = cls

    @abstractmethod
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile on the table."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict with the key ``kind``; :meth:`from_json` reverses it."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Board:
        """The board of the kind ``data["kind"]`` names."""
        kind = data.get("kind")
        board = Board.kinds.get(kind) if isinstance(kind, str) else None
        if board is None or not issubclass(board, cls):
            known = ", ".join(k for k, b in Board.kinds.items() if issubclass(b, cls))
            raise invalid("board_kind", kind=kind, known=known)
        return board._from_json(data)

    @classmethod
    @abstractmethod
    def _from_json(cls, data: dict[str, Any]) -> Board:
        """The board of this kind that ``data`` describes."""


@dataclass
class Spinner:
    """The spinner: its value, its place in the line, and how many of its arms carry a tile."""

    value: int
    covered: int
    #: the arm the spinner lies on ("" for a spinner lead, which lies at the centre)
    arm: str = ""
    #: how many tiles of that arm lie between the centre and the spinner
    depth: int = 0


@dataclass
class Line:
    """A line of tiles with two ends, or a cross around one spinner; a double laid closed
    (face down, «Осёл») seals the end it lies at."""

    spinner_enabled: bool = False
    lead: Tile | None = None
    #: each arm's tiles from the centre outward, each as (inner pip, outer pip)
    arms: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    spinner: Spinner | None = None
    #: the doubles laid closed
    closed: set[Tile] = field(default_factory=set)

    def __init__(self, spinner: bool = False) -> None:
        self.spinner_enabled = spinner
        self.lead = None
        self.arms = {}
        self.spinner = None
        self.closed = set()

    def ends(self) -> dict[str, int]:
        """Open ends, id -> pip, in the order ``L R U D S``; ``{}`` before the lead; a
        sealed end is not open."""
        out = {arm: self._pip(arm) for arm in self.arms if self._end_tile(arm) not in self.closed}
        if self.free_slot():
            assert self.spinner is not None
            out["S"] = self.spinner.value
        return out

    def _pip(self, arm: str) -> int:
        tiles = self.arms[arm]
        if tiles:
            return tiles[-1][1]
        assert self.lead is not None
        return self.lead.high if arm == "L" else self.lead.low

    def _end_tile(self, arm: str) -> Tile:
        tiles = self.arms[arm]
        if tiles:
            return Tile.of(*tiles[-1])
        assert self.lead is not None
        return self.lead

    def free_slot(self) -> bool:
        """Whether a tile may start a new arm of the spinner (both its sides covered, k < 4)."""
        s = self.spinner
        return s is not None and self._sides_covered() and s.covered < 4

    def _sides_covered(self) -> bool:
        s = self.spinner
        assert s is not None
        if not s.arm:
            return bool(self.arms["L"]) and bool(self.arms["R"])
        return len(self.arms[s.arm]) > s.depth + 1

    def place(self, tile: Tile, end: str | None, closed: bool = False) -> None:
        """Lay ``tile`` on ``end`` (``None``: the lead), face down if ``closed``. The caller
        has checked it fits."""
        # a closed double seals its end and is no spinner
        if closed:
            self.closed.add(tile)
        spins = tile.is_double and self.spinner_enabled and not closed
        if end is None:
            self.lead = tile
            self.arms = {"L": [], "R": []}
            if spins:
                self.spinner = Spinner(tile.high, 0)
            return
        s = self.spinner
        if end == "S":
            assert s is not None
            end = "U" if "U" not in self.arms else "D"
            tiles = self.arms[end] = []
            pip = s.value
        else:
            tiles = self.arms[end]
            pip = self._pip(end)
        tiles.append((pip, tile.low if pip == tile.high else tile.high))
        if s is not None:
            # an arm is covered by the first tile beyond the spinner on it; for a spinner
            # played onto an end, the other line arm lies behind it (already counted)
            if s.arm == end:
                beyond = s.depth + 2
            elif s.arm == "" or end in ("U", "D"):
                beyond = 1
            else:
                beyond = -1
            if len(tiles) == beyond:
                s.covered += 1
        elif spins:
            self.spinner = Spinner(tile.high, 1, end, len(tiles) - 1)

    def at_end_is_double(self, end: str) -> bool:
        """Whether the tile at ``end`` is a crosswise double (its outer side free)."""
        return end in self.arms and self._end_tile(end).is_double

    def row(self) -> tuple[Laid, ...]:
        """The line ``L`` to ``R`` as the table shows it (``first`` faces left)."""
        if self.lead is None:
            return ()
        left = [Laid(outer, inner) for inner, outer in reversed(self.arms["L"])]
        right = [Laid(inner, outer) for inner, outer in self.arms["R"]]
        return (*left, Laid(self.lead.high, self.lead.low), *right)

    def branch(self, arm: str) -> tuple[Laid, ...]:
        """The spinner's arm ``U`` or ``D`` from the spinner outward (``first`` toward it);
        ``()`` before it starts."""
        return tuple(Laid(inner, outer) for inner, outer in self.arms.get(arm, ()))
