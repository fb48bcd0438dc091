"""Kolbasa (kolbasa.md): the worked examples of §8 and the rules they illustrate."""

from __future__ import annotations

import io
import json
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
from bazar.games.kolbasa import CUT_PIECE_TO, KolbasaBoard, KolbasaRound

A, B = 0, 1


def game(rows: list[list[str]], moves: Sequence[str] = (), **options: object) -> Round:
    """An explicit deal (rows front to back, seat 0 turns over first) after ``moves``."""
    rnd = Round(bazar.rules("kolbasa", players=len(rows), **options), hands=rows)  # type: ignore[arg-type]
    for move in moves:
        rnd.push(move)
    return rnd


def legal(rnd: Round) -> list[str]:
    return [str(m) for m in rnd.legal_moves()]


def row(rnd: Round, seat: int) -> list[str]:
    return [str(t) for t in rnd.hands[seat]]


def sausage(rnd: Round) -> tuple[str, ...]:
    """The sausage from its start, each tile ``back|front``."""
    board = rnd.board
    assert isinstance(board, KolbasaBoard)
    return tuple(map(str, board.sausage))


# -- 8.1 to 8.6 -------------------------------------------------------------------------------


def test_8_1_the_first_double_turned_over_starts_the_sausage_and_the_other_plays_first() -> None:
    rnd = game([["2-5", "4-4", "6-1"], ["1-3", "0-0", "1-1"]])
    assert rnd.view(None).extra["opening"] == [[A, "5-2"], [B, "3-1"], [A, "4-4"]]
    assert sausage(rnd) == ("4|4",) and rnd.ends() == {"R": 4}
    assert row(rnd, A) == ["6-1", "5-2"] and row(rnd, B) == ["0-0", "1-1", "3-1"]
    assert rnd.turn == B
    table = rnd.view(None).extra
    assert table["starter"] == A and table["front"] == "0-0"


def test_8_2_a_used_tile_keeps_the_turn_an_unusable_one_goes_to_the_back() -> None:
    rnd = game([["2-5", "4-4", "6-5", "0-4"], ["1-3", "4-1", "1-6", "2-3"]])
    assert legal(rnd) == ["4-1:R"]
    rnd.push("4-1:R")
    assert rnd.ends() == {"R": 1} and rnd.turn == B
    rnd.push("1-6:R")
    assert rnd.ends() == {"R": 6} and rnd.turn == B
    assert rnd.view(A).extra["front"] == "3-2"
    assert legal(rnd) == ["pass"]
    rnd.push("pass")
    assert rnd.turn == A
    assert row(rnd, B) == ["3-1", "3-2"]
    assert rnd.view(None).extra["sent_back"] == ["3-2"]


def cutting_game() -> Round:
    """Sausage 3-3 | 3-5 | 5-1 | 1-4 (open end 4), laid by A (3-3) and B; A to move."""
    rows = [["3-3", "6-5", "2-2", "0-1"], ["3-5", "5-1", "1-4", "2-0", "6-6"]]
    return game(rows, ["3-5:R", "5-1:R", "1-4:R", "pass"])


def test_8_3_a_tile_that_fits_a_joint_cuts_and_the_start_goes_to_the_opponent() -> None:
    rnd = cutting_game()
    assert sausage(rnd) == ("3|3", "3|5", "5|1", "1|4") and rnd.ends() == {"R": 4}
    assert rnd.view(None).extra["joints"] == [3, 5, 1]
    assert legal(rnd) == ["cut 6-5:2", "stop"]  # the sausage «можно разрезать»: may be cut
    rnd.push("cut 6-5:2")
    assert row(rnd, B) == ["6-6", "2-0", "3-3", "5-3"]
    assert sausage(rnd) == ("6|5", "5|1", "1|4") and rnd.ends() == {"R": 4}
    assert row(rnd, A) == ["2-2", "1-0"] and rnd.turn == A
    assert legal(rnd) == ["pass"]
    rnd.push("pass")
    assert rnd.turn == B


def choice_game() -> Round:
    """Sausage 2-2 | 2-6 | 6-3 (open end 3, joints 2 and 6); A has turned over 3-2."""
    return game([["2-2", "3-2", "0-0"], ["2-6", "6-3", "4-4", "1-1"]], ["2-6:R", "6-3:R", "pass"])


