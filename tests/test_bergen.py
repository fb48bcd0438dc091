"""Bergen (bergen.md): the worked examples of §9 and the rules they illustrate."""

from __future__ import annotations

import random

import pytest

import bazar
from bazar import Ledger, Outcome, Round
from bazar.games.cross.bergen import (
    BLOCK_POINTS,
    DOUBLE_HEADER_POINTS,
    LEAD_DOUBLE_POINTS,
    NO_OVERSHOOT_HEADERS,
    OUT_POINTS,
    TRIPLE_HEADER_POINTS,
    block_winner,
)
from bazar.games.cross.options import DRAW_MODE, WIN_CHECK


def rest(*hands: list[str]) -> list[str]:
    used = {str(bazar.Tile.parse(t)) for h in hands for t in h}
    return [str(t) for t in bazar.tile_set(6) if str(t) not in used]


def deal(
    hands: list[list[str]], leader: int | None = 0, ledger: Ledger | None = None, **options: object
) -> Round:
    rules = bazar.rules("bergen", players=len(hands), **options)
    return Round(rules, hands=hands, bazar=rest(*hands), leader=leader, ledger=ledger)


def fish(*hands: list[str]) -> Outcome:
    return Outcome("fish", fisher=0, remaining=list(hands))


# -- the variant -------------------------------------------------------------------------------


def test_the_variant_and_its_defaults() -> None:
    two, three, four = (bazar.rules("bergen", players=p) for p in (2, 3, 4))
    assert bazar.rules("bergen").players == 2 and not two.teams
    assert [r.hand_size for r in (two, three, four)] == [6, 6, 5]
    assert [r.target for r in (two, three, four)] == [15, 10, 10]
    assert (two.bazar_reserve, two.first_lead, two.later_lead, two[DRAW_MODE], two[WIN_CHECK]) == (
        2,
        "low",
        "same_rule",
        "until_playable",
        "immediate",
    )
    assert (
        two[LEAD_DOUBLE_POINTS],
        two[DOUBLE_HEADER_POINTS],
        two[TRIPLE_HEADER_POINTS],
        two[OUT_POINTS],
        two[BLOCK_POINTS],
        two[NO_OVERSHOOT_HEADERS],
    ) == (2, 2, 3, 2, 2, False)


@pytest.mark.parametrize(
    "options",
    [
        {"target": None},
        {"draw_mode": "never"},
        {"teams": True},
        {"out_points": -1},
    ],
)
def test_options_outside_the_table_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        bazar.rules("bergen", players=4, **options)


# -- 9.1: a two-player hand -----------------------------------------------------------------------

HAND = [["1-1", "4-2", "6-1", "6-3", "5-0", "5-2"], ["4-1", "2-1", "3-1", "6-6", "4-0", "5-4"]]
PLAYS = ["1-1", "4-1:R", "4-2:R", "2-1:R", "6-1:L", "3-1:R", "6-3:R", "6-6:L"]


def test_9_1_the_lowest_double_dealt_leads() -> None:
    rnd = deal(HAND, leader=None)
    assert "0-0" in map(str, rnd.bazar)
    assert rnd.leader == 0 and [str(m) for m in rnd.legal_moves()] == ["1-1"]


def test_9_1_a_two_player_hand_scores_the_lead_and_the_headers() -> None:
    rnd = deal(HAND, leader=None)
    ends, scores = [], []
    for move in PLAYS:
        before = len(rnd.scoring())
        rnd.push(move)
        ends.append(tuple(rnd.ends().values()))
        scores.append(rnd.scoring()[before:])
    assert ends == [(1, 1), (1, 4), (1, 2), (1, 1), (6, 1), (6, 3), (6, 6), (6, 6)]
    assert scores == [[(0, 2)], [], [], [(1, 3)], [], [], [(0, 2)], [(1, 3)]]
    assert [rnd.is_double_end(e) for e in "LR"] == [True, False]  # type: ignore[attr-defined]
    totals = [sum(p for s, p in rnd.scoring() if s == seat) for seat in (0, 1)]
    assert totals == [4, 6]


# -- 9.2: blocked hands ----------------------------------------------------------------------------

THREE = bazar.rules("bergen", players=3)


