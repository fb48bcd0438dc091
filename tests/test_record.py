"""Match records (``bazar.core.record``): a record that is not one, or not the match its seed
and moves make, is refused with a ``BadRecord`` that names the round and the move; a record
tampered with anywhere loads or raises ``BadRecord`` and nothing else."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import finished, play_out

import bazar
from bazar import BadRecord
from bazar.core import record as records


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
