"""Telephone (telephone.md): the worked examples of §9 and the rules they illustrate."""

from __future__ import annotations

import random

import pytest

import bazar
from bazar import Ledger, Outcome, Round
from bazar.games.cross.fives import DIVIDE_IN_PLAY
from bazar.games.cross.options import SPINNER, SPINNER_COUNT
from bazar.games.cross.round import count_ends
from bazar.games.cross.telephone import BONUS_ROUNDING, bonus
from bazar.games.line.options import DOUBLES_PER_TURN


def rest(*hands: list[str]) -> list[str]:
    used = {str(bazar.Tile.parse(t)) for h in hands for t in h}
    return [str(t) for t in bazar.tile_set(6) if str(t) not in used]


def played(
    hands: list[list[str]],
    moves: list[str],
    leader: int = 0,
    ledger: Ledger | None = None,
    **options: object,
) -> tuple[Round, list[int]]:
    """Play ``moves`` on an explicit deal; returns the round and the count after each move."""
    rules = bazar.rules("telephone", players=len(hands), **options)
    rnd = Round(rules, hands=hands, bazar=rest(*hands), leader=leader, ledger=ledger)
    counts = []
    for move in moves:
        rnd.push(move)
        counts.append(count_ends(rnd))  # type: ignore[arg-type]
    return rnd, counts


def fish(*hands: list[str], fisher: int = 0) -> Outcome:
    return Outcome("fish", fisher=fisher, remaining=list(hands))


def out(seat: int, *hands: list[str]) -> Outcome:
    return Outcome("out", out_seat=seat, remaining=list(hands))


# -- the variant -------------------------------------------------------------------------------


def test_the_variant_and_its_defaults() -> None:
    rules = bazar.rules("телефон")
    assert rules.name == "telephone" and bazar.rules("домики").name == "telephone"
    assert rules.players == 4 and not rules.teams
    assert (rules.hand_size, rules.target, rules[SPINNER], rules[SPINNER_COUNT]) == (
        7,
        61,
        True,
        "covered_only",
    )
    assert (
        rules[BONUS_ROUNDING],
        rules[DOUBLES_PER_TURN],
        rules.first_lead,
        rules.later_lead,
        rules.block_award,
        rules[DIVIDE_IN_PLAY],
    ) == ("ceil", 1, "kozel", "winner_or_fisher", "opponents_total", True)
    assert bazar.rules("telephone", players=4, teams=True).teams == ((0, 2), (1, 3))


@pytest.mark.parametrize(
    "options",
    [
        {"block_award": "own_pips"},
        {"target": None},
        {"bonus_rounding": "floor"},
        {"doubles_per_turn": 5},
    ],
)
def test_options_outside_the_table_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        bazar.rules("telephone", **options)  # type: ignore[arg-type]


def test_full_points_during_play_are_an_option() -> None:
    rnd, _ = played([["5-5", "6-1"], ["5-0", "2-2"]], ["5-5", "5-0:L"], divide_in_play=False)
    assert rnd.scoring() == [(0, 10), (1, 10)]


def test_the_deal_is_seven_tiles_each() -> None:
    for players, bazar_size in ((2, 14), (3, 7), (4, 0)):
        rnd = Round(bazar.rules("telephone", players=players), seed=3)
        assert [len(h) for h in rnd.hands] == [7] * players
        assert rnd.bazar_size == rnd.drawable == bazar_size


# -- 9.1: the seed's three plays -----------------------------------------------------------------

SEED_HANDS = [["4-4", "6-6", "1-0"], ["4-6", "4-5", "2-1"], ["4-3", "5-5", "2-0"]]
SEED_MOVES = ["4-4", "4-6:L", "4-3:R", "6-6:L", "4-5:S", "5-5:U"]


def test_9_1_the_house_covered_on_both_sides_counts_nothing() -> None:
    rnd, counts = played(SEED_HANDS, SEED_MOVES)
    assert counts[2:] == [9, 15, 20, 25]
    assert rnd.scoring() == [(0, 3), (1, 4), (2, 5)]


def test_9_1_counting_the_free_sides_would_not_score_the_first_play() -> None:
    rnd, counts = played(SEED_HANDS, SEED_MOVES[:4], spinner_count="open_arms")
    assert counts[-1] == 15 + 4 + 4
    assert rnd.scoring() == []


def test_9_1_a_play_on_a_free_side_of_the_house_starts_the_third_arm() -> None:
    rnd, _ = played(SEED_HANDS, SEED_MOVES[:3])
    assert rnd.ends() == {"L": 6, "R": 3, "S": 4}
    rnd.push("6-6:L")
    rnd.push("4-5:S")
    assert rnd.ends() == {"L": 6, "R": 3, "U": 5, "S": 4}
    assert rnd.board.spinner == 4 and list(map(str, rnd.board.up)) == ["4|5"]


# -- 9.2: constructed examples ------------------------------------------------------------------


