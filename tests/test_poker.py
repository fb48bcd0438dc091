"""Domino Poker (domino-poker.md): the worked examples of §8 and the rules they illustrate."""

from __future__ import annotations

import io
import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import (
    from_view_plays_on_alike,
    legal_is_what_push_accepts,
    matches_end,
    perft,
    play_out,
    pop_and_copy_are_exact,
    records_round_trip,
    same_views_while_legal,
    views_show_only,
)
from rich.console import Console

import bazar
from bazar import Ledger, Match, Move, Outcome, Round
from bazar.cli import TableTalk
from bazar.core.tiles import Tile, tile_set
from bazar.games.poker import (
    COMBINATIONS,
    DEALS,
    MAX_RAISES,
    POKER_SET,
    STARTING_CHIPS,
    PokerRound,
    is_flush,
    rank,
)


def name(*tiles: str) -> str:
    return rank(tiles).name


def deal(
    hands: list[list[str]],
    moves: Sequence[str] = (),
    dealer: int | None = None,
    ledger: Ledger | None = None,
    **options: object,
) -> Round:
    rules = bazar.rules("poker", players=len(hands), **options)  # type: ignore[arg-type]
    rnd = Round(rules, hands=hands, dealer=dealer, ledger=ledger)
    for move in moves:
        rnd.push(move)
    return rnd


def legal(rnd: Round) -> list[str]:
    return [str(m) for m in rnd.legal_moves()]


# -- DP-1: the set ------------------------------------------------------------------------------


def test_dp_1_the_set_has_twenty_tiles_no_blank_no_1_1() -> None:
    assert len(POKER_SET) == 20
    assert all(t.low > 0 for t in POKER_SET) and Tile.parse("1-1") not in POKER_SET
    assert [str(t) for t in POKER_SET if t.is_double] == ["2-2", "3-3", "4-4", "5-5", "6-6"]
    assert sum(1 for _ in itertools.combinations(POKER_SET, 5)) == 15504


# -- DP-2 and DP-3: classifications ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "combination"),
    [
        (["2-2", "3-3", "4-4", "5-5", "6-6"], "Royal Flush"),
        (["3-1", "3-2", "3-3", "3-4", "3-5"], "Five Straight"),
        (["6-6", "3-3", "2-2", "2-4", "2-1"], "Full Hand"),
        (["4-6", "4-5", "4-4", "4-3", "2-5"], "Four Straight"),
        (["4-6", "4-5", "4-4", "4-3", "4-2"], "Five Straight"),
        (["6-1", "6-3", "6-4", "6-5", "6-6"], "Four Straight"),
        (["6-1", "6-2", "6-3", "6-4", "6-6"], "Four Straight"),
        (["6-1", "6-2", "6-3", "6-4", "6-5"], "Six Straight"),
        (["6-2", "6-3", "6-4", "6-5", "6-6"], "Six Straight"),
        (["1-2", "1-3", "1-4", "1-5", "1-6"], "Five Straight"),
        (["6-6", "5-5", "4-4", "3-3", "1-2"], "Four of a Kind"),
        (["6-6", "5-5", "4-4", "1-2", "1-3"], "Full Hand"),
        (["6-6", "5-5", "4-4", "1-2", "3-4"], "Three"),
        (["6-6", "2-2", "1-3", "4-5", "2-5"], "Pair"),
        (["1-2", "3-4", "5-6", "1-4", "2-6"], "No Combination"),
    ],
)
def test_dp_2_and_3_each_hand_is_worth_its_best_combination(
    hand: list[str], combination: str
) -> None:
    assert rank(hand).name == combination


def test_dp_2_the_seeds_flush_is_a_flush_pattern_ranked_as_a_four_straight() -> None:
    hand = ["6-1", "6-3", "6-4", "6-5", "6-6"]
    assert is_flush(hand)
    four = rank(hand)
    assert (four.name, four.key) == ("Four Straight", (6, 6))  # suit 6, ranks 3 to 6
    assert rank(["6-1", "6-2", "6-3", "6-4", "6-6"]).key == (6, 4)  # suit 6, ranks 1 to 4
    assert rank(["4-6", "4-5", "4-4", "4-3", "2-5"]).key == (4, 6)
    assert not is_flush(["4-6", "4-5", "4-4", "4-3", "2-5"])