@pytest.mark.parametrize(
    ("hands", "winner"),
    [
        ([["2-3", "4-5"], ["1-1"], ["0-6", "3-3"]], 0),  # the only player without a double
        ([["2-3"], ["0-4"], ["5-5"]], 1),  # the fewest pips of the double-free players
        ([["2-2", "5-6"], ["4-4"], ["6-6", "0-1"]], 0),  # all hold a double: the lowest double
        ([["1-4"], ["2-3"], ["3-3"]], None),  # a tie: nobody
    ],
)
def test_9_2_the_blocked_hand_award(hands: list[list[str]], winner: int | None) -> None:
    outcome = fish(*hands)
    assert block_winner(THREE, outcome) == winner
    scores = Ledger.new(THREE).settle(outcome).scores
    assert scores == tuple(2 if seat == winner else 0 for seat in range(3))


def test_a_hand_is_blocked_when_only_the_two_reserved_tiles_are_left() -> None:
    hands = [["6-6", "1-0"], ["5-5", "2-0"]]
    rnd = Round(bazar.rules("bergen"), hands=hands, bazar=["4-4", "3-3", "3-0", "4-0"], leader=0)
    assert (rnd.bazar_size, rnd.drawable) == (4, 2)
    rnd.push("6-6")
    assert [str(m) for m in rnd.legal_moves()] == ["draw"]
    rnd.push("draw")
    rnd.push("draw")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "fish" and rnd.bazar_size == 2
    assert block_winner(rnd.rules, outcome) == 0, "P0 alone holds no double"


# -- 9.3 -------------------------------------------------------------------------------------------


def test_9_3_a_last_tile_that_makes_a_header_scores_both() -> None:
    rnd = deal([["6-4", "6-3"], ["4-3", "2-2"]])
    for move in ["6-4", "4-3:R", "6-3:R"]:
        rnd.push(move)
    outcome = rnd.outcome()
    assert outcome is not None and (outcome.reason, outcome.out_seat) == ("out", 0)
    assert rnd.scoring() == [(0, 2)]
    assert Ledger.new(rnd.rules).settle(outcome).scores == (4, 0)


def test_9_3_going_out_scores_two() -> None:
    rules = bazar.rules("bergen")
    assert Ledger.new(rules).settle(Outcome("out", out_seat=0, remaining=[[], ["6-6"]])).scores == (
        2,
        0,
    )


HEADER = [["4-2", "1-0"], ["6-4", "6-2", "5-5"]]
HEADER_PLAYS = ["6-4", "4-2:R", "6-2:L"]  # P1 makes the ends 2 and 2


def test_9_3_reaching_the_target_during_play_wins_at_once() -> None:
    at_14 = Ledger(bazar.rules("bergen"), scores=[0, 14])
    rnd = deal(HEADER, leader=1, ledger=at_14)
    for move in HEADER_PLAYS:
        rnd.push(move)
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "target"
    after = at_14.settle(outcome)
    assert after.scores == (0, 16)
    assert after.result is not None and after.result.winners == (1,)


def test_reaching_the_target_with_a_move_that_blocks_the_hand_wins_before_the_block() -> None:
    rules = bazar.rules("bergen")
    ledger = Ledger(rules, scores=[13, 14])
    # the lone double 1-1 scores 2 and nobody holds a 1: blocked, and P1 (no double) would
    # take the 2 block points to 16
    rnd = Round(rules, hands=[["1-1", "6-6"], ["2-3"]], bazar=[], leader=0, ledger=ledger)
    rnd.push("1-1")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "target"
    after = ledger.settle(outcome)
    assert after.scores == (15, 14)
    assert after.result is not None and after.result.winners == (0,)


@pytest.mark.parametrize(("before", "points"), [(13, 1), (12, 2), (11, 2)])
def test_close_to_the_target_a_header_scores_less_with_no_overshoot_headers(
    before: int, points: int
) -> None:
    ledger = Ledger(bazar.rules("bergen", no_overshoot_headers=True), scores=[0, before])
    rnd = deal(HEADER, leader=1, ledger=ledger, no_overshoot_headers=True)
    for move in HEADER_PLAYS:
        rnd.push(move)
    assert rnd.scoring() == [(1, points)]


