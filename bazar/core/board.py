"""Layouts: where tiles lie on the table and which ends are open.

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

The line rounds of bazar keep their hot state as bit sets and build this layout on access;
the cross games play on it directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .tiles import Tile

__all__ = ["ARM_IDS", "Line", "Spinner"]

#: The arms of a line or cross, in the order they open.
ARM_IDS = ("L", "R", "U", "D")


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
    """A line of tiles with two ends, or a cross around one spinner."""

    spinner_enabled: bool = False
    lead: Tile | None = None
    #: each arm's tiles from the centre outward, each as (inner pip, outer pip)
    arms: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    spinner: Spinner | None = None

    def __init__(self, spinner: bool = False) -> None:
        self.spinner_enabled = spinner
        self.lead = None
        self.arms = {}
        self.spinner = None

    def ends(self) -> dict[str, int]:
        """Open ends, id -> pip, in the order ``L R U D S``; ``{}`` before the lead."""
        lead = self.lead
        if lead is None:
            return {}
        out = {"L": self._outer("L", lead.high), "R": self._outer("R", lead.low)}
        for arm in ("U", "D"):
            if arm in self.arms:
                out[arm] = self.arms[arm][-1][1]
        if self.free_slot():
            assert self.spinner is not None
            out["S"] = self.spinner.value
        return out

    def _outer(self, arm: str, start: int) -> int:
        tiles = self.arms.get(arm)
        return tiles[-1][1] if tiles else start

    def free_slot(self) -> bool:
        """Whether a tile may start a new arm of the spinner (both its sides covered, k < 4)."""
        s = self.spinner
        return s is not None and self._sides_covered() and s.covered < 4

    def _sides_covered(self) -> bool:
        s = self.spinner
        assert s is not None
        if not s.arm:
            return bool(self.arms.get("L")) and bool(self.arms.get("R"))
        return len(self.arms.get(s.arm, ())) > s.depth + 1

    def place(self, tile: Tile, end: str | None) -> None:
        """Lay ``tile`` on ``end`` (``None``: the lead). The caller has checked it fits."""
        if end is None:
            self.lead = tile
            self.arms = {"L": [], "R": []}
            if tile.is_double and self.spinner_enabled:
                self.spinner = Spinner(tile.high, 0)
            return
        if end == "S":
            assert self.spinner is not None
            end = "U" if "U" not in self.arms else "D"
            self.arms[end] = []
            pip = self.spinner.value
        else:
            pip = self.ends()[end]
        self.arms[end].append((pip, tile.other(pip)))
        s = self.spinner
        if s is not None:
            # an arm is covered by the first tile beyond the spinner on it; for a spinner
            # played onto an end, the other line arm lies behind it (already counted)
            if s.arm == end:
                beyond = s.depth + 2
            elif s.arm == "" or end in ("U", "D"):
                beyond = 1
            else:
                beyond = -1
            if len(self.arms[end]) == beyond:
                s.covered += 1
        elif tile.is_double and self.spinner_enabled:
            self.spinner = Spinner(tile.high, 1, end, len(self.arms[end]) - 1)

    def at_end_is_double(self, end: str) -> bool:
        """Whether the tile at ``end`` is a crosswise double (its outer side free)."""
        tiles = self.arms.get(end)
        if tiles:
            inner, outer = tiles[-1]
            return inner == outer
        return self.lead is not None and self.lead.is_double and end in ("L", "R")

    def row(self) -> tuple[str, ...]:
        """The line ``L`` to ``R`` as the table shows it, each tile ``a|b`` (``a`` faces left)."""
        if self.lead is None:
            return ()
        left = [f"{outer}|{inner}" for inner, outer in reversed(self.arms["L"])]
        right = [f"{inner}|{outer}" for inner, outer in self.arms["R"]]
        return (*left, f"{self.lead.high}|{self.lead.low}", *right)

    def branches(self) -> dict[str, tuple[str, ...]]:
        """The arms ``U`` and ``D`` from the spinner outward, each tile ``inner|outer``."""
        return {
            arm: tuple(f"{i}|{o}" for i, o in self.arms[arm])
            for arm in ("U", "D")
            if arm in self.arms
        }