def test_9_2_a_double_lead_is_the_house_and_scores_a_fifth() -> None:
    rnd, counts = played([["5-5", "6-1"], ["5-0", "2-2"]], ["5-5", "5-0:L"])
    assert counts == [10, 10]
    assert rnd.scoring() == [(0, 2), (1, 2)]
    assert rnd.board.spinner == 5


def test_9_2_a_single_lead_scores_its_fifth() -> None:
    rnd, _ = played([["4-1", "6-6"], ["3-3", "2-2"]], ["4-1"])
    assert rnd.scoring() == [(0, 1)]
    rnd, _ = played([["6-4", "6-6"], ["3-3", "2-2"]], ["6-4"])
    assert rnd.scoring() == [(0, 2)]


def test_9_2_without_doubles_the_highest_tile_dealt_leads() -> None:
    a, b = ["6-4", "3-1", "2-0"], ["5-4", "6-1", "3-0"]
    rnd = Round(bazar.rules("telephone", players=2), hands=[a, b], bazar=["6-5", "1-1"])
    assert rnd.leader == 0 and [str(m) for m in rnd.legal_moves()] == ["6-4"]
    rnd.push("6-4")
    assert rnd.scoring() == [(0, 2)]


def test_9_2_the_bonus_is_the_others_pips_divided_by_5_rounded_up() -> None:
    rules = bazar.rules("telephone", players=3)
    assert bonus(rules, out(0, [], ["6-5", "2-0"], ["4-3", "1-1"])) == [5, 0, 0]
    assert bonus(rules, out(0, [], ["6-5", "2-0"], ["4-3"])) == [4, 0, 0]
    assert bonus(bazar.rules("telephone", players=2), out(1, ["1-0"], [])) == [0, 1]


def test_9_2_rounding_to_the_nearest_fifth_is_an_option() -> None:
    rules = bazar.rules("telephone", players=3, bonus_rounding="nearest")
    assert bonus(rules, out(0, [], ["6-5", "2-0"], ["4-3", "1-1"])) == [4, 0, 0]
    assert bonus(rules, out(0, [], ["6-5", "2-0"], ["6-4"])) == [5, 0, 0]  # 23 -> 25


def test_9_2_a_fish_goes_to_the_fewest_pips_with_the_others_total() -> None:
    blocked = fish(["3-1"], ["6-4"], ["6-5", "1-0"], fisher=1)
    assert bonus(bazar.rules("telephone", players=3), blocked) == [5, 0, 0]
    difference = bazar.rules("telephone", players=3, block_award="difference")
    assert bonus(difference, blocked) == [4, 0, 0]


def test_9_2_after_a_fish_the_player_who_placed_the_last_tile_leads() -> None:
    rules = bazar.rules("telephone", players=3)
    blocked = fish(["3-1"], ["6-4"], ["6-5", "1-0"], fisher=1)
    for seed in range(5):
        nxt = Round(rules, seed=seed, number=2, previous=blocked)
        assert nxt.leader == 1 and nxt.lead_tiles() is None
    went_out = out(2, ["3-1"], ["6-4"], [])
    assert Round(rules, seed=0, number=2, previous=went_out).leader == 2


def test_a_fish_tied_for_fewest_gives_nobody_the_bonus() -> None:
    rules = bazar.rules("telephone", players=3)
    assert bonus(rules, fish(["3-1"], ["4-0"], ["6-5"])) == [0, 0, 0]


def test_in_play_points_and_the_bonus_add_up() -> None:
    rules = bazar.rules("telephone", players=3)
    finished = Outcome(
        "out",
        out_seat=0,
        remaining=[[], ["6-5", "2-0"], ["4-3", "1-1"]],
        scoring=[(0, 3), (1, 4), (0, 2)],
    )
    assert Ledger(rules, scores=[10, 0, 1]).settle(finished).scores == (20, 4, 1)


HOUSE = [["4-4", "3-3", "6-6", "1-0"], ["4-6", "2-1"], ["4-3", "2-0"]]
HOUSE_OPENING = ["4-4", "4-6:L", "4-3:R"]  # the house with two covered arms, ends 6 and 3


@pytest.mark.parametrize(
    ("turn", "count", "points"),
    [
        (["6-6:L", "3-3:R"], 18, []),
        (["3-3:R", "6-6:L"], 18, []),
        (["6-6:L", "stop"], 15, [(0, 3)]),
        (["3-3:R", "stop"], 12, []),
    ],
)
def test_9_2_several_doubles_in_a_turn_score_once_when_it_ends(
    turn: list[str], count: int, points: list[tuple[int, int]]
) -> None:
    rnd, counts = played(HOUSE, [*HOUSE_OPENING, *turn], doubles_per_turn=4)
    assert counts[-1] == count
    assert rnd.scoring() == points
    assert rnd.turn == 1


