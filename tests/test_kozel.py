"""Kozel (kozel.md): the worked examples of §14 and the rules they illustrate."""

from __future__ import annotations

import random

import pytest
from invariants import knocked_between

import bazar
from bazar import Ledger, Outcome, Round
from bazar.core.scoring import hand_value
from bazar.core.tiles import parse_tiles
from bazar.rating import kozel_delta

MASHA, ALEX, OLYA, SERG = range(4)

# hands worth the values the examples name
WORTH = {
    0: [],
    2: ["1-1"],
    3: ["2-1"],
    4: ["4-0"],
    5: ["4-1"],
    6: ["5-1"],
    7: ["4-3"],
    9: ["5-4"],
    10: ["6-4"],
    12: ["6-6"],
    13: ["6-5", "2-0"],
    14: ["6-5", "3-0"],
    11: ["6-5"],
}


def hands_worth(*values: int) -> list[list[str]]:
    return [list(WORTH[v]) for v in values]


def online(**options: object) -> bazar.Rules:
    return bazar.rules("kozel", **options)  # type: ignore[arg-type]


# -- 14.1 to 14.7: the online ledger ----------------------------------------------------------


def test_14_1_out_the_others_remember_or_open_their_accounts() -> None:
    before = Ledger(online(), remembered=[19, 0, 7, 4])
    after = before.settle(Outcome("out", out_seat=MASHA, remaining=hands_worth(0, 3, 13, 5)))
    assert after.remembered == (0, 3, 0, 9)
    assert after.scores == (0, 0, 20, 0)
    assert after.opened == (False, False, True, False)


def test_14_2_fish_for_everyone_nobody_loses_remembered_points() -> None:
    before = Ledger(online(), remembered=[19, 0, 7, 4])
    after = before.settle(Outcome("fish", fisher=ALEX, remaining=hands_worth(2, 3, 13, 5)))
    assert after.remembered == (21, 3, 0, 9)
    assert after.scores == (0, 0, 20, 0)


def test_14_3_fish_for_one_the_heaviest_takes_everything_the_others_lose_remembered() -> None:
    before = Ledger(online(fish_mode="for_one"), remembered=[5, 0, 7, 4])
    after = before.settle(Outcome("fish", fisher=ALEX, remaining=hands_worth(2, 3, 13, 5)))
    assert after.scores == (0, 0, 30, 0)
    assert after.remembered == (0, 0, 0, 0)
    assert after.opened == (False, False, True, False)


def test_14_4_tied_fish_lays_eggs_for_the_next_single_top_loser() -> None:
    rules = online(fish_mode="for_one")
    start = Ledger(rules, remembered=[0, 0, 7, 4])
    tied = start.settle(Outcome("fish", fisher=MASHA, remaining=hands_worth(3, 14, 14, 4)))
    assert tied.pot == 35
    assert tied.scores == (0, 0, 0, 0) and tied.remembered == (0, 0, 7, 4)

    serg_takes = tied.settle(Outcome("out", out_seat=OLYA, remaining=hands_worth(5, 9, 0, 12)))
    assert serg_takes.scores == (0, 0, 0, 51)
    assert serg_takes.remembered == (5, 9, 0, 0)
    assert serg_takes.pot == 0

    still_tied = tied.settle(Outcome("out", out_seat=OLYA, remaining=hands_worth(9, 9, 0, 2)))
    assert still_tied.pot == 35
    assert still_tied.remembered == (9, 9, 0, 6)

    tied_again = tied.settle(Outcome("fish", fisher=ALEX, remaining=hands_worth(10, 10, 4, 6)))
    assert tied_again.pot == 65


def test_14_4_the_fisher_leads_the_next_round() -> None:
    previous = Outcome("fish", fisher=ALEX, remaining=hands_worth(3, 14, 14, 4), leader=0)
    rnd = Round(online(), seed=3, number=2, previous=previous)
    assert rnd.leader == ALEX and rnd.lead_tiles() is None


