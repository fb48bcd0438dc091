"""The Fives family (fives.md): the worked examples of §13 and the rules they illustrate."""

from __future__ import annotations

import random

import pytest

import bazar
from bazar import Ledger, Outcome, Round
from bazar.games.cross.fives import BONUS_DIVIDE
from bazar.games.cross.options import SPINNER
from bazar.games.cross.round import count_ends
from bazar.games.line.round import lowest_tile_key


def rest(*hands: list[str]) -> list[str]:
    used = {str(bazar.Tile.parse(t)) for h in hands for t in h}
    return [str(t) for t in bazar.tile_set(6) if str(t) not in used]


def played(
    name: str,
    hands: list[list[str]],
    moves: list[str],
    leader: int = 0,
    ledger: Ledger | None = None,
    **options: object,
) -> tuple[Round, list[int]]:
    """Play ``moves`` on an explicit deal; returns the round and the count after each move."""
    rules = bazar.rules(name, players=len(hands), **options)  # type: ignore[arg-type]
    rnd = Round(rules, hands=hands, bazar=rest(*hands), leader=leader, ledger=ledger)
    counts = []
    for move in moves:
        rnd.push(move)
        counts.append(count_ends(rnd))  # type: ignore[arg-type]
    return rnd, counts


# -- 13.1: the Gambler / Pyaterochka examples a-d ---------------------------------------------

EXAMPLE_HANDS = [["5-5", "3-5", "5-4", "2-5", "6-6"], ["5-0", "0-2", "2-2", "3-3", "6-1"]]
EXAMPLE_MOVES = ["5-5", "5-0:L", "3-5:R", "0-2:L", "5-4:S", "2-2:L", "2-5:L", "3-3:R"]


def test_13_1_covered_only_counts_the_covered_arms() -> None:
    rnd, counts = played("domino-five", EXAMPLE_HANDS, EXAMPLE_MOVES)
    assert counts == [10, 10, 3, 5, 9, 11, 12, 15]
    assert rnd.scoring() == [(0, 10), (1, 10), (1, 5), (1, 15)]


def test_13_1_open_arms_counts_the_free_sides_at_the_spinner_value() -> None:
    rnd, counts = played("pyaterochka", EXAMPLE_HANDS, EXAMPLE_MOVES)
    assert counts == [10, 10, 13, 15, 14, 16, 17, 20]
    assert rnd.scoring() == [(0, 10), (1, 10), (1, 15), (1, 20)]


def test_the_free_slot_appears_once_both_sides_are_covered() -> None:
    rnd, _ = played("domino-five", EXAMPLE_HANDS, EXAMPLE_MOVES[:2])
    assert rnd.ends() == {"L": 0, "R": 5}
    rnd.push("3-5:R")
    assert rnd.ends() == {"L": 0, "R": 3, "S": 5}
    rnd.push("0-2:L")
    rnd.push("5-4:S")
    assert rnd.ends() == {"L": 2, "R": 3, "U": 4, "S": 5}
    board = rnd.board
    assert board.spinner == 5 and list(map(str, board.up)) == ["5|4"]
    assert list(map(str, board.line)) == ["2|0", "0|5", "5|5", "5|3"]


# -- 13.2: the bonus --------------------------------------------------------------------------

BLOCK = [["2-1"], ["4-1"], ["6-5"], ["6-5", "1-1"]]


def test_13_2_gambler_bonus_subtracts_the_blocked_winner_and_divides() -> None:
    rules = bazar.rules("domino-five", players=4)
    fish = Outcome("fish", fisher=1, remaining=[["2-1"], ["4-1"], ["6-5"], ["6-4", "2-1"]])
    assert Ledger.new(rules).settle(fish).scores == (5, 0, 0, 0)
    full = bazar.rules("domino-five", players=4, bonus_divide=False)
    assert Ledger.new(full).settle(fish).scores == (25, 0, 0, 0)
    out = Outcome("out", out_seat=0, remaining=[[], ["4-1"], ["6-5"], ["6-4", "2-1"]])
    assert Ledger.new(rules).settle(out).scores == (6, 0, 0, 0)
    opponents = bazar.rules("domino-five", players=4, block_award="opponents_total")
    assert Ledger.new(opponents).settle(fish).scores == (6, 0, 0, 0)


# -- 13.3: Pagat ------------------------------------------------------------------------------


