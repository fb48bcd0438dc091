"""Texas 42 (trick-game.md): the worked examples of §10 and the rules they illustrate."""

from __future__ import annotations

import io
import itertools
import random
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
from bazar.games.trick import TrickRound, count_value, follows, suit_of, trick_winner

P0, P1, P2, P3 = range(4)


def tiles(*texts: str) -> list[Tile]:
    return [Tile.parse(t) for t in texts]


HANDS = [
    ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
    ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-4"],
    ["4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1"],
    ["3-0", "2-2", "2-1", "2-0", "1-1", "1-0", "0-0"],
]


def hand(
    moves: Sequence[str] = (), hands: list[list[str]] = HANDS, dealer: int = P3, **options: object
) -> Round:
    rnd = Round(bazar.rules("texas-42", **options), hands=hands, dealer=dealer)  # type: ignore[arg-type]
    for move in moves:
        rnd.push(move)
    return rnd


def legal(rnd: Round) -> list[str]:
    return [str(m) for m in rnd.legal_moves()]


# -- T42-1: counts ------------------------------------------------------------------------------


def test_t42_1_count_tiles_and_the_42_points_of_a_hand() -> None:
    values = {str(t): count_value(t) for t in tile_set(6) if count_value(t)}
    assert values == {"3-2": 5, "4-1": 5, "5-0": 5, "5-5": 10, "6-4": 10}
    assert sum(count_value(t) for t in tile_set(6)) == 35
    assert 35 + 7 == 42


# -- T42-2 and T42-3: suits and following ---------------------------------------------------------


def test_t42_2_the_suit_of_a_led_tile() -> None:
    assert [suit_of(t, 4) for t in tiles("6-4", "4-4", "5-2", "3-3", "6-0")] == [-1, -1, 5, 3, 6]
    assert [suit_of(t, 0) for t in tiles("6-0", "6-5")] == [-1, 6]


def replies(held: list[str], led: str, trumps: int, rule: str = "contains_suit") -> list[str]:
    """The tiles of ``held`` one may play to a trick led with ``led``."""
    following = [t for t in tiles(*held) if follows(t, Tile.parse(led), trumps, rule)]
    return [str(t) for t in (following or tiles(*held))]


def test_t42_3_legal_replies() -> None:
    assert replies(["5-3", "2-4", "6-6"], "5-2", 4) == ["5-3"]
    assert replies(["6-5", "2-1", "4-0", "3-3"], "5-2", 4) == ["6-5"]
    assert replies(["6-5", "2-1", "4-0", "3-3"], "5-2", 4, "high_half") == [
        "6-5",
        "2-1",
        "4-0",
        "3-3",
    ]
    assert replies(["5-4", "2-1"], "5-2", 4) == ["5-4", "2-1"]
    assert replies(["4-4", "6-5"], "6-4", 4) == ["4-4"]


def test_t42_3_in_a_hand_the_follower_must_follow() -> None:
    hands = [["5-2", "6-6"], ["5-3", "4-2"], ["4-0", "1-1"], ["3-3", "1-0"]]
    rnd = hand(["bid 30", "pass", "pass", "pass", "trumps 4", "5-2"], hands=hands)
    assert legal(rnd) == ["5-3"]
    rnd.push("5-3")
    assert legal(rnd) == ["1-1", "4-0"]  # no 5: any tile, trumping allowed but not forced


# -- T42-4: tricks --------------------------------------------------------------------------------


def test_t42_4_trick_winners_and_points() -> None:
    assert trick_winner(tiles("5-2", "5-3", "4-0", "6-6"), 4) == 2
    assert trick_winner(tiles("5-5", "5-1", "6-5", "5-4"), 6) == 2
    assert 1 + sum(count_value(t) for t in tiles("5-5", "5-1", "6-5", "5-4")) == 11
    assert trick_winner(tiles("6-3", "6-1", "6-6", "5-0"), 2) == 2
    assert 1 + sum(count_value(t) for t in tiles("6-3", "6-1", "6-6", "5-0")) == 6


def test_t42_4_a_trick_played_out_goes_to_the_winners_side_and_he_leads() -> None:
    hands = [["5-2", "6-6"], ["5-3", "4-2"], ["4-0", "1-1"], ["6-6", "1-0"]]
    hands[3] = ["3-3", "1-0"]
    rnd = hand(
        ["bid 30", "pass", "pass", "pass", "trumps 4", "5-2", "5-3", "4-0", "3-3"], hands=hands
    )
    extra = rnd.view(None).extra
    assert extra["tricks"] == [[P0, P2, ["5-2", "5-3", "4-0", "3-3"], 1]]
    assert extra["points"] == [1, 0] and rnd.turn == P2


