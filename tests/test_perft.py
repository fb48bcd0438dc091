"""Move generation, counted: ``perft(rnd, depth)`` is the number of move sequences of length
``depth`` from a position, a finished round counting as one sequence where it ends early
(STYLE.md: a perft count per variant, to catch any change in move generation); ``perft`` is
``tests/invariants.py``'s.

Two tiny deals are counted by hand; the counts of the seeded deals are regression values
computed with the engine when this file was written: a change in one of them means move
generation changed, and the change has to be explained by a rule.
"""

from __future__ import annotations

import pytest
from invariants import perft, snapshot

import bazar
from bazar import Round

#: the layout families whose counts live here
LAYOUTS = ("line", "cross")


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


# -- counted by hand -------------------------------------------------------------------------


def test_a_block_deal_counted_by_hand() -> None:
    """Seat 0 holds 1-0 and 3-3, seat 1 holds 2-0 and 2-1; seat 0 leads any tile; no drawing.

    - 3-3 lead: nobody holds a 3, so the round is a fish at once.
    - 1-0 lead (ends 1 | 0): seat 1 plays 2-0 on R or 2-1 on L; seat 0, left with 3-3, cannot
      play and passes; seat 1's last tile fits both ends (2 | 1 or 2 | 0): two ways out each.
    """
    rnd = Round(bazar.rules("block"), hands=[["1-0", "3-3"], ["2-0", "2-1"]], leader=0)
    assert lines(rnd, 5) == [
        "1-0 2-0:R pass 2-1:L | out",
        "1-0 2-0:R pass 2-1:R | out",
        "1-0 2-1:L pass 2-0:L | out",
        "1-0 2-1:L pass 2-0:R | out",
        "3-3 | fish",
    ]
    assert [perft(rnd, d) for d in range(7)] == [1, 2, 3, 3, 5, 5, 5]


def test_a_draw_deal_counted_by_hand() -> None:
    """Seat 0 holds 1-0 and 5-5, seat 1 holds 2-2; the bazar is 0-0 then 3-1.

    - 1-0 lead (1 | 0): seat 1 cannot play, draws 0-0 and plays it on R; seat 0 cannot play,
      draws 3-1 (the bazar is now empty) and plays it on L (3 | 0); nobody left holds a 3 or
      a 0 and nothing can be drawn: a fish.
    - 5-5 lead: seat 1 draws both tiles, none a 5; the draw that empties the bazar makes the
      fish (nobody holds a 5).
    """
    rnd = Round(
        bazar.rules("draw"), hands=[["1-0", "5-5"], ["2-2"]], bazar=["0-0", "3-1"], leader=0
    )
    assert lines(rnd, 6) == [
        "1-0 draw 0-0:R draw 3-1:L | fish",
        "5-5 draw draw | fish",
    ]
    assert [perft(rnd, d) for d in range(7)] == [1, 2, 2, 2, 2, 2, 2]


def test_a_forced_lead_is_the_only_first_move() -> None:
    rnd = Round(bazar.rules("classic"), hands=[["1-0", "6-6"], ["2-2", "6-1"]], bazar=["3-3"])
    assert rnd.leader == 0
    assert lines(rnd, 1) == ["6-6"]


# -- regression values -----------------------------------------------------------------------

