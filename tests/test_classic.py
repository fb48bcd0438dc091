"""The worked examples of classic-draw-block.md §9, and the rules they illustrate."""

from __future__ import annotations

import pytest

import bazar
from bazar import Ledger, Outcome, Round


def settle(rules: bazar.Rules, **outcome: object) -> tuple[int, ...]:
    return Ledger.new(rules).settle(Outcome(**outcome)).scores  # type: ignore[arg-type]


def lead_moves(rnd: Round) -> list[str]:
    return [str(m) for m in rnd.legal_moves()]


# -- example 1 to 4: classic.ru scoring --------------------------------------------------------


def test_out_player_scores_the_sum_of_all_other_hands() -> None:
    rules = bazar.rules("classic", players=3)
    scores = settle(rules, reason="out", out_seat=0, remaining=[[], ["6-5", "3-2"], ["1-0"]])
    assert scores == (17, 0, 0)


def test_fish_lightest_hand_scores_the_others_minus_its_own() -> None:
    three = bazar.rules("classic", players=3)
    remaining = [["4-0"], ["6-4"], ["6-5", "1-0"]]
    assert settle(three, reason="fish", fisher=1, remaining=remaining) == (18, 0, 0)
    two = bazar.rules("classic", players=2)
    assert settle(two, reason="fish", fisher=1, remaining=[["3-1"], ["5-5"]]) == (6, 0)


def test_tied_fish_scores_nothing() -> None:
    rules = bazar.rules("classic", players=3)
    remaining = [["4-0"], ["3-1"], ["6-4"]]
    assert settle(rules, reason="fish", fisher=2, remaining=remaining) == (0, 0, 0)


def test_double_blank_worth_25_when_the_option_says_so() -> None:
    rules = bazar.rules("classic", players=2, double_blank_value=25)
    assert settle(rules, reason="out", out_seat=0, remaining=[[], ["0-0", "2-3"]]) == (30, 0)
    face = bazar.rules("classic", players=2)
    assert settle(face, reason="out", out_seat=0, remaining=[[], ["0-0", "2-3"]]) == (5, 0)


# -- example 5: classic.ru leads ---------------------------------------------------------------


def test_highest_double_in_a_hand_leads_when_six_six_is_in_the_bazar() -> None:
    rules = bazar.rules("classic", players=3)
    rnd = Round(
        rules,
        hands=[
            ["1-0", "2-0", "3-0", "4-0", "5-0"],
            ["5-5", "2-1", "3-1", "4-1", "5-1"],
            ["6-0", "6-1", "6-2", "6-3", "6-4"],
        ],
        bazar=[
            "6-6",
            "4-4",
            "3-3",
            "2-2",
            "1-1",
            "0-0",
            "6-5",
            "5-4",
            "5-3",
            "5-2",
            "4-3",
            "4-2",
            "3-2",
        ],
    )
    assert rnd.leader == 1
    assert lead_moves(rnd) == ["5-5"]


def test_heaviest_tile_leads_when_no_hand_holds_a_double() -> None:
    rules = bazar.rules("classic", players=3)
    rnd = Round(
        rules,
        hands=[
            ["1-0", "2-0", "3-0", "4-0", "5-0"],
            ["2-1", "3-1", "4-1", "5-1", "6-1"],
            ["6-5", "6-2", "6-3", "6-4", "6-0"],
        ],
        bazar=[
            "6-6",
            "5-5",
            "4-4",
            "3-3",
            "2-2",
            "1-1",
            "0-0",
            "5-4",
            "5-3",
            "5-2",
            "4-3",
            "4-2",
            "3-2",
        ],
    )
    assert rnd.leader == 2
    assert lead_moves(rnd) == ["6-5"]


def test_classic_deals_seven_to_two_players_and_five_to_three_or_four() -> None:
    for players, size in ((2, 7), (3, 5), (4, 5)):
        rnd = Round(bazar.rules("classic", players=players), seed=11)
        assert [len(h) for h in rnd.hands] == [size] * players
        assert rnd.bazar_size == 28 - size * players


# -- example 6: classic.penalty ----------------------------------------------------------------


def test_penalty_classic_lowest_double_leads() -> None:
    rules = bazar.rules("classic-penalty", players=3)
    rnd = Round(
        rules,
        hands=[
            ["0-0", "6-6", "5-1", "4-2", "3-1"],
            ["1-1", "6-5", "5-3", "4-1", "2-0"],
            ["2-2", "6-4", "6-1", "3-0", "1-0"],
        ],
        bazar=[
            "3-3",
            "4-4",
            "5-5",
            "6-3",
            "6-2",
            "6-0",
            "5-4",
            "5-2",
            "5-0",
            "4-3",
            "4-0",
            "3-2",
            "2-1",
        ],
    )
    assert rnd.leader == 0 and lead_moves(rnd) == ["0-0"]


