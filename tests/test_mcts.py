"""The searching bots (``bazar.bots.mcts``): the time their levels promise, and ismcts keeps
the heuristic's move unless its tree shows another better beyond the noise."""

from __future__ import annotations

import pytest
from positions import own_train_position

from bazar import bots
from bazar.hotpath import compiled


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


def test_only_the_games_that_reward_long_plans_say_so() -> None:
    import bazar

    for name in bazar.VARIANTS:
        rnd = bazar.Round(bazar.rules(name), seed=1)
        assert rnd.rewards_long_plans == (name == "mexican-train"), name


@pytest.mark.skipif(
    "bazar.bots.mcts" in compiled(), reason="a compiled search reads the compiled property"
)
def test_ismcts_keeps_the_heuristic_s_plan_in_any_game_that_rewards_long_plans(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Mexican Train rule is the round's capability, not the game's name: a Block round
    that said it rewards long plans would have ismcts keep the heuristic's move too (with
    two iterations nothing is clearly better)."""
    import bazar
    from bazar.games.line.round import LineRound

    rnd = bazar.Round(bazar.rules("block"), seed=2)
    rnd.push(rnd.legal_moves()[0])
    while len(rnd.legal_moves()) < 3:
        rnd.push(rnd.legal_moves()[0])
    seat = rnd.turn
    assert seat is not None
    view = rnd.view(seat)
    liked = bots.make("heuristic", seed=0).choose(view, view.legal)
    free = {str(bots.make("ismcts@2", seed=s).choose(view, view.legal)) for s in range(8)}
    assert free != {str(liked)}  # on its own, two iterations pick all sorts
    monkeypatch.setattr(LineRound, "rewards_long_plans", property(lambda self: True))
    for seed in range(8):
        assert bots.make("ismcts@2", seed=seed).choose(view, view.legal) == liked


def test_each_iteration_adds_one_node_and_counts_its_deal() -> None:
    from bazar.bots.mcts import IsmctsBot

    view = own_train_position()
    bot = bots.make("ismcts@50", seed=3)
    assert isinstance(bot, IsmctsBot)
    bot.choose(view, view.legal)
    stats = bot.stats
    assert stats is not None and not stats.endgame
    assert stats.iterations == 50 and 1 <= stats.deals <= 50
    assert 1 <= stats.mean_depth <= stats.depth


def test_a_node_offers_its_untried_moves_and_counts_the_tried_ones() -> None:
    from bazar.bots.mcts import _Node
    from bazar.core.moves import Move

    a, b, c = Move.parse("6-6"), Move.parse("5-5"), Move.parse("4-4")
    root = _Node(-1)
    root.children[a] = _Node(0)
    assert root.offered([a, b, c]) == [b, c]
    assert root.children[a].avail == 1
    root.children[a].backup(0.75, 2.0)
    assert root.children[a].visits == 2.0 and root.children[a].total == 1.5