def test_14_5_a_lone_blank_double_counts_ten() -> None:
    rules = online()
    assert hand_value(rules, parse_tiles(["0-0"])) == 10
    assert hand_value(rules, parse_tiles(["0-0", "1-0"])) == 1
    closed = Ledger(rules).settle(Outcome("out", out_seat=0, remaining=[[], ["0-0"], [], []]))
    assert closed.remembered[1] == 10
    opened = Ledger(rules, scores=[0, 40, 0, 0], opened=[False, True, False, False])
    after = opened.settle(Outcome("out", out_seat=0, remaining=[[], ["0-0"], [], []]))
    assert after.scores[1] == 50


def test_14_6_fish_for_one_a_small_total_is_remembered() -> None:
    rules = online(players=2, fish_mode="for_one")
    before = Ledger(rules, remembered=[2, 6])  # Alex, Masha
    after = before.settle(Outcome("fish", fisher=0, remaining=[["4-1"], ["4-0"]]))
    assert after.remembered == (11, 0) and after.scores == (0, 0)


def test_14_7_reaching_101_makes_a_goat_two_at_once_make_two() -> None:
    rules = online(players=3)
    one = Ledger(rules, scores=[95, 20, 30], opened=[True] * 3)
    after = one.settle(Outcome("out", out_seat=1, remaining=[["5-1"], [], ["1-0"]]))
    assert after.scores == (101, 20, 31)
    assert after.result is not None
    assert after.result.losers == (0,)
    assert after.result.winners == (1,), "the fewest points win; 31 is neither goat nor winner"
    two = Ledger(rules, scores=[10, 97, 99], opened=[True] * 3)
    after = two.settle(Outcome("out", out_seat=0, remaining=[[], ["4-0"], ["1-1"]]))
    assert after.scores == (10, 101, 101)
    assert after.result is not None and after.result.losers == (1, 2)
    assert after.result.winners == (0,)


# -- 14.8: rating -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "timed_out", "delta"),
    [
        (25, None, 8),
        (0, None, 10),
        (35, None, 7),
        (100, None, 0),
        (101, None, 0),
        (105, None, -1),
        (115, None, -2),
        (30, 32, 1),
        (13, 32, 2),
        (40, 32, 1),
        (12, 57, 5),
    ],
)
def test_14_8_rating_rounds_halves_away_from_zero(
    points: int, timed_out: int | None, delta: int
) -> None:
    assert kozel_delta(points, timed_out_points=timed_out) == delta


# -- 14.9: redeal -----------------------------------------------------------------------------