def test_dp_3_no_combination_counts_the_pips() -> None:
    assert rank(["1-2", "3-4", "5-6", "1-4", "2-6"]).key[0] == 34


# -- DP-4: comparisons -------------------------------------------------------------------------


def test_dp_4_comparisons() -> None:
    assert rank(["6-6", "2-2", "1-3", "4-5", "2-5"]) > rank(["5-5", "4-4", "1-2", "3-6", "1-5"])
    assert rank(["3-5", "4-5", "5-5", "5-6", "1-4"]) > rank(["2-3", "2-4", "2-5", "2-6", "1-3"])
    assert rank(["1-3", "2-5", "4-6", "1-6", "3-5"]) > rank(["1-2", "3-4", "5-6", "1-4", "2-6"])


def test_dp_4_every_flush_beats_every_pair_every_three_every_flush() -> None:
    by_name: dict[str, list[bazar.games.poker.Rank]] = {}
    for hand in itertools.combinations(POKER_SET, 5):
        r = rank(hand)
        by_name.setdefault(r.name, []).append(r)
    order = [n for n in COMBINATIONS if n in by_name]
    assert order == list(COMBINATIONS)
    for weaker, stronger in itertools.pairwise(order):
        assert max(by_name[weaker]) < min(by_name[stronger])
    assert min(by_name["Six Straight"]) > max(by_name["Four of a Kind"])


def test_no_two_hands_of_one_deal_are_equal() -> None:
    rng = random.Random(1)
    for _ in range(2000):
        tiles = rng.sample(POKER_SET, 20)
        ranks = [rank(tiles[i : i + 5]) for i in range(0, 20, 5)]
        assert len(set(ranks)) == 4


def test_the_highest_tile_option_compares_the_tiles_first() -> None:
    heavy = ["6-5", "1-2", "1-3", "2-4", "3-4"]  # 6-5 but 31 pips
    light = ["6-4", "5-3", "5-2", "4-1", "2-3"]  # 36 pips
    assert rank(light) > rank(heavy)
    assert rank(heavy, high_hand="highest_tile") > rank(light, high_hand="highest_tile")


def test_equal_pips_are_told_apart_tile_by_tile_from_the_highest() -> None:
    a = ["6-5", "1-2", "1-3", "2-4", "3-4"]  # 11 3 4 6 7 = 31
    b = ["6-4", "5-2", "1-2", "1-3", "2-4"]  # 10 7 3 4 6 = 30
    c = ["6-4", "5-2", "1-2", "1-4", "2-4"]  # 10 7 3 5 6 = 31
    assert rank(a).key[0] == rank(c).key[0] == 31
    assert rank(a) > rank(c) > rank(b)


# -- DP-5: frequencies ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("definitions", "counts"),
    [
        ("seed", [9601, 4506, 10, 450, 250, 600, 9, 75, 2, 1]),
        ("pagat", [9797, 4550, 25, 450, 2, 600, 2, 75, 2, 1]),
    ],
)
def test_dp_5_frequencies_over_all_hands(definitions: str, counts: list[int]) -> None:
    found = Counter(rank(h, definitions).name for h in itertools.combinations(POKER_SET, 5))
    assert [found[n] for n in COMBINATIONS] == counts


def test_rank_refuses_what_is_not_a_poker_hand() -> None:
    with pytest.raises(ValueError, match="five different tiles"):
        rank(["2-2", "3-3"])
    with pytest.raises(ValueError, match="no tile 1-1"):
        rank(["1-1", "2-2", "3-3", "4-4", "5-5"])
    with pytest.raises(ValueError, match="no tile 6-0"):
        rank(["6-0", "2-2", "3-3", "4-4", "5-5"])


# -- DP-6: betting --------------------------------------------------------------------------------

P0 = ["6-6", "5-5", "4-4", "1-2", "1-3"]  # Full Hand
P1 = ["1-4", "2-3", "2-5", "3-6", "1-5"]
P2 = ["3-3", "2-2", "1-6", "4-5", "2-6"]  # Pair