def test_8_4_a_tile_may_attach_or_cut_and_both_are_offered() -> None:
    rnd = choice_game()
    assert sausage(rnd) == ("2|2", "2|6", "6|3")
    assert legal(rnd) == ["3-2:R", "cut 3-2:1"]
    rnd.push("3-2:R")
    assert rnd.ends() == {"R": 2} and sausage(rnd)[-1] == "3|2"
    rnd.pop()
    rnd.push("cut 3-2:1")
    assert row(rnd, B)[-1] == "2-2"
    assert sausage(rnd) == ("3|2", "2|6", "6|3") and rnd.ends() == {"R": 3}


def test_8_5_a_cut_at_the_last_joint_leaves_the_open_end() -> None:
    rnd = game([["5-5", "6-6", "1-1"], ["5-0", "5-2", "4-4"]], ["5-0:R"])
    assert legal(rnd) == ["cut 5-2:1", "stop"]
    rnd.push("cut 5-2:1")
    assert row(rnd, A) == ["6-6", "1-1", "5-5"]
    assert sausage(rnd) == ("2|5", "5|0") and rnd.ends() == {"R": 0}


def test_8_6_an_empty_row_wins() -> None:
    rnd = game([["0-0", "0-4"], ["1-2", "3-3"]], ["pass"])
    assert legal(rnd) == ["4-0:R"]
    rnd.push("4-0:R")
    outcome = rnd.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.out_seat, outcome.extra["end"]) == ("out", A, "empty")
    ledger = Ledger.new(rnd.rules).settle(outcome)
    assert ledger.result is not None
    assert (ledger.result.winners, ledger.result.losers) == ((A,), (B,))


def test_8_6_with_stop_at_three_tiles_or_fewer_win() -> None:
    rows = [["0-0", "0-1", "1-2", "2-3", "3-4", "4-5"], ["6-5", "6-6"]]
    rnd = game(rows, ["pass", "0-1:R"], stop_at=3)
    assert not rnd.is_over() and len(rnd.hands[A]) == 4
    rnd.push("1-2:R")
    outcome = rnd.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.out_seat, outcome.extra["end"]) == ("out", A, "stop_at")


# -- the end of a game that cannot go on (§5) -------------------------------------------------


def test_a_deadlock_is_won_by_the_fewest_tiles() -> None:
    rnd = game([["6-6", "1-2", "1-3"], ["4-5", "4-0", "2-3"]])
    for _ in range(4):
        rnd.push("pass")
    assert not rnd.is_over()  # B has not yet turned over his third tile
    rnd.push("pass")
    outcome = rnd.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.out_seat, outcome.extra["end"]) == ("deadlock", None, "blocked")
    result = Ledger.new(rnd.rules).settle(outcome).result
    assert result is not None and (result.winners, result.losers) == ((A,), (B,))


def test_a_deadlock_with_equal_rows_is_a_draw() -> None:
    rnd = game([["6-6", "1-2", "1-3"], ["4-5", "4-0"]], ["pass"] * 4)
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "deadlock"
    result = Ledger.new(rnd.rules).settle(outcome).result
    assert result is not None and (result.winners, result.losers) == ((A, B), ())


def test_the_reveal_cap_ends_the_game_with_the_same_tie_break() -> None:
    rnd = game([["2-5", "4-4", "6-1"], ["1-3", "0-0", "1-1"]], max_reveals=5)
    assert rnd.view(None).extra["reveals"] == 3
    rnd.push("pass")
    assert not rnd.is_over()
    rnd.push("pass")
    outcome = rnd.outcome()
    assert outcome is not None
    assert outcome.reason == "deadlock"
    assert (outcome.extra["end"], outcome.extra["reveals"]) == ("cap", 5)
    result = Ledger.new(rnd.rules).settle(outcome).result
    assert result is not None and result.winners == (A,)


def test_a_deal_without_a_double_is_blocked_at_once() -> None:
    rnd = game([["1-0", "2-0"], ["2-1", "3-0"]])
    assert rnd.is_over() and rnd.legal_moves() == []
    outcome = rnd.outcome()
    assert outcome is not None and outcome.extra["end"] == "no_double"


# -- the options (§6) ---------------------------------------------------------------------------


def test_using_a_usable_tile_is_compulsory_unless_the_option_is_off() -> None:
    assert legal(choice_game()) == ["3-2:R", "cut 3-2:1"]
    loose = game(
        [["2-2", "3-2", "0-0"], ["2-6", "6-3", "4-4", "1-1"]],
        ["2-6:R", "6-3:R", "pass"],
        use_is_compulsory=False,
    )
    assert legal(loose) == ["3-2:R", "cut 3-2:1", "stop"]
    loose.push("stop")
    assert loose.turn == B and row(loose, A)[-1] == "3-2"


