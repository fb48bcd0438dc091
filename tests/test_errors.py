"""Bad input gives a clear error and leaves the state as it was (DESIGN.md, "Errors are for
people"; API.md). Every error is a ValueError whose message says what was wrong and what is
allowed."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import play_out, snapshot

import bazar
from bazar import BadRecord, IllegalMove, MatchOver, Round, UnknownOption, UnknownVariant
from bazar.core import record as records

GAMES = bazar.rules.names()


def position(game: bazar.Round | bazar.Match) -> tuple[Any, ...]:
    """Everything observable about a round or a match: its record, its ledger, the round's
    state and every view."""
    if isinstance(game, bazar.Match):
        return records.dumps(game), game.ledger, snapshot(game.round)
    return records.dumps(game), snapshot(game)


def finished(game: Any, seed: int = 0) -> Any:
    return play_out(game, seed, 1_000_000)


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


def test_rules_from_a_bad_listing_name_the_listing_forms() -> None:
    with pytest.raises(ValueError, match="200pt/Drw"):
        bazar.rules.from_notation("200 points of draw")


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


@pytest.mark.parametrize("name", GAMES)
def test_no_move_follows_the_end_of_a_match(name: str) -> None:
    match = finished(bazar.Match(bazar.rules(name), seed=2))
    before = position(match)
    for move in ["6-6", "draw", "pass"]:
        with pytest.raises(MatchOver, match="the match is over"):
            match.push(move)
    assert match.legal_moves() == []
    assert position(match) == before


def test_an_illegal_move_in_a_match_changes_nothing() -> None:
    match = play_out(bazar.Match(bazar.rules("classic", players=3), seed=4), 0, 10)
    before = position(match)
    with pytest.raises(IllegalMove):
        match.push("bid 30")
    assert position(match) == before


def test_a_decided_ledger_settles_nothing_more() -> None:
    match = finished(bazar.Match(bazar.rules("block"), seed=6))
    outcome = match.round.outcome()
    with pytest.raises(MatchOver, match="already decided"):
        match.ledger.settle(outcome)


def test_pop_with_no_move_says_so() -> None:
    with pytest.raises(IndexError, match="no move to take back"):
        tiny_round().pop()


# -- records ---------------------------------------------------------------------------------


def record_of(name: str = "draw", players: int = 2, seed: int = 9) -> dict[str, Any]:
    """The record of a finished seeded match, as a dict to tamper with."""
    match = finished(bazar.Match(bazar.rules(name, players=players), seed=seed), seed)
    data: dict[str, Any] = json.loads(records.dumps(match))
    assert len(data["rounds"]) >= 2
    return data


def refused(data: Any) -> str:
    """The message of the BadRecord that loading ``data`` raises."""
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(BadRecord) as error:
        records.loads(text)
    return str(error.value)


@pytest.mark.parametrize("text", ["", "{", "[1, 2", "not json", "{'format': 1}"])
def test_a_record_that_is_not_json_is_refused(text: str) -> None:
    assert "malformed JSON" in refused(text)


@pytest.mark.parametrize("data", [[], 7, None, {"format": "pgn"}, {"version": 1}])
def test_a_record_must_carry_the_format_tag(data: Any) -> None:
    assert "'format' must be 'bazar-record'" in refused(data)


def test_a_record_of_another_version_is_refused() -> None:
    data = record_of()
    data["version"] = 2
    assert "version 2 is not supported" in refused(data)


def test_a_record_of_an_unknown_variant_names_the_known_ones() -> None:
    data = record_of()
    data["rules"]["name"] = "kozel-ultra"
    message = refused(data)
    assert "unknown variant 'kozel-ultra'" in message and "classic" in message


def test_a_record_with_an_unknown_option_is_refused() -> None:
    data = record_of()
    data["rules"]["options"]["wild_tiles"] = True
    assert "no option 'wild_tiles'" in refused(data)


def test_a_record_with_an_option_out_of_range_is_refused() -> None:
    data = record_of()
    data["rules"]["options"]["target"] = -5
    assert "option target" in refused(data)


def test_a_record_without_rounds_is_refused() -> None:
    data = record_of()
    data["rounds"] = []
    assert "no rounds" in refused(data)


def test_a_record_seed_is_a_whole_number() -> None:
    data = record_of()
    data["seed"] = "nine"
    assert "seed must be a whole number" in refused(data)


@pytest.mark.parametrize(
    ("seed", "said"),
    [
        ("9" * 5000, "not a bazar record: a number has 5000 digits (at most 30)"),
        ("-" + "9" * 31, "not a bazar record: a number has 31 digits (at most 30)"),
        (str(2**63), f"record seed must be within ±2**63, not {2**63}"),
        (str(-(2**63) - 1), f"record seed must be within ±2**63, not {-(2**63) - 1}"),
    ],
)
def test_a_record_seed_is_a_whole_number_within_64_bits(seed: str, said: str) -> None:
    """5,000 digits were Python's int-string ValueError, not a BadRecord."""
    text = json.dumps(record_of()).replace('"seed": 9,', f'"seed": {seed},')
    assert refused(text) == said