def test_dp_6_check_bet_raise_fold_call_then_the_showdown() -> None:
    rnd = deal([P0, P1, P2], dealer=0)
    assert rnd.turn == 1 and rnd.view(None).extra["pot"] == 3
    rnd.push("check")
    rnd.push("bet 2")
    assert legal(rnd) == ["call", "raise 1", "raise 2", "raise 3", "raise 4", "raise 5", "fold"]
    rnd.push("raise 2")
    assert rnd.view(None).extra["put"] == [5, 1, 3]
    rnd.push("fold")
    rnd.push("call")
    outcome = rnd.outcome()
    assert outcome is not None
    assert outcome.reason == "showdown" and outcome.extra["pot"] == 11
    assert outcome.out_seat == 0 and outcome.points == (6, -1, -5)
    assert outcome.remaining[1] is None  # the folded hand is never shown
    assert [str(t) for t in outcome.remaining[2] or ()] == ["2-2", "3-3", "5-4", "6-1", "6-2"]
    assert outcome.extra["ranks"] == ["Full Hand", None, "Pair"]
    chips = Ledger.new(rnd.rules).settle(outcome).scores
    assert chips == (106, 99, 95)


def test_dp_6_if_p2_had_folded_p0_takes_the_pot_unseen() -> None:
    rnd = deal([P0, P1, P2], ["check", "bet 2", "raise 2", "fold", "fold"], dealer=0)
    outcome = rnd.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.out_seat, outcome.points) == ("fold", 0, (4, -1, -3))
    assert outcome.remaining == (None, None, None)


def test_check_and_bet_only_while_nobody_has_bet_and_all_checks_show_down() -> None:
    rnd = deal([P0, P1], dealer=1)
    assert legal(rnd) == ["check", "bet 1", "bet 2", "bet 3", "bet 4", "bet 5", "fold"]
    rnd.push("check")
    rnd.push("check")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "showdown" and outcome.points == (1, -1)


def test_raises_stop_at_max_raises() -> None:
    rnd = deal([P0, P1], ["bet 1", "raise 1", "raise 1"], dealer=1, max_raises=2)
    assert legal(rnd) == ["call", "fold"]


def test_bets_calls_and_raises_only_with_chips_one_has() -> None:
    ledger = Ledger(bazar.rules("poker", players=2), scores=[3, 100])
    rnd = deal([P0, P1], dealer=1, ledger=ledger)
    assert legal(rnd) == ["check", "bet 1", "bet 2", "fold"]  # 1 of 3 chips is the ante
    rnd.push("check")
    rnd.push("bet 5")
    assert legal(rnd) == ["fold"]  # cannot cover the call: no all-in


def test_a_player_who_cannot_pay_the_ante_sits_out() -> None:
    rules = bazar.rules("poker", players=3)
    ledger = Ledger(rules, scores=[0, 50, 50])
    rnd = Round(rules, seed=5, ledger=ledger)
    assert rnd.hands[0] == () and all(len(h) == 5 for h in rnd.hands[1:])
    assert rnd.bazar_size == 10
    while not rnd.is_over():
        assert rnd.turn != 0
        rnd.push(rnd.legal_moves()[0])
    outcome = rnd.outcome()
    assert outcome is not None and outcome.remaining[0] == () and outcome.points[0] == 0


def test_the_deal_passes_to_the_left_and_the_eldest_acts_first() -> None:
    match = Match(bazar.rules("poker", players=3), seed=2)
    dealers = []
    while not match.is_over():
        rnd = match.round
        dealers.append(rnd.dealer)
        assert rnd.turn == (rnd.dealer + 1) % 3
        match.push(rnd.legal_moves()[0])
        while not match.is_over() and match.round is rnd:
            match.push(rnd.legal_moves()[0])
    assert len(dealers) == 10
    assert all(b == (a + 1) % 3 for a, b in itertools.pairwise(dealers))


def test_without_betting_the_hands_are_shown_at_once() -> None:
    rnd = deal([P0, P1, P2], betting="none", dealer=0)
    assert rnd.is_over() and rnd.legal_moves() == []
    outcome = rnd.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.out_seat, outcome.points) == ("showdown", 0, (2, -1, -1))
    match = Match(bazar.rules("poker", betting="none"), seed=4)
    assert match.is_over() and len(match.rounds) == 10
    assert sum(match.ledger.scores) == 400


# -- the match ----------------------------------------------------------------------------------


