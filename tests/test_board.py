"""The layouts of common.md §3.1–3.2 and fives.md §4, and the typed boards views hold."""

from __future__ import annotations

import pytest

from bazar.core.board import Board, Laid, Line
from bazar.core.tiles import Tile
from bazar.games.cross.board import CrossBoard
from bazar.games.line.board import LineBoard


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


# -- the typed boards of the views ---------------------------------------------------------


def test_a_board_of_an_unknown_kind_is_an_error_naming_the_kinds() -> None:
    with pytest.raises(ValueError, match=r"'spiral'.*line, .*poker"):
        Board.from_json({"kind": "spiral"})


def test_a_family_board_reads_only_its_own_kind() -> None:
    with pytest.raises(ValueError, match="'cross'"):
        LineBoard.from_json(CrossBoard().to_json())
    assert LineBoard.from_json({"kind": "line", "line": ["6|4"]}) == LineBoard((Laid(6, 4),))


def test_a_laid_tile_reads_back_its_own_text() -> None:
    assert Laid.parse("4|6") == Laid(4, 6) and str(Laid(4, 6)) == "4|6"
    assert Laid(4, 6).tile is Tile.parse("6-4")


@pytest.mark.parametrize("text", ["4-6", "4|", "|6", "a|b", "19|1", "#5|5#"])
def test_a_malformed_laid_tile_is_an_error(text: str) -> None:
    with pytest.raises(ValueError, match=r"a\|b"):
        Laid.parse(text)
