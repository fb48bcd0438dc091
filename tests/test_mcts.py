"""The searching bots (``bazar.bots.mcts``): the time their levels promise, and ismcts keeps
the heuristic's move unless its tree shows another better beyond the noise."""

from __future__ import annotations

from positions import own_train_position

from bazar import bots


def test_the_levels_promise_their_time() -> None:
    pimc = bots.make("pimc")
    ismcts = bots.make("ismcts")
    assert pimc.budget.ms and pimc.budget.ms <= 50  # type: ignore[attr-defined]
    assert ismcts.budget.ms and ismcts.budget.ms <= 1000  # type: ignore[attr-defined]


def test_ismcts_keeps_the_train_plan_unless_its_tree_clearly_beats_it() -> None:
    """In Mexican Train the heuristic's move stands unless the search shows another better
    by more than its noise: with two iterations nothing is clearly better, so ismcts plays
    the planned 6-0:M whatever its two rollouts happened to like."""
    view = own_train_position()
    for seed in range(5):
        assert str(bots.make("ismcts@2", seed=seed).choose(view, view.legal)) == "6-0:M"


def test_a_move_is_clearly_better_only_beyond_the_noise() -> None:
    from bazar.bots.mcts import _clearly_better, _Node

    def node(rewards: list[float]) -> _Node:
        n = _Node(0)
        n.visits = len(rewards)
        n.total = sum(rewards)
        n.squares = sum(r * r for r in rewards)
        return n

    steady_high, steady_low = node([0.7, 0.8] * 20), node([0.3, 0.4] * 20)
    noisy_high, noisy_low = node([1.0, 0.0, 1.0]), node([0.0, 1.0, 0.0])
    assert _clearly_better(steady_high, steady_low, 1.0)
    assert not _clearly_better(steady_low, steady_high, 1.0)
    # means 2/3 and 1/3, standard error of the difference 0.47: within the noise
    assert not _clearly_better(noisy_high, noisy_low, 1.0)
    assert _clearly_better(noisy_high, noisy_low, 0.5)
    # an untried alternative is never clearly worse; a move tried once is never clearly better
    assert _clearly_better(steady_high, None, 1.0)
    assert not _clearly_better(node([1.0]), steady_low, 1.0)
