"""What a seat may know: the View and the typed Board of every family in it."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bazar
from bazar import Round, View
from bazar.core.board import Board, Laid
from bazar.core.tiles import Tile
from bazar.games.cross.board import CrossBoard
from bazar.games.kolbasa import KolbasaBoard
from bazar.games.line.board import LineBoard
from bazar.games.poker import PokerBoard
from bazar.games.trains.board import TrainsBoard, TreeBoard
from bazar.games.trick import TrickBoard

#: the board class of each family
BOARDS: dict[str, type[Board]] = {
    "line": LineBoard,
    "cross": CrossBoard,
    "trains": TrainsBoard,
    "tree": TreeBoard,
    "kolbasa": KolbasaBoard,
    "trick": TrickBoard,
    "poker": PokerBoard,
}

VARIANTS = bazar.rules.names()


def position(name: str, seed: int, steps: int) -> Round:
    """A round of ``name`` from ``seed`` after up to ``steps`` random moves."""
    rnd = Round(bazar.rules(name), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if rnd.is_over():
            break
        rnd.push(rng.choice(rnd.legal_moves()))
    return rnd


def laid_in_history(view: View) -> list[Tile]:
    """The tiles that the moves of ``view.history`` leave on the table, by the family's rules."""
    family = view.rules.variant.family
    plays = [
        (move.kind, move.tile, move.end)
        for _, move, _ in view.history
        if move.tile is not None and move.kind in ("play", "close", "last", "cut")
    ]
    if family in ("line", "cross"):
        return [tile for _, tile, _ in plays]
    if family in ("trains", "tree"):
        return [Tile.parse(view.extra["engine"]), *(tile for _, tile, _ in plays)]
    if family == "trick":
        # a trick stays on the table until each seat has played to it
        tiles = [tile for _, tile, _ in plays]
        return tiles[len(tiles) - len(tiles) % len(view.hand_sizes) :]
    if family == "kolbasa":
        # the first double of the opening starts the sausage; a cut at joint j replaces the
        # start up to that joint with the cutting tile
        sausage = [next(Tile.parse(t) for _, t in view.extra["opening"] if Tile.parse(t).is_double)]
        for kind, tile, end in plays:
            if kind == "cut":
                assert end is not None
                sausage[: int(end)] = [tile]
            else:
                sausage.append(tile)
        return sausage
    return []


def test_every_family_has_its_board_class() -> None:
    families = {bazar.rules(name).variant.family for name in VARIANTS}
    assert families == set(BOARDS)
    assert all(Board.kinds[kind] is board for kind, board in BOARDS.items())


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 80))
def test_a_board_is_its_familys_lists_the_tiles_laid_and_reads_back_from_json(
    name: str, seed: int, steps: int
) -> None:
    rnd = position(name, seed, steps)
    view = rnd.view(None)
    board = view.board
    assert type(board) is BOARDS[rnd.rules.variant.family]
    assert board.to_json()["kind"] == board.kind
    assert Board.from_json(json.loads(json.dumps(board.to_json()))) == board
    assert View.from_json(json.loads(json.dumps(view.to_json()))).board == board
    assert sorted(board.tiles()) == sorted(laid_in_history(view))


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 80))
def test_every_seat_sees_the_board_the_spectators_see(name: str, seed: int, steps: int) -> None:
    rnd = position(name, seed, steps)
    public = rnd.view(None).board
    assert all(rnd.view(seat).board == public for seat in range(rnd.players))


def test_a_closed_double_is_named_apart_from_the_line() -> None:
    board = CrossBoard(line=(Laid(5, 5), Laid(5, 2)), closed=frozenset({Tile.parse("5-5")}))
    assert board.to_json() == {
        "kind": "cross",
        "line": ["5|5", "5|2"],
        "spinner": None,
        "U": [],
        "D": [],
        "closed": ["5-5"],
    }
