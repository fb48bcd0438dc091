"""Mexican Train (``mexican-train.md``): the worked examples of §11 as tests, the options of
§9, and the invariants every round class keeps (``tests/invariants.py``).

Positions in the middle of a round are set up as the spec draws them: the trains from the
engine out (``"12|5"``: the 5 is the open end), the markers, the doubles still to satisfy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import hidden
import invariants
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bazar
from bazar import IllegalMove, Ledger, Match, Move, Outcome, Round, Tile, View
from bazar.core.board import Laid
from bazar.games.trains.board import TrainsBoard
from bazar.games.trains.round import HAND_SIZES, TrainRound, engine_of

some = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(0, 2**32 - 1)


def rules(players: int = 4, **options: Any) -> bazar.Rules:
    return bazar.rules("mexican-train", players=players, **options)


def position(
    hands: Sequence[Sequence[str]],
    trains: dict[str, list[str]],
    *,
    markers: Sequence[str] = (),
    unsatisfied: Sequence[str] = (),
    turn: int = 0,
    bazar_tiles: Sequence[str] = (),
    **options: Any,
) -> Round:
    """A round in its normal phase (every first turn played), with engine 12-12."""
    r = rules(len(hands), **options)
    ids = [*(str(s) for s in range(len(hands))), "M"]
    layout = {end: tuple(map(Laid.parse, trains.get(end, []))) for end in ids}
    ends = {end: tiles[-1].second if tiles else 12 for end, tiles in layout.items()}
    view = View(
        seat=None,
        rules=r,
        turn=turn,
        hand=None,
        hand_sizes=tuple(len(h) for h in hands),
        bazar_size=len(bazar_tiles),
        drawable=len(bazar_tiles),
        ends=ends,
        board=TrainsBoard(Tile.parse("12-12"), layout),
        history=(),
        legal=(),
        extra={
            "leader": 0,
            "number": 1,
            "engine": "12-12",
            "markers": list(markers),
            "unsatisfied": list(unsatisfied),
            "first_turns": 0,
            "turn_tiles": 0,
            "turn_doubles": 0,
            "drew": False,
            "turn_opened": [],
        },
    )
    return Round.from_view(view, hands=hands, bazar=bazar_tiles)


def moves(rnd: Round) -> list[str]:
    return [str(m) for m in rnd.legal_moves()]


def dealt(
    players: int, fixed: dict[int, list[str]], front: Sequence[str] = (), size: int = 15
) -> tuple[list[list[str]], list[str]]:
    """Hands of ``size`` with the ``fixed`` tiles, filled up from the unnamed tiles of
    double-12, those without a 12 first (the highest first), then those with one; the bazar
    starts with ``front``, the rest follows."""
    named = {Tile.parse(t) for t in [*front, *(t for h in fixed.values() for t in h)]}
    free = [t for t in bazar.tile_set(12) if t not in named and not t.is_double and t.has(12)]
    free += [t for t in bazar.tile_set(12) if t not in named and not t.has(12)]
    hands = []
    for seat in range(players):
        hand = list(fixed.get(seat, []))
        while len(hand) < size:
            hand.append(str(free.pop()))
        hands.append(hand)
    return hands, [*front, *map(str, free)]


# -- MT-1, MT-2: hands and the schedule -----------------------------------------------------------


def test_mt1_hand_sizes_by_players() -> None:
    assert [rules(n).hand_size for n in range(2, 11)] == [15, 15, 15, 12, 12, 10, 10, 8, 8]
    assert HAND_SIZES[8] == 10


def test_mt1_the_bazar_after_the_deal_with_8_players() -> None:
    hands, rest = dealt(8, {3: ["12-12"]}, size=10)
    assert Round(rules(8), hands=hands, bazar=rest).bazar_size == 91 - 80
    for seed in range(5):
        pre = Round(rules(8, engine_source="pre_placed"), seed=seed)
        assert pre.bazar_size == 90 - 80 and sum(map(len, pre.hands)) == 80


def test_mt2_the_rounds_run_from_12_12_down_to_0_0() -> None:
    assert [str(engine_of(r, 12)) for r in (1, 2, 12, 13)] == ["12-12", "11-11", "1-1", "0-0"]
    match = invariants.play_out(Match(rules(4), seed=3), 1)
    assert match.is_over() and len(match.rounds) == 13
    assert [r.engine.high for r in match.rounds] == list(range(12, -1, -1))  # type: ignore[attr-defined]


def test_a_smaller_set_plays_one_round_per_double() -> None:
    match = invariants.play_out(Match(rules(3, set_max=6, hand_size=7), seed=2), 2)
    assert match.is_over() and len(match.rounds) == 7


def test_a_set_other_than_double_12_needs_a_hand_size() -> None:
    with pytest.raises(ValueError, match="give hand_size"):
        rules(4, set_max=9)
    with pytest.raises(ValueError, match="needs 60 tiles"):
        rules(4, set_max=6, hand_size=15)
    with pytest.raises(ValueError, match="leaves 90 to deal"):
        rules(7, hand_size=13, engine_source="pre_placed")


# -- MT-3: finding the engine ---------------------------------------------------------------------


def test_mt3_nobody_holds_the_engine_so_everybody_draws_in_full_cycles() -> None:
    hands, rest = dealt(4, {}, front=["3-4", "12-12", "0-9", "5-5"])
    rnd = Round(rules(4), hands=hands, bazar=rest)
    assert rnd.leader == rnd.turn == 1
    assert [len(h) for h in rnd.hands] == [16, 15, 16, 16]
    assert Tile.parse("3-4") in rnd.hands[0] and Tile.parse("5-5") in rnd.hands[3]
    assert rnd.bazar_size == len(rest) - 4
    assert not rnd.moves  # the search is the set-up, not moves
    # the record keeps the position after the set-up: the engine is in the centre
    again = Round(rules(4), **rnd.deal())
    assert again.hands == rnd.hands and again.leader == 1 and again.bazar == rnd.bazar


def test_the_holder_places_the_engine_and_moves_first() -> None:
    hands, rest = dealt(3, {2: ["12-12", "12-3"]})
    rnd = Round(rules(3), hands=hands, bazar=rest)
    assert rnd.leader == rnd.turn == 2 and len(rnd.hands[2]) == 14
    assert moves(rnd) == ["12-3:2"]


def test_a_pre_placed_engine_rotates_the_first_player() -> None:
    r = rules(4, engine_source="pre_placed")
    match = Match(r, seed=11)
    first = match.round.leader
    for k in range(1, 4):
        while match.round.number == k:
            match.push(random.Random(k).choice(match.legal_moves()))
        assert match.round.leader == (first + k) % 4


# -- MT-4, MT-5: the first turn -------------------------------------------------------------------


def first_turns(rnd: Round, seat: int) -> set[tuple[str, ...]]:
    """Every complete first turn of ``seat``: the tiles laid, in order."""
    found: set[tuple[str, ...]] = set()

    def search(laid: tuple[str, ...]) -> None:
        if rnd.turn != seat:
            found.add(laid)
            return
        for move in rnd.legal_moves():
            rnd.push(move)
            search(laid if move.tile is None else (*laid, str(move.tile)))
            rnd.pop()

    search(())
    return found


def test_mt4_a_first_turn_lays_a_chain_on_ones_own_train_and_stops_at_will() -> None:
    hands, rest = dealt(4, {1: ["12-5", "5-5", "9-5", "9-9", "3-2", "1-0", "3-3"]}, size=7)
    rnd = Round(rules(4), hands=hands, bazar=rest, leader=1)
    assert moves(rnd) == ["12-5:1"]  # no stop before the first tile, no Mexican train
    rnd.push("12-5:1")
    assert moves(rnd) == ["5-5:1", "9-5:1", "stop"]
    rnd.pop()
    assert first_turns(rnd, 1) == {
        ("12-5",),
        ("12-5", "5-5"),
        ("12-5", "5-5", "9-5"),
        ("12-5", "5-5", "9-5", "9-9"),
        ("12-5", "9-5"),
        ("12-5", "9-5", "9-9"),
    }


def test_mt4_a_double_left_open_by_a_first_turn_is_satisfied_from_the_second_turn() -> None:
    hands, rest = dealt(
        4, {1: ["12-5", "5-5", "9-5", "9-9", "3-2", "1-0", "3-3"]}, front=["9-8"], size=7
    )
    rnd = Round(rules(4), hands=hands, bazar=rest, leader=1)
    for move in ["12-5:1", "9-5:1", "9-9:1"]:  # the turn ends by itself after 9-9
        rnd.push(move)
    assert rnd.turn == 2 and rnd.unsatisfied == ("1",)  # type: ignore[attr-defined]
    for _ in range(3):  # seats 2, 3, 0 hold no 12
        assert moves(rnd) == ["pass"]
        rnd.push("pass")
    assert rnd.turn == 1 and rnd.first_turns_left == 0  # type: ignore[attr-defined]
    assert moves(rnd) == ["draw"]  # P1 holds no 9
    rnd.push("draw")
    assert moves(rnd) == ["9-8:1"]
    rnd.push("9-8:1")
    assert rnd.unsatisfied == ()  # type: ignore[attr-defined]


def test_mt5_a_player_who_cannot_start_his_train_gets_a_marker_and_does_not_draw() -> None:
    hands, rest = dealt(4, {1: ["12-5", "12-4"], 3: ["12-6"]}, size=5)
    rnd = Round(rules(4), hands=hands, bazar=rest, leader=1)
    rnd.push("12-5:1")
    rnd.push("stop")
    assert rnd.turn == 2 and moves(rnd) == ["pass"]
    rnd.push("pass")
    assert rnd.markers == ("2",) and rnd.ends()["2"] == 12  # type: ignore[attr-defined]
    assert moves(rnd) == ["12-6:3"]  # P3, still in his first turn, may not use P2's train
    rnd.push("12-6:3")
    rnd.push("stop")
    assert moves(rnd) == ["pass"]  # P0 holds no 12
    rnd.push("pass")
    assert rnd.turn == 1 and "12-4:2" in moves(rnd) and "12-4:M" in moves(rnd)


# -- MT-6 to MT-11: normal turns ------------------------------------------------------------------

MT6 = {"0": ["12|5"], "1": ["12|7"], "2": ["12|9"], "M": ["12|3"]}


def test_mt6_a_tile_may_go_on_ones_own_train_a_marked_train_or_the_mexican_train() -> None:
    hands = [["10-5", "7-1", "9-4", "12-6", "3-3", "11-11"], ["0-0"], ["0-1"], ["0-2"]]
    rnd = position(hands, MT6, markers=["1", "3"])
    assert moves(rnd) == ["10-5:0", "7-1:1", "12-6:3", "3-3:M"]
    with pytest.raises(IllegalMove):
        rnd.push("9-4:2")  # P2's train is not marked
    with pytest.raises(IllegalMove):
        rnd.push("draw")


def test_mt7_who_cannot_play_draws_and_must_play_the_drawn_tile() -> None:
    hands = [["11-10", "4-2"], ["7-6"], ["0-1"], ["0-2"]]
    rnd = position(hands, MT6, markers=["1", "3"], bazar_tiles=["7-0"])
    assert moves(rnd) == ["draw"]
    rnd.push("draw")
    assert moves(rnd) == ["7-0:1"]
    rnd = position(hands, MT6, markers=["1", "3"], bazar_tiles=["8-8"])
    rnd.push("draw")
    assert moves(rnd) == ["pass"]
    rnd.push("pass")
    assert rnd.markers == ("0", "1", "3") and rnd.turn == 1  # type: ignore[attr-defined]


MT8 = {"0": ["12|5"], "1": ["12|7"], "M": ["12|3"]}


def test_mt8_a_double_needs_another_tile_and_is_satisfied_on_a_private_train() -> None:
    hands = [["5-5", "7-1", "11-10"], ["5-2", "9-1"], ["0-0"]]
    rnd = position(hands, MT8, markers=["1"])
    rnd.push("5-5:0")
    assert rnd.turn == 0 and moves(rnd) == ["7-1:1"]
    rnd.push("7-1:1")
    assert rnd.turn == 1 and rnd.unsatisfied == ("0",)  # type: ignore[attr-defined]
    assert moves(rnd) == ["5-2:0"]  # P0's train is not marked, but the double is due
    rnd.push("5-2:0")
    assert rnd.markers == ("1",) and rnd.unsatisfied == ()  # type: ignore[attr-defined]


def test_mt9_a_failed_satisfaction_passes_the_duty_on() -> None:
    hands = [["5-5", "7-1", "11-10"], ["9-1", "6-3"], ["5-12", "8-8"]]
    rnd = position(hands, MT8, markers=["1"], bazar_tiles=["6-6"])
    rnd.push("5-5:0")
    rnd.push("7-1:1")
    assert moves(rnd) == ["draw"]  # 9-1 fits P1's own train, but the double comes first
    rnd.push("draw")
    assert moves(rnd) == ["pass"]
    rnd.push("pass")
    assert rnd.markers == ("1",)  # type: ignore[attr-defined]
    assert moves(rnd) == ["12-5:0"]


@pytest.mark.parametrize(("marker_on_failed_satisfy", "markers"), [(True, ("1",)), (False, ())])
def test_mt9_the_marker_after_a_failed_satisfaction_is_an_option(
    marker_on_failed_satisfy: bool, markers: tuple[str, ...]
) -> None:
    hands = [["5-5", "4-1", "11-10"], ["9-1", "6-3"], ["5-12", "8-8"]]
    rnd = position(
        hands,
        {**MT8, "M": ["12|4"]},
        bazar_tiles=["6-6"],
        marker_on_failed_satisfy=marker_on_failed_satisfy,
    )
    for move in ["5-5:0", "4-1:M", "draw", "pass"]:
        rnd.push(move)
    assert rnd.markers == markers  # type: ignore[attr-defined]


MT10 = {"0": ["12|9"], "1": ["12|7"], "M": ["12|4"]}
MT10_HANDS = [["9-9", "4-4", "7-2", "11-10"], ["6-4", "3-1"], ["9-3", "8-4"], ["5-4", "2-1"]]


def test_mt10_several_doubles_are_satisfied_in_the_order_they_were_played() -> None:
    rnd = position(MT10_HANDS, MT10, markers=["1"], bazar_tiles=["1-0", "11-11"])
    for move in ["9-9:0", "4-4:M", "7-2:1"]:
        rnd.push(move)
    assert rnd.turn == 1 and rnd.unsatisfied == ("0", "M")  # type: ignore[attr-defined]
    assert moves(rnd) == ["draw"]  # P1 holds 4-6, but 9-9 is due first
    rnd.push("draw")
    rnd.push("pass")
    assert moves(rnd) == ["9-3:0"]
    rnd.push("9-3:0")
    assert moves(rnd) == ["5-4:M"]


def test_mt10_with_satisfy_order_reverse_the_newest_double_comes_first() -> None:
    rnd = position(MT10_HANDS, MT10, markers=["1"], bazar_tiles=["1-0"], satisfy_order="reverse")
    for move in ["9-9:0", "4-4:M", "7-2:1"]:
        rnd.push(move)
    assert rnd.unsatisfied == ("M", "0")  # type: ignore[attr-defined]
    assert moves(rnd) == ["6-4:M"]


MT11 = {"0": ["12|5"], "1": ["12|7"], "2": ["12|9"], "M": ["12|3"]}


def test_mt11_markers_come_off_when_the_owner_plays_on_his_own_train() -> None:
    hands = [["0-0", "1-1"], ["0-2", "1-2"], ["7-6", "9-8", "3-1"]]
    rnd = position(hands, MT11, markers=["1", "2"], turn=2)
    rnd.push("7-6:1")
    assert rnd.markers == ("1", "2")  # type: ignore[attr-defined]
    rnd = position(hands, MT11, markers=["1", "2"], turn=2)
    rnd.push("9-8:2")
    assert rnd.markers == ("1",)  # type: ignore[attr-defined]


def test_mt11_marker_removal_any_play_on_train() -> None:
    hands = [["9-6", "1-1"], ["0-2", "1-2"], ["0-3", "1-3"]]
    rnd = position(hands, MT11, markers=["1", "2"], marker_removal="any_play_on_train")
    rnd.push("9-6:2")
    assert rnd.markers == ("1",)  # type: ignore[attr-defined]


def test_mt11_marker_removal_owner_plays_anywhere() -> None:
    hands = [["0-0", "1-1"], ["0-2", "1-2"], ["3-6", "1-4"]]
    rnd = position(hands, MT11, markers=["1", "2"], turn=2, marker_removal="owner_plays_anywhere")
    rnd.push("6-3:M")
    assert rnd.markers == ("1",)  # type: ignore[attr-defined]


def test_max_doubles_per_turn_1_makes_the_tile_after_a_double_a_single() -> None:
    hands = [["5-5", "3-3", "11-10"], ["0-2", "1-2"], ["0-3", "1-3"]]
    rnd = position(hands, MT11, max_doubles_per_turn=1)
    rnd.push("5-5:0")
    assert moves(rnd) == ["pass"]  # 3-3 fits the Mexican train, but a double may not follow
    rnd = position(hands, MT11)
    rnd.push("5-5:0")
    assert moves(rnd) == ["3-3:M"]


def test_without_doubles_to_satisfy_an_open_double_is_just_an_end() -> None:
    hands = [["5-5", "7-1", "11-10"], ["9-1", "6-3"], ["5-12", "8-8"]]
    rnd = position(hands, MT8, markers=["1"], doubles_must_be_satisfied=False)
    rnd.push("5-5:0")
    rnd.push("7-1:1")
    assert rnd.unsatisfied == () and moves(rnd) == ["9-1:1", "6-3:M"]  # type: ignore[attr-defined]


# -- MT-12 to MT-16: the end of a round and scoring -----------------------------------------------


def test_mt12_going_out_on_a_double_ends_the_round_at_once() -> None:
    rnd = position([["8-8"], ["0-2", "1-2"], ["0-3"]], {"0": ["12|8"]})
    rnd.push("8-8:0")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "out" and outcome.out_seat == 0
    assert Ledger.new(rnd.rules).settle(outcome).scores == (0, 5, 3)


def test_mt13_a_player_out_in_his_first_turn_waits_for_the_others_first_turns() -> None:
    chain = [
        "12-0",
        "1-0",
        "2-1",
        "3-2",
        "4-3",
        "5-4",
        "6-5",
        "7-6",
        "8-7",
        "9-8",
        "10-9",
        "11-10",
        "11-1",
        "3-1",
    ]
    hands, rest = dealt(3, {0: ["12-12", *chain]})
    rnd = Round(rules(3), hands=hands, bazar=rest)
    assert rnd.leader == 0 and len(rnd.hands[0]) == 14
    for tile in chain:
        rnd.push(f"{tile}:0")
    assert rnd.turn == 1 and not rnd.is_over()
    rnd.push("pass")
    rnd.push("pass")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "out" and outcome.out_seat == 0
    scores = Ledger.new(rnd.rules).settle(outcome).scores
    assert scores == (0, *(sum(t.pips for t in h) for h in rnd.hands[1:]))


def test_mt14_penalty_scoring_adds_every_hand_to_its_total() -> None:
    r = rules(3)
    out = Outcome("out", out_seat=0, remaining=[[], ["12-11", "0-0"], ["5-5", "6-1"]])
    assert Ledger(r, scores=[40, 10, 25]).settle(out).scores == (40, 33, 42)


def test_mt15_positive_scoring_gives_the_winner_the_others_pips() -> None:
    r = rules(3, scoring="positive")
    out = Outcome("out", out_seat=0, remaining=[[], ["12-11", "0-0"], ["5-5", "6-1"]])
    assert Ledger.new(r).settle(out).scores == (40, 0, 0)
    fish = Outcome("fish", remaining=[["1-2"], ["0-3"], ["6-6"]])
    assert Ledger.new(r).settle(fish).scores == (6, 6, 0)
    odd = Outcome("fish", remaining=[["1-2"], ["0-3"], ["6-5"]])
    assert Ledger.new(r).settle(odd).scores == (5, 5, 0)


def test_mt15_with_positive_scoring_the_bots_value_the_winners_points_as_a_gain() -> None:
    from bazar.bots.sampler import outcome_value

    out = Outcome("out", out_seat=0, remaining=[[], ["12-11", "0-0"], ["5-5", "6-1"]])
    gained = outcome_value(rules(3, scoring="positive"), out)
    assert gained[0] == max(gained), "the player out scores 40: his best round"
    penalised = outcome_value(rules(3), out)
    assert penalised[0] == max(penalised), "the player out records nothing: his best round"


MT16 = {"0": ["12|3"], "1": ["12|7"], "2": ["12|9"], "3": ["12|10"], "M": ["12|4"]}


def test_mt16_a_round_is_blocked_as_soon_as_no_hand_could_ever_play() -> None:
    hands = [["1-2"], ["5-6"], ["8-11"], ["7-0", "11-11"]]
    rnd = position(hands, MT16, turn=1)
    assert moves(rnd) == ["pass"]
    rnd.push("pass")
    assert rnd.markers == ("1",) and not rnd.is_over()  # type: ignore[attr-defined]
    rnd.push("pass")
    assert moves(rnd) == ["7-0:1"]
    rnd.push("7-0:1")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "fish" and outcome.fisher == 3
    assert Ledger.new(rnd.rules).settle(outcome).scores == (3, 11, 19, 22)


def test_mt16_a_double_nobody_can_satisfy_blocks_the_round_at_once() -> None:
    hands = [["9-9", "4-1", "1-2"], ["5-6"], ["8-11"], ["7-0", "11-11"]]
    rnd = position(hands, {**MT16, "0": ["12|9"]}, markers=["1", "2", "3"])
    rnd.push("9-9:0")
    rnd.push("4-1:M")
    assert rnd.is_over() and rnd.outcome().reason == "fish"  # type: ignore[union-attr]


def test_the_match_goes_to_the_lowest_total_and_ties_share_it() -> None:
    r = rules(3, set_max=6, hand_size=5)
    ledger = Ledger(r, scores=[30, 30, 41], rounds=6)
    last = ledger.settle(Outcome("out", out_seat=0, remaining=[[], [], ["1-0"]]))
    assert last.result is not None and last.result.winners == (0, 1)
    assert last.result.losers == (2,)
    positive = Ledger(rules(3, set_max=6, hand_size=5, scoring="positive"), rounds=6)
    won = positive.settle(Outcome("out", out_seat=2, remaining=[["1-0"], ["2-2"], []]))
    assert won.result is not None and won.result.winners == (2,)


# -- first_turn_multi = False ---------------------------------------------------------------------


def test_without_the_first_turn_phase_every_turn_is_a_normal_turn() -> None:
    fixed = {
        0: ["12-12", "12-5", "3-1"],
        1: ["12-4", "3-3", "2-2", "8-1"],
        2: ["3-0", "2-0", "1-1", "9-8"],
    }
    hands, rest = dealt(3, fixed, front=["6-6"], size=4)
    rnd = Round(rules(3, first_turn_multi=False), hands=hands, bazar=rest)
    assert moves(rnd) == ["12-5:0", "12-5:M"]
    rnd.push("12-5:M")  # the Mexican train at once, and a single tile: the turn is over
    assert rnd.turn == 1 and moves(rnd) == ["12-4:1"]
    rnd.push("12-4:1")
    assert rnd.turn == 2 and moves(rnd) == ["draw"]  # seat 2 holds no 12, 5 or 4: he draws


# -- a whole round from a seed --------------------------------------------------------------------


def test_the_views_show_the_trains_markers_and_doubles_but_no_hidden_tile() -> None:
    rnd = Round(rules(8), seed=4)
    invariants.play_out(rnd, 4, 40)
    view = rnd.view(None)
    assert set(view.board.trains) == {*map(str, range(8)), "M"}
    assert view.extra["engine"] == "12-12" and view.hand is None
    assert set(view.ends) == set(view.board.trains)


# -- the invariants of every round class ----------------------------------------------------------

PRESETS = [rules(n) for n in range(2, 11)] + [
    rules(4, engine_source="pre_placed", scoring="positive"),
    rules(5, first_turn_multi=False, max_doubles_per_turn=1, satisfy_order="reverse"),
    rules(3, doubles_must_be_satisfied=False, marker_removal="any_play_on_train"),
    rules(6, marker_on_failed_satisfy=False, marker_removal="owner_plays_anywhere"),
    rules(2, set_max=6, hand_size=7),
]
presets = st.sampled_from(PRESETS)


def universe(rnd: Round) -> list[Move]:
    """The tiles of the player to move on every train (and on a line's end), every tile on
    his own train and the Mexican train, and the bare moves."""
    mine = rnd.hands[rnd.turn] if rnd.turn is not None else ()
    own = [str(rnd.turn), "M"] if rnd.turn is not None else ["M"]
    plays = [Move.play(t, end) for t in mine for end in [*rnd.ends(), "L"]]
    plays += [Move.play(t, end) for t in bazar.tile_set(rnd.rules.set_max) for end in own]
    return [*plays, Move("draw"), Move("pass"), Move("stop")]


def may_know(rnd: Round, seat: int | None) -> set[Tile]:
    public = set(rnd.played()) | {rnd.engine}  # type: ignore[attr-defined]
    if rnd.is_over():
        public |= {t for h in rnd.hands for t in h}
    if seat is None:
        return public
    drawn = {t for s, _, t in rnd.history() if s == seat and t is not None}
    return public | set(rnd.hands[seat]) | drawn


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(presets, seeds, seeds)
def test_legal_moves_are_exactly_what_push_accepts(r: bazar.Rules, seed: int, line: int) -> None:
    invariants.legal_is_what_push_accepts(Round(r, seed=seed), universe, line)


@some
@given(presets, seeds, seeds)
def test_tiles_are_conserved(r: bazar.Rules, seed: int, line: int) -> None:
    rnd = Round(r, seed=seed)
    everything = sorted(bazar.tile_set(r.set_max))
    for at in invariants.walk(rnd, line):
        where = [*(t for h in at.hands for t in h), *at.bazar, *at.played(), at.engine]  # type: ignore[attr-defined]
        assert sorted(where) == everything


@some
@given(presets, seeds, seeds)
def test_pop_and_copy_are_exact(r: bazar.Rules, seed: int, line: int) -> None:
    invariants.pop_and_copy_are_exact(Round(r, seed=seed), line)


@some
@given(presets, seeds, seeds)
def test_no_view_shows_another_seats_tiles_or_the_bazar(
    r: bazar.Rules, seed: int, line: int
) -> None:
    invariants.views_show_only(Round(r, seed=seed), line, may_know)


@some
@given(presets, seeds, seeds, st.integers(0, 3))
def test_a_view_does_not_change_with_tiles_the_seat_cannot_see(
    r: bazar.Rules, seed: int, line: int, pick: int
) -> None:
    a = Round(r, seed=seed)
    seat = pick % r.players
    made = invariants.play_out(a.copy(), line).moves
    hands, pool = hidden.reshuffled(a, seat, made, random.Random(line))
    b = Round(r, hands=hands, bazar=pool, leader=a.leader)
    invariants.same_views_while_legal(a, b, made, seat)


@some
@given(presets, seeds, seeds, st.integers(0, 120))
def test_a_round_from_a_view_plays_on_alike(r: bazar.Rules, seed: int, line: int, n: int) -> None:
    invariants.from_view_plays_on_alike(invariants.play_out(Round(r, seed=seed), line, n), line)


@some
@given(presets, seeds, seeds, st.one_of(st.just(10**6), st.integers(0, 500)))
def test_records_round_trip(r: bazar.Rules, seed: int, line: int, n: int) -> None:
    invariants.records_round_trip(r, seed, line, n)


@pytest.mark.parametrize("players", range(2, 11))
def test_a_random_match_ends_at_every_table_size(players: int) -> None:
    match = invariants.matches_end(rules(players), players, players, 1_000)
    assert len(match.rounds) == 13


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(presets, seeds, seeds)
def test_random_matches_end(r: bazar.Rules, seed: int, line: int) -> None:
    match = invariants.matches_end(r, seed, line, 1_000)
    assert len(match.rounds) == r.set_max + 1


# -- move counts ----------------------------------------------------------------------------------

# players -> {depth: perft} for Round(rules("mexican-train", players=n), seed=1), computed with the
# engine when this file was written: a change means move generation changed.
PERFT = {
    2: {1: 7, 2: 28, 4: 485, 6: 7920},
    4: {1: 1, 2: 2, 6: 93, 10: 1909, 14: 50551},
    8: {1: 1, 4: 4, 8: 80, 12: 760, 16: 6216},
    10: {1: 1, 4: 4, 8: 34, 12: 216, 16: 1339, 20: 7847},
}


@pytest.mark.parametrize("players", sorted(PERFT))
def test_perft_of_the_seed_1_deal(players: int) -> None:
    rnd = Round(rules(players), seed=1)
    assert {d: invariants.perft(rnd, d) for d in PERFT[players]} == PERFT[players]


def test_a_deal_counted_by_hand() -> None:
    """6-6 is in the centre; seat 0 holds 6-1, 1-1, 4-3, seat 1 holds 6-2, 5-0; the bazar is
    2-2 then 1-4.

    Seat 0's first turn is 6-1, then 1-1 (nothing more fits: the turn ends by itself) or
    ``stop``; seat 1 lays 6-2. Left open after the first turns, 1-1 is due at once; laid in
    seat 0's second turn, it needs another tile: seat 0 draws 2-2, which fits nowhere, and
    passes (marker on). Either way seat 1 cannot satisfy 1-1, draws 1-4 and must lay it on
    the double; seat 0 lays 4-3 on his own train, seat 1 knocks (his marker goes on), and
    seat 0 goes out with 2-2 on seat 1's train.
    """
    r = rules(2, set_max=6, hand_size=2)
    rnd = Round(r, hands=[["6-1", "1-1", "4-3"], ["6-2", "5-0"]], bazar=["2-2", "1-4"], leader=0)
    assert isinstance(rnd, TrainRound)
    assert invariants.perft(rnd, 20) == 2
    lines: list[str] = []

    def walk(prefix: list[str]) -> None:
        outcome = rnd.outcome()
        if outcome is not None:
            lines.append(f"{' '.join(prefix)} | {outcome.reason}")
        for move in rnd.legal_moves():
            rnd.push(move)
            walk([*prefix, str(move)])
            rnd.pop()

    walk([])
    assert lines == [
        "6-1:0 1-1:0 6-2:1 draw pass draw 4-1:0 4-3:0 pass 2-2:1 | out",
        "6-1:0 stop 6-2:1 1-1:0 draw pass draw 4-1:0 4-3:0 pass 2-2:1 | out",
    ]
