"""Bad input gives a clear error and leaves the state as it was (DESIGN.md, "Errors are for
people"; API.md): the errors of ``bazar.core.errors``, and the rules, deals and moves a round
refuses. Every error is a ValueError whose message says what was wrong and what is allowed.
What a match refuses is in ``test_match.py``, a record in ``test_record.py``, a table listing
in ``test_gamecolony.py``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from invariants import finished, play_out, snapshot

import bazar
from bazar import BadRecord, IllegalMove, MatchOver, Round, UnknownOption, UnknownVariant
from bazar.core import record as records

GAMES = bazar.rules.names()


def position(rnd: bazar.Round) -> tuple[Any, ...]:
    """Everything observable about a round: its record, its state and every view."""
    return records.dumps(rnd), snapshot(rnd)


def tiny_round() -> Round:
    """Seat 0 leads any tile; nobody can draw."""
    return Round(
        bazar.rules("block"), hands=[["6-6", "6-4"], ["4-1", "3-3"]], bazar=["2-2"], leader=0
    )


# -- rules -----------------------------------------------------------------------------------


def test_every_error_is_a_value_error() -> None:
    for error in (BadRecord, IllegalMove, MatchOver, UnknownOption, UnknownVariant):
        assert issubclass(error, ValueError)


@pytest.mark.parametrize("name", ["", "nope", "kozel-ultra", "blok"])
def test_an_unknown_variant_names_every_known_one(name: str) -> None:
    with pytest.raises(UnknownVariant) as error:
        bazar.rules(name)
    message = str(error.value)
    assert repr(name) in message
    for known in GAMES:
        assert known in message


@pytest.mark.parametrize("name", GAMES)
def test_an_unknown_option_names_the_games_options(name: str) -> None:
    with pytest.raises(UnknownOption) as error:
        bazar.rules(name, wild_tiles=True)
    message = str(error.value)
    assert "'wild_tiles'" in message and name in message
    for option in bazar.rules(name).options():
        if option != "players":
            assert option in message


@pytest.mark.parametrize(
    ("name", "options", "words"),
    [
        ("block", {"players": 5}, "2 to 4 players, not 5"),
        ("classic", {"players": 1}, "2 to 4 players, not 1"),
        ("draw", {"players": "2"}, "2 to 4 players, not '2'"),
        ("draw", {"players": True}, "2 to 4 players"),
        ("block", {"players": 3, "teams": True}, "teams are played by 4 players, not 3"),
        ("classic", {"players": 2, "teams": True}, "teams are played by 4 players, not 2"),
        ("classic", {"hand_size": 20}, "needs 40 tiles; double-6 has 28"),
        ("block", {"players": 4, "hand_size": 8}, "needs 32 tiles; double-6 has 28"),
        ("classic", {"hand_size": 0}, "from 1 up, not 0"),
        ("classic", {"hand_size": "seven"}, "from 1 up, not 'seven'"),
        ("classic", {"hand_size": {3: 5}}, "no size for 2 players"),
        ("block", {"target": 0}, "from 1 up; not 0"),
        ("block", {"target": "100"}, "whole number, not '100'"),
        ("block", {"target": 100.0}, "whole number, not 100.0"),
        ("draw", {"draw": "yes"}, "True or False, not 'yes'"),
        ("block", {"set_max": 7}, "one of 6, 9, 12, 15, 18; not 7"),
        ("classic", {"first_lead": "sideways"}, "first_lead takes one of"),
        ("classic", {"double_blank_value": 3}, "one of 0, 10, 25, 50; not 3"),
        ("draw", {"bazar_reserve": 3}, "from 0 to 2; not 3"),
        ("block", {"bazar_reserve": 1}, "bazar_reserve needs draw=True"),
        ("classic", {"target": None}, "positive scoring needs a target"),
        ("classic-penalty", {"target": 100}, "a target (reaching it wins) or a limit, not both"),
        ("classic-penalty", {"limit": None}, "penalty scoring needs a limit"),
        ("classic", {"block_award": "own_pips"}, "own_pips goes with scoring=penalty"),
    ],
)
def test_an_option_out_of_range_is_a_plain_value_error_saying_what_is_allowed(
    name: str, options: dict[str, Any], words: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(words)) as error:
        bazar.rules(name, **options)
    assert type(error.value) is ValueError


# -- deals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "bazar_", "words"),
    [
        ([["6-6", "6-4"], ["4-6", "3-3"]], [], "tile 6-4 is dealt twice"),
        ([["6-6", "6-4"], ["4-1"]], ["1-4"], "tile 4-1 is dealt twice"),
        ([["6-6"], ["4-1"]], ["2-2", "2-2"], "tile 2-2 is dealt twice"),
        ([["6-6"], ["4-1"], ["3-3"]], [], "2 players needs 2 hands, not 3"),
        ([["6-6"]], [], "2 players needs 2 hands, not 1"),
        ([["7-0"], ["4-1"]], [], "tile 7-0 is not in double-6"),
        ([["6-6"], ["4-1"]], ["9-9"], "tile 9-9 is not in double-6"),
        ([["6-6"], ["4-x"]], [], "malformed tile '4-x'"),
    ],
)
def test_an_explicit_deal_must_hold_distinct_tiles_of_the_set_in_one_hand_per_seat(
    hands: list[list[str]], bazar_: list[str], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        Round(bazar.rules("draw"), hands=hands, bazar=bazar_, leader=0)


@pytest.mark.parametrize("leader", [-1, 2, "0", True, 0.0])
def test_the_leader_is_a_seat(leader: Any) -> None:
    with pytest.raises(ValueError, match="leader must be a seat from 0 to 1"):
        Round(bazar.rules("block"), hands=[["6-6"], ["4-1"]], leader=leader)


def test_a_bazar_without_hands_is_refused() -> None:
    with pytest.raises(ValueError, match="give hands with bazar"):
        Round(bazar.rules("draw"), seed=1, bazar=["6-6"])


def test_a_round_needs_rules() -> None:
    with pytest.raises(TypeError, match=r"bazar\.rules"):
        Round("block", seed=1)  # type: ignore[arg-type]


def test_a_view_names_the_seats_there_are() -> None:
    with pytest.raises(ValueError, match="seats run from 0 to 1"):
        tiny_round().view(2)


# -- moves -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["6-4:", "6-4 L", "jump", "", "7-x:L", "draw 6-6"])
def test_malformed_move_text_is_an_illegal_move_naming_the_text(text: str) -> None:
    rnd = play_out(tiny_round(), 0, 1)
    before = position(rnd)
    with pytest.raises(IllegalMove, match="malformed move"):
        rnd.push(text)
    assert position(rnd) == before


@pytest.mark.parametrize("move", [None, 7, ("6-4", "L")])
def test_a_move_that_is_not_text_is_an_illegal_move(move: Any) -> None:
    rnd = tiny_round()
    before = position(rnd)
    with pytest.raises(IllegalMove):
        rnd.push(move)
    assert position(rnd) == before


def test_an_illegal_move_lists_the_legal_ones_and_changes_nothing() -> None:
    rnd = tiny_round()
    rnd.push("6-6")
    before = position(rnd)
    with pytest.raises(IllegalMove) as error:
        rnd.push("3-3:L")
    assert str(error.value) == "illegal move 3-3:L for seat 1; legal moves: pass"
    assert position(rnd) == before


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("move", ["6-6:L", "0-0", "draw", "pass", "stop", "bid 30", "1-0:U"])
def test_a_move_that_is_not_legal_is_refused_in_every_game(name: str, move: str) -> None:
    rnd = play_out(Round(bazar.rules(name), seed=3), 0, 5)
    while rnd.is_over():
        rnd.pop()
    if bazar.Move.parse(move) in rnd.legal_moves():
        return
    before = position(rnd)
    with pytest.raises(IllegalMove) as error:
        rnd.push(move)
    message = str(error.value)
    assert f"illegal move {bazar.Move.parse(move)} for seat {rnd.turn}" in message
    assert message.endswith("legal moves: " + ", ".join(map(str, rnd.legal_moves())))
    assert position(rnd) == before


@pytest.mark.parametrize("name", GAMES)
def test_no_move_follows_the_end_of_a_round(name: str) -> None:
    rnd = finished(Round(bazar.rules(name), seed=5))
    before = position(rnd)
    for move in ["6-6", "draw", "pass", *map(str, rnd.moves[-1:])]:
        with pytest.raises(IllegalMove, match="the round is over"):
            rnd.push(move)
    assert rnd.legal_moves() == []
    assert position(rnd) == before


def test_pop_with_no_move_says_so() -> None:
    with pytest.raises(IndexError, match="no move to take back"):
        tiny_round().pop()
