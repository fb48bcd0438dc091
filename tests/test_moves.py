"""Move notation (``bazar.core.moves``; API.md "Moves")."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bazar import Move, Tile
from bazar.core.moves import BARE_KINDS, KINDS, TILE_KINDS, VALUE_KINDS
from bazar.core.tiles import tile_set

# Every form API.md lists, with its parts: (text, kind, tile, end, value).
API_EXAMPLES = [
    ("6-4", "play", "6-4", None, None),
    ("6-4:R", "play", "6-4", "R", None),
    ("6-4:L", "play", "6-4", "L", None),
    ("3-3:U", "play", "3-3", "U", None),
    ("3-3:D", "play", "3-3", "D", None),
    ("5-2:S", "play", "5-2", "S", None),
    ("draw", "draw", None, None, None),
    ("pass", "pass", None, None, None),
    ("stop", "stop", None, None, None),
    ("close 2-2:L", "close", "2-2", "L", None),
    ("cut 6-5:2", "cut", "6-5", "2", None),
    ("bid 30", "bid", None, None, 30),
    ("trumps 5", "trumps", None, None, 5),
    ("bet 2", "bet", None, None, 2),
    ("fold", "fold", None, None, None),
]

tiles = st.sampled_from(tile_set(6))
ends = st.sampled_from(["L", "R", "U", "D", "S", "T0", "T3", "M", "2"])
values = st.one_of(st.integers(-1000, 1000), st.sampled_from(["five", "doubles", "no_trumps"]))
moves = st.one_of(
    st.builds(Move.play, tiles, st.one_of(st.none(), ends)),
    st.builds(Move, st.sampled_from(BARE_KINDS)),
    st.builds(lambda k, t, e: Move(k, t, e), st.sampled_from(TILE_KINDS), tiles, st.none() | ends),
    st.builds(lambda k, v: Move(k, value=v), st.sampled_from(VALUE_KINDS), values),
)


# -- the notation of API.md ------------------------------------------------------------------


@pytest.mark.parametrize(("text", "kind", "tile", "end", "value"), API_EXAMPLES)
def test_every_notation_of_the_api_parses_into_its_parts(
    text: str, kind: str, tile: str | None, end: str | None, value: int | None
) -> None:
    move = Move.parse(text)
    assert move.kind == kind
    assert move.tile is (None if tile is None else Tile.parse(tile))
    assert move.end == end
    assert move.value == value
    assert str(move) == text


def test_a_lead_has_no_end() -> None:
    lead = Move.parse("6-4")
    assert (lead.kind, lead.tile, lead.end) == ("play", Tile.parse("6-4"), None)


def test_a_play_prints_its_tile_high_half_first() -> None:
    assert str(Move.parse("4-6:R")) == "6-4:R"
    assert str(Move.parse("[4|6]:L")) == "6-4:L"
    assert str(Move.parse("close 2-3")) == "close 3-2"


def test_draw_never_names_the_tile_drawn() -> None:
    with pytest.raises(ValueError, match="malformed move"):
        Move.parse("draw 6-4")
    assert Move.parse("draw").tile is None


def test_a_value_is_a_number_when_it_reads_as_one_and_a_word_otherwise() -> None:
    assert Move.parse("bid 30").value == 30
    assert Move.parse("bid -3").value == -3
    assert Move.parse("trumps doubles").value == "doubles"


def test_surrounding_spaces_are_ignored() -> None:
    assert Move.parse("  draw ") is Move.parse("draw")
    assert Move.parse(" 6-4:R ") is Move.parse("6-4:R")


@given(moves)
def test_printing_and_parsing_round_trip(move: Move) -> None:
    assert Move.parse(str(move)) is move


@given(moves)
def test_a_move_knows_its_parts(move: Move) -> None:
    assert move.kind in KINDS
    assert (move.tile is not None) == (move.kind in ("play", *TILE_KINDS))
    assert (move.value is not None) == (move.kind in VALUE_KINDS)
    if move.kind in BARE_KINDS:
        assert (move.tile, move.end, move.value) == (None, None, None)


# -- interning and immutability --------------------------------------------------------------


def test_moves_are_interned() -> None:
    assert Move.parse("4-6:R") is Move.play(Tile.parse("6-4"), "R")
    assert Move.parse("6-4:R") is Move("play", "4-6", "R")
    assert Move.parse("draw") is Move("draw")
    assert Move.parse("bid 30") is Move("bid", value=30)
    assert Move.parse("close 2-2:L") is Move("close", Tile.parse("2-2"), "L")


def test_the_same_tile_on_other_ends_is_another_move() -> None:
    assert Move.parse("6-4:L") is not Move.parse("6-4:R")
    assert Move.parse("6-4") is not Move.parse("6-4:L")


def test_parse_returns_a_move_unchanged() -> None:
    move = Move.parse("6-4:R")
    assert Move.parse(move) is move


@given(moves)
def test_pickling_keeps_the_one_move(move: Move) -> None:
    assert pickle.loads(pickle.dumps(move)) is move


def test_a_move_cannot_be_changed() -> None:
    move = Move.parse("6-4:R")
    with pytest.raises(AttributeError):
        move.end = "L"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del move.kind
    assert (move.kind, move.end, str(move)) == ("play", "R", "6-4:R")


# -- malformed moves -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "jump",
        "DRAW",
        "6-4 R",
        "6-4:R:L",
        "6-4:",
        "7-x:R",
        "19-1",
        "6-4-2:L",
        "draw 6-4",
        "pass now",
        "bid",
        "close",
        "close 2-2:",
        "close 9-x",
        "cut",
        "6-4:L R",
    ],
)
def test_malformed_move_text_names_the_text_and_the_notation(text: str) -> None:
    with pytest.raises(ValueError) as error:
        Move.parse(text)
    message = str(error.value)
    assert f"malformed move {text.strip()!r}" in message
    assert "TILE[:END]" in message and "draw" in message


@pytest.mark.parametrize("value", [None, 64, Tile.parse("6-4"), ["6-4", "R"]])
def test_only_text_parses_as_a_move(value: object) -> None:
    with pytest.raises(ValueError, match="'6-4:R'"):
        Move.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("jump",), "unknown move kind"),
        (("play",), "needs a tile"),
        (("close",), "needs a tile"),
        (("bid",), "needs a value"),
        (("draw", "6-4"), "takes no tile"),
        (("pass", None, "L"), "takes no tile"),
        (("play", "6-4", "R:L"), "malformed end"),
        (("play", "6-4", ""), "malformed end"),
    ],
)
def test_a_move_built_from_bad_parts_says_what_is_wrong(args: tuple, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Move(*args)
