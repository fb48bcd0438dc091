"""Tiles and tile sets (``bazar.tiles``; API.md "Tiles", common.md §1)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bazar
from bazar import Tile, tile_set
from bazar.core.tiles import MAX_PIP, mask_of, parse_tiles, tiles_of

SET_SIZES = {6: 28, 9: 55, 12: 91, 15: 136, 18: 190}

pips = st.integers(0, MAX_PIP)
tiles = st.builds(Tile.of, pips, pips)


# -- parsing and formatting ------------------------------------------------------------------


@pytest.mark.parametrize("text", ["6-4", "4-6", "[6|4]", "6|4", "[6-4]", "[4|6]", " 6-4 ", "6 - 4"])
def test_every_accepted_form_parses_to_the_same_tile(text: str) -> None:
    assert Tile.parse(text) is Tile.parse("6-4")


def test_a_tile_prints_its_high_half_first() -> None:
    assert str(Tile.parse("4-6")) == "6-4"
    assert str(Tile.parse("[0|5]")) == "5-0"
    assert repr(Tile.parse("3-3")) == "Tile('3-3')"


def test_a_tile_knows_its_halves_pips_and_whether_it_is_a_double() -> None:
    t = Tile.parse("4-6")
    assert (t.high, t.low, t.pips, t.is_double) == (6, 4, 10, False)
    d = Tile.parse("5-5")
    assert (d.high, d.low, d.pips, d.is_double) == (5, 5, 10, True)


def test_the_double_blank_is_tile_zero() -> None:
    blank = Tile.parse("0-0")
    assert (blank.index, blank.pips, blank.is_double) == (0, 0, True)


def test_parse_returns_a_tile_unchanged() -> None:
    t = Tile.parse("6-4")
    assert Tile.parse(t) is t


@pytest.mark.parametrize("text", ["7-x", "", "19-1", "6-4-2", "6", "-1-2", "six-four", "[6|4]]"])
def test_a_malformed_tile_names_the_text_and_the_accepted_forms(text: str) -> None:
    with pytest.raises(ValueError) as error:
        Tile.parse(text)
    message = str(error.value)
    assert repr(text) in message
    assert "6-4" in message and "[6|4]" in message


@pytest.mark.parametrize("text", ["[6|4", "6|4]"])
def test_brackets_come_in_pairs(text: str) -> None:
    with pytest.raises(ValueError, match="malformed tile"):
        Tile.parse(text)


@pytest.mark.parametrize("value", [None, 64, 6.4, ("6", "4")])
def test_only_text_parses_as_a_tile(value: object) -> None:
    with pytest.raises(ValueError, match="malformed tile"):
        Tile.parse(value)  # type: ignore[arg-type]


def test_of_takes_the_halves_in_either_order_and_rejects_pips_off_the_largest_set() -> None:
    assert Tile.of(4, 6) is Tile.of(6, 4) is Tile.parse("6-4")
    assert Tile.of(18, 18).index == 189
    with pytest.raises(ValueError, match="0 to 18"):
        Tile.of(19, 0)
    with pytest.raises(ValueError, match="0 to 18"):
        Tile.of(-1, 0)


@given(tiles)
def test_printing_and_parsing_round_trip(t: Tile) -> None:
    assert Tile.parse(str(t)) is t
    assert Tile.parse(f"{t.low}-{t.high}") is t
    assert Tile.parse(f"[{t.high}|{t.low}]") is t
    assert Tile.from_index(t.index) is t


@given(pips, pips)
def test_a_tile_is_its_two_halves(a: int, b: int) -> None:
    t = Tile.of(a, b)
    assert (t.high, t.low) == (max(a, b), min(a, b))
    assert t.pips == a + b
    assert t.is_double == (a == b)
    assert t.has(a) and t.has(b)
    assert t.other(a) == b and t.other(b) == a


# -- interning and immutability --------------------------------------------------------------


def test_tiles_are_interned() -> None:
    assert Tile.parse("6-4") is Tile.parse("4-6")
    assert Tile.parse("6-4") is Tile.of(4, 6)
    assert Tile.parse("6-4") is tile_set(6)[Tile.parse("6-4").index]


def test_pickling_and_copying_keep_the_one_tile() -> None:
    t = Tile.parse("6-4")
    assert pickle.loads(pickle.dumps(t)) is t
    assert copy.copy(t) is t
    assert copy.deepcopy(t) is t


def test_a_tile_cannot_be_changed() -> None:
    t = Tile.parse("6-4")
    with pytest.raises(AttributeError):
        t.high = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del t.low
    assert (t.high, t.low, str(t)) == (6, 4, "6-4")


# -- sets and the canonical order ------------------------------------------------------------


@pytest.mark.parametrize(("n", "size"), SET_SIZES.items())
def test_double_n_holds_every_pair_once(n: int, size: int) -> None:
    tiles_n = tile_set(n)
    assert len(tiles_n) == size == (n + 1) * (n + 2) // 2
    assert len(set(tiles_n)) == size
    pairs = {(h, lo) for h in range(n + 1) for lo in range(h + 1)}
    assert {(t.high, t.low) for t in tiles_n} == pairs


def test_double_six_is_the_default_set_and_holds_168_pips() -> None:
    assert tile_set() is tile_set(6)
    assert sum(t.pips for t in tile_set(6)) == 168
    assert sum(t.is_double for t in tile_set(6)) == 7


@pytest.mark.parametrize("n", SET_SIZES)
def test_index_is_the_position_in_the_canonical_order(n: int) -> None:
    tiles_n = tile_set(n)
    assert [t.index for t in tiles_n] == list(range(len(tiles_n)))
    assert list(tiles_n) == sorted(tiles_n, key=lambda t: (t.high, t.low))


def test_the_canonical_order_starts_with_the_blanks() -> None:
    assert [str(t) for t in tile_set(6)[:6]] == ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2"]


@pytest.mark.parametrize(("small", "large"), [(6, 9), (9, 12), (12, 15), (15, 18), (6, 18)])
def test_a_smaller_set_is_the_start_of_a_larger_one(small: int, large: int) -> None:
    assert tile_set(large)[: len(tile_set(small))] == tile_set(small)


@given(tiles, tiles)
def test_tiles_sort_in_canonical_order(a: Tile, b: Tile) -> None:
    assert (a < b) == (a.index < b.index)
    assert sorted([a, b], key=lambda t: t.index) == sorted([a, b])


@pytest.mark.parametrize("n", [0, 5, 7, 19, 24])
def test_there_is_no_other_set(n: int) -> None:
    with pytest.raises(ValueError, match="6, 9, 12, 15, 18"):
        tile_set(n)


# -- bit sets --------------------------------------------------------------------------------


@given(st.sets(tiles))
def test_a_bit_set_holds_exactly_its_tiles_in_canonical_order(chosen: set[Tile]) -> None:
    mask = mask_of(chosen)
    assert mask.bit_count() == len(chosen)
    assert tiles_of(mask) == tuple(sorted(chosen, key=lambda t: t.index))


def test_parse_tiles_parses_each_item() -> None:
    assert parse_tiles(["4-6", Tile.parse("1-0"), "[2|2]"]) == [
        Tile.parse("6-4"),
        Tile.parse("1-0"),
        Tile.parse("2-2"),
    ]


def test_the_package_exports_tiles() -> None:
    assert bazar.Tile is Tile and bazar.tile_set is tile_set