def test_penalty_classic_without_doubles_the_highest_tile_leads() -> None:
    order = bazar.games.line.round.lead_order("low_doubles_high_singles")
    assert [str(t) for t in order[:9]] == [
        "0-0",
        "1-1",
        "2-2",
        "3-3",
        "4-4",
        "5-5",
        "6-6",
        "6-5",
        "6-4",
    ]


def test_penalty_classic_records_own_pips_and_ends_at_the_limit() -> None:
    rules = bazar.rules("classic-penalty", players=3)
    ledger = Ledger(rules, scores=[40, 87, 60])
    after = ledger.settle(Outcome("out", out_seat=0, remaining=[[], ["0-0", "3-4"], ["4-5"]]))
    assert after.scores == (40, 104, 69)
    assert after.result is not None
    assert after.result.winners == (0,)
    assert after.result.losers == (1,), "only the player at the limit loses; 69 is neither"


def test_penalty_classic_fish_everyone_records_his_own_pips() -> None:
    rules = bazar.rules("classic-penalty", players=2)
    assert settle(rules, reason="fish", fisher=0, remaining=[["0-0"], ["6-5"]]) == (10, 11)


# -- example 7 to 9: GameColony Draw -----------------------------------------------------------


def test_gamecolony_draw_scores() -> None:
    rules = bazar.rules("draw")
    assert settle(rules, reason="out", out_seat=0, remaining=[[], ["5-4", "2-2"]]) == (13, 0)
    assert settle(rules, reason="fish", fisher=1, remaining=[["4-3"], ["6-6"]]) == (12, 0)
    assert settle(rules, reason="fish", fisher=1, remaining=[["5-4"], ["6-3"]]) == (0, 0)


def test_block_never_draws_a_stuck_player_passes_at_once() -> None:
    rules = bazar.rules("block")
    rnd = Round(rules, seed=5)
    assert rnd.bazar_size == 14 and rnd.drawable == 0
    while not rnd.is_over():
        legal = rnd.legal_moves()
        assert all(m.kind != "draw" for m in legal)
        if any(m.kind == "pass" for m in legal):
            assert [str(m) for m in legal] == ["pass"]
        rnd.push(legal[0])
    assert rnd.bazar_size == 14


def test_table_listing_200pt_draw_a_player_at_190_wins_with_13() -> None:
    rules = bazar.rules.from_notation("200pt/Drw")
    assert rules.name == "draw" and rules.target == 200 and rules.notation() == "200pt/Drw"
    after = Ledger(rules, scores=[190, 120]).settle(
        Outcome("out", out_seat=0, remaining=[[], ["5-4", "2-2"]])
    )
    assert after.scores == (203, 120)
    assert after.result is not None and after.result.winners == (0,)


# -- example 10: GameColony leads --------------------------------------------------------------

HANDS_55 = [
    ["5-5", "5-4", "4-4", "3-1", "2-0", "1-0", "6-2"],
    ["6-5", "6-4", "6-3", "3-3", "2-1", "4-1", "5-0"],
]


def gamecolony_round(name: str = "draw", **kw: object) -> Round:
    rest = [t for t in bazar.tile_set(6) if all(str(t) not in h for h in HANDS_55)]
    return Round(
        bazar.rules(name, **kw.pop("options", {})),
        hands=HANDS_55,  # type: ignore[arg-type]
        bazar=rest,
        **kw,
    )  # type: ignore[arg-type]


def test_first_hand_the_highest_double_in_a_hand_must_lead() -> None:
    rnd = gamecolony_round()
    assert rnd.leader == 0 and lead_moves(rnd) == ["5-5"]


def test_second_hand_the_winner_leads_any_tile() -> None:
    previous = Outcome("out", out_seat=1, remaining=[["2-2"], []], leader=0)
    rnd = gamecolony_round(number=2, previous=previous)
    assert rnd.leader == 1 and len(lead_moves(rnd)) == 7


def test_draw_after_a_block_the_highest_double_of_the_new_deal_leads_any_tile() -> None:
    previous = Outcome("fish", remaining=[["4-3"], ["6-6"]], fisher=1, leader=1)
    rnd = gamecolony_round(number=2, previous=previous)
    assert rnd.leader == 0 and len(lead_moves(rnd)) == 7


def test_block_after_a_won_block_the_winner_leads_any_tile() -> None:
    won = Outcome("fish", remaining=[["6-6"], ["4-3"]], fisher=0, leader=0)
    rnd = gamecolony_round("block", number=2, previous=won)
    assert rnd.leader == 1 and len(lead_moves(rnd)) == 7
    tied = Outcome("fish", remaining=[["5-4"], ["6-3"]], fisher=0, leader=0)
    rnd = gamecolony_round("block", number=2, previous=tied)
    assert rnd.leader == 0 and len(lead_moves(rnd)) == 7