def test_after_a_double_the_turn_stays_for_doubles_on_other_ends_or_stop() -> None:
    rnd, _ = played(HOUSE, [*HOUSE_OPENING, "6-6:L"], doubles_per_turn=4)
    assert rnd.turn == 0
    assert [str(m) for m in rnd.legal_moves()] == ["3-3:R", "stop"]
    assert rnd.scoring() == [], "nothing is scored before the turn ends"
    one, _ = played(HOUSE, [*HOUSE_OPENING, "6-6:L"])
    assert one.turn == 1 and one.scoring() == [(0, 3)]


def test_9_2_the_first_lead_follows_the_kozel_order() -> None:
    hands = [["2-2", "0-0", "6-5"], ["3-3", "5-4", "4-0"], ["6-1", "5-2", "3-1"]]
    rnd = Round(bazar.rules("telephone", players=3), hands=hands, bazar=["1-1", "6-6"])
    assert rnd.leader == 0 and [str(m) for m in rnd.legal_moves()] == ["2-2"]
    rnd.push("2-2")
    assert count_ends(rnd) == 4 and rnd.scoring() == []  # type: ignore[arg-type]
    assert rnd.board.spinner == 2


def test_a_first_lead_by_lot_lets_the_leader_lead_any_tile() -> None:
    rules = bazar.rules("telephone", players=3, first_lead="lot")
    assert len(Round(rules, seed=2).legal_moves()) == 7


# -- teams, the target ---------------------------------------------------------------------------


def test_partners_score_as_one_side_and_the_partners_tiles_count_for_nobody() -> None:
    rules = bazar.rules("telephone", players=4, teams=True)
    finished = Outcome(
        "out",
        out_seat=0,
        remaining=[[], ["6-5"], ["6-6"], ["4-3"]],
        scoring=[(0, 2), (2, 1), (3, 4)],
    )
    assert Ledger.new(rules).settle(finished).scores == (3 + 4, 4)  # ceil((11 + 7) / 5)
    blocked = fish(["1-0"], ["6-5"], ["6-6"], ["2-0"])
    assert bonus(rules, blocked) == [0, 0], "13 against 13: a tie, nobody"
    lighter = fish(["1-0"], ["6-5"], ["3-0"], ["2-0"])
    assert bonus(rules, lighter) == [3, 0]


def test_reaching_61_during_play_ends_the_match_at_once() -> None:
    rules = bazar.rules("telephone", players=2)
    at_59 = Ledger(rules, scores=[59, 0])
    rnd, _ = played([["5-5", "6-1"], ["5-0", "2-2"]], ["5-5"], ledger=at_59)
    outcome = rnd.outcome()
    assert rnd.is_over() and outcome is not None and outcome.reason == "target"
    after = at_59.settle(outcome)
    assert after.scores == (61, 0) and after.result is not None and after.result.winners == (0,)


def test_reaching_61_with_a_move_that_blocks_the_round_wins_before_the_block_award() -> None:
    rules = bazar.rules("telephone", players=2)
    ledger = Ledger(rules, scores=[59, 56])
    # the house 5-5 alone counts 10 -> 2 points, and nobody holds a 5: the round is blocked
    rnd = Round(
        rules, hands=[["5-5", "6-6", "6-4", "4-3"], ["1-0"]], bazar=[], leader=0, ledger=ledger
    )
    rnd.push("5-5")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "target" and outcome.scoring == ((0, 2),)
    after = ledger.settle(outcome)
    assert after.scores == (61, 56), "the block award (29 pips -> 6) is not paid after 61"
    assert after.result is not None and after.result.winners == (0,)


def test_a_match_ends_when_the_bonus_reaches_the_target() -> None:
    rules = bazar.rules("telephone", players=2)
    assert Ledger(rules, scores=[58, 40]).settle(out(0, [], ["6-5"])).result is not None


# -- every preset plays ----------------------------------------------------------------------------

PRESETS = [("telephone", {"players": p}) for p in (2, 3, 4)] + [
    ("telephone", {"players": 4, "teams": True}),
    ("telephone", {"players": 3, "doubles_per_turn": 4, "bonus_rounding": "nearest"}),
    (
        "telephone",
        {
            "players": 2,
            "first_lead": "lot",
            "block_award": "difference",
            "spinner_count": "open_arms",
        },
    ),
]


@pytest.mark.parametrize(("name", "options"), PRESETS)
def test_random_matches_end_and_replay(name: str, options: dict[str, object]) -> None:
    rules = bazar.rules(name, **options)  # type: ignore[arg-type]
    for seed in range(6):
        match = bazar.Match(rules, seed=seed)
        rng = random.Random(seed)
        while not match.is_over():
            match.push(rng.choice(match.legal_moves()))
        result = match.result()
        assert result is not None and result.winners
        assert max(match.ledger.scores) >= rules.target
        text = bazar.record.dumps(match)
        assert bazar.record.loads(text).ledger == match.ledger