def test_14_9_five_doubles_or_six_of_a_suit_force_a_redeal() -> None:
    rules = online()
    assert bazar.games.line.round.needs_redeal(
        rules, [parse_tiles(["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "2-5"])]
    )
    assert bazar.games.line.round.needs_redeal(
        rules, [parse_tiles(["3-0", "3-1", "3-2", "3-3", "3-4", "3-5", "6-6"])]
    )
    assert not bazar.games.line.round.needs_redeal(
        rules, [parse_tiles(["3-0", "3-1", "3-2", "3-3", "3-4", "5-6", "6-6"])]
    )


def test_random_deals_never_hold_a_hand_that_forces_a_redeal() -> None:
    rules = online(players=2)
    for seed in range(300):
        assert not bazar.games.line.round.needs_redeal(rules, Round(rules, seed=seed).hands)


def test_an_explicit_deal_is_played_as_given() -> None:
    hands = [["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "2-5"], ["6-6", "5-5"]]
    rnd = Round(online(players=2), hands=hands, bazar=[])
    assert sorted(rnd.hands[0]) == sorted(parse_tiles(hands[0]))


# -- 14.10: first lead ------------------------------------------------------------------------


def rest(*hands: list[str]) -> list[str]:
    used = {str(t) for h in hands for t in parse_tiles(h)}
    return [str(t) for t in bazar.tile_set(6) if str(t) not in used]


def lead(
    rules: bazar.Rules, hands: list[list[str]], bazar_tiles: list[str] | None = None
) -> tuple[int, list[str]]:
    rnd = Round(rules, hands=hands, bazar=rest(*hands) if bazar_tiles is None else bazar_tiles)
    return rnd.leader, [str(m) for m in rnd.legal_moves()]


def test_14_10_kozel_order_1_1_up_then_0_0() -> None:
    hands = [
        ["2-2", "5-5", "6-5", "6-4", "6-3", "6-2", "6-1"],
        ["0-0", "5-4", "5-3", "5-2", "5-1", "5-0", "4-3"],
        ["6-6", "4-2", "4-1", "4-0", "3-2", "3-1", "3-0"],
    ]
    assert lead(online(players=3), hands) == (0, ["2-2"])


def test_14_10_only_0_0_leads_unless_it_may_not() -> None:
    hands = [["6-4", "5-3"], ["0-0", "2-1"], ["5-4", "3-0"]]
    assert lead(online(players=3), hands) == (1, ["0-0"])
    assert lead(online(players=3, zero_zero_may_lead=False), hands) == (0, ["6-4"])


def test_14_10_no_doubles_the_highest_tile_held_leads() -> None:
    hands = [["5-4", "3-1"], ["6-4", "2-0"]]
    assert lead(online(players=2), hands) == (1, ["6-4"])


def test_14_10_high_order_and_low_order() -> None:
    high = [["5-5", "4-1"], ["3-3", "2-0"]]
    assert lead(bazar.rules("kozel-traditional", players=2), high) == (0, ["5-5"])
    low = [["4-4", "4-1"], ["2-2", "2-0"]]
    assert lead(bazar.rules("kozel-beginner", players=2), low) == (1, ["2-2"])


# -- 14.11: dead layout -----------------------------------------------------------------------

DEAD_P0 = ["6-2", "2-0", "3-2", "5-3", "5-2", "1-1", "6-6"]
DEAD_P1 = ["6-0", "2-1", "4-1", "4-2", "3-3", "4-4", "5-5"]
DEAD_MOVES = ["6-2", "6-0:L", "2-0:L", "2-1:R", "3-2:L", "4-1:R", "5-3:L", "4-2:R", "5-2:L"]


def dead_round(p1: list[str], early_fish: str = "dead_layout") -> Round:
    rules = online(players=2, early_fish=early_fish)
    rnd = Round(rules, hands=[DEAD_P0, p1], bazar=rest(DEAD_P0, p1), leader=0)
    for move in DEAD_MOVES:
        rnd.push(move)
    return rnd


def test_14_11_both_ends_two_and_every_two_down_is_a_fish_at_once() -> None:
    rnd = dead_round(DEAD_P1)
    assert rnd.ends() == {"L": 2, "R": 2}
    assert tuple(map(str, rnd.board.line)) == (
        "2|5",
        "5|3",
        "3|2",
        "2|0",
        "0|6",
        "6|2",
        "2|1",
        "1|4",
        "4|2",
    )
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "fish" and outcome.fisher == 0
    assert "2-2" in [str(t) for t in rnd.bazar], "2-2 stays in the bazar and counts for nobody"


def test_14_11_the_2_2_in_a_hand_counts_for_its_holder() -> None:
    p1 = ["6-0", "2-1", "4-1", "4-2", "3-3", "4-4", "2-2"]
    outcome = dead_round(p1).outcome()
    assert outcome is not None and outcome.reason == "fish"
    assert "2-2" in [str(t) for t in outcome.remaining[1]]


def test_14_11_standard_fish_goes_on_while_2_2_may_still_come() -> None:
    rnd = dead_round(DEAD_P1, early_fish="standard")
    assert not rnd.is_over()


def test_14_11_four_twos_down_is_not_dead() -> None:
    rules = online(players=2)
    p0, p1 = ["4-2", "5-3", "1-1"], ["2-5", "3-4", "6-6"]
    rnd = Round(rules, hands=[p0, p1], bazar=rest(p0, p1), leader=0)
    for move in ["4-2", "3-4:L", "5-3:L", "2-5:L"]:
        rnd.push(move)
    assert rnd.ends() == {"L": 2, "R": 2} and not rnd.is_over()


# -- 14.12: two doubles in one turn -----------------------------------------------------------


def two_doubles(hand: list[str], name: str = "kozel-traditional") -> Round:
    other = ["5-3", "6-1", "6-0", "4-0"]
    rnd = Round(
        bazar.rules(name, players=2), hands=[hand, other], bazar=rest(hand, other), leader=1
    )
    rnd.push("5-3")
    return rnd


def test_14_12_after_a_double_the_turn_stays_for_the_double_of_the_other_end() -> None:
    rnd = two_doubles(["3-3", "5-5", "4-1"])
    assert rnd.ends() == {"L": 5, "R": 3}
    rnd.push("3-3:R")
    assert rnd.turn == 0
    assert [str(m) for m in rnd.legal_moves()] == ["5-5:L", "stop"]
    rnd.push("5-5:L")
    assert rnd.turn == 1 and rnd.ends() == {"L": 5, "R": 3}


def test_14_12_stop_ends_the_turn_without_the_second_double() -> None:
    rnd = two_doubles(["3-3", "5-5", "4-1"])
    rnd.push("3-3:R")
    rnd.push("stop")
    assert rnd.turn == 1
    assert rnd.view(1).history[-1][1] == bazar.Move("stop")


def test_14_12_the_second_double_may_take_him_out() -> None:
    rnd = two_doubles(["3-3", "5-5"])
    rnd.push("3-3:R")
    rnd.push("5-5:L")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "out" and outcome.out_seat == 0
    assert [str(t) for t in outcome.last_turn] == ["3-3", "5-5"]


def test_14_12_no_double_for_the_other_end_passes_the_turn() -> None:
    rnd = two_doubles(["3-3", "6-6", "4-1"])
    rnd.push("3-3:R")
    assert rnd.turn == 1


def test_14_12_one_double_per_turn_online() -> None:
    rnd = two_doubles(["3-3", "5-5", "4-1"], name="kozel")
    rnd.push("3-3:R")
    assert rnd.turn == 1


# -- 14.13: team ------------------------------------------------------------------------------

N, E, S, W = range(4)
TEAM = bazar.rules("kozel-team")


def test_14_13_first_round_1_1_leads() -> None:
    rnd = Round(TEAM, seed=8)
    holder = next(s for s, h in enumerate(rnd.hands) if bazar.Tile.parse("1-1") in h)
    assert rnd.leader == holder and [str(m) for m in rnd.legal_moves()] == ["1-1"]


def test_14_13_led_6_6_the_losing_side_records_hands_and_bonus() -> None:
    out = Outcome(
        "out",
        out_seat=N,
        lead="6-6",
        last_turn=["3-2"],
        remaining=[[], ["5-4", "1-1"], ["6-1"], ["0-0"]],
    )
    assert Ledger.new(TEAM).settle(out).scores == (0, 86)


def test_14_13_out_with_0_0_costs_the_losers_25() -> None:
    out = Outcome(
        "out", out_seat=N, lead="1-1", last_turn=["0-0"], remaining=[[], ["2-2"], ["6-1"], ["5-3"]]
    )
    assert Ledger.new(TEAM).settle(out).scores == (0, 37)


def test_14_13_fish_the_heavier_side_records_both_totals() -> None:
    fish = Outcome(
        "fish",
        fisher=E,
        lead="1-1",
        last_turn=["4-3"],
        remaining=[["4-3", "5-5"], ["2-1"], ["6-2"], ["4-0", "6-0"]],
    )
    assert Ledger.new(TEAM).settle(fish).scores == (38, 0)


def test_14_13_tied_team_fish_carries_eggs_to_the_next_losing_side() -> None:
    tied = Outcome(
        "fish",
        fisher=E,
        lead="1-1",
        last_turn=["4-3"],
        remaining=[["6-4"], ["5-4", "1-0"], ["6-4"], ["6-3", "1-0"]],
    )
    ledger = Ledger.new(TEAM).settle(tied)
    assert ledger.pot == 40 and ledger.scores == (0, 0)
    out = Outcome(
        "out", out_seat=E, lead="2-2", last_turn=["4-1"], remaining=[["5-1"], [], ["6-3"], ["1-0"]]
    )
    assert ledger.settle(out).scores == (55, 0)


def test_14_13_the_partner_of_the_out_player_leads_with_a_double_if_he_has_one() -> None:
    out = Outcome("out", out_seat=N, remaining=[[], ["1-0"], ["1-1"], ["2-0"]], leader=E)

    def leads(s_hand: list[str]) -> list[str]:
        others = [t for t in rest(s_hand)]
        hands = [others[0:7], others[7:14], s_hand, others[14:21]]
        rnd = Round(TEAM, hands=hands, bazar=[], number=2, previous=out)
        assert rnd.leader == S
        return sorted(str(m) for m in rnd.legal_moves())

    assert leads(["6-6", "3-3", "5-2"]) == ["3-3", "6-6"]
    assert leads(["0-0", "6-6", "5-2"]) == ["0-0", "5-2", "6-6"]
    assert leads(["5-2", "4-1"]) == ["4-1", "5-2"]


def test_14_13_over_100_the_side_is_the_goat() -> None:
    ledger = Ledger(TEAM, scores=[40, 90], opened=[True, True])
    after = ledger.settle(
        Outcome("out", out_seat=N, lead="1-1", last_turn=["4-1"], remaining=[[], ["6-5"], [], []])
    )
    assert after.scores == (40, 101)
    assert after.result is not None
    assert after.result.losing_teams == (1,) and after.result.losers == (1, 3)


# -- 14.14 to 14.16: goat-25, traditional, beginner ------------------------------------------


def test_14_14_goat25_deal_and_the_dead_last_tile() -> None:
    rnd = Round(bazar.rules("kozel-goat25", players=3), seed=5)
    assert [len(h) for h in rnd.hands] == [5, 5, 5]
    assert rnd.bazar_size == 13 and rnd.drawable == 12


def test_14_14_goat25_records_from_25() -> None:
    rules = bazar.rules("kozel-goat25", players=3)
    ledger = Ledger(rules).settle(
        Outcome("out", out_seat=0, remaining=[[], ["6-6", "6-5", "1-0"], []])
    )
    assert ledger.remembered[1] == 24 and ledger.scores[1] == 0
    ledger = ledger.settle(Outcome("out", out_seat=0, remaining=[[], ["6-6", "6-5", "2-0"], []]))
    assert ledger.scores[1] == 49 and ledger.opened[1]
    at_110 = Ledger(rules, scores=[110, 0, 0], opened=[True, False, False])
    goat = at_110.settle(Outcome("out", out_seat=1, remaining=[["6-5", "4-0"], [], []]))
    assert goat.scores[0] == 125 and goat.result is not None and goat.result.losers == (0,)


def test_14_14_goat25_tied_fish_eggs() -> None:
    rules = bazar.rules("kozel-goat25", players=3)
    tied = Ledger(rules).settle(Outcome("fish", fisher=2, remaining=hands_worth(9, 9, 4)))
    assert tied.pot == 22
    after = tied.settle(Outcome("out", out_seat=2, remaining=hands_worth(12, 6, 0)))
    assert after.scores == (34, 0, 0) and after.remembered == (0, 6, 0) and after.pot == 0


def test_14_15_traditional_0_0_counts_25_anywhere() -> None:
    rules = bazar.rules("kozel-traditional")
    assert hand_value(rules, parse_tiles(["0-0", "2-1"])) == 28
    assert hand_value(rules, parse_tiles(["0-0"])) == 25
    after = Ledger(rules).settle(Outcome("out", out_seat=0, remaining=[[], ["0-0", "2-1"], [], []]))
    assert after.scores[1] == 28 and after.opened[1]


def test_14_16_beginner_the_winner_collects() -> None:
    rules = bazar.rules("kozel-beginner")
    out = Outcome("out", out_seat=0, remaining=[[], ["0-0", "6-6", "3-2"]])
    assert Ledger.new(rules).settle(out).scores == (80, 0)
    fish = Outcome("fish", fisher=1, remaining=[["5-4"], ["6-6"]])
    assert Ledger.new(rules).settle(fish).scores == (50, 0)
    difference = bazar.rules("kozel-beginner", block_award="difference")
    assert Ledger.new(difference).settle(fish).scores == (41, 0)
    won = Ledger(rules, scores=[250, 100]).settle(out)
    assert won.scores == (330, 100) and won.result is not None and won.result.winners == (0,)


# -- 14.17: General / Officer -----------------------------------------------------------------


def test_14_17_six_six_then_zero_zero_in_one_turn_is_a_general_and_wins() -> None:
    rules = bazar.rules("kozel-traditional", players=2, general_officer=True)
    p0, p1 = ["6-6", "0-0"], ["6-0", "5-1", "4-1"]
    match_rnd = Round(rules, hands=[p0, p1], bazar=rest(p0, p1), leader=1)
    match_rnd.push("6-0")
    match_rnd.push("6-6:L")
    assert [str(m) for m in match_rnd.legal_moves()] == ["0-0:R", "stop"]
    match_rnd.push("0-0:R")
    outcome = match_rnd.outcome()
    assert outcome is not None and outcome.extra == {"title": "general"}
    after = Ledger(rules).settle(outcome)
    assert after.result is not None and after.result.winners == (0,)
    assert after.result.losers == (1,)


def test_14_17_out_with_a_lone_0_0_is_an_officer_only() -> None:
    rules = bazar.rules("kozel", players=2, general_officer=True)
    outcome = Outcome(
        "out", out_seat=0, last_turn=["0-0"], remaining=[[], ["6-5"]], extra={"title": "officer"}
    )
    after = Ledger(rules).settle(outcome)
    assert after.result is None and after.get("title") == [0, "officer"]


def test_0_0_then_6_6_a_turn_later_is_no_general() -> None:
    rules = bazar.rules("kozel-traditional", players=2, general_officer=True)
    rnd = knocked_between(
        rules, ["0-0", "6-6"], ["5-1", "4-1"], "6-0", [["0-0:R", "stop"], ["6-6:L"]]
    )
    outcome = rnd.outcome()
    assert outcome is not None and outcome.out_seat == 0
    assert [str(t) for t in outcome.last_turn] == ["6-6"]
    assert outcome.extra is None, "0-0 came first, and in an earlier turn: no title"
    assert Ledger(rules).settle(outcome).result is None


def test_6_6_then_0_0_in_two_turns_of_his_is_a_general() -> None:
    rules = bazar.rules("kozel-traditional", players=2, general_officer=True)
    rnd = knocked_between(
        rules, ["0-0", "6-6"], ["5-1", "4-1"], "6-0", [["6-6:L", "stop"], ["0-0:R"]]
    )
    outcome = rnd.outcome()
    assert outcome is not None and outcome.extra == {"title": "general"}


def test_a_0_0_laid_in_an_earlier_turn_is_no_officer() -> None:
    rules = bazar.rules("kozel", players=2, general_officer=True)
    rnd = knocked_between(rules, ["0-0", "6-1"], ["5-2", "4-2"], "6-0", [["0-0:R"], ["6-1:L"]])
    outcome = rnd.outcome()
    assert outcome is not None and outcome.out_seat == 0
    assert [str(t) for t in outcome.last_turn] == ["6-1"] and outcome.extra is None


def test_general_title_only_does_not_end_the_match() -> None:
    rules = bazar.rules("kozel", players=2, general_officer=True, general_effect="title_only")
    outcome = Outcome(
        "out", out_seat=0, last_turn=["0-0"], remaining=[[], ["6-5"]], extra={"title": "general"}
    )
    assert Ledger(rules).settle(outcome).result is None


# -- every preset plays to a goat -------------------------------------------------------------

PRESETS = [
    (name, players)
    for name in ("kozel", "kozel-team", "kozel-goat25", "kozel-traditional", "kozel-beginner")
    for players in range(
        bazar.rules.variant(name).players[0], bazar.rules.variant(name).players[1] + 1
    )
]


@pytest.mark.parametrize(("name", "players"), PRESETS)
def test_random_matches_end_with_a_goat_or_a_winner(name: str, players: int) -> None:
    rules = bazar.rules(name, players=players)
    for seed in range(15):
        match = bazar.Match(rules, seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not match.is_over():
            match.push(rng.choice(match.legal_moves()))
            moves += 1
            assert moves < 20_000
        result = match.result()
        assert result is not None and result.losers
        if rules.limit is not None:
            assert all(match.ledger.scores[rules.side_of(s)] >= rules.limit for s in result.losers)


def test_russian_names_resolve() -> None:
    assert bazar.rules("козёл").name == "kozel"
    assert bazar.rules("Козел").name == "kozel"
    assert bazar.rules("коза").name == "kozel"
