"""The layouts of common.md §3.1–3.2 and fives.md §4, and the typed boards views hold."""

from __future__ import annotations

import random

import pytest

import bazar
from bazar.core.board import Board, Laid, Line
from bazar.core.tiles import Tile
from bazar.games.cross.board import CrossBoard
from bazar.games.cross.round import CrossRound
from bazar.games.line.board import LineBoard
from bazar.games.line.round import LineRound


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
    assert tuple(map(str, line.branch("U") + line.branch("D"))) == ("5|2", "5|0")


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


def test_a_closed_double_seals_its_end_and_is_no_spinner() -> None:
    line = Line(spinner=True)
    line.place(Tile.parse("6-4"), None)
    line.place(Tile.parse("4-4"), "R", closed=True)
    assert line.ends() == {"L": 6} and line.spinner is None
    assert line.closed == {Tile.parse("4-4")}
    line.place(Tile.parse("6-6"), "L")
    assert line.spinner is not None and line.spinner.value == 6


def test_a_closed_lead_double_seals_both_ends() -> None:
    line = Line(spinner=True)
    line.place(Tile.parse("3-3"), None, closed=True)
    assert line.ends() == {} and line.spinner is None
    assert tuple(map(str, line.row())) == ("3|3",)


def line_and_cross_games() -> list[str]:
    return [
        name
        for name in bazar.rules.names()
        if bazar.rules.variant(name).family in ("line", "cross")
    ]


def outer_pips(board: Board) -> dict[str, int]:
    """The pip showing at each end of ``board``'s line and arms, read from the board alone."""
    if isinstance(board, CrossBoard):
        rows = {"L": board.line[:1], "R": board.line[-1:], "U": board.up, "D": board.down}
    else:
        assert isinstance(board, LineBoard)
        rows = {"L": board.line[:1], "R": board.line[-1:]}
    return {
        arm: laid[0].first if arm == "L" else laid[-1].second for arm, laid in rows.items() if laid
    }


@pytest.mark.parametrize("name", line_and_cross_games())
def test_the_layout_shows_the_board_and_the_ends_the_round_reports(name: str) -> None:
    for seed in range(4):
        rnd = bazar.Round(bazar.rules(name), seed=seed)
        assert isinstance(rnd, LineRound)
        pick = random.Random(seed)
        while True:
            line = rnd.layout()
            board = rnd.board
            ends = rnd.ends()
            assert line.ends() == ends
            assert line.row() == board.line
            assert sorted(board.tiles()) == sorted(rnd.played())
            assert Board.from_json(board.to_json()) == board
            shown = outer_pips(board)
            assert all(shown[end] == pip for end, pip in ends.items() if end != "S")
            if isinstance(rnd, CrossRound):
                assert isinstance(board, CrossBoard)
                assert all(
                    line.at_end_is_double(end) == rnd.is_double_end(end)
                    for end in ("L", "R", "U", "D")
                    if end in ends
                )
                spinner = rnd.public_extra(None).get("spinner") or {}
                covered = line.spinner.covered if line.spinner is not None else None
                assert (board.spinner, covered) == (spinner.get("value"), spinner.get("covered"))
            if rnd.is_over():
                break
            rnd.push(pick.choice(rnd.legal_moves()))


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