# -- T42-5 and T42-6: the hand's points and the settlement ----------------------------------------


def settled(scores: list[int], bid: int, bidder: int, took: int) -> tuple[int, ...]:
    """The scores after a hand in which the bidder's side took ``took`` of the 42 points."""
    rules = bazar.rules("texas-42")
    points = [0, 0, 0, 0]
    points[bidder] = took
    points[(bidder + 1) % 4] = 42 - took
    out = Outcome(
        "tricks",
        remaining=[[]] * 4,
        points=points,
        extra={"bid": bid, "bidder": bidder, "dealer": 3},
    )
    return Ledger(rules, scores=scores).settle(out).scores


def test_t42_5_hand_points_are_tricks_and_counts() -> None:
    side_0 = 4 + sum(count_value(t) for t in tiles("5-5", "3-2"))
    side_1 = 3 + sum(count_value(t) for t in tiles("6-4", "5-0", "4-1"))
    assert (side_0, side_1, side_0 + side_1) == (19, 23, 42)
    rnd = play_out(hand(), 7)
    outcome = rnd.outcome()
    assert outcome is not None and sum(outcome.points) == 42
    assert sum(p for _, p in outcome.scoring) == 42 and len(outcome.scoring) == 7


def test_t42_6_settlement() -> None:
    assert settled([0, 0], 31, P0, 31) == (31, 11)
    assert settled([0, 0], 31, P0, 35) == (35, 7)
    assert settled([0, 0], 31, P0, 28) == (0, 45)
    assert settled([0, 0], 31, P1, 28) == (45, 0)


# -- T42-7: the end of the game -------------------------------------------------------------------


def test_t42_7_game_end() -> None:
    rules = bazar.rules("texas-42")
    assert settled([240, 230], 32, P0, 34) == (274, 238)
    assert Ledger(rules, scores=[274, 238]).result.winning_teams == (0,)  # type: ignore[union-attr]
    both = Ledger(rules, scores=[*settled([230, 240], 30, P0, 30)])
    assert both.scores == (260, 252) and both.result is not None
    assert both.result.winners == (0, 2) and both.result.losers == (1, 3)
    tie = Ledger(rules, scores=[*settled([225, 247], 32, P0, 32)])
    assert tie.scores == (257, 257) and tie.result is None
    set_back = Ledger(rules, scores=[*settled([200, 245], 35, P0, 33)])
    assert set_back.scores == (200, 289)
    assert set_back.result is not None and set_back.result.winning_teams == (1,)


# -- T42-8: bidding -------------------------------------------------------------------------------


def test_t42_8_bidding() -> None:
    rnd = hand(["pass", "bid 30", "bid 34"])
    assert rnd.turn == P3
    assert "bid 33" not in legal(rnd) and legal(rnd)[0] == "bid 35"
    rnd.push("pass")
    assert rnd.turn == P2 and rnd.view(None).extra["bid"] == 34
    assert legal(rnd)[:7] == [f"trumps {s}" for s in range(7)]
    rnd.push("trumps 6")
    assert rnd.turn == P2 and rnd.view(None).extra["trumps"] == 6  # the bidder leads


def test_t42_8_the_dealer_is_forced_to_bid_when_all_others_pass() -> None:
    rnd = hand(["pass", "pass", "pass"])
    assert legal(rnd) == [f"bid {n}" for n in range(30, 43)]
    rnd.push("bid 30")
    assert rnd.bid == (P3, 30)


def test_t42_8_with_redeal_an_all_pass_hand_ends_unscored_and_the_next_dealer_deals() -> None:
    rnd = hand(["pass", "pass", "pass"], all_pass="redeal")
    assert legal(rnd)[-1] == "pass"
    rnd.push("pass")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "redeal"
    after = Ledger.new(rnd.rules).settle(outcome)
    assert after.scores == (0, 0) and after.rounds == 1
    assert Round(rnd.rules, seed=1, number=2, previous=outcome).dealer == P0


def test_bids_run_from_30_to_42_and_no_higher() -> None:
    rnd = hand(["bid 42"])
    assert legal(rnd) == ["pass"]


# -- trumps beyond the seed -----------------------------------------------------------------------