def test_13_3_pagat_bonus_rounds_to_five() -> None:
    rules = bazar.rules("fives")
    assert Ledger.new(rules).settle(Outcome("out", out_seat=0, remaining=[[], ["2-1"]])).scores == (
        5,
        0,
    )
    assert Ledger.new(rules).settle(Outcome("out", out_seat=0, remaining=[[], ["1-1"]])).scores == (
        0,
        0,
    )
    pips27 = ["6-6", "6-5", "3-1"]
    pips28 = ["6-6", "6-5", "4-1"]
    assert Ledger.new(rules).settle(Outcome("out", out_seat=0, remaining=[[], pips27])).scores == (
        25,
        0,
    )
    assert Ledger.new(rules).settle(Outcome("out", out_seat=0, remaining=[[], pips28])).scores == (
        30,
        0,
    )


def test_13_3_the_largest_single_score_is_35() -> None:
    hands = [["1-1", "5-1", "2-1", "5-5", "5-2", "3-0"], ["6-1", "4-1", "6-6", "4-4", "3-2"]]
    moves = ["1-1", "6-1:L", "5-1:R", "4-1:S", "2-1:S", "6-6:L", "5-5:R", "4-4:U", "5-2:D"]
    rnd, counts = played("fives", hands, moves)
    assert counts[-1] == 35
    assert rnd.scoring()[-1] == (0, 35)


def test_13_3_divided_in_play_fifteen_scores_three() -> None:
    rules = bazar.rules("fives", divide_in_play=True)
    assert rules.target == 61 and rules[BONUS_DIVIDE]
    _, counts = played(
        "fives", [["5-0", "6-1"], ["5-5", "4-2"]], ["5-0", "5-5:L"], divide_in_play=True
    )
    rnd, _ = played(
        "fives", [["6-4", "6-1"], ["4-1", "2-2"]], ["6-4", "4-1:R"], divide_in_play=True
    )
    assert counts == [5, 10]
    assert rnd.scoring() == [(0, 2)], "6-4 alone counts 10; 6 and 1 count 7"
    fifteen, _ = played(
        "muggins", [["5-5", "1-1"], ["5-0", "2-2"]], ["5-5", "5-0:R"], divide_in_play=True
    )
    assert fifteen.scoring() == [(0, 2), (1, 2)]


def test_13_3_three_players_two_tied_lowest_split_the_bonus() -> None:
    rules = bazar.rules("fives", players=3)
    fish = Outcome("fish", fisher=2, remaining=[["4-2"], ["5-1"], ["6-6", "6-5", "3-1"]])
    assert Ledger.new(rules).settle(fish).scores == (10, 10, 0)
    divided = bazar.rules("fives", players=3, divide_in_play=True)
    assert Ledger.new(divided).settle(fish).scores == (2, 2, 0)


def test_13_3_partners_the_lighter_side_scores_the_other_side_rounded() -> None:
    rules = bazar.rules("fives", players=4)
    assert rules.teams
    fish = Outcome("fish", fisher=0, remaining=[["2-1"], ["4-0"], ["6-3"], ["6-4"]])
    assert Ledger.new(rules).settle(fish).scores == (15, 0)


def test_13_3_exact_target_an_overshooting_score_is_not_taken() -> None:
    rules = bazar.rules("fives", divide_in_play=True, exact_target=True)
    at_60 = Ledger(rules, scores=[60, 0])
    rnd, _ = played(
        "fives",
        [["5-5", "6-6"], ["5-0", "6-1"]],
        ["5-0", "5-5:L"],
        leader=1,
        ledger=at_60,
        divide_in_play=True,
        exact_target=True,
    )
    assert rnd.scoring() == [(1, 1)], "P0's 2 points would make 62 > 61"
    at_59 = Ledger(rules, scores=[59, 0])
    rnd, _ = played(
        "fives",
        [["5-5", "6-6"], ["5-0", "6-1"]],
        ["5-0", "5-5:L"],
        leader=1,
        ledger=at_59,
        divide_in_play=True,
        exact_target=True,
    )
    assert rnd.scoring() == [(1, 1), (0, 2)]
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "target"
    assert Ledger(rules, scores=[59, 0]).settle(outcome).result is not None


def test_reaching_the_target_with_a_move_that_blocks_the_hand_wins_before_the_block() -> None:
    rules = bazar.rules("fives")
    ledger = Ledger(rules, scores=[245, 240])
    # 5-5 alone counts 10 and nobody holds a 5: blocked, and the lighter P1 would take
    # round_to(22, 5) = 20 and pass P0
    rnd = Round(rules, hands=[["5-5", "6-6", "6-4"], ["1-0"]], bazar=[], leader=0, ledger=ledger)
    rnd.push("5-5")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "target"
    after = ledger.settle(outcome)
    assert after.scores == (255, 240)
    assert after.result is not None and after.result.winners == (0,)


