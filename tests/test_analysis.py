"""The coach (bazar.analysis): a move graded from what its player knew.

Constructed positions where one move clearly loses are marked blunders with the right move
named; a choice between equal moves gets no mark; the grades read the player's view alone (the
same view over other hidden hands grades the same); an analysis is the same for a seed
whatever the number of processes; Lichess's thresholds and accuracy; the match's chance from a
ledger; ``bazar analyse`` on the command line.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bazar
from bazar import analysis
from bazar.analysis import Spot, Thresholds
from bazar.bots import sampler
from bazar.core import record
from bazar.core.moves import Move
from bazar.core.round import Round

BLOCK = bazar.rules("block")
#: 95 all in a match to 100: the round decides it
AT_STAKE = bazar.Ledger(BLOCK, scores=[95, 95])


def lead(hands: list[list[str]], ledger: bazar.Ledger = AT_STAKE) -> Round:
    """A Block round of these hands (no tiles to draw), seat 0 to lead."""
    return Round(BLOCK, hands=hands, bazar=[], leader=0, ledger=ledger, number=2)


def spot(rnd: Round, played: str, ledger: bazar.Ledger = AT_STAKE) -> Spot:
    seat = rnd.turn
    assert seat is not None
    view = bazar.View.of(rnd, seat, scores=ledger.public())
    legal = tuple(rnd.legal_moves())
    move = next(m for m in legal if str(m) == played)
    return Spot(rnd.number, len(rnd.moves), seat, view, legal, move)


def graded(s: Spot, deals: int = 64, seed: int = 0) -> analysis.GradedMove:
    position = analysis.evaluate_view(s.view, s.legal, s.seed(seed), deals)
    move = analysis.grade(s, position)
    assert move is not None
    return move


def test_leading_the_single_when_the_double_goes_out_next_is_a_blunder() -> None:
    """6-6 led leaves two 6s open: the opponent covers one, 6-1 goes out on the other and wins
    the match. 6-1 led can be shut out by his 6 or 1, and leaves the 6-6 stuck in hand."""
    move = graded(spot(lead([["6-6", "6-1"], ["5-4", "3-2", "2-0"]]), "6-1"))
    assert move.grade == "blunder" and move.symbol == "??"
    assert str(move.best) == "6-6"
    assert move.win_before > 0.95 and move.win_after < 0.7
    assert move.advice is not None and move.advice.code == "double"
    assert move.accuracy is not None and move.accuracy < 20


def played_out(hands: list[list[str]], moves: list[str]) -> Round:
    rnd = lead(hands)
    for move in moves:
        rnd.push(move)
    return rnd


def test_covering_the_pip_the_opponent_passed_on_is_a_blunder() -> None:
    """He passed on 4 and 3 and cannot draw: 4-4 keeps a 4 for him to face, and he passes
    again; 4-0 turns the end to 0, which his 5-0 fits."""
    rnd = played_out(
        [["6-0", "3-0", "4-0", "1-0", "4-4"], ["2-2", "4-1", "6-5", "5-0", "6-6"]],
        ["1-0", "4-1:L", "3-0:R", "pass"],
    )
    move = graded(spot(rnd, "4-0:L"))
    assert move.grade == "blunder" and str(move.best) == "4-4:L"
    assert move.advice is not None and move.advice.code == "void"
    assert move.advice.params == {"best": "4-4:L", "seat": 2, "pip": 4, "played": "4-0:L"}
    assert graded(spot(rnd, "4-4:L")).grade == "good"


def test_closing_a_fish_the_side_loses_is_a_blunder() -> None:
    """6-5 on the 5 leaves 6 at both ends, and every other 6 sleeps: the table is blocked
    with 12 pips in this hand against his 8. 6-5 on the 6 plays on."""
    rnd = played_out(
        [["6-1", "6-6", "4-3", "5-0", "6-5"], ["3-2", "3-0", "5-1"]],
        ["6-1", "5-1:R", "6-6:L", "pass"],
    )
    move = graded(spot(rnd, "6-5:R"))
    assert move.grade == "blunder" and str(move.best) == "6-5:L"
    assert move.advice is not None and move.advice.code == "fish"
    assert move.win_after < 0.5 < move.win_before


def test_the_best_move_played_is_good_and_counts_full_accuracy() -> None:
    move = graded(spot(lead([["6-6", "6-1"], ["5-4", "3-2", "2-0"]]), "6-6"))
    assert move.grade == "good" and move.is_best and move.symbol == ""
    assert move.loss == 0.0 and move.accuracy == pytest.approx(100.0, abs=0.01)
    assert move.advice is None


def test_a_choice_between_equal_moves_gets_no_mark() -> None:
    """After 6-6 both ends show 6: 6-3 on either is the same move."""
    rnd = Round(
        BLOCK, hands=[["6-3", "2-2"], ["6-6", "4-1", "5-0"]], bazar=[], leader=1, ledger=AT_STAKE
    )
    rnd.push("6-6")
    assert [str(m) for m in rnd.legal_moves()] == ["6-3:L", "6-3:R"]
    for played in ("6-3:L", "6-3:R"):
        move = graded(spot(rnd, played))
        assert move.grade == "good" and move.loss < Thresholds().inaccuracy


def test_a_forced_move_is_marked_forced_and_not_counted() -> None:
    rnd = Round(BLOCK, hands=[["6-3", "2-2"], ["6-6", "3-1", "5-5"]], bazar=[], leader=1)
    rnd.push("6-6")
    rnd.push("6-3:L")
    s = spot(rnd, str(rnd.legal_moves()[0]), rnd.ledger)
    assert s.forced
    move = graded(s, deals=8)
    assert move.grade == "forced" and move.accuracy is None and move.loss == 0.0


def _position(variant: str, players: int, seed: int, plies: int) -> tuple[Round, int] | None:
    """A round of ``variant`` played at random from ``seed`` for ``plies`` moves, stopped at a
    choice of two moves at least; None where the round ends first."""
    rng = random.Random(seed)
    rnd = Round(bazar.rules(variant, players=players), seed=seed)
    for _ in range(plies):
        if rnd.is_over():
            return None
        rnd.push(rng.choice(rnd.legal_moves()))
    while not rnd.is_over() and len(rnd.legal_moves()) < 2:
        rnd.push(rnd.legal_moves()[0])
    if rnd.is_over():
        return None
    seat = rnd.turn
    assert seat is not None
    return rnd, seat


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from([("block", 2), ("draw", 3), ("kozel", 4), ("fives", 2)]),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 12),
)
def test_the_grades_read_the_view_alone(game: tuple[str, int], seed: int, plies: int) -> None:
    """The same view, the hidden hands and the stock dealt otherwise: the same values, the
    same grades, move for move."""
    found = _position(*game, seed, plies)
    if found is None:
        return
    rnd, seat = found
    other = sampler.Determinizer(rnd.view(seat)).round(random.Random(seed + 1))
    assert other is not None
    assert other.view(seat).to_json() == rnd.view(seat).to_json()
    for played in rnd.legal_moves()[:2]:
        a = graded(spot(rnd, str(played), rnd.ledger), deals=6, seed=seed)
        b = graded(spot(other, str(played), other.ledger), deals=6, seed=seed)
        assert a == b


def played_match(variant: str, seed: int, **options: object) -> bazar.Match:
    match = bazar.Match(bazar.rules(variant, **options), seed=seed)
    rng = random.Random(seed)
    while not match.is_over():
        match.push(rng.choice(match.legal_moves()))
    return match


@pytest.mark.parametrize("variant", sorted(bazar.VARIANTS))
def test_every_game_s_moves_are_graded_or_counted_unvalued(variant: str) -> None:
    """The first round of a random match of every variant: each move graded once, in order,
    or counted unvalued, and only where the game cannot be dealt from a view (Kolbasa's
    blind rows), or where few deals fit it (a trick game's follow-suit voids)."""
    rules = bazar.rules(variant)
    match = bazar.Match(rules, seed=3)
    rng = random.Random(3)
    while not match.is_over() and len(match.rounds) < 2:
        match.push(rng.choice(match.legal_moves()))
    report = analysis.analyse(match, deals=2, seed=1)
    played = sum(len(rnd.moves) for rnd in match.rounds)
    assert len(report.moves) + report.unvalued == played
    if not rules.variant.determinizable:
        assert report.moves == [] and report.unvalued == played
        return
    assert report.unvalued <= played // 10
    assert all(m.grade in analysis.GRADES for m in report.moves)
    chosen = [m for m in report.moves if m.grade != "forced"]
    assert all(0 <= m.loss <= 2 and m.best in [v.move for v in m.values] for m in chosen)


def test_an_analysis_is_the_same_for_a_seed_in_one_process_or_two() -> None:
    match = played_match("block", 3, target=20)
    text = record.dumps(match)
    one = analysis.analyse(text, deals=6, seed=4, jobs=1)
    two = analysis.analyse(text, deals=6, seed=4, jobs=2)
    assert one.to_json() == two.to_json()
    assert analysis.analyse(text, deals=6, seed=5).to_json() != one.to_json()


def test_every_move_of_the_record_is_graded_once_in_order() -> None:
    match = played_match("draw", 8, players=3, target=15)
    seen = []
    report = analysis.analyse(match, deals=4, progress=lambda done, total: seen.append(done))
    played = [(rnd.number, i) for rnd in match.rounds for i in range(len(rnd.moves))]
    assert [(m.round, m.ply) for m in report.moves] == played
    assert seen[-1] == len(played) and seen == sorted(seen)
    only = analysis.analyse(match, seat=1, deals=4)
    assert {m.seat for m in only.moves} == {1}
    assert [m for m in report.moves if m.seat == 1] == only.moves
    for seat in range(3):
        accuracy = report.accuracy(seat)
        assert accuracy is None or 0 <= accuracy <= 100


def test_bad_requests_are_refused() -> None:
    match = played_match("block", 1, target=10)
    with pytest.raises(ValueError, match="seat 2"):
        analysis.analyse(match, seat=2)
    with pytest.raises(ValueError):
        analysis.analyse(match, deals=0)
    with pytest.raises(ValueError):
        Thresholds(inaccuracy=0.3, mistake=0.2)


def test_the_thresholds_are_lichess_s_and_settings() -> None:
    lichess = Thresholds()
    assert [lichess.grade(x) for x in (0.0, 0.099, 0.1, 0.2, 0.3, 1.5)] == [
        "good", "good", "inaccuracy", "mistake", "blunder", "blunder",
    ]  # fmt: skip
    strict = Thresholds(inaccuracy=0.05, mistake=0.1, blunder=0.15)
    assert strict.grade(0.12) == "mistake"


def test_accuracy_is_lichess_s_formula() -> None:
    assert analysis.accuracy(0.0) == pytest.approx(100.0, abs=0.001)
    # a loss of 10 win percent (0.2 of the -1..1 chances)
    assert analysis.accuracy(0.2) == pytest.approx(
        103.1668 * 2.718281828 ** (-0.4354) - 3.1669, abs=0.05
    )
    assert analysis.accuracy(2.0) == 0.0
    assert analysis.mean_accuracy([]) is None
    assert analysis.mean_accuracy([90.0, 90.0]) == pytest.approx(90.0)
    # the harmonic mean lets a blunder weigh: below the plain mean
    assert analysis.mean_accuracy([100.0, 10.0]) < 55.0


def test_the_match_chance_follows_the_score() -> None:
    """Nearer the goat is worse; a decided match is 1 or 0; chances are the same in every
    process (seeded), and 1/2 for a side that finished between winners and losers."""
    rules = bazar.rules("kozel", players=4, teams=True)
    equity = analysis.MatchEquity(rules, rounds=600, playouts=200)
    chances = [equity.chances(bazar.Ledger(rules, scores=[x, 40]))[0] for x in (0, 40, 80, 100)]
    assert chances == sorted(chances, reverse=True)
    assert chances[0] > 0.6 > 0.4 > chances[-1]
    again = analysis.MatchEquity(rules, rounds=600, playouts=200)
    assert again.chances(bazar.Ledger(rules, scores=[30, 60])) == equity.chances(
        bazar.Ledger(rules, scores=[30, 60])
    )
    over = bazar.Ledger(rules, scores=[101, 20])
    assert over.result is not None and equity.chances(over) == (0.0, 1.0)
    solo = bazar.rules("kozel", players=3)
    decided = bazar.Ledger(solo, scores=[105, 30, 10])
    assert analysis.MatchEquity(solo, rounds=50, playouts=4).chances(decided) == (0.0, 0.5, 1.0)


@pytest.mark.parametrize(
    ("mine", "played", "best", "code"),
    [
        (["6-6", "6-1"], "6-1", "6-6", "double"),
        (["6-5", "1-0", "3-2"], "1-0", "6-5", "heavy"),
        (["6-1", "6-2", "1-1", "2-2"], "6-1", "6-2", None),
        (["5-1", "5-2", "3-4", "2-0"], "5-1", "5-2", "variety"),
    ],
)
def test_a_worse_move_is_told_the_principle_it_broke(
    mine: list[str], played: str, best: str, code: str | None
) -> None:
    rnd = lead([mine, ["4-4", "3-3", "2-1", "0-0"]])
    view = bazar.View.of(rnd, 0, scores=AT_STAKE.public())
    advice = analysis.advise(view, Move.parse(played), Move.parse(best))
    assert (advice and advice.code) == code
    if advice is not None:
        assert advice.params["best"] == best