# (variant, players) -> {depth: perft} for Round(rules(variant, players=players), seed=1), for
# the games played on a line or a cross (the other families count theirs in their own test
# modules), computed with the engine as it was when this file was written (not checked by hand).
PERFT = {
    ("block", 2): {1: 1, 2: 6, 10: 846, 20: 1162, 30: 1162, 40: 1162},
    ("block", 4): {1: 1, 2: 6, 4: 46, 6: 438, 9: 8668},
    ("draw", 2): {1: 1, 2: 6, 5: 84, 10: 808, 15: 1898, 21: 4084},
    ("draw", 4): {1: 1, 2: 6, 4: 46, 6: 438, 9: 8668},
    # the house rule changes the score, not the moves: the same counts as Draw
    ("draw-bonus", 2): {1: 1, 2: 6, 5: 84, 10: 808, 15: 1898, 21: 4084},
    ("draw-bonus", 4): {1: 1, 2: 6, 4: 46, 6: 438, 9: 8668},
    ("classic", 2): {1: 1, 2: 6, 4: 36, 8: 462, 12: 1240, 17: 2550},
    ("classic", 4): {1: 1, 2: 4, 5: 26, 10: 244, 15: 1000, 20: 2882},
    ("classic-penalty", 2): {1: 1, 2: 2, 6: 8, 13: 62, 20: 734, 27: 8128},
    ("classic-penalty", 4): {1: 1, 2: 1, 5: 2, 10: 52, 15: 696, 21: 4076},
    ("fives", 2): {1: 9, 2: 36, 3: 133, 5: 1856},
    ("fives", 4): {1: 5, 2: 11, 4: 47, 6: 235, 8: 1864},
    ("muggins", 2): {1: 9, 2: 36, 3: 133, 4: 481, 6: 4888},
    ("muggins", 4): {1: 5, 2: 11, 5: 93, 8: 608, 11: 2417},
    ("five-up", 2): {1: 1, 2: 6, 3: 16, 5: 212, 7: 2600},
    ("domino-five", 2): {1: 7, 2: 24, 3: 73, 4: 234, 6: 1644},
    ("domino-five", 4): {1: 5, 2: 11, 4: 47, 6: 235, 8: 1864},
    ("pyaterochka", 2): {1: 7, 2: 24, 3: 73, 4: 234, 6: 1644},
    ("pyaterochka", 4): {1: 5, 2: 11, 4: 47, 6: 235, 8: 1864},
    ("all-threes", 2): {1: 7, 2: 24, 3: 73, 4: 234, 6: 1644},
    ("all-threes", 4): {1: 5, 2: 11, 4: 47, 6: 235, 9: 4582},
    ("bergen", 2): {1: 1, 2: 2, 6: 6, 13: 26, 19: 156, 26: 968},
    ("bergen", 4): {1: 1, 2: 1, 4: 1, 9: 30, 13: 284, 18: 1846},
    ("kozel", 2): {1: 1, 2: 2, 6: 8, 13: 62, 19: 522, 26: 3862},
    ("kozel", 4): {1: 1, 2: 6, 4: 64, 6: 632, 9: 13490},
    ("kozel-team", 4): {1: 1, 2: 6, 4: 64, 6: 632, 9: 13490},
    ("kozel-goat25", 2): {1: 1, 2: 6, 5: 84, 10: 808, 15: 1898, 20: 3678},
    ("kozel-goat25", 4): {1: 1, 2: 4, 5: 26, 11: 318, 17: 1388, 23: 7790},
    ("kozel-traditional", 2): {1: 1, 2: 6, 5: 84, 10: 840, 15: 1978, 20: 3794},
    ("kozel-traditional", 4): {1: 1, 2: 4, 5: 26, 10: 248, 15: 1040, 20: 3066},
    ("kozel-beginner", 2): {1: 1, 2: 2, 6: 8, 13: 62, 20: 734, 27: 8128},
    ("kozel-beginner", 4): {1: 1, 2: 1, 5: 2, 10: 52, 15: 696, 21: 4076},
    ("osel", 2): {1: 1, 2: 2, 4: 6, 9: 22, 13: 112, 18: 1422},
    ("osel", 4): {1: 1, 2: 6, 3: 22, 5: 328, 7: 7660},
    ("sea-kozel", 2): {1: 1, 2: 2, 7: 10, 14: 90, 21: 892, 28: 12358},
    ("sea-kozel", 4): {1: 1, 2: 6, 4: 64, 6: 612, 9: 12612},
    ("telephone", 2): {1: 1, 2: 2, 5: 4, 10: 18, 15: 128, 21: 2036},
    ("telephone", 4): {1: 1, 2: 6, 3: 22, 5: 284, 7: 6784},
}


def test_every_game_on_a_line_or_a_cross_has_a_perft_count() -> None:
    layouts = {n for n in bazar.rules.names() if bazar.rules.variant(n).family in LAYOUTS}
    assert {name for name, _ in PERFT} == layouts


@pytest.mark.parametrize(("name", "players"), PERFT)
def test_perft_of_the_seed_1_deal(name: str, players: int) -> None:
    rnd = Round(bazar.rules(name, players=players), seed=1)
    counts = PERFT[name, players]
    assert {depth: perft(rnd, depth) for depth in counts} == counts


def test_the_whole_block_tree_of_seed_1_is_counted() -> None:
    rnd = Round(bazar.rules("block"), seed=1)
    assert perft(rnd, 20) == perft(rnd, 60) == 1162


@pytest.mark.parametrize(("name", "players"), PERFT)
def test_counting_leaves_the_round_as_it_was(name: str, players: int) -> None:
    rnd = Round(bazar.rules(name, players=players), seed=1)
    rnd.push(rnd.legal_moves()[0])
    before = snapshot(rnd)
    perft(rnd, 4)
    assert snapshot(rnd) == before