def test_a_cut_is_the_players_choice_and_declining_it_sends_the_tile_back() -> None:
    rnd = cutting_game()
    assert legal(rnd) == ["cut 6-5:2", "stop"]
    rnd.push("stop")
    assert rnd.turn == B and row(rnd, A) == ["2-2", "1-0", "6-5"]
    assert sausage(rnd) == ("3|3", "3|5", "5|1", "1|4") and row(rnd, B) == ["6-6", "2-0"]
    assert rnd.pop() == Move("stop") and legal(rnd) == ["cut 6-5:2", "stop"]


def test_a_tile_that_attaches_must_still_be_used_attached_or_cut() -> None:
    assert legal(choice_game()) == ["3-2:R", "cut 3-2:1"]


@pytest.mark.parametrize("level", ["greedy", "heuristic"])
def test_the_bots_cut_rather_than_keep_the_tile(level: str) -> None:
    rnd = cutting_game()
    assert bazar.bots.make(level, seed=1).choose(rnd.view(A), rnd.legal_moves()) == Move.parse(
        "cut 6-5:2"
    )


def test_the_cut_is_compulsory_with_the_option() -> None:
    rows = [["3-3", "6-5", "2-2", "0-1"], ["3-5", "5-1", "1-4", "2-0", "6-6"]]
    strict = game(rows, ["3-5:R", "5-1:R", "1-4:R", "pass"], cut_is_compulsory=True)
    assert legal(strict) == ["cut 6-5:2"]
    assert not bazar.rules("kolbasa").options()["cut_is_compulsory"]
    loose = game(
        rows, ["3-5:R", "5-1:R", "1-4:R", "pass"], use_is_compulsory=False, cut_is_compulsory=True
    )
    assert legal(loose) == ["cut 6-5:2", "stop"]  # nothing is compulsory then


def test_cutting_can_be_off_or_left_to_doubles() -> None:
    rows = [["2-2", "3-2", "0-0"], ["2-6", "6-3", "4-4", "1-1"]]
    moves = ["2-6:R", "6-3:R", "pass"]
    assert legal(game(rows, moves, cutting=False)) == ["3-2:R"]
    assert legal(game(rows, moves, cut_with_singles=False)) == ["3-2:R"]
    doubles = game(
        [["6-6", "2-2", "0-0"], ["6-2", "2-5", "1-0"]],
        ["6-2:R", "2-5:R", "pass"],
        cut_with_singles=False,
    )
    assert legal(doubles) == ["cut 2-2:2", "stop"]  # joints 6 and 2


def test_without_continue_after_cut_the_turn_passes_after_a_cut() -> None:
    rows = [["5-5", "6-6", "1-1"], ["5-0", "5-2", "4-4"]]
    assert game(rows, ["5-0:R", "cut 5-2:1"]).turn == B
    assert game(rows, ["5-0:R", "cut 5-2:1"], continue_after_cut=False).turn == A


def test_three_players_split_nine_each_with_one_tile_aside_and_cut_for_the_next() -> None:
    rules = bazar.rules("kolbasa", players=3)
    assert rules.hand_size == 9 and rules[CUT_PIECE_TO] == "next_player"
    rnd = Round(rules, seed=4)
    assert [len(h) for h in Round(rules, seed=4).deal()["hands"]] == [9, 9, 9]
    assert rnd.bazar_size == 1 and rnd.drawable == 0
    assert bazar.rules("kolbasa", players=4).hand_size == 7
    with pytest.raises(ValueError, match="next player"):
        bazar.rules("kolbasa", players=3, cut_piece_to="opponent")
    cut = game([["5-5", "6-6"], ["5-0", "1-1"], ["5-2", "4-4"]], ["5-0:R", "pass", "cut 5-2:1"])
    assert row(cut, A) == ["6-6", "5-5"]  # the next player after the cutter (seat 2) is seat 0


def test_kolbasa_is_played_with_double_six_and_its_alias_is_russian() -> None:
    assert bazar.rules("колбаса").name == "kolbasa"
    with pytest.raises(ValueError, match="double-6"):
        bazar.rules("kolbasa", set_max=9)
    with pytest.raises(ValueError, match="empty row"):
        game([["6-6"], []])


# -- nobody sees a face-down tile, not even his own -----------------------------------------------