def test_follow_me_and_doubles_are_offered_only_when_allowed() -> None:
    assert legal(hand(["bid 30", "pass", "pass", "pass"]))[-1] == "trumps 6"
    allowed = hand(
        ["bid 30", "pass", "pass", "pass"], allow_follow_me=True, allow_doubles_trump=True
    )
    assert legal(allowed)[-2:] == ["trumps follow-me", "trumps doubles"]


def test_with_doubles_as_trumps_the_highest_double_wins() -> None:
    assert trick_winner(tiles("6-5", "2-2", "6-6", "6-4"), "doubles") == 2
    assert trick_winner(tiles("6-5", "5-5", "6-4", "6-3"), "doubles") == 1
    assert trick_winner(tiles("6-2", "6-5", "6-4", "3-3"), "doubles") == 3
    assert suit_of(Tile.parse("3-3"), "doubles") == -1
    assert not follows(Tile.parse("6-6"), Tile.parse("6-2"), "doubles")


def test_follow_me_has_no_trumps_and_the_led_suit_wins() -> None:
    assert trick_winner(tiles("5-2", "6-6", "5-3", "2-2"), "follow-me") == 2
    assert trick_winner(tiles("5-5", "6-5", "5-4", "4-4"), "follow-me") == 0
    assert follows(Tile.parse("6-5"), Tile.parse("5-2"), "follow-me")
    assert not follows(Tile.parse("6-5"), Tile.parse("5-2"), "follow-me", "high_half")


def test_a_higher_half_reading_does_not_let_6_5_win_a_5_trick() -> None:
    assert trick_winner(tiles("5-2", "6-5", "1-0", "2-2"), 4, "high_half") == 0
    assert trick_winner(tiles("5-2", "6-5", "1-0", "2-2"), 4) == 1


# -- the match ----------------------------------------------------------------------------------


def test_texas_42_is_four_players_in_two_sides() -> None:
    rules = bazar.rules("texas-42")
    assert rules.players == 4 and rules.teams == ((0, 2), (1, 3))
    assert Ledger.new(rules).scores == (0, 0)
    assert bazar.rules("42").name == "texas-42"
    with pytest.raises(ValueError, match="4 players"):
        bazar.rules("texas-42", teams=False)


def test_a_match_runs_to_250_with_the_deal_passing_left() -> None:
    match = play_out(Match(bazar.rules("texas-42"), seed=3), 5)
    assert match.is_over() and max(match.ledger.scores) >= 250
    dealers = [r.dealer for r in match.rounds]
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(dealers))
    result = match.result()
    assert result is not None and len(result.winning_teams) == 1


# -- the engine's promises ------------------------------------------------------------------------

seeds = st.integers(0, 2**32 - 1)
few = settings(max_examples=15, deadline=None)
options = st.fixed_dictionaries(
    {},
    optional={
        "all_pass": st.sampled_from(["dealer_forced_30", "redeal"]),
        "follow_rule": st.sampled_from(["contains_suit", "high_half"]),
        "allow_follow_me": st.booleans(),
        "allow_doubles_trump": st.booleans(),
    },
)


def rules_of(opts: dict[str, object]) -> bazar.Rules:
    return bazar.rules("texas-42", **opts)  # type: ignore[arg-type]


def universe(rnd: Round) -> list[Move]:
    trumps = [*range(8), "follow-me", "doubles"]
    return [
        *(Move("bid", value=n) for n in range(28, 44)),
        Move("pass"),
        Move("draw"),
        *(Move("trumps", value=t) for t in trumps),
        *(Move.play(t) for t in tile_set(6)),
        Move.play(Tile.parse("6-6"), "L"),
        Move("stop"),
    ]


@few
@given(options, seeds, seeds)
def test_legal_moves_are_exactly_what_push_accepts_and_pop_undoes(
    opts: dict[str, object], seed: int, line: int
) -> None:
    legal_is_what_push_accepts(Round(rules_of(opts), seed=seed), universe, line)


@few
@given(options, seeds, seeds)
def test_pop_and_copy_are_exact(opts: dict[str, object], seed: int, line: int) -> None:
    pop_and_copy_are_exact(Round(rules_of(opts), seed=seed), line)


def allowed(rnd: Round, seat: int | None) -> set[Tile]:
    mine = set(rnd.hands[seat]) if seat is not None else set()
    return mine | set(rnd.played())


@few
@given(seeds, seeds)
def test_a_view_names_only_the_seats_own_tiles_and_those_played(seed: int, line: int) -> None:
    views_show_only(Round(rules_of({}), seed=seed), line, allowed)