@pytest.mark.parametrize("depth", [2000, 100_000])
def test_a_record_nested_thousands_deep_is_refused(depth: int) -> None:
    deep = "[" * depth + "]" * depth
    assert refused(deep) == "not a bazar record: its JSON nests too deeply"
    data = json.dumps(record_of())
    assert refused(data[:-1] + f', "notes": {deep}}}') == (
        "not a bazar record: its JSON nests too deeply"
    )


def test_a_record_nested_to_the_edge_of_the_stack_is_refused_or_loaded() -> None:
    """Parsed within the stack, a record may still outgrow it when copied (the seed of its
    next deals): every depth is either loaded or a BadRecord."""
    data = json.dumps(record_of())
    for depth in range(900, 1000):
        text = data[:-1] + f', "notes": {"[" * depth + "]" * depth}}}'
        with contextlib.suppress(BadRecord):
            records.loads(text)


def test_a_record_may_be_held_to_a_number_of_rounds_and_moves() -> None:
    data = record_of()
    text = json.dumps(data)
    rounds = len(data["rounds"])
    moves = sum(len(r["moves"]) for r in data["rounds"])
    assert records.loads(text, max_rounds=rounds, max_moves=moves).is_over()
    with pytest.raises(BadRecord, match=f"record has {rounds} rounds, more than the 1 accepted"):
        records.loads(text, max_rounds=1)
    with pytest.raises(BadRecord, match=f"record has {moves} moves, more than the 9 accepted"):
        records.loads(text, max_moves=9)


def test_an_illegal_move_in_the_middle_names_the_round_and_the_move() -> None:
    data = record_of()
    moves = data["rounds"][1]["moves"]
    moves[3] = "pass" if moves[3] != "pass" else "6-6"
    message = refused(data)
    assert f"round 2, move 4 ({moves[3]!r})" in message
    assert "legal moves:" in message


def test_a_malformed_move_names_the_round_and_the_move() -> None:
    data = record_of()
    data["rounds"][0]["moves"][2] = "6-4:"
    message = refused(data)
    assert "round 1, move 3 ('6-4:')" in message and "malformed move" in message


def test_a_deal_that_is_not_the_seeds_deal_is_refused() -> None:
    data = record_of()
    deal = data["rounds"][1]["deal"]
    hand, pool = deal["hands"][0], deal["bazar"]
    hand[0], pool[-1] = pool[-1], hand[0]
    message = refused(data)
    assert "round 2" in message and "not the one seed 9 deals" in message


def test_a_deal_with_a_tile_twice_is_refused() -> None:
    data = record_of()
    deal = data["rounds"][0]["deal"]
    deal["hands"][1][0] = deal["hands"][0][0]
    message = refused(data)
    assert "round 1: bad deal" in message and "dealt twice" in message


def test_moves_after_the_end_of_a_round_are_refused() -> None:
    data = record_of()
    first = data["rounds"][0]["moves"]
    first.append("draw")
    message = refused(data)
    assert f"round 1, move {len(first)} ('draw'): the round was already over" in message


def test_rounds_after_the_end_of_the_match_are_refused() -> None:
    data = record_of()
    data["rounds"].append(data["rounds"][-1])
    assert f"round {len(data['rounds'])}: the match was already over" in refused(data)


def test_an_unfinished_round_must_be_the_last() -> None:
    data = record_of()
    data["rounds"][0]["moves"].pop()
    assert "round 1 is unfinished but another round follows it" in refused(data)


def test_a_round_out_of_order_is_refused() -> None:
    data = record_of()
    data["rounds"][1]["number"] = 5
    assert "round 2: numbered 5, expected 2" in refused(data)


@pytest.mark.parametrize(
    "deal",
    [None, "hands", {"hands": None}, {"hands": [["6-6"]], "bazar": [], "leader": 0}],
)
def test_a_round_needs_a_deal(deal: Any) -> None:
    data = record_of()
    data["rounds"][0]["deal"] = deal
    assert "round 1" in refused(data)


def test_moves_must_be_a_list() -> None:
    data = record_of()
    data["rounds"][0]["moves"] = "6-6 draw"
    assert "round 1: 'moves' must be a list" in refused(data)


def test_record_options_must_be_an_object() -> None:
    data = record_of()
    data["rules"]["options"] = [["players", 2]]
    assert "'options' must be an object" in refused(data)


JUNK = [None, 0, -1, 2, 99, 1.5, True, "", "x", "6-6", "draw", [], {}, [[]], ["6-6"], 2**70]


@functools.cache
def unfinished_record() -> dict[str, Any]:
    match = play_out(bazar.Match(bazar.rules("draw"), seed=9), 9, 120)
    data: dict[str, Any] = json.loads(records.dumps(match))
    return data


def places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside a record, the record itself excepted."""
    found = [path] if path else []
    if isinstance(node, dict):
        items: Any = node.items()
    else:
        items = enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        found += places(value, (*path, key))
    return found


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_tampered_record_loads_or_raises_bad_record_and_nothing_else(data: st.DataObject) -> None:
    tampered = copy.deepcopy(unfinished_record())
    path = data.draw(st.sampled_from(places(tampered)), label="path")
    node = tampered
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = data.draw(st.sampled_from(JUNK), label="value")
    with contextlib.suppress(BadRecord):
        records.loads(json.dumps(tampered))