def test_rotated_start_alternates_the_leader() -> None:
    rules = bazar.rules.from_notation("100pt/DrwO")
    assert rules.later_lead == "rotate" and rules.after_block_lead == "rotate"
    previous = Outcome("out", out_seat=0, remaining=[[], ["6-6"]], leader=0)
    rnd = gamecolony_round(number=2, previous=previous, options={"later_lead": "rotate"})
    assert rnd.leader == 1
    match = bazar.Match(rules, seed=4)
    while not match.is_over() and len(match.rounds) < 5:
        match.push(match.legal_moves()[0])
    first = match.rounds[0].leader
    assert [r.leader for r in match.rounds[:5]] == [(first + k) % 2 for k in range(5)]
    assert all(r.lead_tiles() is None for r in match.rounds[1:])


def test_random_start_any_leader_any_tile() -> None:
    rules = bazar.rules.from_notation("100pt/Drw*")
    assert rules.first_lead == "random" and rules.after_tie_lead == "random"
    assert rules.after_block_lead == "random"
    leaders = {Round(rules, seed=s).leader for s in range(40)}
    assert leaders == {0, 1}
    rnd = Round(rules, seed=3)
    assert len(rnd.legal_moves()) == 7


# -- example 11: a blocked team hand -----------------------------------------------------------

TEAM_DEAL = [
    ["6-6", "4-3", "0-0", "1-0", "1-1", "3-1", "5-5"],
    ["6-5", "6-0", "2-1", "2-0", "3-0", "4-4", "5-4"],
    ["6-3", "6-4", "6-1", "2-2", "4-0", "4-1", "3-3"],
    ["5-0", "6-2", "3-2", "4-2", "5-2", "5-1", "5-3"],
]
TEAM_MOVES = [
    ("6-6", (6, 6)),
    ("6-5:L", (5, 6)),
    ("6-3:R", (5, 3)),
    ("5-0:L", (0, 3)),
    ("4-3:R", (0, 4)),
    ("6-0:L", (6, 4)),
    ("6-4:R", (6, 6)),
    ("6-2:L", (2, 6)),
    ("pass", (2, 6)),
    ("2-1:L", (1, 6)),
    ("6-1:L", (6, 6)),
]


@pytest.mark.parametrize("name", ["block", "draw"])
def test_blocked_team_hand(name: str) -> None:
    rules = bazar.rules(name, players=4)
    assert rules.teams == ((0, 2), (1, 3))
    rnd = Round(rules, hands=TEAM_DEAL, bazar=[])
    assert rnd.leader == 0 and lead_moves(rnd) == ["6-6"]
    for move, (left, right) in TEAM_MOVES:
        rnd.push(move)
        assert rnd.ends() == {"L": left, "R": right}
    assert rnd.is_over()
    outcome = rnd.outcome()
    assert outcome is not None
    assert outcome.reason == "fish" and outcome.fisher == 2
    assert Ledger.new(rules).settle(outcome).scores == (54, 0)
    after = Round(rules, seed=9, number=2, previous=outcome)
    assert after.leader == 2 and after.lead_tiles() is None


def test_team_fish_won_by_the_side_not_of_the_fisher_the_seat_after_him_leads() -> None:
    rules = bazar.rules("block", players=4)
    fish = Outcome("fish", fisher=2, leader=0, remaining=[["6-6"], ["1-0"], ["6-5"], ["0-0"]])
    assert Ledger.new(rules).settle(fish).scores == (0, 23)
    assert Round(rules, seed=1, number=2, previous=fish).leader == 3


def test_team_out_scores_both_opponents_but_not_the_partner() -> None:
    rules = bazar.rules("block", players=4)
    scores = settle(
        rules,
        reason="out",
        out_seat=2,
        remaining=[
            ["6-6", "5-5", "0-0", "1-0"],
            ["6-5", "6-0", "4-4", "2-0"],
            [],
            ["6-4", "6-3", "6-2", "6-1", "3-2", "2-2"],
        ],
    )
    assert scores == (27 + 43, 0)


# -- a house rule: draw-bonus (out_bonus) -------------------------------------------------------


def test_going_out_scores_the_house_bonus_on_top_of_the_others_pips() -> None:
    rules = bazar.rules("draw-bonus")
    out = bazar.Outcome("out", out_seat=1, remaining=[["6-5", "3-2"], []])
    assert bazar.Ledger.new(rules).settle(out).scores == (0, 16 + 10)
    assert bazar.Ledger.new(rules.replace(out_bonus=25)).settle(out).scores == (0, 16 + 25)


def test_a_fish_earns_no_house_bonus() -> None:
    rules = bazar.rules("draw-bonus")
    fish = bazar.Outcome("fish", remaining=[["6-5"], ["1-0"]], fisher=0)
    plain = bazar.Ledger.new(bazar.rules("draw")).settle(fish)
    assert bazar.Ledger.new(rules).settle(fish).scores == plain.scores == (0, 11)


def test_the_house_bonus_is_an_option_of_draw_bonus_alone() -> None:
    with pytest.raises(bazar.UnknownOption, match="out_bonus"):
        bazar.rules("draw", out_bonus=10)
    with pytest.raises(ValueError, match="from 0 to 100"):
        bazar.rules("draw-bonus", out_bonus=500)
    assert bazar.rules("draw-bonus").options()["out_bonus"] == 10