def revealed(rnd: Round) -> set[Tile]:
    """Every tile that has been face up: the opening's, those used or sent back, the front."""
    extra = rnd.view(None).extra
    seen = {Tile.parse(t) for _, t in extra["opening"]}
    seen |= {Tile.parse(t) for t in extra["sent_back"]}
    seen |= {m.tile for m in rnd.moves if m.tile is not None}
    if extra["front"] is not None:
        seen.add(Tile.parse(extra["front"]))
    if rnd.is_over():
        seen |= {t for h in rnd.hands for t in h}
    return seen


seeds = st.integers(0, 2**32 - 1)
players = st.integers(2, 4)
few = settings(max_examples=12, deadline=None)


@few
@given(players, seeds, seeds)
def test_no_view_names_a_tile_that_was_never_turned_over(n: int, seed: int, line: int) -> None:
    rnd = Round(bazar.rules("kolbasa", players=n), seed=seed)
    for seat in range(n):
        assert rnd.view(seat).hand is None
    views_show_only(rnd, line, lambda position, seat: revealed(position))


@few
@given(players, seeds, seeds, st.integers(0, 3))
def test_no_view_changes_with_the_order_of_face_down_tiles(
    n: int, seed: int, line: int, seat_pick: int
) -> None:
    rules = bazar.rules("kolbasa", players=n)
    dealt = Round(rules, seed=seed)
    finished = play_out(dealt.copy(), line)
    moves = list(finished.moves)
    finished.pop()  # the rows are shown once the game is over
    face_up = revealed(finished)
    deal = dealt.deal()
    places = [(r, i) for r in deal["hands"] for i in range(len(r))]
    places += [(deal["bazar"], i) for i in range(len(deal["bazar"]))]
    hidden = [(where, i) for where, i in places if Tile.parse(where[i]) not in face_up]
    tiles = [where[i] for where, i in hidden]
    random.Random(line).shuffle(tiles)
    for (where, i), tile in zip(hidden, tiles, strict=True):
        where[i] = tile
    a, b = Round(rules, **dealt.deal()), Round(rules, **deal)
    compared = same_views_while_legal(a, b, moves, seat_pick % n)
    assert compared == len(moves)


# -- the engine's promises ------------------------------------------------------------------------


def universe(rnd: Round) -> list[Move]:
    """Every tile attached, played without an end, or cut at every joint and one beyond."""
    tiles = tile_set(6)
    joints = range(1, len(rnd.board.tiles()) + 1)
    cuts = [Move("cut", t, str(j)) for t in tiles for j in joints]
    return [
        *(Move.play(t, "R") for t in tiles),
        *(Move.play(t) for t in tiles),
        *cuts,
        Move("pass"),
        Move("stop"),
        Move("draw"),
    ]


@few
@given(players, seeds, seeds, st.booleans())
def test_legal_moves_are_exactly_what_push_accepts_and_pop_undoes(
    n: int, seed: int, line: int, loose: bool
) -> None:
    # the reveal cap keeps the game short: a player who may stop can prolong it for long
    rules = bazar.rules("kolbasa", players=n, use_is_compulsory=not loose, max_reveals=300)
    legal_is_what_push_accepts(Round(rules, seed=seed), universe, line)


@few
@given(players, seeds, seeds)
def test_pop_and_copy_are_exact(n: int, seed: int, line: int) -> None:
    pop_and_copy_are_exact(Round(bazar.rules("kolbasa", players=n), seed=seed), line)


@few
@given(players, seeds, seeds, st.integers(0, 400))
def test_records_round_trip(n: int, seed: int, line: int, moves: int) -> None:
    records_round_trip(bazar.rules("kolbasa", players=n), seed, line, moves)


@few
@given(players, seeds, seeds, st.integers(0, 200))
def test_a_round_from_a_view_plays_on_like_the_real_one(
    n: int, seed: int, line: int, moves: int
) -> None:
    rnd = play_out(Round(bazar.rules("kolbasa", players=n), seed=seed), line, moves)
    from_view_plays_on_alike(rnd, line)


@settings(max_examples=30, deadline=None)
@given(players, seeds, seeds)
def test_random_matches_end_in_one_game(n: int, seed: int, line: int) -> None:
    match = matches_end(bazar.rules("kolbasa", players=n), seed, line, 10_000)
    assert len(match.rounds) == 1


def test_a_match_is_one_game_and_its_record_says_who_won() -> None:
    match = play_out(Match(bazar.rules("kolbasa"), seed=11), 3)
    data = json.loads(bazar.record.dumps(match))
    assert len(data["rounds"]) == 1 and match.result() is not None
    assert set(data["rounds"][0]["deal"]) == {"hands", "bazar", "leader"}


