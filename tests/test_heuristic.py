"""The heuristic bot (``bazar.bots.heuristic``): the train it plans is a longest run of its
hand, and in Mexican Train it keeps its own train and sheds the rest."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from positions import own_train_position

import bazar
from bazar import bots


def _longest_run(end: int, tiles: list[bazar.Tile]) -> int:
    """The longest run from ``end`` by trying every order (small hands only)."""
    best = 0
    for i, t in enumerate(tiles):
        if t.has(end):
            best = max(best, 1 + _longest_run(t.other(end), tiles[:i] + tiles[i + 1 :]))
    return best


@settings(max_examples=200, deadline=None)
@given(
    end=st.integers(0, 6),
    picks=st.lists(st.integers(0, 27), min_size=0, max_size=7, unique=True),
)
def test_the_planned_train_is_a_longest_run_of_the_hand(end: int, picks: list[int]) -> None:
    from bazar.bots.heuristic import plan_train

    hand = [bazar.tile_set(6)[i] for i in picks]
    run = plan_train(end, hand)
    pip = end
    for tile in run:
        assert tile in hand and tile.has(pip)
        pip = tile.other(pip)
    assert len(set(run)) == len(run)
    assert len(run) == _longest_run(end, hand)


def test_mexican_train_heuristic_keeps_its_own_train_and_sheds_the_rest() -> None:
    """mexican-train.md, the seeds' advice: plan your own train. Seat 0's train ends on 2
    and its hand runs 2-5, 5-3 from there; 6-0 fits nothing of that plan, and the Mexican
    train (engine 6) takes it. Greedy plays the heavier 2-5 and breaks nothing -- but
    leaves 6-0 with nowhere planned."""
    view = own_train_position()
    assert {str(m) for m in view.legal} == {"5-2:0", "6-0:M"}
    assert str(bots.make("heuristic", seed=1).choose(view, view.legal)) == "6-0:M"
    assert str(bots.make("greedy", seed=1).choose(view, view.legal)) == "5-2:0"