def test_the_ledger_starts_with_the_starting_chips() -> None:
    assert Ledger.new(bazar.rules("poker")).scores == (100, 100, 100, 100)
    assert Ledger.new(bazar.rules("poker", players=2, starting_chips=20)).scores == (20, 20)
    assert Ledger.new(bazar.rules("block")).scores == (0, 0)


def test_the_match_ends_after_its_deals_most_chips_win_fewest_lose() -> None:
    rules = bazar.rules("poker", players=4)
    ledger = Ledger(rules, scores=[120, 80, 120, 80], rounds=9)
    assert ledger.result is None
    out = Outcome("showdown", remaining=[[], [], [], []], points=[3, -1, -1, -1])
    result = ledger.settle(out).result
    assert result is not None and result.winners == (0,) and result.losers == (1, 3)


def test_the_match_ends_when_fewer_than_two_can_pay_the_ante() -> None:
    rules = bazar.rules("poker", players=3)
    out = Outcome("fold", remaining=[None, None, ()], points=[-1, 1, 0])
    result = Ledger(rules, scores=[1, 199, 0], rounds=2).settle(out).result
    assert result is not None and result.winners == (1,) and result.losers == (0, 2)
    assert Ledger(rules, scores=[1, 198, 1], rounds=2).result is None


def test_poker_takes_two_to_four_players_and_its_own_options() -> None:
    assert bazar.rules("покер").name == "poker"
    with pytest.raises(ValueError, match="2 to 4 players"):
        bazar.rules("poker", players=5)
    with pytest.raises(ValueError, match="bet_min 6 is above bet_max 5"):
        bazar.rules("poker", bet_min=6)
    with pytest.raises(ValueError, match="no tile 0-0"):
        deal([["0-0", "2-2", "3-3", "4-4", "5-5"], P1])
    with pytest.raises(ValueError, match="5 tiles"):
        deal([["2-2"], P1])


# -- the engine's promises ------------------------------------------------------------------------

seeds = st.integers(0, 2**32 - 1)
players = st.integers(2, 4)
few = settings(max_examples=15, deadline=None)


def universe(rnd: Round) -> list[Move]:
    amounts = range(0, 8)
    return [
        Move("check"),
        Move("call"),
        Move("fold"),
        Move("pass"),
        Move("draw"),
        *(Move("bet", value=n) for n in amounts),
        *(Move("raise", value=n) for n in amounts),
        Move.play(Tile.parse("6-6")),
        Move("bid", value=30),
    ]


def rules_of(n: int, options: dict[str, object]) -> bazar.Rules:
    return bazar.rules("poker", players=n, **options)  # type: ignore[arg-type]


options = st.fixed_dictionaries(
    {},
    optional={
        "max_raises": st.integers(0, 3),
        "bet_max": st.integers(1, 5),
        "ante": st.integers(0, 2),
        "straight_definitions": st.sampled_from(["seed", "pagat"]),
        "high_hand": st.sampled_from(["total_pips", "highest_tile"]),
    },
)


@few
@given(players, options, seeds, seeds)
def test_legal_moves_are_exactly_what_push_accepts_and_pop_undoes(
    n: int, opts: dict[str, object], seed: int, line: int
) -> None:
    legal_is_what_push_accepts(Round(rules_of(n, opts), seed=seed), universe, line)


@few
@given(players, seeds, seeds)
def test_pop_and_copy_are_exact(n: int, seed: int, line: int) -> None:
    pop_and_copy_are_exact(Round(rules_of(n, {}), seed=seed), line)


def allowed(rnd: Round, seat: int | None) -> set[Tile]:
    outcome = rnd.outcome()
    shown = {t for h in (outcome.remaining if outcome else ()) for t in h or ()}
    return shown | (set(rnd.hands[seat]) if seat is not None else set())


@few
@given(players, seeds, seeds)
def test_a_view_names_only_the_seats_own_tiles_and_the_hands_shown(
    n: int, seed: int, line: int
) -> None:
    rnd = Round(rules_of(n, {}), seed=seed)
    views_show_only(rnd, line, allowed)