@few
@given(seeds, seeds, st.integers(0, 3))
def test_no_view_changes_with_the_tiles_the_seat_cannot_see(
    seed: int, line: int, seat: int
) -> None:
    rules = rules_of({})
    real = Round(rules, seed=seed)
    moves = list(play_out(real.copy(), line).moves)
    played = {m.tile for m in moves if m.tile is not None}
    hidden = [t for s, h in enumerate(real.hands) if s != seat for t in h if t not in played]
    random.Random(line).shuffle(hidden)
    hands = [
        [t if s == seat or t in played else hidden.pop() for t in h]
        for s, h in enumerate(real.hands)
    ]
    other = Round(rules, hands=hands, dealer=real.dealer)
    assert same_views_while_legal(real, other, moves, seat) == len(moves)


@few
@given(options, seeds, seeds, st.integers(0, 100))
def test_records_round_trip(opts: dict[str, object], seed: int, line: int, moves: int) -> None:
    records_round_trip(rules_of(opts), seed, line, moves)


@few
@given(seeds, seeds, st.integers(0, 32))
def test_a_round_from_a_view_plays_on_like_the_real_one(seed: int, line: int, moves: int) -> None:
    rnd = play_out(Round(rules_of({}), seed=seed), line, moves)
    from_view_plays_on_alike(rnd, line)


@settings(max_examples=30, deadline=None)
@given(options, seeds, seeds)
def test_random_matches_end(opts: dict[str, object], seed: int, line: int) -> None:
    match = matches_end(rules_of(opts), seed, line, 4 + 1 + 28)
    assert len(match.rounds) < 100


# -- move generation, counted ---------------------------------------------------------------------


def test_a_one_trick_hand_counted_by_hand() -> None:
    """One tile each, dealer P3: P0 bids 30..42 or passes (14); each later bidder may outbid
    or pass; the dealer must bid when all three passed. Then trumps (7 ways) and one trick."""
    hands = [["5-2"], ["5-3"], ["4-0"], ["3-3"]]
    rnd = hand(hands=hands)
    assert perft(rnd, 1) == 14
    assert perft(rnd, 2) == 14 + sum(43 - bid for bid in range(30, 43))  # 105
    assert perft(rnd, 4) == auction_count()
    assert perft(rnd, 5) == perft(rnd, 4) * 7
    assert perft(rnd, 9) == perft(rnd, 5)  # one legal tile each after trumps


def auction_count() -> int:
    """Auctions of four seats: each bids once, pass or higher than the high bid (30..42);
    the dealer, last, may not pass when the three before him did."""

    def count(seat: int, high: int) -> int:
        if seat == 4:
            return 1
        total = sum(count(seat + 1, bid) for bid in range(max(30, high + 1), 43))
        if not (seat == 3 and high == 0):
            total += count(seat + 1, high)
        return total

    return count(0, 0)


# regression values: Round(rules("texas-42"), seed=1), the auction from the deal and the play
# after the first bidder (P1) bids 30 and names threes, computed with the engine when this
# file was written; a change means move generation changed and needs a rule to explain it
PERFT_AUCTION = {1: 14, 2: 105, 4: 2379, 5: 16653}
PERFT_PLAY = {1: 7, 2: 17, 4: 107, 6: 1778, 8: 9798, 9: 48990}


def test_perft_of_the_seed_1_deal() -> None:
    rnd = Round(bazar.rules("texas-42"), seed=1)
    assert isinstance(rnd, TrickRound) and (rnd.dealer, rnd.leader) == (P0, P1)
    assert {depth: perft(rnd, depth) for depth in PERFT_AUCTION} == PERFT_AUCTION
    for move in ["bid 30", "pass", "pass", "pass", "trumps 3"]:
        rnd.push(move)
    assert {depth: perft(rnd, depth) for depth in PERFT_PLAY} == PERFT_PLAY


# -- the terminal -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Bids:", "Contract:", "The trick goes to", "The match is over"]),
        ("ru", ["Заказы", "Взятка"]),
    ],
)
def test_the_terminal_tells_a_whole_match(lang: str, words: list[str]) -> None:
    out = io.StringIO()
    answers = iter(["1"] * 20_000)
    talk = TableTalk(
        Match(bazar.rules("texas-42"), seed=2),
        0,
        "greedy",
        Console(file=out, width=100),
        lambda prompt: next(answers),
        lang,
    )
    assert talk.play().is_over()
    for word in words:
        assert word in out.getvalue()