def test_reaching_the_target_going_out_wins_before_losers_subtract() -> None:
    rules = bazar.rules("fives", players=4, losers_subtract=True)
    ledger = Ledger(rules, scores=[195, 100])
    # seat 0 goes out with 5-5 (10 points: 205 of 200); his partner's 12 pips would take 10 off
    rnd = Round(
        rules, hands=[["5-5"], ["1-0"], ["6-6"], ["2-0"]], bazar=[], leader=0, ledger=ledger
    )
    rnd.push("5-5")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "target"
    after = ledger.settle(outcome)
    assert after.scores == (205, 100)
    assert after.result is not None and after.result.winning_teams == (0,)


def test_reaching_the_target_mid_hand_ends_the_match_at_once() -> None:
    rules = bazar.rules("fives")
    match = bazar.Match(rules, seed=4)
    rng = random.Random(4)
    while not match.is_over():
        match.push(rng.choice(match.legal_moves()))
    last = match.round.outcome()
    assert last is not None
    assert max(match.ledger.scores) >= 250
    if last.reason == "target":
        assert not match.round.legal_moves() and match.result() is not None


# -- 13.4: GameColony -------------------------------------------------------------------------


def test_13_4_gamecolony_counts() -> None:
    _, counts = played("five-up", [["4-1", "6-6"], ["6-1", "2-2"]], ["4-1", "6-1:R"])
    assert counts == [5, 10]
    _, counts = played("five-up", [["5-5", "0-0"], ["5-0", "2-2"]], ["5-5", "5-0:R"])
    assert counts[-1] == 10
    _, counts = played("five-up", [["5-5", "1-1"], ["5-3", "2-2"]], ["5-5", "5-3:L"])
    assert counts == [10, 13]


def test_13_4_a_double_at_an_end_counts_both_halves() -> None:
    _, counts = played(
        "five-up", [["5-4", "5-5", "1-1"], ["4-1", "4-4", "2-2"]], ["5-4", "4-4:R", "5-5:L"]
    )
    assert counts == [9, 13, 18]
    _, counts = played("five-up", [["4-2", "1-1"], ["4-4", "2-2"]], ["4-2", "4-4:L"])
    assert counts == [6, 10]


@pytest.mark.parametrize(("count", "expected"), [("covered_only", 10), ("open_arms", 16)])
def test_13_4_a_spinner_with_an_empty_side_counts_4_4_2(count: str, expected: int) -> None:
    hands = [["6-6", "6-5", "6-2", "1-1", "0-0"], ["6-4", "5-4", "3-3", "1-0"]]
    _, counts = played(
        "five-up", hands, ["6-6", "6-4:L", "6-5:R", "5-4:R", "6-2:S"], spinner_count=count
    )
    assert counts[-1] == expected


def test_13_4_gamecolony_bonus() -> None:
    rules = bazar.rules("five-up")
    out = Outcome("out", out_seat=0, remaining=[[], ["6-5", "1-1"]])
    assert Ledger.new(rules).settle(out).scores == (15, 0)
    block = Outcome("fish", fisher=1, remaining=[["4-3"], ["6-6"]])
    assert Ledger.new(rules).settle(block).scores == (10, 0)
    tie = Outcome("fish", fisher=1, remaining=[["5-4"], ["6-3"]])
    assert Ledger.new(rules).settle(tie).scores == (0, 0)


def test_table_listings_of_five_up() -> None:
    rules = bazar.rules.from_notation("125pt/5+O")
    assert (rules.name, rules.target, rules[SPINNER], rules.later_lead) == (
        "five-up",
        125,
        True,
        "rotate",
    )
    assert rules.notation() == "125pt/5+O"
    assert bazar.rules.from_notation("125pt / 5 *").notation() == "125pt/5*"
    for bad in ("100pt/Drw+", "50pt/5", "100pt/5++", "100pt/6"):
        with pytest.raises(ValueError):
            bazar.rules.from_notation(bad)


# -- 13.5: a spinner placed later -------------------------------------------------------------