@few
@given(players, seeds, seeds, st.integers(0, 3))
def test_no_view_changes_with_the_tiles_the_seat_cannot_see(
    n: int, seed: int, line: int, seat_pick: int
) -> None:
    rules = rules_of(n, {})
    seat = seat_pick % n
    real = Round(rules, seed=seed)
    moves = list(play_out(real.copy(), line).moves)
    hidden = [t for s, h in enumerate(real.hands) if s != seat for t in h] + list(real.bazar)
    random.Random(line).shuffle(hidden)
    hands = [list(h) if s == seat else [hidden.pop() for _ in h] for s, h in enumerate(real.hands)]
    other = Round(rules, hands=hands, bazar=hidden, dealer=real.dealer)
    assert same_views_while_legal(real, other, moves, seat) == len(moves)


@few
@given(players, seeds, seeds, st.integers(0, 40))
def test_records_round_trip(n: int, seed: int, line: int, moves: int) -> None:
    records_round_trip(rules_of(n, {}), seed, line, moves)


@few
@given(players, seeds, seeds, st.integers(0, 10))
def test_a_round_from_a_view_plays_on_like_the_real_one(
    n: int, seed: int, line: int, moves: int
) -> None:
    rnd = play_out(Round(rules_of(n, {}), seed=seed), line, moves)
    from_view_plays_on_alike(rnd, line)


@settings(max_examples=30, deadline=None)
@given(players, options, seeds, seeds)
def test_random_matches_end(n: int, opts: dict[str, object], seed: int, line: int) -> None:
    rules = rules_of(n, opts)
    match = matches_end(rules, seed, line, 4 * (rules[MAX_RAISES] + 2))
    assert len(match.rounds) <= rules[DEALS]
    assert sum(match.ledger.scores) == n * rules[STARTING_CHIPS]


# -- move generation, counted ---------------------------------------------------------------------


def test_a_two_player_deal_counted_by_hand() -> None:
    """Bets of 1 or 2 and one raise a hand; seat 0 acts first.

    - ``fold`` ends the deal at once (1).
    - ``bet n`` (two ways): seat 1 calls (the end), folds (the end) or raises 1 or 2, and
      then seat 0 may only call or fold: 1 + 1 + 2 * 2 = 6 ways each.
    - ``check``: seat 1 checks (the end), folds (the end) or bets 1 or 2, which seat 0
      answers like seat 1 above: 1 + 1 + 2 * 6 = 14 ways.

    Every deal is over within four moves: 1 + 2 * 6 + 14 = 27.
    """
    rnd = deal([P0, P1], dealer=1, bet_max=2, max_raises=1)
    assert legal(rnd) == ["check", "bet 1", "bet 2", "fold"]
    assert [perft(rnd, d) for d in range(6)] == [1, 4, 4 + 4 + 4 + 1, 10 + 6 + 6 + 1, 27, 27]


# regression values: Round(rules("poker", players=n), seed=1), computed with the engine when
# this file was written; a change means move generation changed and needs a rule to explain it
PERFT = {2: {1: 7, 2: 43, 3: 223, 4: 1123}, 3: {1: 7, 2: 49, 3: 337}, 4: {1: 7, 2: 49, 3: 343}}


@pytest.mark.parametrize("n", PERFT)
def test_perft_of_the_seed_1_deal(n: int) -> None:
    rnd = Round(bazar.rules("poker", players=n), seed=1)
    assert isinstance(rnd, PokerRound)
    assert {depth: perft(rnd, depth) for depth in PERFT[n]} == PERFT[n]


def test_every_tile_of_the_set_is_somewhere() -> None:
    rnd = Round(bazar.rules("poker", players=3), seed=9)
    places = [t for h in rnd.hands for t in h] + list(rnd.bazar)
    assert sorted(places) == sorted(POKER_SET)
    assert not set(tile_set(6)) - set(POKER_SET) & set(places)


# -- the terminal -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Pot ", "Chips left", "The pot of", "The match is over"]),
        ("ru", ["Банк", "Фишек осталось"]),
    ],
)
def test_the_terminal_tells_a_whole_match(lang: str, words: list[str]) -> None:
    out = io.StringIO()
    answers = iter(["1"] * 20_000)
    talk = TableTalk(
        Match(bazar.rules("poker"), seed=2),
        0,
        "greedy",
        Console(file=out, width=100),
        lambda prompt: next(answers),
        lang,
    )
    assert talk.play().is_over()
    for word in words:
        assert word in out.getvalue()
