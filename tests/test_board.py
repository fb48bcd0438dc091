"""The line and cross layouts of common.md §3.1–3.2 and fives.md §4."""

from __future__ import annotations

from bazar.core.board import Line
from bazar.core.tiles import Tile


def build(plays: list[tuple[str, str | None]], spinner: bool = True) -> Line:
    line = Line(spinner=spinner)
    for tile, end in plays:
        line.place(Tile.parse(tile), end)
    return line


def test_a_lead_shows_its_high_half_on_l_and_low_half_on_r() -> None:
    line = build([("6-4", None)], spinner=False)
    assert line.ends() == {"L": 6, "R": 4}
    assert tuple(map(str, line.row())) == ("6|4",)


def test_a_double_on_a_line_end_does_not_branch() -> None:
    line = build([("6-4", None), ("4-4", "R"), ("4-1", "R")], spinner=False)
    assert line.ends() == {"L": 6, "R": 1}
    assert tuple(map(str, line.row())) == ("6|4", "4|4", "4|1")


def test_a_spinner_lead_opens_the_free_slot_once_both_sides_are_covered() -> None:
    line = build([("5-5", None)])
    assert line.ends() == {"L": 5, "R": 5}
    assert line.spinner is not None and line.spinner.covered == 0
    line.place(Tile.parse("5-3"), "L")
    assert line.ends() == {"L": 3, "R": 5} and line.spinner.covered == 1
    line.place(Tile.parse("5-1"), "R")
    assert line.ends() == {"L": 3, "R": 1, "S": 5} and line.spinner.covered == 2
    line.place(Tile.parse("5-2"), "S")
    assert line.ends() == {"L": 3, "R": 1, "U": 2, "S": 5}
    line.place(Tile.parse("5-0"), "S")
    assert line.ends() == {"L": 3, "R": 1, "U": 2, "D": 0}
    assert line.spinner.covered == 4
    assert line.branches() == {"U": ("5|2",), "D": ("5|0",)}


def test_a_spinner_played_onto_an_end_starts_with_one_covered_arm() -> None:
    line = build([("6-5", None), ("5-5", "R")])
    assert line.spinner is not None
    assert (line.spinner.value, line.spinner.covered) == (5, 1)
    assert line.ends() == {"L": 6, "R": 5}
    line.place(Tile.parse("5-4"), "R")
    assert line.spinner.covered == 2
    assert line.ends() == {"L": 6, "R": 4, "S": 5}
    line.place(Tile.parse("6-6"), "L")
    assert line.spinner.value == 5, "only the first double is a spinner"
    assert line.at_end_is_double("L") and not line.at_end_is_double("R")


def test_the_row_reads_left_to_right() -> None:
    line = build([("6-4", None), ("6-2", "L"), ("2-2", "L"), ("4-3", "R")], spinner=False)
    assert tuple(map(str, line.row())) == ("2|2", "2|6", "6|4", "4|3")