def test_a_hand_built_outcome_settles_like_a_played_one() -> None:
    rules = bazar.rules("kolbasa", players=3)
    out = Outcome("deadlock", remaining=[["1-2", "3-4"], ["5-6"], ["0-0"]])
    result = Ledger.new(rules).settle(out).result
    assert result is not None and (result.winners, result.losers) == ((1, 2), (0,))


# -- move generation, counted ---------------------------------------------------------------------


def lines(rnd: Round, depth: int) -> list[str]:
    """Every move sequence that :func:`perft` counts, written out, with how it ends."""
    if rnd.is_over():
        outcome = rnd.outcome()
        assert outcome is not None
        return [f"| {outcome.reason}"]
    if depth == 0:
        return [""]
    found = []
    for move in rnd.legal_moves():
        rnd.push(move)
        found += [f"{move} {rest}".strip() for rest in lines(rnd, depth - 1)]
        rnd.pop()
    return found


def test_the_choice_of_8_4_counted_by_hand() -> None:
    """A holds 3-2 then 0-0, B holds 1-1 then 4-4; the sausage is 2-2 | 2-6 | 6-3.

    - Attach 3-2 (open end 2, joints 2 6 3): A's 0-0 and B's 1-1 and 4-4 fit nowhere; once
      each has turned over his whole row the game is blocked (A, with one tile, wins).
    - Cut at joint 1: B receives 2-2 and A goes on with 0-0 (unusable). Both turn over in
      vain until B's 2-2 comes up and cuts back at joint 1 (A receives 3-2); B's 1-1 and A's
      0-0 and B's 4-4 go back, and A's 3-2 may attach or cut again. Or B declines the cut
      (``stop``: the cut is his choice) and, nobody having used a tile since, the game is
      blocked.
    """
    rnd = choice_game()
    assert lines(rnd, 12) == [
        "3-2:R pass pass pass pass | deadlock",
        "cut 3-2:1 pass pass pass pass pass cut 2-2:1 pass pass pass 3-2:R pass",
        "cut 3-2:1 pass pass pass pass pass cut 2-2:1 pass pass pass cut 3-2:1 pass",
        "cut 3-2:1 pass pass pass pass pass stop | deadlock",
    ]
    assert [perft(rnd, d) for d in (0, 1, 2, 5, 10, 11, 12)] == [1, 2, 2, 2, 3, 4, 4]


# regression values: Round(rules("kolbasa", players=n), seed=1), computed with the engine when
# this file was written; a change means move generation changed and needs a rule to explain it.
# The cut is the player's choice: every tile that only cuts is also a stop, and the tree
# branches there (the counts with the cut compulsory are those before the choice came in)
PERFT = {
    2: {1: 1, 5: 2, 10: 9, 15: 92, 20: 476},
    3: {1: 1, 10: 2, 20: 12, 25: 151},
    4: {1: 1, 10: 6, 15: 28, 20: 132},
}
PERFT_CUT_IS_COMPULSORY = {
    2: {1: 1, 10: 2, 30: 3, 40: 23, 50: 81, 60: 220},
    3: {1: 1, 40: 6, 50: 19, 60: 26},
    4: {1: 1, 15: 4, 25: 20, 40: 143, 50: 448},
}


@pytest.mark.parametrize("n", PERFT)
def test_perft_of_the_seed_1_deal(n: int) -> None:
    rnd = Round(bazar.rules("kolbasa", players=n), seed=1)
    assert isinstance(rnd, KolbasaRound)
    assert {depth: perft(rnd, depth) for depth in PERFT[n]} == PERFT[n]


@pytest.mark.parametrize("n", PERFT_CUT_IS_COMPULSORY)
def test_perft_of_the_seed_1_deal_with_the_cut_compulsory(n: int) -> None:
    rnd = Round(bazar.rules("kolbasa", players=n, cut_is_compulsory=True), seed=1)
    counts = PERFT_CUT_IS_COMPULSORY[n]
    assert {depth: perft(rnd, depth) for depth in counts} == counts


# -- the terminal -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Sausage:", "open end", "Turned over by You", "The match is over"]),
        ("ru", ["Колбаса:", "стыки"]),
    ],
)
def test_the_terminal_tells_a_whole_match(lang: str, words: list[str]) -> None:
    out = io.StringIO()
    answers = iter(["1"] * 20_000)
    talk = TableTalk(
        Match(bazar.rules("kolbasa"), seed=2),
        0,
        "greedy",
        Console(file=out, width=100),
        lambda prompt: next(answers),
        lang,
    )
    assert talk.play().is_over()
    for word in words:
        assert word in out.getvalue()