def test_no_overshoot_headers_caps_a_triple_header_at_two_within_three() -> None:
    ledger = Ledger(bazar.rules("bergen", no_overshoot_headers=True), scores=[12, 0])
    rnd = deal(HAND, ledger=ledger, no_overshoot_headers=True)
    for move in PLAYS[:4]:
        rnd.push(move)
    assert rnd.scoring() == [(0, 2), (1, 3)], "P1 is far from the target"
    near = Ledger(bazar.rules("bergen", no_overshoot_headers=True), scores=[0, 12])
    rnd = deal(HAND, ledger=near, no_overshoot_headers=True)
    for move in PLAYS[:4]:
        rnd.push(move)
    assert rnd.scoring() == [(0, 2), (1, 2)], "the lead double is not a header"


@pytest.mark.parametrize(("players", "size", "drawable"), [(2, 16, 14), (3, 10, 8), (4, 8, 6)])
def test_9_3_the_last_two_bazar_tiles_are_never_drawn(
    players: int, size: int, drawable: int
) -> None:
    rnd = Round(bazar.rules("bergen", players=players), seed=11)
    assert (rnd.bazar_size, rnd.drawable) == (size, drawable)


def test_9_3_without_doubles_the_lowest_tile_leads_and_scores_nothing() -> None:
    hands = [["6-5", "4-2", "3-1", "5-1", "6-0", "4-3"], ["1-0", "5-3", "6-2", "6-4", "5-2", "4-1"]]
    rnd = deal(hands, leader=None, bazar_reserve=2)
    assert rnd.leader == 1 and [str(m) for m in rnd.legal_moves()] == ["1-0"]
    rnd.push("1-0")
    assert rnd.scoring() == []


def test_every_hand_is_led_by_the_lowest_double() -> None:
    rules = bazar.rules("bergen", players=3)
    previous = Outcome("out", out_seat=2, remaining=[["6-6"], ["1-0"], []])
    for seed in range(5):
        rnd = Round(rules, seed=seed, number=2, previous=previous)
        held = [t for hand in rnd.hands for t in hand if t.is_double]
        lead = rnd.lead_tiles()
        assert lead is not None and len(lead) == 1
        assert lead[0] == min(held, key=lambda t: t.high) if held else not lead[0].is_double


# -- drawing ---------------------------------------------------------------------------------------

DRY = [["6-6", "1-0"], ["5-5", "2-0"]]
DRY_BAZAR = ["3-3", "6-1", "3-0", "4-0", "2-1"]


def test_a_player_draws_until_he_can_play() -> None:
    rnd = Round(bazar.rules("bergen"), hands=DRY, bazar=DRY_BAZAR, leader=0)
    rnd.push("6-6")
    rnd.push("draw")
    assert [str(m) for m in rnd.legal_moves()] == ["draw"]
    rnd.push("draw")
    assert [str(m) for m in rnd.legal_moves()] == ["6-1:L", "6-1:R"]


def test_with_one_draw_a_turn_a_useless_tile_is_kept_and_the_player_passes() -> None:
    rnd = Round(
        bazar.rules("bergen", draw_mode="one_per_turn"), hands=DRY, bazar=DRY_BAZAR, leader=0
    )
    rnd.push("6-6")
    rnd.push("draw")
    assert [str(m) for m in rnd.legal_moves()] == ["pass"]
    rnd.push("pass")
    assert rnd.turn == 0


# -- every preset plays ----------------------------------------------------------------------------

PRESETS: list[dict[str, object]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "draw_mode": "one_per_turn", "no_overshoot_headers": True},
    {"players": 3, "win_check": "end_of_hand", "out_points": 3},
]


@pytest.mark.parametrize("options", PRESETS)
def test_random_matches_end_and_replay(options: dict[str, object]) -> None:
    rules = bazar.rules("bergen", **options)  # type: ignore[arg-type]
    for seed in range(8):
        match = bazar.Match(rules, seed=seed)
        rng = random.Random(seed)
        while not match.is_over():
            match.push(rng.choice(match.legal_moves()))
        result = match.result()
        assert result is not None and len(result.winners) == 1
        assert max(match.ledger.scores) >= rules.target
        text = bazar.record.dumps(match)
        assert bazar.record.loads(text).ledger == match.ledger