LATER = [["5-2", "5-1", "5-4", "6-6"], ["5-5", "5-3", "6-1", "0-0"]]
LATER_MOVES = ["5-2", "5-5:L", "5-1:L", "5-3:S", "5-4:S"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("domino-five", [7, 12, 3, 6, 10]),
        ("pyaterochka", [7, 12, 13, 11, 10]),
    ],
)
def test_13_5_a_spinner_laid_on_an_end(name: str, expected: list[int]) -> None:
    rnd, counts = played(name, LATER, LATER_MOVES)
    assert counts == expected
    assert rnd.scoring()[-1] == (0, 10)


# -- 13.6: leads ------------------------------------------------------------------------------


def test_13_6_the_lowest_tile_of_a_lot() -> None:
    drawn = [bazar.Tile.parse(t) for t in ("3-2", "1-0", "4-4")]
    assert min(drawn, key=lowest_tile_key) == bazar.Tile.parse("1-0")
    assert lowest_tile_key(bazar.Tile.parse("3-0")) < lowest_tile_key(bazar.Tile.parse("2-1"))
    assert lowest_tile_key(bazar.Tile.parse("2-0")) < lowest_tile_key(bazar.Tile.parse("1-1"))


def test_13_6_a_lot_leader_leads_any_tile() -> None:
    rules = bazar.rules("domino-five", players=3)
    leaders = {Round(rules, seed=s).leader for s in range(30)}
    assert leaders == {0, 1, 2}
    assert len(Round(rules, seed=1).legal_moves()) == 5


def test_13_6_gamecolony_forced_highest_double() -> None:
    a, b = (
        ["4-1", "3-2", "6-4", "2-0", "1-0", "3-1", "4-0"],
        ["5-5", "6-5", "6-3", "5-0", "2-1", "6-2", "4-3"],
    )
    rnd = Round(bazar.rules("five-up"), hands=[a, b], bazar=rest(a, b))
    assert rnd.leader == 1 and [str(m) for m in rnd.legal_moves()] == ["5-5"]
    rnd.push("5-5")
    assert rnd.scoring() == [(1, 10)]
    a2, b2 = ["6-4", "3-2"], ["6-5", "4-1"]
    rnd = Round(bazar.rules("five-up"), hands=[a2, b2], bazar=rest(a2, b2))
    assert rnd.leader == 1 and [str(m) for m in rnd.legal_moves()] == ["6-5"]
    rnd.push("6-5")
    assert rnd.scoring() == []


# -- 13.7 and 13.8 ----------------------------------------------------------------------------


def test_13_7_all_threes() -> None:
    rnd, counts = played("all-threes", [["6-3", "6-6", "0-0"], ["4-4", "1-1"]], ["6-3"])
    assert counts == [9] and rnd.scoring() == [(0, 9)]
    rnd, counts = played("all-threes", [["6-3", "0-0"], ["6-6", "1-1"]], ["6-3", "6-6:L"])
    assert counts == [9, 15] and rnd.scoring() == [(0, 9), (1, 15)]
    rnd, _ = played("all-threes", [["4-2", "0-0"], ["1-1", "3-3"]], ["4-2"])
    assert rnd.scoring() == [(0, 6)]
    rules = bazar.rules("all-threes")
    out = Outcome("out", out_seat=0, remaining=[[], ["6-5", "2-1"]])
    assert Ledger.new(rules).settle(out).scores == (5, 0)


def test_13_8_without_a_spinner_a_double_stays_a_plain_double() -> None:
    rnd, counts = played(
        "muggins", [["5-5", "0-0", "6-6"], ["5-0", "1-1", "4-4"]], ["5-5", "5-0:R", "0-0:R"]
    )
    assert counts == [10, 10, 10]
    assert set(rnd.ends()) == {"L", "R"}
    assert rnd.board.spinner is None


# -- every preset plays --------------------------------------------------------------------------

PRESETS = [
    (name, players)
    for name in ("fives", "muggins", "five-up", "domino-five", "pyaterochka", "all-threes")
    for players in range(
        bazar.rules.variant(name).players[0], bazar.rules.variant(name).players[1] + 1
    )
]


@pytest.mark.parametrize(("name", "players"), PRESETS)
def test_random_matches_end_and_replay(name: str, players: int) -> None:
    rules = bazar.rules(name, players=players)
    for seed in range(8):
        match = bazar.Match(rules, seed=seed)
        rng = random.Random(seed)
        while not match.is_over():
            match.push(rng.choice(match.legal_moves()))
        result = match.result()
        assert result is not None
        assert max(match.ledger.scores) >= rules.target
        text = bazar.record.dumps(match)
        assert bazar.record.loads(text).ledger == match.ledger
